// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// attention-studio-cli train --checkpoint / --resume, end to end as a user runs them: N steps
// saved to a checkpoint, a new process resuming to 2N, gives the same weights, bit for bit,
// as 2N steps in one run (one thread, across epoch boundaries); --average too. Runs the
// attention-studio-cli built beside this test.
#include "skip.h"
#include "io/checkpoint.h"
#include "io/model_file.h"
#include "model/bf16.h"
#include "run/resume.h"
#include "train/recipe.h"
#include "cli_process.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QRegularExpression>
#include <QTest>

#include <csignal>

using namespace as;
using namespace Qt::StringLiterals;

class TestCliResume : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void resumedRunEqualsStraightRun_data();
    void resumedRunEqualsStraightRun();
    void interruptedInsideTheAveragingWindow();
    void languageModelResumes_data();
    void languageModelResumes();
    void stoppedBySignalSavesAndResumes_data();
    void stoppedBySignalSavesAndResumes();
    void logThatCannotBeWrittenStopsTheRun();
    void minutesAloneHaveNoStepLimit();
    void bfloat16RunResumesExactly();

private:
    static Eigen::VectorXf weightsOf(const QString& path);
    // `common` trained `full` steps straight through, and `half` steps with a checkpoint then
    // resumed to `full`: the two models' weights must be equal bit for bit (and differ from the
    // checkpoint's own). *halfway: the checkpoint, for the caller's checks.
    void resumedEqualsStraight(const QStringList& common, const QString& tag, int half, int full,
                               std::optional<Checkpoint>* halfway);
    // Runs the CLI with `args` (which print every step: --log-every 1) and sends it `sig` once
    // a progress line shows step `atLeast` or later; false if it ended before. Waits for it.
    static bool runUntilStepThenSignal(QProcess& p, const QString& cli, const QStringList& args,
                                       int atLeast, int sig);

    QString cli_, corpus_;
    QTemporaryDir dir_;
};

void TestCliResume::initTestCase()
{
    QVERIFY(dir_.isValid());
    cli_ = test::cliProgram();
    QVERIFY2(QFileInfo(cli_).isExecutable(),
             qPrintable(cli_ + u" is missing: build the attention-studio-cli target"_s));
    // 300 pairs: a target that reverses the source's words, over a 12-word vocabulary.
    QByteArray tsv;
    std::uint64_t x = 12345;
    for (int i = 0; i < 300; ++i) {
        QStringList words;
        const int n = 2 + int(i % 5);
        for (int k = 0; k < n; ++k) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            words << u"w%1"_s.arg(int(x >> 60) % 12);
        }
        QStringList reversed(words.rbegin(), words.rend());
        tsv += (words.join(' ') + u"\t"_s + reversed.join(' ') + u"\n"_s).toUtf8();
    }
    corpus_ = dir_.filePath(u"train.tsv"_s);
    QFile f(corpus_);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QCOMPARE(f.write(tsv), tsv.size());
}

Eigen::VectorXf TestCliResume::weightsOf(const QString& path)
{
    QString error;
    std::optional<ModelBundle> m = loadModel(path, &error);
    if (!m)
        qFatal("%s", qPrintable(error));
    return m->model->params().valueVector();
}

void TestCliResume::resumedRunEqualsStraightRun_data()
{
    QTest::addColumn<QStringList>("extra");
    QTest::newRow("no averaging") << QStringList{u"--average"_s, u"1"_s};
    QTest::newRow("defaults (averaging 5)") << QStringList{};
    // Weight tying (core/SPEC.md §2.6): the checkpoint keeps it, and the shared vocabulary.
    QTest::newRow("tie=tgt") << QStringList{u"--average"_s, u"1"_s, u"--tie"_s, u"tgt"_s};
    QTest::newRow("tie=all, shared vocabulary")
        << QStringList{u"--average"_s, u"1"_s, u"--tie"_s, u"all"_s, u"--shared-vocab"_s};
    // One BPE model for both sides (core/SPEC.md §10.3): the resumed run trains it again, the
    // same bytes, and carries on with the same ids.
    QTest::newRow("tie=all, shared bpe")
        << QStringList{u"--average"_s, u"1"_s, u"--tie"_s, u"all"_s, u"--shared-vocab"_s,
                       u"--src-tok"_s, u"bpe:24"_s, u"--tgt-tok"_s, u"bpe:24"_s};
}

