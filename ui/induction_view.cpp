// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "induction_view.h"

#include "eval/interpret.h"
#include "replay_bar.h"

#include <QComboBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStackedWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace as::ui {

namespace {

constexpr int kPointSize = 8;  // the view's labels, ticks and legends
// Records are kept whole (see the header): appendThinned never thins below this many.
constexpr int kKeepAll = std::numeric_limits<int>::max();

QFont smallFont(bool bold = false)
{
    return pointFont(kPointSize, bold);
}

double nan()
{
    return std::numeric_limits<double>::quiet_NaN();
}

double at(const std::vector<double>& v, int i)
{
    return i >= 0 && i < int(v.size()) ? v[std::size_t(i)] : nan();
}

bool ablated(const InductionRecord& r)
{
    return !r.masked.empty();
}

QCustomPlot* makePlot(const char* name)
{
    auto* plot = new QCustomPlot;
    plot->setObjectName(QString::fromLatin1(name));
    plot->setMinimumSize(180, 150);
    for (QCPAxis* a : {plot->xAxis, plot->yAxis}) {
        a->setTickLabelFont(smallFont());
        a->setLabelFont(smallFont());
        a->setLabelPadding(2);
    }
    plot->legend->setFont(smallFont());
    plot->legend->setIconSize(18, 8);
    return plot;
}

// The legend in a row of its own under the axis rect (after the title was added), its entries
// side by side: over the curves it would hide the part of them a phase change label does not.
void legendBelow(QCustomPlot* plot)
{
    plot->axisRect()->insetLayout()->take(plot->legend);
    QCPLayoutGrid* layout = plot->plotLayout();
    const int row = layout->rowCount();
    layout->addElement(row, 0, plot->legend);
    layout->setRowStretchFactor(row, 0.001);
    plot->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    plot->legend->setWrap(3);
    plot->legend->setMargins(QMargins(4, 0, 4, 4));
    plot->legend->setBorderPen(Qt::NoPen);  // a row of the plot, not a box over it
    plot->legend->setVisible(true);
}

// A vertical line at a step, across the whole axis rect.
QCPItemStraightLine* verticalLine(QCustomPlot* plot, Qt::PenStyle style, int series)
{
    auto* line = new QCPItemStraightLine(plot);
    line->setPen(QPen(Qt::black, 1.5, style));
    setSeriesColour(line, series);
    line->setVisible(false);
    return line;
}

void placeVertical(QCPItemStraightLine* line, double x)
{
    line->point1->setCoords(x, 0);
    line->point2->setCoords(x, 1);
}

}  // namespace

