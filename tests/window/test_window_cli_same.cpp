// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// One training session for the command line and the window: the same recipe, seed and thread
// count give bit-identical weights through `attention-studio-cli train --task T --out A` and
// through the window's worker (Step N, then Export weights), tensor by tensor. Runs the
// attention-studio-cli built beside this test.
#include "skip.h"
#include "main_window.h"
#include "file_actions.h"
#include "worker_link.h"

#include "io/model_file.h"
#include "model/parallel.h"
#include "cli_process.h"
#include "window_runs.h"

#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace as;
using namespace Qt::StringLiterals;

class TestWindowCliSame : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void sameWeights_data();
    void sameWeights();
    void continuedAcrossEqualsStraight();

private:
    // Shows the window and opens a checkpoint or model file in it; true once it shows `step`.
    static bool openAt(MainWindow& w, const QString& path, long step);
    QString cli_;
    QTemporaryDir dir_;
};

void TestWindowCliSame::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(dir_.isValid());
    cli_ = test::cliProgram();
    QVERIFY2(QFileInfo(cli_).isExecutable(),
             qPrintable(cli_ + u" is missing: build the attention-studio-cli target"_s));
}

void TestWindowCliSame::sameWeights_data()
{
    QTest::addColumn<QString>("task");
    QTest::addColumn<int>("threads");
    QTest::addColumn<bool>("smallModel");
    // The toy task's own recipe, one thread.
    QTest::newRow("toy") << u"toy"_s << 1 << false;
    // The bundled corpus with its recipe (token batches, warmup 800, averaging of 5 points
    // over the 60 planned steps) on a model small enough for the sanitizer build, two threads.
    QTest::newRow("zh-en, 2 threads") << u"zh-en"_s << 2 << true;
    // A decoder-only model (core/SPEC.md §2.10) on its recipe, as Settings' architecture gives.
    QTest::newRow("lm-brackets") << u"lm-brackets"_s << 1 << false;
}

void TestWindowCliSame::sameWeights()
{
    QFETCH(QString, task);
    QFETCH(int, threads);
    QFETCH(bool, smallModel);
    constexpr int kSteps = 60;
    constexpr int kSeed = 3;
    SessionSettings s = SessionSettings::defaultsFor(task);
    s.train.seed = kSeed;
    s.plannedSteps = kSteps;
    QStringList config;
    if (smallModel) {
        s.model.d_model = 32;
        s.model.heads = 2;
        s.model.d_ff = 64;
        s.model.encoder_layers = s.model.decoder_layers = 1;
        config = {u"--config"_s, u"d_model=32,heads=2,d_ff=64,encoder_layers=1,decoder_layers=1"_s};
    }

    // The command line.
    const QString cliModel = dir_.filePath(task + u"-cli.safetensors"_s);
    QVERIFY(test::runCli(QStringList{u"train"_s, u"--task"_s, task, u"--steps"_s,
                                     QString::number(kSteps), u"--seed"_s, QString::number(kSeed),
                                     u"--threads"_s, QString::number(threads), u"--out"_s, cliModel}
                         + config));

    // The window: Apply, Step 60, Export.
    setEngineThreads(threads);
    const QString windowModel = dir_.filePath(task + u"-window.safetensors"_s);
    {
        MainWindow w;
        w.show();
        w.applySettings(s);
        QVERIFY(QTest::qWaitFor([&] { return w.examplesShown() > 0; }, 60000));
        w.link()->step(kSteps);
        QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == kSteps && !w.isRunning(); }, 600000));
        QVERIFY(test::exportFromWindow(w, windowModel));
        w.close();
    }
    setEngineThreads(1);

    QString error;
    std::optional<ModelBundle> a = loadModel(cliModel, &error);
    QVERIFY2(a, qPrintable(error));
    std::optional<ModelBundle> b = loadModel(windowModel, &error);
    QVERIFY2(b, qPrintable(error));
    QVERIFY(a->config == b->config);
    // Both record the run in their metadata: the step, and the data.
    QCOMPARE(a->provenance.step, long(kSteps));
    QCOMPARE(b->provenance.step, long(kSteps));
    QCOMPARE(b->provenance.run, a->provenance.run);
    QVERIFY2(a->provenance.run.startsWith(task), qPrintable(a->provenance.run));
    QCOMPARE(a->srcVocab.tokens(), b->srcVocab.tokens());
    QCOMPARE(a->tgtVocab.tokens(), b->tgtVocab.tokens());
    const ParamStore<float>& pa = a->model->params();
    const ParamStore<float>& pb = b->model->params();
    QCOMPARE(pa.table().size(), pb.table().size());
    for (std::size_t i = 0; i < pa.table().size(); ++i) {
        const auto& t = pa.table()[i];
        QCOMPARE(QString::fromStdString(pb.table()[i].name), QString::fromStdString(t.name));
        QVERIFY2(std::memcmp(pa.valueVector().data() + t.offset, pb.valueVector().data() + t.offset,
                             t.size * sizeof(float)) == 0,
                 qPrintable(u"tensor %1 differs"_s.arg(QString::fromStdString(t.name))));
    }
}

