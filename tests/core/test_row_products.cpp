// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// model/row_products: combineRows, the kernel of attention's per-head products, against Eigen's
// product in double over shapes that reach every path of it (8, 4, 2 and 1 rows at a time; two
// whole vectors, one, and a tail shorter than a vector; depth 1 and long), A as it is and
// transposed, strides wider than the widths, and alpha. B and C are held in buffers exactly as
// long as the strides say, so that a read or write past them is an ASan error, and the columns
// of C from w on are checked untouched.
#include "skip.h"
#include "model/row_products.h"

#include <QTest>

#include <Eigen/Core>

#include <random>
#include <vector>

using namespace as;

class TestRowProducts : public QObject {
    Q_OBJECT
private slots:
    void matchesEigenInDouble_data();
    void matchesEigenInDouble();
    void paddedWidthIsWholeVectors();
};

namespace {

using MatD = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic>;

// One case: C = alpha * A B, A [m, depth] (stored transposed when `transposedA`), B [depth, w].
// Returns the largest error relative to the size of the terms (sum_t |A(i,t) B(t,j)|).
template <typename T>
double worstError(int m, int depth, int w, bool transposedA, int extra, double alpha,
                  std::mt19937& rng, bool* untouched)
{
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    // A's stored layout: [m, lda] (as it is) or [depth, lda] (transposed), lda >= its width.
    const int lda = (transposedA ? m : depth) + extra;
    const int aRows = transposedA ? depth : m;
    const long ars = transposedA ? 1 : lda, acs = transposedA ? lda : 1;
    const long ldb = w + extra, ldc = w + extra + 1;
    std::vector<T> A(std::size_t(aRows) * lda), B(std::size_t(depth - 1) * ldb + w);
    std::vector<T> C(std::size_t(m - 1) * ldc + w);
    // C's last row ends at w: the columns between w and ldc of the other rows are the sentinels.
    const T sentinel = T(12345.5);
    for (T& x : A)
        x = T(u(rng));
    for (T& x : B)
        x = T(u(rng));
    std::fill(C.begin(), C.end(), sentinel);
    MatD a(m, depth), b(depth, w);
    for (int i = 0; i < m; ++i)
        for (int t = 0; t < depth; ++t)
            a(i, t) = double(A[std::size_t(i * ars + t * acs)]);
    for (int t = 0; t < depth; ++t)
        for (int j = 0; j < w; ++j)
            b(t, j) = double(B[std::size_t(t) * ldb + j]);
    combineRows<T>(m, depth, w, A.data(), ars, acs, B.data(), ldb, C.data(), ldc, T(alpha));
    const MatD want = alpha * (a * b);
    const MatD scale = (std::abs(alpha) * (a.cwiseAbs() * b.cwiseAbs())).array() + 1e-30;
    double worst = 0;
    for (int i = 0; i < m; ++i) {
        for (int j = 0; j < w; ++j)
            worst = std::max(worst, std::abs(double(C[std::size_t(i) * ldc + j]) - want(i, j)) /
                                        scale(i, j));
        if (i + 1 < m)
            for (long j = w; j < ldc; ++j)
                if (C[std::size_t(i) * ldc + std::size_t(j)] != sentinel)
                    *untouched = false;
    }
    return worst;
}

}  // namespace

void TestRowProducts::matchesEigenInDouble_data()
{
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("depth");
    QTest::addColumn<int>("w");
    // Rows: 1, 2, 3 (2 + 1), 4, 7 (4 + 2 + 1), 8 (one vector's block), 13 (a tiny batch's
    // queries: 8 + 4 + 1 one vector wide, 4 + 4 + 4 + 1 two), 15 (8 + 4 + 2 + 1), 16, 25.
    // Widths for float (16 lanes with AVX-512, 8 with AVX2, 4 with SSE) and double (half that):
    // tails only, one vector, one vector and a tail, two, two and one and a tail, the padded
    // widths attention uses.
    for (int m : {1, 2, 3, 4, 7, 8, 13, 15, 16, 25})
        for (int depth : {1, 5, 32, 64})
            for (int w : {1, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 48, 57, 64})
                QTest::addRow("m%d_k%d_w%d", m, depth, w) << m << depth << w;
}

void TestRowProducts::matchesEigenInDouble()
{
    QFETCH(int, m);
    QFETCH(int, depth);
    QFETCH(int, w);
    std::mt19937 rng(std::uint32_t(m * 10007 + depth * 101 + w));
    bool untouched = true;
    for (bool transposedA : {false, true})
        for (int extra : {0, 3})
            for (double alpha : {1.0, 0.125, -0.7}) {
                // float: each term rounded once and summed in depth steps; double: ~1e-16.
                const double ef = worstError<float>(m, depth, w, transposedA, extra, alpha, rng,
                                                    &untouched);
                const double ed = worstError<double>(m, depth, w, transposedA, extra, alpha, rng,
                                                     &untouched);
                QVERIFY2(ef < 1e-6 * (depth + 2), qPrintable(QString::number(ef)));
                QVERIFY2(ed < 1e-14 * (depth + 2), qPrintable(QString::number(ed)));
            }
    QVERIFY2(untouched, "a column of C from w on was written");
}

void TestRowProducts::paddedWidthIsWholeVectors()
{
    // The widest vector of the build's target (built for Zen 3, -march=znver3: AVX2).
#if defined(__AVX512F__)
    const int f = 16;
#elif defined(__AVX__)
    const int f = 8;
#else
    const int f = 4;
#endif
    QCOMPARE(rowProductLanes<float>(), f);
    QCOMPARE(rowProductLanes<double>(), f / 2);
    QCOMPARE(paddedWidth<float>(1), f);
    QCOMPARE(paddedWidth<float>(f), f);
    QCOMPARE(paddedWidth<float>(f + 1), 2 * f);
    QCOMPARE(paddedWidth<double>(f / 2 + 1), f);
    QCOMPARE(paddedWidth<double>(f / 2), f / 2);
}

AS_TEST_APPLESS_MAIN(TestRowProducts)
#include "test_row_products.moc"
