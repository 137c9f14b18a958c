// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The window's File → Import weights… / Export weights…, and opening a corpus run's
// checkpoint: a model made elsewhere is shown in every view (inspection: no training data),
// a model trained here leaves as a weight file that holds exactly its weights; a file that
// does not fit leaves the running session untouched. Under QT_QPA_PLATFORM=offscreen.
#include "skip.h"
#include "attention_view.h"
#include "loss_view.h"
#include "main_window.h"
#include "window_runs.h"
#include "file_actions.h"
#include "settings_panel.h"
#include "view_set.h"
#include "worker_link.h"
#include "translate_view.h"

#include "io/checkpoint.h"
#include "io/interop.h"
#include "io/model_file.h"
#include "learned.h"
#include "decode/decode.h"
#include "text/dataset.h"

#include <QAction>
#include <QFile>
#include <QMenu>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace as;

class TestWindowInterop : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void fileMenuHasImportAndExport();
    void exportedWeightsAreTheModelsAndImportShowsThem();
    void bareWeightsWithPlaceholderVocabulary();
    void openedModelShowsItsConfigurationAndItsTasksRecipe();
    void badWeightFileLeavesSessionUntouched();
    void corpusCheckpointOpensForInspectionWithItsHistory();
    void decoderOnlyModelOpensAndGenerates();

private:
    std::unique_ptr<MainWindow> w_;
    QTemporaryDir dir_;
    bool waitStep(long step, int ms = 60000)
    {
        return QTest::qWaitFor([&] { return w_->currentStep() == step; }, ms);
    }
    // Imports through the worker as the menu item does once it knows heads and vocabularies.
    bool importFile(const QString& path, std::optional<int> heads = {}, bool placeholder = false)
    {
        QString error;
        const std::optional<WeightFileInfo> info = inspectWeights(path, &error);
        if (!info) {
            qWarning("%s", qPrintable(error));
            return false;
        }
        ImportOptions o;
        o.config = info->config;
        if (heads)
            o.config.heads = *heads;
        o.placeholderVocab = placeholder;
        QSignalSpy restored(w_.get(), &MainWindow::sessionRestored);
        w_->files()->importWeightsFrom(path, o);
        return restored.wait(20000) || restored.count() > 0;
    }
    QString translate(const QString& text)
    {
        QSignalSpy done(w_->views()->translate(), &ui::TranslateView::translationFinished);
        w_->views()->translate()->translate(text);
        if (!done.wait(20000) && done.isEmpty())
            return QStringLiteral("(no answer)");
        return done.takeFirst().at(0).toString();
    }
    // The attention view's decoder rows (the probe's target after "<s>") once they hold
    // the given source.
    QStringList probeTarget(const QStringList& src)
    {
        ui::AttentionView* a = w_->views()->attention();
        a->setKind(AttentionKind::Cross);
        a->setLayer(0);
        (void)QTest::qWaitFor([&] { return a->headCount() > 0 && a->colLabels(0) == src; }, 10000);
        return a->headCount() > 0 ? a->rowLabels(0) : QStringList();
    }
};

void TestWindowInterop::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(dir_.isValid());
}

void TestWindowInterop::init()
{
    w_ = std::make_unique<MainWindow>();
    w_->show();
    w_->applySettings(SessionSettings::defaultsFor("toy"));
    QVERIFY(waitStep(0));
}

void TestWindowInterop::cleanup()
{
    if (w_)
        w_->close();
    w_.reset();
}

void TestWindowInterop::fileMenuHasImportAndExport()
{
    const QList<QAction*> items = w_->fileMenu()->actions();
    QVERIFY(items.contains(w_->files()->importWeightsAction()));
    QVERIFY(items.contains(w_->files()->exportWeightsAction()));
    QCOMPARE(w_->files()->importWeightsAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_I));
    QCOMPARE(w_->files()->exportWeightsAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_E));
    QCOMPARE(items.last()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_Q));  // Quit stays last
}

