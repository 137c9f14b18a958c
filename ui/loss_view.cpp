// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "loss_view.h"

#include "plot_tools.h"

#include <QCheckBox>
#include <QEvent>
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
    plot_->yAxis2->setVisible(true);
    plot_->yAxis2->setRange(0, 1);
    plot_->legend->setVisible(true);
    plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);

    run_.raw = plot_->addGraph();
    run_.raw->setPen(QPen(QColor(0, 0, 0, 70), 1));  // faint: the smoothed curve's colour
    setSeriesColour(run_.raw, 0);
    run_.smoothed = plot_->addGraph();
    run_.smoothed->setPen(QPen(Qt::black, 2));
    setSeriesColour(run_.smoothed, 0);
    run_.validLoss = plot_->addGraph();
    run_.validLoss->setPen(QPen(Qt::black, 2));
    setSeriesColour(run_.validLoss, 3);
    run_.validLoss->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
    run_.validAcc = plot_->addGraph(plot_->xAxis, plot_->yAxis2);
    run_.validAcc->setPen(QPen(Qt::black, 2, Qt::DashLine));
    setSeriesColour(run_.validAcc, 2);
    run_.validAcc->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, 5));
    bleuAxis_ = plot_->axisRect()->addAxis(QCPAxis::atRight);
    bleuAxis_->setRange(0, 10);
    bleuAxis_->setVisible(false);
    run_.validBleu = plot_->addGraph(plot_->xAxis, bleuAxis_);
    run_.validBleu->setPen(QPen(Qt::black, 2));
    setSeriesColour(run_.validBleu, 4);
    run_.validBleu->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, 7));
    run_.validBleu->removeFromLegend();

    // The phase change of in-context learning (a decoder-only run's induction records).
    phaseLine_ = new QCPItemStraightLine(plot_);
    phaseLine_->setPen(QPen(Qt::black, 1.5, Qt::DashLine));
    setSeriesColour(phaseLine_, kAlertSeries);
    phaseLine_->setVisible(false);
    phaseLabel_ = new QCPItemText(plot_);
    phaseLabel_->position->setTypeX(QCPItemPosition::ptPlotCoords);
    phaseLabel_->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    phaseLabel_->setPadding(QMargins(4, 2, 4, 2));
    phaseLabel_->setBrush(legendBrush(palette(), 220));
    phaseLabel_->setProperty(kInkProperty, QStringLiteral("alert"));
    phaseLabel_->setVisible(false);

    xAxisChoice_ = new QComboBox(this);
    xAxisChoice_->addItems({QString(), QString()});  // by step, by wall time
    log_ = new QCheckBox(this);
    follow_ = new QCheckBox(this);
    follow_->setChecked(true);
    smoothing_ = new QSlider(Qt::Horizontal, this);
    smoothing_->setRange(0, 99);
    smoothing_->setValue(int(beta_ * 100));
    smoothing_->setMaximumWidth(160);
    auto* smoothingLabel = new QLabel(this);
    smoothingName_ = new QLabel(this);
    auto* fit = fit_ = new QPushButton(this);

    auto* bar = new QHBoxLayout;
    bar->addWidget(xAxisChoice_);
    bar->addWidget(log_);
    bar->addWidget(smoothingName_);
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
    retranslate();
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

    enableHoverReadout(plot_, [this](QCustomPlot*, QPoint pos) { return hoverText(pos); });
}

QString LossView::hoverText(QPoint pixel) const
{
    if (!plot_->axisRect()->rect().contains(pixel))
        return {};
    const double xv = plot_->xAxis->pixelToCoord(pixel.x());
    QStringList parts;
    if (!train_.empty())
        parts << describeAt(train_, run_.smoothedValues, valid_, xv);
    // The compared runs at the same step (or time), under their names.
    for (const Compared& r : compared_)
        parts << r.series->name + QLatin1Char('\n')
                     + describeAt(r.series->loss, r.curves.smoothedValues, r.series->eval, xv);
    return parts.join(QStringLiteral("\n\n"));
}

void LossView::retranslate()
{
    labelXAxis();
    plot_->yAxis->setLabel(tr("loss"));
    plot_->yAxis2->setLabel(tr("validation token accuracy"));
    bleuAxis_->setLabel(tr("validation BLEU"));
    run_.raw->setName(tr("training loss"));
    run_.smoothed->setName(tr("training loss, smoothed"));
    run_.validLoss->setName(tr("validation loss"));
    run_.validAcc->setName(tr("validation accuracy (right axis)"));
    run_.validBleu->setName(tr("validation BLEU (outer right axis)"));
    xAxisChoice_->setItemText(0, tr("by step"));
    xAxisChoice_->setItemText(1, tr("by wall time"));
    log_->setText(tr("log scale"));
    follow_->setText(tr("follow"));
    follow_->setToolTip(tr("Keep the whole curve in view as it grows (off after a zoom or pan)"));
    smoothing_->setToolTip(tr("Smoothing of the training loss (exponential moving average, "
                              "debiased)"));
    smoothingName_->setText(tr("smoothing"));
    fit_->setText(tr("Fit"));
    fit_->setToolTip(tr("Show all the data"));
    placePhase();  // its label
    replotIfVisible(plot_);
}