InductionView::InductionView(QWidget* parent) : QWidget(parent)
{
    colourLabel_ = new QLabel(this);
    metricBox_ = new QComboBox(this);
    for (Metric m : {Metric::Induction, Metric::Previous, Metric::Duplicate, Metric::Copying})
        metricBox_->addItem(QString(), int(m));
    ablateInduction_ = new QPushButton(this);
    ablatePrevious_ = new QPushButton(this);
    restore_ = new QPushButton(this);
    auto* bar = new QHBoxLayout;
    bar->addWidget(colourLabel_);
    bar->addWidget(metricBox_);
    bar->addStretch(1);
    bar->addWidget(ablateInduction_);
    bar->addWidget(ablatePrevious_);
    bar->addWidget(restore_);
    info_ = new QLabel(this);
    info_->setWordWrap(true);
    mutedLabel_ = new QLabel(this);
    mutedLabel_->setWordWrap(true);
    showAsAlert(mutedLabel_);
    mutedLabel_->setVisible(false);
    replay_ = new ReplayBar(this);

    placeholder_ = new QLabel(this);
    placeholder_->setAlignment(Qt::AlignCenter);
    placeholder_->setWordWrap(true);
    placeholder_->setMargin(20);

    // The map.
    mapPlot_ = makePlot("induction_map");
    mapPlot_->setCursor(Qt::PointingHandCursor);
    QCPColorGradient sequential = sequentialGradient(isDarkPalette(palette()));
    heat_ = makeHeatmap(mapPlot_, true, sequential);
    heat_.scale->axis()->setTickLabelFont(smallFont());
    heat_.scale->axis()->setLabelFont(smallFont());
    heat_.scale->setBarWidth(10);
    mapTitle_ = addTitle(mapPlot_, QString(), smallFont(true));
    enableHoverReadout(mapPlot_, [this](QCustomPlot*, QPoint p) { return mapHover(p); });
    connect(mapPlot_, &QCustomPlot::mousePress, this, [this](QMouseEvent* e) {
        int row = 0, col = 0;
        if (heatmapCellAt(heat_, e->pos(), &row, &col))
            emit headClicked(HeadId{AttentionKind::DecoderSelf, row, col}, shownStep());
    });

    // The scores over steps: a graph per head and score, made for the model's shape.
    scoresPlot_ = makePlot("induction_scores");
    scoresTitle_ = addTitle(scoresPlot_, QString(), smallFont(true));
    legendBelow(scoresPlot_);
    scoresPlot_->yAxis->setRange(0, 1.05);
    enableHoverReadout(scoresPlot_, [this](QCustomPlot*, QPoint p) { return scoresHover(p); });

    // The copies' losses and the in-context score over steps.
    copiesPlot_ = makePlot("induction_copies");
    copiesTitle_ = addTitle(copiesPlot_, QString(), smallFont(true));
    legendBelow(copiesPlot_);
    for (int a = 0; a < 2; ++a) {
        CopyGraphs& c = copies_[a];
        c.first = copiesPlot_->addGraph();
        c.later = copiesPlot_->addGraph();
        c.score = copiesPlot_->addGraph();
        const int series[3] = {0, 1, 2};
        QCPGraph* graphs[3] = {c.first, c.later, c.score};
        for (int k = 0; k < 3; ++k) {
            QCPGraph* g = graphs[k];
            if (a == 0) {
                g->setPen(QPen(Qt::black, k == 2 ? 1.5 : 2, k == 2 ? Qt::DashLine : Qt::SolidLine));
            } else {
                // Ablated records: markers alone, beside the unablated lines.
                g->setPen(QPen(Qt::black, 1.5));
                g->setLineStyle(QCPGraph::lsNone);
                g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(Qt::black, 1.5),
                                                   QBrush(Qt::black), 8));
                if (k != 1)
                    g->removeFromLegend();  // one entry for the three: "with heads ablated"
            }
            setSeriesColour(g, series[k]);
        }
    }
    enableHoverReadout(copiesPlot_, [this](QCustomPlot*, QPoint p) { return copiesHover(p); });

    // The phase change, and the record shown while replaying, on both plots over steps.
    QCustomPlot* overSteps[2] = {scoresPlot_, copiesPlot_};
    for (int i = 0; i < 2; ++i) {
        QCustomPlot* plot = overSteps[i];
        phaseLines_[i] = verticalLine(plot, Qt::DashLine, kAlertSeries);
        auto* label = phaseLabels_[i] = new QCPItemText(plot);
        label->position->setTypeX(QCPItemPosition::ptPlotCoords);
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->setFont(smallFont(true));
        label->setPadding(QMargins(3, 1, 3, 1));
        label->setBrush(legendBrush(palette(), 210));
        label->setProperty(kInkProperty, QStringLiteral("alert"));
        label->setVisible(false);
        shownLines_[i] = verticalLine(plot, Qt::DotLine, 7);
    }

    // The loss at each position of the probe.
    positionPlot_ = makePlot("induction_positions");
    positionTitle_ = addTitle(positionPlot_, QString(), smallFont(true));
    positionPlot_->legend->setVisible(true);
    positionPlot_->legend->setBrush(legendBrush(palette(), 200));
    // Top left, above the curves (drawPosition leaves room there when it shows the legend).
    positionPlot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    positionReference_ = positionPlot_->addGraph();
    positionReference_->setPen(QPen(QColor(0, 0, 0, 140), 1.5, Qt::DashLine));
    setSeriesColour(positionReference_, 7);
    positionLoss_ = positionPlot_->addGraph();
    positionLoss_->setPen(QPen(Qt::black, 1.5));
    positionLoss_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 3));
    setSeriesColour(positionLoss_, 0);
    enableHoverReadout(positionPlot_, [this](QCustomPlot*, QPoint p) { return positionHover(p); });

    // The circuit: the induction head's K-composition with every head of the layers below.
    circuitPlot_ = makePlot("induction_circuit");
    circuitTitle_ = addTitle(circuitPlot_, QString(), smallFont(true));
    circuitPlot_->xAxis->grid()->setVisible(false);  // bars, not a scale
    compositionBars_ = new QCPBars(circuitPlot_->xAxis, circuitPlot_->yAxis);
    compositionBars_->setWidth(0.7);
    compositionBars_->setPen(Qt::NoPen);
    compositionBars_->setBrush(QColor(0, 0, 0, 150));
    setSeriesColour(compositionBars_, 0);
    previousBar_ = new QCPBars(circuitPlot_->xAxis, circuitPlot_->yAxis);
    previousBar_->setWidth(0.7);
    previousBar_->setPen(Qt::NoPen);
    previousBar_->setBrush(QColor(0, 0, 0, 255));
    setSeriesColour(previousBar_, 1);
    baselineLine_ = new QCPItemStraightLine(circuitPlot_);
    baselineLine_->setPen(QPen(Qt::black, 1.5, Qt::DashLine));
    setSeriesColour(baselineLine_, 7);
    baselineLabel_ = new QCPItemText(circuitPlot_);
    baselineLabel_->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    baselineLabel_->position->setTypeY(QCPItemPosition::ptPlotCoords);
    baselineLabel_->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    baselineLabel_->setFont(smallFont());
    baselineLabel_->setBrush(legendBrush(palette(), 200));
    baselineLabel_->setProperty(kInkProperty, QStringLiteral("muted"));
    circuitNote_ = new QCPItemText(circuitPlot_);
    circuitNote_->position->setType(QCPItemPosition::ptAxisRectRatio);
    circuitNote_->position->setCoords(0.5, 0.5);
    circuitNote_->setPositionAlignment(Qt::AlignCenter);
    circuitNote_->setTextAlignment(Qt::AlignCenter);
    circuitNote_->setFont(smallFont());
    circuitNote_->setProperty(kInkProperty, QStringLiteral("muted"));
    circuitNote_->setVisible(false);
    enableHoverReadout(circuitPlot_, [this](QCustomPlot*, QPoint p) { return circuitHover(p); });
    for (QCustomPlot* plot : {scoresPlot_, copiesPlot_, positionPlot_, circuitPlot_})
        followPalette(plot);

    // Each plot with its export (CSV: the numbers drawn).
    QWidget* mapPanel = panel(mapPlot_, [this] {
        QStringList layers;
        for (int l = 0; l < heat_.rows; ++l)
            layers << tr("layer %1").arg(l + 1);
        return heatmapCsv(heat_, tr("layer \\ head"), layers);
    }, nullptr);
    QWidget* scoresPanel = panel(scoresPlot_, [this] {
        QString out = QStringLiteral("step,head,induction,previous_token,duplicate_token,copying,masked\n");
        for (int i = 0; i < history_.size(); ++i) {
            const InductionRecord& r = *history_.at(i);
            QStringList masked;
            for (int m : r.masked)
                masked << headSpec({HeadId{AttentionKind::DecoderSelf, m / std::max(1, r.heads), m % std::max(1, r.heads)}});
            for (int h = 0; h < r.layers * r.heads; ++h)
                out += QStringLiteral("%1,%2,%3,%4,%5,%6,\"%7\"\n")
                           .arg(r.step)
                           .arg(headSpec({HeadId{AttentionKind::DecoderSelf, h / r.heads, h % r.heads}}))
                           .arg(at(r.induction, h), 0, 'g', 9)
                           .arg(at(r.previous, h), 0, 'g', 9)
                           .arg(at(r.duplicate, h), 0, 'g', 9)
                           .arg(at(r.copying, h), 0, 'g', 9)
                           .arg(masked.join(QLatin1Char(' ')));
        }
        return out;
    }, nullptr);
    QWidget* copiesPanel = panel(copiesPlot_, [this] {
        QString out = QStringLiteral("step,first_copy_loss,later_copy_loss,in_context_score,masked\n");
        for (int i = 0; i < history_.size(); ++i) {
            const InductionRecord& r = *history_.at(i);
            QStringList masked;
            for (int m : r.masked)
                masked << headSpec({HeadId{AttentionKind::DecoderSelf, m / std::max(1, r.heads), m % std::max(1, r.heads)}});
            out += QStringLiteral("%1,%2,%3,%4,\"%5\"\n")
                       .arg(r.step)
                       .arg(r.firstCopyLoss, 0, 'g', 9)
                       .arg(r.laterCopyLoss, 0, 'g', 9)
                       .arg(r.inContextScore, 0, 'g', 9)
                       .arg(masked.join(QLatin1Char(' ')));
        }
        if (phase_)
            out += QStringLiteral("# phase change at step %1\n").arg(*phase_);
        return out;
    }, nullptr);
    QWidget* positionPanel = panel(positionPlot_, [this] {
        QString out = QStringLiteral("position,loss,loss_without_ablation\n");
        const auto& ref = positionReference_->data();
        for (int i = 0; i < positionLoss_->dataCount(); ++i) {
            const double x = positionLoss_->data()->at(i)->key;
            auto it = ref->findBegin(x, false);
            const QString without = it != ref->constEnd() && it->key == x ? QString::number(it->value, 'g', 9) : QString();
            out += QStringLiteral("%1,%2,%3\n").arg(x).arg(positionLoss_->data()->at(i)->value, 0, 'g', 9).arg(without);
        }
        return out;
    }, nullptr);
    QWidget* circuitPanel = panel(circuitPlot_, [this] {
        QString out = QStringLiteral("reader,writer,k_composition,baseline\n");
        const InductionRecord* r = circuitRecord();
        if (!r || !circuitInduction_)
            return out;
        const HeadId& top = *circuitInduction_;
        for (std::size_t k = 0; k < earlierHeads_.size(); ++k)
            out += QStringLiteral("%1,%2,%3,%4\n")
                       .arg(headSpec({top}), headSpec({idOf(earlierHeads_[k])}))
                       .arg(compositionBars_->data()->at(int(k))->value, 0, 'g', 9)
                       .arg(r->compositionBaseline, 0, 'g', 9);
        return out;
    }, nullptr);

    auto* plots = new QWidget;
    auto* grid = new QGridLayout(plots);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setSpacing(4);
    // Top: the map, the circuit, the loss at each position (each two of six columns); below,
    // the two plots over steps (three each), which share their step axis's range.
    grid->addWidget(mapPanel, 0, 0, 1, 2);
    grid->addWidget(circuitPanel, 0, 2, 1, 2);
    grid->addWidget(positionPanel, 0, 4, 1, 2);
    grid->addWidget(scoresPanel, 1, 0, 1, 3);
    grid->addWidget(copiesPanel, 1, 3, 1, 3);
    for (int c = 0; c < 6; ++c)
        grid->setColumnStretch(c, 1);
    grid->setRowStretch(0, 1);
    grid->setRowStretch(1, 1);

    stack_ = new QStackedWidget(this);
    stack_->addWidget(placeholder_);
    stack_->addWidget(plots);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(info_);
    layout->addWidget(mutedLabel_);
    layout->addWidget(replay_);
    layout->addWidget(stack_, 1);

    connect(metricBox_, &QComboBox::currentIndexChanged, this,
            [this](int i) { setMetric(Metric(metricBox_->itemData(i).toInt())); });
    connect(replay_, &ReplayBar::indexRequested, this, &InductionView::showRecord);
    connect(ablateInduction_, &QPushButton::clicked, this, [this] {
        if (circuitInduction_)
            emit ablationRequested({*circuitInduction_});
    });
    connect(ablatePrevious_, &QPushButton::clicked, this, [this] {
        if (circuitPrevious_)
            emit ablationRequested({*circuitPrevious_});
    });
    connect(restore_, &QPushButton::clicked, this, [this] { emit ablationRequested({}); });
    retranslate();
}

