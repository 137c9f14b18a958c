#pragma once
// The engine's one threading layer: a persistent pool that splits a range into one contiguous
// chunk per thread. Chunk boundaries depend only on the range and the thread count, so results
// are bit-identical from run to run at a given thread count. Eigen itself runs single-threaded.
#include <functional>

namespace as {

// Threads used by parallelFor (the calling thread included); n < 1 means every core.
void setEngineThreads(int n);
int engineThreads();

// Calls fn(chunk, begin, end) for the chunks of [0, n), chunk 0 on the calling thread, and
// returns when all are done. Ranges shorter than minPerChunk per thread use fewer chunks.
// Called from inside a chunk, it runs serially.
void parallelChunks(long n, long minPerChunk,
                    const std::function<void(int chunk, long begin, long end)>& fn);

inline void parallelFor(long n, long minPerChunk, const std::function<void(long, long)>& fn)
{
    parallelChunks(n, minPerChunk, [&fn](int, long b, long e) { fn(b, e); });
}

// How many chunks parallelChunks(n, minPerChunk, …) will use.
int chunkCount(long n, long minPerChunk);

}  // namespace as