void LossView::labelXAxis()
{
    plot_->xAxis->setLabel(byTime() ? tr("training time (s)") : tr("step"));
}

void LossView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

QString LossView::describeAt(const std::vector<LossPoint>& train, const std::vector<double>& smoothed,
                             const std::vector<EvalPoint>& valid, double xv) const
{
    if (train.empty())
        return {};
    // Nearest training point by x (points are in x order).
    auto it = std::lower_bound(train.begin(), train.end(), xv,
                               [this](const LossPoint& a, double v) { return x(a) < v; });
    if (it == train.end())
        --it;
    else if (it != train.begin() && std::abs(x(*std::prev(it)) - xv) < std::abs(x(*it) - xv))
        --it;
    const auto i = std::size_t(it - train.begin());
    QString t = tr("step %1 · %2 s\nloss %3 · smoothed %4 · lr %5")
                    .arg(it->step)
                    .arg(it->seconds, 0, 'f', 1)
                    .arg(it->loss, 0, 'f', 4)
                    .arg(i < smoothed.size() ? smoothed[i] : it->loss, 0, 'f', 4)
                    .arg(it->lr, 0, 'e', 2);
    if (!valid.empty()) {
        auto v = std::min_element(valid.begin(), valid.end(), [&](const auto& a, const auto& b) {
            return std::abs(x(a) - xv) < std::abs(x(b) - xv);
        });
        t += tr("\nvalidation (step %1): loss %2 · accuracy %3")
                 .arg(v->step)
                 .arg(v->loss, 0, 'f', 4)
                 .arg(v->accuracy, 0, 'f', 3);
        if (!std::isnan(v->bleu))
            t += tr(" · BLEU %1").arg(v->bleu, 0, 'f', 2);
        if (!std::isnan(v->nll))
            t += tr("\nNLL %1 per token (no label smoothing) · perplexity %2")
                     .arg(v->nll, 0, 'f', 4)
                     .arg(v->perplexity(), 0, 'f', 2);
    }
    return t;
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
    return run_.smoothedValues.at(std::size_t(i));
}

void LossView::applySnapshot(const TrainingSnapshot& s)
{
    if (s.newLoss.empty() && s.newEval.empty())
        return;
    appendTrain(s.newLoss);
    for (const EvalPoint& e : s.newEval) {
        valid_.push_back(e);
        addValid(run_, e);
    }
    if (follow_->isChecked())
        fitAll();
    placePhase();
    replotIfVisible(plot_);
}

void LossView::setPhaseChange(long step)
{
    phaseStep_ = step < 0 ? -1 : step;
    placePhase();
    replotIfVisible(plot_);
}

std::optional<long> LossView::phaseChange() const
{
    return phaseStep_ < 0 ? std::nullopt : std::optional<long>(phaseStep_);
}

double LossView::xOfStep(long step) const
{
    if (!byTime())
        return double(step);
    // The validation at that step (the records are measured there), else the training step.
    for (const EvalPoint& e : valid_)
        if (e.step == step)
            return e.seconds;
    auto it = std::lower_bound(train_.begin(), train_.end(), step,
                               [](const LossPoint& p, long s) { return p.step < s; });
    return it != train_.end() && it->step == step ? it->seconds : std::nan("");
}

