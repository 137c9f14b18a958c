// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "lr_view.h"

#include "plot_tools.h"
#include "train/schedule.h"
#include "train/snapshot.h"

#include <QEvent>
#include <QCheckBox>
#include <QHBoxLayout>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace as::ui {

namespace {

constexpr long kDefaultPlanned = 1000;  // when the snapshot plans no steps
constexpr long kEveryStepUpTo = 2000;   // one point per step up to here, then sampled
constexpr int kSamples = 4000;
constexpr long kOverlaySteps = 20000;   // the x range of The Annotated Transformer's figure

// The Annotated Transformer's figure: d_model : warmup, factor 1.
struct OverlayCurve {
    int dModel;
    long warmup;
    int series;  // seriesColour()
};
const OverlayCurve kOverlay[3] = {{512, 4000, 1}, {512, 8000, 2}, {256, 4000, 6}};

// Steps at which a curve over 1…last is drawn: every step, or evenly sampled with the warmup
// step (the peak, a kink) always included.
std::vector<long> curveSteps(long last, long warmup)
{
    std::vector<long> steps;
    if (last <= kEveryStepUpTo) {
        for (long s = 1; s <= last; ++s)
            steps.push_back(s);
        return steps;
    }
    steps.reserve(kSamples + 1);
    for (int i = 0; i < kSamples; ++i)
        steps.push_back(1 + std::lround(double(i) * double(last - 1) / double(kSamples - 1)));
    if (warmup > 1 && warmup < last)
        steps.push_back(warmup);
    std::sort(steps.begin(), steps.end());
    steps.erase(std::unique(steps.begin(), steps.end()), steps.end());
    return steps;
}

void fillCurve(QCPGraph* graph, long last, int dModel, double factor, long warmup)
{
    const std::vector<long> steps = curveSteps(last, warmup);
    QVector<double> keys, values;
    keys.reserve(qsizetype(steps.size()));
    values.reserve(qsizetype(steps.size()));
    for (long s : steps) {
        keys.push_back(double(s));
        values.push_back(noamRate(s, dModel, factor, warmup));
    }
    graph->setData(keys, values, true);
}

QString fmtRate(double r) { return QString::number(r, 'g', 4); }

}  // namespace

LrView::LrView(QWidget* parent) : QWidget(parent)
{
    plot_ = new QCustomPlot(this);
    // Curves of one point per step: drawn as one polyline each, not segment by segment (a
    // 12,000-step curve took up to 30 ms a replot on the GUI thread otherwise).
    plot_->setPlottingHint(QCP::phFastPolylines, true);
    plot_->setObjectName(QStringLiteral("learningRatePlot"));
    plot_->setMinimumSize(360, 240);

    title_ = new QCPTextElement(plot_, QString(),
                                QFont(font().family(), font().pointSize() + 1, QFont::Bold));
    plot_->plotLayout()->insertRow(0);
    plot_->plotLayout()->addElement(0, 0, title_);
    plot_->xAxis->setNumberFormat(QStringLiteral("f"));
    plot_->xAxis->setNumberPrecision(0);

    for (int i = 0; i < 3; ++i) {
        const OverlayCurve& o = kOverlay[i];
        QCPGraph* g = plot_->addGraph();
        g->setPen(QPen(Qt::black, 1.6, Qt::DashLine));
        setSeriesColour(g, o.series);
        fillCurve(g, kOverlaySteps, o.dModel, 1.0, o.warmup);
        g->setVisible(false);
        overlay_[i] = g;
    }

    // The rates applied, one per step, as a broad line under the schedule's curve: the stretch
    // already trained stands out. (A disc per step cost 16 ms a redraw after a few thousand.)
    applied_ = plot_->addGraph();
    applied_->setPen(QPen(Qt::black, 5));
    setSeriesColour(applied_, 3);
    applied_->setAdaptiveSampling(true);

    curve_ = plot_->addGraph();
    curve_->setPen(QPen(Qt::black, 2.2));
    setSeriesColour(curve_, 0);

    stepLine_ = new QCPItemStraightLine(plot_);
    stepLine_->setPen(QPen(Qt::black, 1, Qt::DotLine));
    setSeriesColour(stepLine_, 7);  // grey
    tracer_ = new QCPItemTracer(plot_);  // follows curve_ once it has data (see reset())
    tracer_->setInterpolating(true);
    tracer_->setStyle(QCPItemTracer::tsCircle);
    tracer_->setSize(9);
    tracer_->setPen(QPen(Qt::black, 2));
    tracer_->setBrush(Qt::NoBrush);  // a ring around the curve's point
    setSeriesColour(tracer_, 0);

    plot_->legend->setVisible(true);
    plot_->legend->setBrush(legendBrush(palette()));
    plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);

    overlayBox_ = new QCheckBox(this);
    connect(overlayBox_, &QCheckBox::toggled, this, [this](bool on) {
        for (QCPGraph* g : overlay_) {
            g->setVisible(on);
            if (on)
                g->addToLegend();
            else
                g->removeFromLegend();
        }
        updateRanges();
        replotIfVisible(plot_);
    });
    for (QCPGraph* g : overlay_)
        g->removeFromLegend();

    logBox_ = new QCheckBox(this);
    connect(logBox_, &QCheckBox::toggled, this, [this](bool on) { setLogScale(on); });

    auto* top = new QHBoxLayout;
    top->addWidget(overlayBox_);
    top->addWidget(logBox_);
    top->addStretch(1);
    top->addWidget(makeExportButton(plot_, [this] { return csv(); }, this));
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(plot_, 1);

    enableHoverReadout(plot_, [this](QCustomPlot*, QPoint p) { return hoverText(p); });

    reset();
    retranslate();
}

