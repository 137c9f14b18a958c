// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The engine's one threading layer: a persistent pool that splits a range into one contiguous
// chunk per thread. Chunk boundaries depend only on the range and the thread count, so results
// are bit-identical from run to run at a given thread count. Eigen itself runs single-threaded.
#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>

namespace as {

// A non-owning reference to a callable, valid while the callable lives. std::function would
// copy a lambda capturing more than two pointers to the heap at every call, and a training
// step makes hundreds of parallel calls: it must not allocate (tests/core/test_no_alloc.cpp).
template <typename Sig>
class FunctionRef;

template <typename R, typename... Args>
class FunctionRef<R(Args...)> {
public:
    template <typename F>
        requires(!std::is_same_v<std::remove_cvref_t<F>, FunctionRef>
                 && std::is_invocable_r_v<R, F&, Args...>)
    FunctionRef(F&& f)  // implicit, so that call sites pass lambdas as before
        : obj_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
          call_([](void* obj, Args... args) -> R {
              return (*static_cast<std::remove_reference_t<F>*>(obj))(
                  std::forward<Args>(args)...);
          })
    {
    }
    R operator()(Args... args) const { return call_(obj_, std::forward<Args>(args)...); }

private:
    void* obj_;
    R (*call_)(void*, Args...);
};

// Threads used by parallelFor (the calling thread included); n < 1 means every core.
void setEngineThreads(int n);
int engineThreads();

// Calls fn(chunk, begin, end) for the chunks of [0, n), and returns when all are done. The
// calling thread runs chunks too: each thread claims the next chunk not yet taken, so a chunk
// may run on any thread (but on one only, and its boundaries are the same whichever). Ranges shorter than minPerChunk per thread use fewer chunks.
// Called from inside a chunk, it runs serially.
void parallelChunks(long n, long minPerChunk, FunctionRef<void(int chunk, long begin, long end)> fn);

inline void parallelFor(long n, long minPerChunk, FunctionRef<void(long, long)> fn)
{
    parallelChunks(n, minPerChunk, [fn](int, long b, long e) { fn(b, e); });
}

// How many chunks parallelChunks(n, minPerChunk, …) will use.
int chunkCount(long n, long minPerChunk);

// The running thread's scratch memory: kChunkScratchBytes, 64-byte aligned, for a chunk's
// temporary data (Dropout draws its masks there, core/model/dropout.h). A chunk may run on any
// thread, so every thread that can run one has it before its first chunk: a pool thread
// allocates it when it starts (setEngineThreads returns after that), a calling thread when it
// first calls parallelChunks. A chunk that uses it then allocates nothing, whichever thread runs
// it (tests/core/test_no_alloc.cpp). It was a buffer allocated at first use; a pool thread that
// ran no dropout chunk in the first steps (it woke late each time) then allocated in a later
// one. A chunk owns it from start to end: nothing a chunk calls may use it too.
inline constexpr std::size_t kChunkScratchBytes = std::size_t(256) * 1024;
std::byte* chunkScratch();

}  // namespace as
