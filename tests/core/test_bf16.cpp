// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// model/bf16: float32 to bfloat16 by round-to-nearest-even, checked on values worked by hand;
// and the bfloat16 product (each of its two kernels, the engine's own and oneDNN's matmul: bfloat16
// inputs, float32 accumulation and output) against the float64 product of the same float32 inputs, within the bound that rounding the
// inputs to bfloat16 and summing in float32 give:
//
//   |C − C₆₄|ᵢⱼ ≤ (2u + u² + 1.01·K·2⁻²⁴) · (|A|·|B|)ᵢⱼ,   u = 2⁻⁸ (bfloat16's unit roundoff:
// 8 significant bits, round to nearest)
//
// (each input off by at most u relative, so each product by 2u + u²; a float32 sum of K terms
// off by at most K·2⁻²⁴ of the sum of their magnitudes, 1.01 covering the higher-order terms).
// Inputs bfloat16 already holds lose nothing but the summation's error; and general inputs do
// lose something (the product is not float32's). Every transposition, with and without
// accumulating into C, on sub-blocks of wider rows. Where the CPU has no bfloat16 units the
// product must be refused, saying so: that is what this test checks there, and it says which
// of the two it checked.
#include "model/bf16.h"
#include "model/gemm.h"
#include "model/parallel.h"
#include "model/peak.h"
#include "model/rng.h"
#include "skip.h"

#include <QFile>
#include <QTest>

#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

using namespace as;

class TestBf16 : public QObject {
    Q_OBJECT
private slots:
    void ownKernelLeavesOneDnnUnloaded();  // first: before any test loads oneDNN itself
    void roundsToNearestEven();
    void everyWayOfRoundingGivesTheSameBits();
    void productWithinTheRoundingBound_data();
    void productWithinTheRoundingBound();
    void primitivesDoNotGrowWithShapes();
    void eachOperandRoundedOnce();
    void packedRoundsEachOperandOncePerBlock();
    void biasAddedAsToCFilledWithIt();
    void kernelIsTheCpus();
    void refusedOnlyWhereTheCpuLacksUnits();
    void productUnitsAreTheCpus();
    void peakKernelsRunEveryRound();
    void precisionRoutesTheLayersProducts();
    void precisionIsTheThreadsAndItsChunks();
};

namespace {

float fromBits(std::uint32_t u)
{
    float x;
    std::memcpy(&x, &u, sizeof x);
    return x;
}

// A stored matrix (rows × cols in rows of ld floats, the padding NaN so that a read past a
// row shows).
struct Stored {
    int rows, cols, ld;
    std::vector<float> v;
    float at(int r, int c) const { return v[std::size_t(r) * std::size_t(ld) + std::size_t(c)]; }
};

Stored random(Rng& rng, int rows, int cols, bool bf16Exact)
{
    Stored s{rows, cols, cols + 3, std::vector<float>(std::size_t(rows) * std::size_t(cols + 3), NAN)};
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) {
            const float x = float(2.0 * rng.uniform() - 1.0);
            s.v[std::size_t(r) * std::size_t(s.ld) + std::size_t(c)] = bf16Exact ? fromBfloat16(toBfloat16(x)) : x;
        }
    return s;
}

// A product's shape and the elements of A and B it must round, worked by hand.
struct RoundingShape {
    int m, k, n;
    long long rounded;
};

// Each shape's product every way (A and B each stored as is or transposed) by `product`, and the
// elements `rounded()` counted over it against the shape's; the first that differs fails.
void expectRoundedCounts(const std::vector<RoundingShape>& shapes, std::uint64_t seed,
                         const std::function<bool(bool, bool, const RoundingShape&, const Stored&, const Stored&,
                                                  Stored&, QString*)>& product,
                         const std::function<long long()>& rounded)
{
    Rng rng(seed);
    for (const RoundingShape& s : shapes)
        for (bool ta : {false, true})
            for (bool tb : {false, true}) {
                const Stored a = ta ? random(rng, s.k, s.m, false) : random(rng, s.m, s.k, false);
                const Stored b = tb ? random(rng, s.n, s.k, false) : random(rng, s.k, s.n, false);
                Stored c = random(rng, s.m, s.n, false);
                QString error;
                const long long before = rounded();
                QVERIFY2(product(ta, tb, s, a, b, c, &error), qPrintable(error));
                const long long counted = rounded() - before;
                if (counted != s.rounded)
                    QFAIL(qPrintable(QStringLiteral("%1 × %2 × %3 (%4%5): %6 elements rounded, %7 wanted")
                                         .arg(s.m)
                                         .arg(s.k)
                                         .arg(s.n)
                                         .arg(ta ? "At" : "A", tb ? "Bt" : "B")
                                         .arg(counted)
                                         .arg(s.rounded)));
            }
}

// Whether a library whose file name contains `name` is mapped into this process.
bool mapped(const char* name)
{
    QFile maps(QStringLiteral("/proc/self/maps"));
    return maps.open(QIODevice::ReadOnly) && maps.readAll().contains(name);
}

}  // namespace