void InductionView::retranslate()
{
    colourLabel_->setText(tr("Colour by"));
    for (int i = 0; i < metricBox_->count(); ++i)
        metricBox_->setItemText(i, metricName(Metric(metricBox_->itemData(i).toInt())));
    metricBox_->setToolTip(
        tr("Each head's score on the probe of repeated random tokens (core/SPEC.md §13):\n"
           "induction: its mean attention from each token of a later copy to the token after that\n"
           "token's first occurrence (Olsson et al.'s prefix matching; 1: a perfect induction head)\n"
           "previous-token: its mean attention to the token just before\n"
           "duplicate-token: its mean attention to the token's first occurrence itself\n"
           "copying: how much its output raises, directly, the logit of the token an induction\n"
           "head would copy (a direct logit attribution, in logits)"));
    ablateInduction_->setText(tr("Ablate the induction head"));
    ablatePrevious_->setText(tr("Ablate the previous-token head"));
    restore_->setText(tr("Restore"));
    restore_->setToolTip(tr("Unmute every head (the Heads view's mutes too)"));
    replay_->setEmptyText(tr("no validation recorded"));
    replay_->setSliderToolTip(tr("Replay the records of the validations; at the right end the view "
                                 "follows the latest"));
    placeholder_->setText(
        decoderOnly_ ? tr("Induction scores are measured at each validation of a decoder-only model "
                          "(a GPT): they appear at the first validation. Train the repeat task to "
                          "watch induction heads form.")
                     : tr("Induction scores are measured at each validation of a decoder-only model "
                          "(a GPT); this model is an encoder–decoder. Train the repeat task to watch "
                          "them form."));
    mapPlot_->xAxis->setLabel(tr("head"));
    mapPlot_->yAxis->setLabel(tr("layer"));
    scoresTitle_->setText(tr("Scores over training · solid: induction · dashed: previous-token"));
    scoresPlot_->xAxis->setLabel(tr("step"));
    scoresPlot_->yAxis->setLabel(tr("score"));
    copiesTitle_->setText(tr("In-context learning over training"));
    copiesPlot_->xAxis->setLabel(tr("step"));
    copiesPlot_->yAxis->setLabel(tr("loss (nats)"));
    copies_[0].first->setName(tr("first copies' loss"));
    copies_[0].later->setName(tr("later copies' loss"));
    copies_[0].score->setName(tr("in-context score"));
    copies_[1].first->setName(tr("first copies' loss, with heads ablated"));
    copies_[1].later->setName(tr("with heads ablated"));
    copies_[1].score->setName(tr("in-context score, with heads ablated"));
    positionPlot_->xAxis->setLabel(tr("position in the probe"));
    positionPlot_->yAxis->setLabel(tr("loss (nats)"));
    circuitPlot_->xAxis->setLabel(tr("earlier head (orange: previous-token head)"));
    circuitPlot_->yAxis->setLabel(tr("K-composition"));
    updateButtons();
    draw();  // the titles that say the step, the info line
}

