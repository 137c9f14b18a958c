// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// model/gemm: the engine's products (OpenBLAS in the default build) and Eigen's own
// (gemmEigen), both against plain loops, for every transposition, with and without
// accumulation, on sub-blocks of larger matrices (row strides wider than the rows), on one-row
// and one-column shapes, past Eigen's 1,024-column split and with an empty inner dimension.
#include "model/gemm.h"
#include "model/rng.h"
#include "skip.h"

#include <QFile>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <thread>

using namespace as;

class TestGemm : public QObject {
    Q_OBJECT
private slots:
    void matchesEigen_data();
    void matchesEigen();
    void emptyInnerDimension();
    void mismatchedShapesThrow();
    void openBlasKernelsFitTheCpu();
    void environmentRestoredAfterLoading();
    void recorderTakesEachCallAsMade();
    void everyLibraryMatchesTheLoops_data();
    void everyLibraryMatchesTheLoops();
    void choiceDispatchesPerSite();
};

namespace {

Mat<double> random(Rng& rng, Eigen::Index rows, Eigen::Index cols)
{
    Mat<double> m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i)
        m.data()[i] = rng.uniform() * 2 - 1;
    return m;
}

}  // namespace

void TestGemm::matchesEigen_data()
{
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("k");
    QTest::addColumn<bool>("transA");
    QTest::addColumn<bool>("transB");
    QTest::addColumn<bool>("accumulate");
    const int shapes[][3] = {{37, 53, 29}, {1, 40, 17}, {23, 1, 31}, {5, 7, 1}, {64, 1100, 48}};
    for (const auto& s : shapes)
        for (bool ta : {false, true})
            for (bool tb : {false, true})
                for (bool acc : {false, true})
                    QTest::addRow("%dx%dx%d %c%c %s", s[0], s[1], s[2], ta ? 'T' : 'N',
                                  tb ? 'T' : 'N', acc ? "+=" : "=")
                        << s[0] << s[1] << s[2] << ta << tb << acc;
}

void TestGemm::matchesEigen()
{
    QFETCH(int, m);
    QFETCH(int, n);
    QFETCH(int, k);
    QFETCH(bool, transA);
    QFETCH(bool, transB);
    QFETCH(bool, accumulate);
    Rng rng(uint64_t(m * 131 + n * 17 + k));
    // Each operand is a block inside a larger matrix, 3 rows down and 2 columns in, so that
    // its row stride is wider than its rows.
    const Mat<double> bigA = random(rng, (transA ? k : m) + 5, (transA ? m : k) + 4);
    const Mat<double> bigB = random(rng, (transB ? n : k) + 5, (transB ? k : n) + 4);
    const auto a = bigA.block(3, 2, transA ? k : m, transA ? m : k);
    const auto b = bigB.block(3, 2, transB ? n : k, transB ? k : n);
    const Mat<double> bigC = random(rng, m + 6, n + 3);
    Mat<double> viaGemm = bigC, viaEigen = bigC;
    gemm<double>(a, transA, b, transB, viaGemm.block(2, 1, m, n), accumulate);
    gemmEigen<double>(a, transA, b, transB, viaEigen.block(2, 1, m, n), accumulate);

    // The oracle: plain loops.
    Mat<double> expected = bigC;
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            double sum = accumulate ? bigC(2 + i, 1 + j) : 0.0;
            for (int l = 0; l < k; ++l)
                sum += (transA ? a(l, i) : a(i, l)) * (transB ? b(j, l) : b(l, j));
            expected(2 + i, 1 + j) = sum;
        }
    // Outside the block nothing is written; inside, both agree with the loops to rounding.
    const double tol = 1e-13 * k;
    const double errGemm = (viaGemm - expected).cwiseAbs().maxCoeff();
    const double errEigen = (viaEigen - expected).cwiseAbs().maxCoeff();
    QVERIFY2(errGemm <= tol, qPrintable(QString("gemm (%1) off by %2").arg(gemmBackend()).arg(errGemm)));
    QVERIFY2(errEigen <= tol, qPrintable(QString("gemmEigen off by %1").arg(errEigen)));
}

