// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Greedy and beam search: beam 1 is greedy, n-best lists are sorted and scored consistently.
#include "skip.h"
#include "decode/decode.h"
#include "learned.h"
#include "text/tasks.h"
#include "train/trainer.h"
#include "toy_model.h"

#include <QTest>


#include <cmath>

using namespace as;

class TestDecode : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void beamOneIsGreedy();
    void beamOneIsGreedyOnUntrainedModel();
    void nbestSortedAndScoresConsistent();
    void neverEmitsPadOrBos();
    void emptySourceAndMaxLen();
    void defaultLimitIsRelativeToTheSource();
    void crossAttentionPerStep();

private:
    std::unique_ptr<Trainer> toy_;
    Task task_;
};

namespace {
// Sum of log p of tokens followed by </s> (if finished), computed by one teacher-forced pass.
double teacherForcedLogProb(Transformer<float>& m, const std::vector<int>& src,
                            const std::vector<int>& out, bool finished)
{
    std::vector<int> in{kBos};
    in.insert(in.end(), out.begin(), out.end());
    std::vector<int> next = out;
    if (finished)
        next.push_back(kEos);
    else
        in.pop_back();
    double sum = 0;
    for (std::size_t t = 0; t < next.size(); ++t) {
        m.encode(src.data(), 1, int(src.size()), Pass::eval());
        m.decode(in.data(), 1, int(t + 1), m.memory(), m.sourceValid().data(), int(src.size()),
                 Pass::eval());
        Mat<float> lp;
        m.nextTokenLogProbs(lp);
        sum += lp(0, next[t]);
    }
    return sum;
}
}  // namespace

void TestDecode::initTestCase()
{
    task_ = makeToyTask();
    toy_ = test::trainedToyModel(task_);
}

void TestDecode::beamOneIsGreedy()
{
    // The toy examples, and sentences the model never saw (other orders, repeats, unknowns).
    std::vector<std::vector<int>> sources;
    for (const TokenPair& ex : task_.examples)
        sources.push_back(task_.srcVocab.encode(ex.src));
    Rng rng(4);
    for (int i = 0; i < 20; ++i) {
        std::vector<int> s;
        for (int j = 0, n = 1 + int(rng.below(9)); j < n; ++j)
            s.push_back(3 + int(rng.below(task_.srcVocab.size() - 3)));
        sources.push_back(s);
    }
    for (const auto& src : sources) {
        const DecodeResult g = greedyDecode(toy_->model(), src);
        DecodeOptions o;
        o.beam = 1;
        const DecodeResult b = beamSearch(toy_->model(), src, o);
        QCOMPARE(b.nbest.size(), std::size_t(1));
        QCOMPARE(b.nbest[0].tokens, g.nbest[0].tokens);
        QCOMPARE(b.nbest[0].finished, g.nbest[0].finished);
        QCOMPARE(b.nbest[0].logprob, g.nbest[0].logprob);
    }
}

void TestDecode::beamOneIsGreedyOnUntrainedModel()
{
    // An untrained model rarely stops: this exercises the max_len path of both.
    ModelConfig c = toy_->model().config();
    Transformer<float> m(c);
    Rng init(8);
    m.initXavier(init);
    for (int i = 0; i < 5; ++i) {
        const std::vector<int> src = {4 + i, 5, 6};
        const DecodeResult g = greedyDecode(m, src, 12);
        DecodeOptions o;
        o.maxLen = 12;
        const DecodeResult b = beamSearch(m, src, o);
        QCOMPARE(b.nbest[0].tokens, g.nbest[0].tokens);
        QCOMPARE(b.nbest[0].finished, g.nbest[0].finished);
    }
}

void TestDecode::nbestSortedAndScoresConsistent()
{
    DecodeOptions o;
    o.beam = 5;
    o.nbest = 5;
    o.alpha = 0.6;
    for (const TokenPair& ex : task_.examples) {
        const std::vector<int> src = task_.srcVocab.encode(ex.src);
        const DecodeResult r = beamSearch(toy_->model(), src, o);
        QVERIFY(r.nbest.size() >= 2);
        QVERIFY(r.nbest.size() <= 5);
        for (std::size_t i = 0; i < r.nbest.size(); ++i) {
            const Hypothesis& h = r.nbest[i];
            if (i > 0)
                QVERIFY(r.nbest[i - 1].score >= h.score);
            // The beam's bookkeeping agrees with a fresh teacher-forced computation.
            const double lp = teacherForcedLogProb(toy_->model(), src, h.tokens, h.finished);
            QVERIFY2(std::abs(lp - h.logprob) < 1e-4,
                     qPrintable(QStringLiteral("%1 vs %2").arg(lp).arg(h.logprob)));
            const int len = int(h.tokens.size()) + (h.finished ? 1 : 0);
            QVERIFY(std::abs(h.score - h.logprob / std::pow((5.0 + len) / 6.0, 0.6)) < 1e-12);
        }
        // The trained pair is the best hypothesis, when the model is decided about it (tests/
        // learned.h: a margin that float rounding cannot cross); and it is likely in any case.
        const std::vector<int> tgt = task_.tgtVocab.encode(ex.tgt);
        const QString why = test::learnedPair(toy_->model(), src, tgt, r.nbest[0].tokens, 0.5);
        QVERIFY2(why.isEmpty(), qPrintable(ex.tgt.join(' ') + ": " + why));
    }
}