// Where the engine's own kernel computes the bfloat16 products because the CPU has no AMX-BF16
// (model/bf16.h), oneDNN is never loaded to ask whether it could use AMX: choosing the kernel,
// naming the units and computing a layer's products leave it unloaded (it kept 2.5 MiB resident
// in every bfloat16 run, against the target of no more memory than float32's). Where oneDNN
// computes them, it is loaded. The first test of this program, before any loads it itself.
void TestBf16::ownKernelLeavesOneDnnUnloaded()
{
    QVERIFY2(!mapped("libdnnl"), "oneDNN loaded before any bfloat16 product");
    if (!bf16Unavailable().isEmpty()) {
        QVERIFY(!mapped("libdnnl"));
        qInfo("bfloat16 unavailable here: oneDNN not loaded to say so");
        return;
    }
    const Bf16Kernel kernel = bf16Kernel();
    (void)bf16ProductUnits();
    Mat<float> a(40, 64), b(64, 48), c(40, 48);
    a.setConstant(0.5f);
    b.setConstant(0.25f);
    {
        const GemmPrecisionScope scope(GemmPrecision::BFloat16);
        gemm<float>(a, false, b, false, c, false, GemmKind::FeedForward, GemmPass::Forward);
    }
    QCOMPARE(c(0, 0), 8.0f);  // 64 × 0.5 × 0.25, exact in bfloat16
    if (kernel == Bf16Kernel::Packed && !cpuBf16Units().amxbf16) {
        QVERIFY2(!mapped("libdnnl"), "oneDNN loaded where the engine's own kernel computes");
        qInfo("the engine's own kernel, no AMX-BF16: oneDNN not loaded");
    } else {
        QCOMPARE(mapped("libdnnl"), kernel == Bf16Kernel::OneDnn || cpuBf16Units().amxbf16);
        qInfo("kernel %s, AMX-BF16 %s: oneDNN loaded", bf16KernelName(kernel),
              cpuBf16Units().amxbf16 ? "yes" : "no");
    }
}

void TestBf16::roundsToNearestEven()
{
    QCOMPARE(toBfloat16(1.0f), std::uint16_t(0x3f80));
    QCOMPARE(toBfloat16(-2.5f), std::uint16_t(0xc020));
    // 1 + 2⁻⁸ lies halfway between 1 (0x3f80) and 1 + 2⁻⁷ (0x3f81): to the even one, 0x3f80.
    QCOMPARE(toBfloat16(fromBits(0x3f808000u)), std::uint16_t(0x3f80));
    // 1 + 3·2⁻⁸, halfway between 0x3f81 and 0x3f82: to 0x3f82.
    QCOMPARE(toBfloat16(fromBits(0x3f818000u)), std::uint16_t(0x3f82));
    // Just above the halfway point goes up, just below goes down.
    QCOMPARE(toBfloat16(fromBits(0x3f808001u)), std::uint16_t(0x3f81));
    QCOMPARE(toBfloat16(fromBits(0x3f807fffu)), std::uint16_t(0x3f80));
    QCOMPARE(fromBfloat16(0x3f82), 1.015625f);
    // float32's largest value rounds up past bfloat16's largest: infinity, as IEEE rounding does.
    QCOMPARE(toBfloat16(fromBits(0x7f7fffffu)), std::uint16_t(0x7f80));
    QCOMPARE(toBfloat16(INFINITY), std::uint16_t(0x7f80));
    QCOMPARE(toBfloat16(-INFINITY), std::uint16_t(0xff80));
    // A NaN stays one, even one whose payload lives only in the bits rounding drops.
    QVERIFY(std::isnan(fromBfloat16(toBfloat16(NAN))));
    QVERIFY(std::isnan(fromBfloat16(toBfloat16(fromBits(0x7f800001u)))));
    QVERIFY(std::isnan(fromBfloat16(toBfloat16(fromBits(0xffffffffu)))));
    // Subnormal float32s become zeros of their sign, as the CPU's VCVTNEPS2BF16 makes them
    // (it treats them as zero); float32's smallest normal number stays.
    QCOMPARE(toBfloat16(fromBits(0x00000001u)), std::uint16_t(0x0000));
    QCOMPARE(toBfloat16(fromBits(0x007fffffu)), std::uint16_t(0x0000));
    QCOMPARE(toBfloat16(fromBits(0x807fffffu)), std::uint16_t(0x8000));
    QCOMPARE(toBfloat16(fromBits(0x00800000u)), std::uint16_t(0x0080));
    QCOMPARE(toBfloat16(-0.0f), std::uint16_t(0x8000));
    // bfloat16 keeps float32's exponent: 1e30, 1e-30 and -3e-38 survive with 8 significant bits,
    // off by at most u = 2⁻⁸ of themselves (-3e-38 by 2.05e-3 of itself, more than 2⁻⁹).
    for (float x : {1e30f, 1e-30f, -3.0e-38f}) {
        const float back = fromBfloat16(toBfloat16(x));
        QVERIFY(std::abs(double(back) - double(x)) <= std::abs(double(x)) * 0x1.0p-8);
    }
}

