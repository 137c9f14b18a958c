// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "Head dynamics": when each head forms its pattern. For every kind (encoder self, decoder
// self, decoder cross) and layer, a heads × recorded-steps heatmap of one score of the probe's
// attention (eval/attention_stats.h, core/SPEC.md §12): entropy (nats), confidence, the mass
// within ±1 of the scaled diagonal (cross: monotonic alignment; self: the neighbouring tokens),
// the punctuation mass (its hover text adds the punctuation share and their ratio), or the
// alignment of the rows' largest weights with the query position (−1 … 1). The x axis counts
// the recorded probes, one column each, labelled with their steps: records are not evenly
// spaced in steps (a snapshot's pace, then thinned by appendAttentionRecord), and a column per
// record keeps every record visible and clickable. Drawing 500 records of a 6-layer model takes
// about 20 ms (and as much again to replot), so records arriving at the snapshots' 10 per
// second are drawn together at most every kDrawIntervalMs, and not at all while the tab is
// hidden (when it is shown). Clicking a cell asks for that head at that
// step (the window shows it in the Attention view's replay). It keeps the same history as the
// Attention view, by the same policy (appendAttentionRecord).
#include "eval/attention_stats.h"
#include "draw_throttle.h"
#include "plot_tools.h"
#include "train/snapshot.h"

#include <QWidget>

#include <memory>
#include <vector>

class QComboBox;
class QGridLayout;
class QLabel;
class QStackedWidget;
class QTimer;

namespace as::ui {

class HeadDynamicsView : public QWidget {
    Q_OBJECT
public:
    enum class Metric { Entropy, Confidence, Diagonal, Punctuation, Alignment };
    static constexpr int kDrawIntervalMs = 400;

    explicit HeadDynamicsView(QWidget* parent = nullptr);

    // Takes snapshot.attention when present.
    void applySnapshot(const TrainingSnapshot& snapshot);
    void addRecord(std::shared_ptr<const AttentionRecord> record);
    void reset();  // forgets the history

    void setMetric(Metric metric);
    Metric metric() const { return metric_; }

    // Draws what has arrived now (else within kDrawIntervalMs, or when the view is shown).
    void drawNow();

    // Read-outs (for tests). The maps as drawn: drawNow() first.
    int recordCount() const { return int(history_.size()); }
    // Every head's stats at record `index` (core/eval/attention_stats.h), as the maps show them.
    const HeadDynamicsPoint& point(int index) const { return *points_.at(std::size_t(index)); }
    long stepAt(int index) const;
    int layers(AttentionKind kind) const;
    int heads() const { return heads_; }
    // The line above the maps: records, steps, the probe.
    QString infoText() const;
    QCustomPlot* plot(AttentionKind kind, int layer) const;
    // The value drawn for a head at record `index`, read back from the map; NaN outside it.
    double cell(AttentionKind kind, int layer, int head, int index) const;
    // The pixel at the centre of that cell, in the plot's coordinates.
    QPoint cellCentre(AttentionKind kind, int layer, int head, int index) const;
    // The colour scale's range (the same for every map).
    QCPRange colourRange() const { return range_; }

signals:
    void cellClicked(as::HeadId head, long step);

protected:
    void showEvent(QShowEvent* event) override;
    // QEvent::LanguageChange: retranslate().
    void changeEvent(QEvent* event) override;

private:
    struct Panel {
        QWidget* frame = nullptr;  // the plot with its export button
        QCustomPlot* plot = nullptr;
        QCPTextElement* title = nullptr;
        Heatmap heat;
    };
    // Its titles, axis labels, legend names, controls and tooltips in the language installed,
    // set in one place: from the constructor and at every language change.
    void retranslate();
    void labelPanel(Panel& p, AttentionKind kind, int layer);  // its axes and title
    QLabel *colourLabel_ = nullptr, *placeholder_ = nullptr;

    void rebuildPanels(int layers[3]);
    void draw();
    double valueOf(const HeadMapStats& s) const;
    QString metricName(Metric m) const;
    QString hoverText(AttentionKind kind, int layer, QPoint pixel) const;
    const Panel* panelOf(AttentionKind kind, int layer) const;

    std::vector<std::shared_ptr<const AttentionRecord>> history_;
    std::vector<std::shared_ptr<const HeadDynamicsPoint>> points_;  // one per history_ record
    Metric metric_ = Metric::Entropy;
    int heads_ = 0;
    QCPRange range_{0, 1};
    DrawThrottle throttle_{this, kDrawIntervalMs, [this] { draw(); }};
    std::vector<Panel> panels_[3];  // per kind, per layer

    QComboBox* metricBox_ = nullptr;
    QLabel* info_ = nullptr;
    QStackedWidget* stack_ = nullptr;  // placeholder or the grid
    QGridLayout* grid_ = nullptr;
};

}  // namespace as::ui
