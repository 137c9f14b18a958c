// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "skip.h"
#include "learned.h"

#include "eval/evaluate.h"

#include "train/batcher.h"
#include "train/trainer.h"

#include <QtTest>

#include <QElapsedTimer>

#include <cmath>
#include <numeric>

using namespace as;

namespace {

ModelConfig tinyConfig(double labelSmoothing, double dropout)
{
    ModelConfig c;
    c.src_vocab = 12;
    c.tgt_vocab = 12;
    c.d_model = 32;
    c.heads = 2;
    c.d_ff = 64;
    c.encoder_layers = c.decoder_layers = 1;
    c.dropout = dropout;
    c.label_smoothing = labelSmoothing;
    c.max_len = 40;
    return c;
}

std::unique_ptr<Transformer<float>> randomModel(double labelSmoothing, std::uint64_t seed)
{
    auto m = std::make_unique<Transformer<float>>(tinyConfig(labelSmoothing, 0.3));
    Rng rng(seed);
    m->initXavier(rng);
    return m;
}

// n pairs with lengths 1..maxLen over ids 4..11.
std::vector<EncodedPair> randomPairs(int n, int maxLen, std::uint64_t seed)
{
    Rng rng(seed);
    std::vector<EncodedPair> pairs(static_cast<std::size_t>(n));
    for (EncodedPair& p : pairs) {
        p.src.resize(1 + rng.below(std::uint64_t(maxLen)));
        p.tgt.resize(1 + rng.below(std::uint64_t(maxLen)));
        for (int& id : p.src) id = 4 + int(rng.below(8));
        for (int& id : p.tgt) id = 4 + int(rng.below(8));
    }
    return pairs;
}

// Four short pairs a tiny model can learn by heart.
const std::vector<EncodedPair> kMemorise = {
    {{4, 5, 6}, {7, 8}, 1},
    {{5, 4}, {9, 10, 11}, 2},
    {{6, 6, 7}, {8, 7}, 3},
    {{8}, {4, 5, 6, 7}, 4},
};

std::vector<std::vector<int>> sourcesOf(const std::vector<EncodedPair>& pairs)
{
    std::vector<std::vector<int>> out;
    for (const EncodedPair& p : pairs) out.push_back(p.src);
    return out;
}

} // namespace

class TestEvaluate : public QObject {
    Q_OBJECT

    std::unique_ptr<Trainer> trained_; // trained once in initTestCase on kMemorise

private slots:
    void initTestCase()
    {
        // Label smoothing 0 so that the NLL can approach 0 (with eps it levels off near
        // -log(1 - eps)); dropout 0 so that 300 full-batch steps reach it.
        TrainOptions o;
        o.seed = 3;
        o.warmup = 50;
        trained_ = std::make_unique<Trainer>(tinyConfig(0.0, 0.0), o);
        std::vector<int> all(kMemorise.size());
        std::iota(all.begin(), all.end(), 0);
        const Batch batch = gatherBatch(kMemorise, all);
        QElapsedTimer timer;
        timer.start();
        StepStats last;
        for (int s = 0; s < 300; ++s) last = trained_->step(batch);
        qInfo("300 steps in %lld ms, last loss %.4f", timer.elapsed(), last.loss.loss());
    }

    void batchedEqualsOneCall()
    {
        auto model = randomModel(0.1, 5);
        const auto pairs = randomPairs(60, 14, 21);
        const auto batches = evaluationBatches(pairs, 40);
        QVERIFY(batches.size() > 10); // the batching is really exercised

        int calls = 0;
        bool cancelled = true;
        const LossStats batched = evaluateLoss(*model, pairs, 40,
                                               [&](int done, int total) {
                                                   ++calls;
                                                   return done <= total;
                                               },
                                               &cancelled);
        QVERIFY(!cancelled);
        QCOMPARE(calls, int(batches.size()));

        std::vector<int> all(pairs.size());
        std::iota(all.begin(), all.end(), 0);
        const LossStats whole = model->evaluate(gatherBatch(pairs, all));
        QCOMPARE(batched.ntokens, whole.ntokens);
        long expectedTokens = 0;
        for (const EncodedPair& p : pairs) expectedTokens += long(p.tgt.size()) + 1; // + </s>
        QCOMPARE(batched.ntokens, expectedTokens);
        // Per-token values are the same sums of products, but the padded shapes differ between
        // the two runs, so Eigen's float GEMMs may block and vectorise them differently: each
        // token's loss then differs by a few float ulps (~1e-7 relative). Sums over ~700 tokens
        // (accumulated in double) stay within 1e-5 relative; a wrong mask, a dropped token or
        // dropout left on would be off by far more (percent).
        QVERIFY2(std::abs(batched.loss_sum - whole.loss_sum) <= 1e-5 * whole.loss_sum,
                 qPrintable(QStringLiteral("%1 vs %2").arg(batched.loss_sum, 0, 'g', 10).arg(whole.loss_sum, 0, 'g', 10)));
        QVERIFY(std::abs(batched.nll_sum - whole.nll_sum) <= 1e-5 * whole.nll_sum);
        // An argmax could flip only on a near tie within those ulps; with fixed seeds there is none.
        QCOMPARE(batched.correct, whole.correct);
        // Dropout is off: evaluating again gives the same numbers bit for bit.
        const LossStats again = evaluateLoss(*model, pairs, 40);
        QCOMPARE(again.loss_sum, batched.loss_sum);
    }

