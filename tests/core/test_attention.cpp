// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Masks, numerically extreme scores, and the positional-encoding table.
#include "skip.h"
#include "model/attention.h"
#include "model/positional_encoding.h"
#include "model/softmax.h"
#include "model/transformer.h"

#include <QTest>

#include <cmath>

using namespace as;

class TestAttention : public QObject {
    Q_OBJECT
private slots:
    void paddedAndFutureKeysGetExactlyZero();
    void fullyMaskedRowIsUniform();
    void dropoutIsTheMaskOfItsKey_data();
    void dropoutIsTheMaskOfItsKey();
    void wideHeadsMatchDouble();
    void modelKeepsEveryHeadOfEveryLayer();
    void softmaxOfHugeScores();
    void logSoftmaxOfHugeScores();
    void positionalEncodingCells_data();
    void positionalEncodingCells();
};

namespace {
ModelConfig smallConfig()
{
    ModelConfig c;
    c.src_vocab = 12;
    c.tgt_vocab = 14;
    c.d_model = 16;
    c.heads = 4;
    c.d_ff = 32;
    c.encoder_layers = 2;
    c.decoder_layers = 3;
    c.dropout = 0.0;
    return c;
}

// An attention layer named "a" with its parameters uniform in [-0.5, 0.5), drawn from seed.
MultiHeadAttention<float> randomAttention(ParamStore<float>& ps, int d, int heads,
                                          std::uint64_t seed)
{
    auto attn = MultiHeadAttention<float>::make(ps, "a", d, heads);
    ps.allocate();
    ps.ensureGrads();
    Rng rng(seed);
    for (std::size_t i = 0; i < ps.size(); ++i)
        ps.values()[i] = float(rng.uniform() - 0.5);
    return attn;
}
}  // namespace

void TestAttention::paddedAndFutureKeysGetExactlyZero()
{
    Transformer<float> model(smallConfig());
    Rng rng(1);
    model.initXavier(rng);
    // Sources of lengths 5 and 2, targets of lengths 3 and 1 (+ <s>): padding everywhere.
    const Batch b = makeBatch({{4, 5, 6, 7, 8}, {9, 10}}, {{4, 5, 6}, {7}});
    model.evaluate(b);
    const int H = 4;
    for (int l = 0; l < 2; ++l) {
        const auto& a = model.attention(AttentionKind::EncoderSelf, l);
        QCOMPARE(a.probs.rows(), Eigen::Index(2 * H * b.S));
        for (int h = 0; h < H; ++h)
            for (int i = 0; i < b.S; ++i)
                for (int j = 2; j < b.S; ++j)  // keys 2.. of sentence 1 are padding
                    QCOMPARE(a.probs((1 * H + h) * b.S + i, j), 0.0f);
    }
    for (int l = 0; l < 3; ++l) {
        const auto& self = model.attention(AttentionKind::DecoderSelf, l);
        const auto& cross = model.attention(AttentionKind::Cross, l);
        for (int bi = 0; bi < 2; ++bi)
            for (int h = 0; h < H; ++h)
                for (int i = 0; i < b.T; ++i) {
                    const Eigen::Index row = (bi * H + h) * b.T + i;
                    float sum = 0.0f;
                    for (int j = 0; j < b.T; ++j) {
                        const bool future = j > i;
                        const bool pad = b.tgtIn[bi * b.T + j] == kPad;
                        if (future || pad)
                            QCOMPARE(self.probs(row, j), 0.0f);
                        sum += self.probs(row, j);
                    }
                    QVERIFY(std::abs(sum - 1.0f) < 1e-5f);
                    for (int j = 0; j < b.S; ++j)
                        if (b.src[bi * b.S + j] == kPad)
                            QCOMPARE(cross.probs(row, j), 0.0f);
                }
    }
}

void TestAttention::fullyMaskedRowIsUniform()
{
    // As PyTorch's masked_fill(-1e9) + softmax: a row with no real key spreads evenly.
    ParamStore<float> ps;
    auto attn = randomAttention(ps, 8, 2, 2);
    Mat<float> x = Mat<float>::Random(4, 8), y(4, 8);
    const std::vector<std::uint8_t> valid(4, 0);
    attn.forwardSelf(x, 1, 4, valid.data(), false, 0.0, Pass::eval(), y);
    QVERIFY(y.allFinite());
    for (Eigen::Index r = 0; r < attn.probs.rows(); ++r)
        for (Eigen::Index c = 0; c < 4; ++c)
            QCOMPARE(attn.probs(r, c), 0.25f);
}

void TestAttention::dropoutIsTheMaskOfItsKey_data()
{
    QTest::addColumn<int>("threads");
    QTest::newRow("1 thread") << 1;
    QTest::newRow("2 threads") << 2;
}