void InductionView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

QString InductionView::metricName(Metric m) const
{
    switch (m) {
    case Metric::Induction: return tr("induction score");
    case Metric::Previous: return tr("previous-token score");
    case Metric::Duplicate: return tr("duplicate-token score");
    case Metric::Copying: break;
    }
    return tr("copying (logits)");
}

QString InductionView::headLabel(int index) const
{
    return headLabel(idOf(index));
}

QString InductionView::headLabel(const HeadId& id) const
{
    // Numbered from 1, as the window numbers layers and heads (the CLI's names count from 0).
    return tr("L%1 H%2").arg(id.layer + 1).arg(id.head + 1);
}

HeadId InductionView::idOf(int index) const
{
    const int heads = std::max(1, heads_);
    return HeadId{AttentionKind::DecoderSelf, index / heads, index % heads};
}

void InductionView::drawNow()
{
    throttle_.drawNow();
}

void InductionView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    throttle_.shown();
}

void InductionView::applySnapshot(const TrainingSnapshot& snapshot)
{
    setDecoderOnly(snapshot.config.decoderOnly());
    if (snapshot.induction)
        addRecord(snapshot.induction);
}

void InductionView::addRecord(std::shared_ptr<const InductionRecord> record)
{
    if (!record || record->layers <= 0 || record->heads <= 0)
        return;
    if (!history_.append(std::move(record), kKeepAll))
        return;
    updatePhase();
    // What the buttons ask for is the record's now, drawn or not.
    updateCircuit();
    updateButtons();
    throttle_.schedule();
}

void InductionView::reset()
{
    history_.clear();
    muted_.clear();
    updatePhase();
    drawNow();
}

void InductionView::setDecoderOnly(bool decoderOnly)
{
    if (decoderOnly_ == decoderOnly)
        return;
    decoderOnly_ = decoderOnly;
    retranslate();
}

void InductionView::setMuted(const std::vector<HeadId>& muted)
{
    muted_ = muted;
    updateButtons();
}

void InductionView::setMetric(Metric metric)
{
    metric_ = metric;
    const int i = metricBox_->findData(int(metric));
    if (metricBox_->currentIndex() != i) {
        const QSignalBlocker block(metricBox_);
        metricBox_->setCurrentIndex(i);
    }
    drawNow();
}

void InductionView::showRecord(int index)
{
    if (history_.show(index) || throttle_.dirty())
        drawNow();
}

void InductionView::showLive()
{
    showRecord(history_.size() - 1);
}

void InductionView::updatePhase()
{
    // The trained model's records: one measured with heads ablated is another model's.
    std::vector<std::shared_ptr<const InductionRecord>> trained;
    for (int i = 0; i < history_.size(); ++i)
        if (!ablated(*history_.at(i)))
            trained.push_back(history_.at(i));
    const std::optional<long> phase = phaseChangeStep(trained);
    if (phase == phase_)
        return;
    phase_ = phase;
    emit phaseChangeChanged(phase_ ? *phase_ : -1);
}

const InductionRecord* InductionView::unablatedAtOrBefore(int index) const
{
    for (int i = std::min(index, history_.size() - 1); i >= 0; --i)
        if (!ablated(*history_.at(i)))
            return history_.at(i).get();
    return nullptr;
}

const InductionRecord* InductionView::circuitRecord() const
{
    if (history_.empty())
        return nullptr;
    // An ablation's record has its top head muted, or its partner: the circuit is the trained
    // model's, from the last record measured without (else the record itself).
    const InductionRecord* r = unablatedAtOrBefore(history_.shownIndex());
    return r ? r : history_.shown().get();
}

void InductionView::updateCircuit()
{
    circuitInduction_.reset();
    circuitPrevious_.reset();
    circuitComposition_ = nan();
    earlierHeads_.clear();
    const InductionRecord* r = circuitRecord();
    if (!r || r->induction.empty())
        return;
    const int n = r->layers * r->heads;
    const int top = r->top();
    const auto id = [r](int index) { return HeadId{AttentionKind::DecoderSelf, index / r->heads, index % r->heads}; };
    circuitInduction_ = id(top);
    const int topLayer = top / r->heads;
    int best = -1;
    for (int i = 0; i < topLayer * r->heads; ++i) {
        earlierHeads_.push_back(i);
        if (best < 0 || at(r->previous, i) > at(r->previous, best))
            best = i;
    }
    if (best >= 0) {
        circuitPrevious_ = id(best);
        circuitComposition_ = at(r->composition, top * n + best);
    }
}

