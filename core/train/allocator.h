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
namespace as {

// Blocks up to 32 MiB (glibc's largest threshold on 64-bit) come from the heap, and the heap
// is not trimmed below 1 GiB of free space at its top. Call once, early in main().
void keepFreedMemoryForReuse();

}  // namespace as