void LrView::retranslate()
{
    title_->setText(tr("Learning rate (Noam schedule)"));
    plot_->xAxis->setLabel(tr("step"));
    plot_->yAxis->setLabel(tr("learning rate"));
    for (int i = 0; i < 3; ++i)
        overlay_[i]->setName(tr("Annotated Transformer %1 : %2").arg(kOverlay[i].dModel).arg(kOverlay[i].warmup));
    applied_->setName(tr("rate applied in a step"));
    nameCurve();
    overlayBox_->setText(tr("Compare with The Annotated Transformer"));
    overlayBox_->setToolTip(
        tr("Overlay the three curves of The Annotated Transformer's figure (factor 1): "
           "d_model / warmup 512 / 4000, 512 / 8000 and 256 / 4000, over 20,000 steps"));
    logBox_->setText(tr("log scale"));
    logBox_->setToolTip(tr("Rates on a logarithmic axis"));
    replotIfVisible(plot_);
}

void LrView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}


void LrView::reset()
{
    applied_->data()->clear();
    appliedLastStep_ = 0;
    appliedMax_ = 0;
    step_ = 0;
    haveSettings_ = false;
    // Until a snapshot arrives: the defaults of the engine.
    settings_ = Settings{ModelConfig{}.d_model, TrainOptions{}.factor, TrainOptions{}.warmup,
                         kDefaultPlanned};
    rebuildCurve();
    tracer_->setGraph(curve_);
    updateMarker();
    updateRanges();
    replotIfVisible(plot_);
}

void LrView::applySnapshot(const TrainingSnapshot& snapshot)
{
    const Settings s{snapshot.config.d_model, snapshot.options.factor, snapshot.options.warmup,
                     snapshot.plannedSteps > 0 ? snapshot.plannedSteps : kDefaultPlanned};
    bool changed = false;
    if (!haveSettings_ || !(s == settings_)) {
        settings_ = s;
        haveSettings_ = true;
        rebuildCurve();
        changed = true;
    }
    if (!snapshot.newLoss.empty()) {
        for (const LossPoint& p : snapshot.newLoss) {
            appliedLastStep_ = std::max(appliedLastStep_, p.step);
            appliedMax_ = std::max(appliedMax_, p.lr);
        }
        appendRates(applied_, snapshot.newLoss.data(), snapshot.newLoss.data() + snapshot.newLoss.size());
        changed = true;
    }
    if (snapshot.step != step_) {
        step_ = snapshot.step;
        changed = true;
    }
    if (!changed)
        return;
    updateMarker();
    updateRanges();
    replotIfVisible(plot_);
}