void InductionView::updateButtons()
{
    ablateInduction_->setEnabled(circuitInduction_.has_value());
    ablatePrevious_->setEnabled(circuitPrevious_.has_value());
    restore_->setEnabled(!muted_.empty());
    ablateInduction_->setToolTip(
        circuitInduction_
            ? tr("Mute %1, the top induction head, alone (its gate 0): the validations from now on are "
                 "measured without it, and the later copies' loss goes back up")
                  .arg(headLabel(*circuitInduction_))
            : tr("No induction head measured yet"));
    ablatePrevious_->setToolTip(
        circuitPrevious_
            ? tr("Mute %1, the previous-token head that feeds the induction head, alone: without it "
                 "the induction head cannot find the token after the earlier occurrence")
                  .arg(headLabel(*circuitPrevious_))
            : tr("The top induction head is in the first layer: no earlier head feeds it"));
    QStringList names;
    for (const HeadId& id : muted_)
        names << (id.kind == AttentionKind::DecoderSelf ? headLabel(id)
                                                        : tr("%1 · layer %2 · head %3")
                                                              .arg(attentionKindTitle(id.kind))
                                                              .arg(id.layer + 1)
                                                              .arg(id.head + 1));
    mutedLabel_->setText(muted_.empty() ? QString()
                                        : tr("Muted now: %1. The validations from now on are measured "
                                             "without them (◆ on the in-context plot).")
                                              .arg(names.join(QStringLiteral(", "))));
    mutedLabel_->setVisible(!muted_.empty());
}

double InductionView::valueOf(const InductionRecord& r, int index) const
{
    switch (metric_) {
    case Metric::Induction: return at(r.induction, index);
    case Metric::Previous: return at(r.previous, index);
    case Metric::Duplicate: return at(r.duplicate, index);
    case Metric::Copying: break;
    }
    return at(r.copying, index);
}

void InductionView::draw()
{
    throttle_.clean();
    // The shape is the latest record's (a run's records share it; a new run starts over).
    if (!history_.empty() && (history_.back()->layers != layers_ || history_.back()->heads != heads_)) {
        layers_ = history_.back()->layers;
        heads_ = history_.back()->heads;
        rebuildHeadGraphs();
    }
    updateCircuit();
    updateButtons();
    replay_->setState(history_.size(), history_.shownIndex(), history_.shownStep());
    if (history_.empty()) {
        // Nothing drawn stays from a run before (the explanation hides the plots, and the
        // read-outs say what is drawn).
        setHeatmapData(heat_, 0, 0, {});
        for (QCPGraph* g : inductionGraphs_)
            g->data()->clear();
        for (QCPGraph* g : previousGraphs_)
            g->data()->clear();
        for (const CopyGraphs& c : copies_)
            for (QCPGraph* g : {c.first, c.later, c.score})
                g->data()->clear();
        positionLoss_->data()->clear();
        positionReference_->data()->clear();
        compositionBars_->data()->clear();
        previousBar_->data()->clear();
        for (int i = 0; i < 2; ++i) {
            phaseLines_[i]->setVisible(false);
            phaseLabels_[i]->setVisible(false);
            shownLines_[i]->setVisible(false);
        }
        stack_->setCurrentIndex(0);
        info_->setText(QString());
        info_->setVisible(false);
        return;
    }
    stack_->setCurrentIndex(1);
    info_->setVisible(true);
    const InductionRecord& shown = *history_.shown();
    drawMap(shown);
    drawScores();
    drawCopies();
    drawPosition(shown);
    drawCircuit();
    drawPhase();

    // The trained model's latest figures (an ablation's top head is another head), then the
    // ablation's when the latest record is one.
    const InductionRecord& latest = *history_.back();
    const InductionRecord* trained = unablatedAtOrBefore(history_.size() - 1);
    const InductionRecord& head = trained ? *trained : latest;
    QString text = tr("Validations recorded: %1 (steps %2 – %3) · top induction head %4 (score %5) · "
                      "later copies' loss %6 against %7 in first copies")
                       .arg(history_.size())
                       .arg(history_.at(0)->step)
                       .arg(latest.step)
                       .arg(headLabel(head.top()))
                       .arg(head.topInduction(), 0, 'f', 2)
                       .arg(head.laterCopyLoss, 0, 'f', 2)
                       .arg(head.firstCopyLoss, 0, 'f', 2);
    if (&head != &latest)
        text += tr(" · with heads ablated (step %1): later copies' loss %2")
                    .arg(latest.step)
                    .arg(latest.laterCopyLoss, 0, 'f', 2);
    text += phase_ ? tr(" · phase change at step %1").arg(*phase_)
                   : tr(" · no phase change yet (top induction score ≥ %1 with the later copies "
                        "%2 nat below the first)")
                         .arg(kPhaseChangeInduction)
                         .arg(kPhaseChangeLossGap);
    info_->setText(text);
}

void InductionView::rebuildHeadGraphs()
{
    for (QCPGraph* g : inductionGraphs_)
        scoresPlot_->removeGraph(g);
    for (QCPGraph* g : previousGraphs_)
        scoresPlot_->removeGraph(g);
    inductionGraphs_.clear();
    previousGraphs_.clear();
    const int n = layers_ * heads_;
    for (int i = 0; i < n; ++i) {
        QCPGraph* ind = scoresPlot_->addGraph();
        QCPGraph* prev = scoresPlot_->addGraph();
        ind->setObjectName(QStringLiteral("induction_%1").arg(i));
        prev->setObjectName(QStringLiteral("previous_%1").arg(i));
        inductionGraphs_.push_back(ind);
        previousGraphs_.push_back(prev);
    }
}

QCPGraph* InductionView::inductionGraph(int index) const
{
    return index >= 0 && index < int(inductionGraphs_.size()) ? inductionGraphs_[std::size_t(index)] : nullptr;
}

