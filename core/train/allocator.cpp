// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "train/allocator.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <condition_variable>
#include <mutex>
#include <thread>

namespace as {

struct FreedMemoryReturner::State {
    std::mutex lock;
    std::condition_variable wake;
    bool stop = false;
    std::thread thread;
};

FreedMemoryReturner::FreedMemoryReturner(std::chrono::milliseconds interval) : state_(std::make_unique<State>())
{
    State* s = state_.get();
    s->thread = std::thread([s, interval] {
        std::unique_lock<std::mutex> guard(s->lock);
        while (!s->wake.wait_for(guard, interval, [s] { return s->stop; })) {
            guard.unlock();
            returnNow();
            guard.lock();
        }
    });
}

FreedMemoryReturner::~FreedMemoryReturner()
{
    {
        std::lock_guard<std::mutex> guard(state_->lock);
        state_->stop = true;
    }
    state_->wake.notify_all();
    state_->thread.join();
}

bool FreedMemoryReturner::returnNow()
{
#if defined(__GLIBC__)
    return malloc_trim(0) == 1;
#else
    return false;
#endif
}

void keepFreedMemoryForReuse()
{
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024);
    mallopt(M_TRIM_THRESHOLD, 1024 * 1024 * 1024);
    // One arena for every thread: a thread's own arena (glibc makes up to 8 a core) keeps its
    // top, which nothing returns but a trim threshold this one never reaches (malloc_trim
    // returns the main heap's top, not theirs); in the window, whose threads come and go, that
    // was most of the memory kept. The training step allocates nothing once warmed up, so it
    // does not wait on the lock the threads now share.
    mallopt(M_ARENA_MAX, 1);
#endif
}

}  // namespace as
