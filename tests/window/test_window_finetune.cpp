// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Fine-tuning in the window (app/window/fine_tune.h): a GPT-2 folder as the Hugging Face Hub has
// it (random weights written by the PyTorch GPT-2 of tests/reference/hub_gpt2.py, GPT-2's real
// tokenizer files), opened to look inside, is offered fine-tuning by Play; fine-tuned on lm-en
// it gives the weights `attention-studio-cli train --model FOLDER --task lm-en` gives, bit for
// bit, and Reset starts again from the folder's weights. Under QT_QPA_PLATFORM=offscreen.
#include "skip.h"
#include "file_actions.h"
#include "main_window.h"
#include "window_runs.h"
#include "worker_link.h"

#include "cli_process.h"
#include "io/model_file.h"
#include "model/parallel.h"
#include "test_files.h"

#include <QAction>
#include <QFileInfo>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace as;
using namespace Qt::StringLiterals;

class TestWindowFineTune : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void fineTunedAsTheCommandLineDoes();
    void onATextFile();

private:
    QTemporaryDir dir_;
    QString gpt2_;
};

void TestWindowFineTune::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(dir_.isValid());
    const QString script = test::testFile("reference/hub_gpt2.py");
    QVERIFY2(!script.isEmpty(), "tests/reference/hub_gpt2.py not found beside this test");
    if (!test::pythonImports(u"torch, numpy"_s))
        AS_SKIP("/usr/bin/python3 cannot import torch and numpy: install Debian's python3-torch "
                "(bash scripts/install-deps.sh --torch) to write GPT-2's files as PyTorch does");
    gpt2_ = dir_.filePath(u"gpt2"_s);
    QString error;
    QVERIFY2(test::runPython({script, gpt2_, u"--layers"_s, u"2"_s, u"--ctx"_s, u"80"_s,
                              u"--only-safetensors"_s}, &error),
             qPrintable(error));
    const QString vocab = test::testFile("data/gpt2-tokenizer/encoder.json");
    const QString merges = test::testFile("data/gpt2-tokenizer/vocab.bpe");
    QVERIFY2(!vocab.isEmpty() && !merges.isEmpty(), "tests/data/gpt2-tokenizer not found");
    QVERIFY(QFile::copy(vocab, gpt2_ + u"/vocab.json"_s));
    QVERIFY(QFile::copy(merges, gpt2_ + u"/merges.txt"_s));
}

void TestWindowFineTune::fineTunedAsTheCommandLineDoes()
{
    constexpr int kSteps = 5;
    // The command line, with its defaults but the batch (the window's dialog sets 3 too).
    const QString cliModel = dir_.filePath(u"cli.safetensors"_s);
    QVERIFY(test::runCli({u"train"_s, u"--model"_s, gpt2_, u"--task"_s, u"lm-en"_s, u"--batch"_s, u"3"_s,
                          u"--steps"_s, QString::number(kSteps), u"--threads"_s, u"2"_s, u"--out"_s, cliModel}));

    setEngineThreads(2);
    MainWindow w;
    w.show();
    QVERIFY(test::openInWindow(w, gpt2_));
    // Opened to look inside: Play offers fine-tuning, Reset has nothing to go back to.
    QVERIFY(w.isInspecting());
    QVERIFY(w.canFineTune());
    QVERIFY(w.playAction()->isEnabled());
    QCOMPARE(w.playAction()->text(), u"Fine-tune…"_s);
    QVERIFY(!w.resetAction()->isEnabled());

    FineTuneChoice choice;
    choice.windows = 3;
    choice.steps = kSteps;
    w.fineTune(choice);
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == kSteps && !w.isRunning(); }, 300000));
    QVERIFY(!w.isInspecting());
    QVERIFY(w.settings().fineTunes());
    QCOMPARE(w.settings().task, u"lm-en"_s);
    QCOMPARE(w.settings().batchSize, 3);
    QVERIFY(w.resetAction()->isEnabled());
    QCOMPARE(w.playAction()->text(), u"Play"_s);
    const QString windowModel = dir_.filePath(u"window.safetensors"_s);
    QVERIFY(test::exportFromWindow(w, windowModel));
    QVERIFY2(test::sameWeightFiles(cliModel, windowModel), "the window's fine-tuning != the command line's");

    // Reset: from the folder's weights again, the same steps give the same weights.
    w.resetAction()->trigger();
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == 0 && w.examplesShown() > 0; }, 60000));
    w.link()->step(kSteps);
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == kSteps && !w.isRunning(); }, 300000));
    const QString again = dir_.filePath(u"again.safetensors"_s);
    QVERIFY(test::exportFromWindow(w, again));
    QVERIFY2(test::sameWeightFiles(cliModel, again), "Reset did not start from the folder's weights");
    // Saved, the run opens again as a fine-tuning run (its text cut by GPT-2's tokeniser) that
    // trains on, as `train --resume` continues it.
    const QString ckpt = dir_.filePath(u"window.ckpt"_s);
    QVERIFY(test::saveCheckpointFromWindow(w, ckpt));
    w.close();
    {
        MainWindow reopened;
        reopened.show();
        QVERIFY(test::openInWindow(reopened, ckpt));
        QVERIFY(QTest::qWaitFor([&] { return reopened.currentStep() == kSteps; }, 60000));
        QVERIFY(!reopened.isInspecting());
        QVERIFY(reopened.settings().fineTunes());
        QCOMPARE(reopened.settings().baseModel, QFileInfo(gpt2_).absoluteFilePath());
        QVERIFY(reopened.settings().modelText);
        QCOMPARE(tokenizerName(reopened.settings().modelText->tokenizer), u"gpt2-bpe"_s);
        QVERIFY(!reopened.settings().modelText->sentenceStart);
        reopened.link()->step(1);
        QVERIFY(QTest::qWaitFor([&] { return reopened.currentStep() == kSteps + 1 && !reopened.isRunning(); }, 60000));
        reopened.close();
    }
    setEngineThreads(1);

    // The control: the folder's own weights are not those.
    const QString exported = dir_.filePath(u"base.safetensors"_s);
    QVERIFY(test::runCli({u"export"_s, u"--model"_s, gpt2_, u"--out"_s, exported}));
    QVERIFY(!test::sameWeightFiles(cliModel, exported));
}

// The dialog's third choice: a text file of the user's, its lines cut by GPT-2's tokeniser.
void TestWindowFineTune::onATextFile()
{
    const QString notes = dir_.filePath(u"notes.txt"_s);
    QByteArray text;
    for (int i = 0; i < 120; ++i)
        text += "Line " + QByteArray::number(i) + " of what the learner wrote down today.\n";
    QVERIFY(test::writeFile(notes, text));
    MainWindow w;
    w.show();
    QVERIFY(test::openInWindow(w, gpt2_));
    FineTuneChoice choice;
    choice.task = u"text:"_s + notes;
    choice.windows = 2;
    choice.steps = 2;
    w.fineTune(choice);
    QVERIFY2(QTest::qWaitFor([&] { return w.currentStep() == 2 && !w.isRunning(); }, 120000),
             qPrintable(w.lastFileError()));
    QCOMPARE(w.settings().task, choice.task);
    QVERIFY(w.settings().fineTunes());
    QVERIFY(w.examplesShown() > 0);
    w.close();
}

AS_TEST_MAIN(TestWindowFineTune)
#include "test_window_finetune.moc"