// Attention drops each head's probabilities right after its softmax, drawing the mask head by
// head (DropoutMaskStream): the dropped probabilities must be the probabilities times the
// plain mask of the pass's key over all of them (fillDropoutMask), as if Dropout had run over
// the whole matrix, on any thread count. 6 sequences of 45 with 4 heads: 24 heads of 2,025
// probabilities, 12 mask blocks, heads that straddle blocks.
void TestAttention::dropoutIsTheMaskOfItsKey()
{
    QFETCH(int, threads);
    setEngineThreads(threads);
    ParamStore<float> ps;
    auto attn = randomAttention(ps, 16, 4, 4);
    const int B = 6, S = 45;
    Mat<float> x = Mat<float>::Random(B * S, 16), y(B * S, 16);
    std::vector<std::uint8_t> valid(std::size_t(B * S), 1);
    for (int j = 40; j < S; ++j)
        valid[std::size_t(2 * S + j)] = 0;  // the third sequence is padded
    Rng rng(17), copy(17);
    attn.forwardSelf(x, B, S, valid.data(), true, 0.3, Pass::training(rng), y);
    setEngineThreads(0);
    QCOMPARE(attn.probsDropped.rows(), attn.probs.rows());
    QCOMPARE(attn.probsDropped.cols(), Eigen::Index(S));
    Mat<float> mask(attn.probs.rows(), attn.probs.cols());
    fillDropoutMask(mask.data(), 0, long(mask.size()), copy.next(), 0.3f, float(1 / 0.7));
    const Mat<float> expected = attn.probs.cwiseProduct(mask);
    QVERIFY(attn.probsDropped == expected);
    QVERIFY(rng.next() == copy.next());  // one number drawn, the key
    // The heads' context is made from the dropped probabilities: each head's P_dropped V, from
    // the values V kept in qkvBuf, in double.
    const int dk = 4;
    for (int b = 0; b < B; ++b)
        for (int h = 0; h < 4; ++h) {
            const Eigen::MatrixXd pd =
                attn.probsDropped.middleRows((b * 4 + h) * S, S).cast<double>();
            const Eigen::MatrixXd v =
                attn.qkvBuf.block(b * S, 2 * 16 + h * dk, S, dk).cast<double>();
            const Eigen::MatrixXd want = pd * v;
            const Eigen::MatrixXd got = attn.ctx.block(b * S, h * dk, S, dk).cast<double>();
            QVERIFY2((got - want).cwiseAbs().maxCoeff() < 1e-5,
                     qPrintable(QStringLiteral("sequence %1, head %2").arg(b).arg(h)));
        }
}

// Heads of whole vectors (d_k = 32, the presets' size), with more keys than a vector has
// lanes and a last block of them that is not full (21 = 16 + 5 with AVX-512, 8 + 8 + 5 with
// AVX2): the paths that transpose K and V in registers. Forward and backward against the
// formulas in double, from the layer's own q, k, v and the gradient at its context:
//   P = softmax(Q Kᵀ / √d_k) (padded keys 0), C = P V,
//   dV = Pᵀ dC, dP = dC Vᵀ, dS = P ⊙ (dP − rowsum(dP ⊙ P)) / √d_k, dQ = dS K, dK = dSᵀ Q.
void TestAttention::wideHeadsMatchDouble()
{
    using MatD = Eigen::MatrixXd;
    const int d = 64, H = 2, dk = 32, B = 2, S = 21;
    ParamStore<float> ps;
    auto attn = randomAttention(ps, d, H, 5);
    Mat<float> x = Mat<float>::Random(B * S, d), y(B * S, d), dy = Mat<float>::Random(B * S, d);
    Mat<float> dx(B * S, d);
    std::vector<std::uint8_t> valid(std::size_t(B * S), 1);
    for (int j = 15; j < S; ++j)
        valid[std::size_t(S + j)] = 0;  // the second sequence has 15 real keys
    attn.forwardSelf(x, B, S, valid.data(), false, 0.0, Pass::eval(), y);
    attn.backwardSelf(x, dy, dx, false);
    const double scale = 1.0 / std::sqrt(double(dk));
    double worstP = 0, worstC = 0, worstGrad = 0;
    for (int b = 0; b < B; ++b)
        for (int h = 0; h < H; ++h) {
            const auto block = [&](const Mat<float>& m, int part) -> MatD {
                return m.block(b * S, part * d + h * dk, S, dk).cast<double>();
            };
            const MatD q = block(attn.qkvBuf, 0), k = block(attn.qkvBuf, 1),
                       v = block(attn.qkvBuf, 2);
            MatD p = q * k.transpose() * scale;
            for (int i = 0; i < S; ++i) {
                for (int j = 0; j < S; ++j)
                    if (!valid[std::size_t(b * S + j)])
                        p(i, j) = -1e300;
                const double m = p.row(i).maxCoeff();
                p.row(i) = (p.row(i).array() - m).exp().matrix();
                p.row(i) /= p.row(i).sum();
            }
            const MatD dc = attn.dctx.block(b * S, h * dk, S, dk).cast<double>();
            const MatD dp = dc * v.transpose();
            MatD ds(S, S);
            for (int i = 0; i < S; ++i)
                ds.row(i) = (p.row(i).array()
                             * (dp.row(i).array() - (dp.row(i).array() * p.row(i).array()).sum()))
                                .matrix()
                            * scale;
            const MatD gotP = attn.probs.middleRows((b * H + h) * S, S).cast<double>();
            worstP = std::max(worstP, (gotP - p).cwiseAbs().maxCoeff());
            worstC = std::max(worstC, (attn.ctx.block(b * S, h * dk, S, dk).cast<double>() - p * v)
                                          .cwiseAbs().maxCoeff());
            worstGrad = std::max({worstGrad, (block(attn.dqkvBuf, 0) - ds * k).cwiseAbs().maxCoeff(),
                                  (block(attn.dqkvBuf, 1) - ds.transpose() * q).cwiseAbs().maxCoeff(),
                                  (block(attn.dqkvBuf, 2) - p.transpose() * dc).cwiseAbs().maxCoeff()});
        }
    QVERIFY2(worstP < 1e-5, qPrintable(QString::number(worstP)));
    QVERIFY2(worstC < 1e-4, qPrintable(QString::number(worstC)));
    QVERIFY2(worstGrad < 1e-4, qPrintable(QString::number(worstGrad)));
}

