// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The fused label-smoothed loss against the slow, explicit formula of core/SPEC.md §3.1.
#include "skip.h"
#include "model/parallel.h"
#include "model/softmax.h"
#include "train/loss.h"

#include <QTest>

#include <algorithm>
#include <cmath>

using namespace as;

class TestLoss : public QObject {
    Q_OBJECT
private slots:
    void equalsExplicitKl_data();
    void equalsExplicitKl();
    void gradientIsPMinusQ();
    void hugeLogitsStayFinite();
    void allPadBatch();
    void longRowsAndTies_data();
    void longRowsAndTies();
    void gradColumnSumsAreTheBiasGradient();
    void rowBiasIsAddedFirst();
};

namespace {
// The smoothed distribution built the slow way ([n, V]) and sum KL(q || p) over non-pad rows,
// with 0 log 0 = 0 — PyTorch's kl_div(reduction="sum").
double explicitKl(const Mat<double>& logits, const std::vector<int>& targets, double eps, long* n)
{
    const Eigen::Index V = logits.cols();
    Mat<double> logp = logits;
    logSoftmaxRows<double>(logp);
    Mat<double> q = Mat<double>::Constant(logits.rows(), V, eps / double(V - 2));
    double kl = 0;
    *n = 0;
    for (Eigen::Index r = 0; r < logits.rows(); ++r) {
        q(r, targets[r]) = 1.0 - eps;
        q(r, 0) = 0.0;
        if (targets[r] == 0)
            q.row(r).setZero();
        else
            ++*n;
        for (Eigen::Index j = 0; j < V; ++j)
            if (q(r, j) > 0)
                kl += q(r, j) * (std::log(q(r, j)) - logp(r, j));
    }
    return kl;
}
}  // namespace

void TestLoss::equalsExplicitKl_data()
{
    QTest::addColumn<double>("eps");
    QTest::addColumn<int>("V");
    QTest::newRow("eps 0, V 5") << 0.0 << 5;
    QTest::newRow("eps 0.1, V 7") << 0.1 << 7;
    QTest::newRow("eps 0.3, V 50") << 0.3 << 50;
}

void TestLoss::equalsExplicitKl()
{
    QFETCH(double, eps);
    QFETCH(int, V);
    srand(7);
    Mat<double> logits = Mat<double>::Random(6, V) * 4.0;
    const std::vector<int> targets = {1 % V, 0, V - 1, 2, 0, 3};
    long n = 0;
    const double slow = explicitKl(logits, targets, eps, &n);
    Mat<double> z = logits;
    const LossStats st = labelSmoothedLoss<double>(z, targets.data(), eps, false);
    QCOMPARE(st.ntokens, n);
    QVERIFY2(std::abs(st.loss_sum - slow) <= 1e-12 * std::abs(slow),
             qPrintable(QStringLiteral("fused %1 vs explicit %2").arg(st.loss_sum, 0, 'g', 17).arg(slow, 0, 'g', 17)));
    QCOMPARE(st.loss(), st.loss_sum / double(n));
    // Float: the same value to float precision.
    Mat<float> zf = logits.cast<float>();
    const LossStats sf = labelSmoothedLoss<float>(zf, targets.data(), eps, false);
    QVERIFY(std::abs(sf.loss_sum - slow) <= 1e-5 * std::abs(slow));
}

void TestLoss::gradientIsPMinusQ()
{
    const int V = 6;
    Mat<double> logits(2, V);
    logits << 0.1, 0.5, -0.3, 2.0, 0.0, 1.0, 3.0, -1.0, 0.2, 0.2, 0.4, -2.0;
    const std::vector<int> targets = {3, 5};
    const double eps = 0.2;
    Mat<double> p = logits;
    softmaxRows<double>(p);
    Mat<double> g = logits;
    labelSmoothedLoss<double>(g, targets.data(), eps, true);
    for (int r = 0; r < 2; ++r)
        for (int j = 0; j < V; ++j) {
            const double q = j == 0 ? 0.0 : j == targets[r] ? 1.0 - eps : eps / (V - 2);
            QVERIFY(std::abs(g(r, j) - (p(r, j) - q) / 2.0) < 1e-15);
        }
}

