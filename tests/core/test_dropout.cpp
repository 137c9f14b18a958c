// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// model/dropout: the mask's statistics (kept fraction, scale, no correlation between
// neighbouring elements or blocks), that it depends on the generator's key and the shape but
// not on the thread count, that the parallel fill writes what the plain fill does, strided
// sources and destinations, the fused relu and residual sum, and backward in place or into
// another matrix.
#include "skip.h"
#include "model/dropout.h"
#include "model/parallel.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

using namespace as;

class TestDropout : public QObject {
    Q_OBJECT
private slots:
    void keptFractionAndScale_data();
    void keptFractionAndScale();
    void neighboursUncorrelated();
    void sameMaskOnAnyThreadCount();
    void matchesPlainFill();
    void fastFillMatchesPlainFill_data();
    void fastFillMatchesPlainFill();
    void keyComesFromTheGenerator();
    void streamReadsTheMaskInRanges();
    void stridedViewsAndRelu();
    void maskNotKept_data();
    void maskNotKept();
    void backwardMultipliesByMask();
    void evaluationIsIdentity();
    void forwardAddSumsTheResidual_data();
    void forwardAddSumsTheResidual();
    void forwardAddInEvaluation();
    void backwardIntoAnotherMatrix();
    void biasIsAddedBeforeTheMask_data();
    void biasIsAddedBeforeTheMask();
    void cleanupTestCase() { setEngineThreads(0); }
};

namespace {

Mat<float> ones(Eigen::Index r, Eigen::Index c) { return Mat<float>::Ones(r, c); }

}  // namespace

void TestDropout::keptFractionAndScale_data()
{
    QTest::addColumn<double>("p");
    QTest::newRow("0.1") << 0.1;
    QTest::newRow("0.3") << 0.3;
    QTest::newRow("0.5") << 0.5;
}

void TestDropout::keptFractionAndScale()
{
    QFETCH(double, p);
    Rng rng(11);
    Dropout<float> d;
    Mat<float> x = ones(1000, 517);  // 517 000 elements: not a multiple of the block
    d.forward(x, p, Pass::training(rng));
    QVERIFY(d.active);
    const float scale = float(1.0 / (1.0 - p));
    long dropped = 0;
    for (Eigen::Index i = 0; i < x.size(); ++i) {
        const float v = x.data()[i];
        QVERIFY2(v == 0.0f || v == scale, qPrintable(QString::number(v)));
        dropped += v == 0.0f;
    }
    // Binomial: standard deviation sqrt(n p (1-p)) < 360; allow 6 of them.
    const double n = double(x.size());
    QVERIFY2(std::abs(double(dropped) - n * p) < 6 * std::sqrt(n * p * (1 - p)),
             qPrintable(QString("dropped %1 of %2").arg(dropped).arg(n)));
    // The last partial block is drawn as well, not left at one value.
    long tailDropped = 0;
    for (Eigen::Index i = x.size() - 1000; i < x.size(); ++i)
        tailDropped += x.data()[i] == 0.0f;
    QVERIFY(tailDropped > 0 && tailDropped < 1000);
}

// Each 64-bit output decides two elements, and each block has its own generator: an error in
// either (the same half used twice, blocks seeded alike) shows as a correlation here.
void TestDropout::neighboursUncorrelated()
{
    Rng rng(3);
    Dropout<float> d;
    Mat<float> x = ones(1, 64 * kDropoutBlock);
    d.forward(x, 0.5, Pass::training(rng));
    const auto corr = [&](long lag) {
        double same = 0;
        const long n = long(x.size()) - lag;
        for (long i = 0; i < n; ++i)
            same += (x.data()[i] == 0) == (x.data()[i + lag] == 0);
        return 2 * same / double(n) - 1;  // 0 for independent fair decisions
    };
    // With 262 144 pairs the standard deviation is about 0.002.
    for (long lag : {1L, 2L, 3L, kDropoutBlock, 2 * kDropoutBlock})
        QVERIFY2(std::abs(corr(lag)) < 0.012,
                 qPrintable(QString("lag %1: %2").arg(lag).arg(corr(lag))));
}

void TestDropout::sameMaskOnAnyThreadCount()
{
    Mat<float> masks[2];
    for (int threads : {1, 2}) {
        setEngineThreads(threads);
        Rng rng(5);
        Dropout<float> d;
        Mat<float> x = ones(333, 1000);
        d.forward(x, 0.2, Pass::training(rng));
        masks[threads - 1] = d.mask();
    }
    setEngineThreads(0);
    QVERIFY(masks[0] == masks[1]);
}

