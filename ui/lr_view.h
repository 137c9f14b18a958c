// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "Learning rate": the Noam schedule of the current settings over the planned steps, a marker at
// the current step, the rates actually applied, and (optionally) the three curves of The
// Annotated Transformer's figure for comparison. Other runs' applied rates can be drawn
// beside them (setComparedRuns).
#include "compared_runs.h"
#include "train/run_series.h"

#include <QWidget>

class QCheckBox;
class QCPGraph;
class QCPItemStraightLine;
class QCPItemTracer;
class QCPTextElement;
class QCustomPlot;

namespace as {
struct TrainingSnapshot;
}

namespace as::ui {

class LrView : public QWidget {
    Q_OBJECT
public:
    explicit LrView(QWidget* parent = nullptr);

    void applySnapshot(const as::TrainingSnapshot& snapshot);
    void reset();

    // The plotted current-settings curve at `step`, read back from the graph data (linear
    // between plotted points when the curve is sampled); NaN outside the plotted range.
    double curveValueAt(long step) const;
    int appliedPointCount() const;
    bool overlayShown() const;
    void setOverlayShown(bool shown);
    // Rates on a log axis: a schedule with a long warm-up beside one without (an A/B session)
    // differ by orders of magnitude.
    bool logScale() const;
    void setLogScale(bool on);
    QCustomPlot* plot() { return plot_; }

    // Other runs' applied rates, one point per step, each in its colour (compared_runs.h) with
    // a legend entry, its name (see LossView::setComparedRuns: the same contract). Reset
    // keeps them.
    void setComparedRuns(const RunSeriesList& runs);
    int comparedRunCount() const { return int(compared_.size()); }
    QCPGraph* comparedGraph(int i) const { return compared_.at(std::size_t(i)).graph; }
    RunSeriesPtr comparedSeries(int i) const { return compared_.at(std::size_t(i)).series; }

protected:
    // QEvent::LanguageChange: retranslate().
    void changeEvent(QEvent* event) override;

private:
    // Its titles, axis labels, legend names, controls and tooltips in the language installed,
    // set in one place: from the constructor and at every language change.
    void retranslate();
    void nameCurve();  // the schedule's legend entry: its settings
    struct Compared {
        RunSeriesPtr series;
        int slot = 0;
        QCPGraph* graph = nullptr;
    };
    static void appendRates(QCPGraph* graph, const LossPoint* first, const LossPoint* last);
    struct Settings {
        int dModel = 0;
        double factor = 0;
        long warmup = 0;
        long planned = 0;
        bool operator==(const Settings&) const = default;
    };
    void rebuildCurve();
    void updateMarker();
    void updateRanges();
    QString hoverText(QPoint pixel) const;
    QString csv() const;

    QCustomPlot* plot_ = nullptr;
    QCheckBox* overlayBox_ = nullptr;
    QCheckBox* logBox_ = nullptr;
    QCPTextElement* title_ = nullptr;
    QCPGraph* curve_ = nullptr;
    QCPGraph* applied_ = nullptr;
    QCPGraph* overlay_[3] = {nullptr, nullptr, nullptr};
    QCPItemStraightLine* stepLine_ = nullptr;
    QCPItemTracer* tracer_ = nullptr;
    Settings settings_;
    bool haveSettings_ = false;
    long step_ = 0;
    long appliedLastStep_ = 0;
    double appliedMax_ = 0;
    std::vector<Compared> compared_;
    ComparedSlots slots_;
};

}  // namespace as::ui
