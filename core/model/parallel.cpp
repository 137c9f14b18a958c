// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/parallel.h"

#include "model/gemm.h"
#include "train/profile.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <new>
#include <thread>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define AS_PAUSE() _mm_pause()
#else
#define AS_PAUSE() ((void)0)
#endif

namespace as {

namespace {

thread_local bool tInsideChunk = false;

struct AlignedFree {
    void operator()(std::byte* p) const { ::operator delete(p, std::align_val_t(64)); }
};
thread_local std::unique_ptr<std::byte, AlignedFree> tScratch;

// The thread's chunk scratch, allocated if it has none (chunkScratch in parallel.h). On a cache
// line: a plain 128 KiB buffer comes from mmap at a page plus 16 bytes, and every 64-byte load
// and store from it then spans two lines (Dropout's second thread drew and applied its mask 1.5
// times slower than the first, whose buffer happened to be aligned).
std::byte* ensureChunkScratch()
{
    if (!tScratch)
        tScratch.reset(static_cast<std::byte*>(::operator new(kChunkScratchBytes, std::align_val_t(64))));
    return tScratch.get();
}

// Workers spin on a generation counter for a moment before they sleep in std::atomic::wait:
// a training step issues hundreds of short parallel regions, and a region that starts while
// the other thread still spins needs no wake-up.
// Measured on the 2-vCPU machines here (bench tiny/small, 2 threads): 0 or 20 us break even
// with one thread, 200 us loses 15-40%, 5 ms loses 3-8x (the spinning starves the other vCPU).
constexpr auto kSpin = std::chrono::microseconds(20);

// Spins until done() or kSpin has passed; true if done().
template <typename Done>
bool spinUntil(Done done)
{
    const auto until = std::chrono::steady_clock::now() + kSpin;
    for (;;) {
        for (int i = 0; i < 256; ++i) {
            if (done())
                return true;
            AS_PAUSE();
        }
        if (std::chrono::steady_clock::now() >= until)
            return false;
    }
}
class Pool {
public:
    explicit Pool(int threads)
        : threads_(std::max(1, threads)), claimed_(std::make_unique<Claim[]>(std::size_t(threads_)))
    {
        for (int i = 1; i < threads_; ++i)
            workers_.emplace_back([this, i] { loop(i); });
        // Every worker has its chunk scratch before the pool is used.
        for (int s = started_.load(); s < threads_ - 1; s = started_.load())
            started_.wait(s);
    }
    ~Pool()
    {
        stop_.store(true);
        generation_.fetch_add(1);
        generation_.notify_all();
        for (std::thread& t : workers_)
            t.join();
    }
    int threads() const { return threads_; }

    // False when another thread is using the pool (the caller then runs the chunks itself).
    bool tryRun(int chunks, FunctionRef<void(int)> job)
    {
        if (busy_.test_and_set(std::memory_order_acquire))
            return false;
        run(chunks, job);
        busy_.clear(std::memory_order_release);
        return true;
    }

private:
    // The chunks of a region are claimed, not assigned: thread i (the caller is 0) first claims
    // chunk i, then any chunk still unclaimed. A worker that wakes late (a sleeping thread
    // takes tens of microseconds to start on the machines here) then finds its chunk done by
    // the caller instead of making the caller wait for it, and a thread that is on time runs
    // the rows it ran in the regions before (still in its cache). The chunks' boundaries do
    // not depend on which thread runs them, so neither do the results.
    //
    // Regions are numbered from 1; chunk c belongs to region r once claimed_[c] has been moved
    // from below r to r. A thread that still looks at an earlier region finds every chunk at
    // that region's number or later and claims none.
    struct alignas(64) Claim {
        std::atomic<std::uint64_t> region{0};
    };

    bool claim(int c, std::uint64_t region)
    {
        std::atomic<std::uint64_t>& slot = claimed_[std::size_t(c)].region;
        std::uint64_t v = slot.load(std::memory_order_relaxed);
        while (v < region)
            if (slot.compare_exchange_weak(v, region, std::memory_order_acq_rel,
                                           std::memory_order_relaxed))
                return true;
        return false;
    }