void TestAttention::modelKeepsEveryHeadOfEveryLayer()
{
    Transformer<float> model(smallConfig());
    Rng rng(3);
    model.initXavier(rng);
    const Batch b = makeBatch({{4, 5, 6}}, {{7, 8}});
    model.evaluate(b);
    QCOMPARE(model.layers(AttentionKind::EncoderSelf), 2);
    QCOMPARE(model.layers(AttentionKind::DecoderSelf), 3);
    QCOMPARE(model.layers(AttentionKind::Cross), 3);
    for (AttentionKind k : {AttentionKind::EncoderSelf, AttentionKind::DecoderSelf, AttentionKind::Cross})
        for (int l = 0; l < model.layers(k); ++l) {
            const auto& a = model.attention(k, l);
            const int q = k == AttentionKind::EncoderSelf ? b.S : b.T;
            const int kk = k == AttentionKind::DecoderSelf ? b.T : b.S;
            QCOMPARE(a.probs.rows(), Eigen::Index(4 * q));  // B=1, 4 heads
            QCOMPARE(a.probs.cols(), Eigen::Index(kk));
            // Each row is a distribution, and heads differ from each other.
            QVERIFY((a.probs.rowwise().sum().array() - 1.0f).abs().maxCoeff() < 1e-5f);
        }
}

void TestAttention::softmaxOfHugeScores()
{
    Mat<double> s(2, 3);
    s << 1e4, -1e4, 1e4 - 1, -1e4, -1e4, -1e4 + 2;
    softmaxRows<double>(s);
    QVERIFY(s.allFinite());
    const double e = std::exp(-1.0), e2 = std::exp(-2.0);
    QCOMPARE(s(0, 0), 1.0 / (1.0 + e));
    QCOMPARE(s(0, 1), 0.0);
    QCOMPARE(s(0, 2), e / (1.0 + e));
    QCOMPARE(s(1, 0), e2 / (1.0 + 2 * e2) + 0.0);
    QCOMPARE(s(1, 2), 1.0 / (1.0 + 2 * e2));
    Mat<float> f(1, 2);
    f << 1e4f, -1e4f;
    softmaxRows<float>(f);
    QCOMPARE(f(0, 0), 1.0f);
    QCOMPARE(f(0, 1), 0.0f);
}

void TestAttention::logSoftmaxOfHugeScores()
{
    Mat<double> s(1, 3);
    s << 1e4, -1e4, 1e4 - 1;
    logSoftmaxRows<double>(s);
    QVERIFY(s.allFinite());
    const double lse = std::log(1.0 + std::exp(-1.0));
    // x - (1e4 + lse) rounds at 1e4 * 2^-52 ~ 2e-12: that much and no more.
    const double tol = 1e4 * 1e-15;
    QVERIFY(std::abs(s(0, 0) - -lse) < tol);
    QVERIFY(std::abs(s(0, 1) - (-2e4 - lse)) < tol);
    QVERIFY(std::abs(s(0, 2) - (-1.0 - lse)) < tol);
}

void TestAttention::positionalEncodingCells_data()
{
    QTest::addColumn<int>("pos");
    QTest::addColumn<int>("dim");
    for (int pos : {0, 1, 7, 63})
        for (int dim : {0, 1, 2, 9, 30, 31})
            QTest::addRow("pos %d dim %d", pos, dim) << pos << dim;
}

void TestAttention::positionalEncodingCells()
{
    QFETCH(int, pos);
    QFETCH(int, dim);
    const int d = 32;
    const Mat<double> pe = positionalEncoding<double>(64, d);
    const int i = dim / 2;
    const double angle = pos / std::pow(10000.0, 2.0 * i / d);
    QCOMPARE(pe(pos, dim), dim % 2 == 0 ? std::sin(angle) : std::cos(angle));
}

AS_TEST_APPLESS_MAIN(TestAttention)
#include "test_attention.moc"