// The rounding three ways over 17 million float32 bit patterns (every 251st, and at 65,536
// spread high halves the dropped half just below, at and just above the tie, and all ones): the
// array conversion (the CPU's VCVTNE2PS2BF16 where it has AVX512-BF16), toBfloat16 one by one,
// and, for finite normal values, the nearer of the two bfloat16 neighbours measured in double,
// the even one at a tie.
void TestBf16::everyWayOfRoundingGivesTheSameBits()
{
    std::vector<float> x;
    x.reserve(std::size_t(3) << 24);
    for (std::uint64_t u = 0; u < (std::uint64_t(1) << 32); u += 251)  // a prime stride: every low half
        x.push_back(fromBits(std::uint32_t(u)));
    // 0x8000 (the tie), 0x7fff and 0x8001 in the dropped half, at a spread of high bits.
    for (std::uint64_t u = 0; u < (std::uint64_t(1) << 32); u += std::uint64_t(1) << 16)
        for (std::uint32_t low : {0x7fffu, 0x8000u, 0x8001u, 0xffffu})
            x.push_back(fromBits(std::uint32_t(u) | low));
    // A tail that no 32-float block fills, for the masked end.
    x.resize(x.size() + 7, 3.0f);
    std::vector<std::uint16_t> fast(x.size());
    toBfloat16(x.data(), fast.data(), x.size());
    long checkedByDouble = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        const std::uint16_t one = toBfloat16(x[i]);
        if (fast[i] != one)
            QFAIL(qPrintable(QStringLiteral("0x%1: array 0x%2, one by one 0x%3")
                                 .arg(std::bit_cast<std::uint32_t>(x[i]), 8, 16, QLatin1Char('0'))
                                 .arg(fast[i], 4, 16, QLatin1Char('0'))
                                 .arg(one, 4, 16, QLatin1Char('0'))));
        const std::uint32_t u = std::bit_cast<std::uint32_t>(x[i]);
        const std::uint32_t exponent = u & 0x7f800000u;
        if (exponent == 0 || exponent == 0x7f800000u)
            continue;
        const std::uint32_t down = u & 0xffff0000u, up = down + 0x10000u;
        const double dx = double(x[i]), dDown = double(fromBits(down));
        // up may be the infinity past the largest value: float32's next binade's first number.
        const double dUp = (up & 0x7fffffffu) == 0x7f800000u ? std::ldexp(std::copysign(1.0, dx), 128)
                                                              : double(fromBits(up));
        const double below = std::abs(dx - dDown), above = std::abs(dUp - dx);
        const std::uint32_t want = below < above ? down : above < below ? up : ((down >> 16) & 1u) ? up : down;
        QCOMPARE(one, std::uint16_t(want >> 16));
        ++checkedByDouble;
    }
    qInfo("%zu values; %ld normal ones against the nearer neighbour in double; array conversion: %s", x.size(),
          checkedByDouble, cpuBf16Units().avx512bf16 ? "the CPU's VCVTNE2PS2BF16" : "one by one (no AVX512-BF16)");
}

void TestBf16::productWithinTheRoundingBound_data()
{
    QTest::addColumn<QString>("kernel");  // "own" (gemmBf16Packed) or "onednn" (gemmBf16OneDnn)
    QTest::addColumn<bool>("transA");
    QTest::addColumn<bool>("transB");
    QTest::addColumn<bool>("accumulate");
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("k");
    QTest::addColumn<int>("n");
    // At most 2^18 rounded elements an operand: 37 × 300 × 29 is one block; 150 × 4100 × 130 is
    // cut along the inner dimension (1728, 1728, 644), the later blocks added to the first's sums;
    // 2000 × 300 × 70 into blocks of C's rows (832, 832, 336), B rounded once for all of them;
    // 70 × 300 × 2000 into blocks of its columns, A rounded once.
    // The engine's own kernel's blocks (model/bf16_gemm.cpp): tiles of 12 × 32 of C, the inner
    // dimension in equal even blocks of at most 256, 96 rows of A and 1024 columns of B at a
    // time; so 37 × 301 × 50 has a last tile of one row and 18 columns, and a pair of the inner
    // dimension half zero; 150 × 4100 × 130 has 17 blocks of the inner dimension (16 × 242 and
    // 228), 2000 × 300 × 70 21 blocks of A's rows, 70 × 300 × 2000 two of B's columns.
    for (const char* kernel : {"own", "onednn"})
        for (const auto& [m, k, n] : {std::array<int, 3>{37, 300, 29}, std::array<int, 3>{37, 301, 50},
                                      std::array<int, 3>{150, 4100, 130}, std::array<int, 3>{2000, 300, 70},
                                      std::array<int, 3>{70, 300, 2000}})
            for (bool ta : {false, true})
                for (bool tb : {false, true})
                    for (bool acc : {false, true})
                        QTest::addRow("%s %dx%dx%d %s%s%s", kernel, m, k, n, ta ? "At" : "A", tb ? "Bt" : "B",
                                      acc ? "+=" : "")
                            << QString::fromLatin1(kernel) << ta << tb << acc << m << k << n;
    // Both of C's dimensions above 4096 with the inner one cut to 64 (64, 2): blocks of rows,
    // columns and inner dimension at once, B's rounded again for each block of rows. One way
    // (the float64 reference is a billion products).
    for (const char* kernel : {"own", "onednn"})
        QTest::addRow("%s 4100x66x4100 ABt+=", kernel)
            << QString::fromLatin1(kernel) << false << true << true << 4100 << 66 << 4100;
}

