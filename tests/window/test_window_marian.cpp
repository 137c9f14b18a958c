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
#include "beside_translator.h"
#include "cross_attention_panel.h"
#include "fine_tune.h"
#include "main_window.h"
#include "view_set.h"
#include "window_runs.h"

#include "cli_process.h"
#include "decode/translation_record.h"
#include "model/parallel.h"
#include "text/bundled_corpus.h"
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
    void translatesBesideAnotherModel();
    void fineTunedOnACorpusFileAsTheCommandLineDoes();

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

// View > Translate beside a model…: a second Marian folder (other weights) beside the one
// opened. Each sentence translated is translated by both; the side-by-side tab's right map is
// the other model's cross-attention (the mean of the last layer's heads, worked here from the
// record's weights), and its translation is the command line's with the same beam. A file
// that cannot be read beside, or a language model, is refused with a message and changes
// nothing.
void TestWindowMarian::translatesBesideAnotherModel()
{
    const QString other = dir_.filePath(u"opus-mt-other"_s);
    QString error;
    QVERIFY2(test::runPython({test::testFile("reference/hub_marian.py"), u"model"_s, other, u"--tokenizer"_s,
                              QFileInfo(test::testFile("data/marian-tokenizer/vocab.json")).absolutePath(),
                              u"--seed"_s, u"9"_s, u"--safetensors"_s, u"--no-bin"_s},
                             &error),
             qPrintable(error));
    auto cliTranslation = [&](const QString& sentence) {
        const test::ProcessRun run = test::runProgram(
            test::cliProgram(), {u"translate"_s, u"--model"_s, other, u"--beam"_s, u"4"_s},
            QProcessEnvironment::systemEnvironment(), sentence.toUtf8() + '\n');
        return run.exitCode == 0 ? QString::fromUtf8(run.out).chopped(1) : u"(failed) "_s + test::describeRun(u"translate"_s, run);
    };

    MainWindow w;
    w.show();
    QVERIFY(test::openInWindow(w, marian_));
    ui::TranslateView* view = w.views()->translate();
    QVERIFY(!view->hasSideBySide());
    QSignalSpy translated(view, &ui::TranslateView::translationFinished);
    view->translate(u"他每天早上跑步。"_s);
    QVERIFY(translated.wait(60000));

    // Opening it beside translates the sentence there too.
    QSignalSpy opened(w.beside(), &BesideTranslator::opened);
    w.beside()->open(other);
    QVERIFY(opened.wait(60000));
    QVERIFY(view->hasSideBySide());
    QCOMPARE(view->besideName(), u"opus-mt-other"_s);
    QVERIFY(w.beside()->closeAction()->isEnabled());
    QVERIFY(QTest::qWaitFor([&] { return view->sideB()->record() != nullptr; }, 60000));
    QCOMPARE(view->sideB()->translation(), cliTranslation(u"他每天早上跑步。"_s));
    QCOMPARE(view->sideA()->record(), view->lastRecord());
    QVERIFY(view->sideA()->translation() != view->sideB()->translation());

    // The next sentence goes to both.
    const QString sentence = u"我有一个好朋友。"_s;
    view->translate(sentence);
    QVERIFY(QTest::qWaitFor([&] {
        return !view->isBusy() && view->sideB()->record() && view->sideB()->translation() != QString()
               && view->sideB()->record() != nullptr && view->lastRecord()
               && view->sideA()->record() == view->lastRecord()
               && view->sideB()->record()->sourceTokens.join(QString()).contains(u"朋友"_s);
    }, 60000));
    QCOMPARE(view->sideB()->translation(), cliTranslation(sentence));
    const TranslationRecordPtr b = view->sideB()->record();
    QVERIFY(b->options.beam);
    QCOMPARE(b->options.k, 4);
    QVERIFY(!b->options.attribution);
    // The right map: the mean over the last layer's heads, by hand.
    const CrossAttention& ca = b->cross;
    QCOMPARE(view->sideB()->layer(), ca.layers - 1);
    QCOMPARE(view->sideB()->head(), -1);
    QCOMPARE(view->sideB()->mapShape(), QSize(ca.srcLen, ca.steps));
    QCOMPARE(ca.srcLen, int(b->sourceTokens.size()));
    for (int t = 0; t < ca.steps; ++t)
        for (int s = 0; s < ca.srcLen; ++s) {
            double sum = 0;
            for (int h = 0; h < ca.heads; ++h)
                sum += ca.weights[((std::size_t(ca.layers - 1) * ca.heads + h) * ca.steps + t) * ca.srcLen + s];
            QVERIFY(std::abs(view->sideB()->mapCell(t, s) - sum / ca.heads) < 1e-6);
        }
    // One head of the first layer.
    view->sideB()->setChoice(0, 2);
    QCOMPARE(view->sideB()->mapCell(0, 1), double(ca.at(0, 2, 0, 1)));

    // What cannot be beside: a file that is not a model, and a language model.
    QSignalSpy errors(&w, &MainWindow::fileError);
    const QString junk = dir_.filePath(u"junk.safetensors"_s);
    {
        QFile f(junk);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not a model");
    }
    w.beside()->open(junk);
    QVERIFY(errors.wait(30000));
    QVERIFY2(errors.last().first().toString().contains(u"junk.safetensors was not opened beside"_s),
             qPrintable(errors.last().first().toString()));
    const QString lm = dir_.filePath(u"lm.safetensors"_s);
    QVERIFY(test::runCli({u"train"_s, u"--task"_s, u"lm-en"_s, u"--steps"_s, u"1"_s, u"--out"_s, lm}));
    w.beside()->open(lm);
    QVERIFY(errors.wait(60000));
    QVERIFY2(errors.last().first().toString().contains(u"language model"_s), qPrintable(errors.last().first().toString()));
    QCOMPARE(w.beside()->path(), other);  // what was beside stays
    QCOMPARE(view->sideB()->record(), b);

    w.beside()->close();
    QVERIFY(!view->hasSideBySide());
    QVERIFY(!w.beside()->closeAction()->isEnabled());
}