void TestDropout::matchesPlainFill()
{
    Rng rng(9), copy(9);
    Dropout<float> d;
    Mat<float> x = ones(97, 1013);
    d.forward(x, 0.25, Pass::training(rng));
    Mat<float> plain(97, 1013);
    fillDropoutMask(plain.data(), 0, long(plain.size()), copy.next(), 0.25f, float(1 / 0.75));
    QVERIFY(d.mask() == plain);
    QVERIFY(x == plain);
}

void TestDropout::fastFillMatchesPlainFill_data()
{
    QTest::addColumn<double>("p");
    QTest::addColumn<long>("size");
    QTest::addColumn<long>("blockFrom");
    for (double p : {1e-9, 0.1, 0.5, 1.0 - 1e-9})  // thresholds 0, middling, 2^24
        for (long size : {1L, 63L, 65L, kDropoutBlock - 1, kDropoutBlock + 1, 8 * kDropoutBlock + 3,
                          17 * kDropoutBlock})
            for (long blockFrom : {0L, 1L, 9L})
                if (blockFrom * kDropoutBlock < size)
                    QTest::newRow(qPrintable(QStringLiteral("p %1, %2 elements, from block %3")
                                                 .arg(p).arg(size).arg(blockFrom)))
                        << p << size << blockFrom;
}

// The fast fills (eight blocks at a time with AVX-512, and with AVX2) against the plain one: any number of
// blocks, a short last block, thresholds at both ends, float and double.
void TestDropout::fastFillMatchesPlainFill()
{
    QFETCH(double, p);
    QFETCH(long, size);
    QFETCH(long, blockFrom);
    const std::uint64_t key = 0x0123456789abcdefULL;
    const long blocks = (size + kDropoutBlock - 1) / kDropoutBlock;
    const long begin = blockFrom * kDropoutBlock;
    std::vector<float> fast(std::size_t(size), 7.0f), plain(std::size_t(size), 7.0f);
    dropout_detail::fillBlocks(fast.data() + begin, size, blockFrom, blocks, key, float(p), 2.0f);
    fillDropoutMask(plain.data(), begin, size, key, float(p), 2.0f);
    QVERIFY(fast == plain);
    std::vector<double> fastD(std::size_t(size), 7.0), plainD(std::size_t(size), 7.0);
    dropout_detail::fillBlocks(fastD.data() + begin, size, blockFrom, blocks, key, float(p), 2.0);
    fillDropoutMask(plainD.data(), begin, size, key, float(p), 2.0);
    QVERIFY(fastD == plainD);
#ifdef AS_DROPOUT_AVX2
    // The AVX2 fill, which fillBlocks uses where there is no AVX-512, tested on any CPU with
    // AVX2 (every machine of this project: CI's runs it with AVX-512 too).
    const std::uint64_t threshold = dropoutThreshold(float(p));
    if (threshold < (std::uint64_t(1) << 24)) {
        std::vector<float> avx2(std::size_t(size), 7.0f);
        dropout_detail::fillBlocksAvx2(avx2.data() + begin, size, blockFrom, blocks, key, threshold, 2.0f);
        QVERIFY(avx2 == plain);
        std::vector<double> avx2D(std::size_t(size), 7.0);
        dropout_detail::fillBlocksAvx2(avx2D.data() + begin, size, blockFrom, blocks, key, threshold, 2.0);
        QVERIFY(avx2D == plainD);
    }
#endif  // a build without AVX2 (-DAS_NATIVE=OFF) has no AVX2 fill
    // Before `begin` nothing was written; from it, every element is 0 or the scale.
    QVERIFY(std::all_of(plain.begin(), plain.begin() + begin, [](float v) { return v == 7.0f; }));
    QVERIFY(std::all_of(plain.begin() + begin, plain.end(), [](float v) { return v == 0.0f || v == 2.0f; }));
}

void TestDropout::keyComesFromTheGenerator()
{
    Rng rng(21);
    Dropout<float> d;
    Mat<float> a = ones(64, 256), b = ones(64, 256);
    d.forward(a, 0.1, Pass::training(rng));
    d.forward(b, 0.1, Pass::training(rng));
    QVERIFY(a != b);  // successive masks differ
    Rng again(21);
    Mat<float> c = ones(64, 256);
    d.forward(c, 0.1, Pass::training(again));
    QVERIFY(a == c);  // and a generator in the same state gives the same mask
}