void LossView::placePhase()
{
    const double x = phaseStep_ < 0 ? std::nan("") : xOfStep(phaseStep_);
    const bool shown = std::isfinite(x);
    phaseLine_->setVisible(shown);
    phaseLabel_->setVisible(shown);
    if (!shown)
        return;
    phaseLine_->point1->setCoords(x, 0);
    phaseLine_->point2->setCoords(x, 1);
    phaseLabel_->setText(tr("phase change (in-context learning)\nstep %1").arg(phaseStep_));
    // Right of the line (where the loss has fallen), below the legend; left of it near the
    // right end.
    const QCPRange range = plot_->xAxis->range();
    const bool left = range.size() > 0 && (x - range.lower) / range.size() > 0.75;
    phaseLabel_->setPositionAlignment((left ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
    phaseLabel_->position->setCoords(x, 0.3);
}

void LossView::fitAll()
{
    plot_->rescaleAxes();
    plot_->yAxis2->setRange(0, 1);
    fitBleuAxis();
}

void LossView::addValid(Curves& c, const EvalPoint& e)
{
    if (!logScale() || e.loss > 0)
        c.validLoss->addData(x(e), e.loss);
    c.validAcc->addData(x(e), e.accuracy);
    if (!std::isnan(e.bleu)) {
        c.validBleu->addData(x(e), e.bleu);
        bleuAxis_->setVisible(true);
        if (&c == &run_)
            c.validBleu->addToLegend();  // compared runs: one legend entry each, their name
    }
}

void LossView::fitBleuAxis()
{
    double top = 0;
    auto highest = [&top](const std::vector<EvalPoint>& points) {
        for (const EvalPoint& e : points)
            if (!std::isnan(e.bleu))
                top = std::max(top, e.bleu);
    };
    highest(valid_);
    for (const Compared& r : compared_)
        highest(r.series->eval);
    // From 0, with room above the best score; BLEU is at most 100.
    bleuAxis_->setRange(0, std::min(100.0, std::max(10.0, std::ceil(top * 1.2))));
}

int LossView::bleuPointCount() const
{
    return int(std::count_if(valid_.begin(), valid_.end(), [](const EvalPoint& e) { return !std::isnan(e.bleu); }));
}

void LossView::appendTrain(const std::vector<LossPoint>& pts)
{
    train_.insert(train_.end(), pts.begin(), pts.end());
    appendLoss(run_, pts.data(), pts.data() + pts.size());
}

void LossView::appendLoss(Curves& c, const LossPoint* first, const LossPoint* last)
{
    QVector<double> keys, raw, smoothed;
    keys.reserve(last - first);
    raw.reserve(last - first);
    smoothed.reserve(last - first);
    bool sorted = true;
    for (const LossPoint* p = first; p != last; ++p) {
        c.emaBiased = beta_ * c.emaBiased + (1.0 - beta_) * p->loss;
        const double debias = 1.0 - std::pow(beta_, double(c.smoothedValues.size() + 1));
        c.smoothedValues.push_back(beta_ > 0.0 ? c.emaBiased / debias : p->loss);
        // A log axis cannot show 0 or negative values; they are kept but not drawn there.
        if (!logScale() || p->loss > 0) {
            sorted = sorted && (keys.isEmpty() || keys.back() <= x(*p));
            keys.push_back(x(*p));
            raw.push_back(p->loss);
            smoothed.push_back(c.smoothedValues.back());
        }
    }
    // Steps come in order (and so does training time): then appended without a sort.
    if (c.raw)
        c.raw->addData(keys, raw, sorted);
    c.smoothed->addData(keys, smoothed, sorted);
}

void LossView::clearCurves(Curves& c)
{
    for (QCPGraph* g : {c.raw, c.smoothed, c.validLoss, c.validAcc, c.validBleu})
        if (g)
            g->data()->clear();
    c.emaBiased = 0;
    c.smoothedValues.clear();
}

LossView::Compared LossView::makeCompared(const RunSeriesPtr& series, int slot)
{
    Compared r;
    r.series = series;
    r.slot = slot;
    const QColor colour = comparedRunColour(slot, palette());
    Curves& c = r.curves;
    c.smoothed = plot_->addGraph();
    // Width 1: a 20,000-point curve of width 2 took 4 times as long to draw (QPainter strokes
    // wide lines; see the README).
    c.smoothed->setPen(QPen(colour, 1));
    c.validLoss = plot_->addGraph();
    c.validLoss->setPen(QPen(colour, 1));
    c.validLoss->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
    c.validAcc = plot_->addGraph(plot_->xAxis, plot_->yAxis2);
    c.validAcc->setPen(QPen(colour, 1, Qt::DashLine));
    c.validAcc->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, 5));
    c.validBleu = plot_->addGraph(plot_->xAxis, bleuAxis_);
    c.validBleu->setPen(QPen(colour, 1, Qt::DotLine));
    c.validBleu->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, 7));
    for (QCPGraph* g : {c.validLoss, c.validAcc, c.validBleu})
        g->removeFromLegend();
    for (QCPGraph* g : {c.smoothed, c.validLoss, c.validAcc, c.validBleu})
        setSeriesColour(g, comparedRunSeries(slot));
    return r;
}

void LossView::drawCompared(Compared& r, std::size_t lossFrom, std::size_t evalFrom)
{
    const RunSeries& s = *r.series;
    r.curves.smoothed->setName(s.name);
    appendLoss(r.curves, s.loss.data() + lossFrom, s.loss.data() + s.loss.size());
    for (std::size_t i = evalFrom; i < s.eval.size(); ++i)
        addValid(r.curves, s.eval[i]);
}