// The fine-tuning dialog's "A corpus file of sentence pairs…": the file is read with the
// model's own tokenisers and vocabulary, and the run gives the weights
// `attention-studio-cli train --model FOLDER --data FILE` gives, bit for bit.
void TestWindowMarian::fineTunedOnACorpusFileAsTheCommandLineDoes()
{
    constexpr int kSteps = 3;
    const std::optional<BundledCorpus> zhEn = loadBundledCorpus(u"zh-en"_s);
    QVERIFY(zhEn);
    QByteArray text;
    for (const SentencePair& p : zhEn->split.train.mid(0, 400))
        text += (p.src + u'\t' + p.tgt + u'\n').toUtf8();
    const QString pairs = dir_.filePath(u"pairs.tsv"_s);
    QVERIFY(test::writeFile(pairs, text));
    const QString cliModel = dir_.filePath(u"cli-pairs.safetensors"_s);
    QVERIFY(test::runCli({u"train"_s, u"--model"_s, marian_, u"--data"_s, pairs, u"--batch-tokens"_s, u"300"_s,
                          u"--steps"_s, QString::number(kSteps), u"--threads"_s, u"2"_s, u"--out"_s, cliModel}));
    setEngineThreads(2);
    MainWindow w;
    w.show();
    QVERIFY(test::openInWindow(w, marian_));
    FineTuneChoice choice;
    choice.task = u"zh-en"_s;
    choice.corpusFile = pairs;
    choice.batchTokens = 300;
    choice.steps = kSteps;
    w.fineTune(choice);
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == kSteps && !w.isRunning(); }, 300000));
    QVERIFY(w.settings().fineTunes());
    QVERIFY(w.settings().userCorpus());
    QVERIFY(w.settings().modelText && w.settings().modelText->translator);
    QCOMPARE(tokenizerName(w.settings().corpus->srcTokenizer()), u"marian-source"_s);
    const QString windowModel = dir_.filePath(u"window-pairs.safetensors"_s);
    QVERIFY(test::exportFromWindow(w, windowModel));
    QVERIFY2(test::sameWeightFiles(cliModel, windowModel), "the window's fine-tuning on the file != the command line's");

    // A checkpoint of such a run opens as that run, read with the model's tokenisers again,
    // and goes on as `train --resume` does.
    const QString ckpt = dir_.filePath(u"pairs.ckpt"_s), cliResumed = dir_.filePath(u"cli-pairs-resumed.safetensors"_s);
    QVERIFY(test::runCli({u"train"_s, u"--model"_s, marian_, u"--data"_s, pairs, u"--batch-tokens"_s, u"300"_s,
                          u"--steps"_s, QString::number(kSteps), u"--threads"_s, u"2"_s, u"--checkpoint"_s, ckpt}));
    const QString opened = dir_.filePath(u"pairs-opened.ckpt"_s);  // --resume writes on in ckpt
    QVERIFY(QFile::copy(ckpt, opened));
    QVERIFY(test::runCli({u"train"_s, u"--resume"_s, ckpt, u"--steps"_s, QString::number(kSteps + 1), u"--threads"_s,
                          u"2"_s, u"--out"_s, cliResumed}));
    MainWindow again;
    again.show();
    QVERIFY(test::openInWindow(again, opened));
    QVERIFY2(QTest::qWaitFor([&] { return !again.isInspecting() && again.settings().userCorpus(); }, 60000),
             qPrintable(again.lastFileError()));
    QVERIFY(again.settings().fineTunes());
    QVERIFY(again.settings().modelText && again.settings().modelText->translator);
    QCOMPARE(again.currentStep(), long(kSteps));
    again.stepAction()->trigger();
    QVERIFY(QTest::qWaitFor([&] { return again.currentStep() == kSteps + 1 && !again.isRunning(); }, 60000));
    const QString windowResumed = dir_.filePath(u"window-pairs-resumed.safetensors"_s);
    QVERIFY(test::exportFromWindow(again, windowResumed));
    QVERIFY2(test::sameWeightFiles(cliResumed, windowResumed), "the window's continuation != train --resume's");
}

AS_TEST_MAIN(TestWindowMarian)
#include "test_window_marian.moc"