void TestLoss::hugeLogitsStayFinite()
{
    Mat<float> z(1, 5);
    z << 1e4f, -1e4f, 0.0f, 1e4f, -1e4f;
    const std::vector<int> t = {4};
    Mat<float> g = z;
    const LossStats st = labelSmoothedLoss<float>(g, t.data(), 0.1, true);
    QVERIFY(std::isfinite(st.loss_sum));
    QVERIFY(st.loss_sum > 1e3);  // the target got probability e^-20000
    QVERIFY(g.allFinite());
}

void TestLoss::allPadBatch()
{
    Mat<double> z = Mat<double>::Ones(2, 5);
    const std::vector<int> t = {0, 0};
    const LossStats st = labelSmoothedLoss<double>(z, t.data(), 0.1, true);
    QCOMPARE(st.ntokens, 0L);
    QCOMPARE(st.loss(), 0.0);
    QVERIFY(z.isZero(0.0));
}

// The generator's bias gradient, summed by the loss row by row as it writes the gradient
// (gradColumnSums), against sum over rows of (p - q) / ntokens worked from the softmax in
// double: 200 rows, so that both threads sum a chunk, one of them a pad row; added to what
// the vector held (the gradient accumulates).
void TestLoss::gradColumnSumsAreTheBiasGradient()
{
    setEngineThreads(2);
    QCOMPARE(chunkCount(200, 16), 2);
    const int n = 200, V = 37;
    srand(7);
    const Mat<double> logits = Mat<double>::Random(n, V) * 4.0;
    std::vector<int> targets(static_cast<std::size_t>(n));
    for (int r = 0; r < n; ++r)
        targets[std::size_t(r)] = r == 131 ? 0 : 1 + (r * 13) % (V - 1);
    Mat<double> p = logits;
    softmaxRows<double>(p);
    const double eps = 0.1;
    RowVec<double> want = RowVec<double>::LinSpaced(V, -1.0, 1.0);
    const RowVec<double> before = want;
    for (int r = 0; r < n; ++r) {
        const int t = targets[std::size_t(r)];
        if (t == 0)
            continue;
        for (int j = 0; j < V; ++j) {
            const double q = j == 0 ? 0.0 : j == t ? 1.0 - eps : eps / (V - 2);
            want(j) += (p(r, j) - q) / double(n - 1);
        }
    }
    Mat<double> z = logits;
    RowVec<double> sums = before;
    labelSmoothedLoss<double>(z, targets.data(), eps, true, sums.data());
    QVERIFY2((sums - want).cwiseAbs().maxCoeff() < 1e-15,
             qPrintable(QStringLiteral("max error %1").arg((sums - want).cwiseAbs().maxCoeff())));
    QVERIFY((sums - before).cwiseAbs().maxCoeff() > 1e-4);  // it did add something
    Mat<float> zf = logits.cast<float>();
    RowVec<float> sf = before.cast<float>();
    labelSmoothedLoss<float>(zf, targets.data(), eps, true, sf.data());
    QVERIFY((sf.cast<double>() - want).cwiseAbs().maxCoeff() < 1e-6);
    // Without the gradient there is nothing to sum, and the vector is left alone.
    Mat<double> z2 = logits;
    RowVec<double> untouched = before;
    labelSmoothedLoss<double>(z2, targets.data(), eps, false, untouched.data());
    QCOMPARE(untouched, before);
}

void TestLoss::longRowsAndTies_data()
{
    QTest::addColumn<int>("V");
    // Shorter than a vector, not a multiple of one, several of them, the bench's vocabulary.
    for (int V : {5, 17, 64, 100, 1013, 5000})
        QTest::newRow(qPrintable(QStringLiteral("V %1").arg(V))) << V;
}