void LossView::setComparedRuns(const RunSeriesList& given)
{
    RunSeriesList runs = given;
    const std::vector<int> slotOf = slots_.assign(&runs);
    std::vector<Compared> next;
    next.reserve(runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i) {
        auto old = std::find_if(compared_.begin(), compared_.end(),
                                [&](const Compared& c) { return c.slot == slotOf[i] && c.series; });
        if (old == compared_.end()) {
            next.push_back(makeCompared(runs[i], slotOf[i]));
            drawCompared(next.back(), 0, 0);
            continue;
        }
        Compared r = std::move(*old);
        old->series.reset();  // taken
        const RunSeriesPtr before = r.series;
        r.series = runs[i];
        if (before == runs[i]) {
            // The same record: nothing to draw.
        } else if (extendsSeries(*before, *runs[i])) {
            drawCompared(r, before->loss.size(), before->eval.size());
        } else {
            clearCurves(r.curves);
            drawCompared(r, 0, 0);
        }
        next.push_back(std::move(r));
    }
    // Runs no longer compared: their graphs (and legend entries) go.
    for (const Compared& r : compared_)
        if (r.series)
            for (QCPGraph* g : {r.curves.smoothed, r.curves.validLoss, r.curves.validAcc, r.curves.validBleu})
                plot_->removeGraph(g);
    compared_ = std::move(next);
    if (!run_.validBleu->dataCount()
        && std::none_of(compared_.begin(), compared_.end(),
                        [](const Compared& r) { return r.curves.validBleu->dataCount() > 0; }))
        bleuAxis_->setVisible(false);
    if (follow_->isChecked())
        fitAll();
    replotIfVisible(plot_);
}

LossView::ComparedGraphs LossView::comparedRun(int i) const
{
    const Compared& r = compared_.at(std::size_t(i));
    return ComparedGraphs{r.series, comparedRunColour(r.slot, palette()), r.curves.smoothed,
                          r.curves.validLoss, r.curves.validAcc, r.curves.validBleu};
}

void LossView::rebuild()
{
    labelXAxis();
    clearCurves(run_);
    bleuAxis_->setVisible(false);
    run_.validBleu->removeFromLegend();
    appendLoss(run_, train_.data(), train_.data() + train_.size());
    for (const EvalPoint& e : valid_)
        addValid(run_, e);
    for (Compared& r : compared_) {
        clearCurves(r.curves);
        drawCompared(r, 0, 0);
    }
    fitAll();
    placePhase();
    replotIfVisible(plot_);
}

void LossView::reset()
{
    train_.clear();
    valid_.clear();
    phaseStep_ = -1;
    rebuild();
}

QString LossView::csv() const
{
    // The current run's rows (run empty), then each compared run's under its name.
    QString out = "kind,step,seconds,loss,smoothed_loss,accuracy,lr,bleu,nll,perplexity,run\n";
    auto add = [&out](const std::vector<LossPoint>& train, const std::vector<double>& smoothed,
                      const std::vector<EvalPoint>& valid, const QString& run) {
        const QString name = run.isEmpty() ? QString() : QLatin1Char('"') + QString(run).replace('"', "\"\"") + QLatin1Char('"');
        for (std::size_t i = 0; i < train.size(); ++i)
            out += QStringLiteral("train,%1,%2,%3,%4,,%5,,,,%6\n")
                       .arg(train[i].step)
                       .arg(train[i].seconds, 0, 'g', 9)
                       .arg(train[i].loss, 0, 'g', 9)
                       .arg(smoothed[i], 0, 'g', 9)
                       .arg(train[i].lr, 0, 'g', 9)
                       .arg(name);
        const auto number = [](double v) { return std::isnan(v) ? QString() : QString::number(v, 'g', 9); };
        for (const EvalPoint& e : valid)
            out += QStringLiteral("valid,%1,%2,%3,,%4,,%5,%6,%7,%8\n")
                       .arg(e.step)
                       .arg(e.seconds, 0, 'g', 9)
                       .arg(e.loss, 0, 'g', 9)
                       .arg(e.accuracy, 0, 'g', 9)
                       .arg(number(e.bleu), number(e.nll), number(e.perplexity()), name);
    };
    add(train_, run_.smoothedValues, valid_, {});
    if (phaseStep_ >= 0) {
        // The phase change of in-context learning (core/SPEC.md §13.5): its step and time.
        const auto it = std::find_if(valid_.begin(), valid_.end(), [this](const EvalPoint& e) { return e.step == phaseStep_; });
        out += QStringLiteral("phase_change,%1,%2,,,,,,,,\n")
                   .arg(phaseStep_)
                   .arg(it != valid_.end() ? QString::number(it->seconds, 'g', 9) : QString());
    }
    for (const Compared& r : compared_)
        add(r.series->loss, r.curves.smoothedValues, r.series->eval, r.series->name);
    return out;
}

}  // namespace as::ui
