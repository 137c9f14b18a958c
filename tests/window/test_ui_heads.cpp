// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The Heads view and what the window does with it:
//  - the view draws a record made by hand (cells, one colour scale, muted marks) and a click on
//    a cell asks to toggle that head;
//  - in the window, "Score heads" gives the scores `attention-studio-cli heads` prints for the
//    exported model on the same validation pairs (the CLI's JSON equals what the window shows);
//  - clicking a head mutes it: Translate then translates with it masked, and the view shows the
//    validation NLL and BLEU with the mute against without, equal to the masked model's;
//  - the pruning curve's first point is the unmasked model, its last has every head masked.
#include "skip.h"
#include "heads_view.h"
#include "neuron_view.h"
#include "head_service.h"
#include "main_window.h"
#include "heads_controller.h"
#include "view_set.h"
#include "worker_link.h"
#include "translate_view.h"

#include "eval/interpret.h"
#include "io/model_file.h"
#include "io/interop.h"
#include "file_actions.h"
#include "text/tasks.h"
#include "cli_process.h"
#include "window_runs.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace as;
using namespace Qt::StringLiterals;

class TestUiHeads : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void viewDrawsRecordsAndAsks();
    void decoderOnlyShowsItsOwnGridAlone();
    void windowScoresMutesAndPrunes();
    void openedModelScoresOnItsTasksValidationOrAFile();
    void neuronViewOfTheProbe();

private:
    QTemporaryDir dir_;
};

void TestUiHeads::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(dir_.isValid());
}

void TestUiHeads::viewDrawsRecordsAndAsks()
{
    ui::HeadsView v;
    v.resize(1200, 800);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    auto r = std::make_shared<HeadsRecord>();
    r->step = 7;
    r->encoderLayers = 2;
    r->decoderLayers = 1;
    r->heads = 2;
    r->scored = true;
    double x = 0;
    for (AttentionKind k : {AttentionKind::EncoderSelf, AttentionKind::DecoderSelf, AttentionKind::Cross})
        for (int l = 0; l < (k == AttentionKind::EncoderSelf ? 2 : 1); ++l)
            for (int h = 0; h < 2; ++h) {
                x += 1;
                r->report.heads.push_back({HeadId{k, l, h}, x, 10 * x, 0.5, 2 - 0.1 * x});
            }
    r->nll = r->nllUnmuted = 1.5;
    r->bleu = r->bleuUnmuted = 12;
    r->pairs = 3;
    v.setRecord(r);
    QCOMPARE(v.cell(AttentionKind::EncoderSelf, 1, 0), 3.0);  // importance, the default
    // Layers and heads numbered from 1, as in the attention grid.
    for (AttentionKind k : {AttentionKind::EncoderSelf, AttentionKind::Cross}) {
        const auto x = v.grid(k)->xAxis->ticker().dynamicCast<QCPAxisTickerText>();
        const auto y = v.grid(k)->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(x && y);
        QCOMPARE(x->ticks().value(0), u"1"_s);
        QCOMPARE(x->ticks().value(1), u"2"_s);
        QCOMPARE(y->ticks().value(0), u"1"_s);
    }
    QCOMPARE(v.cell(AttentionKind::Cross, 0, 1), 8.0);
    v.setScore(ui::HeadsView::Score::DeltaNll);
    QCOMPARE(v.cell(AttentionKind::DecoderSelf, 0, 1), 60.0);
    QVERIFY(v.summary().contains(u"no head muted"_s));
    v.setMuted({HeadId{AttentionKind::Cross, 0, 1}});
    QVERIFY(v.isMutedShown(HeadId{AttentionKind::Cross, 0, 1}));
    QVERIFY(!v.isMutedShown(HeadId{AttentionKind::Cross, 0, 0}));
    // A record with mutes but no scores keeps the scores and shows the figures.
    auto figures = std::make_shared<HeadsRecord>(*r);
    figures->scored = false;
    figures->report = {};
    figures->muted = {HeadId{AttentionKind::Cross, 0, 1}};
    figures->nll = 1.75;
    figures->bleu = 9.5;
    v.setRecord(figures);
    QCOMPARE(v.cell(AttentionKind::DecoderSelf, 0, 1), 60.0);
    QVERIFY2(v.summary().contains(u"+0.2500"_s) && v.summary().contains(u"-2.50"_s), qPrintable(v.summary()));
    // A click on a cell asks for that head.
    QSignalSpy toggled(&v, &ui::HeadsView::headToggled);
    ui::replotQueuedNow();
    QCustomPlot* grid = v.grid(AttentionKind::EncoderSelf);
    QTest::mouseClick(grid, Qt::LeftButton, {}, v.cellCentre(AttentionKind::EncoderSelf, 1, 1));
    QCOMPARE(toggled.size(), 1);
    QVERIFY((toggled.first().first().value<HeadId>() == HeadId{AttentionKind::EncoderSelf, 1, 1}));
}

