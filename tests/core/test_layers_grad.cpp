// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Finite-difference gradient checks, in double, of every layer's backward: parameters and
// inputs, with padding, causal masks and dropout (masks fixed by re-seeding each forward).
#include "skip.h"
#include "gradcheck.h"

#include "model/attention.h"
#include "model/decoder.h"
#include "model/embedding.h"
#include "model/encoder.h"
#include "model/feed_forward.h"
#include "model/layer_norm.h"
#include "model/linear.h"
#include "train/loss.h"

#include <QTest>

#include <algorithm>

using namespace as;
using namespace as::test;

namespace {

constexpr double kBar = 1e-6;
constexpr int kSamples = 20;

Mat<D> randomMat(int r, int c, Rng& rng, double scale = 1.0)
{
    Mat<D> m(r, c);
    fillUniform(m.data(), std::size_t(m.size()), rng, -scale, scale);
    return m;
}

// Random parameters; LayerNorm weights near 1 so that the layer is not degenerate.
void randomParams(ParamStore<D>& ps, Rng& rng)
{
    ps.allocate();
    ps.ensureGrads();  // before the layers' backward passes, which run on several threads
    for (const ParamInfo& p : ps.table()) {
        const bool normWeight = p.name.find("norm") != std::string::npos
                                && p.name.ends_with(".weight");
        fillUniform(ps.values() + p.offset, p.size, rng, normWeight ? 0.7 : -0.5,
                    normWeight ? 1.3 : 0.5);
    }
}

double weightedSum(const Mat<D>& y, const Mat<D>& r)
{
    return y.cwiseProduct(r).sum();
}

Target inputTarget(const std::string& name, Mat<D>& x, const Mat<D>& dx)
{
    return {name, x.data(), std::vector<D>(dx.data(), dx.data() + dx.size())};
}

// The key projections' biases, taken out of the sampled targets: a bias b on every key adds q·b
// to all the scores of a query's row, which softmax ignores, so their gradient is zero (by hand:
// ∂L/∂b = Σᵢ qᵢ Σⱼ ∂L/∂sᵢⱼ, and softmax's backward makes each row of ∂L/∂s sum to zero, with
// masks and dropout on the weights alike). Their finite differences are rounding noise, which
// the kink test below counted as kinks: 5 of 180 coordinates in self-attention's "heads of whole
// vectors" here, 9 (past its limit of 1 in 20) with this file built at -O1. The analytic
// gradient is held to that zero instead. Returns how many tensors were taken; *worst: the
// largest |analytic| entry among them.
int takeKeyBiases(std::vector<Target>& t, double* worst)
{
    int taken = 0;
    *worst = 0.0;
    for (auto it = t.begin(); it != t.end();) {
        if (!it->name.ends_with(".k.bias")) {
            ++it;
            continue;
        }
        for (const double g : it->analytic)
            *worst = std::max(*worst, std::abs(g));
        ++taken;
        it = t.erase(it);
    }
    return taken;
}

// [B*S] validity with the given number of real tokens per sequence.
std::vector<std::uint8_t> lengthsToValid(const std::vector<int>& lengths, int S)
{
    std::vector<std::uint8_t> v;
    for (int len : lengths)
        for (int j = 0; j < S; ++j)
            v.push_back(j < len);
    return v;
}

}  // namespace

class TestLayersGrad : public QObject {
    Q_OBJECT
private slots:
    void checkerDetectsAWrongGradient();
    void linear();
    void linearWithoutBias();
    void layerNorm();
    void feedForwardWithDropout();
    void embeddingWithDropout();
    void selfAttention_data();
    void selfAttention();
    void crossAttention();
    void encoderLayer_data();
    void encoderLayer();
    void decoderLayer_data();
    void decoderLayer();
    void labelSmoothedLoss_data();
    void labelSmoothedLoss();
};