void TestBf16::productWithinTheRoundingBound()
{
    QFETCH(QString, kernel);
    QFETCH(bool, transA);
    QFETCH(bool, transB);
    QFETCH(bool, accumulate);
    QFETCH(int, m);
    QFETCH(int, k);
    QFETCH(int, n);
    const bool own = kernel == QLatin1String("own");
    if (own && !gemmBf16PackedAvailable()) {
        // No AVX512-BF16 here (or AS_BF16=off): the engine's kernel computes nothing.
        float c = 7;
        const float one = 1;
        QVERIFY(!gemmBf16Packed(false, false, 1, 1, 1, &one, 1, &one, 1, 0.0f, &c, 1));
        QCOMPARE(c, 7.0f);
        qInfo("the engine's bfloat16 kernel cannot run here: it refused, computing nothing");
        return;
    }
    if (!own && !bf16OneDnnUnavailable().isEmpty()) {
        QString error;
        float c = 0;
        const float one = 1;
        QVERIFY(!gemmBf16OneDnn(false, false, 1, 1, 1, &one, 1, &one, 1, 0.0f, &c, 1, &error));
        QVERIFY2(error.contains(QLatin1String("bfloat16")) && error == bf16OneDnnUnavailable(), qPrintable(error));
        qInfo("oneDNN's bfloat16 products unavailable here: the product was refused, as it must be (%s)",
              qPrintable(error));
        return;
    }
    constexpr double u = 0x1.0p-8;
    for (bool exact : {false, true}) {
        Rng rng(exact ? 11 : 7);
        const Stored a = transA ? random(rng, k, m, exact) : random(rng, m, k, exact);
        const Stored b = transB ? random(rng, n, k, exact) : random(rng, k, n, exact);
        auto A = [&](int i, int p) { return double(transA ? a.at(p, i) : a.at(i, p)); };
        auto B = [&](int p, int j) { return double(transB ? b.at(j, p) : b.at(p, j)); };
        Stored c = random(rng, m, n, false);
        const Stored before = c;
        QString error;
        if (own)
            QVERIFY(gemmBf16Packed(transA, transB, m, n, k, a.v.data(), a.ld, b.v.data(), b.ld,
                                   accumulate ? 1.0f : 0.0f, c.v.data(), c.ld));
        else
            QVERIFY2(gemmBf16OneDnn(transA, transB, m, n, k, a.v.data(), a.ld, b.v.data(), b.ld,
                                    accumulate ? 1.0f : 0.0f, c.v.data(), c.ld, &error),
                     qPrintable(error));
        const double inputs = exact ? 0.0 : 2 * u + u * u;
        const double sum = 1.01 * k * 0x1.0p-24;
        double worst = 0, differs = 0;
        for (int i = 0; i < m; ++i)
            for (int j = 0; j < n; ++j) {
                double exact64 = accumulate ? double(before.at(i, j)) : 0.0, magnitude = 0, f32 = exact64;
                for (int p = 0; p < k; ++p) {
                    exact64 += A(i, p) * B(p, j);
                    magnitude += std::abs(A(i, p) * B(p, j));
                    f32 = double(float(f32 + double(float(A(i, p) * B(p, j)))));
                }
                const double bound = (inputs + sum) * magnitude
                                     + (accumulate ? 0x1.0p-24 * std::abs(double(before.at(i, j))) : 0.0);
                const double error64 = std::abs(double(c.at(i, j)) - exact64);
                worst = std::max(worst, error64 / bound);
                differs = std::max(differs, std::abs(double(c.at(i, j)) - f32));
                if (error64 > bound)
                    QFAIL(qPrintable(QStringLiteral("C[%1,%2] = %3, float64 %4: off by %5, the bound is %6")
                                         .arg(i)
                                         .arg(j)
                                         .arg(c.at(i, j))
                                         .arg(exact64)
                                         .arg(error64)
                                         .arg(bound)));
                QVERIFY(std::isnan(c.v[std::size_t(i) * std::size_t(c.ld) + std::size_t(n)]));  // past the row: untouched
            }
        qInfo("%s inputs: worst error %.3g of the bound; largest difference from the float32 sum %.3g",
              exact ? "bfloat16-exact" : "float32", worst, differs);
        if (!exact)  // rounding the inputs did happen
            QVERIFY(differs > 1e-4);
    }
}

// A training run meets a new number of tokens at almost every batch; each shape is given at the
// call, so the thread's primitives stay at one per way of reading and writing (they grew by one
// per shape before: 2,150 primitives and +314 MiB in 300 steps of zh-en).
void TestBf16::primitivesDoNotGrowWithShapes()
{
    if (const QString why = bf16OneDnnUnavailable(); !why.isEmpty()) {
        QCOMPARE(gemmBf16Primitives(), 0);
        qInfo("bfloat16 products unavailable here (%s): no primitives made", qPrintable(why));
        return;
    }
    // In a thread of its own, which starts with none; the checks in the test's thread.
    std::vector<int> counts;  // before any product, then after each
    QString error;
    std::thread([&] {
        Rng rng(5);
        counts.push_back(gemmBf16Primitives());
        for (int rows = 1; rows <= 300 && error.isEmpty(); rows += 7) {
            const int k = 16 + rows % 50, n = 8 + rows % 13;
            const Stored a = random(rng, rows, k, false), at = random(rng, k, rows, false);
            const Stored b = random(rng, k, n, false);
            Stored c = random(rng, rows, n, false);
            if (!gemmBf16OneDnn(false, false, rows, n, k, a.v.data(), a.ld, b.v.data(), b.ld, 0.0f, c.v.data(), c.ld, &error))
                return;
            counts.push_back(gemmBf16Primitives());
            if (!gemmBf16OneDnn(true, false, rows, n, k, at.v.data(), at.ld, b.v.data(), b.ld, 1.0f, c.v.data(), c.ld,
                          &error))
                return;
            counts.push_back(gemmBf16Primitives());
        }
    }).join();
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QCOMPARE(counts.size(), std::size_t(1 + 2 * 43));  // 43 shapes, each read two ways
    QCOMPARE(counts[0], 0);
    QCOMPARE(counts[1], 1);
    for (std::size_t i = 2; i < counts.size(); ++i)
        QCOMPARE(counts[i], 2);
}