bool TestWindowCliSame::openAt(MainWindow& w, const QString& path, long step)
{
    w.show();
    // The snapshot with the loaded history follows the answer.
    return test::openInWindow(w, path) && QTest::qWaitFor([&] { return w.currentStep() == step; }, 10000);
}

// Continue anywhere: a zh-en run of 30 steps saved by the command line, opened in the window and
// stepped to 60; and one saved by the window (Save) and resumed by `train --resume` to 60: both
// equal 60 steps in one command-line run, bit for bit (two threads; no averaging, whose points
// before a resume a checkpoint does not keep).
void TestWindowCliSame::continuedAcrossEqualsStraight()
{
    const QStringList common{u"--task"_s, u"zh-en"_s, u"--seed"_s, u"4"_s, u"--threads"_s, u"2"_s,
                             u"--average"_s, u"1"_s, u"--config"_s,
                             u"d_model=32,heads=2,d_ff=64,encoder_layers=1,decoder_layers=1"_s};
    const QString straight = dir_.filePath(u"straight.safetensors"_s);
    QVERIFY(test::runCli(QStringList{u"train"_s, u"--steps"_s, u"60"_s, u"--out"_s, straight} + common));

    // The command line's checkpoint, continued in the window.
    const QString cliCkpt = dir_.filePath(u"cli.ckpt"_s);
    QVERIFY(test::runCli(QStringList{u"train"_s, u"--steps"_s, u"30"_s, u"--checkpoint"_s, cliCkpt} + common));
    setEngineThreads(2);
    const QString fromWindow = dir_.filePath(u"window-continued.safetensors"_s);
    const QString windowCkpt = dir_.filePath(u"window.ckpt"_s);
    {
        MainWindow w;
        QVERIFY(openAt(w, cliCkpt, 30));
        QVERIFY2(!w.isInspecting(), "a zh-en checkpoint of the command line trains on in the window");
        QCOMPARE(w.settings().task, u"zh-en"_s);
        QCOMPARE(w.settings().model.d_model, 32);
        // Saved by the window at step 30, for the command line to resume.
        QVERIFY(test::saveCheckpointFromWindow(w, windowCkpt));
        w.link()->step(30);
        QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == 60 && !w.isRunning(); }, 600000));
        QVERIFY(test::exportFromWindow(w, fromWindow));
        w.close();
    }
    setEngineThreads(1);
    QVERIFY2(test::sameWeightFiles(straight, fromWindow), "command line 30 + window 30 != 60 straight");

    // The window's checkpoint, resumed by the command line.
    const QString fromCli = dir_.filePath(u"cli-resumed.safetensors"_s);
    QVERIFY(test::runCli({u"train"_s, u"--resume"_s, windowCkpt, u"--steps"_s, u"60"_s, u"--threads"_s, u"2"_s,
                 u"--out"_s, fromCli}));
    QVERIFY2(test::sameWeightFiles(straight, fromCli), "window 30 + command line 30 != 60 straight");

    // The model file opened in the window shows the step it was trained to.
    {
        MainWindow w;
        QVERIFY(openAt(w, fromCli, 60));
        QVERIFY(w.isInspecting());
        w.close();
    }

    // The control: another seed gives other weights.
    const QString other = dir_.filePath(u"other.safetensors"_s);
    QStringList otherArgs = common;
    otherArgs[3] = u"5"_s;
    QVERIFY(test::runCli(QStringList{u"train"_s, u"--steps"_s, u"60"_s, u"--out"_s, other} + otherArgs));
    QVERIFY(!test::sameWeightFiles(straight, other));
}

AS_TEST_MAIN(TestWindowCliSame)
#include "test_window_cli_same.moc"