// The check itself must be able to fail: a gradient off by 1e-4 relative is caught.
void TestLayersGrad::checkerDetectsAWrongGradient()
{
    Rng rng(1);
    ParamStore<D> ps;
    Linear<D> lin = Linear<D>::make(ps, "lin", 4, 3);
    randomParams(ps, rng);
    Mat<D> x = randomMat(5, 4, rng), r = randomMat(5, 3, rng), y(5, 3);
    lin.backwardParams(x, r);
    std::vector<Target> t;
    addParamTargets(ps, t);
    t[0].analytic[2] *= 1.0 + 1e-4;
    auto loss = [&] {
        lin.forward(x, y);
        return weightedSum(y, r);
    };
    const CheckResult res = checkGradients(loss, t, 1000, rng);
    QVERIFY2(res.worst > 5e-5 && res.worst < 2e-4, qPrintable(describe(res)));
}

void TestLayersGrad::linear()
{
    Rng rng(2);
    ParamStore<D> ps;
    Linear<D> lin = Linear<D>::make(ps, "lin", 7, 6);
    randomParams(ps, rng);
    Mat<D> x = randomMat(5, 7, rng), r = randomMat(5, 6, rng), y(5, 6), dx(5, 7);
    lin.backwardParams(x, r);
    lin.backwardInput(r, dx, false);
    std::vector<Target> t;
    addParamTargets(ps, t);
    t.push_back(inputTarget("x", x, dx));
    auto loss = [&] {
        lin.forward(x, y);
        return weightedSum(y, r);
    };
    const CheckResult res = checkGradients(loss, t, kSamples, rng);
    qInfo("linear: %s", qPrintable(describe(res)));
    QVERIFY2(res.worst <= kBar, qPrintable(describe(res)));
    QVERIFY2(res.kinks <= res.checked / 20, qPrintable(describe(res)));
}

// Without its bias, forward gives x Wᵀ alone, whatever y held (NaN here): the product
// written, not added to y. The sum over k is worked here in a loop, on 2 threads: 3 rows
// (forward splits the output features) and 200 (it splits the rows).
void TestLayersGrad::linearWithoutBias()
{
    setEngineThreads(2);
    Rng rng(12);
    ParamStore<D> ps;
    Linear<D> lin = Linear<D>::make(ps, "lin", 7, 6);
    randomParams(ps, rng);
    for (int rows : {3, 200}) {
        const Mat<D> x = randomMat(rows, 7, rng);
        Mat<D> y = Mat<D>::Constant(rows, 6, std::numeric_limits<D>::quiet_NaN());
        Mat<D> withBias(rows, 6);
        lin.forward(x, y, /*withBias=*/false);
        lin.forward(x, withBias);
        for (int r = 0; r < rows; ++r)
            for (int o = 0; o < 6; ++o) {
                D want = 0;
                for (int k = 0; k < 7; ++k)
                    want += x(r, k) * lin.weight()(o, k);
                QVERIFY(std::abs(y(r, o) - want) < 1e-13);
                QVERIFY(std::abs(withBias(r, o) - (want + lin.bias()(o))) < 1e-13);
                QVERIFY(std::abs(lin.bias()(o)) > 1e-6);
            }
    }
    setEngineThreads(0);
}

void TestLayersGrad::layerNorm()
{
    Rng rng(3);
    ParamStore<D> ps;
    LayerNorm<D> ln = LayerNorm<D>::make(ps, "norm", 8);
    randomParams(ps, rng);
    Mat<D> x = randomMat(6, 8, rng, 3.0), r = randomMat(6, 8, rng), y(6, 8), dx(6, 8);
    x.row(1).array() += 5.0;  // a row far from zero mean
    ln.forward(x, y);
    ln.backward(r, dx, false);
    std::vector<Target> t;
    addParamTargets(ps, t);
    t.push_back(inputTarget("x", x, dx));
    auto loss = [&] {
        ln.forward(x, y);
        return weightedSum(y, r);
    };
    const CheckResult res = checkGradients(loss, t, 50, rng);
    qInfo("layer norm: %s", qPrintable(describe(res)));
    QVERIFY2(res.worst <= kBar, qPrintable(describe(res)));
    QVERIFY2(res.kinks <= res.checked / 20, qPrintable(describe(res)));
}

