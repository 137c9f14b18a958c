// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The threading layer: chunks cover a range exactly once, and a training step split over
// threads computes what the serial step computes (and the same bits every time).
#include "skip.h"
#include "model/gemm_replay.h"
#include "model/linear.h"
#include "model/parallel.h"
#include "text/tasks.h"
#include "train/trainer.h"

#include <QTest>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <tuple>

using namespace as;

class TestParallel : public QObject {
    Q_OBJECT
private slots:
    void cleanup() { setEngineThreads(1); }
    void chunksCoverTheRangeOnce_data();
    void chunksCoverTheRangeOnce();
    void nestedCallsRunSerially();
    void parallelStepMatchesSerial();
    void twoThreadsAreDeterministic();
    void linearCutsMatchPlainProducts_data();
    void linearCutsMatchPlainProducts();
    void recordedStepReplaysItsProducts();
};

void TestParallel::chunksCoverTheRangeOnce_data()
{
    QTest::addColumn<int>("threads");
    QTest::addColumn<long>("n");
    for (int t : {1, 2, 3})
        for (long n : {0L, 1L, 7L, 1000L})
            QTest::addRow("%d threads, n=%ld", t, n) << t << n;
}

void TestParallel::chunksCoverTheRangeOnce()
{
    QFETCH(int, threads);
    QFETCH(long, n);
    setEngineThreads(threads);
    std::vector<std::atomic<int>> hits(std::size_t(std::max(n, 1L)));
    parallelFor(n, 1, [&](long b, long e) {
        for (long i = b; i < e; ++i)
            hits[std::size_t(i)]++;
    });
    for (long i = 0; i < n; ++i)
        QCOMPARE(hits[std::size_t(i)].load(), 1);
    QCOMPARE(chunkCount(n, 1), n <= 0 ? 1 : int(std::min<long>(n, threads)));
}

void TestParallel::nestedCallsRunSerially()
{
    setEngineThreads(2);
    std::atomic<int> inner{0};
    parallelFor(2, 1, [&](long, long) {
        QCOMPARE(chunkCount(100, 1), 1);
        parallelFor(10, 1, [&](long b, long e) { inner += int(e - b); });
    });
    QCOMPARE(inner.load(), 20);
}

namespace {
std::vector<float> trainCopy(int threads, int steps)
{
    setEngineThreads(threads);
    const Task task = makeCopyTask(64, 10);
    ModelConfig c;
    c.src_vocab = task.srcVocab.size();
    c.tgt_vocab = task.tgtVocab.size();
    c.d_model = 64;
    c.heads = 4;
    c.d_ff = 128;
    c.encoder_layers = c.decoder_layers = 2;
    Trainer trainer(c, TrainOptions{1.0, 20, 7});
    Rng data(7);
    std::vector<float> losses;
    for (int s = 0; s < steps; ++s)
        losses.push_back(float(trainer.step(task.nextBatch(data)).loss.loss()));
    // The parameters at the end, too.
    const auto& v = trainer.model().params().valueVector();
    losses.insert(losses.end(), v.data(), v.data() + v.size());
    return losses;
}
}  // namespace

void TestParallel::parallelStepMatchesSerial()
{
    // One forward + backward from the same weights and batch, split over 1 and over 2 threads:
    // the split products and reductions round differently, so the results must agree to float
    // rounding (a wrong split would be off by whole rows or heads). Parameters after several
    // Adam steps are no oracle: Adam turns rounding noise in a near-zero gradient into a full
    // step of either sign.
    const Task task = makeCopyTask(64, 10);
    ModelConfig c;
    c.src_vocab = task.srcVocab.size();
    c.tgt_vocab = task.tgtVocab.size();
    c.d_model = 64;
    c.heads = 4;
    c.d_ff = 128;
    c.encoder_layers = c.decoder_layers = 2;
    Transformer<float> model(c);
    Rng init(3), data(4);
    model.initXavier(init);
    const Batch batch = task.nextBatch(data);
    auto run = [&](int threads, Eigen::VectorXf* grad) {
        setEngineThreads(threads);
        model.params().zeroGrads();
        Rng drop(5);
        const double loss = model.forwardBackward(batch, Pass::training(drop)).loss();
        *grad = model.params().gradVector();
        return loss;
    };
    Eigen::VectorXf g1, g2;
    const double l1 = run(1, &g1), l2 = run(2, &g2);
    const double gradDiff = double((g1 - g2).norm() / g1.norm());
    qInfo("1 vs 2 threads: loss %.9g vs %.9g, gradient relative difference %.3g", l1, l2, gradDiff);
    QVERIFY(std::abs(l1 - l2) <= 1e-6 * std::abs(l1));
    QVERIFY2(gradDiff < 1e-5, qPrintable(QString::number(gradDiff)));
    QVERIFY(g1.norm() > 0);
}

