// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The engine's answers to "which heads matter" and "what does an output rest on", checked in
// double against finite differences and against models changed by hand:
//  - head gates ξ (MultiHeadAttention::gate): ∂F/∂ξ of every head of every block, per sentence,
//    against central differences of F, at ξ away from 1 (pre- and post-norm);
//  - the gradient w.r.t. the source embeddings e = sqrt(d)·E[id], also on integrated gradients'
//    path (e scaled by α per sentence), against differences of the embedding table;
//  - ξ = 0 equals deleting the head: the same logits as a model whose output projection has
//    that head's columns zeroed, in full and in incremental (greedy) decoding;
//  - every cross-attention head masked: the output no longer depends on the source.
#include "skip.h"
#include "gradcheck.h"

#include "decode/decode.h"
#include "model/transformer.h"

#include <QTest>

using namespace as;
using namespace as::test;

namespace {

using Kind = AttentionKind;
const Kind kKinds[] = {Kind::EncoderSelf, Kind::DecoderSelf, Kind::Cross};

std::unique_ptr<Transformer<D>> makeModel(NormPlacement norm)
{
    // Dropout 0.1: off in these passes, which logProbBackward runs with dropout off.
    auto m = std::make_unique<Transformer<D>>(gradCheckConfig(norm));
    Rng init(7);
    m->initXavier(init);
    for (const ParamInfo& p : m->params().table())
        if (p.shape.size() == 1)
            fillUniform(m->params().values() + p.offset, p.size, init, -0.3, 0.3);
    return m;
}

// Three pairs of different lengths (padding on both sides); source id 4 occurs twice in the
// first sentence, ids 6, 8, 9 once in the whole batch.
Batch batch()
{
    return makeBatch({{4, 5, 6, 7, 4}, {8, 9}, {10, 4, 5}}, {{4, 5, 6}, {7, 8, 9, 10, 11}, {12}});
}

// F = Σ of the token NLL over every target of the selected sentences (-log p, so weight -1).
std::vector<Transformer<D>::Selection> nllOf(const Batch& b, int onlyRow = -1)
{
    std::vector<Transformer<D>::Selection> sel;
    for (int r = 0; r < b.B; ++r)
        for (int t = 0; t < b.T; ++t) {
            const int y = b.tgtOut[std::size_t(r) * b.T + t];
            if (y != kPadId && (onlyRow < 0 || r == onlyRow))
                sel.push_back({r, t, y, -1.0});
        }
    return sel;
}

double valueOf(Transformer<D>& m, const Batch& b, const std::vector<Transformer<D>::Selection>& sel)
{
    m.params().zeroGrads();
    const std::vector<double> logp = m.logProbBackward(b, sel);
    double f = 0;
    for (std::size_t i = 0; i < sel.size(); ++i)
        f += sel[i].weight * logp[i];
    return f;
}

}  // namespace

class TestInterpretGrad : public QObject {
    Q_OBJECT
private slots:
    void gateGradients_data();
    void gateGradients();
    void sourceEmbeddingGradients_data();
    void sourceEmbeddingGradients();
    void zeroGateDeletesTheHead_data();
    void zeroGateDeletesTheHead();
    void noCrossAttentionNoSource();
};

void TestInterpretGrad::gateGradients_data()
{
    QTest::addColumn<NormPlacement>("norm");
    QTest::newRow("pre-norm") << NormPlacement::Pre;
    QTest::newRow("post-norm") << NormPlacement::Post;
}