QCPGraph* InductionView::previousGraph(int index) const
{
    return index >= 0 && index < int(previousGraphs_.size()) ? previousGraphs_[std::size_t(index)] : nullptr;
}

void InductionView::drawMap(const InductionRecord& r)
{
    // Attention scores in 0 … 1 (a mean weight) on the sequential map; the copying score, a
    // signed logit effect, on the diverging one, symmetric about 0 over the whole run so that
    // replayed records compare.
    QCPColorGradient g = metric_ == Metric::Copying ? divergingGradient() : sequentialGradient(isDarkPalette(palette()));
    g.setNanHandling(QCPColorGradient::nhNanColor);
    g.setNanColor(blend(palette().color(QPalette::Base), palette().color(QPalette::Text), 0.3));
    range_ = QCPRange(0, 1);
    if (metric_ == Metric::Copying) {
        double top = 0;
        for (int i = 0; i < history_.size(); ++i)
            for (double c : history_.at(i)->copying)
                if (std::isfinite(c))
                    top = std::max(top, std::abs(c));
        top = top > 0 ? top : 1;
        range_ = QCPRange(-top, top);
    }
    heat_.map->setGradient(g);
    heat_.scale->setGradient(g);
    QStringList layers, heads;
    for (int l = 0; l < r.layers; ++l)
        layers << QString::number(l + 1);
    for (int h = 0; h < r.heads; ++h)
        heads << QString::number(h + 1);
    setHeatmapData(heat_, r.layers, r.heads, [&](int l, int h) { return valueOf(r, l * r.heads + h); },
                   layers, heads, range_.lower, range_.upper);
    heat_.scale->axis()->setLabel(metricName(metric_));
    mapTitle_->setText(ablated(r) ? tr("Heads at step %1 · measured with heads ablated").arg(r.step)
                                  : tr("Heads at step %1 · click one to see it").arg(r.step));
    replotIfVisible(mapPlot_);
}

void InductionView::drawScores()
{
    const int n = layers_ * heads_;
    std::vector<QVector<double>> ind(static_cast<std::size_t>(n)), prev(static_cast<std::size_t>(n));
    QVector<double> steps;
    for (int i = 0; i < history_.size(); ++i) {
        const InductionRecord& r = *history_.at(i);
        if (ablated(r) || r.layers * r.heads != n)
            continue;  // lines of the trained model (an ablation's record: the copies' plot)
        steps.push_back(double(r.step));
        for (int h = 0; h < n; ++h) {
            ind[std::size_t(h)].push_back(at(r.induction, h));
            prev[std::size_t(h)].push_back(at(r.previous, h));
        }
    }
    const int topIndex = circuitInduction_ ? circuitInduction_->layer * heads_ + circuitInduction_->head : -1;
    const int prevIndex = circuitPrevious_ ? circuitPrevious_->layer * heads_ + circuitPrevious_->head : -1;
    for (int h = 0; h < n; ++h) {
        QCPGraph* gi = inductionGraphs_[std::size_t(h)];
        QCPGraph* gp = previousGraphs_[std::size_t(h)];
        gi->setData(steps, ind[std::size_t(h)], true);
        gp->setData(steps, prev[std::size_t(h)], true);
        const bool keyI = h == topIndex, keyP = h == prevIndex;
        // The circuit's heads drawn thick and named: the induction head red, the previous-token
        // head orange (its bar's colour in the circuit); every other head thin and grey (its
        // values in the hover read-out).
        gi->setPen(QPen(QColor(0, 0, 0, keyI ? 255 : 120), keyI ? 2.5 : 1, Qt::SolidLine));
        gp->setPen(QPen(QColor(0, 0, 0, keyP ? 255 : 120), keyP ? 2.5 : 1, Qt::DashLine));
        setSeriesColour(gi, keyI ? 3 : 7);
        setSeriesColour(gp, keyP ? 1 : 7);
        // The circuit's lines above the others.
        gi->setLayer(QString::fromLatin1(keyI ? "main" : "background"));
        gp->setLayer(QString::fromLatin1(keyP ? "main" : "background"));
        gi->setName(tr("induction · %1").arg(headLabel(h)));
        gp->setName(tr("previous-token · %1").arg(headLabel(h)));
        if (keyI)
            gi->addToLegend();
        else
            gi->removeFromLegend();
        if (keyP)
            gp->addToLegend();
        else
            gp->removeFromLegend();
    }
}

void InductionView::drawCopies()
{
    QVector<double> keys[2], first[2], later[2], score[2];
    for (int i = 0; i < history_.size(); ++i) {
        const InductionRecord& r = *history_.at(i);
        const int a = ablated(r) ? 1 : 0;
        keys[a].push_back(double(r.step));
        first[a].push_back(r.firstCopyLoss);
        later[a].push_back(r.laterCopyLoss);
        score[a].push_back(r.inContextScore);
    }
    for (int a = 0; a < 2; ++a) {
        copies_[a].first->setData(keys[a], first[a], true);
        copies_[a].later->setData(keys[a], later[a], true);
        copies_[a].score->setData(keys[a], score[a], true);
    }
    if (keys[1].isEmpty())
        copies_[1].later->removeFromLegend();
    else
        copies_[1].later->addToLegend();

    // Both plots over the run's steps, with room either side of a single record.
    const double lo = double(history_.at(0)->step), hi = double(history_.back()->step);
    const QCPRange steps = hi > lo ? QCPRange(lo, hi) : QCPRange(lo - 1, hi + 1);
    scoresPlot_->xAxis->setRange(steps);
    copiesPlot_->xAxis->setRange(steps);
    bool found = false;
    QCPRange y;
    for (int a = 0; a < 2; ++a)
        for (QCPGraph* g : {copies_[a].first, copies_[a].later, copies_[a].score})
            if (g->dataCount() > 0) {
                bool ok = false;
                const QCPRange r = g->getValueRange(ok);
                if (ok) {
                    y = found ? QCPRange(std::min(y.lower, r.lower), std::max(y.upper, r.upper)) : r;
                    found = true;
                }
            }
    if (found) {
        // From 0 (or the in-context score's lowest), with room for the phase change's label.
        const double low = std::min(0.0, y.lower), high = std::max(y.upper, 0.1);
        copiesPlot_->yAxis->setRange(low - 0.05 * (high - low), high + 0.45 * (high - low));
    }
    // The record shown, when replaying.
    for (int i = 0; i < 2; ++i) {
        shownLines_[i]->setVisible(!history_.isLive());
        placeVertical(shownLines_[i], double(history_.shownStep()));
    }
}