// DropoutMaskStream, as attention reads it: two readers splitting the mask between them, each
// asking for ranges in increasing order (of any length, across block and buffer boundaries),
// once for a range before its buffer and once for all of it. Every range must be that part of
// the plain mask.
void TestDropout::streamReadsTheMaskInRanges()
{
    const long size = 23 * kDropoutBlock + 1234;
    const std::uint64_t key = 0xfeedfacecafebeefULL;
    std::vector<float> plain(static_cast<std::size_t>(size));
    fillDropoutMask(plain.data(), 0, size, key, 0.2f, 1.25f);
    Rng lengths(3);
    const long split = 9 * kDropoutBlock + 777;
    for (const auto& [from, to] : {std::pair{0L, split}, std::pair{split, size}}) {
        DropoutMaskStream<float> stream;
        stream.start(size, to, key, 0.2f, 1.25f);
        long ranges = 0;
        for (long begin = from; begin < to; ++ranges) {
            const long end = std::min(to, begin + 1 + long(lengths.next() % 9000));
            const float* m = stream.range(begin, end);
            QVERIFY2(std::equal(m, m + (end - begin), plain.begin() + begin),
                     qPrintable(QStringLiteral("[%1, %2)").arg(begin).arg(end)));
            begin = end;
        }
        QVERIFY(ranges > 4);
        // Back to an earlier range: drawn again, the same values.
        const float* again = stream.range(from + 5, from + 5000);
        QVERIFY(std::equal(again, again + 4995, plain.begin() + from + 5));
        // The longest ranges, from a block's start and from its last element (eight blocks
        // then), and one longer, which it refuses: the thread's buffer holds eight blocks.
        constexpr long kMax = DropoutMaskStream<float>::kMaxRange;
        const long nextBlock = from + kDropoutBlock - from % kDropoutBlock;
        for (const long begin : {nextBlock, nextBlock + kDropoutBlock - 1}) {
            QVERIFY(begin + kMax <= to);
            const float* longest = stream.range(begin, begin + kMax);
            QVERIFY(std::equal(longest, longest + kMax, plain.begin() + begin));
        }
        QVERIFY_THROWS_EXCEPTION(std::logic_error, stream.range(from, from + kMax + 1));
    }
}

void TestDropout::stridedViewsAndRelu()
{
    Rng rng(4), copy(4);
    Mat<float> wideSrc = Mat<float>::Random(50, 300);
    Mat<float> wideDst = Mat<float>::Constant(50, 300, 7.0f);
    Dropout<float> d;
    // Columns 10..209 of both: row strides 300, rows of 200.
    d.forward(wideSrc.middleCols(10, 200), wideDst.middleCols(10, 200), 0.4, Pass::training(rng),
              /*relu=*/true);
    Mat<float> mask(50, 200);
    fillDropoutMask(mask.data(), 0, long(mask.size()), copy.next(), 0.4f, float(1 / 0.6));
    for (int r = 0; r < 50; ++r)
        for (int c = 0; c < 300; ++c) {
            const float want = (c < 10 || c >= 210)
                                   ? 7.0f
                                   : std::max(wideSrc(r, c), 0.0f) * mask(r, c - 10);
            QCOMPARE(wideDst(r, c), want);
        }
}

void TestDropout::maskNotKept_data()
{
    QTest::addColumn<int>("threads");
    QTest::addColumn<bool>("strided");
    for (int threads : {1, 2})
        for (bool strided : {false, true})
            QTest::addRow("%d threads%s", threads, strided ? ", strided" : "") << threads << strided;
}

// keepMask off (the feed-forward layer's dropout): the mask is drawn into each thread's scratch
// and applied from there. The output must be dropout(relu(src)) with the plain mask of the same
// key: 70 rows of 2,000 (35 blocks: several groups of eight per thread, blocks across rows),
// flat and strided; no mask kept, and backward refuses.
void TestDropout::maskNotKept()
{
    QFETCH(int, threads);
    QFETCH(bool, strided);
    setEngineThreads(threads);
    const int rows = 70, cols = 2000, pad = strided ? 9 : 0;
    Rng rng(31), copy(31);
    const Mat<float> src = Mat<float>::Random(rows, cols + 2 * pad);
    Mat<float> dst = Mat<float>::Constant(rows, cols + 2 * pad, 7.0f);
    Dropout<float> d;
    d.keepMask = false;
    d.forward(src.middleCols(pad, cols), dst.middleCols(pad, cols), 0.3, Pass::training(rng),
              /*relu=*/true);
    setEngineThreads(0);
    QVERIFY(d.active);
    QCOMPARE(d.mask().size(), Eigen::Index(0));
    Mat<float> mask(rows, cols);
    fillDropoutMask(mask.data(), 0, long(mask.size()), copy.next(), 0.3f, float(1 / 0.7));
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols + 2 * pad; ++c) {
            const bool inside = c >= pad && c < pad + cols;
            const float want = inside ? std::max(src(r, c), 0.0f) * mask(r, c - pad) : 7.0f;
            QCOMPARE(dst(r, c), want);
        }
    Mat<float> g = Mat<float>::Ones(rows, cols);
    QVERIFY_THROWS_EXCEPTION(std::logic_error, d.backward(g));
}