void TestWindowInterop::exportedWeightsAreTheModelsAndImportShowsThem()
{
    w_->link()->step(200);
    QVERIFY(waitStep(200));
    // The exported weights are exactly those a checkpoint of the same moment holds.
    const QString ckpt = dir_.filePath("toy.ckpt"), weights = dir_.filePath("toy.safetensors");
    QVERIFY(test::saveCheckpointFromWindow(*w_, ckpt, 10000));
    QSignalSpy exported(w_->files(), &FileActions::weightsExported);
    w_->files()->exportWeightsTo(weights);
    QVERIFY(exported.wait(10000));
    QString error;
    std::optional<Checkpoint> c = loadCheckpoint(ckpt, &error);
    QVERIFY2(c, qPrintable(error));
    std::optional<ModelBundle> m = loadModel(weights, &error);
    QVERIFY2(m, qPrintable(error));
    QCOMPARE(m->config.heads, w_->settings().model.heads);
    QCOMPARE(m->srcVocab.tokens(), c->model.srcVocab.tokens());
    QCOMPARE(m->model->params().valueVector(), c->model.model->params().valueVector());

    // A fresh window imports it: every view shows that model, and it translates as trained.
    cleanup();
    init();
    QVERIFY(!w_->isInspecting());
    QVERIFY(importFile(weights));
    QVERIFY(w_->isInspecting());
    QVERIFY(!w_->playAction()->isEnabled());
    QVERIFY(!w_->stepAction()->isEnabled());
    QCOMPARE(w_->files()->currentFile(), QString());  // Ctrl+S must not overwrite the weight file
    // It translates as the engine does with the exported weights (bit-exact: the same weights,
    // the same decoding), and what the model learned in 200 steps is checked with margins
    // (tests/support/learned.h), not as an output that float rounding could tip.
    const ParallelData codec = ParallelData::fromVocabularies(m->srcVocab, m->tgtVocab, m->srcTok,
                                                              m->tgtTok, 1000);
    const std::vector<int> srcIds = codec.encodeSource(QStringLiteral("我有一个好朋友")).ids;
    const DecodeResult engine = greedyDecode(*m->model, srcIds);
    const QString got = translate(QStringLiteral("我有一个好朋友"));
    QCOMPARE(got, codec.decodeTarget(engine.nbest[0].tokens));
    const std::vector<int> tgtIds = m->tgtVocab.encode(QString("I have a good friend .").split(' '));
    const QString why = test::learnedPair(*m->model, srcIds, tgtIds, engine.nbest[0].tokens, 0.5);
    QVERIFY2(why.isEmpty(), qPrintable(got + ": " + why));
    if (test::fitOf(*m->model, srcIds, tgtIds).decided())
        QCOMPARE(got, QStringLiteral("I have a good friend."));
    // A typed probe without a target gets the model's own translation as the decoder's input.
    const QStringList src = {"我", "有", "一", "个", "好", "朋", "友"};
    w_->link()->setProbe(src, {});
    QCOMPARE(probeTarget(src), QStringList{"<s>"} + m->tgtVocab.decode(engine.nbest[0].tokens));
    QCOMPARE(w_->views()->attention()->headCount(), w_->settings().model.heads);
    // The file records the step its weights come from; stepping does nothing: there is no data.
    QCOMPARE(w_->currentStep(), 200L);
    w_->link()->step(3);
    QVERIFY(test::settled(*w_));
    QCOMPARE(w_->currentStep(), 200L);
    // Applying a task leaves inspection.
    w_->applySettings(SessionSettings::defaultsFor("toy"));
    QVERIFY(!w_->isInspecting());
    QVERIFY(w_->playAction()->isEnabled());
}

void TestWindowInterop::bareWeightsWithPlaceholderVocabulary()
{
    // Weights as PyTorch writes them: tensors only. Heads and vocabularies come from the user.
    w_->link()->step(5);
    QVERIFY(waitStep(5));
    const QString full = dir_.filePath("full.safetensors"), bare = dir_.filePath("bare.safetensors");
    QSignalSpy exported(w_->files(), &FileActions::weightsExported);
    w_->files()->exportWeightsTo(full);
    QVERIFY(exported.wait(10000));
    QString error;
    std::optional<SafetensorsFile> f = SafetensorsFile::read(full, &error);
    QVERIFY2(f, qPrintable(error));
    std::vector<std::vector<float>> data;
    std::vector<SafetensorsEntry> entries;
    data.reserve(f->tensors().size());
    for (const SafetensorsTensor& t : f->tensors()) {
        data.emplace_back(t.elements());
        f->copyValues(t, data.back().data());
        entries.push_back({t.name, t.shape, data.back().data()});
    }
    QVERIFY(writeSafetensors(bare, entries, {}, &error));
    const int heads = w_->settings().model.heads;

    const long before = w_->currentStep();
    QVERIFY(!importFile(bare, {}, true));  // no heads: refused by the worker, session as it was
    QVERIFY(!w_->isInspecting());
    QCOMPARE(w_->currentStep(), before);
    QVERIFY(w_->lastFileError().contains("heads"));

    QVERIFY(importFile(bare, heads, true));
    QVERIFY(w_->isInspecting());
    // The bare file says nothing of its training: the form shows the panel's task's recipe
    // (validations included, not "validate every 0"), and says so.
    auto* panel = w_->findChild<SettingsPanel*>();
    QVERIFY(panel);
    QVERIFY2(panel->note().contains("not recorded in a model file"), qPrintable(panel->note()));
    const SessionSettings toy = SessionSettings::defaultsFor("toy");
    QCOMPARE(panel->settings().task, QStringLiteral("toy"));
    QCOMPARE(panel->settings().evalEvery, toy.evalEvery);
    QCOMPARE(panel->settings().train.warmup, toy.train.warmup);
    QCOMPARE(panel->settings().model.heads, heads);
    // The default probe: the most frequent source tokens, named tok4, tok5, …
    const QStringList src = {"tok4", "tok5", "tok6", "tok7", "tok8", "tok9"};
    const QStringList rows = probeTarget(src);
    QCOMPARE(w_->views()->attention()->colLabels(0), src);
    QVERIFY(!rows.isEmpty());
    QCOMPARE(rows.first(), QStringLiteral("<s>"));
    for (const QString& t : rows.mid(1))
        QVERIFY2(t.startsWith("tok"), qPrintable(t));
}

