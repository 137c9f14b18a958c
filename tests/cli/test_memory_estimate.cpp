// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The memory a configuration needs is estimated before anything is allocated, and a model the
// machine cannot hold is refused with the figures (issue 30, §1): the count against one worked
// by hand for a small configuration, and `train --config d_model=1000000` (and 100,000 layers,
// a d_ff of 10^8) refused with a message instead of std::bad_alloc.
#include "skip.h"
#include "model/memory.h"
#include "model/transformer.h"
#include "cli_process.h"

#include <QTest>

using namespace as;
using namespace Qt::StringLiterals;

class TestMemoryEstimate : public QObject {
    Q_OBJECT
private slots:
    void smallConfigByHand();
    void absurdConfigIsRefused();
    void trainRefusesAbsurdConfig_data();
    void trainRefusesAbsurdConfig();
    void bytesForPeople();
};

namespace {

ModelConfig small(NormPlacement norm)
{
    ModelConfig c;
    c.d_model = 4;
    c.heads = 2;
    c.d_ff = 8;
    c.encoder_layers = 1;
    c.decoder_layers = 1;
    c.src_vocab = 6;
    c.tgt_vocab = 7;
    c.norm = norm;
    return c;
}

}  // namespace

void TestMemoryEstimate::smallConfigByHand()
{
    // d = 4, d_ff = 8, vocabularies 6 and 7:
    //   embeddings 6*4 + 7*4 = 52; attention 4 * (4*4 + 4) = 80; feed-forward 4*8 + 8 + 8*4 + 4
    //   = 76; a norm 2*4 = 8; encoder layer 80 + 76 + 2*8 = 172; decoder layer 2*80 + 76 + 3*8
    //   = 260; final norms (pre-norm only) 2*8 = 16; generator 4*7 + 7 = 35.
    //   pre-norm: 52 + 172 + 260 + 16 + 35 = 535; post-norm: 519.
    QCOMPARE(parameterCount(small(NormPlacement::Pre)), 535.0);
    QCOMPARE(parameterCount(small(NormPlacement::Post)), 519.0);
    // The model built from it has exactly as many.
    QCOMPARE(Transformer<float>(small(NormPlacement::Pre)).params().size(), std::size_t(535));
    QCOMPARE(Transformer<float>(small(NormPlacement::Post)).params().size(), std::size_t(519));

    // Training, batch 2 of 3 source and 5 target tokens (S = 6, T = 10 tokens), 2 heads:
    //   encoder 6 * (12*4 + 2*8 + 2*2*3) = 456 floats; decoder 10 * (20*4 + 2*8 + 2*2*(5+3))
    //   = 1280; logits 3 * 10 * 7 = 210; (456 + 1280 + 210) * 4 = 7784 bytes.
    const MemoryEstimate e = estimateTrainingMemory(small(NormPlacement::Pre), 2, 3, 5);
    QCOMPARE(e.weights, 535.0 * 4);
    QCOMPARE(e.gradients, 535.0 * 4);
    QCOMPARE(e.adam, 535.0 * 8);
    QCOMPARE(e.activations, 7784.0);
    QCOMPARE(e.total(), 535.0 * 16 + 7784);
    QVERIFY(memoryProblem(small(NormPlacement::Pre)).isEmpty());
}

void TestMemoryEstimate::absurdConfigIsRefused()
{
    ModelConfig c = small(NormPlacement::Pre);
    c.d_model = 1000000;
    c.heads = 8;
    const QString why = c.validate();
    QVERIFY2(why.startsWith(u"this model would need "_s) && why.contains(u"; this machine has "_s),
             qPrintable(why));
    QCOMPARE(memoryProblem(c), why);
}

void TestMemoryEstimate::trainRefusesAbsurdConfig_data()
{
    QTest::addColumn<QString>("config");
    QTest::newRow("d_model") << u"d_model=1000000"_s;
    QTest::newRow("encoder_layers") << u"encoder_layers=100000"_s;
    QTest::newRow("d_ff") << u"d_ff=100000000"_s;
}

void TestMemoryEstimate::trainRefusesAbsurdConfig()
{
    QFETCH(QString, config);
    const test::ProcessRun r = test::runProgram(
        test::cliProgram(), {u"train"_s, u"--threads"_s, u"1"_s, u"--task"_s, u"copy"_s, u"--steps"_s, u"1"_s,
                             u"--config"_s, config},
        QProcessEnvironment::systemEnvironment(), {}, 120000);
    QVERIFY2(r.finished && r.exitCode > 0, qPrintable(test::describeRun(config, r)));
    QVERIFY2(r.err.contains("train: this model would need ") && r.err.contains("this machine has"),
             qPrintable(test::describeRun(config, r)));
}

void TestMemoryEstimate::bytesForPeople()
{
    QCOMPARE(formatBytes(7), u"7 bytes"_s);
    QCOMPARE(formatBytes(12e3), u"12 kB"_s);
    QCOMPARE(formatBytes(1.5e9), u"1.5 GB"_s);
    QCOMPARE(formatBytes(412e9), u"412 GB"_s);
}

AS_TEST_GUILESS_MAIN(TestMemoryEstimate)
#include "test_memory_estimate.moc"
