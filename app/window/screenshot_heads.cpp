// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// What --screenshot prints of the heads (screenshot_heads.h).
#include "screenshot_heads.h"

#include "driver_tools.h"

#include "head_dynamics_view.h"
#include "head_service.h"
#include "heads_controller.h"
#include "heads_view.h"
#include "main_window.h"
#include "view_set.h"

#include "eval/attention_stats.h"
#include "eval/interpret.h"

#include <algorithm>
#include <cstdio>

namespace as::driver {

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
            if (layers.empty())  // a decoder-only model's encoder and cross-attention
                continue;
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

}  // namespace as::driver