void TestUiHeads::windowScoresMutesAndPrunes()
{
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    SessionSettings s = SessionSettings::defaultsFor(u"toy"_s);
    w.applySettings(s);
    QVERIFY(QTest::qWaitFor([&] { return w.examplesShown() > 0; }, 20000));
    w.link()->step(80);
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == 80 && !w.isRunning(); }, 60000));
    const QString model = dir_.filePath(u"toy.safetensors"_s);
    QVERIFY(test::exportFromWindow(w, model));

    // Score heads, as the button does.
    QSignalSpy scored(w.heads()->service(), &HeadService::scored);
    emit w.views()->heads()->scoreRequested();
    QVERIFY(scored.wait(60000));
    const HeadsRecordPtr r = w.views()->heads()->record();
    QVERIFY(r && r->scored);
    QCOMPARE(r->step, 80L);
    QCOMPARE(int(r->report.heads.size()), (2 + 2 + 2) * 4);

    // The command line on the exported model and the same validation pairs.
    const Task toy = makeToyTask();
    QByteArray tsv;
    for (const TokenPair& p : toy.validation)
        tsv += (detokenize(toy.srcTokenizer, p.src) + u'\t' + detokenize(toy.tgtTokenizer, p.tgt) + u'\n').toUtf8();
    const QString data = dir_.filePath(u"valid.tsv"_s);
    QFile f(data);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(tsv);
    f.close();
    QProcess cli;
    cli.start(test::cliProgram(), {u"heads"_s, u"--model"_s, model, u"--data"_s, data, u"--json"_s,
                                   u"--threads"_s, QString::number(engineThreads())});
    QVERIFY(cli.waitForFinished(120000));
    const QJsonObject o = QJsonDocument::fromJson(cli.readAllStandardOutput()).object();
    QCOMPARE(o.value("pairs").toInt(), r->pairs);
    QCOMPARE(o.value("nll").toDouble(), r->report.nll);
    const QJsonArray heads = o.value("heads").toArray();
    QCOMPARE(heads.size(), qsizetype(r->report.heads.size()));
    for (qsizetype i = 0; i < heads.size(); ++i) {
        const QJsonObject h = heads[i].toObject();
        const HeadScore& s = r->report.heads[std::size_t(i)];
        QCOMPARE(h.value("importance").toDouble(), s.importance);
        QCOMPARE(h.value("delta_nll").toDouble(), s.deltaNll);
        QCOMPARE(h.value("confidence").toDouble(), s.confidence);
        QCOMPARE(h.value("entropy").toDouble(), s.entropy);
        // … and the grid shows it.
        QCOMPARE(w.views()->heads()->cell(s.id.kind, s.id.layer, s.id.head), s.importance);
    }

    // Mute the most important cross-attention head by clicking it.
    HeadId top{AttentionKind::Cross, 0, 0};
    double best = -1;
    for (const HeadScore& s : r->report.heads)
        if (s.id.kind == AttentionKind::Cross && s.importance > best) {
            best = s.importance;
            top = s.id;
        }
    w.views()->showView(w.views()->heads());
    ui::replotQueuedNow();
    scored.clear();
    QTest::mouseClick(w.views()->heads()->grid(top.kind), Qt::LeftButton, {},
                      w.views()->heads()->cellCentre(top.kind, top.layer, top.head));
    QCOMPARE(w.heads()->mutedHeads(), std::vector<HeadId>{top});
    QVERIFY(w.views()->heads()->isMutedShown(top));
    QVERIFY(scored.wait(60000));
    const HeadsRecordPtr m = scored.last().first().value<HeadsRecordPtr>();
    QVERIFY(!m->scored);
    QCOMPARE(m->muted, std::vector<HeadId>{top});
    // The figures are those of the exported model with that head masked.
    QString error;
    std::optional<ModelBundle> b = loadModel(model, &error);
    QVERIFY2(b, qPrintable(error));
    const ParallelData codec = ParallelData::fromVocabularies(b->srcVocab, b->tgtVocab, b->srcTok, b->tgtTok);
    QList<SentencePair> text;
    for (const TokenPair& p : toy.validation)
        text.append({detokenize(toy.srcTokenizer, p.src), detokenize(toy.tgtTokenizer, p.tgt), 0});
    const std::vector<EncodedPair> pairs = codec.encode(text).pairs;
    const double unmutedNll = evaluateLoss(*b->model, pairs, 2000).nll();
    maskHeads(*b->model, {top});
    QCOMPARE(m->nll, evaluateLoss(*b->model, pairs, 2000).nll());
    QCOMPARE(m->nllUnmuted, unmutedNll);
    QCOMPARE(m->bleu, translateAndScore(*b->model, codec, text).bleu);
    QVERIFY(m->nll != m->nllUnmuted);  // the mute changes the model
    QVERIFY(w.views()->heads()->summary().contains(u"1 head(s) muted"_s));

    // Translate uses the mute.
    QSignalSpy translated(w.views()->translate(), &ui::TranslateView::translationFinished);
    w.views()->translate()->translate(text[0].src);
    QVERIFY(translated.wait(30000));
    QCOMPARE(w.views()->translate()->lastRecord()->options.masked, std::vector<HeadId>{top});
    const std::vector<int> ids = codec.encodeSource(text[0].src).ids;
    QCOMPARE(w.views()->translate()->lastTranslation(),
             codec.decodeTarget(greedyDecode(*b->model, ids).nbest[0].tokens));

    // The pruning curve: from nothing masked to everything masked.
    QSignalSpy pruned(w.heads()->service(), &HeadService::pruned);
    emit w.views()->heads()->pruningRequested();
    QVERIFY(QTest::qWaitFor([&] {
        return !pruned.isEmpty() && pruned.last().first().value<PruningRecordPtr>()->finished;
    }, 120000));
    const PruningRecordPtr p = pruned.last().first().value<PruningRecordPtr>();
    QCOMPARE(p->curve.points.front().masked, 0);
    QCOMPARE(p->curve.points.back().masked, 24);
    QCOMPARE(p->curve.points.front().nll, unmutedNll);
    QVERIFY(p->curve.points.back().nll > p->curve.points.front().nll);

    // Unmute all: nothing masked any more.
    emit w.views()->heads()->unmuteAllRequested();
    QVERIFY(w.heads()->mutedHeads().empty());

    // Translate explains its output: choosing integrated gradients translates again with the
    // attributions, and the grid draws the record's scores.
    w.views()->translate()->setExplanation(4);
    QVERIFY(QTest::qWaitFor([&] {
        const TranslationRecordPtr r = w.views()->translate()->lastRecord();
        return r && r->options.attribution && !w.views()->translate()->isBusy();
    }, 60000));
    const TranslationRecordPtr tr = w.views()->translate()->lastRecord();
    QCOMPARE(int(tr->attributions.size()), 4);
    const AttributionMap& ig = tr->attributions[3];
    QCOMPARE(ig.method, u"ig"_s);
    QVERIFY(!ig.scores.empty());
    for (std::size_t t = 0; t < ig.scores.size(); ++t)
        for (std::size_t i = 0; i < ig.scores[t].size(); ++i)
            QCOMPARE(w.views()->translate()->gridCell(int(t), int(i)), ig.scores[t][i]);
    QVERIFY2(w.views()->translate()->attributionInfo().contains(u"Completeness"_s), qPrintable(w.views()->translate()->attributionInfo()));
    // Switching to rollout needs no new translation.
    w.views()->translate()->setExplanation(2);
    QCOMPARE(w.views()->translate()->gridCell(0, 0), tr->attributions[1].scores[0][0]);
    w.close();
}

