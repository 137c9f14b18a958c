// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The training-step profiler (train/profile.h, `bench --profile`): it changes nothing the step
// computes, every category is reached, and the products it counts are those of a hand count.
#include "model/parallel.h"
#include "model/rng.h"
#include "skip.h"
#include "train/profile.h"
#include "train/trainer.h"

#include <QTest>

#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

using namespace as;

namespace {

// Encoder and decoder of different depths, so that a count mixing them up shows.
ModelConfig tinyConfig()
{
    ModelConfig c;
    c.src_vocab = 23;
    c.tgt_vocab = 29;
    c.d_model = 16;
    c.heads = 2;
    c.d_ff = 24;
    c.encoder_layers = 2;
    c.decoder_layers = 1;
    c.dropout = 0.1;
    c.label_smoothing = 0.1;
    return c;
}

// B sentences of srcLen → tgtLen tokens (the decoder sees tgtLen + 1 positions).
Batch batchOf(int B, int srcLen, int tgtLen, const ModelConfig& c)
{
    Rng rng(5);
    std::vector<std::vector<int>> src{std::size_t(B)}, tgt{std::size_t(B)};
    for (int b = 0; b < B; ++b) {
        for (int i = 0; i < srcLen; ++i)
            src[std::size_t(b)].push_back(4 + int(rng.below(std::uint64_t(c.src_vocab - 4))));
        for (int i = 0; i < tgtLen; ++i)
            tgt[std::size_t(b)].push_back(4 + int(rng.below(std::uint64_t(c.tgt_vocab - 4))));
    }
    return makeBatch(src, tgt);
}

double flopsOf(const ProfileTotals& t, ProfileCategory c) { return t.flops[std::size_t(c)]; }
long callsOf(const ProfileTotals& t, ProfileCategory c) { return t.calls[std::size_t(c)]; }

}  // namespace

class TestProfile : public QObject {
    Q_OBJECT
private slots:
    void init() { setEngineThreads(2); }
    void cleanup() { setEngineThreads(1); }
    void profilingChangesNoWeight();
    void everyCategoryIsReached();
    void countsAreTheHandCount();
    void gemmFlopsAddUpToTheStepFormula();
    void waitsAreChargedToTheCategoryThatStartedTheRegion();
    void recordsTheLibraryOfEachSite();
};

void TestProfile::profilingChangesNoWeight()
{
    const ModelConfig c = tinyConfig();
    const Batch b = batchOf(3, 5, 4, c);
    Trainer plain(c, TrainOptions{1.0, 400, 7});
    Trainer profiled(c, TrainOptions{1.0, 400, 7});
    profiled.setProfile(true);
    for (int i = 0; i < 4; ++i) {
        const StepStats a = plain.step(b), p = profiled.step(b);
        QCOMPARE(p.loss.loss(), a.loss.loss());
    }
    QCOMPARE(profiled.profile().steps, 4L);
    QCOMPARE(plain.profile().steps, 0L);
    const auto& wa = plain.model().params().valueVector();
    const auto& wp = profiled.model().params().valueVector();
    QCOMPARE(wp.size(), wa.size());
    QVERIFY(std::memcmp(wa.data(), wp.data(), std::size_t(wa.size()) * sizeof(float)) == 0);
    const auto& ma = plain.adam().secondMoment();
    const auto& mp = profiled.adam().secondMoment();
    QVERIFY(std::memcmp(ma.data(), mp.data(), std::size_t(ma.size()) * sizeof(float)) == 0);
}

void TestProfile::everyCategoryIsReached()
{
    const ModelConfig c = tinyConfig();
    Trainer t(c, TrainOptions{1.0, 400, 7});
    t.setProfile(true);
    // 64 rows: enough for the pool to split a Linear's rows over both threads.
    const Batch b = batchOf(16, 6, 5, c);
    t.step(b);
    t.step(b);
    const ProfileTotals p = t.takeProfile();
    QCOMPARE(p.steps, 2L);
    QVERIFY(p.wallSeconds > 0);
    for (int i = 0; i < kProfileCategories; ++i) {
        const auto cat = ProfileCategory(i);
        QVERIFY2(p.seconds[std::size_t(i)] > 0, profileCategoryKey(cat));
        QCOMPARE(p.calls[std::size_t(i)] > 0, isGemmCategory(cat));
        QCOMPARE(p.flops[std::size_t(i)] > 0, isGemmCategory(cat));
    }
    QCOMPARE(t.profile().steps, 0L);  // taken
    t.setProfile(false);
    t.step(b);
    QCOMPARE(t.profile().steps, 0L);
    QCOMPARE(t.profile().categorySeconds(), 0.0);
}