void TestInterpretGrad::gateGradients()
{
    QFETCH(NormPlacement, norm);
    auto m = makeModel(norm);
    const Batch b = batch();
    Rng rng(11);
    // Gates away from 1, so that the check covers ∂/∂ξ at any ξ (and dctx scaled by ξ).
    std::map<std::pair<Kind, int>, std::vector<D>> gates;
    for (Kind k : kKinds)
        for (int l = 0; l < m->layers(k); ++l) {
            std::vector<D> g{0.6 + 0.8 * rng.uniform(), 0.6 + 0.8 * rng.uniform()};
            gates[{k, l}] = g;
            m->setHeadGates(k, l, g);
        }
    int checked = 0;
    double worst = 0;
    for (int row = 0; row < b.B; ++row) {
        const auto sel = nllOf(b, row);
        valueOf(*m, b, sel);
        std::map<std::pair<Kind, int>, Mat<D>> analytic;
        for (Kind k : kKinds)
            for (int l = 0; l < m->layers(k); ++l)
                analytic[{k, l}] = m->headGateGrad(k, l);
        for (Kind k : kKinds)
            for (int l = 0; l < m->layers(k); ++l)
                for (int h = 0; h < 2; ++h) {
                    const Mat<D>& a = analytic[{k, l}];
                    QCOMPARE(a.rows(), Eigen::Index(b.B));
                    // Sentences are independent: another sentence's F does not move with ξ.
                    for (int other = 0; other < b.B; ++other)
                        if (other != row)
                            QVERIFY(a(other, h) == 0.0);
                    std::vector<D> g = gates[{k, l}];
                    const double h0 = 1e-5;
                    g[std::size_t(h)] += h0;
                    m->setHeadGates(k, l, g);
                    const double fp = valueOf(*m, b, sel);
                    g[std::size_t(h)] -= 2 * h0;
                    m->setHeadGates(k, l, g);
                    const double fm = valueOf(*m, b, sel);
                    m->setHeadGates(k, l, gates[{k, l}]);
                    const double numeric = (fp - fm) / (2 * h0);
                    const double e = gradError(a(row, h), numeric);
                    worst = std::max(worst, e);
                    ++checked;
                    QVERIFY2(e <= 1e-6, qPrintable(QStringLiteral("kind %1 layer %2 head %3 row %4: analytic %5, numeric %6")
                                                       .arg(int(k)).arg(l).arg(h).arg(row)
                                                       .arg(a(row, h), 0, 'g', 10).arg(numeric, 0, 'g', 10)));
                    QVERIFY(std::abs(numeric) > 1e-6);  // a gate that matters
                }
    }
    QCOMPARE(checked, 3 * (2 + 2 + 2) * 2);
    qInfo("%d head gates, worst error %.2e", checked, worst);
}

void TestInterpretGrad::sourceEmbeddingGradients_data()
{
    QTest::addColumn<NormPlacement>("norm");
    QTest::addColumn<bool>("scaled");
    QTest::newRow("pre-norm") << NormPlacement::Pre << false;
    QTest::newRow("post-norm") << NormPlacement::Post << false;
    QTest::newRow("pre-norm, on the path α·e") << NormPlacement::Pre << true;
    QTest::newRow("post-norm, on the path α·e") << NormPlacement::Post << true;
}

void TestInterpretGrad::sourceEmbeddingGradients()
{
    QFETCH(NormPlacement, norm);
    QFETCH(bool, scaled);
    auto m = makeModel(norm);
    const Batch b = batch();
    const std::vector<D> alpha = scaled ? std::vector<D>{0.3, 0.8, 0.55} : std::vector<D>{1, 1, 1};
    if (scaled)
        m->setSourceScale(alpha);
    // One output token's log-probability per sentence, as attribution explains it.
    const std::vector<Transformer<D>::Selection> sel{{0, 1, 5, 1.0}, {1, 3, 10, 1.0}, {2, 0, 12, 1.0}};
    valueOf(*m, b, sel);
    const Mat<D> analytic = m->sourceEmbeddingGrad();
    QCOMPARE(analytic.rows(), Eigen::Index(b.B) * b.S);
    const int d = m->config().d_model;
    const ParamInfo* table = m->params().find("src_embed.weight");
    QVERIFY(table);
    // Tokens that occur once in the batch: (row, position, id).
    const int once[][3] = {{0, 2, 6}, {0, 3, 7}, {1, 0, 8}, {1, 1, 9}, {2, 0, 10}};
    double worst = 0;
    for (const auto& [row, pos, id] : once) {
        for (int k = 0; k < d; ++k) {
            // x = α·sqrt(d)·E[id] + PE: a step h in x is a step h / (α sqrt(d)) in E.
            D* w = m->params().values() + table->offset + std::size_t(id) * d + k;
            const D old = *w;
            const double h = 1e-5;
            const double step = h / (alpha[std::size_t(row)] * std::sqrt(double(d)));
            *w = old + step;
            const double fp = valueOf(*m, b, sel);
            *w = old - step;
            const double fm = valueOf(*m, b, sel);
            *w = old;
            const double numeric = (fp - fm) / (2 * h);
            const double a = analytic(Eigen::Index(row) * b.S + pos, k);
            const double e = gradError(a, numeric);
            worst = std::max(worst, e);
            QVERIFY2(e <= 1e-6, qPrintable(QStringLiteral("row %1 pos %2 dim %3: analytic %4, numeric %5")
                                               .arg(row).arg(pos).arg(k).arg(a, 0, 'g', 10).arg(numeric, 0, 'g', 10)));
        }
    }
    // Padded positions get no gradient: F does not depend on them.
    QCOMPARE(analytic.row(1 * b.S + 3).norm(), 0.0);
    qInfo("source embeddings: worst error %.2e", worst);
}