void TestCliResume::resumedEqualsStraight(const QStringList& common, const QString& tag, int half,
                                          int full, std::optional<Checkpoint>* halfway)
{
    const QString straight = dir_.filePath(tag + u"-straight.safetensors"_s);
    const QString ckpt = dir_.filePath(tag + u".ckpt"_s);
    const QString resumed = dir_.filePath(tag + u"-resumed.safetensors"_s);
    QVERIFY(test::runCli(common + QStringList{u"--steps"_s, QString::number(full), u"--out"_s, straight}));
    QVERIFY(test::runCli(common + QStringList{u"--steps"_s, QString::number(half), u"--checkpoint"_s, ckpt}));
    QString error;
    *halfway = loadCheckpoint(ckpt, &error);
    QVERIFY2(*halfway, qPrintable(error));
    QCOMPARE((*halfway)->step, long(half));
    QVERIFY(test::runCli({u"train"_s, u"--resume"_s, ckpt, u"--steps"_s, QString::number(full),
                          u"--threads"_s, u"1"_s, u"--out"_s, resumed}));
    const Eigen::VectorXf a = weightsOf(straight), b = weightsOf(resumed);
    QCOMPARE(a.size(), b.size());
    QVERIFY2(std::memcmp(a.data(), b.data(), std::size_t(a.size()) * sizeof(float)) == 0,
             qPrintable(u"max |difference| %1"_s.arg((a - b).cwiseAbs().maxCoeff())));
    // The comparison can fail: the checkpoint's own weights (step `half`) are not those of `full`.
    QVERIFY(((*halfway)->model.model->params().valueVector() - a).cwiseAbs().maxCoeff() > 0);
}

void TestCliResume::resumedRunEqualsStraightRun()
{
    QFETCH(QStringList, extra);
    const QString tag = QString::fromLatin1(QTest::currentDataTag()).replace(' ', '_');
    const QStringList common = QStringList{u"train"_s, u"--data"_s, corpus_, u"--config"_s,
                                           u"d_model=32,heads=2,d_ff=64,encoder_layers=1,decoder_layers=1,dropout=0.1"_s,
                                           u"--batch-tokens"_s, u"150"_s, u"--warmup"_s, u"10"_s,
                                           u"--valid-every"_s, u"7"_s, u"--threads"_s, u"1"_s,
                                           u"--seed"_s, u"4"_s}
                               + extra;
    std::optional<Checkpoint> half;
    resumedEqualsStraight(common, tag, 30, 60, &half);
    if (QTest::currentTestFailed())
        return;
    QVERIFY2(half->run.epoch >= 1, "the first half should cross an epoch boundary");
    const qsizetype tieAt = extra.indexOf(u"--tie"_s);
    const Tie tie = tieAt < 0 ? Tie::None : *tieFromName(extra[tieAt + 1]);
    QCOMPARE(half->model.config.tie, tie);
    QCOMPARE(half->model.model->params().find("generator.weight") == nullptr, tie != Tie::None);
    if (tie == Tie::All)
        QCOMPARE(half->model.srcVocab.tokens(), half->model.tgtVocab.tokens());
    if (extra.contains(u"bpe:24"_s)) {
        QCOMPARE(tokenizerName(half->model.srcTok), u"bpe:24"_s);
        QVERIFY(half->model.srcTok.ready() && half->model.srcTok == half->model.tgtTok);
        QCOMPARE(half->model.srcVocab.tokens(), half->model.srcTok.pieces());
    }
}

