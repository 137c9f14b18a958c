#include "loss_view.h"

#include "plot_tools.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QVBoxLayout>

#include <cmath>

namespace as::ui {

std::vector<double> LossView::smooth(const std::vector<double>& values, double beta)
{
    std::vector<double> out;
    out.reserve(values.size());
    double m = 0.0, betaPow = 1.0;
    for (double v : values) {
        m = beta * m + (1.0 - beta) * v;
        betaPow *= beta;
        out.push_back(beta > 0.0 ? m / (1.0 - betaPow) : v);
    }
    return out;
}

LossView::LossView(QWidget* parent) : QWidget(parent)
{
    plot_ = new QCustomPlot(this);
    // Curves of one point per step: drawn as one polyline each, not segment by segment (a
    // 12,000-step curve took up to 30 ms a replot on the GUI thread otherwise).
    plot_->setPlottingHint(QCP::phFastPolylines, true);
    plot_->setObjectName("loss");
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->axisRect()->setRangeZoom(Qt::Horizontal | Qt::Vertical);
    plot_->xAxis->setLabel(tr("step"));
    plot_->yAxis->setLabel(tr("loss"));
    plot_->yAxis2->setVisible(true);
    plot_->yAxis2->setLabel(tr("validation token accuracy"));
    plot_->yAxis2->setRange(0, 1);
    plot_->legend->setVisible(true);
    plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);