void TestDecode::neverEmitsPadOrBos()
{
    ModelConfig c = toy_->model().config();
    Transformer<float> m(c);
    Rng init(9);
    m.initXavier(init);
    // Make <pad> and <s> the most likely outputs: the decoders must still not emit them.
    auto& ps = m.params();
    const ParamInfo* bias = ps.find("generator.bias");
    QVERIFY(bias);
    ps.values()[bias->offset + kPad] = 50.0f;
    ps.values()[bias->offset + kBos] = 40.0f;
    const DecodeResult g = greedyDecode(m, {4, 5}, 10);
    DecodeOptions o;
    o.beam = 3;
    o.nbest = 3;
    o.maxLen = 10;
    const DecodeResult b = beamSearch(m, {4, 5}, o);
    for (const DecodeResult* r : {&g, &b})
        for (const Hypothesis& h : r->nbest)
            for (int t : h.tokens)
                QVERIFY(t != kPad && t != kBos);
}

void TestDecode::emptySourceAndMaxLen()
{
    const DecodeResult r = greedyDecode(toy_->model(), {}, 3);
    QVERIFY(r.nbest[0].tokens.size() <= 3);
    QVERIFY(std::isfinite(r.nbest[0].logprob));
    DecodeOptions o;
    o.beam = 4;
    o.maxLen = 2;
    const DecodeResult b = beamSearch(toy_->model(), {}, o);
    QVERIFY(!b.nbest.empty());
    QVERIFY(b.nbest[0].tokens.size() <= 2);
}

void TestDecode::defaultLimitIsRelativeToTheSource()
{
    // An untrained model rarely emits </s>: without options it must stop at 2 x |src| + 10
    // (14 here), well before the model's max_len of 20 — in the window as on the command line.
    Transformer<float> m(toy_->model().config());
    Rng init(8);
    m.initXavier(init);
    QCOMPARE(m.config().max_len, 20);
    QCOMPARE(DecodeOptions{}.limitFor(2, 20), 14);
    QCOMPARE(DecodeOptions{}.limitFor(9, 20), 20);
    DecodeOptions fixed;
    fixed.maxLen = 5;
    QCOMPARE(fixed.limitFor(2, 20), 5);
    for (int i = 0; i < 5; ++i) {
        const DecodeResult g = greedyDecode(m, {4 + i, 5});
        QVERIFY(g.nbest[0].tokens.size() <= 14);
        QVERIFY(g.nbest[0].finished || g.nbest[0].tokens.size() == 14);
        const DecodeResult b = beamSearch(m, {4 + i, 5}, DecodeOptions{});
        QCOMPARE(b.nbest[0].tokens, g.nbest[0].tokens);
    }
}

void TestDecode::crossAttentionPerStep()
{
    const std::vector<int> src = task_.srcVocab.encode(task_.examples[0].src);
    const DecodeResult r = greedyDecode(toy_->model(), src);
    const CrossAttention& ca = r.cross;
    QCOMPARE(ca.layers, 2);
    QCOMPARE(ca.heads, 4);
    QCOMPARE(ca.srcLen, int(src.size()));
    QCOMPARE(ca.steps, int(r.nbest[0].tokens.size()) + 1);  // every token and </s>
    for (int l = 0; l < ca.layers; ++l)
        for (int h = 0; h < ca.heads; ++h)
            for (int t = 0; t < ca.steps; ++t) {
                float sum = 0;
                for (int s = 0; s < ca.srcLen; ++s)
                    sum += ca.at(l, h, t, s);
                QVERIFY(std::abs(sum - 1.0f) < 1e-5f);
            }
}

AS_TEST_APPLESS_MAIN(TestDecode)
#include "test_decode.moc"