void TestLayersGrad::feedForwardWithDropout()
{
    Rng rng(4);
    ParamStore<D> ps;
    FeedForward<D> ffn = FeedForward<D>::make(ps, "ffn", 8, 16);
    randomParams(ps, rng);
    Mat<D> x = randomMat(6, 8, rng), r = randomMat(6, 8, rng), y(6, 8), dx(6, 8);
    auto forward = [&] {
        Rng drop(99);
        ffn.forward(x, y, 0.25, Pass::training(drop));
        return weightedSum(y, r);
    };
    forward();
    QVERIFY(ffn.drop.active);
    // Some unit that ReLU kept was dropped (h = 0 where w1's output is > 0); no mask is kept.
    Mat<D> z(6, 16);
    ffn.w1.forward(x, z);
    QVERIFY(((z.array() > 0) && (ffn.h.array() == 0)).any());
    QCOMPARE(ffn.drop.mask().size(), Eigen::Index(0));
    ffn.backward(x, r, dx, false);
    std::vector<Target> t;
    addParamTargets(ps, t);
    t.push_back(inputTarget("x", x, dx));
    const CheckResult res = checkGradients(forward, t, kSamples, rng);
    qInfo("feed-forward: %s", qPrintable(describe(res)));
    QVERIFY2(res.worst <= kBar, qPrintable(describe(res)));
    QVERIFY2(res.kinks <= res.checked / 20, qPrintable(describe(res)));
}

void TestLayersGrad::embeddingWithDropout()
{
    Rng rng(5);
    ParamStore<D> ps;
    Embedding<D> emb = Embedding<D>::make(ps, "embed.weight", 9, 6);
    randomParams(ps, rng);
    const std::vector<int> ids = {4, 5, 4, 8, 0, 0, 1, 7, 3, 2, 4, 0};  // B=2, L=6, repeats
    Mat<D> r = randomMat(12, 6, rng), x(12, 6);
    auto forward = [&] {
        Rng drop(7);
        emb.forward(ids.data(), 2, 6, x, 0.2, Pass::training(drop));
        return weightedSum(x, r);
    };
    forward();
    emb.backward(ids.data(), r);
    std::vector<Target> t;
    addParamTargets(ps, t);
    const CheckResult res = checkGradients(forward, t, 1000, rng);
    qInfo("embedding: %s", qPrintable(describe(res)));
    QVERIFY2(res.worst <= kBar, qPrintable(describe(res)));
    QVERIFY2(res.kinks <= res.checked / 20, qPrintable(describe(res)));
}

void TestLayersGrad::selfAttention_data()
{
    QTest::addColumn<bool>("causal");
    QTest::addColumn<double>("dropout");
    QTest::addColumn<std::vector<int>>("lengths");
    QTest::addColumn<int>("d");  // two heads of d / 2
    QTest::newRow("padding") << false << 0.0 << std::vector<int>{5, 3} << 8;
    QTest::newRow("padding+dropout") << false << 0.3 << std::vector<int>{4, 5} << 8;
    QTest::newRow("causal+padding") << true << 0.0 << std::vector<int>{5, 2} << 8;
    QTest::newRow("causal+dropout") << true << 0.3 << std::vector<int>{3, 5} << 8;
    // A sequence with no real key: its rows are uniform and no gradient reaches the scores.
    QTest::newRow("fully masked sequence") << false << 0.0 << std::vector<int>{0, 4} << 8;
    // Heads of whole vectors of doubles (16 = 2 x 8 with AVX-512, 4 x 4 with AVX2) and more
    // keys than a vector's lanes, the last block of them not full (11 = 8 + 3, 4 + 4 + 3): K and
    // V are transposed in registers.
    QTest::newRow("heads of whole vectors") << true << 0.3 << std::vector<int>{11, 7} << 32;
}