void TestParallel::twoThreadsAreDeterministic()
{
    const std::vector<float> a = trainCopy(2, 30), b = trainCopy(2, 30);
    QVERIFY(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

void TestParallel::linearCutsMatchPlainProducts_data()
{
    // model/linear.cpp cuts each product between the threads: y by rows, or by output features
    // when there are too few rows (a sentence being translated); dW by output features; dx by
    // rows. These shapes reach each cut, with parts of unequal sizes. Columns: rows of x, input
    // features, output features.
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("in");
    QTest::addColumn<int>("out");
    QTest::newRow("more features out") << 200 << 16 << 301;
    QTest::newRow("more features in") << 41 << 300 << 24;
    QTest::newRow("a sentence being translated (3 rows)") << 3 << 64 << 100;
    QTest::newRow("square") << 96 << 96 << 96;
    QTest::newRow("rows between in and out") << 121 << 80 << 160;
}

void TestParallel::linearCutsMatchPlainProducts()
{
    // y = x Wᵀ + b, dW += dyᵀ x, db += column sums of dy, dx (+)= dy W on 2 threads, through
    // forward, backwardParams, backwardInput and the fused backward (with and without the
    // rows callback), against plain loops in double.
    QFETCH(int, rows);
    QFETCH(int, in);
    QFETCH(int, out);
    setEngineThreads(2);
    ParamStore<float> ps;
    Linear<float> lin = Linear<float>::make(ps, "l", in, out);
    ps.allocate();
    ps.ensureGrads();
    Rng rng(11);
    auto fill = [&](float* p, long n) {
        for (long i = 0; i < n; ++i)
            p[i] = float(rng.uniform()) * 2.f - 1.f;
    };
    fill(ps.values(), long(ps.size()));
    Mat<float> x(rows, in), dy(rows, out), dx0(rows, in);
    fill(x.data(), x.size());
    fill(dy.data(), dy.size());
    fill(dx0.data(), dx0.size());
    Eigen::VectorXf g0(ps.size());
    fill(g0.data(), g0.size());  // gradients accumulate onto what is there

    const Eigen::MatrixXd W = lin.weight().cast<double>(), X = x.cast<double>(), DY = dy.cast<double>();
    Eigen::MatrixXd Y(rows, out), DW(out, in), DX(rows, in);
    Eigen::VectorXd DB(out);
    for (int r = 0; r < rows; ++r)
        for (int o = 0; o < out; ++o) {
            double s = double(lin.bias()(o));
            for (int i = 0; i < in; ++i)
                s += X(r, i) * W(o, i);
            Y(r, o) = s;
        }
    for (int o = 0; o < out; ++o) {
        DB(o) = double(g0(Eigen::Index(lin.b) + o));
        for (int r = 0; r < rows; ++r)
            DB(o) += DY(r, o);
        for (int i = 0; i < in; ++i) {
            double s = double(g0(Eigen::Index(lin.w) + o * in + i));
            for (int r = 0; r < rows; ++r)
                s += DY(r, o) * X(r, i);
            DW(o, i) = s;
        }
    }
    for (int r = 0; r < rows; ++r)
        for (int i = 0; i < in; ++i) {
            double s = 0;
            for (int o = 0; o < out; ++o)
                s += DY(r, o) * W(o, i);
            DX(r, i) = s;
        }
    auto close = [](const Eigen::MatrixXd& got, const Eigen::MatrixXd& want, const char* what) {
        const double err = (got - want).cwiseAbs().maxCoeff(), scale = want.cwiseAbs().maxCoeff();
        QVERIFY2(err <= 1e-5 * scale, qPrintable(QStringLiteral("%1: max error %2 of %3").arg(what).arg(err).arg(scale)));
    };

    Mat<float> y(rows, out);
    y.setConstant(std::nanf(""));  // every element must be written
    lin.forward(x, y);
    close(y.cast<double>(), Y, "y");

    auto checkParams = [&](const char* what) {
        close(lin.weightGrad().cast<double>(), DW, what);
        close(Eigen::MatrixXd(lin.biasGrad().cast<double>().transpose()), Eigen::MatrixXd(DB), what);
    };
    ps.gradVector() = g0;
    lin.backwardParams(x, dy);
    checkParams("backwardParams");
    for (bool accumulate : {false, true}) {
        Mat<float> dx = accumulate ? dx0 : Mat<float>::Constant(rows, in, std::nanf(""));
        lin.backwardInput(dy, dx, accumulate);
        close(dx.cast<double>(), accumulate ? Eigen::MatrixXd(DX + dx0.cast<double>()) : DX, "backwardInput");
        for (bool withRows : {false, true}) {
            ps.gradVector() = g0;
            dx = accumulate ? dx0 : Mat<float>::Constant(rows, in, std::nanf(""));
            std::vector<int> seen(std::size_t(rows), 0);
            auto count = [&](long b, long e) {
                for (long r = b; r < e; ++r)
                    ++seen[std::size_t(r)];
            };
            const FunctionRef<void(long, long)> rowsDone(count);
            lin.backward(x, dy, dx, accumulate, withRows ? &rowsDone : nullptr);
            checkParams("backward");
            close(dx.cast<double>(), accumulate ? Eigen::MatrixXd(DX + dx0.cast<double>()) : DX, "backward");
            if (withRows)
                QVERIFY(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
        }
    }
}

AS_TEST_APPLESS_MAIN(TestParallel)
void TestParallel::recordedStepReplaysItsProducts()
{
    // bench --products-alone: a Linear's forward and backward on 2 threads recorded, then
    // replayed. The FLOPs are the formula worked by hand (forward 2·rows·in·out, backward twice
    // that); the replay, itself recorded, makes exactly those calls again, once to warm up and
    // once per round.
    setEngineThreads(2);
    const int rows = 200, in = 48, out = 40;
    ParamStore<float> ps;
    Linear<float> lin = Linear<float>::make(ps, "l", in, out);
    ps.allocate();
    ps.ensureGrads();
    const Mat<float> x = Mat<float>::Constant(rows, in, 0.5f), dy = Mat<float>::Constant(rows, out, 0.25f);
    Mat<float> y(rows, out), dx(rows, in);
    std::vector<std::vector<GemmCall>> lists;
    {
        const GemmRecorder recorder;
        lin.forward(x, y);
        lin.backward(x, dy, dx, false);
        lists = recorder.calls();
    }
    QVERIFY(!lists.empty() && lists.size() <= 2);
    const auto flat = [](const std::vector<std::vector<GemmCall>>& ls) {
        std::vector<std::tuple<bool, bool, bool, int, int, int, int, int, int>> all;
        double flop = 0;
        for (const auto& l : ls)
            for (const GemmCall& g : l) {
                all.emplace_back(g.transA, g.transB, g.accumulate, g.m, g.n, g.k, g.lda, g.ldb, g.ldc);
                flop += g.flop();
            }
        std::sort(all.begin(), all.end());
        return std::pair(all, flop);
    };
    const auto [calls, flop] = flat(lists);
    QCOMPARE(flop, 3 * 2.0 * rows * in * out);
    // Forward: 2 row blocks; backward: 2 blocks of dW's rows, 2 of dx's rows.
    QCOMPARE(calls.size(), std::size_t(6));
    std::vector<std::vector<GemmCall>> replayed;
    {
        const GemmRecorder recorder;
        QVERIFY(replayGemmCalls(lists, 2) > 0);
        replayed = recorder.calls();
    }
    const auto [again, againFlop] = flat(replayed);
    QCOMPARE(againFlop, 3 * flop);
    std::vector<std::tuple<bool, bool, bool, int, int, int, int, int, int>> thrice;
    for (const auto& c : calls)
        thrice.insert(thrice.end(), 3, c);
    QVERIFY(again == thrice);
}

#include "test_parallel.moc"
