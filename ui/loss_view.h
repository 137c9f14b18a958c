#pragma once
// Loss: training loss (raw and smoothed), validation loss and token accuracy, by step or by
// wall time, with a true log scale, zoom and pan. History survives Pause; Reset clears it.
#include "train/snapshot.h"

#include <QWidget>

class QCustomPlot;
class QCPGraph;
class QCheckBox;
class QComboBox;
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
    QString csv() const;

private:
    void rebuild();  // all graphs from the stored points
    void appendTrain(const std::vector<LossPoint>& pts);
    double x(const LossPoint& p) const;
    double x(const EvalPoint& p) const;

    QCustomPlot* plot_ = nullptr;
    QCPGraph* raw_ = nullptr;
    QCPGraph* smoothed_ = nullptr;
    QCPGraph* validLoss_ = nullptr;
    QCPGraph* validAcc_ = nullptr;
    QCPGraph* validBleu_ = nullptr;
    QCPAxis* bleuAxis_ = nullptr;
    void addValid(const EvalPoint& e);
    void fitBleuAxis();
    QComboBox* xAxisChoice_ = nullptr;
    QCheckBox* log_ = nullptr;
    QCheckBox* follow_ = nullptr;
    QSlider* smoothing_ = nullptr;
    double beta_ = 0.9;

    std::vector<LossPoint> train_;
    std::vector<EvalPoint> valid_;
    // Running debiased EMA, so that appending is O(new points).
    double emaBiased_ = 0.0;
    std::vector<double> smoothedValues_;
};

}  // namespace as::ui