void TestWindowInterop::openedModelShowsItsConfigurationAndItsTasksRecipe()
{
    // A model trained on "reverse", of a shape of its own, exported: its file records the task.
    SessionSettings trained = SessionSettings::defaultsFor("reverse");
    trained.model.d_model = 32;
    trained.model.heads = 2;
    trained.model.d_ff = 48;
    trained.model.encoder_layers = 1;
    trained.train.seed = 7;
    w_->applySettings(trained);
    QVERIFY(waitStep(0));
    w_->link()->step(3);
    QVERIFY(waitStep(3));
    const QString path = dir_.filePath("reverse.safetensors");
    QSignalSpy exported(w_->files(), &FileActions::weightsExported);
    w_->files()->exportWeightsTo(path);
    QVERIFY(exported.wait(10000));

    // A fresh window (on toy) opens it.
    cleanup();
    init();
    QVERIFY(importFile(path));
    QVERIFY(w_->isInspecting());
    auto* panel = w_->findChild<SettingsPanel*>();
    QVERIFY(panel);
    const SessionSettings shown = panel->settings();
    const SessionSettings recipe = SessionSettings::defaultsFor("reverse");
    // The model's own configuration…
    QCOMPARE(shown.model.d_model, 32);
    QCOMPARE(shown.model.heads, 2);
    QCOMPARE(shown.model.d_ff, 48);
    QCOMPARE(shown.model.encoder_layers, 1);
    // …and the recorded task's recipe for what a model file does not hold (not seed 0,
    // warm-up 400, validate every 0).
    QCOMPARE(shown.task, QStringLiteral("reverse"));
    QCOMPARE(shown.train.seed, recipe.train.seed);
    QCOMPARE(shown.train.warmup, recipe.train.warmup);
    QCOMPARE(shown.evalEvery, recipe.evalEvery);
    QCOMPARE(shown.averagePoints, recipe.averagePoints);
    QCOMPARE(shown.plannedSteps, recipe.plannedSteps);
    QVERIFY2(panel->note().contains("reverse"), qPrintable(panel->note()));
    // No step of this session was measured: no figures, not zeros.
    QVERIFY(QTest::qWaitFor([&] { return !w_->statusText().isEmpty(); }, 10000));
    const QString status = w_->statusText();
    QVERIFY2(status.contains(QStringLiteral("loss — · lr — · — tok/s")), qPrintable(status));
    QVERIFY2(!status.contains("0.0000"), qPrintable(status));

    // Apply trains that task with its validations.
    QPushButton* apply = nullptr;
    for (QPushButton* b : panel->findChildren<QPushButton*>())
        if (b->text() == SettingsPanel::tr("Apply and reset"))
            apply = b;
    QVERIFY(apply);
    apply->click();
    QVERIFY(!w_->isInspecting());
    QCOMPARE(w_->settings().task, QStringLiteral("reverse"));
    QCOMPARE(w_->settings().evalEvery, recipe.evalEvery);
    QCOMPARE(w_->settings().model.d_model, 32);
    QVERIFY(panel->note().isEmpty());
}

void TestWindowInterop::badWeightFileLeavesSessionUntouched()
{
    w_->link()->step(4);
    QVERIFY(waitStep(4));
    const QString junk = dir_.filePath("junk.safetensors");
    {
        QFile f(junk);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(8, '\xff') + QByteArray("{not json"));
    }
    ImportOptions o;
    o.config = w_->settings().model;
    QSignalSpy failed(w_.get(), &MainWindow::fileError);
    w_->files()->importWeightsFrom(junk, o);
    QVERIFY(failed.wait(10000));
    QVERIFY2(failed.first().at(0).toString().contains("junk.safetensors"),
             qPrintable(failed.first().at(0).toString()));
    QVERIFY(!w_->isInspecting());
    QCOMPARE(w_->currentStep(), 4L);
    w_->link()->step(1);  // and training goes on from where it was
    QVERIFY(waitStep(5));

    // Export into a folder that does not exist: a message, nothing else.
    QSignalSpy failedExport(w_.get(), &MainWindow::fileError);
    w_->files()->exportWeightsTo(dir_.filePath("missing/folder/w.safetensors"));
    QVERIFY(failedExport.wait(10000));
    QVERIFY(failedExport.first().at(0).toString().startsWith("The weights were not exported"));
}