// oneDNN's product (gemmBf16OneDnn). Rounding is a pass over memory: a product whose operand is too large to round whole
// (model/bf16.cpp's blocks, at most 2^18 elements a block) must still round each element of A
// and B once, as the generator's products do (they rounded A's or B's blocks again for each
// block of C: 52 M elements a step of `small` where 2.4 M were needed). The count is worked by
// hand: m·k + k·n; for 4100 × 66 × 4100 (C's rows and columns both cut, in two blocks each)
// B's blocks are rounded once for each of the two blocks of rows: m·k + 2·k·n.
void TestBf16::eachOperandRoundedOnce()
{
    if (const QString why = bf16OneDnnUnavailable(); !why.isEmpty()) {
        QCOMPARE(gemmBf16RoundedElements(), 0LL);
        qInfo("bfloat16 products unavailable here (%s): nothing rounded", qPrintable(why));
        return;
    }
    const std::vector<RoundingShape> shapes = {
        {37, 300, 29, 37LL * 300 + 300LL * 29},       // one block
        {150, 4100, 130, 150LL * 4100 + 4100LL * 130}, // three blocks of the inner dimension
        {2000, 300, 70, 2000LL * 300 + 300LL * 70},   // three blocks of C's rows
        {70, 300, 2000, 70LL * 300 + 300LL * 2000},   // three of its columns
        {416, 5000, 256, 416LL * 5000 + 5000LL * 256}, // the generator's input gradient in `small`
        {2500, 832, 256, 2500LL * 832 + 832LL * 256},  // its weight gradient (half a vocabulary)
        {4100, 66, 4100, 4100LL * 66 + 2 * 66LL * 4100},
    };
    expectRoundedCounts(
        shapes, 9,
        [](bool ta, bool tb, const RoundingShape& s, const Stored& a, const Stored& b, Stored& c, QString* error) {
            return gemmBf16OneDnn(ta, tb, s.m, s.n, s.k, a.v.data(), a.ld, b.v.data(), b.ld, 0.0f, c.v.data(), c.ld,
                                  error);
        },
        [] { return gemmBf16RoundedElements(); });
}

// The engine's own kernel rounds while it packs (model/bf16_gemm.cpp): each element of B once,
// each of A's once for each block of 1024 of C's columns that it is packed for. Worked by hand
// for each shape: m·k·⌈n/1024⌉ + k·n.
void TestBf16::packedRoundsEachOperandOncePerBlock()
{
    if (!gemmBf16PackedAvailable()) {
        const long long before = gemmBf16PackedRoundedElements();
        float c = 0;
        const float one = 1;
        QVERIFY(!gemmBf16Packed(false, false, 1, 1, 1, &one, 1, &one, 1, 0.0f, &c, 1));
        QCOMPARE(gemmBf16PackedRoundedElements(), before);
        qInfo("the engine's bfloat16 kernel cannot run here: nothing rounded");
        return;
    }
    const std::vector<RoundingShape> shapes = {
        {37, 300, 29, 37LL * 300 + 300LL * 29},
        {150, 4100, 130, 150LL * 4100 + 4100LL * 130},
        {2000, 300, 70, 2000LL * 300 + 300LL * 70},
        {70, 300, 2000, 2 * 70LL * 300 + 300LL * 2000},     // two blocks of C's columns
        {416, 256, 5000, 5 * 416LL * 256 + 256LL * 5000},   // the generator's forward in `small`
        {4100, 66, 4100, 5 * 4100LL * 66 + 66LL * 4100},
    };
    expectRoundedCounts(
        shapes, 13,
        [](bool ta, bool tb, const RoundingShape& s, const Stored& a, const Stored& b, Stored& c, QString*) {
            return gemmBf16Packed(ta, tb, s.m, s.n, s.k, a.v.data(), a.ld, b.v.data(), b.ld, 0.0f, c.v.data(), c.ld);
        },
        [] { return gemmBf16PackedRoundedElements(); });
}

