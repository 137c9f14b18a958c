// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// A user's corpus in the window (File > Open corpus…) and the continuation of corpus runs
// between the window and the command line:
//  - a corpus opened in the window and stepped 40 times gives the weights of
//    `attention-studio-cli train --data F --steps 40` bit for bit (same recipe, seed, threads),
//    and the reader's report lists the refused lines by file:line;
//  - a file that cannot be used gives a message, and the running session goes on untouched;
//  - a checkpoint of `train --data … --checkpoint C` opened in the window continues training
//    (its corpus found where recorded, or where the user points to after it moved) and equals
//    the straight command-line run; another file in its place is refused with a message;
//  - a corpus session saved by the window resumes with `train --resume`, bit for bit.
// The corpus is made here: real Tatoeba pairs from the corpus that ships with the program,
// with a few broken lines.
#include "skip.h"
#include "main_window.h"
#include "corpus_actions.h"
#include "file_actions.h"
#include "worker_link.h"

#include "decode/decode.h"
#include "eval/bleu.h"
#include "eval/evaluate.h"
#include "io/checkpoint.h"
#include "io/model_file.h"
#include "model/parallel.h"
#include "text/bundled_corpus.h"
#include "train/corpus_run.h"
#include "cli_process.h"
#include "window_runs.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>

using namespace as;
using namespace Qt::StringLiterals;

namespace {

constexpr int kSeed = 6;
const QString kConfig = u"d_model=32,heads=2,d_ff=64,encoder_layers=1,decoder_layers=1,dropout=0.1"_s;

// The run's settings on both sides: a model small enough for the sanitizer build, short
// warmup, small batches (several epochs in a few dozen steps), averaging of 3 points.
QStringList cliRecipe(const QString& data)
{
    return {u"train"_s,       u"--data"_s,    data,          u"--config"_s,      kConfig,
            u"--seed"_s,      QString::number(kSeed), u"--warmup"_s, u"20"_s,
            u"--batch-tokens"_s, u"300"_s,  u"--valid-every"_s, u"15"_s, u"--average"_s,
            u"3"_s,           u"--threads"_s, u"1"_s};
}

// The window's settings for the same run (the panel's corpus recipe, changed as cliRecipe).
void useRecipe(MainWindow& w, SessionSettings s, long planned)
{
    QString error;
    s.model = *ModelConfig::fromSpec(kConfig, &error, s.model);
    s.train.seed = kSeed;
    s.train.warmup = 20;
    s.batchTokens = 300;
    s.evalEvery = 15;
    s.averagePoints = 3;
    s.plannedSteps = planned;
    w.applySettings(s);
}

}  // namespace

class TestWindowCorpus : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void openedCorpusTrainsAsTheCommandLine();
    void unusableCorpusLeavesTheSessionAlone();
    void commandLineCheckpointContinuesInTheWindow();
    void movedCorpusIsFoundOrRefused();
    void windowCorpusSessionResumesOnTheCommandLine();
    void screenshotModeTrainsOnACorpusFile();

private:
    QString writeCorpus(const QString& name, int first, int count, bool broken);
    QTemporaryDir dir_;
    QString corpus_;  // 600 pairs and 3 broken lines
};

QString TestWindowCorpus::writeCorpus(const QString& name, int first, int count, bool broken)
{
    QString error;
    const std::optional<BundledCorpus> zh = loadBundledCorpus(u"zh-en"_s, &error);
    if (!zh)
        qFatal("%s", qPrintable(error));
    QByteArray bytes;
    for (int i = first; i < first + count; ++i) {
        const SentencePair& p = zh->split.train.at(i);
        bytes += (p.src + u'\t' + p.tgt + u'\n').toUtf8();
        if (broken && i == first + 10)
            bytes += "a line without its TAB\n";  // line 12
        if (broken && i == first + 20)
            bytes += "\tno source\n";  // line 23
    }
    if (broken)
        bytes += "\xff\xfe not UTF-8\tat all\n";
    const QString path = dir_.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

void TestWindowCorpus::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(dir_.isValid());
    QVERIFY2(QFileInfo(test::cliProgram()).isExecutable(),
             "attention-studio-cli is missing: build the attention-studio-cli target");
    corpus_ = writeCorpus(u"pairs.tsv"_s, 0, 600, true);
    setEngineThreads(1);
}

