// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// A warmed-up training step makes no heap allocation: not on the calling thread, not on the
// engine's pool threads. Every allocation function of the C library is replaced in this
// executable (operator new and Eigen's aligned_malloc both end in malloc or posix_memalign),
// forwarding to glibc's own and counting on the threads that asked to be counted.
#include "skip.h"
#include "model/parallel.h"
#include "train/trainer.h"

#include <QTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <vector>

#include <execinfo.h>

extern "C" {
void* __libc_malloc(std::size_t);
void* __libc_calloc(std::size_t, std::size_t);
void* __libc_realloc(void*, std::size_t);
void* __libc_memalign(std::size_t, std::size_t);
void __libc_free(void*);
}

namespace {

// Initial-exec TLS of the executable: reading it never allocates.
thread_local bool tCounting = false;
std::atomic<long> gCount{0};
std::atomic<std::size_t> gFirstSizes[4];  // sizes of the first allocations, for the message

// AS_ALLOC_TRACE=N prints the call stacks of the first N counted allocations (resolve the
// addresses with addr2line -Cfe test_no_alloc): how the allocations were found.
long gTrace = 0;
thread_local bool tInHook = false;

void noteAllocation(std::size_t size)
{
    if (!tCounting || tInHook)
        return;
    const long i = gCount.fetch_add(1, std::memory_order_relaxed);
    if (i < 4)
        gFirstSizes[i].store(size, std::memory_order_relaxed);
    if (i < gTrace) {
        tInHook = true;
        void* frames[24];
        const int n = backtrace(frames, 24);
        std::fprintf(stderr, "allocation %ld (%zu bytes):\n", i, size);
        backtrace_symbols_fd(frames, n, 2);
        tInHook = false;
    }
}

}  // namespace

extern "C" {
void* malloc(std::size_t n)
{
    noteAllocation(n);
    return __libc_malloc(n);
}
void* calloc(std::size_t k, std::size_t n)
{
    noteAllocation(k * n);
    return __libc_calloc(k, n);
}
void* realloc(void* p, std::size_t n)
{
    noteAllocation(n);
    return __libc_realloc(p, n);
}
void* memalign(std::size_t a, std::size_t n)
{
    noteAllocation(n);
    return __libc_memalign(a, n);
}
void* aligned_alloc(std::size_t a, std::size_t n)
{
    noteAllocation(n);
    return __libc_memalign(a, n);
}
int posix_memalign(void** out, std::size_t a, std::size_t n)
{
    noteAllocation(n);
    void* p = __libc_memalign(a, n);
    if (!p)
        return 12;  // ENOMEM
    *out = p;
    return 0;
}
void free(void* p)
{
    __libc_free(p);
}
}

using namespace as;

namespace {

// Turns counting on or off on the calling thread and on every pool thread: one chunk per
// thread, each held until all have started, so that every thread runs one of them.
void countOnEngineThreads(bool on)
{
    tCounting = false;  // setting up the parallel region must not count
    const int threads = engineThreads();
    std::atomic<int> reached{0};
    parallelChunks(threads, 1, [&](int, long, long) {
        tCounting = on;
        // Hold every chunk until all have started, so that no thread runs two of them.
        reached.fetch_add(1);
        while (reached.load() < threads) {
        }
    });
    tCounting = on;
}

Batch randomBatch(int B, int S, int T, int srcVocab, int tgtVocab, Rng& rng)
{
    // Sentences of different lengths: padding in both the source and the target.
    std::vector<std::vector<int>> src(static_cast<std::size_t>(B)), tgt(static_cast<std::size_t>(B));
    for (int b = 0; b < B; ++b) {
        const int s = b == 0 ? S : 1 + int(rng.below(std::uint64_t(S)));
        const int t = b == 0 ? T - 1 : 1 + int(rng.below(std::uint64_t(T - 1)));
        for (int i = 0; i < s; ++i)
            src[std::size_t(b)].push_back(4 + int(rng.below(std::uint64_t(srcVocab - 4))));
        for (int i = 0; i < t; ++i)
            tgt[std::size_t(b)].push_back(4 + int(rng.below(std::uint64_t(tgtVocab - 4))));
    }
    return makeBatch(src, tgt);
}

}  // namespace

class TestNoAlloc : public QObject {
    Q_OBJECT
private slots:
    void counterSeesEveryThread_data();
    void counterSeesEveryThread();
    void chunkScratchNeedsNoAllocation();
    void warmedUpStepAllocatesNothing_data();
    void warmedUpStepAllocatesNothing();
    void initTestCase()
    {
        gTrace = qEnvironmentVariableIntValue("AS_ALLOC_TRACE");
        void* frame[1];
        backtrace(frame, 1);  // its first call loads libgcc (and allocates): not in a step
    }
    void cleanup() { setEngineThreads(1); }
};

void TestNoAlloc::counterSeesEveryThread_data()
{
    QTest::addColumn<int>("threads");
    QTest::newRow("1 thread") << 1;
    QTest::newRow("2 threads") << 2;
}