void LrView::appendRates(QCPGraph* graph, const LossPoint* first, const LossPoint* last)
{
    QVector<double> keys, values;
    keys.reserve(last - first);
    values.reserve(last - first);
    // Sorted when every step follows the last one drawn: appended without a sort.
    bool sorted = true;
    double lastKey = graph->dataCount() > 0 ? (graph->data()->constEnd() - 1)->key
                                            : -std::numeric_limits<double>::infinity();
    for (const LossPoint* p = first; p != last; ++p) {
        sorted = sorted && double(p->step) > lastKey;
        lastKey = double(p->step);
        keys.push_back(double(p->step));
        values.push_back(p->lr);
    }
    graph->addData(keys, values, sorted);
}

void LrView::setComparedRuns(const RunSeriesList& given)
{
    RunSeriesList runs = given;
    const std::vector<int> slotOf = slots_.assign(&runs);
    std::vector<Compared> next;
    next.reserve(runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const RunSeries& s = *runs[i];
        auto old = std::find_if(compared_.begin(), compared_.end(),
                                [&](const Compared& c) { return c.slot == slotOf[i] && c.graph; });
        Compared r{runs[i], slotOf[i], nullptr};
        std::size_t from = 0;
        if (old != compared_.end()) {
            r.graph = std::exchange(old->graph, nullptr);
            if (old->series == runs[i])
                from = s.loss.size();  // the same record: nothing new
            else if (extendsSeries(*old->series, s))
                from = old->series->loss.size();
            else
                r.graph->data()->clear();
        } else {
            r.graph = plot_->addGraph();
            r.graph->setPen(QPen(Qt::black, 1));  // thin: see LossView::makeCompared
            setSeriesColour(r.graph, comparedRunSeries(r.slot));
        }
        r.graph->setName(s.name);
        appendRates(r.graph, s.loss.data() + from, s.loss.data() + s.loss.size());
        next.push_back(std::move(r));
    }
    // Runs no longer compared: their graphs (and legend entries) go.
    for (const Compared& r : compared_)
        if (r.graph)
            plot_->removeGraph(r.graph);
    compared_ = std::move(next);
    updateRanges();
    replotIfVisible(plot_);
}

void LrView::rebuildCurve()
{
    fillCurve(curve_, settings_.planned, settings_.dModel, settings_.factor, settings_.warmup);
    nameCurve();
}

void LrView::nameCurve()
{
    curve_->setName(tr("d_model %1, factor %2, warmup %3")
                        .arg(settings_.dModel)
                        .arg(settings_.factor)
                        .arg(settings_.warmup));
}

void LrView::updateMarker()
{
    const bool show = step_ > 0;
    stepLine_->setVisible(show);
    tracer_->setVisible(show && step_ <= settings_.planned);
    if (!show)
        return;
    stepLine_->point1->setCoords(double(step_), 0);
    stepLine_->point2->setCoords(double(step_), 1);
    tracer_->setGraphKey(double(step_));
}

bool LrView::logScale() const
{
    return plot_->yAxis->scaleType() == QCPAxis::stLogarithmic;
}