void TestGemm::emptyInnerDimension()
{
    const Mat<double> a(4, 0), b(0, 3);
    Mat<double> c = Mat<double>::Constant(4, 3, 7.0);
    gemm<double>(a, false, b, false, c, true);
    QCOMPARE(c, Mat<double>(Mat<double>::Constant(4, 3, 7.0)));
    gemm<double>(a, false, b, false, c, false);
    QCOMPARE(c, Mat<double>(Mat<double>::Zero(4, 3)));
}

void TestGemm::mismatchedShapesThrow()
{
    const Mat<double> a(4, 5), b(6, 3);
    Mat<double> c(4, 3);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, gemm<double>(a, false, b, false, c, false));
    Mat<float> cf(4, 3);
    const Mat<float> af(4, 5), bf(5, 2);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, gemm<float>(af, false, bf, false, cf, false));
}

// On CPUs with AVX-512, the products run in OpenBLAS's AVX-512 kernels (SkylakeX), whatever
// core OPENBLAS_CORETYPE names (the machines here name the AVX2 "Haswell" for every program),
// unless AS_OPENBLAS_CORETYPE asks for another. On other CPUs OpenBLAS chooses: the core
// OPENBLAS_CORETYPE names, else its own CPUID choice, which must not be an AVX-512 core. Built
// without OpenBLAS, Eigen computes every product. Each machine checks the branch it takes.
void TestGemm::openBlasKernelsFitTheCpu()
{
    const QString backend = gemmBackend();
#ifndef AS_OPENBLAS
    QCOMPARE(backend, QString("Eigen"));
#else
    QVERIFY2(backend.startsWith("OpenBLAS ") && backend.size() > 9, qPrintable("OpenBLAS not in use: " + backend));
    const QString core = backend.mid(9);
    const char* asked = std::getenv("AS_OPENBLAS_CORETYPE");
    if (asked && *asked) {
        QCOMPARE(core.toLower(), QString(asked).toLower());
        return;
    }
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")
        && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl")) {
        QCOMPARE(backend, QString("OpenBLAS SkylakeX"));
        return;
    }
    // No AVX-512: OpenBLAS's own choice, left alone (the environment was restored after
    // loading, so OPENBLAS_CORETYPE is what the process started with).
    const char* environment = std::getenv("OPENBLAS_CORETYPE");
    if (environment && *environment)
        QCOMPARE(core.toLower(), QString(environment).toLower());
    for (const char* avx512Core : {"SkylakeX", "Cooperlake", "SapphireRapids"})
        QVERIFY2(core.compare(avx512Core, Qt::CaseInsensitive) != 0,
                 qPrintable("an AVX-512 core on a CPU without AVX-512: " + backend));
#endif
}

// Choosing the kernels sets OPENBLAS_CORETYPE for a moment before main(): afterwards it must
// be what the process started with (/proc/self/environ keeps the environment at exec).
void TestGemm::environmentRestoredAfterLoading()
{
    QFile f("/proc/self/environ");
    if (!f.open(QIODevice::ReadOnly))
        AS_SKIP("no /proc/self/environ (mount procfs): the restored environment is not checked");
    QByteArray atStart;
    bool setAtStart = false;
    for (const QByteArray& entry : f.readAll().split('\0'))
        if (entry.startsWith("OPENBLAS_CORETYPE=")) {
            setAtStart = true;
            atStart = entry.mid(18);
        }
    const char* now = std::getenv("OPENBLAS_CORETYPE");
    QCOMPARE(now != nullptr, setAtStart);
    if (now)
        QCOMPARE(QByteArray(now), atStart);
}

