// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// A Marian (OPUS-MT) folder as the Hugging Face Hub has it (random weights written by the
// PyTorch MarianMTModel of tests/reference/hub_marian.py, the tokenizer of
// tests/data/marian-tokenizer) opened in the window: the Translate view starts from the beam
// of the config's num_beams and gives the translation the command line gives with it, cut by Marian's tokenizer (the source ends with </s>), with the
// cross-attention of every layer and head behind it; Play offers fine-tuning on the bundled
// zh-en pairs, which gives the weights `attention-studio-cli train --model FOLDER --task zh-en`
// gives, bit for bit. Under QT_QPA_PLATFORM=offscreen.
#include "skip.h"
#include "fine_tune.h"
#include "main_window.h"
#include "view_set.h"
#include "window_runs.h"

#include "cli_process.h"
#include "decode/translation_record.h"
#include "model/parallel.h"
#include "text/lm_tasks.h"
#include "text/tokenizer.h"
#include "test_files.h"
#include "translate_view.h"

#include <QAction>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace as;
using namespace Qt::StringLiterals;

class TestWindowMarian : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void translatesAsTheCommandLine();
    void fineTunedAsTheCommandLineDoes();

private:
    QTemporaryDir dir_;
    QString marian_;
};

void TestWindowMarian::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(dir_.isValid());
    const QString script = test::testFile("reference/hub_marian.py");
    const QString vocab = test::testFile("data/marian-tokenizer/vocab.json");
    QVERIFY2(!script.isEmpty() && !vocab.isEmpty(), "tests/reference/hub_marian.py or tests/data/marian-tokenizer not found");
    if (!test::pythonImports(u"torch, numpy, sentencepiece"_s))
        AS_SKIP("/usr/bin/python3 cannot import torch, numpy and sentencepiece: install Debian's python3-torch and "
                "python3-sentencepiece (bash scripts/install-deps.sh --torch) to write Marian's files as PyTorch does");
    marian_ = dir_.filePath(u"opus-mt"_s);
    QString error;
    QVERIFY2(test::runPython({script, u"model"_s, marian_, u"--tokenizer"_s, QFileInfo(vocab).absolutePath(),
                              u"--seed"_s, u"4"_s},
                             &error),
             qPrintable(error));
}

void TestWindowMarian::translatesAsTheCommandLine()
{
    const QString sentence = u"他每天早上跑步。"_s;
    // The folder's config.json asks for num_beams 4 (as opus-mt-zh-en's does): the view starts
    // with that beam, as transformers' generate() does.
    const test::ProcessRun cli = test::runProgram(test::cliProgram(), {u"translate"_s, u"--model"_s, marian_, u"--beam"_s, u"4"_s},
                                                  QProcessEnvironment::systemEnvironment(), sentence.toUtf8() + '\n');
    QVERIFY2(cli.exitCode == 0, qPrintable(test::describeRun(u"translate"_s, cli)));

    MainWindow w;
    w.show();
    QVERIFY(test::openInWindow(w, marian_));
    QVERIFY(w.isInspecting());

    ui::TranslateView* view = w.views()->translate();
    QSignalSpy translated(view, &ui::TranslateView::translationFinished);
    view->translate(sentence);
    QVERIFY(translated.wait(60000));
    QCOMPARE(view->lastTranslation(), QString::fromUtf8(cli.out).chopped(1));
    const TranslationRecordPtr r = view->lastRecord();
    QVERIFY(r && !r->nbest.empty());
    QVERIFY(r->options.beam);
    QCOMPARE(r->options.k, 4);
    QCOMPARE(r->sourceTokens.last(), u"</s>"_s);  // MarianTokenizer's input ids end with </s>
    QVERIFY(r->sourceTokens.first().startsWith(u"▁"_s));
    // The cross-attention behind it: 2 layers × 4 heads, one row per output step over the
    // source's tokens.
    QCOMPARE(r->cross.layers, 2);
    QCOMPARE(r->cross.heads, 4);
    QCOMPARE(r->cross.steps, int(r->outputSteps.size()));
    QCOMPARE(r->cross.srcLen, int(r->sourceTokens.size()));
    double rowSum = 0;
    for (int s = 0; s < r->cross.srcLen; ++s)
        rowSum += r->cross.at(1, 3, 0, s);
    QVERIFY(std::abs(rowSum - 1.0) < 1e-5);  // a softmax row
}

void TestWindowMarian::fineTunedAsTheCommandLineDoes()
{
    constexpr int kSteps = 4;
    const QString cliModel = dir_.filePath(u"cli.safetensors"_s);
    QVERIFY(test::runCli({u"train"_s, u"--model"_s, marian_, u"--task"_s, u"zh-en"_s, u"--batch-tokens"_s, u"300"_s,
                          u"--steps"_s, QString::number(kSteps), u"--threads"_s, u"2"_s, u"--out"_s, cliModel}));
    setEngineThreads(2);
    MainWindow w;
    w.show();
    QVERIFY(test::openInWindow(w, marian_));
    QVERIFY(w.canFineTune());
    QVERIFY(w.playAction()->isEnabled());
    QCOMPARE(w.playAction()->text(), u"Fine-tune…"_s);
    FineTuneChoice choice;  // its language-model task is not a translator's: zh-en is taken
    choice.batchTokens = 300;
    choice.steps = kSteps;
    w.fineTune(choice);
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == kSteps && !w.isRunning(); }, 300000));
    QVERIFY(w.settings().fineTunes());
    QCOMPARE(w.settings().task, u"zh-en"_s);
    QCOMPARE(w.settings().batchTokens, 300);
    QVERIFY(w.settings().modelText && w.settings().modelText->translator);
    QCOMPARE(tokenizerName(w.settings().modelText->srcTokenizer), u"marian-source"_s);
    const QString windowModel = dir_.filePath(u"window.safetensors"_s);
    QVERIFY(test::exportFromWindow(w, windowModel));
    QVERIFY2(test::sameWeightFiles(cliModel, windowModel), "the window's fine-tuning != the command line's");
}

AS_TEST_MAIN(TestWindowMarian)
#include "test_window_marian.moc"