// The neuron view in the Attention tab: asked for a head and query, the worker answers for the
// probe with the current weights; the record's softmax is its scores', the products sum to the
// scores, and in the first encoder layer the five terms (drawn as bars) sum to them too.
void TestUiHeads::openedModelScoresOnItsTasksValidationOrAFile()
{
    // A model trained on toy, exported: its file records the task, not its data.
    const QString model = dir_.filePath(u"opened.safetensors"_s);
    {
        MainWindow trained;
        trained.applySettings(SessionSettings::defaultsFor(u"toy"_s));
        trained.link()->step(10);
        QVERIFY(QTest::qWaitFor([&] { return trained.currentStep() == 10 && !trained.isRunning(); }, 60000));
        QVERIFY(test::exportFromWindow(trained, model));
        trained.close();
    }
    MainWindow w;
    w.show();
    QString error;
    const std::optional<WeightFileInfo> info = inspectWeights(model, &error);
    QVERIFY2(info, qPrintable(error));
    ImportOptions o;
    o.config = info->config;
    QSignalSpy restored(&w, &MainWindow::sessionRestored);
    w.files()->importWeightsFrom(model, o);
    QVERIFY(restored.wait(20000) || !restored.isEmpty());
    QVERIFY(w.isInspecting());

    // Score heads: on the toy task's validation split, which the model's record names (not
    // "No validation pairs to score heads on").
    const Task toy = makeToyTask();
    QSignalSpy scored(w.heads()->service(), &HeadService::scored);
    QSignalSpy refused(w.heads()->service(), &HeadService::refused);
    emit w.views()->heads()->scoreRequested();
    QVERIFY2(scored.wait(60000), refused.isEmpty() ? "" : qPrintable(refused.first().first().toString()));
    HeadsRecordPtr r = scored.last().first().value<HeadsRecordPtr>();
    QVERIFY(r->scored);
    QCOMPARE(r->pairs, int(toy.validation.size()));
    QCOMPARE(int(r->report.heads.size()), (2 + 2 + 2) * 4);
    QVERIFY(w.heads()->service()->source().label.contains(u"toy"_s));

    // Score on… a corpus file: its pairs, as `heads --data` reads them.
    const QString data = dir_.filePath(u"two.tsv"_s);
    QFile f(data);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(QStringLiteral("我有一个好朋友\tI have a good friend.\n他是学生\tHe is a student.\n").toUtf8());
    f.close();
    scored.clear();
    QVERIFY(w.heads()->scoreOn(data));
    QVERIFY(scored.wait(60000));
    r = scored.last().first().value<HeadsRecordPtr>();
    QVERIFY(r->scored);
    QCOMPARE(r->pairs, 2);
    // A file that is not there: said in the view, nothing scored.
    QVERIFY(!w.heads()->scoreOn(dir_.filePath(u"missing.tsv"_s)));
}