    raw_ = plot_->addGraph();
    raw_->setName(tr("training loss"));
    raw_->setPen(QPen(QColor(31, 119, 180, 70), 1));
    smoothed_ = plot_->addGraph();
    smoothed_->setName(tr("training loss, smoothed"));
    smoothed_->setPen(QPen(QColor(31, 119, 180), 2));
    validLoss_ = plot_->addGraph();
    validLoss_->setName(tr("validation loss"));
    validLoss_->setPen(QPen(QColor(214, 39, 40), 2));
    validLoss_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
    validAcc_ = plot_->addGraph(plot_->xAxis, plot_->yAxis2);
    validAcc_->setName(tr("validation accuracy (right axis)"));
    validAcc_->setPen(QPen(QColor(44, 160, 44), 2, Qt::DashLine));
    validAcc_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, 5));
    bleuAxis_ = plot_->axisRect()->addAxis(QCPAxis::atRight);
    bleuAxis_->setLabel(tr("validation BLEU"));
    bleuAxis_->setRange(0, 10);
    bleuAxis_->setVisible(false);
    validBleu_ = plot_->addGraph(plot_->xAxis, bleuAxis_);
    validBleu_->setName(tr("validation BLEU (outer right axis)"));
    validBleu_->setPen(QPen(QColor(148, 103, 189), 2));
    validBleu_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, 7));
    validBleu_->removeFromLegend();

    xAxisChoice_ = new QComboBox(this);
    xAxisChoice_->addItems({tr("by step"), tr("by wall time")});
    log_ = new QCheckBox(tr("log scale"), this);
    follow_ = new QCheckBox(tr("follow"), this);
    follow_->setChecked(true);
    follow_->setToolTip(tr("Keep the whole curve in view as it grows (off after a zoom or pan)"));
    smoothing_ = new QSlider(Qt::Horizontal, this);
    smoothing_->setRange(0, 99);
    smoothing_->setValue(int(beta_ * 100));
    smoothing_->setMaximumWidth(160);
    smoothing_->setToolTip(tr("Smoothing of the training loss (exponential moving average, "
                              "debiased)"));
    auto* smoothingLabel = new QLabel(this);
    auto* fit = new QPushButton(tr("Fit"), this);
    fit->setToolTip(tr("Show all the data"));

    auto* bar = new QHBoxLayout;
    bar->addWidget(xAxisChoice_);
    bar->addWidget(log_);
    bar->addWidget(new QLabel(tr("smoothing"), this));
    bar->addWidget(smoothing_);
    bar->addWidget(smoothingLabel);
    bar->addStretch();
    bar->addWidget(follow_);
    bar->addWidget(fit);
    bar->addWidget(makeExportButton(plot_, [this] { return csv(); }, this));
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(plot_, 1);

    auto showSmoothing = [smoothingLabel](int v) {
        smoothingLabel->setText(QString::number(v / 100.0, 'f', 2));
    };
    showSmoothing(smoothing_->value());
    connect(smoothing_, &QSlider::valueChanged, this, [this, showSmoothing](int v) {
        showSmoothing(v);
        setSmoothing(v / 100.0);
    });
    connect(xAxisChoice_, &QComboBox::currentIndexChanged, this, [this] { rebuild(); });
    connect(log_, &QCheckBox::toggled, this, [this](bool on) { setLogScale(on); });
    connect(fit, &QPushButton::clicked, this, [this] {
        follow_->setChecked(true);
        rebuild();
    });
    // A user's zoom or pan stops the view from following new data.
    connect(plot_, &QCustomPlot::mousePress, this, [this] { follow_->setChecked(false); });
    connect(plot_, &QCustomPlot::mouseWheel, this, [this] { follow_->setChecked(false); });

    enableHoverReadout(plot_, [this](QCustomPlot* p, QPoint pos) -> QString {
        if (train_.empty() || !p->axisRect()->rect().contains(pos))
            return {};
        const double xv = p->xAxis->pixelToCoord(pos.x());
        // Nearest training point by x (points are in x order).
        auto it = std::lower_bound(train_.begin(), train_.end(), xv,
                                   [this](const LossPoint& a, double v) { return x(a) < v; });
        if (it == train_.end())
            --it;
        else if (it != train_.begin() && std::abs(x(*std::prev(it)) - xv) < std::abs(x(*it) - xv))
            --it;
        const auto i = std::size_t(it - train_.begin());
        QString t = tr("step %1 · %2 s\nloss %3 · smoothed %4 · lr %5")
                        .arg(it->step)
                        .arg(it->seconds, 0, 'f', 1)
                        .arg(it->loss, 0, 'f', 4)
                        .arg(smoothedValues_[i], 0, 'f', 4)
                        .arg(it->lr, 0, 'e', 2);
        if (!valid_.empty()) {
            auto v = std::min_element(valid_.begin(), valid_.end(), [&](const auto& a, const auto& b) {
                return std::abs(x(a) - xv) < std::abs(x(b) - xv);
            });
            t += tr("\nvalidation (step %1): loss %2 · accuracy %3")
                     .arg(v->step)
                     .arg(v->loss, 0, 'f', 4)
                     .arg(v->accuracy, 0, 'f', 3);
            if (!std::isnan(v->bleu))
                t += tr(" · BLEU %1").arg(v->bleu, 0, 'f', 2);
        }
        return t;
    });
}

double LossView::x(const LossPoint& p) const
{
    return byTime() ? p.seconds : double(p.step);
}

double LossView::x(const EvalPoint& p) const
{
    return byTime() ? p.seconds : double(p.step);
}

bool LossView::byTime() const
{
    return xAxisChoice_->currentIndex() == 1;
}

void LossView::setByTime(bool on)
{
    xAxisChoice_->setCurrentIndex(on ? 1 : 0);
}

bool LossView::logScale() const
{
    return plot_->yAxis->scaleType() == QCPAxis::stLogarithmic;
}

void LossView::setLogScale(bool on)
{
    if (log_->isChecked() != on)
        log_->setChecked(on);  // re-enters through toggled
    if (on) {
        plot_->yAxis->setScaleType(QCPAxis::stLogarithmic);
        plot_->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    } else {
        plot_->yAxis->setScaleType(QCPAxis::stLinear);
        plot_->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    }
    rebuild();
}

void LossView::setSmoothing(double beta)
{
    beta_ = std::clamp(beta, 0.0, 0.999);
    rebuild();
}

double LossView::smoothedAt(int i) const
{
    return smoothedValues_.at(std::size_t(i));
}