void InductionView::drawPhase()
{
    QCustomPlot* plots[2] = {scoresPlot_, copiesPlot_};
    for (int i = 0; i < 2; ++i) {
        phaseLines_[i]->setVisible(phase_.has_value());
        phaseLabels_[i]->setVisible(phase_.has_value());
        if (phase_) {
            const double x = double(*phase_);
            placeVertical(phaseLines_[i], x);
            phaseLabels_[i]->setText(tr("phase change\nstep %1").arg(*phase_));
            // At the top, right of the line (where the scores have risen and the loss fallen,
            // the top is free), left of it near the right end.
            const QCPRange range = plots[i]->xAxis->range();
            const double at = range.size() > 0 ? (x - range.lower) / range.size() : 0.5;
            const bool leftOfLine = at > 0.75;
            phaseLabels_[i]->setPositionAlignment((leftOfLine ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignTop);
            phaseLabels_[i]->position->setCoords(x, 0.03);
        }
        replotIfVisible(plots[i]);
    }
}

void InductionView::drawPosition(const InductionRecord& r)
{
    QVector<double> keys, values;
    for (int i = 0; i < int(r.positionLoss.size()); ++i) {
        keys.push_back(i);
        values.push_back(r.positionLoss[std::size_t(i)]);
    }
    positionLoss_->setData(keys, values, true);
    positionLoss_->setName(ablated(r) ? tr("step %1, with heads ablated").arg(r.step) : tr("step %1").arg(r.step));
    // An ablation's record beside the trained model's before it.
    const InductionRecord* ref = ablated(r) ? unablatedAtOrBefore(history_.shownIndex()) : nullptr;
    keys.clear();
    values.clear();
    if (ref)
        for (int i = 0; i < int(ref->positionLoss.size()); ++i) {
            keys.push_back(i);
            values.push_back(ref->positionLoss[std::size_t(i)]);
        }
    positionReference_->setData(keys, values, true);
    // A legend only to tell the two curves apart.
    if (ref)
        positionReference_->setName(tr("step %1, without ablation").arg(ref->step));
    positionPlot_->legend->setVisible(ref != nullptr);
    positionPlot_->rescaleAxes();
    const QCPRange y = positionPlot_->yAxis->range();
    positionPlot_->yAxis->setRange(0, std::max(0.1, y.upper) * (ref ? 1.75 : 1.15));  // room for the legend
    const QCPRange x = positionPlot_->xAxis->range();
    positionPlot_->xAxis->setRange(x.lower - 0.5, x.upper + 0.5);
    positionTitle_->setText(tr("Loss at each position of the probe · step %1").arg(r.step));
    replotIfVisible(positionPlot_);
}

void InductionView::drawCircuit()
{
    const InductionRecord* r = circuitRecord();
    QVector<double> keys, values, prevKey, prevValue;
    QStringList labels;
    const int n = r ? r->layers * r->heads : 0;
    const int top = circuitInduction_ ? circuitInduction_->layer * heads_ + circuitInduction_->head : -1;
    const int prev = circuitPrevious_ ? circuitPrevious_->layer * heads_ + circuitPrevious_->head : -1;
    for (std::size_t k = 0; k < earlierHeads_.size(); ++k) {
        const int e = earlierHeads_[k];
        const double c = at(r->composition, top * n + e);
        keys.push_back(double(k));
        values.push_back(c);
        labels << headLabel(e);
        if (e == prev) {
            prevKey.push_back(double(k));
            prevValue.push_back(c);
        }
    }
    compositionBars_->setData(keys, values, true);
    previousBar_->setData(prevKey, prevValue, true);
    setTokenTicks(circuitPlot_->xAxis, labels);
    const double baseline = r ? r->compositionBaseline : 0;
    double high = baseline;
    for (double v : values)
        if (std::isfinite(v))
            high = std::max(high, v);
    circuitPlot_->xAxis->setRange(-0.6, std::max(1, int(keys.size())) - 0.4);
    circuitPlot_->yAxis->setRange(0, std::max(0.05, high * 1.25));
    const bool pair = circuitPrevious_.has_value();
    baselineLine_->setVisible(pair);
    baselineLabel_->setVisible(pair);
    baselineLine_->point1->setCoords(-1, baseline);
    baselineLine_->point2->setCoords(1, baseline);
    baselineLabel_->position->setCoords(0.99, baseline);
    baselineLabel_->setText(tr("random %1").arg(baseline, 0, 'f', 3));
    circuitNote_->setVisible(r && !pair);
    circuitNote_->setText(tr("The top induction head, %1, is in the first layer:\nno earlier head "
                             "can feed it.")
                              .arg(circuitInduction_ ? headLabel(*circuitInduction_) : QString()));
    if (pair)
        circuitTitle_->setText(tr("Circuit: %1 (previous-token %2) → %3 (induction %4) · K-composition "
                                  "%5, random %6")
                                   .arg(headLabel(*circuitPrevious_))
                                   .arg(at(r->previous, prev), 0, 'f', 2)
                                   .arg(headLabel(*circuitInduction_))
                                   .arg(at(r->induction, top), 0, 'f', 2)
                                   .arg(circuitComposition_, 0, 'f', 3)
                                   .arg(baseline, 0, 'f', 3));
    else
        circuitTitle_->setText(tr("Circuit"));
    replotIfVisible(circuitPlot_);
}

bool InductionView::placeholderShown() const
{
    return stack_->currentIndex() == 0;
}

QString InductionView::placeholderText() const
{
    return placeholder_->text();
}

QString InductionView::infoText() const
{
    return info_->text();
}

double InductionView::mapCell(int layer, int head) const
{
    return heatmapCell(heat_, layer, head);
}

QPoint InductionView::mapCellCentre(int layer, int head) const
{
    return QPoint(int(std::lround(mapPlot_->xAxis->coordToPixel(head))),
                  int(std::lround(mapPlot_->yAxis->coordToPixel(layer))));
}

QCPRange InductionView::colourRange() const
{
    return range_;
}

QString InductionView::mapHover(QPoint pixel) const
{
    int row = 0, col = 0;
    const auto r = history_.shown();
    if (!r || !heatmapCellAt(heat_, pixel, &row, &col))
        return {};
    const int i = row * r->heads + col;
    QString text = tr("layer %1 · head %2 (%3) · step %4\ninduction %5 · previous-token %6\n"
                      "duplicate-token %7 · copying %8")
                       .arg(row + 1)
                       .arg(col + 1)
                       .arg(headSpec({HeadId{AttentionKind::DecoderSelf, row, col}}))
                       .arg(r->step)
                       .arg(at(r->induction, i), 0, 'f', 3)
                       .arg(at(r->previous, i), 0, 'f', 3)
                       .arg(at(r->duplicate, i), 0, 'f', 3)
                       .arg(at(r->copying, i), 0, 'f', 3);
    if (std::find(r->masked.begin(), r->masked.end(), i) != r->masked.end())
        text += tr("\nablated when measured");
    return text + tr("\nclick: this head in Attention");
}

QString InductionView::scoresHover(QPoint pixel) const
{
    if (history_.empty() || !scoresPlot_->axisRect()->rect().contains(pixel))
        return {};
    const double x = scoresPlot_->xAxis->pixelToCoord(pixel.x());
    const InductionRecord* best = nullptr;
    for (int i = 0; i < history_.size(); ++i) {
        const InductionRecord* r = history_.at(i).get();
        if (!ablated(*r) && (!best || std::abs(double(r->step) - x) < std::abs(double(best->step) - x)))
            best = r;
    }
    if (!best)
        return {};
    // The heads by induction score, the strongest first (at most 12 lines).
    std::vector<int> order(std::size_t(best->layers * best->heads));
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = int(i);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return at(best->induction, a) > at(best->induction, b); });
    QStringList lines{tr("step %1").arg(best->step)};
    for (std::size_t k = 0; k < std::min<std::size_t>(order.size(), 12); ++k)
        lines << tr("%1: induction %2 · previous-token %3")
                     .arg(headLabel(order[k]))
                     .arg(at(best->induction, order[k]), 0, 'f', 3)
                     .arg(at(best->previous, order[k]), 0, 'f', 3);
    return lines.join(QLatin1Char('\n'));
}