// Rows as long as a vocabulary, read in vectors with a tail: the loss, the gradient and the
// argmax (the first of tied maxima, as accuracy counts it) against the plain formulas.
void TestLoss::longRowsAndTies()
{
    QFETCH(int, V);
    srand(unsigned(V));
    const int n = 8;
    Mat<double> logits = Mat<double>::Random(n, V) * 3.0;
    std::vector<int> targets(static_cast<std::size_t>(n));
    long wantCorrect = 0;
    for (int r = 0; r < n; ++r) {
        // Two equal maxima, at a and b > a: only a is the argmax.
        const int a = 1 + (r * 7919) % (V - 1);
        const int b = 1 + (r * 104729 + V / 2) % (V - 1);
        logits(r, a) = 10.0;
        logits(r, b) = 10.0;
        const int first = std::min(a, b);
        targets[std::size_t(r)] = r == 5 ? 0 : r % 2 ? first : std::max(a, b);
        wantCorrect += r != 5 && (r % 2 || a == b);
    }
    long nTokens = 0;
    const double slow = explicitKl(logits, targets, 0.1, &nTokens);
    Mat<double> p = logits;
    softmaxRows<double>(p);
    for (bool wantGrad : {false, true}) {
        Mat<double> z = logits;
        const LossStats st = labelSmoothedLoss<double>(z, targets.data(), 0.1, wantGrad);
        QCOMPARE(st.ntokens, nTokens);
        QCOMPARE(st.correct, wantCorrect);
        QVERIFY2(std::abs(st.loss_sum - slow) <= 1e-12 * std::abs(slow),
                 qPrintable(QStringLiteral("fused %1 vs explicit %2").arg(st.loss_sum, 0, 'g', 17).arg(slow, 0, 'g', 17)));
        Mat<float> zf = logits.cast<float>();
        const LossStats sf = labelSmoothedLoss<float>(zf, targets.data(), 0.1, wantGrad);
        QCOMPARE(sf.correct, wantCorrect);
        QVERIFY(std::abs(sf.loss_sum - slow) <= 1e-5 * std::abs(slow));
        if (!wantGrad)
            continue;
        for (int r = 0; r < n; ++r) {
            const int t = targets[std::size_t(r)];
            for (int j = 0; j < V; ++j) {
                const double q = t == 0 ? 0.0 : j == 0 ? 0.0 : j == t ? 0.9 : 0.1 / (V - 2);
                const double want = t == 0 ? 0.0 : (p(r, j) - q) / double(nTokens);
                QVERIFY2(std::abs(z(r, j) - want) < 1e-15,
                         qPrintable(QStringLiteral("row %1, %2: %3 vs %4").arg(r).arg(j).arg(z(r, j)).arg(want)));
                QVERIFY2(std::abs(double(zf(r, j)) - want) < 1e-7,
                         qPrintable(QStringLiteral("float row %1, %2: %3 vs %4").arg(r).arg(j).arg(zf(r, j)).arg(want)));
            }
        }
    }
}

// With a row bias, the loss, its statistics and the gradient are those of logits + bias, the
// sum worked out here in a loop: the same to the last bit as the call on the biased logits, in
// double on 2 threads; pad rows still give zero gradient rows.
void TestLoss::rowBiasIsAddedFirst()
{
    setEngineThreads(2);
    const int n = 200, V = 37;
    srand(11);
    const Mat<double> logits = Mat<double>::Random(n, V) * 4.0;
    const RowVec<double> bias = RowVec<double>::Random(V) * 3.0;
    std::vector<int> targets(static_cast<std::size_t>(n));
    for (int r = 0; r < n; ++r)
        targets[std::size_t(r)] = r % 17 == 5 ? 0 : 1 + (r * 7) % (V - 1);
    Mat<double> biased(n, V);
    for (int r = 0; r < n; ++r)
        for (int j = 0; j < V; ++j)
            biased(r, j) = logits(r, j) + bias(j);
    Mat<double> want = biased;
    RowVec<double> wantSums = RowVec<double>::Zero(V);
    const LossStats a = labelSmoothedLoss<double>(want, targets.data(), 0.1, true, wantSums.data());
    Mat<double> got = logits;
    RowVec<double> gotSums = RowVec<double>::Zero(V);
    const LossStats b = labelSmoothedLoss<double>(got, targets.data(), 0.1, true, gotSums.data(),
                                                  bias.data());
    QCOMPARE(b.loss_sum, a.loss_sum);
    QCOMPARE(b.nll_sum, a.nll_sum);
    QCOMPARE(b.correct, a.correct);
    QCOMPARE(b.ntokens, a.ntokens);
    QVERIFY(got == want);
    QVERIFY(gotSums == wantSums);
    QVERIFY(got.row(5).isZero(0.0));
    // The bias moves the loss: without it, the loss differs.
    Mat<double> plain = logits;
    QVERIFY(std::abs(labelSmoothedLoss<double>(plain, targets.data(), 0.1, false).loss_sum - a.loss_sum) > 1e-3);
    // Without the gradient (evaluation), the same statistics.
    Mat<double> got2 = logits;
    const LossStats c = labelSmoothedLoss<double>(got2, targets.data(), 0.1, false, nullptr, bias.data());
    QCOMPARE(c.loss_sum, a.loss_sum);
    setEngineThreads(0);
}

AS_TEST_APPLESS_MAIN(TestLoss)
#include "test_loss.moc"