void TestWindowCorpus::openedCorpusTrainsAsTheCommandLine()
{
    constexpr int kSteps = 40;
    const QString cliModel = dir_.filePath(u"open-cli.safetensors"_s);
    QVERIFY(test::runCli(cliRecipe(corpus_) + QStringList{u"--steps"_s, QString::number(kSteps),
                                                           u"--out"_s, cliModel}));
    const QString windowModel = dir_.filePath(u"open-window.safetensors"_s);
    MainWindow w;
    w.show();
    QStringList report;
    QVERIFY(test::openCorpusIn(w, corpus_, &report));
    // The reader's report: counts, vocabularies, and each refused line by file:line.
    const QString text = report.join(u'\n');
    QVERIFY2(text.contains(u"603 lines read, 600 pairs kept"_s), qPrintable(text));
    QVERIFY2(text.contains(u"pairs.tsv:12: no TAB between source and target"_s), qPrintable(text));
    QVERIFY2(text.contains(u"pairs.tsv:23: empty source"_s), qPrintable(text));
    QVERIFY2(text.contains(u"pairs.tsv:603: invalid UTF-8"_s), qPrintable(text));
    QVERIFY2(text.contains(u"vocabularies: source "_s), qPrintable(text));
    QVERIFY(w.settings().userCorpus());
    QCOMPARE(w.settings().task, u"corpus:pairs.tsv"_s);
    QVERIFY(!w.isInspecting());
    QVERIFY(w.playAction()->isEnabled());
    // The settings panel offers the corpus, and Apply with its recipe keeps it.
    useRecipe(w, w.settings(), kSteps);
    QVERIFY(QTest::qWaitFor([&] { return w.examplesShown() > 0; }, 60000));
    QCOMPARE(w.examplesShown(), 8);
    w.link()->step(kSteps);
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == kSteps && !w.isRunning(); }, 600000));
    QVERIFY(test::exportFromWindow(w, windowModel));
    w.close();
    QVERIFY2(test::sameWeightFiles(cliModel, windowModel), "window != command line on the same corpus");
    // The control: one step fewer differs.
    const QString shorter = dir_.filePath(u"open-cli-39.safetensors"_s);
    QVERIFY(test::runCli(cliRecipe(corpus_) + QStringList{u"--steps"_s, QString::number(kSteps - 1),
                                                           u"--out"_s, shorter}));
    QVERIFY(!test::sameWeightFiles(shorter, windowModel));
}

void TestWindowCorpus::unusableCorpusLeavesTheSessionAlone()
{
    MainWindow w;
    w.show();
    SessionSettings toy = SessionSettings::defaultsFor(u"toy"_s);
    w.applySettings(toy);
    QVERIFY(QTest::qWaitFor([&] { return w.examplesShown() > 0; }, 60000));
    w.link()->step(5);
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == 5 && !w.isRunning(); }, 60000));

    QFile junk(dir_.filePath(u"junk.tsv"_s));
    QVERIFY(junk.open(QIODevice::WriteOnly));
    junk.write("no tab here\nnor here\n");
    junk.close();
    for (const QString& file : {dir_.filePath(u"absent.tsv"_s), junk.fileName(), dir_.path()}) {
        QSignalSpy failed(w.corpus(), &CorpusActions::corpusFailed);
        CorpusSource source;
        source.train = file;
        w.corpus()->openCorpus(source);
        QVERIFY(failed.wait(60000));
        const QString message = failed.first().first().toString();
        QVERIFY2(message.contains(QFileInfo(file).fileName()), qPrintable(message));
        QVERIFY2(message.contains(u"not found"_s) || message.contains(u"no usable sentence pair"_s)
                     || message.contains(u"folder"_s),
                 qPrintable(message));
        // Nothing changed: the toy session, at its step, trains on.
        QCOMPARE(w.settings().task, u"toy"_s);
        QCOMPARE(w.currentStep(), 5L);
    }
    w.link()->step(1);
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == 6 && !w.isRunning(); }, 60000));
    w.close();
}