QString InductionView::copiesHover(QPoint pixel) const
{
    if (history_.empty() || !copiesPlot_->axisRect()->rect().contains(pixel))
        return {};
    const double x = copiesPlot_->xAxis->pixelToCoord(pixel.x());
    int best = 0;
    for (int i = 1; i < history_.size(); ++i)
        if (std::abs(double(history_.at(i)->step) - x) < std::abs(double(history_.at(best)->step) - x))
            best = i;
    const InductionRecord& r = *history_.at(best);
    QString text = tr("step %1\nfirst copies' loss %2 · later copies' loss %3\nin-context score %4")
                       .arg(r.step)
                       .arg(r.firstCopyLoss, 0, 'f', 3)
                       .arg(r.laterCopyLoss, 0, 'f', 3)
                       .arg(r.inContextScore, 0, 'f', 3);
    if (ablated(r)) {
        QStringList names;
        for (int m : r.masked)
            names << tr("L%1 H%2").arg(m / r.heads + 1).arg(m % r.heads + 1);
        text += tr("\nwith heads ablated: %1").arg(names.join(QStringLiteral(", ")));
    }
    if (phase_)
        text += tr("\nphase change at step %1").arg(*phase_);
    return text;
}

QString InductionView::positionHover(QPoint pixel) const
{
    const auto r = history_.shown();
    if (!r || !positionPlot_->axisRect()->rect().contains(pixel))
        return {};
    const int i = int(std::lround(positionPlot_->xAxis->pixelToCoord(pixel.x())));
    if (i < 0 || i >= int(r->positionLoss.size()))
        return {};
    QString text = tr("position %1 · step %2: loss %3 nats").arg(i).arg(r->step).arg(r->positionLoss[std::size_t(i)], 0, 'f', 3);
    if (positionReference_->dataCount() > i)
        text += tr("\nwithout ablation: %1").arg(positionReference_->data()->at(i)->value, 0, 'f', 3);
    return text;
}

QString InductionView::circuitHover(QPoint pixel) const
{
    const InductionRecord* r = circuitRecord();
    if (!r || !circuitInduction_ || earlierHeads_.empty() || !circuitPlot_->axisRect()->rect().contains(pixel))
        return {};
    const int k = int(std::lround(circuitPlot_->xAxis->pixelToCoord(pixel.x())));
    if (k < 0 || k >= int(earlierHeads_.size()))
        return {};
    const int e = earlierHeads_[std::size_t(k)];
    return tr("%1 → %2: K-composition %3 (random matrices: %4)\n%1: previous-token score %5")
        .arg(headLabel(e), headLabel(*circuitInduction_))
        .arg(compositionBars_->data()->at(k)->value, 0, 'f', 3)
        .arg(r->compositionBaseline, 0, 'f', 3)
        .arg(at(r->previous, e), 0, 'f', 3);
}

}  // namespace as::ui