// A language model's run (core/SPEC.md §10.7) resumed from its checkpoint ends with the weights
// of the run straight through: the generated brackets, and lm-en's packed windows cut by a BPE
// model the checkpoint carries, with a batch size of its own (which --resume once dropped when
// a tokeniser was named).
void TestCliResume::languageModelResumes_data()
{
    QTest::addColumn<QStringList>("args");
    const QString config = u"d_model=32,heads=2,d_ff=64,decoder_layers=1,encoder_layers=0,arch=decoder-only"_s;
    QTest::newRow("lm-brackets") << QStringList{u"--task"_s, u"lm-brackets"_s, u"--config"_s, config,
                                                u"--batch"_s, u"8"_s};
    QTest::newRow("lm-en, bpe:300") << QStringList{u"--task"_s, u"lm-en"_s, u"--tgt-tok"_s, u"bpe:300"_s,
                                                   u"--config"_s, config, u"--batch"_s, u"4"_s};
    // A decoder-only model on translation data: its target side (core/SPEC.md §2.10), the
    // corpus's batches without their sources.
    QTest::newRow("toy's targets") << QStringList{u"--task"_s, u"toy"_s, u"--config"_s, config};
    QTest::newRow("a corpus's targets") << QStringList{u"--data"_s, corpus_, u"--config"_s, config,
                                                       u"--batch-tokens"_s, u"150"_s};
}

void TestCliResume::languageModelResumes()
{
    QFETCH(QStringList, args);
    const QString tag = QString::fromLatin1(QTest::currentDataTag()).replace(' ', '_').remove(u',');
    const QStringList common = QStringList{u"train"_s, u"--warmup"_s, u"10"_s, u"--valid-every"_s,
                                           u"7"_s, u"--threads"_s, u"1"_s, u"--seed"_s, u"3"_s}
                               + args;
    std::optional<Checkpoint> half;
    resumedEqualsStraight(common, tag, 20, 40, &half);
    if (QTest::currentTestFailed())
        return;
    QVERIFY(half->model.config.decoderOnly());
}

bool TestCliResume::runUntilStepThenSignal(QProcess& p, const QString& cli,
                                           const QStringList& args, int atLeast, int sig)
{
    p.start(cli, args);
    if (!p.waitForStarted(10000))
        return false;
    const QRegularExpression stepLine(u"^step (\\d+)"_s);
    QByteArray pending;
    bool sent = false;
    while (!sent && p.state() == QProcess::Running) {
        p.waitForReadyRead(100);
        pending += p.readAllStandardOutput();
        qsizetype nl;
        while (!sent && (nl = pending.indexOf('\n')) >= 0) {
            const QString line = QString::fromUtf8(pending.left(nl));
            pending.remove(0, nl + 1);
            const QRegularExpressionMatch m = stepLine.match(line);
            if (m.hasMatch() && m.captured(1).toInt() >= atLeast)
                sent = ::kill(pid_t(p.processId()), sig) == 0;
        }
    }
    p.waitForFinished(60000);
    return sent;
}