void TestWindowInterop::corpusCheckpointOpensForInspectionWithItsHistory()
{
    // What attention-studio-cli train --checkpoint writes: a corpus run, with a loss history.
    const Task toy = makeBuiltinTask("toy", 3);
    ModelConfig config = SessionSettings::defaultsFor("toy").model;
    config.src_vocab = toy.srcVocab.size();
    config.tgt_vocab = toy.tgtVocab.size();
    Trainer trainer(config, TrainOptions{1.0, 50, 3});
    Rng rng(3);
    TrainingHistory history;
    for (int s = 0; s < 40; ++s) {
        const StepStats st = trainer.step(toy.nextBatch(rng));
        history.loss.push_back({st.step, 0.01 * s, st.loss.loss(), st.lr, st.loss.ntokens});
    }
    CheckpointRun run;
    run.data = QJsonObject{{"kind", "corpus"}, {"train", "/somewhere/train.tsv"}};
    const QString path = dir_.filePath("corpus.ckpt");
    QString error;
    QVERIFY2(saveCheckpoint(path, trainer, toy.srcVocab, toy.tgtVocab, toy.srcTokenizer,
                            toy.tgtTokenizer, run, history, &error),
             qPrintable(error));

    QSignalSpy restored(w_.get(), &MainWindow::sessionRestored);
    w_->files()->openCheckpoint(path);
    QVERIFY(restored.wait(10000));
    QVERIFY(w_->isInspecting());
    QVERIFY(waitStep(40));  // the snapshot with the history follows sessionRestored
    QCOMPARE(w_->views()->loss()->trainPointCount(), 40);
    QVERIFY(!w_->playAction()->isEnabled());
    QCOMPARE(w_->views()->attention()->headCount(), config.heads);

    // Saved from the window and opened again, it is still an inspection of the same model.
    const QString again = dir_.filePath("again.ckpt");
    QVERIFY(test::saveCheckpointFromWindow(*w_, again, 10000));
    std::optional<Checkpoint> a = loadCheckpoint(again, &error);
    QVERIFY2(a, qPrintable(error));
    QCOMPARE(a->run.data.value("kind").toString(), QStringLiteral("model"));
    QCOMPARE(a->model.model->params().valueVector(), trainer.model().params().valueVector());
    QCOMPARE(int(a->history.loss.size()), 40);
}

// A decoder-only model (core/SPEC.md §2.10) is not a translator the views can show: importing
// one is refused with its kind and the command that continues text with it, and the session
// goes on untouched.
// A decoder-only model's file (core/SPEC.md §2.10) imported into the window: it is looked
// inside as a translator's is, Translate is Generate, and what it generates is the engine's
// greedy decoding of the prompt with those weights.
void TestWindowInterop::decoderOnlyModelOpensAndGenerates()
{
    w_->link()->step(2);
    QVERIFY(waitStep(2));
    ModelConfig c = w_->settings().model;
    c.arch = Arch::DecoderOnly;
    c.encoder_layers = 0;
    c.tie = Tie::None;
    c.src_vocab = c.tgt_vocab = 9;
    Transformer<float> m(c);
    Rng rng(1);
    m.initXavier(rng);
    Vocab v;
    QString error;
    QVERIFY(Vocab::fromTokens({"<pad>", "<s>", "</s>", "<unk>", "a", "b", "c", "d", "e"}, &v, &error));
    const QString path = dir_.filePath("gpt.safetensors");
    QVERIFY2(saveModel(path, m, v, v, TokenizerKind::Word, TokenizerKind::Word, &error), qPrintable(error));
    QVERIFY(importFile(path, c.heads));
    QVERIFY(w_->isInspecting());
    QVERIFY(QTest::qWaitFor([&] { return w_->views()->translate()->generating(); }, 10000));
    const DecodeResult d = greedyDecode(m, std::vector<int>{v.id("a"), v.id("b")});
    QCOMPARE(translate(QStringLiteral("a b")), ParallelData::fromVocabularies(v, v, TokenizerKind::Word, TokenizerKind::Word)
                                      .decodeTarget(d.nbest.front().tokens));
    // The probe's attention: causal self-attention only.
    QVERIFY(QTest::qWaitFor([&] { return w_->views()->attention()->shownRecord() != nullptr; }, 10000));
    QVERIFY(w_->views()->attention()->shownRecord()->cross.empty());
    QCOMPARE(int(w_->views()->attention()->shownRecord()->decoderSelf.size()), c.decoder_layers);
}

AS_TEST_MAIN(TestWindowInterop)
#include "test_window_interop.moc"