void TestWindowCorpus::commandLineCheckpointContinuesInTheWindow()
{
    // No averaging here: the averaging points of a run planned for 20 steps are not those of
    // one planned for 40, and a checkpoint does not keep points taken before it.
    const QStringList recipe = cliRecipe(corpus_) + QStringList{u"--average"_s, u"1"_s};
    const QString straight = dir_.filePath(u"ck-straight.safetensors"_s);
    QVERIFY(test::runCli(recipe + QStringList{u"--steps"_s, u"40"_s, u"--out"_s, straight}));
    const QString half = dir_.filePath(u"ck-cli-20.ckpt"_s);
    QVERIFY(test::runCli(recipe + QStringList{u"--steps"_s, u"20"_s, u"--checkpoint"_s, half}));

    MainWindow w;
    w.show();
    QSignalSpy restored(&w, &MainWindow::sessionRestored);
    w.files()->openFile(half);
    // First shown as it was saved, then continued on its corpus, found where recorded.
    QVERIFY(QTest::qWaitFor([&] { return restored.size() == 2; }, 60000));
    QVERIFY(!w.isInspecting());
    QVERIFY(w.settings().userCorpus());
    QCOMPARE(w.files()->currentFile(), half);
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == 20; }, 10000));
    const SessionSettings& s = w.settings();
    QCOMPARE(s.plannedSteps, 20L);
    QCOMPARE(s.batchTokens, 300);
    QCOMPARE(s.evalEvery, 15);
    QCOMPARE(s.averagePoints, 1);
    QCOMPARE(s.model.d_model, 32);
    w.link()->step(20);
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == 40 && !w.isRunning(); }, 600000));
    const QString fromWindow = dir_.filePath(u"ck-window.safetensors"_s);
    QVERIFY(test::exportFromWindow(w, fromWindow));
    w.close();
    QVERIFY2(test::sameWeightFiles(straight, fromWindow), "command line 20 + window 20 != command line 40");
}

void TestWindowCorpus::movedCorpusIsFoundOrRefused()
{
    const QString original = writeCorpus(u"moving.tsv"_s, 100, 400, false);
    const QString ckpt = dir_.filePath(u"moving.ckpt"_s);
    QVERIFY(test::runCli(cliRecipe(original) + QStringList{u"--steps"_s, u"10"_s, u"--checkpoint"_s, ckpt}));
    const QString moved = dir_.filePath(u"moved.tsv"_s);
    QVERIFY(QFile::rename(original, moved));
    // Another corpus where the user points: refused, and the model stays shown.
    const QString other = writeCorpus(u"other.tsv"_s, 700, 400, false);
    {
        MainWindow w;
        w.show();
        QSignalSpy restored(&w, &MainWindow::sessionRestored);
        QSignalSpy failed(w.corpus(), &CorpusActions::corpusFailed);
        w.corpus()->setCorpusLocation(original, other);
        w.files()->openFile(ckpt);
        QVERIFY(failed.wait(60000));
        const QString message = failed.first().first().toString();
        QVERIFY2(message.contains(u"changed"_s) && message.contains(u"other.tsv"_s), qPrintable(message));
        QCOMPARE(restored.size(), 1);
        QVERIFY(w.isInspecting());
        QCOMPARE(w.currentStep(), 10L);
        w.close();
    }
    // Without a location it is not found: shown, and asked for (not continued).
    {
        MainWindow w;
        w.show();
        QSignalSpy restored(&w, &MainWindow::sessionRestored);
        w.files()->openFile(ckpt);
        QVERIFY(restored.wait(60000));
        QVERIFY(test::settled(w));
        QCOMPARE(restored.size(), 1);
        QVERIFY(w.isInspecting());
        QVERIFY(!w.corpus()->corpusOpener()->busy());
        w.close();
    }
    // Where it moved to: continued.
    MainWindow w;
    w.show();
    QSignalSpy restored(&w, &MainWindow::sessionRestored);
    w.corpus()->setCorpusLocation(original, moved);
    w.files()->openFile(ckpt);
    QVERIFY(QTest::qWaitFor([&] { return restored.size() == 2; }, 60000));
    QVERIFY(!w.isInspecting());
    QCOMPARE(w.settings().source.train, moved);
    w.close();
}