    // Runs chunks of the current region while any is unclaimed: `self` first.
    void runClaimed(int self)
    {
        const std::uint64_t word = current_.load(std::memory_order_acquire);
        const std::uint64_t region = word >> 16;
        const int chunks = int(word & 0xffff);
        const auto runChunk = [&](int c) {
            (*job_)(c);
            if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1)
                pending_.notify_one();
        };
        if (self < chunks && claim(self, region))
            runChunk(self);
        for (int c = 0; c < chunks; ++c)
            if (c != self && claim(c, region))
                runChunk(c);
    }

    void run(int chunks, FunctionRef<void(int)> job)
    {
        job_ = &job;
        pending_.store(chunks, std::memory_order_relaxed);
        current_.store((++region_ << 16) | std::uint64_t(chunks), std::memory_order_release);
        profileRegion();
        {
            const ProfileScope timed(ProfileCategory::ThreadWait);
            generation_.fetch_add(1, std::memory_order_release);
            generation_.notify_all();
        }
        tInsideChunk = true;
        runClaimed(0);
        tInsideChunk = false;
        const ProfileScope timed(ProfileCategory::ThreadWait);
        while (!spinUntil([this] { return pending_.load(std::memory_order_acquire) == 0; })) {
            const int p = pending_.load();
            if (p != 0)
                pending_.wait(p);
        }
    }

    void loop(int index)
    {
        tInsideChunk = true;
        ensureChunkScratch();
        started_.fetch_add(1);
        started_.notify_all();
        // The generation the pool started with, not a fresh load: a pool destroyed before this
        // thread first runs has already moved the counter on, and that move must be seen.
        unsigned long seen = 0;
        for (;;) {
            unsigned long g = seen;
            while (!spinUntil([&] { return (g = generation_.load(std::memory_order_acquire)) != seen; }))
                generation_.wait(seen);
            seen = g;
            if (stop_.load())
                return;
            runClaimed(index);
        }
    }

    int threads_;
    std::unique_ptr<Claim[]> claimed_;  // [threads]: per chunk, the last region that claimed it
    std::vector<std::thread> workers_;
    std::atomic<unsigned long> generation_{0};
    std::atomic<int> pending_{0};           // chunks of the current region not finished
    std::atomic<std::uint64_t> current_{0};  // the current region's number << 16 | its chunks
    std::uint64_t region_ = 0;               // regions started (by the caller of run)
    std::atomic<bool> stop_{false};
    std::atomic<int> started_{0};  // workers that have started (and have their scratch)
    std::atomic_flag busy_ = ATOMIC_FLAG_INIT;
    const FunctionRef<void(int)>* job_ = nullptr;  // the current region's
};

std::unique_ptr<Pool>& pool()
{
    static std::unique_ptr<Pool> p;
    return p;
}

int defaultThreads()
{
    return std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace

void setEngineThreads(int n)
{
    const int want = n < 1 ? defaultThreads() : n;
    if (!pool() || pool()->threads() != want) {
        pool().reset();
        pool() = std::make_unique<Pool>(want);
    }
}

std::byte* chunkScratch()
{
    return ensureChunkScratch();
}

int engineThreads()
{
    return pool() ? pool()->threads() : 1;
}

int chunkCount(long n, long minPerChunk)
{
    const long threads = engineThreads();
    if (tInsideChunk || threads <= 1 || n <= 0)
        return 1;
    return int(std::clamp(n / std::max(1L, minPerChunk), 1L, threads));
}

void parallelChunks(long n, long minPerChunk, FunctionRef<void(int, long, long)> fn)
{
    if (n <= 0)
        return;
    ensureChunkScratch();
    const int chunks = chunkCount(n, minPerChunk);
    if (chunks == 1) {
        fn(0, 0, n);
        return;
    }
    // A chunk's products in the precision of the thread that started it (model/gemm.h).
    const GemmPrecision precision = gemmPrecision();
    const auto job = [&](int c) {
        const long begin = n * c / chunks, end = n * (c + 1) / chunks;
        const GemmPrecisionScope inPrecision(precision);
        fn(c, begin, end);
    };
    if (!pool()->tryRun(chunks, job)) {
        // The same chunks, one after another: the same results as in parallel.
        tInsideChunk = true;
        for (int c = 0; c < chunks; ++c)
            job(c);
        tInsideChunk = false;
    }
}

}  // namespace as