// A Linear's bias given to the product (model/gemm.h's columnBias): the own kernel adds it as it
// writes C. Against the way it was computed before, and still is in float32 and by oneDNN: C
// filled with the bias, then the product added to it (beta 1). Bit for bit, padding included
// (NaN past each row: nothing written outside C), every transposition, the inner dimension odd
// and in several blocks, C's columns in two blocks of the kernel's, edge tiles. A bias with a
// product added to C is refused.
void TestBf16::biasAddedAsToCFilledWithIt()
{
    struct Shape {
        int m, k, n;
    };
    const std::vector<Shape> shapes = {{37, 301, 50}, {100, 600, 70}, {13, 64, 1100}, {1, 5, 3}};
    Rng rng(21);
    const auto filled = [](Stored c, const std::vector<float>& bias) {
        for (int r = 0; r < c.rows; ++r)
            std::copy(bias.begin(), bias.end(), c.v.begin() + std::ptrdiff_t(r) * c.ld);
        return c;
    };
    const auto same = [](const Stored& x, const Stored& y) {
        return x.v.size() == y.v.size() && std::memcmp(x.v.data(), y.v.data(), x.v.size() * sizeof(float)) == 0;
    };
    // A Linear's product, y = x Wᵀ + b, through gemm in the calling thread's precision: gemm with
    // the bias against y filled with it and the product added (beta 1), bit for bit.
    const auto linearSameBits = [&rng](const Shape& sh) {
        Mat<float> x(sh.m, sh.k), w(sh.n, sh.k), withBias(sh.m, sh.n), reference(sh.m, sh.n);
        for (Eigen::Index i = 0; i < x.size(); ++i)
            x.data()[i] = float(rng.uniform() - 0.5);
        for (Eigen::Index i = 0; i < w.size(); ++i)
            w.data()[i] = float(rng.uniform() - 0.5);
        std::vector<float> bias(std::size_t(sh.n));
        for (float& v : bias)
            v = float(rng.uniform() - 0.5);
        for (Eigen::Index r = 0; r < reference.rows(); ++r)
            for (Eigen::Index c = 0; c < reference.cols(); ++c)
                reference(r, c) = bias[std::size_t(c)];
        gemm<float>(x, false, w, true, reference, true, GemmKind::FeedForward, GemmPass::Forward);
        gemm<float>(x, false, w, true, withBias, false, GemmKind::FeedForward, GemmPass::Forward, bias.data());
        bool threw = false;  // a bias with a product added to C
        try {
            gemm<float>(x, false, w, true, withBias, true, GemmKind::FeedForward, GemmPass::Forward, bias.data());
        } catch (const std::logic_error&) {
            threw = true;
        }
        return threw && std::memcmp(withBias.data(), reference.data(), std::size_t(reference.size()) * sizeof(float)) == 0;
    };
    // float32, everywhere.
    for (const Shape& sh : shapes)
        QVERIFY2(linearSameBits(sh), qPrintable(QStringLiteral("float32 %1×%2×%3").arg(sh.m).arg(sh.k).arg(sh.n)));
    if (!bf16Unavailable().isEmpty()) {
        qInfo("bfloat16 unavailable here: the float32 product with a bias checked");
        return;
    }
    int checked = 0;
    for (const Shape& sh : shapes)
        for (const bool ta : {false, true})
            for (const bool tb : {false, true}) {
                const Stored a = ta ? random(rng, sh.k, sh.m, false) : random(rng, sh.m, sh.k, false);
                const Stored b = tb ? random(rng, sh.n, sh.k, false) : random(rng, sh.k, sh.n, false);
                std::vector<float> bias(std::size_t(sh.n));
                for (float& x : bias)
                    x = float(4.0 * rng.uniform() - 2.0);
                const Stored empty = random(rng, sh.m, sh.n, false);
                const QString where = QStringLiteral("%1×%2×%3 %4%5").arg(sh.m).arg(sh.k).arg(sh.n)
                                          .arg(ta ? "Aᵀ" : "A", tb ? "Bᵀ" : "B");
                // gemmBf16 (the kernel chosen here) and, where it can run, the own kernel alone.
                for (const bool packedOnly : {false, true}) {
                    if (packedOnly && !gemmBf16PackedAvailable())
                        continue;
                    const auto product = [&](Stored& c, float beta, const float* columnBias) {
                        QString error;
                        const bool ok = packedOnly
                                            ? gemmBf16Packed(ta, tb, sh.m, sh.n, sh.k, a.v.data(), a.ld, b.v.data(),
                                                             b.ld, beta, c.v.data(), c.ld, columnBias)
                                            : gemmBf16(ta, tb, sh.m, sh.n, sh.k, a.v.data(), a.ld, b.v.data(), b.ld,
                                                       beta, c.v.data(), c.ld, &error, columnBias);
                        return ok;
                    };
                    Stored reference = filled(empty, bias), withBias = empty;
                    QVERIFY2(product(reference, 1.0f, nullptr), qPrintable(where));
                    QVERIFY2(product(withBias, 0.0f, bias.data()), qPrintable(where));
                    QVERIFY2(same(withBias, reference), qPrintable(where + (packedOnly ? " (own kernel)" : "")));
                    Stored refused = empty;
                    QVERIFY2(!product(refused, 1.0f, bias.data()), qPrintable(where));
                    QVERIFY2(same(refused, empty), qPrintable(where + ": a refused product wrote C"));
                    ++checked;
                }
            }
    // Through gemm in bfloat16, as a Linear computes it.
    const GemmPrecisionScope inBf16(GemmPrecision::BFloat16);
    for (const Shape& sh : shapes)
        QVERIFY2(linearSameBits(sh), qPrintable(QStringLiteral("bfloat16 %1×%2×%3").arg(sh.m).arg(sh.k).arg(sh.n)));
    QVERIFY(checked >= int(shapes.size()) * 4);
    qInfo("bias added as to C filled with it: %d products (%s kernel)", checked, bf16KernelName(bf16Kernel()));
}