void TestWindowCorpus::windowCorpusSessionResumesOnTheCommandLine()
{
    const QString straight = dir_.filePath(u"w-straight.safetensors"_s);
    QVERIFY(test::runCli(cliRecipe(corpus_) + QStringList{u"--steps"_s, u"40"_s, u"--out"_s, straight}));
    const QString ckpt = dir_.filePath(u"w.ckpt"_s);
    {
        MainWindow w;
        w.show();
        QVERIFY(test::openCorpusIn(w, corpus_));
        useRecipe(w, w.settings(), 40);
        QVERIFY(QTest::qWaitFor([&] { return w.examplesShown() > 0; }, 60000));
        w.link()->step(25);
        QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == 25 && !w.isRunning(); }, 600000));
        QSignalSpy saved(w.files(), &FileActions::fileSaved);
        w.files()->saveCheckpointTo(ckpt);  // as Ctrl+S does
        QVERIFY(saved.wait(60000));
        w.close();
    }
    QString error;
    std::optional<Checkpoint> ck = loadCheckpoint(ckpt, &error);
    QVERIFY2(ck, qPrintable(error));
    QCOMPARE(ck->run.data.value("kind").toString(), u"corpus"_s);
    QCOMPARE(ck->run.data.value("train").toString(), QFileInfo(corpus_).absoluteFilePath());
    const QString resumed = dir_.filePath(u"w-resumed.safetensors"_s);
    QVERIFY(test::runCli({u"train"_s, u"--resume"_s, ckpt, u"--steps"_s, u"40"_s, u"--threads"_s,
                          u"1"_s, u"--out"_s, resumed}));
    QVERIFY2(test::sameWeightFiles(straight, resumed), "window 25 + command line 15 != command line 40");
}