// Stopped by Ctrl+C (SIGINT) inside the averaging window — past the first of its 5 points (80 %
// of 400 steps), before the end — then `train --resume CKPT` alone (no --steps: the recorded
// plan goes on): the model written is the straight run's, bit for bit. The checkpoint holds the
// snapshots taken before the stop; without them (a format-2 checkpoint, test_session's control)
// the average would differ.
void TestCliResume::interruptedInsideTheAveragingWindow()
{
    const QStringList common = {u"train"_s, u"--data"_s, corpus_, u"--config"_s,
                                u"d_model=32,heads=2,d_ff=64,encoder_layers=1,decoder_layers=1,dropout=0.1"_s,
                                u"--batch-tokens"_s, u"150"_s, u"--warmup"_s, u"10"_s,
                                u"--valid-every"_s, u"100"_s, u"--threads"_s, u"1"_s,
                                u"--seed"_s, u"6"_s, u"--average"_s, u"5"_s, u"--steps"_s, u"400"_s};
    const QString straight = dir_.filePath(u"window-straight.safetensors"_s);
    const QString ckpt = dir_.filePath(u"window.ckpt"_s);
    const QString resumed = dir_.filePath(u"window-resumed.safetensors"_s);
    QVERIFY(test::runCli(common + QStringList{u"--out"_s, straight}));

    // The same run, interrupted once a progress line shows a step past 330 (the 80 % point is
    // step 320, the next at 340): each step is printed (--log-every 1) and reacted to at once.
    QProcess p;
    QVERIFY2(runUntilStepThenSignal(p, cli_, common + QStringList{u"--checkpoint"_s, ckpt,
                                                                  u"--log-every"_s, u"1"_s},
                                    330, SIGINT),
             "the run ended before a step past 330 was printed");
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QCOMPARE(p.exitCode(), 0);
    QString error;
    std::optional<Checkpoint> stopped = loadCheckpoint(ckpt, &error);
    QVERIFY2(stopped, qPrintable(error));
    QVERIFY2(stopped->step > 320 && stopped->step < 400,
             qPrintable(u"stopped at step %1, outside the averaging window"_s.arg(stopped->step)));
    QVERIFY(stopped->run.averageKnown);
    QVERIFY(stopped->run.averageTaken >= 1);

    QVERIFY(test::runCli({u"train"_s, u"--resume"_s, ckpt, u"--threads"_s, u"1"_s, u"--out"_s, resumed}));
    const Eigen::VectorXf a = weightsOf(straight), b = weightsOf(resumed);
    QCOMPARE(a.size(), b.size());
    QVERIFY2(std::memcmp(a.data(), b.data(), std::size_t(a.size()) * sizeof(float)) == 0,
             qPrintable(u"max |difference| %1"_s.arg((a - b).cwiseAbs().maxCoeff())));
    QVERIFY((stopped->model.model->params().valueVector() - a).cwiseAbs().maxCoeff() > 0);
}

void TestCliResume::stoppedBySignalSavesAndResumes_data()
{
    QTest::addColumn<int>("sig");
    QTest::newRow("SIGTERM") << int(SIGTERM);
    QTest::newRow("SIGHUP") << int(SIGHUP);
}

// SIGTERM (what timeout, kill, systemd and Slurm send) and SIGHUP (a closed terminal) stop a
// run as Ctrl+C does: the checkpoint and the model are saved, and the exit status is 128 + the
// signal's number. The checkpoint then resumes.
void TestCliResume::stoppedBySignalSavesAndResumes()
{
    QFETCH(int, sig);
    const QString tag = QString::fromLatin1(QTest::currentDataTag());
    const QString ckpt = dir_.filePath(tag + u".ckpt"_s), out = dir_.filePath(tag + u".safetensors"_s);
    const QStringList args = {u"train"_s, u"--data"_s, corpus_, u"--config"_s,
                              u"d_model=32,heads=2,d_ff=64,encoder_layers=1,decoder_layers=1"_s,
                              u"--batch-tokens"_s, u"150"_s, u"--threads"_s, u"1"_s,
                              u"--steps"_s, u"1000000"_s, u"--checkpoint"_s, ckpt, u"--out"_s, out,
                              u"--log-every"_s, u"1"_s};
    QProcess p;
    QVERIFY2(runUntilStepThenSignal(p, cli_, args, 20, sig), "the run ended before step 20");
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);  // not killed by the signal: it saved
    QCOMPARE(p.exitCode(), 128 + sig);
    const QString said = QString::fromUtf8(p.readAllStandardOutput());
    QVERIFY2(said.contains(u"stopped by "_s + tag), qPrintable(said));
    QString error;
    std::optional<Checkpoint> ck = loadCheckpoint(ckpt, &error);
    QVERIFY2(ck, qPrintable(error));
    QVERIFY(ck->step >= 20);
    QVERIFY(loadModel(out, &error));
    QVERIFY(test::runCli({u"train"_s, u"--resume"_s, ckpt, u"--steps"_s,
                          QString::number(ck->step + 3), u"--threads"_s, u"1"_s}));
    std::optional<Checkpoint> after = loadCheckpoint(ckpt, &error);
    QVERIFY2(after, qPrintable(error));
    QCOMPARE(after->step, ck->step + 3);
}