// Which kernel computes gemmBf16's products: the engine's own where the CPU has AVX512-BF16 and
// oneDNN would not use AMX (CPUID and oneDNN's own answer, bf16ProductUnits()), oneDNN's where
// AMX-BF16 or where the engine's cannot run; AS_BF16_KERNEL chooses where it is set. gemmBf16
// gives that kernel's product, bit for bit.
void TestBf16::kernelIsTheCpus()
{
    if (const QString why = bf16Unavailable(); !why.isEmpty()) {
        float c = 0;
        const float one = 1;
        QString error;
        QVERIFY(!gemmBf16(false, false, 1, 1, 1, &one, 1, &one, 1, 0.0f, &c, 1, &error));
        QCOMPARE(error, why);
        qInfo("bfloat16 unavailable here (%s): refused", qPrintable(why));
        return;
    }
    const QString want = qEnvironmentVariable("AS_BF16_KERNEL");
    const Bf16Kernel kernel = bf16Kernel();
    if (!gemmBf16PackedAvailable())
        QCOMPARE(kernel, Bf16Kernel::OneDnn);
    else if (want == QLatin1String("own"))
        QCOMPARE(kernel, Bf16Kernel::Packed);
    else if (want == QLatin1String("onednn") && bf16OneDnnUnavailable().isEmpty())
        QCOMPARE(kernel, Bf16Kernel::OneDnn);
    else
        QCOMPARE(kernel == Bf16Kernel::OneDnn, bf16ProductUnits() == QLatin1String("AMX-BF16"));
    Rng rng(17);
    const Stored a = random(rng, 45, 70, false), b = random(rng, 33, 70, false);
    Stored viaChoice = random(rng, 45, 33, false), viaKernel = viaChoice;
    QString error;
    QVERIFY2(gemmBf16(false, true, 45, 33, 70, a.v.data(), a.ld, b.v.data(), b.ld, 1.0f, viaChoice.v.data(),
                      viaChoice.ld, &error),
             qPrintable(error));
    if (kernel == Bf16Kernel::Packed)
        QVERIFY(gemmBf16Packed(false, true, 45, 33, 70, a.v.data(), a.ld, b.v.data(), b.ld, 1.0f,
                               viaKernel.v.data(), viaKernel.ld));
    else
        QVERIFY2(gemmBf16OneDnn(false, true, 45, 33, 70, a.v.data(), a.ld, b.v.data(), b.ld, 1.0f,
                                viaKernel.v.data(), viaKernel.ld, &error),
                 qPrintable(error));
    QVERIFY(std::memcmp(viaChoice.v.data(), viaKernel.v.data(), viaKernel.v.size() * sizeof(float)) == 0);
    qInfo("the bfloat16 products' kernel here: %s (%s)", bf16KernelName(kernel), qPrintable(bf16ProductUnits()));
}

void TestBf16::refusedOnlyWhereTheCpuLacksUnits()
{
    const Bf16Units units = cpuBf16Units();
    const QString why = bf16Unavailable();
    if (qEnvironmentVariable("AS_BF16") == QLatin1String("off")) {
        QVERIFY2(why.contains(QLatin1String("AS_BF16=off")), qPrintable(why));
        qInfo("AS_BF16=off: refused (%s); the CPU's units: %s", qPrintable(why),
              units.any() ? qPrintable(units.names()) : "none");
    } else if (units.any()) {
        // The CI and the machines here install oneDNN (scripts/install-deps.sh).
        QVERIFY2(why.isEmpty(), qPrintable(why));
        qInfo("bfloat16 units: %s; bfloat16 products available", qPrintable(units.names()));
    } else {
        QVERIFY(why.contains(QLatin1String("no bfloat16 units")));
        QVERIFY(units.names().isEmpty());
        qInfo("no bfloat16 units: refused (%s)", qPrintable(why));
    }
}

// Which units computed the products, as the Health view's time table and `train` say: empty
// where bfloat16 is refused; otherwise one the CPU has by CPUID (read here independently of
// oneDNN), AMX-BF16 only where CPUID reports AMX-BF16 (and oneDNN computes), and AVX512-BF16
// where it does not.
void TestBf16::productUnitsAreTheCpus()
{
    const QString units = bf16ProductUnits();
    if (const QString why = bf16Unavailable(); !why.isEmpty()) {
        QVERIFY(units.isEmpty());
        qInfo("bfloat16 unavailable here (%s): no units named", qPrintable(why));
        return;
    }
    const Bf16Units cpu = cpuBf16Units();
    QVERIFY2(units == QLatin1String("AMX-BF16") || units == QLatin1String("AVX512-BF16"), qPrintable(units));
    QVERIFY2(cpu.names().contains(units), qPrintable(units + QLatin1String(" not in ") + cpu.names()));
    if (!cpu.amxbf16)
        QCOMPARE(units, QStringLiteral("AVX512-BF16"));
    else if (!qEnvironmentVariableIsSet("ONEDNN_MAX_CPU_ISA") && !qEnvironmentVariableIsSet("DNNL_MAX_CPU_ISA")
             && bf16Kernel() == Bf16Kernel::OneDnn)
        QCOMPARE(units, QStringLiteral("AMX-BF16"));
    qInfo("the CPU's units: %s; the products run in %s", qPrintable(cpu.names()), qPrintable(units));
}

