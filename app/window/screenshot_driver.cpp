// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// attention-studio --screenshot: trains a task or a corpus (or opens a file) in the window
// without showing it, then writes one PNG per view; and the choice of mode (runDriver).
#include "screenshot_driver.h"

#include "model_view.h"
#include "health_view.h"
#include "lesson_actions.h"
#include "run/lesson.h"

#include "driver_tools.h"
#include "language.h"
#include "theme.h"

#include "attention_view.h"
#include "comparison_actions.h"
#include "corpus_actions.h"
#include "decoding_view.h"
#include "tokens_view.h"
#include "embedding_view.h"
#include "file_actions.h"
#include "head_service.h"
#include "heads_controller.h"
#include "heads_view.h"
#include "head_dynamics_view.h"
#include "lr_view.h"
#include "main_window.h"
#include "neuron_view.h"
#include "plot_tools.h"
#include "probe_bar.h"
#include "run_comparer.h"
#include "translate_view.h"
#include "view_set.h"
#include "worker_link.h"

#include "decode/translation_record.h"
#include "eval/attention_stats.h"
#include "eval/interpret.h"
#include "io/atomic_file.h"
#include "model/parallel.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTabWidget>
#include <QTimer>
#include <qcustomplot.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <optional>
#include <vector>

namespace as::driver {

QSize& shotSize()
{
    static QSize size(1400, 900);
    return size;
}

bool openShown(as::MainWindow& w, const QString& file)
{
    w.resize(shotSize());
    w.show();
    bool opened = false, failed = false;
    QObject::connect(&w, &as::MainWindow::sessionRestored, &w, [&] { opened = true; });
    QObject::connect(&w, &as::MainWindow::fileError, &w, [&](const QString& m) {
        std::fprintf(stderr, "attention-studio: %s\n", qPrintable(m));
        failed = true;
    });
    w.files()->openFile(file);
    if (!waitFor([&] { return opened || failed; }, 120000) || failed)
        return false;
    return true;
}

}  // namespace as::driver