// Each library that can compute here (OpenBLAS, oneDNN, Eigen; model/gemm.h) against plain
// loops in double, in single precision as the engine runs them, every transposition, with and
// without accumulation, on blocks of larger matrices. oneDNN is Debian's libdnnl2, loaded when
// installed (scripts/install-deps.sh installs it).
void TestGemm::everyLibraryMatchesTheLoops_data()
{
    QTest::addColumn<int>("library");
    QTest::addColumn<bool>("transA");
    QTest::addColumn<bool>("transB");
    QTest::addColumn<bool>("accumulate");
    for (int l = 0; l < kGemmLibraries; ++l)
        for (bool ta : {false, true})
            for (bool tb : {false, true})
                for (bool acc : {false, true})
                    QTest::addRow("%s %c%c %s", gemmLibraryName(GemmLibrary(l)), ta ? 'T' : 'N', tb ? 'T' : 'N',
                                  acc ? "+=" : "=")
                        << l << ta << tb << acc;
}

void TestGemm::everyLibraryMatchesTheLoops()
{
    QFETCH(int, library);
    QFETCH(bool, transA);
    QFETCH(bool, transB);
    QFETCH(bool, accumulate);
    const GemmLibrary lib = GemmLibrary(library);
    if (!gemmLibraryLoaded(lib)) {
#ifndef AS_OPENBLAS
        if (lib == GemmLibrary::OpenBlas)
            return;  // this build has no OpenBLAS: nothing to hold it to
#endif
        AS_SKIP(QStringLiteral("%1 is not installed: bash scripts/install-deps.sh").arg(gemmLibraryName(lib)));
    }
    const int m = 45, n = 70, k = 33;
    Rng rng(7);
    const Mat<float> bigA = random(rng, (transA ? k : m) + 4, (transA ? m : k) + 3).cast<float>();
    const Mat<float> bigB = random(rng, (transB ? n : k) + 4, (transB ? k : n) + 3).cast<float>();
    const auto a = bigA.block(2, 1, transA ? k : m, transA ? m : k);
    const auto b = bigB.block(2, 1, transB ? n : k, transB ? k : n);
    const Mat<float> bigC = random(rng, m + 3, n + 2).cast<float>();
    Mat<float> got = bigC;
    gemmWith<float>(lib, a, transA, b, transB, got.block(1, 1, m, n), accumulate);
    double worst = 0;
    for (int i = 0; i < m + 3; ++i)
        for (int j = 0; j < n + 2; ++j) {
            const bool inside = i >= 1 && i < 1 + m && j >= 1 && j < 1 + n;
            double want = double(bigC(i, j));
            if (inside) {
                want = accumulate ? want : 0.0;
                for (int l = 0; l < k; ++l)
                    want += double(transA ? a(l, i - 1) : a(i - 1, l)) * double(transB ? b(j - 1, l) : b(l, j - 1));
            }
            worst = std::max(worst, std::abs(double(got(i, j)) - want));
        }
    QVERIFY2(worst < 1e-5, qPrintable(QStringLiteral("%1 off by %2").arg(gemmLibraryName(lib)).arg(worst)));
}

// gemm computes each site's products with the library chosen for it: bit for bit what that
// library gives; a library not loaded is refused; reset gives the default back.
void TestGemm::choiceDispatchesPerSite()
{
    Rng rng(11);
    const Mat<float> a = random(rng, 64, 48).cast<float>(), b = random(rng, 80, 48).cast<float>();
    const int ff = gemmSite(GemmKind::FeedForward, GemmPass::Forward);
    const int proj = gemmSite(GemmKind::Projections, GemmPass::Forward);
    for (int l = 0; l < kGemmLibraries; ++l) {
        const GemmLibrary lib = GemmLibrary(l);
        if (!gemmLibraryLoaded(lib)) {
            QVERIFY(!setGemmChoice(ff, lib));
            continue;
        }
        QVERIFY(setGemmChoice(ff, lib));
        QCOMPARE(gemmChoice(ff), lib);
        Mat<float> viaSite(64, 80), direct(64, 80);
        gemm<float>(a, false, b, true, viaSite, false, GemmKind::FeedForward, GemmPass::Forward);
        gemmWith<float>(lib, a, false, b, true, direct, false);
        QVERIFY2(viaSite == direct, gemmLibraryName(lib));
    }
    // The other sites kept the default.
    QCOMPARE(gemmChoice(proj), gemmLibraryLoaded(GemmLibrary::OpenBlas) ? GemmLibrary::OpenBlas : GemmLibrary::Eigen);
    resetGemmChoices();
    QCOMPARE(gemmChoice(ff), gemmChoice(proj));
    QVERIFY(!setGemmChoice(-1, GemmLibrary::Eigen));
    QVERIFY(!setGemmChoice(kGemmSites, GemmLibrary::Eigen));
    GemmLibrary named;
    QVERIFY(gemmLibraryFromName("onednn", &named) && named == GemmLibrary::OneDnn);
    QVERIFY(!gemmLibraryFromName("mkl", &named));
}