// The arithmetic peak's kernels (model/peak.h, `bench --gemm`'s ceiling) compute what their
// chains must hold after exactly `rounds` rounds, worked by hand: twelve chains starting at
// 0, 1, …, 11 in every lane, each FMA adding 1·1 and each bfloat16 dot product 1·1 + 1·1, so
// lanes·(66 + 12·rounds) and 16·(66 + 24·rounds), exact in float32 at these sizes. A kernel that
// skipped rounds or lanes would miss it. Their rate is measured, never asserted: only that one
// is given exactly where the CPU has the units.
void TestBf16::peakKernelsRunEveryRound()
{
    const int lanes = peakFloat32Lanes();
    QVERIFY2(lanes == 16 || lanes == 8 || lanes == 1, qPrintable(QString::number(lanes)));
    const bool dot = cpuBf16Units().avx512bf16;
    for (const long rounds : {1L, 7L, 1000L, 1'000'000L}) {
        QCOMPARE(peakFloat32Chains(rounds), double(lanes) * (66.0 + 12.0 * double(rounds)));
        QCOMPARE(peakBf16Chains(rounds), dot ? 16.0 * (66.0 + 24.0 * double(rounds)) : -1.0);
    }
    const PeakRates peak = measurePeakRates(10'000, 1);
    QVERIFY(peak.float32 > 0);
    QCOMPARE(peak.bf16 > 0, dot);
    qInfo("%d float32 lanes (%s)%s", lanes, peak.float32Vectors, dot ? "; AVX512-BF16's dot products too" : "");
}

// The precision setting (model/gemm.h): under bfloat16 the layers' products (projections,
// feed-forward, generator; every pass) are gemmBf16's, bit for bit; GemmKind::Other stays
// float32's; back to float32, the same call gives float32's product again. Refused, by name,
// where the CPU lacks the units.
void TestBf16::precisionRoutesTheLayersProducts()
{
    QString why;
    if (!bf16Unavailable().isEmpty()) {
        QVERIFY(!setGemmPrecision(GemmPrecision::BFloat16, &why));
        QVERIFY2(why == bf16Unavailable(), qPrintable(why));
        QCOMPARE(gemmPrecision(), GemmPrecision::Float32);
        qInfo("bfloat16 unavailable here: the setting was refused (%s)", qPrintable(why));
        return;
    }
    Rng rng(3);
    Mat<float> a(19, 70), b(70, 23);
    for (Eigen::Index i = 0; i < a.size(); ++i)
        a.data()[i] = float(2.0 * rng.uniform() - 1.0);
    for (Eigen::Index i = 0; i < b.size(); ++i)
        b.data()[i] = float(2.0 * rng.uniform() - 1.0);
    Mat<float> viaBf16(19, 23), f32(19, 23), layer(19, 23), other(19, 23), back(19, 23);
    QVERIFY2(gemmBf16(false, false, 19, 23, 70, a.data(), 70, b.data(), 23, 0.0f, viaBf16.data(), 23, &why), qPrintable(why));
    gemm<float>(a, false, b, false, f32, false, GemmKind::FeedForward, GemmPass::Forward);
    QVERIFY(setGemmPrecision(GemmPrecision::BFloat16, &why));
    QCOMPARE(gemmPrecision(), GemmPrecision::BFloat16);
    for (GemmKind kind : {GemmKind::Projections, GemmKind::FeedForward, GemmKind::Generator})
        for (GemmPass pass : {GemmPass::Forward, GemmPass::InputGradient, GemmPass::WeightGradient}) {
            gemm<float>(a, false, b, false, layer, false, kind, pass);
            QVERIFY(layer == viaBf16);
        }
    gemm<float>(a, false, b, false, other, false, GemmKind::Other, GemmPass::Forward);
    QVERIFY(setGemmPrecision(GemmPrecision::Float32));
    gemm<float>(a, false, b, false, back, false, GemmKind::FeedForward, GemmPass::Forward);
    QVERIFY(other == f32);
    QVERIFY(back == f32);
    QVERIFY(viaBf16 != f32);
}

// The precision is the calling thread's (a training step's), carried into the pool's chunks
// that thread starts whichever thread runs them, and not seen by another thread (a
// translation beside the training); a scope restores the one before.
void TestBf16::precisionIsTheThreadsAndItsChunks()
{
    setEngineThreads(2);
    QCOMPARE(gemmPrecision(), GemmPrecision::Float32);
    std::vector<int> seen;
    std::mutex m;
    const auto chunksSee = [&](GemmPrecision set) {
        seen.clear();
        const GemmPrecisionScope scope(set);
        // Enough chunks' worth that the pool runs them (two threads, so both run some).
        parallelChunks(64, 1, [&](int, long, long) {
            const std::lock_guard<std::mutex> lock(m);
            seen.push_back(int(gemmPrecision()));
        });
        int other = -1;
        std::thread t([&] { other = int(gemmPrecision()); });
        t.join();
        QCOMPARE(other, int(GemmPrecision::Float32));
    };
    chunksSee(GemmPrecision::BFloat16);
    QCOMPARE(int(seen.size()), chunkCount(64, 1));
    QVERIFY(seen.size() >= 2);
    for (int p : seen)
        QCOMPARE(p, int(GemmPrecision::BFloat16));
    QCOMPARE(gemmPrecision(), GemmPrecision::Float32);  // the scope ended
    chunksSee(GemmPrecision::Float32);
    for (int p : seen)
        QCOMPARE(p, int(GemmPrecision::Float32));
    GemmPrecision p;
    QVERIFY(gemmPrecisionFromName(QStringLiteral("bf16"), &p) && p == GemmPrecision::BFloat16);
    QVERIFY(gemmPrecisionFromName(QStringLiteral("float32"), &p) && p == GemmPrecision::Float32);
    QVERIFY(!gemmPrecisionFromName(QStringLiteral("fp16"), &p));
    QCOMPARE(QLatin1String(gemmPrecisionArgument(GemmPrecision::BFloat16)), QLatin1String("bf16"));
}

AS_TEST_GUILESS_MAIN(TestBf16)
#include "test_bf16.moc"