namespace {

using namespace as::driver;

// The Attention tab shown, with the neuron view of the probe filled in (the worker answers).
void showNeuronView(as::MainWindow& w)
{
    w.views()->showView(w.views()->attentionPage());
    w.views()->neuron()->refresh();
    waitFor([&] { return w.views()->neuron()->record() && w.views()->neuron()->record()->step == w.currentStep(); }, 10000);
}

// --compare FILE…: each run drawn beside the current one, as View > Compare with run… does,
// waited for. False (with the message printed) when one is refused.
bool compareForScreenshot(as::MainWindow& w, const QStringList& files)
{
    QString failed;
    const auto connection = QObject::connect(w.comparisons()->runComparer(), &as::RunComparer::failed, &w,
                                             [&](const QString& m) { failed = m; });
    for (const QString& f : files)
        w.comparisons()->compareWith(f);
    waitFor([&] { return !failed.isEmpty() || !w.comparisons()->runComparer()->busy(); }, 120000);
    QObject::disconnect(connection);
    if (!failed.isEmpty() || w.comparisons()->runComparer()->busy()) {
        std::fprintf(stderr, "attention-studio: %s\n", qPrintable(failed.isEmpty() ? QStringLiteral("--compare timed out") : failed));
        return false;
    }
    for (const as::RunSeriesPtr& r : w.comparisons()->runComparer()->runs())
        std::printf("attention-studio: compared with %s (%zu steps, %zu validations)\n",
                    qPrintable(r->name), r->loss.size(), r->eval.size());
    return true;
}

// The Embeddings tab with the current weights, the most frequent word's neighbours listed;
// the tab shown before is shown again.
void showEmbeddings(as::MainWindow& w)
{
    as::ui::EmbeddingView* v = w.views()->embedding();
    QWidget* const shown = w.views()->currentView();
    w.views()->showView(v);
    v->refresh();
    waitFor([&] { return v->record() && v->record()->step == w.currentStep(); }, 10000);
    if (v->record() && v->record()->vocabSize > as::Vocab::kSpecials) {
        v->selectToken(as::Vocab::kSpecials);
        waitFor([&] { return v->neighbours() && v->neighbours()->id == as::Vocab::kSpecials; }, 10000);
    }
    w.views()->showView(shown);
}

// The Model tab with the probe traced through the current weights, the first decoder layer's
// cross-attention selected (the block the README shows); the tab shown before is shown again.
void showModelView(as::MainWindow& w)
{
    as::ui::ModelView* v = w.views()->model();
    QWidget* const shown = w.views()->currentView();
    w.views()->showView(v);
    // A trace made now (of the probe shown now), not one from an earlier visit.
    const std::shared_ptr<const as::TraceRecord> before = v->record();
    waitFor([&] { return v->record() && v->record() != before && v->record()->step == w.currentStep(); }, 10000);
    v->selectBlock(as::ui::ModelBlock::DecCross);
    w.views()->showView(shown);
}

// The Decoding tab with the probe's record of the current weights, at the step where the
// free-running and teacher-forced runs part (the last step when they do not); the tab shown
// before is shown again.
void showDecoding(as::MainWindow& w)
{
    as::ui::DecodingView* v = w.views()->decoding();
    QWidget* const shown = w.views()->currentView();
    w.views()->showView(v);
    waitFor([&] { return v->record() && v->record()->step == w.currentStep(); }, 20000);
    if (v->record())
        v->setStep(v->record()->divergence >= 0 ? v->record()->divergence : v->stepCount() - 1);
    w.views()->showView(shown);
}

// The Tokens tab with its record of the session's corpus, with a sentence typed (a session of
// no corpus shows why there is none); the tab shown before is shown again.
void showTokens(as::MainWindow& w)
{
    as::ui::TokensView* v = w.views()->tokens();
    QWidget* const shown = w.views()->currentView();
    v->typedEdit()->setText(QStringLiteral("Unbelievably, the newest printers were unboxed."));
    w.views()->showView(v);
    QCoreApplication::processEvents();
    waitFor([&] { return !v->busy(); }, 300000);
    w.views()->showView(shown);
}

// Writes DIR/beam-tree.png: the Translate tab with `sentence` translated by beam search of width
// 3 (n-best 3) and its tree shown, the best hypothesis's last node selected (its prefix's
// cross-attention below). After the views' pictures: the Translate tab is left as it is then.
bool saveBeamTreePng(as::MainWindow& w, const QString& dir, const QString& sentence, QString* error)
{
    as::ui::TranslateView* v = w.views()->translate();
    bool done = false;
    const QMetaObject::Connection c = QObject::connect(v, &as::ui::TranslateView::translationFinished, &w,
                                                       [&] { done = true; });
    v->setDecoding(true, 3, 3);
    v->translate(sentence);
    waitFor([&] { return done && v->lastRecord() && !v->isBusy(); }, 60000);
    QObject::disconnect(c);
    if (!v->lastRecord() || v->lastRecord()->tree.empty()) {
        *error = QStringLiteral("no beam tree for %1").arg(sentence);
        return false;
    }
    v->showBeamTree();
    w.resize(1400, 900);
    w.views()->showView(v);
    QCoreApplication::processEvents();
    as::ui::replotQueuedNow();
    const QString path = QDir(dir).filePath(QStringLiteral("beam-tree.png"));
    if (!v->grab().save(path, "PNG")) {
        *error = QStringLiteral("cannot write %1").arg(path);
        return false;
    }
    return true;
}

// Writes DIR/model-replay.png: the Attention view's replay slider moved to the middle of the
// training run, and the Model tab following it (the first decoder layer's cross-attention);
// then both live again. Needs the traces of the run (the Model tab shown while training).
bool saveModelReplayPng(as::MainWindow& w, const QString& dir, QString* error)
{
    as::ui::AttentionView* a = w.views()->attention();
    as::ui::ModelView* m = w.views()->model();
    if (a->historySize() < 2 || m->historySize() < 2)
        return true;  // nothing to replay
    a->replayTo(a->historySize() / 2);
    m->selectBlock(as::ui::ModelBlock::DecCross);
    w.views()->showView(m);
    QCoreApplication::processEvents();
    as::ui::replotQueuedNow();
    const QString path = QDir(dir).filePath(QStringLiteral("model-replay.png"));
    const bool saved = m->grab().save(path, "PNG");
    std::printf("attention-studio: model-replay.png: the Attention view replayed at step %ld "
                "(%d of %d records), the Model view at step %ld (%d of %d traces)\n",
                a->shownStep(), a->shownHistoryIndex() + 1, a->historySize(), m->shownStep(),
                m->shownHistoryIndex() + 1, m->historySize());
    a->replayTo(a->historySize() - 1);
    if (!saved)
        *error = QStringLiteral("cannot write %1").arg(path);
    return saved;
}

// Writes DIR/health-time.png: the Health view with its "Time per step" tab, where the run's
// training steps spent their time.
bool saveHealthTimePng(as::MainWindow& w, const QString& dir, QString* error)
{
    as::ui::HealthView* h = w.views()->health();
    w.views()->showView(h);
    h->showTimePerStep(true);
    QCoreApplication::processEvents();
    as::ui::replotQueuedNow();
    const QString path = QDir(dir).filePath(QStringLiteral("health-time.png"));
    const bool saved = h->grab().save(path, "PNG");
    h->showTimePerStep(false);
    if (!saved)
        *error = QStringLiteral("cannot write %1").arg(path);
    return saved;
}

// Writes the views of the model in `file` (a checkpoint or a weight file) as it is, with
// `sentence` (if given) as the probe and in Translate.
int screenshotsOfFile(as::MainWindow& w, const QString& dir, const QString& file,
                      const QString& sentence, int explain, const QStringList& compare)
{
    w.setAttribute(Qt::WA_DontShowOnScreen);
    if (!openShown(w, file))
        return 1;
    showEmbeddings(w);
    if (!sentence.isEmpty()) {
        bool done = false;
        const QMetaObject::Connection c = QObject::connect(
            w.views()->translate(), &as::ui::TranslateView::translationFinished, &w, [&] { done = true; });
        w.views()->translate()->setExplanation(explain);
        w.views()->translate()->translate(sentence);
        waitFor([&] {
            const as::TranslationRecordPtr r = w.views()->translate()->lastRecord();
            return done && r && (explain == 0 || r->options.attribution) && !w.views()->translate()->isBusy();
        }, 60000);
        QObject::disconnect(c);
        w.views()->probes()->setText(sentence);
        QCoreApplication::processEvents();
        waitFor([&] { return false; }, 500);  // the probe's snapshot
        showNeuronView(w);
    }
    showModelView(w);  // of the probe sentence
    showDecoding(w);
    showTokens(w);
    if (!compareForScreenshot(w, compare))
        return 1;
    QString error;
    if (!w.files()->saveViewPngs(dir, &error)
        || (!sentence.isEmpty() && !saveBeamTreePng(w, dir, sentence, &error))) {
        std::fprintf(stderr, "attention-studio: %s\n", qPrintable(error));
        return 1;
    }
    std::printf("attention-studio: wrote the views of %s into %s\n", qPrintable(file), qPrintable(dir));
    return 0;
}

// --screenshot --heads: Score heads, the pruning curve, then the least important half muted
// (as clicks do), each waited for; prints what it found.
bool scoreHeadsForScreenshot(as::MainWindow& w)
{
    as::ui::HeadsView* v = w.views()->heads();
    bool scored = false, pruned = false, figures = false;
    QString refused;
    QObject::connect(w.heads()->service(), &as::HeadService::refused, &w, [&](const QString& m) { refused = m; });
    QObject::connect(w.heads()->service(), &as::HeadService::scored, &w, [&](const as::HeadsRecordPtr& r) {
        (r->scored ? scored : figures) = true;
    });
    QObject::connect(w.heads()->service(), &as::HeadService::pruned, &w, [&](const as::PruningRecordPtr& r) {
        pruned = pruned || r->finished;
    });
    emit v->scoreRequested();
    if (!waitFor([&] { return scored || !refused.isEmpty(); }, 3600000) || !scored) {
        std::fprintf(stderr, "attention-studio: heads not scored: %s\n", qPrintable(refused));
        return false;
    }
    const as::HeadsRecordPtr r = v->record();
    const std::vector<as::HeadId> order = as::headsByImportance(r->report);
    QStringList most, least;
    for (std::size_t i = 0; i < 5 && i < order.size(); ++i) {
        least << as::headSpec({order[i]});
        most << as::headSpec({order[order.size() - 1 - i]});
    }
    std::printf("attention-studio: NLL %.4f; most important heads %s; least important %s\n",
                r->report.nll, qPrintable(most.join(' ')), qPrintable(least.join(' ')));
    // The pruning curve runs in the head service's thread: how long it takes, and how late the
    // GUI thread's timer fires meanwhile (the curve grows point by point in the view).
    QElapsedTimer pruningClock;
    pruningClock.start();
    GuiLateness lateness;
    lateness.start();
    emit v->pruningRequested();
    if (!waitFor([&] { return pruned; }, 3600000))
        return false;
    lateness.stop();
    std::printf("attention-studio: pruning curve in %.1f s; GUI timer late by %.1f ms at the 99th "
                "percentile, %.1f ms at worst\n",
                double(pruningClock.elapsed()) / 1000.0, percentile(lateness.bucket(0), 0.99),
                lateness.worst(0));
    w.heads()->setMutedHeads(std::vector<as::HeadId>(order.begin(), order.begin() + long(order.size() / 2)));
    if (!waitFor([&] { return figures; }, 3600000))
        return false;
    std::printf("attention-studio: %s\n", qPrintable(v->summary()));
    w.views()->showView(v);
    return true;
}

// The Head dynamics view's first and last records of the probe, and those at the steps of
// `stops` (a lesson's stops, whose claims are checked on them), in step order: for each kind, the head with
// the largest diagonal score, the one with the largest confidence, the one with the largest
// punctuation mass as a multiple of the punctuation share, and the one with the largest
// alignment (layers and heads from 1, as the window numbers them), e.g. "attention-studio:
// heads at step 0: encoder.self diagonal 0.412 (1,3) confidence 0.301 (2,1) punctuation
// 1.210x (1,2) alignment 0.310 (2,2); …".
void printHeadDynamics(as::MainWindow& w, const std::vector<long>& stops)
{
    as::ui::HeadDynamicsView* v = w.views()->dynamics();
    const int n = v->recordCount();
    std::vector<int> indices;
    for (int i = 0; i < n; ++i)
        if (i == 0 || i == n - 1 || std::find(stops.begin(), stops.end(), v->stepAt(i)) != stops.end())
            indices.push_back(i);
    for (int index : indices) {
        const as::HeadDynamicsPoint& p = v->point(index);
        QStringList kinds;
        for (as::AttentionKind kind : {as::AttentionKind::EncoderSelf, as::AttentionKind::DecoderSelf,
                                       as::AttentionKind::Cross}) {
            double diagonal = -1, confidence = -1, punctuation = -1, alignment = -2;
            QString atDiagonal, atConfidence, atPunctuation, atAlignment;
            const auto& layers = p.of(kind);
            for (std::size_t l = 0; l < layers.size(); ++l)
                for (std::size_t h = 0; h < layers[l].size(); ++h) {
                    const QString at = QStringLiteral("(%1,%2)").arg(l + 1).arg(h + 1);
                    if (layers[l][h].diagonal > diagonal)
                        diagonal = layers[l][h].diagonal, atDiagonal = at;
                    if (layers[l][h].confidence > confidence)
                        confidence = layers[l][h].confidence, atConfidence = at;
                    if (layers[l][h].punctuationRatio() > punctuation)
                        punctuation = layers[l][h].punctuationRatio(), atPunctuation = at;
                    if (layers[l][h].alignment > alignment)
                        alignment = layers[l][h].alignment, atAlignment = at;
                }
            kinds << QStringLiteral("%1 diagonal %2 %3 confidence %4 %5 punctuation %6x %7 alignment %8 %9")
                         .arg(as::attentionKindName(kind))
                         .arg(diagonal, 0, 'f', 3).arg(atDiagonal)
                         .arg(confidence, 0, 'f', 3).arg(atConfidence)
                         .arg(punctuation, 0, 'f', 3).arg(atPunctuation)
                         .arg(alignment, 0, 'f', 3).arg(atAlignment);
        }
        std::printf("attention-studio: heads at step %ld: %s\n", p.step, qPrintable(kinds.join(QStringLiteral("; "))));
    }
}

// What --screenshot trains: a built-in task with its recipe, a seed, and where to put the model.
struct ScreenshotRun {
    QString task;
    as::CorpusSource corpus;  // --data TRAIN [--valid VALID]: instead of the task
    int steps = 200;
    std::optional<quint64> seed;
    QString out;  // the model file, as `attention-studio-cli train --out` writes it
    int validEvery = 0;  // 0: the task's
    bool heads = false;  // score the heads, mute the least important half, the pruning curve
    QStringList compare;  // checkpoints of runs drawn beside this one
    QString set;  // settings over the recipe (applySettingsSpec)
    QString ab;   // A/B: what B changes (applySettingsSpec over the run's settings); empty: no B
    std::optional<as::Lesson> lesson;  // a lesson run as File > Open lesson… runs it (task, set, seed, steps, ab are its)
};

bool writeSummary(const QString& path, const as::RunSummary& r, QString* error)
{
    QJsonArray samples;
    for (const as::TranslationSample& t : r.samples)
        samples.append(QJsonObject{{"source", t.source}, {"reference", t.reference},
                                   {"hypothesis", t.hypothesis}});
    const QJsonObject o{{"steps", double(r.steps)},
                        {"train_loss", r.trainLoss},
                        {"valid_loss", r.validLoss},
                        {"valid_accuracy", r.validAccuracy},
                        {"valid_bleu", r.validBleu},
                        {"samples", samples},
                        // The language the pictures show (--language, else the locale).
                        {"language", as::currentLanguage()},
                        // Their colours (--theme, else system).
                        {"theme", as::currentTheme()}};
    return as::writeFileAtomically(path, QJsonDocument(o).toJson(QJsonDocument::Indented), error);
}

int screenshots(as::MainWindow& w, const QString& dir, const ScreenshotRun& run)
{
    if (!QDir().mkpath(dir)) {
        std::fprintf(stderr, "attention-studio: cannot make the folder %s\n", qPrintable(dir));
        return 1;
    }
    w.setAttribute(Qt::WA_DontShowOnScreen);
    w.resize(shotSize());
    w.show();
    as::SessionSettings s = as::SessionSettings::defaultsFor(run.task);
    if (!run.corpus.train.isEmpty()) {
        // As File > Open corpus… does, then the run's own settings over the corpus recipe.
        bool opened = false;
        QString failed;
        QObject::connect(w.corpus(), &as::CorpusActions::corpusOpened, &w, [&](const QStringList& report) {
            for (const QString& line : report)
                std::printf("attention-studio: %s\n", qPrintable(line));
            opened = true;
        });
        QObject::connect(w.corpus(), &as::CorpusActions::corpusFailed, &w, [&](const QString& m) { failed = m; });
        w.corpus()->openCorpus(run.corpus);
        if (!waitFor([&] { return opened || !failed.isEmpty(); }, 600000) || !opened) {
            std::fprintf(stderr, "attention-studio: %s\n", qPrintable(failed));
            return 1;
        }
        s = w.settings();
    }
    if (run.seed)
        s.train.seed = *run.seed;
    if (run.validEvery > 0)
        s.evalEvery = run.validEvery;
    // The plan is the run's length, as `train --steps N` makes it: the averaging points and
    // the schedule plot depend on it.
    if (run.steps > 0)
        s.plannedSteps = run.steps;
    QString specError;
    if (!as::applySettingsSpec(run.set, &s, &specError)) {
        std::fprintf(stderr, "attention-studio: --set: %s\n", qPrintable(specError));
        return 2;
    }
    as::SessionSettings b = s;
    if (!as::applySettingsSpec(run.ab, &b, &specError)) {
        std::fprintf(stderr, "attention-studio: --ab: %s\n", qPrintable(specError));
        return 2;
    }
    if (run.lesson)
        w.lessons()->startLesson(*run.lesson);  // its settings (the same as s), probe, B and panel
    else
        w.applySettings(s);
    QString failure;
    QObject::connect(&w, &as::MainWindow::fileError, &w, [&](const QString& m) { failure = m; });
    if (!waitFor([&] { return w.currentStep() == 0 && w.examplesShown() > 0; }, 120000)) {
        std::fprintf(stderr, "attention-studio: the task '%s' did not start\n", qPrintable(s.task));
        return 1;
    }
    if (!run.ab.isEmpty()) {
        // Schedules that A/B compares (a warm-up against none) differ by orders of magnitude.
        w.views()->lr()->setLogScale(true);
        if (!run.lesson)
            w.comparisons()->startComparison(b);
        if (!waitFor([&] { return w.comparisons()->comparison() != nullptr || !failure.isEmpty(); }, 120000)
            || !w.comparisons()->comparison()) {
            std::fprintf(stderr, "attention-studio: B did not start: %s\n", qPrintable(failure));
            return 1;
        }
    }
    QElapsedTimer trainClock;
    trainClock.start();
    SnapshotPace pace(w);
    // The Model tab while training: the probe traced at every snapshot, for its replay.
    QWidget* const shownBefore = w.views()->currentView();
    w.views()->showView(w.views()->model());
    // A lesson's stops are legs of their own, as Play makes them in the window: the worker's
    // snapshot at the end of a leg carries the probe's record at exactly that step, which the
    // heads printed at the stops (printHeadDynamics) are read from. Trained straight through,
    // a record fell on a stop only if a snapshot happened to (CI once had none at step 300).
    std::vector<long> legs;
    if (run.lesson)
        for (const as::LessonStop& stop : run.lesson->stops)
            if (stop.step > 0 && stop.step < run.steps && (legs.empty() || stop.step > legs.back()))
                legs.push_back(stop.step);
    legs.push_back(run.steps);
    for (const long to : legs) {
        if (to > w.currentStep())
            w.link()->step(int(to - w.currentStep()));
        if (!waitFor([&] { return w.currentStep() >= to; }, 3600000)) {
            std::fprintf(stderr, "attention-studio: training did not reach step %ld\n", to);
            return 1;
        }
    }
    w.views()->showView(shownBefore);
    if (const as::RunSeriesPtr b = w.comparisons()->comparison()) {
        // B's figures beside A's (summary.json has A's): the mean loss of its last 50 steps and
        // its last validation.
        waitFor([&] { return long(w.comparisons()->comparison()->loss.size()) >= run.steps || !w.isRunning(); }, 60000);
        const as::RunSeriesPtr last = w.comparisons()->comparison();
        double sum = 0;
        int n = 0;
        for (auto it = last->loss.rbegin(); it != last->loss.rend() && n < 50; ++it, ++n)
            sum += it->loss;
        std::printf("attention-studio: %s: %zu steps, train loss (last 50) %.4f, valid loss %s\n",
                    qPrintable(last->name), last->loss.size(), n ? sum / n : 0.0,
                    last->eval.empty() ? "—" : qPrintable(QString::number(last->eval.back().loss, 'f', 4)));
    }
    const double seconds = trainClock.elapsed() / 1000.0;
    std::printf("attention-studio: trained %d steps of '%s' in %.2f s (%.1f steps/s, first to "
                "last snapshot), window updating throughout\n",
                run.steps, qPrintable(s.task), seconds, pace.stepsPerSecond());
    if (!run.out.isEmpty()) {
        bool exported = false;
        QObject::connect(w.files(), &as::FileActions::weightsExported, &w, [&] { exported = true; });
        w.files()->exportWeightsTo(run.out);
        if (!waitFor([&] { return exported || !failure.isEmpty(); }, 120000) || !exported) {
            std::fprintf(stderr, "attention-studio: %s\n", qPrintable(failure));
            return 1;
        }
    }
    std::shared_ptr<const as::RunSummary> summary;
    QObject::connect(w.link(), &as::WorkerLink::summaryReady, &w,
                     [&](const as::SummaryPtr& r) { summary = r; });
    w.link()->requestSummary();
    if (!waitFor([&] { return summary != nullptr; }, 3600000)) {
        std::fprintf(stderr, "attention-studio: no summary\n");
        return 1;
    }
    // A translation of the toy task's first sentence in the Translate view.
    if (run.corpus.train.isEmpty() && (run.task == "toy" || run.task == "zh-en")) {
        bool done = false;
        // Disconnected at the end of this block: `done` goes with it (the beam tree's
        // translation comes later).
        const QMetaObject::Connection c = QObject::connect(
            w.views()->translate(), &as::ui::TranslateView::translationFinished, &w, [&] { done = true; });
        w.views()->translate()->translate(QStringLiteral("我有一个好朋友"));
        waitFor([&] { return done; }, 20000);
        // And "why that word and not the runner-up?" at the output's third token.
        const as::TranslationRecordPtr r = w.views()->translate()->lastRecord();
        if (r && r->ok() && r->topFive.size() > 2 && r->topFive[2].size() > 1) {
            done = false;
            w.views()->translate()->explainContrast(2, r->topFive[2][1].first);
            waitFor([&] { return done; }, 20000);
        }
        QObject::disconnect(c);
    }
    if (run.heads && !scoreHeadsForScreenshot(w))
        return 1;
    if (!compareForScreenshot(w, run.compare))
        return 1;
    std::vector<long> stops;
    if (run.lesson)
        for (const as::LessonStop& stop : run.lesson->stops)
            stops.push_back(stop.step);
    printHeadDynamics(w, stops);
    showEmbeddings(w);
    showModelView(w);
    showDecoding(w);
    showTokens(w);
    // The window's picture shows the attention of the probe sentence, and its neuron view.
    showNeuronView(w);
    QString error;
    if (!writeSummary(QDir(dir).filePath("summary.json"), *summary, &error)
        || !w.files()->saveViewPngs(dir, &error)
        || (run.corpus.train.isEmpty() && (run.task == "toy" || run.task == "zh-en")
            && !saveBeamTreePng(w, dir, QStringLiteral("我有一个好朋友"), &error))
        || !saveModelReplayPng(w, dir, &error) || !saveHealthTimePng(w, dir, &error)) {
        std::fprintf(stderr, "attention-studio: %s\n", qPrintable(error));
        return 1;
    }
    std::printf("attention-studio: wrote the views at step %ld and summary.json (valid loss %.4f, "
                "accuracy %.4f, BLEU %.2f) into %s\n",
                w.currentStep(), summary->validLoss, summary->validAccuracy, summary->validBleu,
                qPrintable(dir));
    return 0;
}

}  // namespace

