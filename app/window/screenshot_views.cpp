// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The views as --screenshot shows and draws them (screenshot_views.h).
#include "screenshot_views.h"

#include "driver_tools.h"

#include "attention_view.h"
#include "comparison_actions.h"
#include "decoding_view.h"
#include "embedding_view.h"
#include "health_view.h"
#include "main_window.h"
#include "model_view.h"
#include "neuron_view.h"
#include "plot_tools.h"
#include "run_comparer.h"
#include "tokens_view.h"
#include "translate_view.h"
#include "view_set.h"

#include "decode/translation_record.h"

#include <QCoreApplication>
#include <QDir>

#include <cstdio>

namespace as::driver {

void showNeuronView(as::MainWindow& w)
{
    w.views()->showView(w.views()->attentionPage());
    w.views()->neuron()->refresh();
    waitFor([&] { return w.views()->neuron()->record() && w.views()->neuron()->record()->step == w.currentStep(); }, 10000);
}

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

void showDecoding(as::MainWindow& w)
{
    as::ui::DecodingView* v = w.views()->decoding();
    QWidget* const shown = w.views()->currentView();
    // A language model's loop is shown sampled (core/SPEC.md §5.6): the bars before and after
    // the temperature and the cut.
    if (w.settings().model.decoderOnly()) {
        as::SamplingOptions o;
        o.temperature = 1.2;
        o.seed = 3;
        v->setSampling(o);
    }
    w.views()->showView(v);
    waitFor([&] { return v->record() && v->record()->step == w.currentStep()
                         && v->record()->sampling.has_value() == w.settings().model.decoderOnly(); }, 20000);
    if (v->record())
        v->setStep(v->record()->divergence >= 0 ? v->record()->divergence : v->stepCount() - 1);
    w.views()->showView(shown);
}

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

}  // namespace as::driver