    void usesModelsLabelSmoothing()
    {
        // Same weights (same seed; smoothing does not enter the initialisation), two eps.
        auto smooth = randomModel(0.1, 8), plain = randomModel(0.0, 8);
        const auto pairs = randomPairs(20, 8, 9);
        const LossStats s = evaluateLoss(*smooth, pairs), p = evaluateLoss(*plain, pairs);
        QCOMPARE(s.ntokens, p.ntokens);
        QVERIFY(std::abs(s.nll_sum - p.nll_sum) <= 1e-9 * p.nll_sum);
        QVERIFY(std::abs(p.loss_sum - p.nll_sum) <= 1e-6 * p.nll_sum); // eps 0: KL = NLL
        QVERIFY(std::abs(s.loss_sum - s.nll_sum) > 1e-3 * s.nll_sum);  // eps 0.1: it differs
    }

    void cancelEvaluation()
    {
        auto model = randomModel(0.1, 5);
        const auto pairs = randomPairs(60, 14, 21);
        const auto batches = evaluationBatches(pairs, 40);
        bool cancelled = false;
        const LossStats part = evaluateLoss(*model, pairs, 40, [](int done, int) { return done < 3; },
                                            &cancelled);
        QVERIFY(cancelled);
        long tokens = 0; // the first three batches were evaluated, no more
        for (int b = 0; b < 3; ++b) tokens += gatherBatch(pairs, batches[std::size_t(b)]).targetTokens();
        QCOMPARE(part.ntokens, tokens);

        const LossStats none = evaluateLoss(*model, {}, 40);
        QCOMPARE(none.ntokens, 0L);
        QCOMPARE(none.loss(), 0.0);
    }

    void trainedModelIsPerfect()
    {
        const LossStats st = evaluateLoss(trained_->model(), kMemorise);
        QCOMPARE(st.ntokens, 15L); // 11 target tokens + 4 </s>
        QVERIFY2(st.nll() < 0.05, qPrintable(QString::number(st.nll())));
        // Every token right, whenever the model is decided about each (tests/support/learned.h): an
        // argmax within float rounding of a tie is no defect.
        bool decided = true;
        for (const EncodedPair& p : kMemorise)
            decided = decided && test::fitOf(trained_->model(), p.src, p.tgt).decided();
        if (decided)
            QCOMPARE(st.accuracy(), 1.0);
        else
            QVERIFY(st.correct >= st.ntokens - 1);
    }

    void translateTrainedPairs()
    {
        const auto sources = sourcesOf(kMemorise);
        const TranslateResult greedy = translate(trained_->model(), sources);
        QVERIFY(!greedy.cancelled);
        QCOMPARE(greedy.done, 4);
        QVERIFY(greedy.nbest.empty()); // not asked for
        // Each the greedy decoding of its sentence alone (the same code, bit for bit), and the
        // pair learned (tests/support/learned.h: the target whenever the model is decided).
        for (std::size_t i = 0; i < kMemorise.size(); ++i) {
            QCOMPARE(greedy.best[i], greedyDecode(trained_->model(), sources[i]).nbest[0].tokens);
            const QString why = test::learnedPair(trained_->model(), kMemorise[i].src, kMemorise[i].tgt,
                                                  greedy.best[i], 0.05);
            QVERIFY2(why.isEmpty(), qPrintable(why));
        }

        // beam > 1 goes through beamSearch, sentence by sentence, and keeps its n-best lists.
        // On this memorising model pair 4's three poor hypotheses (scores near -8.8) finish
        // before the live target (log p near 0) reaches </s>: the search must not stop there.
        DecodeOptions beam;
        beam.beam = 3;
        beam.nbest = 2;
        const TranslateResult b = translate(trained_->model(), sources, beam, {}, true);
        QCOMPARE(b.done, 4);
        QCOMPARE(int(b.nbest.size()), 4);
        for (std::size_t i = 0; i < kMemorise.size(); ++i) {
            const DecodeResult direct = beamSearch(trained_->model(), sources[i], beam);
            QCOMPARE(int(b.nbest[i].size()), 2);
            QCOMPARE(b.best[i], direct.nbest[0].tokens);
            QCOMPARE(b.nbest[i][1].tokens, direct.nbest[1].tokens);
            QCOMPARE(b.nbest[i][0].score, direct.nbest[0].score);
        }
        for (std::size_t i = 0; i < kMemorise.size(); ++i) {
            const QString why = test::learnedPair(trained_->model(), kMemorise[i].src, kMemorise[i].tgt,
                                                  b.best[i], 0.05);
            QVERIFY2(why.isEmpty(), qPrintable(why));
        }

        // beam 1 goes through greedyDecode; its n-best list is the one greedy hypothesis.
        const TranslateResult g = translate(trained_->model(), sources, DecodeOptions{}, {}, true);
        QCOMPARE(int(g.nbest[0].size()), 1);
        QCOMPARE(g.nbest[0][0].tokens, greedyDecode(trained_->model(), sources[0]).nbest[0].tokens);
    }

    void cancelTranslation()
    {
        std::vector<std::vector<int>> sources;
        for (int k = 0; k < 5; ++k)
            for (const EncodedPair& p : kMemorise) sources.push_back(p.src);
        QList<int> seen;
        const TranslateResult r = translate(trained_->model(), sources, DecodeOptions{},
                                            [&](int done, int total) {
                                                seen << done;
                                                return total == 20 && done < 2;
                                            });
        QVERIFY(r.cancelled);
        QCOMPARE(r.done, 2);
        QCOMPARE(int(r.best.size()), 2);
        QCOMPARE(seen, (QList<int>{1, 2})); // stopped right after the callback said so
        QCOMPARE(r.best[1], greedyDecode(trained_->model(), kMemorise[1].src).nbest[0].tokens);

        const TranslateResult empty = translate(trained_->model(), {}, DecodeOptions{},
                                                [](int, int) { return false; });
        QVERIFY(!empty.cancelled);
        QCOMPARE(empty.done, 0);
    }
};

AS_TEST_APPLESS_MAIN(TestEvaluate)
#include "test_evaluate.moc"
