// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "Health": how each parameter tensor is being optimised, live. A tensors × steps heatmap of
// log10 of the update ratio ‖Δw‖/‖w‖ (tensors in forward order, grouped by layer; white at the
// 1e-3 rule of thumb, blue slower, red faster), line plots of the update ratio (with the
// 1e-4 … 1e-2 band around 1e-3 shaded) and of the gradient norm for the tensors chosen in the
// list, and the chosen tensor's histograms of weights and of gradients over time (a
// histogram-per-step heatmap over log10|x|). In an A/B, B's update ratio and gradient norm
// of the chosen tensors are drawn dashed beside A's. A step whose gradient went non-finite is marked
// at its step on the first tensor (in forward order) whose gradient was not finite. And a
// table of where a training step's time goes (train/profile.h), over the steps profiled so far.
#include "plot_tools.h"
#include "train/snapshot.h"

#include <QWidget>

#include <memory>
#include <vector>

class QLabel;
class QListWidget;
class QTabWidget;
class QTableWidget;

namespace as::ui {

class HealthView : public QWidget {
    Q_OBJECT
public:
    // Records kept (appendThinned: past these, a long run stays covered evenly at a lower
    // density): about 3 kB per step record at `small`'s 130 tensors,
    // 50 kB per histogram record.
    static constexpr int kRecordCapacity = 2000;
    static constexpr int kHistogramCapacity = 300;
    // At most this many columns in a heatmap: a longer run is sampled (each column shows the
    // last record at or before its step).
    static constexpr int kMaxColumns = 1000;
    // The update-ratio heatmap's colour range, log10: centred on the rule of thumb's 1e-3.
    static constexpr double kRatioLow = -6, kRatioHigh = 0;

    explicit HealthView(QWidget* parent = nullptr);

    void applySnapshot(const TrainingSnapshot& s);
    void reset();
    // Draws what has come in now (a hidden view waits until it is shown).
    void redrawNow();

    // Read-outs (tests).
    int recordCount() const { return int(records_.size()); }
    const std::vector<std::shared_ptr<const HealthRecord>>& records() const { return records_; }
    // A/B's B: its records (drawn dashed beside the chosen tensors of the same name in the
    // line plots), and its name; none without an A/B.
    const std::vector<std::shared_ptr<const HealthRecord>>& comparedRecords() const { return comparedRecords_; }
    QString comparedName() const { return comparedName_; }
    int histogramCount() const { return int(histograms_.size()); }
    const Heatmap& ratioMap() const { return ratio_; }
    const Heatmap& weightHistogramMap() const { return hist_[0]; }
    const Heatmap& gradHistogramMap() const { return hist_[1]; }
    // The heatmap row of a tensor (a params().table() index), -1 if none; and back.
    int rowOfTensor(int tensor) const;
    int tensorOfRow(int row) const;
    QString tensorName(int tensor) const;  // "" if none
    // The step a heatmap column shows.
    long stepOfColumn(int col) const;
    // The marker of the first non-finite tensor: (step, row); false when there is none.
    bool nonFiniteMarker(double* step, double* row) const;
    std::shared_ptr<const NonFiniteRecord> nonFinite() const { return nonFinite_; }
    QString faultText() const;
    // The tensors of the line plots (table indices) and the one whose histograms are shown.
    std::vector<int> chosenTensors() const;
    int histogramTensor() const;
    void chooseTensors(const std::vector<int>& tensors);
    QCustomPlot* ratioPlot() const { return ratioPlot_; }
    QCustomPlot* ratioLinesPlot() const { return lines_[0]; }
    QCustomPlot* gradLinesPlot() const { return lines_[1]; }
    // The profile's totals so far (every record received since the session began) and their
    // table: a row per category (train/profile.h's order), then the step; columns ms per step,
    // % of the step's wall time, GFLOP/s (products only).
    const ProfileTotals& profile() const { return profile_; }
    QTableWidget* profileTable() const { return profileTable_; }
    QString profileTitle() const;  // the time table's title (for tests)
    // Shows the "Time per step" tab below the line plots (else the histograms).
    void showTimePerStep(bool shown);

protected:
    void showEvent(QShowEvent* e) override;

protected:
    // QEvent::LanguageChange: retranslate().
    void changeEvent(QEvent* event) override;

private:
    // Its titles, axis labels, legend names, controls and tooltips in the language installed,
    // set in one place: from the constructor and at every language change.
    void retranslate();
    QLabel* listLabel_ = nullptr;
    QCPTextElement* ratioTitle_ = nullptr;
    QCPTextElement* lineTitles_[2] = {nullptr, nullptr};
    void setHealthLayout(std::shared_ptr<const HealthLayout> layout);
    void redraw();
    void redrawRatioMap();
    void fitGroupLabels();
    void redrawLines();
    void redrawHistograms();
    void redrawProfile();
    QString categoryName(ProfileCategory c) const;
    // The libraries that computed a product category's passes in the steps shown, in words or
    // (brief) as the table shows them; empty for the other categories.
    QString computedBy(ProfileCategory c, bool brief) const;

    std::shared_ptr<const HealthLayout> layout_;
    std::vector<std::shared_ptr<const HealthRecord>> records_;      // oldest first
    std::shared_ptr<const HealthLayout> comparedLayout_;             // A/B's B's tensors
    std::vector<std::shared_ptr<const HealthRecord>> comparedRecords_;  // and its records
    QString comparedName_;
    std::vector<std::shared_ptr<const HistogramRecord>> histograms_;
    std::shared_ptr<const NonFiniteRecord> nonFinite_;
    std::vector<int> rowOf_;  // table index -> heatmap row
    std::vector<long> columnSteps_;  // of the ratio heatmap
    std::vector<int> columnRecords_;  // the record each column shows
    bool dirty_ = false;

    QListWidget* list_ = nullptr;
    QLabel* fault_ = nullptr;
    QCustomPlot* ratioPlot_ = nullptr;
    Heatmap ratio_;
    QCPGraph* marker_ = nullptr;
    QCPItemText* markerLabel_ = nullptr;
    std::vector<QCPAbstractItem*> separators_;
    struct GroupTick {
        double centre;  // row
        int rows;
        QString label;
    };
    std::vector<GroupTick> groupTicks_;   // every layer
    std::vector<std::size_t> fittedGroups_;  // those labelled at the current height
    QCustomPlot* lines_[2] = {nullptr, nullptr};  // update ratio, gradient norm
    QCPItemStraightLine* faultLines_[2] = {nullptr, nullptr};
    QCustomPlot* histPlots_[2] = {nullptr, nullptr};  // weights, gradients
    Heatmap hist_[2];
    QCPTextElement* histTitles_[2] = {nullptr, nullptr};
    ProfileTotals profile_;
    QLabel* profileTitle_ = nullptr;
    QTableWidget* profileTable_ = nullptr;
    QWidget* profileBox_ = nullptr;      // the title and table, a tab of bottomTabs_
    QTabWidget* bottomTabs_ = nullptr;   // the histograms | time per step
};

}  // namespace as::ui