namespace as {

std::optional<int> runDriver(MainWindow& w, const QCommandLineParser& p)
{
    if (p.isSet("measure-responsiveness")) {
        bool ok = false;
        const double seconds = p.value("measure-responsiveness").toDouble(&ok);
        if (!ok || seconds <= 0 || !as::trainingTaskNames().contains(p.value("task"))) {
            std::fprintf(stderr, "attention-studio: --measure-responsiveness needs SECONDS > 0 "
                                 "and --task one of: %s\n",
                         qPrintable(as::trainingTaskNames().join(", ")));
            return 2;
        }
        bool reportOk = true;
        const double reportEvery = p.isSet("report-every") ? p.value("report-every").toDouble(&reportOk) : 0.0;
        if (!reportOk || reportEvery < 0 || (p.isSet("report-every") && reportEvery <= 0)) {
            std::fprintf(stderr, "attention-studio: --report-every needs SECONDS > 0\n");
            return 2;
        }
        const int rc = measureResponsiveness(w, seconds, p.value("task"), p.value("valid-every").toInt(),
                                             reportEvery);
        w.close();
        return rc;
    }
    if (p.isSet("size")) {
        // WxH, e.g. 1280x800: the window as a screen of that size shows it (the frame aside).
        const QStringList wh = p.value("size").split(QLatin1Char('x'));
        bool okW = false, okH = false;
        const int width = wh.size() == 2 ? wh[0].toInt(&okW) : 0;
        const int height = wh.size() == 2 ? wh[1].toInt(&okH) : 0;
        if (!okW || !okH || width < 200 || height < 200 || width > 10000 || height > 10000) {
            std::fprintf(stderr, "attention-studio: --size must be WIDTHxHEIGHT in pixels, e.g. 1280x800\n");
            return 2;
        }
        shotSize() = QSize(width, height);
    }
    const QStringList files = p.positionalArguments();
    if (files.size() > 1) {
        std::fprintf(stderr, "attention-studio: one file at a time\n");
        return 2;
    }
    if (p.isSet("measure-mutes")) {
        if (files.size() != 1 || p.value("sentence").trimmed().isEmpty()) {
            std::fprintf(stderr, "attention-studio: --measure-mutes needs a model FILE and --sentence\n");
            return 2;
        }
        const int rc = measureMutes(w, files.first(), p.value("sentence"));
        w.close();
        return rc;
    }
    if (p.isSet("screenshot") && !files.isEmpty() && files.first().endsWith(QLatin1String(".json"), Qt::CaseInsensitive)) {
        // A lesson: trained to its planned steps as its settings say, its panel beside the views.
        QFile f(files.first());
        QString error;
        std::optional<Lesson> lesson;
        if (!f.open(QIODevice::ReadOnly))
            error = f.errorString();
        else
            lesson = parseLesson(f.read(kMaxLessonBytes + 1), &error);
        std::optional<SessionSettings> s = lesson ? lessonSettings(*lesson, &error) : std::nullopt;
        if (!s) {
            std::fprintf(stderr, "attention-studio: %s: %s\n", qPrintable(files.first()), qPrintable(error));
            return 2;
        }
        ScreenshotRun run;
        run.task = lesson->task;
        run.steps = int(s->plannedSteps);
        run.seed = s->train.seed;
        run.set = lesson->settings;
        run.ab = lesson->ab;
        run.lesson = lesson;
        const int rc = screenshots(w, p.value("screenshot"), run);
        w.close();
        return rc;
    }
    if (p.isSet("screenshot") && !files.isEmpty()) {
        const int explain = int(QStringList{"cross", "attention", "rollout", "gradxinput", "ig"}.indexOf(p.value("explain")));
        if (explain < 0) {
            std::fprintf(stderr, "attention-studio: --explain must be cross, attention, rollout, gradxinput or ig\n");
            return 2;
        }
        const int rc = screenshotsOfFile(w, p.value("screenshot"), files.first(), p.value("sentence"),
                                         explain, p.values("compare"));
        w.close();
        return rc;
    }
    if (p.isSet("screenshot")) {
        ScreenshotRun run;
        bool ok = false, seedOk = true;
        run.task = p.value("task");
        run.steps = p.value("steps").toInt(&ok);
        if (p.isSet("seed"))
            run.seed = p.value("seed").toULongLong(&seedOk);
        run.out = p.value("out");
        run.validEvery = p.value("valid-every").toInt();
        run.heads = p.isSet("heads");
        run.compare = p.values("compare");
        run.set = p.value("set");
        run.ab = p.value("ab");
        run.corpus.train = p.value("data");
        run.corpus.valid = p.value("valid");
        if (run.corpus.train.isEmpty() && !run.corpus.valid.isEmpty()) {
            std::fprintf(stderr, "attention-studio: --valid goes with --data\n");
            return 2;
        }
        if (!ok || !seedOk || run.steps < 0 || !as::trainingTaskNames().contains(run.task)) {
            std::fprintf(stderr, "attention-studio: --steps must be a whole number >= 0, --seed "
                                 "one >= 0, and --task one of: %s\n",
                         qPrintable(as::trainingTaskNames().join(", ")));
            return 2;
        }
        const int rc = screenshots(w, p.value("screenshot"), run);
        w.close();
        return rc;
    }
    return std::nullopt;
}

}  // namespace as