// The mask is kept as bits, one per element. Backward's products are those of dy and the float
// mask of the same key (fillDropoutMask), bit for bit: a dropped negative gives -0 and a dropped
// NaN stays NaN, as 0 times them does. Rows of 600 (not a multiple of 64: most rows begin inside
// a word), on 1 and 2 threads.
void TestDropout::backwardMultipliesByMask()
{
    for (int threads : {1, 2}) {
        setEngineThreads(threads);
        Rng rng(8), copy(8);
        Dropout<float> d;
        Mat<float> x = ones(40, 600);
        d.forward(x, 0.3, Pass::training(rng));
        QCOMPARE(d.keptBits.size(), std::size_t((40 * 600 + 63) / 64));
        Mat<float> mask(40, 600);
        fillDropoutMask(mask.data(), 0, long(mask.size()), copy.next(), 0.3f, float(1 / 0.7));
        QVERIFY(d.mask() == mask);
        Mat<float> g = Mat<float>::Random(40, 600);
        g.row(11).setConstant(std::numeric_limits<float>::quiet_NaN());
        g.row(12).setConstant(-std::numeric_limits<float>::infinity());
        const Mat<float> want = g.cwiseProduct(mask);
        QVERIFY((mask.row(11).array() == 0).any() && (mask.row(11).array() != 0).any());
        d.backward(g);
        QVERIFY(std::memcmp(g.data(), want.data(), sizeof(float) * std::size_t(g.size())) == 0);
    }
    setEngineThreads(0);
}

void TestDropout::evaluationIsIdentity()
{
    Dropout<float> d;
    Mat<float> x = Mat<float>::Random(10, 10);
    const Mat<float> before = x;
    d.forward(x, 0.5, Pass::eval());
    QVERIFY(!d.active);
    QVERIFY(x == before);
    Mat<float> y(10, 10);
    d.forward(x, y, 0.5, Pass::eval(), /*relu=*/true);
    QVERIFY(y == Mat<float>(before.cwiseMax(0.0f)));
}

void TestDropout::forwardAddSumsTheResidual_data()
{
    QTest::addColumn<int>("threads");
    QTest::addColumn<bool>("strided");
    QTest::addColumn<bool>("inPlace");  // sum is the residual itself (y = x in the layers)
    for (int threads : {1, 2})
        for (bool strided : {false, true})
            for (bool inPlace : {false, true})
                QTest::addRow("%d threads%s%s", threads, strided ? ", strided" : "",
                              inPlace ? ", sum in place" : "")
                    << threads << strided << inPlace;
}

// x = x ⊙ mask and sum = residual + x, against the plain mask fill of the same key: rows of
// 300 (several blocks per row, a block across rows), strided views leaving the columns
// outside them alone.
void TestDropout::forwardAddSumsTheResidual()
{
    QFETCH(int, threads);
    QFETCH(bool, strided);
    QFETCH(bool, inPlace);
    setEngineThreads(threads);
    const int rows = 70, cols = 300, pad = strided ? 13 : 0;
    Rng rng(21), copy(21);
    Mat<float> xWide = Mat<float>::Random(rows, cols + 2 * pad);
    Mat<float> rWide = Mat<float>::Random(rows, cols + 2 * pad);
    Mat<float> sWide = Mat<float>::Constant(rows, cols + 2 * pad, 5.0f);
    const Mat<float> x0 = xWide, r0 = rWide;
    Mat<float>& sumWide = inPlace ? rWide : sWide;
    Dropout<float> d;
    d.forwardAdd(xWide.middleCols(pad, cols), rWide.middleCols(pad, cols),
                 sumWide.middleCols(pad, cols), 0.35, Pass::training(rng));
    QVERIFY(d.active);
    Mat<float> mask(rows, cols);
    fillDropoutMask(mask.data(), 0, long(mask.size()), copy.next(), 0.35f, float(1 / 0.65));
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols + 2 * pad; ++c) {
            const bool inside = c >= pad && c < pad + cols;
            const float dropped = inside ? x0(r, c) * mask(r, c - pad) : x0(r, c);
            QCOMPARE(xWide(r, c), dropped);
            const float sum = inside ? r0(r, c) + dropped : (inPlace ? r0(r, c) : 5.0f);
            QCOMPARE(sumWide(r, c), sum);
        }
}