void TestLayersGrad::selfAttention()
{
    QFETCH(bool, causal);
    QFETCH(double, dropout);
    QFETCH(std::vector<int>, lengths);
    QFETCH(int, d);
    const int B = 2, S = std::max({5, lengths[0], lengths[1]});
    Rng rng(6);
    ParamStore<D> ps;
    auto attn = MultiHeadAttention<D>::make(ps, "attn", d, 2);
    randomParams(ps, rng);
    const std::vector<std::uint8_t> valid = lengthsToValid(lengths, S);
    Mat<D> x = randomMat(B * S, d, rng), r = randomMat(B * S, d, rng), y(B * S, d),
           dx(B * S, d);
    auto forward = [&] {
        Rng drop(11);
        attn.forwardSelf(x, B, S, valid.data(), causal, dropout, Pass::training(drop), y);
        return weightedSum(y, r);
    };
    forward();
    attn.backwardSelf(x, r, dx, false);
    std::vector<Target> t;
    addParamTargets(ps, t);
    double keyBiasGrad = 0.0;
    QCOMPARE(takeKeyBiases(t, &keyBiasGrad), 1);
    QVERIFY2(keyBiasGrad <= 1e-12, qPrintable(QStringLiteral("the key bias's gradient is %1, not 0").arg(keyBiasGrad)));
    t.push_back(inputTarget("x", x, dx));
    const CheckResult res = checkGradients(forward, t, kSamples, rng);
    qInfo("self-attention %s: %s", QTest::currentDataTag(), qPrintable(describe(res)));
    QVERIFY2(res.worst <= kBar, qPrintable(describe(res)));
    QVERIFY2(res.kinks <= res.checked / 20, qPrintable(describe(res)));
}

void TestLayersGrad::crossAttention()
{
    const int B = 2, Sq = 4, Sk = 6, d = 8;
    Rng rng(7);
    ParamStore<D> ps;
    auto attn = MultiHeadAttention<D>::make(ps, "attn", d, 4);
    randomParams(ps, rng);
    const std::vector<std::uint8_t> valid = lengthsToValid({6, 3}, Sk);
    Mat<D> xq = randomMat(B * Sq, d, rng), mem = randomMat(B * Sk, d, rng),
           r = randomMat(B * Sq, d, rng), y(B * Sq, d), dxq(B * Sq, d);
    Mat<D> dmem = Mat<D>::Zero(B * Sk, d);
    auto forward = [&] {
        Rng drop(13);
        attn.forwardCross(xq, mem, B, Sq, Sk, valid.data(), 0.2, Pass::training(drop), y);
        return weightedSum(y, r);
    };
    forward();
    attn.backwardCross(xq, mem, r, dxq, false, dmem);
    std::vector<Target> t;
    addParamTargets(ps, t);
    double keyBiasGrad = 0.0;
    QCOMPARE(takeKeyBiases(t, &keyBiasGrad), 1);
    QVERIFY2(keyBiasGrad <= 1e-12, qPrintable(QStringLiteral("the key bias's gradient is %1, not 0").arg(keyBiasGrad)));
    t.push_back(inputTarget("xq", xq, dxq));
    t.push_back(inputTarget("mem", mem, dmem));
    const CheckResult res = checkGradients(forward, t, kSamples, rng);
    qInfo("cross-attention: %s", qPrintable(describe(res)));
    QVERIFY2(res.worst <= kBar, qPrintable(describe(res)));
    QVERIFY2(res.kinks <= res.checked / 20, qPrintable(describe(res)));
}

void TestLayersGrad::encoderLayer_data()
{
    QTest::addColumn<bool>("pre");
    QTest::newRow("pre-norm") << true;
    QTest::newRow("post-norm") << false;
}

void TestLayersGrad::encoderLayer()
{
    QFETCH(bool, pre);
    const int B = 2, S = 5, d = 8;
    Rng rng(8);
    ParamStore<D> ps;
    auto layer = EncoderLayer<D>::make(ps, "enc", d, 2, 12, 0.1, pre);
    randomParams(ps, rng);
    const std::vector<std::uint8_t> valid = lengthsToValid({5, 3}, S);
    Mat<D> x = randomMat(B * S, d, rng), r = randomMat(B * S, d, rng), y(B * S, d),
           dx(B * S, d);
    auto forward = [&] {
        Rng drop(17);
        layer.forward(x, B, S, valid.data(), Pass::training(drop), y);
        return weightedSum(y, r);
    };
    forward();
    layer.backward(x, r, dx);
    std::vector<Target> t;
    addParamTargets(ps, t);
    double keyBiasGrad = 0.0;
    QCOMPARE(takeKeyBiases(t, &keyBiasGrad), 1);
    QVERIFY2(keyBiasGrad <= 1e-12, qPrintable(QStringLiteral("the key bias's gradient is %1, not 0").arg(keyBiasGrad)));
    t.push_back(inputTarget("x", x, dx));
    const CheckResult res = checkGradients(forward, t, kSamples, rng);
    qInfo("encoder layer %s: %s", QTest::currentDataTag(), qPrintable(describe(res)));
    QVERIFY2(res.worst <= kBar, qPrintable(describe(res)));
    QVERIFY2(res.kinks <= res.checked / 20, qPrintable(describe(res)));
}