void TestProfile::countsAreTheHandCount()
{
    const ModelConfig c = tinyConfig();
    const int B = 3, S = 5, T = 4 + 1;  // the decoder's positions: <s> and 4 tokens
    const Batch b = batchOf(B, S, 4, c);
    QCOMPARE(b.T, T);
    Trainer t(c, TrainOptions{1.0, 400, 7});
    t.setProfile(true);
    const int steps = 3;
    for (int i = 0; i < steps; ++i)
        t.step(b);
    const ProfileTotals p = t.profile();
    const double d = c.d_model, f = c.d_ff, V = c.tgt_vocab, ns = B * S, nt = B * T;
    const long Le = c.encoder_layers, Ld = c.decoder_layers, h = c.heads;

    // Each Linear: one product forward, two backward (weights, input), 2·n·in·out FLOPs each.
    // Feed-forward: 3 × 2·tokens·d·d_ff·2 per layer, 6 products.
    QCOMPARE(callsOf(p, ProfileCategory::GemmFeedForward), steps * (Le + Ld) * 6);
    QCOMPARE(flopsOf(p, ProfileCategory::GemmFeedForward),
             steps * 3 * 2 * (Le * ns + Ld * nt) * d * f * 2);
    // Self-attention: q|k|v as one [3d, d] product and o; cross: q, k|v (on the memory) and o.
    QCOMPARE(callsOf(p, ProfileCategory::GemmAttentionProjections),
             steps * (Le * 2 * 3 + Ld * (2 * 3 + 3 * 3)));
    QCOMPARE(flopsOf(p, ProfileCategory::GemmAttentionProjections),
             steps * 3.0
                 * (Le * 2 * ns * d * d * 4
                    + Ld * (2 * nt * d * d * 4 + 2 * nt * d * d * 2 + 2 * ns * d * d * 2)));
    // Per head and sequence: Q Kᵀ forward, dQ and dK backward; P V forward, dV and dP backward.
    const long attentions = Le + 2 * Ld;
    for (const ProfileCategory k :
         {ProfileCategory::GemmAttentionScores, ProfileCategory::GemmAttentionContext}) {
        QCOMPARE(callsOf(p, k), steps * attentions * B * h * 3);
        QCOMPARE(flopsOf(p, k), steps * 3.0 * 2 * B
                                    * (Le * S * S + Ld * (T * T + T * S)) * d);
    }
    QCOMPARE(callsOf(p, ProfileCategory::GemmGenerator), steps * 3L);
    QCOMPARE(flopsOf(p, ProfileCategory::GemmGenerator), steps * 3 * 2 * nt * d * V);
}

void TestProfile::gemmFlopsAddUpToTheStepFormula()
{
    for (const char* preset : {"tiny", "small"}) {
        ModelConfig c = *ModelConfig::preset(preset);
        c.src_vocab = 300;
        c.tgt_vocab = 500;
        const Batch b = batchOf(4, 7, 6, c);
        Trainer t(c, TrainOptions{1.0, 400, 7});
        t.setProfile(true);
        t.step(b);
        double sum = 0;
        for (int i = 0; i < kProfileCategories; ++i)
            if (isGemmCategory(ProfileCategory(i)))
                sum += t.profile().flops[std::size_t(i)];
        // The formula bench's gflop_per_s divides (app/cli/bench.cpp), at the batch's shape.
        QCOMPARE(sum, trainingStepFlops(c, b.B, b.S, b.T));
    }
}