void LossView::applySnapshot(const TrainingSnapshot& s)
{
    if (s.newLoss.empty() && s.newEval.empty())
        return;
    appendTrain(s.newLoss);
    for (const EvalPoint& e : s.newEval) {
        valid_.push_back(e);
        addValid(e);
    }
    if (follow_->isChecked()) {
        plot_->rescaleAxes();
        plot_->yAxis2->setRange(0, 1);
        fitBleuAxis();
    }
    replotIfVisible(plot_);
}

void LossView::addValid(const EvalPoint& e)
{
    if (!logScale() || e.loss > 0)
        validLoss_->addData(x(e), e.loss);
    validAcc_->addData(x(e), e.accuracy);
    if (!std::isnan(e.bleu)) {
        validBleu_->addData(x(e), e.bleu);
        if (!bleuAxis_->visible()) {
            bleuAxis_->setVisible(true);
            validBleu_->addToLegend();
        }
    }
}

void LossView::fitBleuAxis()
{
    double top = 0;
    for (const EvalPoint& e : valid_)
        if (!std::isnan(e.bleu))
            top = std::max(top, e.bleu);
    // From 0, with room above the best score; BLEU is at most 100.
    bleuAxis_->setRange(0, std::min(100.0, std::max(10.0, std::ceil(top * 1.2))));
}

int LossView::bleuPointCount() const
{
    return int(std::count_if(valid_.begin(), valid_.end(), [](const EvalPoint& e) { return !std::isnan(e.bleu); }));
}

void LossView::appendTrain(const std::vector<LossPoint>& pts)
{
    for (const LossPoint& p : pts) {
        train_.push_back(p);
        emaBiased_ = beta_ * emaBiased_ + (1.0 - beta_) * p.loss;
        const double debias = 1.0 - std::pow(beta_, double(train_.size()));
        smoothedValues_.push_back(beta_ > 0.0 ? emaBiased_ / debias : p.loss);
        // A log axis cannot show 0 or negative values; they are kept but not drawn there.
        if (!logScale() || p.loss > 0) {
            raw_->addData(x(p), p.loss);
            smoothed_->addData(x(p), smoothedValues_.back());
        }
    }
}

void LossView::rebuild()
{
    plot_->xAxis->setLabel(byTime() ? tr("training time (s)") : tr("step"));
    raw_->data()->clear();
    smoothed_->data()->clear();
    validLoss_->data()->clear();
    validAcc_->data()->clear();
    validBleu_->data()->clear();
    bleuAxis_->setVisible(false);
    validBleu_->removeFromLegend();
    std::vector<LossPoint> pts;
    pts.swap(train_);
    smoothedValues_.clear();
    emaBiased_ = 0;
    appendTrain(pts);
    for (const EvalPoint& e : valid_)
        addValid(e);
    plot_->rescaleAxes();
    plot_->yAxis2->setRange(0, 1);
    fitBleuAxis();
    replotIfVisible(plot_);
}

void LossView::reset()
{
    train_.clear();
    valid_.clear();
    rebuild();
}

QString LossView::csv() const
{
    QString out = "kind,step,seconds,loss,smoothed_loss,accuracy,lr,bleu\n";
    for (std::size_t i = 0; i < train_.size(); ++i)
        out += QStringLiteral("train,%1,%2,%3,%4,,%5,\n")
                   .arg(train_[i].step)
                   .arg(train_[i].seconds, 0, 'g', 9)
                   .arg(train_[i].loss, 0, 'g', 9)
                   .arg(smoothedValues_[i], 0, 'g', 9)
                   .arg(train_[i].lr, 0, 'g', 9);
    for (const EvalPoint& e : valid_)
        out += QStringLiteral("valid,%1,%2,%3,,%4,,%5\n")
                   .arg(e.step)
                   .arg(e.seconds, 0, 'g', 9)
                   .arg(e.loss, 0, 'g', 9)
                   .arg(e.accuracy, 0, 'g', 9)
                   .arg(std::isnan(e.bleu) ? QString() : QString::number(e.bleu, 'g', 9));
    return out;
}

}  // namespace as::ui
