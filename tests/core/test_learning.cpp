// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The engine learns: the toy pairs and The Annotated Transformer's copy task, each within a
// stated budget of steps with a small model; and training is bit-for-bit reproducible.
#include "skip.h"
#include "learned.h"

#include "decode/decode.h"
#include "text/tasks.h"
#include "model/gemm.h"
#include "train/trainer.h"

#include <QTest>


#include <cstring>

using namespace as;
Q_DECLARE_METATYPE(as::GemmPrecision)

class TestLearning : public QObject {
    Q_OBJECT
private slots:
    void toyTaskExactWithin200Steps_data();
    void toyTaskExactWithin200Steps();
    void copyTaskWithin1200Steps();
    void sameSeedSameLosses();
};

namespace {
ModelConfig smallModel(const Task& task, NormPlacement norm = NormPlacement::Pre)
{
    ModelConfig c;
    c.src_vocab = task.srcVocab.size();
    c.tgt_vocab = task.tgtVocab.size();
    c.d_model = 64;
    c.heads = 4;
    c.d_ff = 128;
    c.encoder_layers = c.decoder_layers = 2;
    c.dropout = 0.1;
    c.label_smoothing = 0.1;
    c.norm = norm;
    c.max_len = 24;
    return c;
}
}  // namespace

void TestLearning::toyTaskExactWithin200Steps_data()
{
    QTest::addColumn<NormPlacement>("norm");
    QTest::addColumn<double>("factor");
    QTest::addColumn<GemmPrecision>("precision");
    // Post-norm needs a lower peak rate: with factor 1 and warmup 50 (peak 0.018 at d 64) it
    // oscillates between right and wrong outputs for hundreds of steps on most seeds, so an
    // exact answer at step 200 hung on float rounding. With factor 0.5 it was exact from step
    // 25-50 to step 600 on each of seeds 1-8, as pre-norm is with factor 1.
    QTest::newRow("pre-norm") << NormPlacement::Pre << 1.0 << GemmPrecision::Float32;
    QTest::newRow("post-norm") << NormPlacement::Post << 0.5 << GemmPrecision::Float32;
    // bfloat16 mixed precision (core/SPEC.md §2.14) learns the same pairs in the same budget;
    // where the CPU has no bfloat16 units the setting must be refused instead, by name.
    QTest::newRow("pre-norm, bfloat16") << NormPlacement::Pre << 1.0 << GemmPrecision::BFloat16;
    QTest::newRow("post-norm, bfloat16") << NormPlacement::Post << 0.5 << GemmPrecision::BFloat16;
}

void TestLearning::toyTaskExactWithin200Steps()
{
    QFETCH(NormPlacement, norm);
    QFETCH(double, factor);
    QFETCH(GemmPrecision, precision);
    if (QString why; !gemmPrecisionAvailable(precision, &why)) {
        QVERIFY2(why.contains(QLatin1String("bfloat16")), qPrintable(why));
        qInfo("bfloat16 refused here, as it must be: %s", qPrintable(why));
        return;
    }
    const Task task = makeToyTask();
    QCOMPARE(int(task.examples.size()), 3);
    TrainOptions options{factor, 50, 1};
    options.precision = precision;
    Trainer trainer(smallModel(task, norm), options);
    if (precision == GemmPrecision::BFloat16) {
        // The products did change: the first step's loss is not float32's.
        Trainer f32(smallModel(task, norm), TrainOptions{factor, 50, 1});
        Trainer bf16(smallModel(task, norm), options);
        Rng d1(1), d2(1);
        const double a = f32.step(task.nextBatch(d1)).loss.loss(), b = bf16.step(task.nextBatch(d2)).loss.loss();
        qInfo("first step's loss: float32 %.9f, bfloat16 %.9f", a, b);
        QVERIFY(a != b);
        QVERIFY(std::abs(a - b) < 0.05 * a);
    }
    Rng data(1);
    double first = 0, last = 0;
    for (int s = 0; s < 200; ++s) {
        const double loss = trainer.step(task.nextBatch(data)).loss.loss();
        (s == 0 ? first : last) = loss;
    }
    QVERIFY2(last < first / 5, qPrintable(QStringLiteral("loss %1 -> %2").arg(first).arg(last)));
    // What was learned, with margins (tests/support/learned.h): each pair's teacher-forced NLL is
    // below 0.4 nats a token (label smoothing 0.1 puts the optimum near 0.1), and greedy
    // decoding gives the pair exactly whenever the model is decided between tokens, which it
    // is by a wide margin (printed) on every CPU seen so far.
    for (const TokenPair& ex : task.examples) {
        const std::vector<int> src = task.srcVocab.encode(ex.src), tgt = task.tgtVocab.encode(ex.tgt);
        const DecodeResult r = greedyDecode(trainer.model(), src);
        const test::Fit fit = test::fitOf(trainer.model(), src, tgt);
        qInfo("%s: NLL %.4f, smallest margin %.3f nats", qPrintable(ex.tgt.join(' ')), fit.nll, fit.minMargin);
        const QString why = test::learnedPair(trainer.model(), src, tgt, r.nbest[0].tokens, 0.4);
        QVERIFY2(why.isEmpty(), qPrintable(ex.tgt.join(' ') + ": " + why));
        QVERIFY(!fit.decided() || r.nbest[0].finished);
    }
}

void TestLearning::copyTaskWithin1200Steps()
{
    const Task task = makeCopyTask(32, 10);
    Trainer trainer(smallModel(task), TrainOptions{1.0, 200, 1});
    Rng data(2);
    for (int s = 0; s < 1200; ++s)
        trainer.step(task.nextBatch(data));
    // 100 held-out sequences from a generator the training data never used.
    Rng heldOut(0xC0FFEE);
    int exact = 0;
    QStringList misses;
    for (int i = 0; i < 100; ++i) {
        const QStringList seq = randomCopySequence(heldOut, 10);
        const DecodeResult r = greedyDecode(trainer.model(), task.srcVocab.encode(seq), 16);
        const QStringList got = task.tgtVocab.decode(r.nbest[0].tokens);
        if (got == seq && r.nbest[0].finished)
            ++exact;
        else
            misses << seq.join(' ') + " -> " + got.join(' ');
    }
    qInfo("copy: %d of 100 held-out sequences copied exactly", exact);
    QVERIFY2(exact >= 99, qPrintable(misses.join('\n')));
}

void TestLearning::sameSeedSameLosses()
{
    const Task task = makeCopyTask(16, 8);
    auto run = [&](std::uint64_t seed) {
        Trainer trainer(smallModel(task), TrainOptions{1.0, 20, seed});
        Rng data(seed);
        std::vector<float> losses;
        for (int s = 0; s < 50; ++s)
            losses.push_back(float(trainer.step(task.nextBatch(data)).loss.loss()));
        return losses;
    };
    const std::vector<float> a = run(5), b = run(5), c = run(6);
    QCOMPARE(a.size(), std::size_t(50));
    QVERIFY(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);  // bit-identical
    QVERIFY(a != c);  // and the seed matters, so the comparison above means something
}

AS_TEST_APPLESS_MAIN(TestLearning)
#include "test_learning.moc"