void TestUiHeads::neuronViewOfTheProbe()
{
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    w.applySettings(SessionSettings::defaultsFor(u"toy"_s));
    QVERIFY(QTest::qWaitFor([&] { return w.examplesShown() > 0; }, 20000));
    w.link()->step(30);
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == 30 && !w.isRunning(); }, 60000));
    ui::NeuronPanel* panel = w.views()->neuron();
    for (const auto& [kind, layer] : {std::pair{AttentionKind::EncoderSelf, 0}, std::pair{AttentionKind::Cross, 1}}) {
        const NeuronRecordPtr before = panel->record();
        panel->choose(kind, layer, 1, 2);
        QVERIFY(QTest::qWaitFor([&] { return panel->record() && panel->record() != before; }, 20000));
        const NeuronRecordPtr r = panel->record();
        QCOMPARE(r->kind, kind);
        QCOMPARE(r->head, 1);
        // Shown from 1, as in the attention grid: layer `layer` is "layer layer+1", head 1 "head 2".
        const QList<QSpinBox*> spins = panel->findChildren<QSpinBox*>();
        QCOMPARE(spins.size(), qsizetype(2));
        QCOMPARE(spins[0]->text(), u"layer %1"_s.arg(layer + 1));
        QCOMPARE(spins[1]->text(), u"head 2"_s);
        QCOMPARE(r->query, 2);
        QCOMPARE(r->step, 30L);
        const NeuronView& v = r->view;
        QCOMPARE(int(v.keys.size()), int(r->keyTokens.size()));
        double z = 0;
        for (double x : v.scores)
            z += std::exp(x);
        const double scale = 1.0 / std::sqrt(double(v.query.size()));
        for (std::size_t j = 0; j < v.scores.size(); ++j) {
            QVERIFY(std::abs(std::exp(v.scores[j]) / z - v.probs[j]) < 1e-5);
            double dot = 0;
            for (double x : v.products[j])
                dot += x;
            QVERIFY(std::abs(dot * scale - v.scores[j]) < 1e-5);
            QCOMPARE(panel->product(int(j), 0), v.products[j][0]);
        }
        QCOMPARE(r->terms.empty(), kind != AttentionKind::EncoderSelf);
        if (!r->terms.empty()) {
            const ScoreTerms& t = r->terms[1];
            for (int j = 0; j < int(v.scores.size()); ++j) {
                const double sum = t.tokenToken(2, j) + t.tokenPosition(2, j) + t.positionToken(2, j)
                                   + t.positionPosition(2, j) + t.bias(2, j);
                QVERIFY2(std::abs(sum - v.scores[std::size_t(j)]) < 1e-4, qPrintable(QString::number(sum - v.scores[std::size_t(j)])));
                QCOMPARE(panel->termBar(3, j), t.positionPosition(2, j));
            }
            QVERIFY2(panel->shares().contains(u"head 1"_s), qPrintable(panel->shares()));
        }
    }
    w.close();
}