void TestDropout::forwardAddInEvaluation()
{
    setEngineThreads(2);
    Dropout<float> d;
    Mat<float> x = Mat<float>::Random(90, 200);
    const Mat<float> x0 = x, residual = Mat<float>::Random(90, 200);
    Mat<float> sum(90, 200);
    d.forwardAdd(x, residual, sum, 0.5, Pass::eval());
    QVERIFY(!d.active);
    QVERIFY(x == x0);
    for (int r = 0; r < 90; ++r)
        for (int c = 0; c < 200; ++c)
            QCOMPARE(sum(r, c), residual(r, c) + x0(r, c));
}

// dx = dy ⊙ mask into a matrix of its own, dy untouched; a copy when nothing was dropped.
void TestDropout::backwardIntoAnotherMatrix()
{
    setEngineThreads(2);
    Rng rng(9);
    Dropout<float> d;
    Mat<float> x = ones(64, 520);
    d.forward(x, 0.3, Pass::training(rng));
    const Mat<float> dy = Mat<float>::Random(64, 520);
    Mat<float> dx = Mat<float>::Constant(64, 520, 3.0f);
    d.backward(dy, dx);
    for (int r = 0; r < 64; ++r)
        for (int c = 0; c < 520; ++c)
            QCOMPARE(dx(r, c), dy(r, c) * x(r, c));  // x holds the mask (it was all ones)
    d.forward(x, 0.3, Pass::eval());
    d.backward(dy, dx);
    QVERIFY(dx == dy);
}

void TestDropout::biasIsAddedBeforeTheMask_data()
{
    QTest::addColumn<int>("threads");
    QTest::addColumn<bool>("train");
    QTest::addColumn<bool>("relu");
    QTest::addColumn<bool>("residual");
    for (int threads : {1, 2})
        for (bool train : {true, false})
            for (bool relu : {false, true})
                for (bool residual : {false, true})
                    if (!(relu && residual))  // the layers use one or the other
                        QTest::addRow("%d threads, %s%s%s", threads, train ? "training" : "evaluation",
                                      relu ? ", relu" : "", residual ? ", residual" : "")
                            << threads << train << relu << residual;
}

// With a bias (the product's, left out of it: model/linear.h), dropout(src + b) (of relu(src +
// b)) and the residual sum, against the plain mask of the same key and the sums worked in a
// loop here: rows of 300 (blocks across rows), a strided view, in training and evaluation.
void TestDropout::biasIsAddedBeforeTheMask()
{
    QFETCH(int, threads);
    QFETCH(bool, train);
    QFETCH(bool, relu);
    QFETCH(bool, residual);
    setEngineThreads(threads);
    const int rows = 70, cols = 300, pad = 11;
    Rng rng(41), copy(41);
    Mat<float> xWide = Mat<float>::Random(rows, cols + 2 * pad);
    const Mat<float> x0 = xWide, r0 = Mat<float>::Random(rows, cols);
    const RowVec<float> bias = RowVec<float>::Random(cols);
    Mat<float> sum = Mat<float>::Constant(rows, cols, 5.0f);
    Dropout<float> d;
    d.keepMask = !relu;
    const Pass pass = train ? Pass::training(rng) : Pass::eval();
    auto x = xWide.middleCols(pad, cols);
    if (residual)
        d.forwardAdd(x, r0, sum, 0.35, pass, bias.data());
    else
        d.forward(x, x, 0.35, pass, relu, bias.data());
    QCOMPARE(d.active, train);
    Mat<float> mask = Mat<float>::Ones(rows, cols);
    if (train)
        fillDropoutMask(mask.data(), 0, long(mask.size()), copy.next(), 0.35f, float(1 / 0.65));
    int changed = 0;
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols + 2 * pad; ++c) {
            if (c < pad || c >= pad + cols) {
                QCOMPARE(xWide(r, c), x0(r, c));
                continue;
            }
            const float z = x0(r, c) + bias(c - pad);
            const float want = (relu ? std::max(z, 0.0f) : z) * mask(r, c - pad);
            QCOMPARE(xWide(r, c), want);
            changed += want != x0(r, c);
            if (residual)
                QCOMPARE(sum(r, c - pad), r0(r, c - pad) + want);
        }
    QVERIFY(changed > rows * cols / 2);
    setEngineThreads(0);
}

AS_TEST_APPLESS_MAIN(TestDropout)
#include "test_dropout.moc"