void TestLayersGrad::decoderLayer_data()
{
    QTest::addColumn<bool>("pre");
    QTest::newRow("pre-norm") << true;
    QTest::newRow("post-norm") << false;
}

void TestLayersGrad::decoderLayer()
{
    QFETCH(bool, pre);
    const int B = 2, T = 4, S = 5, d = 8;
    Rng rng(9);
    ParamStore<D> ps;
    auto layer = DecoderLayer<D>::make(ps, "dec", d, 2, 12, 0.1, pre);
    randomParams(ps, rng);
    const std::vector<std::uint8_t> tgtValid = lengthsToValid({4, 2}, T);
    const std::vector<std::uint8_t> srcValid = lengthsToValid({3, 5}, S);
    Mat<D> y = randomMat(B * T, d, rng), mem = randomMat(B * S, d, rng),
           r = randomMat(B * T, d, rng), out(B * T, d), dy(B * T, d);
    Mat<D> dmem = Mat<D>::Zero(B * S, d);
    auto forward = [&] {
        Rng drop(19);
        layer.forward(y, mem, B, T, S, tgtValid.data(), srcValid.data(), Pass::training(drop), out);
        return weightedSum(out, r);
    };
    forward();
    layer.backward(y, mem, r, dy, dmem);
    std::vector<Target> t;
    addParamTargets(ps, t);
    double keyBiasGrad = 0.0;
    QCOMPARE(takeKeyBiases(t, &keyBiasGrad), 2);
    QVERIFY2(keyBiasGrad <= 1e-12, qPrintable(QStringLiteral("the key bias's gradient is %1, not 0").arg(keyBiasGrad)));
    t.push_back(inputTarget("y", y, dy));
    t.push_back(inputTarget("mem", mem, dmem));
    const CheckResult res = checkGradients(forward, t, kSamples, rng);
    qInfo("decoder layer %s: %s", QTest::currentDataTag(), qPrintable(describe(res)));
    QVERIFY2(res.worst <= kBar, qPrintable(describe(res)));
    QVERIFY2(res.kinks <= res.checked / 20, qPrintable(describe(res)));
}

void TestLayersGrad::labelSmoothedLoss_data()
{
    QTest::addColumn<double>("eps");
    QTest::newRow("eps 0 (cross-entropy)") << 0.0;
    QTest::newRow("eps 0.1") << 0.1;
    QTest::newRow("eps 0.4") << 0.4;
}

void TestLayersGrad::labelSmoothedLoss()
{
    QFETCH(double, eps);
    Rng rng(10);
    const int n = 6, V = 9;
    Mat<D> logits = randomMat(n, V, rng, 3.0);
    const std::vector<int> targets = {4, 0, 8, 2, 0, 5};  // two pad rows
    Mat<D> grad = logits;
    as::labelSmoothedLoss<D>(grad, targets.data(), eps, true);
    QVERIFY(grad.row(1).isZero(0.0));
    std::vector<Target> t{inputTarget("logits", logits, grad)};
    auto loss = [&] {
        Mat<D> z = logits;
        return as::labelSmoothedLoss<D>(z, targets.data(), eps, false).loss();
    };
    const CheckResult res = checkGradients(loss, t, 1000, rng);
    qInfo("loss %s: %s", QTest::currentDataTag(), qPrintable(describe(res)));
    QVERIFY2(res.worst <= kBar, qPrintable(describe(res)));
    QVERIFY2(res.kinks <= res.checked / 20, qPrintable(describe(res)));
}

AS_TEST_APPLESS_MAIN(TestLayersGrad)
#include "test_layers_grad.moc"