// A decoder-only model has one kind of attention: the Heads view shows its decoder's grid alone
// (not two empty ones beside it), and a pruning curve without BLEU from the start, over all of
// its layers' heads; a translator's shape brings the three grids and BLEU back.
void TestUiHeads::decoderOnlyShowsItsOwnGridAlone()
{
    ui::HeadsView view;
    view.resize(1000, 700);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QCustomPlot* pruning = view.pruningPlot();
    const auto legendHas = [pruning](QCPAbstractPlottable* p) { return pruning->legend->hasItemWithPlottable(p); };
    for (int round = 0; round < 2; ++round) {
        view.setShape(2, 2, 4);  // a translator: 2 x 4 heads of each of three kinds
        for (AttentionKind k : kAttentionKinds)
            QVERIFY(view.grid(k)->isVisibleTo(&view));
        QVERIFY(pruning->graph(0)->visible() && legendHas(pruning->graph(0)));
        QVERIFY(pruning->yAxis->visible());
        QCOMPARE(pruning->xAxis->range().upper, 24.5);

        view.setShape(0, 4, 8);  // a decoder-only model: 4 layers of 8 heads
        QVERIFY(!view.grid(AttentionKind::EncoderSelf)->isVisibleTo(&view));
        QVERIFY(!view.grid(AttentionKind::Cross)->isVisibleTo(&view));
        QVERIFY(view.grid(AttentionKind::DecoderSelf)->isVisibleTo(&view));
        QVERIFY(!pruning->graph(0)->visible() && !legendHas(pruning->graph(0)));
        QVERIFY(!pruning->yAxis->visible());
        QVERIFY(pruning->graph(1)->visible() && legendHas(pruning->graph(1)));
        QCOMPARE(pruning->xAxis->range().upper, 32.5);
    }
}

AS_TEST_MAIN(TestUiHeads)
#include "test_ui_heads.moc"