// `attention-studio --screenshot DIR --data F`: trains on the corpus as File > Open corpus…
// does, writes a PNG per view and summary.json, and --out the weights that
// `attention-studio-cli train --data F` with the same steps, seed and threads writes; and
// summary.json's validation loss, accuracy and BLEU are those of those weights, worked here.
void TestWindowCorpus::screenshotModeTrainsOnACorpusFile()
{
    const QString shots = dir_.filePath(u"shots"_s);
    const QString model = dir_.filePath(u"shots.safetensors"_s);
    QProcess gui;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
    env.insert(u"XDG_CONFIG_HOME"_s, dir_.filePath(u"config"_s));  // not the user's settings
    env.insert(u"XDG_DATA_HOME"_s, dir_.filePath(u"data"_s));
    gui.setProcessEnvironment(env);
    gui.start(QDir(QCoreApplication::applicationDirPath()).filePath(u"attention-studio"_s),
              {u"--screenshot"_s, shots, u"--data"_s, corpus_, u"--steps"_s, u"12"_s, u"--seed"_s,
               QString::number(kSeed), u"--threads"_s, u"1"_s, u"--valid-every"_s, u"6"_s,
               u"--out"_s, model});
    QVERIFY(gui.waitForFinished(600000));
    const QString log = QString::fromUtf8(gui.readAllStandardOutput() + gui.readAllStandardError());
    QVERIFY2(gui.exitStatus() == QProcess::NormalExit && gui.exitCode() == 0, qPrintable(log));
    QVERIFY2(log.contains(u"pairs.tsv:12: no TAB"_s), qPrintable(log));  // the reader's report
    QFile summaryFile(QDir(shots).filePath(u"summary.json"_s));
    QVERIFY(summaryFile.open(QIODevice::ReadOnly));
    const QJsonObject summary = QJsonDocument::fromJson(summaryFile.readAll()).object();
    QCOMPARE(summary.value("steps").toInt(), 12);
    for (const char* key : {"train_loss", "valid_loss", "valid_accuracy", "valid_bleu"})
        QVERIFY2(summary.value(key).isDouble(), key);
    QVERIFY(summary.value("valid_loss").toDouble() > 0);
    const QJsonArray samples = summary.value("samples").toArray();
    QCOMPARE(samples.size(), 8);
    QVERIFY(!samples[0].toObject().value("source").toString().isEmpty());
    const QStringList pngs = QDir(shots).entryList({u"*.png"_s});
    QVERIFY2(pngs.size() >= 7, qPrintable(pngs.join(u' ')));
    for (const QString& png : pngs)
        QVERIFY2(QImage(QDir(shots).filePath(png)).width() > 100, qPrintable(png));

    const QString cli = dir_.filePath(u"shots-cli.safetensors"_s);
    QVERIFY(test::runCli({u"train"_s, u"--data"_s, corpus_, u"--steps"_s, u"12"_s, u"--seed"_s,
                          QString::number(kSeed), u"--threads"_s, u"1"_s, u"--valid-every"_s,
                          u"6"_s, u"--out"_s, cli}));
    QVERIFY2(test::sameWeightFiles(cli, model), "--screenshot --data != train --data");

    // summary.json's validation figures are those of the weights it wrote (--out), worked here:
    // evaluateLoss over the corpus's held-out pairs, corpusBleu of greedyDecode's translations.
    QString error;
    std::optional<ModelBundle> m = loadModel(model, &error);
    QVERIFY2(m, qPrintable(error));
    CorpusRun run;
    run.source.train = corpus_;
    const CorpusBuild built = buildCorpus(run);
    QVERIFY2(built.data, qPrintable(built.error));
    const SessionData& data = *built.data;
    QCOMPARE(data.srcVocab().tokens(), m->srcVocab.tokens());
    QCOMPARE(data.tgtVocab().tokens(), m->tgtVocab.tokens());
    QVERIFY(!data.validation().empty());
    const LossStats loss = evaluateLoss(*m->model, data.validation());
    QStringList hyps, refs;
    for (const SentencePair& p : data.validationText()) {
        const DecodeResult d = greedyDecode(*m->model, data.codec().encodeSource(p.src).ids, DecodeOptions{});
        hyps << data.codec().decodeTarget(d.nbest.front().tokens);
        refs << p.tgt;
    }
    const double bleu = corpusBleu(hyps, refs).score;
    auto same = [](double a, double b) { return std::abs(a - b) <= 1e-12 * std::max(1.0, std::abs(b)); };
    QVERIFY2(same(summary.value("valid_loss").toDouble(), loss.loss()),
             qPrintable(u"summary.json valid_loss %1, of the weights %2"_s.arg(summary.value("valid_loss").toDouble(), 0, 'g', 17)
                            .arg(loss.loss(), 0, 'g', 17)));
    QVERIFY2(same(summary.value("valid_accuracy").toDouble(), loss.accuracy()),
             qPrintable(u"summary.json valid_accuracy %1, of the weights %2"_s.arg(summary.value("valid_accuracy").toDouble())
                            .arg(loss.accuracy())));
    QVERIFY2(same(summary.value("valid_bleu").toDouble(), bleu),
             qPrintable(u"summary.json valid_bleu %1, of the weights %2"_s.arg(summary.value("valid_bleu").toDouble()).arg(bleu)));
    QVERIFY(same(summary.value("valid_nll").toDouble(), loss.nll()));
    QVERIFY(same(summary.value("valid_perplexity").toDouble(), std::exp(loss.nll())));
}

AS_TEST_MAIN(TestWindowCorpus)
#include "test_window_corpus.moc"
