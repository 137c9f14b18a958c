// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The C library's allocator, set for training: the activation buffers a step frees when the
// batch shape changes (every step of a corpus, whose sentence lengths vary; the window's
// validation batches between training steps) are kept in the process for the next step.
//
// By default glibc hands blocks above 128 KiB (a threshold it moves as blocks are freed)
// straight back to the kernel, and trims the heap's top above twice that, so the next step
// takes fresh pages, each one a page fault and a page of zeroes. In the window (copy task,
// validation of 64 sequences every 50 steps of 32) that was about 100,000 page faults in 15 s,
// and training ran at 159-164 steps/s against 177-180 with this; README "Performance".
#include <chrono>
#include <memory>

namespace as {

// Blocks up to 32 MiB (glibc's largest threshold on 64-bit) come from the heap, the heap is not
// trimmed below 1 GiB of free space at its top, and every thread allocates from that one heap.
// Call once, early in main().
void keepFreedMemoryForReuse();

// The other side of it, for a process that runs for hours with many threads (the window: the
// worker, the engine's pool, validations, translations, each thread's own malloc arena): what
// was freed and kept is given back to the system every `interval` (malloc_trim), by a thread of
// this object's while it lives. Without it the window's resident memory grew without end while
// the heap in use stayed level: zh-en in the window (scripts/soak, 8 minutes), 530 MiB at
// 30 s and 1,682 MiB at 8 minutes, 1,112 of them freed and kept. Between two returns the
// training steps reuse what they free, as keepFreedMemoryForReuse intends.
class FreedMemoryReturner {
public:
    explicit FreedMemoryReturner(std::chrono::milliseconds interval);
    ~FreedMemoryReturner();
    FreedMemoryReturner(const FreedMemoryReturner&) = delete;
    FreedMemoryReturner& operator=(const FreedMemoryReturner&) = delete;
    // Gives back now, on the calling thread: whether the C library returned any memory.
    static bool returnNow();

private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace as