AS_TEST_APPLESS_MAIN(TestGemm)
void TestGemm::recorderTakesEachCallAsMade()
{
    // Sub-blocks of larger matrices: the strides recorded are the parents' row lengths.
    Mat<float> pa = Mat<float>::Zero(10, 20), pb = Mat<float>::Zero(7, 11), pc = Mat<float>::Zero(12, 13);
    const auto a = pa.block(1, 2, 6, 5);  // m 6 x k 5, row stride 20
    const auto b = pb.block(0, 3, 7, 5);  // transposed: n 7 x k 5, row stride 11
    auto c = pc.block(2, 1, 6, 7);        // m 6 x n 7, row stride 13
    gemm<float>(a, false, b, true, c, true);  // before any recorder: not recorded
    std::vector<std::vector<GemmCall>> lists;
    {
        GemmRecorder recorder;
        QVERIFY_THROWS_EXCEPTION(std::logic_error, GemmRecorder());  // one at a time
        gemm<float>(a, false, b, true, c, true, GemmKind::Generator, GemmPass::WeightGradient);
        // Another thread's call goes to a list of its own; a double product is not recorded.
        std::thread([&] {
            const Mat<float> x = Mat<float>::Zero(5, 3), y = Mat<float>::Zero(5, 4);
            Mat<float> z(3, 4);
            gemm<float>(x, true, y, false, z, false);
        }).join();
        const Mat<double> dx = Mat<double>::Zero(2, 2);
        Mat<double> dz(2, 2);
        gemm<double>(dx, false, dx, false, dz, false);
        const Mat<float> b2 = Mat<float>::Zero(20, 4);
        gemm<float>(pa.topRows(1), false, b2, false, pc.block(0, 0, 1, 4),
                    false);  // a one-row product: its width is its stride
        lists = recorder.calls();
    }
    QCOMPARE(lists.size(), std::size_t(2));
    QCOMPARE(lists[0].size(), std::size_t(2));
    // Every field, against the call as written above.
    const auto same = [](const GemmCall& got, const GemmCall& want) {
        return got.transA == want.transA && got.transB == want.transB
               && got.accumulate == want.accumulate && got.m == want.m && got.n == want.n
               && got.k == want.k && got.lda == want.lda && got.ldb == want.ldb && got.ldc == want.ldc;
    };
    QVERIFY(same(lists[0][0], {false, true, true, 6, 7, 5, 20, 11, 13}));
    QCOMPARE(lists[0][0].site, gemmSite(GemmKind::Generator, GemmPass::WeightGradient));
    QCOMPARE(lists[0][1].site, gemmSite(GemmKind::Other, GemmPass::Forward));  // the default
    QCOMPARE(lists[0][0].flop(), 2.0 * 6 * 7 * 5);
    QVERIFY(same(lists[0][1], {false, false, false, 1, 4, 20, 20, 4, 4}));
    QCOMPARE(lists[1].size(), std::size_t(1));
    QVERIFY(same(lists[1][0], {true, false, false, 3, 4, 5, 3, 4, 4}));
    // A new recorder starts empty, and its place is free again once it is gone.
    GemmRecorder again;
    QVERIFY(again.calls().empty());
}

#include "test_gemm.moc"