// The counter itself: an allocation on the caller and one on each pool thread are all seen.
void TestNoAlloc::counterSeesEveryThread()
{
    QFETCH(int, threads);
    setEngineThreads(threads);
    gCount = 0;
    countOnEngineThreads(true);
    std::vector<void*> blocks(std::size_t(threads), nullptr);
    std::atomic<int> reached{0};
    void* mine = std::malloc(24);
    parallelChunks(threads, 1, [&](int c, long, long) {
        reached.fetch_add(1);
        while (reached.load() < threads) {
        }
        if (c > 0)
            blocks[std::size_t(c)] = std::malloc(32);
    });
    countOnEngineThreads(false);
    const long seen = gCount.load();
    std::free(mine);
    for (void* b : blocks)
        std::free(b);
    // One for the caller's malloc, one per pool thread; parallelChunks itself may add more.
    QVERIFY2(seen >= threads, qPrintable(QString("counted %1 of %2").arg(seen).arg(threads)));
}

// A chunk may run on any thread, and a pool thread may run none for a while (it wakes late):
// its first chunk that uses the chunk scratch, on a new pool, must not allocate it then. That
// is what made a warmed-up step allocate once (CI, "pre, 2 threads": the pool thread drew its
// first dropout mask after the warm-up).
void TestNoAlloc::chunkScratchNeedsNoAllocation()
{
    setEngineThreads(1);
    setEngineThreads(2);  // a new pool thread, which has run no chunk
    gCount = 0;
    countOnEngineThreads(true);
    std::atomic<int> reached{0};
    std::atomic<int> written{0};
    parallelChunks(2, 1, [&](int c, long, long) {
        // Both chunks held until both have started: one runs on the pool thread.
        reached.fetch_add(1);
        while (reached.load() < 2) {
        }
        std::byte* s = chunkScratch();
        std::memset(s, c + 1, kChunkScratchBytes);
        written.fetch_add(s[kChunkScratchBytes - 1] == std::byte(c + 1));
    });
    countOnEngineThreads(false);
    QCOMPARE(written.load(), 2);
    QVERIFY2(gCount.load() == 0, qPrintable(QString("%1 allocations").arg(gCount.load())));
}

void TestNoAlloc::warmedUpStepAllocatesNothing_data()
{
    QTest::addColumn<int>("threads");
    QTest::addColumn<bool>("pre");
    QTest::addColumn<int>("d");
    QTest::addColumn<int>("batch");
    QTest::addColumn<int>("vocab");
    QTest::addColumn<bool>("profile");
    QTest::newRow("pre, 1 thread") << 1 << true << 32 << 8 << 500 << false;
    QTest::newRow("pre, 2 threads") << 2 << true << 32 << 8 << 500 << false;
    QTest::newRow("post, 2 threads") << 2 << false << 32 << 8 << 500 << false;
    // The `small` widths of core/SPEC.md §7.2 with bench's batch and vocabularies: products
    // large enough that Eigen's packing buffers exceed its default stack-allocation limit.
    QTest::newRow("bench small, 2 threads") << 2 << true << 256 << 64 << 5000 << false;
    // bench --profile: the profiler's timers and counts allocate nothing either.
    QTest::newRow("pre, 2 threads, profiled") << 2 << true << 32 << 8 << 500 << true;
}

void TestNoAlloc::warmedUpStepAllocatesNothing()
{
    QFETCH(int, threads);
    QFETCH(bool, pre);
    QFETCH(int, d);
    QFETCH(int, batch);
    QFETCH(int, vocab);
    QFETCH(bool, profile);
    setEngineThreads(threads);
    ModelConfig c;
    c.src_vocab = vocab * 3 / 5;
    c.tgt_vocab = vocab;
    c.d_model = d;
    c.heads = 4;
    c.d_ff = 4 * d;
    c.encoder_layers = c.decoder_layers = 2;
    c.dropout = 0.1;
    c.label_smoothing = 0.1;
    c.norm = pre ? NormPlacement::Pre : NormPlacement::Post;
    Trainer trainer(c, TrainOptions{1.0, 400, 5});
    trainer.setProfile(profile);
    Rng rng(11);
    const Batch b = randomBatch(batch, 12, 12, c.src_vocab, c.tgt_vocab, rng);
    for (int i = 0; i < 3; ++i)
        trainer.step(b);
    gCount = 0;
    countOnEngineThreads(true);
    double lossSum = 0;
    for (int i = 0; i < 3; ++i)
        lossSum += trainer.step(b).loss.loss();
    countOnEngineThreads(false);
    QVERIFY(std::isfinite(lossSum));
    const long n = gCount.load();
    QString sizes;
    for (long i = 0; i < std::min(n, 4L); ++i)
        sizes += QString(" %1").arg(gFirstSizes[i].load());
    QVERIFY2(n == 0, qPrintable(QString("%1 heap allocations in 3 warmed-up steps; the first "
                                        "sizes (bytes):%2").arg(n).arg(sizes)));
}

AS_TEST_GUILESS_MAIN(TestNoAlloc)
#include "test_no_alloc.moc"