void LrView::setLogScale(bool on)
{
    if (logBox_->isChecked() != on)
        logBox_->setChecked(on);  // re-enters through toggled
    if (on == logScale())
        return;
    plot_->yAxis->setScaleType(on ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    plot_->yAxis->setTicker(on ? QSharedPointer<QCPAxisTicker>(new QCPAxisTickerLog)
                               : QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    updateRanges();
    replotIfVisible(plot_);
}

void LrView::updateRanges()
{
    const bool overlay = overlayShown();
    long xMax = std::max(settings_.planned, appliedLastStep_);
    if (overlay)
        xMax = std::max(xMax, kOverlaySteps);
    double comparedMax = 0;
    for (const Compared& r : compared_) {
        if (r.graph->dataCount() == 0)
            continue;
        xMax = std::max(xMax, long((r.graph->data()->constEnd() - 1)->key));
        bool found = false;
        comparedMax = std::max(comparedMax, r.graph->getValueRange(found).upper);
    }
    plot_->xAxis->setRange(0, double(xMax) * 1.02);

    // The peak of a Noam curve is at its warmup step (or at its last step before the warmup ends).
    auto peak = [](int d, double f, long warmup, long last) {
        return noamRate(std::min(warmup, last), d, f, warmup);
    };
    double yMax = peak(settings_.dModel, settings_.factor, settings_.warmup, settings_.planned);
    yMax = std::max(yMax, std::max(appliedMax_, comparedMax));
    if (overlay)
        for (const OverlayCurve& o : kOverlay)
            yMax = std::max(yMax, peak(o.dModel, 1.0, o.warmup, kOverlaySteps));
    if (!(yMax > 0))
        yMax = 1e-3;
    if (logScale()) {
        // From the smallest rate drawn (a warm-up's first steps) to the largest, with a decade
        // of head room for the legend.
        double yMin = yMax;
        for (int i = 0; i < plot_->graphCount(); ++i) {
            const QCPGraph* g = plot_->graph(i);
            bool found = false;
            const QCPRange r = g->visible() ? g->getValueRange(found, QCP::sdPositive) : QCPRange();
            if (found)
                yMin = std::min(yMin, r.lower);
        }
        plot_->yAxis->setRange(yMin / 2, yMax * 10);
        return;
    }
    // Head room for the legend in the top right corner.
    plot_->yAxis->setRange(0, yMax * 1.18);
}

double LrView::curveValueAt(long step) const
{
    const auto data = curve_->data();
    auto it = data->findBegin(double(step), false);  // first key >= step
    if (it == data->constEnd())
        return std::numeric_limits<double>::quiet_NaN();
    if (it->key == double(step))
        return it->value;
    if (it == data->constBegin())
        return std::numeric_limits<double>::quiet_NaN();
    auto prev = it - 1;
    const double t = (double(step) - prev->key) / (it->key - prev->key);
    return prev->value + t * (it->value - prev->value);
}

int LrView::appliedPointCount() const { return applied_->dataCount(); }

bool LrView::overlayShown() const { return overlayBox_->isChecked(); }

void LrView::setOverlayShown(bool shown) { overlayBox_->setChecked(shown); }

QString LrView::hoverText(QPoint pixel) const
{
    if (!plot_->axisRect()->rect().contains(pixel))
        return {};
    const double window = 24;  // pixels either side searched for the nearest point
    const QCPGraph* best = nullptr;
    double bestDist = std::numeric_limits<double>::infinity(), bestKey = 0, bestValue = 0;
    std::vector<const QCPGraph*> graphs = {curve_, applied_, overlay_[0], overlay_[1], overlay_[2]};
    for (const Compared& r : compared_)
        graphs.push_back(r.graph);
    for (const QCPGraph* g : graphs) {
        if (!g->visible() || g->dataCount() == 0)
            continue;
        const auto data = g->data();
        const double k0 = plot_->xAxis->pixelToCoord(pixel.x() - window);
        const double k1 = plot_->xAxis->pixelToCoord(pixel.x() + window);
        auto it = data->findBegin(std::min(k0, k1), true);
        auto end = data->findEnd(std::max(k0, k1), true);
        for (; it != end; ++it) {
            const double dx = plot_->xAxis->coordToPixel(it->key) - pixel.x();
            const double dy = plot_->yAxis->coordToPixel(it->value) - pixel.y();
            const double d = dx * dx + dy * dy;
            if (d < bestDist) {
                bestDist = d;
                best = g;
                bestKey = it->key;
                bestValue = it->value;
            }
        }
    }
    if (!best)
        return {};
    return tr("%1\nstep %2\nrate %3").arg(best->name()).arg(long(bestKey)).arg(fmtRate(bestValue));
}

QString LrView::csv() const
{
    QString out = QStringLiteral("series,step,lr\n");
    auto add = [&out](const QString& series, const QCPGraph* g) {
        const QString quoted = QLatin1Char('"') + series + QLatin1Char('"');
        for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
            out += quoted + QLatin1Char(',') + QString::number(long(it->key)) + QLatin1Char(',')
                   + QString::number(it->value, 'g', 17) + QLatin1Char('\n');
    };
    add(curve_->name(), curve_);
    add(QStringLiteral("applied"), applied_);
    for (const QCPGraph* g : overlay_)
        if (g->visible())
            add(g->name(), g);
    for (const Compared& r : compared_)
        add(r.graph->name(), r.graph);
    return out;
}

}  // namespace as::ui
