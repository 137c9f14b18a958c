// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Loss: training loss (raw and smoothed), validation loss and token accuracy, by step or by
// wall time, with a true log scale, zoom and pan. History survives Pause; Reset clears it.
// Other runs can be drawn beside the current one (setComparedRuns).
#include "compared_runs.h"
#include "train/run_series.h"
#include "train/snapshot.h"

#include <QWidget>

#include <optional>

class QCustomPlot;
class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;
class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QSlider;

namespace as::ui {

class LossView : public QWidget {
    Q_OBJECT
public:
    explicit LossView(QWidget* parent = nullptr);

    void applySnapshot(const TrainingSnapshot& s);
    void reset();

    // Exponential moving average with TensorBoard's debiasing: s_t = m_t / (1 - beta^t), so
    // the first values are not pulled toward 0 (or toward the first value).
    static std::vector<double> smooth(const std::vector<double>& values, double beta);

    int trainPointCount() const { return int(train_.size()); }
    int validPointCount() const { return int(valid_.size()); }
    // Validations whose BLEU was computed: drawn on an axis of their own (right, outside the
    // accuracy axis), shown once there is one.
    int bleuPointCount() const;
    EvalPoint validPoint(int i) const { return valid_.at(std::size_t(i)); }
    QCPAxis* bleuAxis() const { return bleuAxis_; }
    double smoothedAt(int i) const;
    bool byTime() const;
    void setByTime(bool byTime);
    bool logScale() const;
    void setLogScale(bool on);
    void setSmoothing(double beta);
    QCustomPlot* plot() const { return plot_; }
    // The phase change of in-context learning (core/SPEC.md §13.5), which the window finds in
    // the induction records (InductionView::phaseChangeChanged): a vertical line and a label at
    // its step (at its training time by wall time); -1: none. Reset forgets it.
    void setPhaseChange(long step);
    std::optional<long> phaseChange() const;
    QCPItemStraightLine* phaseLine() const { return phaseLine_; }
    QCPItemText* phaseLabel() const { return phaseLabel_; }
    // kind,step,seconds,loss,smoothed_loss,accuracy,lr,bleu,nll,perplexity,run: the current
    // run's points (run empty), then a row "phase_change,STEP,SECONDS" when there is one, then
    // each compared run's.
    QString csv() const;
    // What hovering at `pixel` (plot coordinates) shows: the nearest step's loss and rate, the
    // nearest validation's loss, accuracy, BLEU (when computed), NLL and perplexity (when
    // recorded); each compared run's under its name.
    QString hoverText(QPoint pixel) const;

    // Other runs drawn beside this one (View > Compare with run…, an A/B session), each in its
    // colour (compared_runs.h) with one legend entry, its name: the training loss smoothed as
    // the current run's is, and the validation loss, accuracy and BLEU with the current run's
    // markers. Replaces the whole set; the current run's curves stay as they are, and Reset
    // keeps the compared runs (they are other runs). A run that is the one drawn before with
    // points appended (extendsSeries) only has the new points drawn, so that a growing run
    // can be handed in again at every snapshot.
    void setComparedRuns(const RunSeriesList& runs);
    struct ComparedGraphs {
        RunSeriesPtr series;
        QColor colour;
        QCPGraph* loss = nullptr;  // smoothed training loss; the legend entry
        QCPGraph* validLoss = nullptr;
        QCPGraph* validAccuracy = nullptr;  // right axis
        QCPGraph* validBleu = nullptr;      // the BLEU axis
    };
    int comparedRunCount() const { return int(compared_.size()); }
    ComparedGraphs comparedRun(int i) const;

protected:
    // QEvent::LanguageChange: retranslate().
    void changeEvent(QEvent* event) override;

private:
    // Axis titles, legend names, controls and tooltips in the language installed: from the
    // constructor and at every language change.
    void retranslate();
    void labelXAxis();  // step, or training time
    // The graphs of one run and its running average, so that appending is O(new points).
    struct Curves {
        QCPGraph* raw = nullptr;  // the current run's only
        QCPGraph* smoothed = nullptr;
        QCPGraph* validLoss = nullptr;
        QCPGraph* validAcc = nullptr;
        QCPGraph* validBleu = nullptr;
        double emaBiased = 0.0;  // debiased EMA: s_t = emaBiased / (1 - beta^t)
        std::vector<double> smoothedValues;
    };
    struct Compared {
        RunSeriesPtr series;
        int slot = 0;
        Curves curves;
    };
    void rebuild();  // all graphs from the stored points
    void appendTrain(const std::vector<LossPoint>& pts);
    void appendLoss(Curves& c, const LossPoint* first, const LossPoint* last);
    void addValid(Curves& c, const EvalPoint& e);
    void clearCurves(Curves& c);
    Compared makeCompared(const RunSeriesPtr& series, int slot);
    void drawCompared(Compared& r, std::size_t lossFrom, std::size_t evalFrom);
    void fitAll();
    void placePhase();  // the phase change's line and label at its x, or hidden
    // The x of a step of the current run (its training time by wall time); NaN when unknown.
    double xOfStep(long step) const;
    // The hover read-out of one run at x = xv: its nearest step and validation.
    QString describeAt(const std::vector<LossPoint>& train, const std::vector<double>& smoothed,
                       const std::vector<EvalPoint>& valid, double xv) const;
    double x(const LossPoint& p) const;
    double x(const EvalPoint& p) const;

    QCustomPlot* plot_ = nullptr;
    Curves run_;  // the current run
    QCPAxis* bleuAxis_ = nullptr;
    long phaseStep_ = -1;
    QCPItemStraightLine* phaseLine_ = nullptr;
    QCPItemText* phaseLabel_ = nullptr;
    void fitBleuAxis();
    QComboBox* xAxisChoice_ = nullptr;
    QCheckBox* log_ = nullptr;
    QCheckBox* follow_ = nullptr;
    QLabel* smoothingName_ = nullptr;
    QPushButton* fit_ = nullptr;
    QSlider* smoothing_ = nullptr;
    double beta_ = 0.9;

    std::vector<LossPoint> train_;
    std::vector<EvalPoint> valid_;
    std::vector<Compared> compared_;
    ComparedSlots slots_;
};

}  // namespace as::ui