// --log on a full disk (/dev/full: every write fails with ENOSPC) is an error the user is told
// about at once: the run stops, saves its checkpoint, says why and exits with 1 — it used to
// train on, writing nothing and exiting 0.
void TestCliResume::logThatCannotBeWrittenStopsTheRun()
{
    QVERIFY2(QFileInfo(u"/dev/full"_s).exists(), "this test writes to /dev/full");
    const QString ckpt = dir_.filePath(u"full-disk.ckpt"_s);
    const test::ProcessRun r = test::runProgram(
        cli_, {u"train"_s, u"--task"_s, u"toy"_s, u"--steps"_s, u"300"_s, u"--threads"_s, u"1"_s,
               u"--log"_s, u"/dev/full"_s, u"--checkpoint"_s, ckpt});
    QVERIFY2(r.finished, qPrintable(test::describeRun(u"train --log /dev/full"_s, r)));
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("cannot write the log /dev/full: No space left on device"),
             qPrintable(test::describeRun(u"train --log /dev/full"_s, r)));
    QString error;
    std::optional<Checkpoint> ck = loadCheckpoint(ckpt, &error);
    QVERIFY2(ck, qPrintable(error));
    QVERIFY2(ck->step < 300, qPrintable(u"it trained on to step %1"_s.arg(ck->step)));
}

// The plan is whichever limit the user gave (issue 27 §3): --minutes alone trains that long,
// past the recipe's steps; --steps with --minutes ends at the first reached; neither: the
// recipe's steps. What each run recorded and where it stopped, read from its checkpoint.
void TestCliResume::minutesAloneHaveNoStepLimit()
{
    const long recipeSteps = recipeFor(u"toy"_s).steps;
    struct Case {
        QStringList limits;
        long plannedSteps;
        double plannedSeconds;
    };
    const Case cases[] = {{{u"--minutes"_s, u"0.01"_s}, 0, 0.6},
                          {{u"--steps"_s, u"7"_s, u"--minutes"_s, u"10"_s}, 7, 600.0},
                          {{}, recipeSteps, 0.0}};
    int i = 0;
    for (const Case& c : cases) {
        const QString ckpt = dir_.filePath(u"limits%1.ckpt"_s.arg(i++));
        QVERIFY(test::runCli(QStringList{u"train"_s, u"--threads"_s, u"1"_s, u"--task"_s, u"toy"_s,
                                         u"--checkpoint"_s, ckpt} + c.limits));
        QString error;
        const std::optional<Checkpoint> ck = loadCheckpoint(ckpt, &error);
        QVERIFY2(ck, qPrintable(error));
        const SessionPlan plan = recordedPlan(*ck);
        const QString what = c.limits.join(u' ');
        QVERIFY2(plan.steps == c.plannedSteps, qPrintable(u"%1: planned %2 steps"_s.arg(what).arg(plan.steps)));
        QVERIFY2(std::abs(plan.seconds - c.plannedSeconds) < 1e-9, qPrintable(what));
        if (c.plannedSteps > 0)  // it ended at the step limit (the time limit, if any, is far)
            QCOMPARE(ck->step, c.plannedSteps);
        else  // it ended at the time limit, whatever step that was
            QVERIFY2(ck->run.busySeconds >= c.plannedSeconds,
                     qPrintable(u"%1: stopped after %2 s at step %3"_s.arg(what).arg(ck->run.busySeconds).arg(ck->step)));
    }
}

