// The threading layer: chunks cover a range exactly once, and a training step split over
// threads computes what the serial step computes (and the same bits every time).
#include "skip.h"
#include "model/parallel.h"
#include "text/tasks.h"
#include "train/trainer.h"

#include <QTest>

#include <atomic>
#include <cstring>

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

AS_TEST_APPLESS_MAIN(TestParallel)
#include "test_parallel.moc"