void TestInterpretGrad::zeroGateDeletesTheHead_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("layer");
    QTest::addColumn<int>("head");
    QTest::newRow("encoder.self 0:1") << int(Kind::EncoderSelf) << 0 << 1;
    QTest::newRow("encoder.self 1:0") << int(Kind::EncoderSelf) << 1 << 0;
    QTest::newRow("decoder.self 1:1") << int(Kind::DecoderSelf) << 1 << 1;
    QTest::newRow("decoder.cross 0:0") << int(Kind::Cross) << 0 << 0;
}

void TestInterpretGrad::zeroGateDeletesTheHead()
{
    QFETCH(int, kind);
    QFETCH(int, layer);
    QFETCH(int, head);
    auto m = makeModel(NormPlacement::Pre);
    std::unique_ptr<Transformer<D>> deleted = m->clone();
    // The head's contribution removed by hand: its columns of the output projection zeroed.
    const std::string prefix = kind == int(Kind::EncoderSelf) ? "encoder.layers." : "decoder.layers.";
    const std::string block = kind == int(Kind::Cross) ? ".cross_attn.o.weight" : ".self_attn.o.weight";
    const ParamInfo* o = deleted->params().find(prefix + std::to_string(layer) + block);
    QVERIFY(o);
    const int d = m->config().d_model, dk = d / m->config().heads;
    MatMap<D> W(deleted->params().values() + o->offset, d, d);
    W.middleCols(Eigen::Index(head) * dk, dk).setZero();

    std::vector<D> gates(2, 1.0);
    gates[std::size_t(head)] = 0.0;
    m->setHeadGates(Kind(kind), layer, gates);
    const Batch b = batch();
    Mat<D> a, c;
    m->forwardLoss(b, Pass::eval());
    m->allLogProbs(a);
    deleted->forwardLoss(b, Pass::eval());
    deleted->allLogProbs(c);
    QVERIFY2((a - c).cwiseAbs().maxCoeff() < 1e-12, qPrintable(QString::number((a - c).cwiseAbs().maxCoeff())));
    // The control: without the gate the logits differ.
    std::unique_ptr<Transformer<D>> plain = m->clone();
    Mat<D> p;
    plain->forwardLoss(b, Pass::eval());
    plain->allLogProbs(p);
    QVERIFY((p - c).cwiseAbs().maxCoeff() > 1e-6);
    // Incremental decoding (greedy and beam) sees the gates too.
    for (const std::vector<int>& src : {std::vector<int>{4, 5, 6, 7, 4}, std::vector<int>{8, 9}}) {
        const DecodeResult g1 = greedyDecode(*m, src, 12), g2 = greedyDecode(*deleted, src, 12);
        QCOMPARE(g1.nbest[0].tokens, g2.nbest[0].tokens);
        QVERIFY(std::abs(g1.nbest[0].score - g2.nbest[0].score) < 1e-9);
        DecodeOptions o;
        o.beam = 3;
        o.maxLen = 12;
        const DecodeResult b1 = beamSearch(*m, src, o), b2 = beamSearch(*deleted, src, o);
        QCOMPARE(b1.nbest[0].tokens, b2.nbest[0].tokens);
        QVERIFY(std::abs(b1.nbest[0].score - b2.nbest[0].score) < 1e-9);
    }
}

void TestInterpretGrad::noCrossAttentionNoSource()
{
    auto m = makeModel(NormPlacement::Post);
    for (int l = 0; l < m->layers(Kind::Cross); ++l)
        m->setHeadGates(Kind::Cross, l, {0.0, 0.0});
    // Two batches with the same targets and other sources: the same log-probabilities.
    const Batch a = makeBatch({{4, 5, 6}, {8, 9, 10}}, {{4, 5}, {7, 8, 9}});
    const Batch b = makeBatch({{7, 7, 9, 10, 5}, {4}}, {{4, 5}, {7, 8, 9}});
    Mat<D> la, lb;
    m->forwardLoss(a, Pass::eval());
    m->allLogProbs(la);
    m->forwardLoss(b, Pass::eval());
    m->allLogProbs(lb);
    QCOMPARE(la.rows(), lb.rows());
    QVERIFY((la - lb).cwiseAbs().maxCoeff() < 1e-12);
    // And no gradient reaches the source embeddings.
    valueOf(*m, a, nllOf(a));
    QCOMPARE(m->sourceEmbeddingGrad().norm(), 0.0);
    // The control: with the heads on, the source matters.
    m->clearHeadGates();
    m->forwardLoss(a, Pass::eval());
    m->allLogProbs(la);
    m->forwardLoss(b, Pass::eval());
    m->allLogProbs(lb);
    QVERIFY((la - lb).cwiseAbs().maxCoeff() > 1e-6);
}

AS_TEST_APPLESS_MAIN(TestInterpretGrad)
#include "test_interpret_grad.moc"