// bfloat16 mixed precision (core/SPEC.md §2.14) from the command line: the checkpoint records
// it, and a resumed run continues in it, bit for bit as one run; the weights differ from float32's run (the products did
// change); a precision that is neither is refused; where bfloat16 cannot run, the resumed run
// goes on in float32, saying so. Where the CPU has no bfloat16 units,
// `--precision bf16` must be refused naming them: that is what runs there, and it says so.
void TestCliResume::bfloat16RunResumesExactly()
{
    const QStringList common{u"train"_s, u"--data"_s, corpus_, u"--config"_s,
                             u"d_model=32,heads=2,d_ff=64,encoder_layers=1,decoder_layers=1,dropout=0.1"_s,
                             u"--batch-tokens"_s, u"150"_s, u"--warmup"_s, u"10"_s, u"--valid-every"_s,
                             u"7"_s, u"--threads"_s, u"1"_s, u"--seed"_s, u"4"_s, u"--average"_s, u"1"_s};
    const test::ProcessRun wrong = test::runProgram(
        cli_, common + QStringList{u"--precision"_s, u"fp8"_s, u"--steps"_s, u"2"_s, u"--out"_s, dir_.filePath(u"x.safetensors"_s)});
    QCOMPARE(wrong.exitCode, 2);
    QVERIFY2(wrong.err.contains("--precision must be float32 or bf16"), wrong.err.constData());
    const QStringList bf16 = common + QStringList{u"--precision"_s, u"bf16"_s};
    if (const QString why = bf16Unavailable(); !why.isEmpty()) {
        const test::ProcessRun r = test::runProgram(
            cli_, bf16 + QStringList{u"--steps"_s, u"2"_s, u"--out"_s, dir_.filePath(u"x.safetensors"_s)});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(why), r.err.constData());
        qInfo("bfloat16 unavailable here: --precision bf16 refused (%s)", qPrintable(why));
        return;
    }
    std::optional<Checkpoint> half;
    resumedEqualsStraight(bf16, u"bf16"_s, 12, 24, &half);
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(half->options.precision, GemmPrecision::BFloat16);
    // Where bfloat16 cannot run (AS_BF16=off: as on a CPU without the units) the run goes on in
    // float32, saying so, and its checkpoint then records float32.
    {
        const QString ckpt = dir_.filePath(u"bf16.ckpt"_s), moved = dir_.filePath(u"bf16-here-f32.ckpt"_s);
        QVERIFY(QFile::copy(ckpt, moved) || QFileInfo::exists(moved));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"AS_BF16"_s, u"off"_s);
        const test::ProcessRun r = test::runProgram(
            cli_, {u"train"_s, u"--resume"_s, moved, u"--steps"_s, u"30"_s, u"--threads"_s, u"1"_s}, env);
        QVERIFY2(r.exitCode == 0, qPrintable(test::describeRun(u"resume under AS_BF16=off"_s, r)));
        QVERIFY2(r.err.contains("trained in bfloat16") && r.err.contains("continues in float32"), r.err.constData());
        QString error;
        const std::optional<Checkpoint> after = loadCheckpoint(moved, &error);
        QVERIFY2(after, qPrintable(error));
        QCOMPARE(after->step, 30L);  // the copy was at 24: the resumed run left it there
        QCOMPARE(after->options.precision, GemmPrecision::Float32);
    }
    // float32's run of the same steps ends elsewhere.
    const QString f32 = dir_.filePath(u"f32-24.safetensors"_s);
    QVERIFY(test::runCli(common + QStringList{u"--steps"_s, u"24"_s, u"--out"_s, f32}));
    const Eigen::VectorXf a = weightsOf(dir_.filePath(u"bf16-straight.safetensors"_s)), b = weightsOf(f32);
    const float apart = (a - b).cwiseAbs().maxCoeff();
    qInfo("bfloat16's weights after 24 steps differ from float32's by up to %g", double(apart));
    QVERIFY(apart > 0);
}

AS_TEST_GUILESS_MAIN(TestCliResume)
#include "test_cli_resume.moc"