// Two regions started inside Dropout, one inside LayerNorm, none elsewhere. In the first
// Dropout region the calling thread's chunk ends only once the worker has begun its chunk,
// which then sleeps 200 ms: the caller waits at least the rest of that sleep. Every ThreadWait
// scope nests in a category's scope, so the categories' waits add up to ThreadWait.
void TestProfile::waitsAreChargedToTheCategoryThatStartedTheRegion()
{
    using namespace std::chrono_literals;
    ProfileTotals t;
    {
        ProfileStep step(true);
        {
            const ProfileScope dropout(ProfileCategory::Dropout);
            std::atomic<bool> started{false};
            parallelChunks(2, 1, [&](int chunk, long, long) {
                if (chunk == 1) {
                    started.store(true);
                    std::this_thread::sleep_for(200ms);
                } else {
                    while (!started.load())
                        std::this_thread::yield();
                }
            });
            parallelChunks(2, 1, [](int, long, long) {});
            {
                const ProfileScope norm(ProfileCategory::LayerNorm);
                parallelChunks(2, 1, [](int, long, long) {});
                parallelChunks(1, 1, [](int, long, long) {});  // one chunk: not a region
            }
        }
        step.finish(t, 1.0);
    }
    const auto at = [](ProfileCategory c) { return std::size_t(c); };
    double waits = 0;
    for (int i = 0; i < kProfileCategories; ++i) {
        const auto c = ProfileCategory(i);
        waits += t.waitSeconds[std::size_t(i)];
        if (c != ProfileCategory::Dropout && c != ProfileCategory::LayerNorm) {
            QVERIFY2(t.regions[std::size_t(i)] == 0, profileCategoryKey(c));
            QVERIFY2(t.waitSeconds[std::size_t(i)] == 0, profileCategoryKey(c));
        }
    }
    QCOMPARE(t.regions[at(ProfileCategory::Dropout)], 2L);
    QCOMPARE(t.regions[at(ProfileCategory::LayerNorm)], 1L);
    QVERIFY2(t.waitSeconds[at(ProfileCategory::Dropout)] >= 0.1,
             qPrintable(QString::number(t.waitSeconds[at(ProfileCategory::Dropout)])));
    QVERIFY(t.waitSeconds[at(ProfileCategory::LayerNorm)] > 0);  // its start, at least
    QVERIFY(qAbs(waits - t.seconds[at(ProfileCategory::ThreadWait)]) < 1e-9);
    // The totals add waits and regions too.
    ProfileTotals twice = t;
    twice += t;
    QCOMPARE(twice.regions[at(ProfileCategory::Dropout)], 4L);
    QCOMPARE(twice.waitSeconds[at(ProfileCategory::LayerNorm)],
             2 * t.waitSeconds[at(ProfileCategory::LayerNorm)]);
}

// The record says which library computed each site in its steps (the Health view's "Computed
// by"): the choice in force, Eigen for the feed-forward's weight gradient here and the default
// elsewhere; a later record's choice replaces an earlier one's when they are added up.
void TestProfile::recordsTheLibraryOfEachSite()
{
    const ModelConfig c = tinyConfig();
    Trainer t(c, TrainOptions{1.0, 400, 7});
    t.setProfile(true);
    const Batch b = batchOf(16, 6, 5, c);
    const int site = gemmSite(GemmKind::FeedForward, GemmPass::WeightGradient);
    resetGemmChoices();
    const GemmLibrary byDefault = gemmChoice(site);
    QVERIFY(byDefault != GemmLibrary::Eigen);  // OpenBLAS, which the build loads
    QVERIFY(setGemmChoice(site, GemmLibrary::Eigen));
    t.step(b);
    ProfileTotals first = t.takeProfile();
    resetGemmChoices();
    QCOMPARE(first.gemmLibraries[std::size_t(site)], GemmLibrary::Eigen);
    for (int s = 0; s < kGemmSites; ++s)
        if (s != site)
            QCOMPARE(first.gemmLibraries[std::size_t(s)], byDefault);
    ProfileTotals withEmpty = first;
    withEmpty += ProfileTotals{};  // no steps: nothing to say of the libraries
    QCOMPARE(withEmpty.gemmLibraries[std::size_t(site)], GemmLibrary::Eigen);
    t.step(b);
    const ProfileTotals second = t.takeProfile();
    QCOMPARE(second.gemmLibraries[std::size_t(site)], byDefault);
    first += second;
    QCOMPARE(first.gemmLibraries[std::size_t(site)], byDefault);
}

AS_TEST_GUILESS_MAIN(TestProfile)
#include "test_profile.moc"
