// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "head_dynamics_view.h"

#include "eval/interpret.h"

#include <QEvent>
#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QStackedWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <map>

namespace as::ui {

namespace {

constexpr int kDynamicsPointSize = 8;  // the view's labels (smallFont)

QFont smallFont(bool bold = false)
{
    return pointFont(kDynamicsPointSize, bold);
}

}  // namespace

HeadDynamicsView::HeadDynamicsView(QWidget* parent) : QWidget(parent)
{
    metricBox_ = new QComboBox(this);
    for (Metric m : {Metric::Entropy, Metric::Confidence, Metric::Diagonal, Metric::Punctuation, Metric::Alignment})
        metricBox_->addItem(QString(), int(m));
    info_ = new QLabel(this);
    info_->setWordWrap(true);  // on its own row, below the metric
    auto* bar = new QHBoxLayout;
    colourLabel_ = new QLabel(this);
    bar->addWidget(colourLabel_);
    bar->addWidget(metricBox_);
    bar->addStretch(1);

    auto* placeholder = placeholder_ = new QLabel(this);
    placeholder->setAlignment(Qt::AlignCenter);
    placeholder->setWordWrap(true);
    auto* gridHost = new QWidget;
    grid_ = new QGridLayout(gridHost);
    grid_->setContentsMargins(0, 0, 0, 0);
    grid_->setSpacing(4);
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setWidget(gridHost);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    stack_ = new QStackedWidget(this);
    stack_->addWidget(placeholder);
    stack_->addWidget(scroll);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(info_);
    layout->addWidget(stack_, 1);

    connect(metricBox_, &QComboBox::currentIndexChanged, this,
            [this](int i) { setMetric(Metric(metricBox_->itemData(i).toInt())); });
    retranslate();
}

void HeadDynamicsView::retranslate()
{
    for (int i = 0; i < metricBox_->count(); ++i)
        metricBox_->setItemText(i, metricName(Metric(metricBox_->itemData(i).toInt())));
    metricBox_->setToolTip(
        tr("Each a mean over the probe's query positions (eval/attention_stats.h):\n"
           "entropy: −Σ a ln a of a query's attention (uniform over n keys: ln n)\n"
           "confidence: its largest weight (Voita et al. 2019)\n"
           "diagonal ±1: its mass on the keys within ±1 of t·(S−1)/(T−1), the diagonal with the\n"
           "source length scaled to the target length (cross-attention: a monotonic alignment;\n"
           "self-attention: the previous, same and next token)\n"
           "punctuation mass: its weight on punctuation tokens (。，？！ . , ? !); uniform attention\n"
           "puts the punctuation share there, a punctuation head many times more\n"
           "alignment: over all queries, the correlation of the query position with the position\n"
           "of its largest weight (1: the keys move forward with the queries, a diagonal)"));
    colourLabel_->setText(tr("Colour by"));
    placeholder_->setText(tr("Train to see the heads form: the probe's attention is "
                             "recorded as training goes, one column per record."));
    for (AttentionKind kind : kAttentionKinds)
        for (int l = 0; l < int(panels_[int(kind)].size()); ++l)
            labelPanel(panels_[int(kind)][l], kind, l);
    draw();  // the line above the maps, the colour bars' label
}

void HeadDynamicsView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void HeadDynamicsView::labelPanel(Panel& p, AttentionKind kind, int layer)
{
    p.plot->xAxis->setLabel(tr("step (one column per record)"));
    p.plot->yAxis->setLabel(tr("head"));
    p.title->setText(tr("%1 · layer %2").arg(attentionKindTitle(kind)).arg(layer + 1));
}


void HeadDynamicsView::drawNow()
{
    throttle_.drawNow();
}

void HeadDynamicsView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    throttle_.shown();
}

void HeadDynamicsView::applySnapshot(const TrainingSnapshot& snapshot)
{
    if (snapshot.attention)
        addRecord(snapshot.attention);
}

void HeadDynamicsView::addRecord(std::shared_ptr<const AttentionRecord> record)
{
    if (!record || (!history_.empty() && history_.back() == record))
        return;
    // The history's policy is appendAttentionRecord's (a new run, a replaced probe, thinning);
    // each record's scores are computed once and follow it.
    std::map<const AttentionRecord*, std::shared_ptr<const HeadDynamicsPoint>> known;
    for (std::size_t i = 0; i < history_.size(); ++i)
        known[history_[i].get()] = points_[i];
    appendAttentionRecord(history_, std::move(record), kAttentionHistoryCapacity);
    points_.clear();
    for (const auto& r : history_) {
        auto it = known.find(r.get());
        points_.push_back(it != known.end() ? it->second
                                            : std::make_shared<const HeadDynamicsPoint>(headDynamicsOf(*r)));
    }
    throttle_.schedule();
}

void HeadDynamicsView::reset()
{
    history_.clear();
    points_.clear();
    drawNow();
}

void HeadDynamicsView::setMetric(Metric metric)
{
    metric_ = metric;
    const int i = metricBox_->findData(int(metric));
    if (metricBox_->currentIndex() != i) {
        const QSignalBlocker block(metricBox_);
        metricBox_->setCurrentIndex(i);
    }
    drawNow();
}

long HeadDynamicsView::stepAt(int index) const
{
    return index >= 0 && index < int(history_.size()) ? history_[index]->step : -1;
}

int HeadDynamicsView::layers(AttentionKind kind) const
{
    return int(panels_[int(kind)].size());
}

const HeadDynamicsView::Panel* HeadDynamicsView::panelOf(AttentionKind kind, int layer) const
{
    const auto& ps = panels_[int(kind)];
    return layer >= 0 && layer < int(ps.size()) ? &ps[layer] : nullptr;
}

QCustomPlot* HeadDynamicsView::plot(AttentionKind kind, int layer) const
{
    const Panel* p = panelOf(kind, layer);
    return p ? p->plot : nullptr;
}

double HeadDynamicsView::cell(AttentionKind kind, int layer, int head, int index) const
{
    const Panel* p = panelOf(kind, layer);
    return p ? heatmapCell(p->heat, head, index) : std::nan("");
}

QPoint HeadDynamicsView::cellCentre(AttentionKind kind, int layer, int head, int index) const
{
    const Panel* p = panelOf(kind, layer);
    if (!p)
        return {};
    return QPoint(int(std::lround(p->plot->xAxis->coordToPixel(index))),
                  int(std::lround(p->plot->yAxis->coordToPixel(head))));
}

double HeadDynamicsView::valueOf(const HeadMapStats& s) const
{
    switch (metric_) {
    case Metric::Entropy: return s.entropy;
    case Metric::Confidence: return s.confidence;
    case Metric::Diagonal: return s.diagonal;
    case Metric::Punctuation: return s.punctuation;
    case Metric::Alignment: break;
    }
    return s.alignment;
}

QString HeadDynamicsView::metricName(Metric m) const
{
    switch (m) {
    case Metric::Entropy: return tr("entropy (nats)");
    case Metric::Confidence: return tr("confidence");
    case Metric::Diagonal: return tr("diagonal ±1");
    case Metric::Punctuation: return tr("punctuation mass");
    case Metric::Alignment: break;
    }
    return tr("alignment");
}

void HeadDynamicsView::rebuildPanels(int layers[3])
{
    for (auto& ps : panels_) {
        for (Panel& p : ps) {
            grid_->removeWidget(p.frame);
            delete p.frame;
        }
        ps.clear();
    }
    for (AttentionKind kind : kAttentionKinds) {
        const int k = int(kind);
        for (int l = 0; l < layers[k]; ++l) {
            Panel p;
            p.plot = new QCustomPlot;
            p.plot->setObjectName(QStringLiteral("dynamics_%1_%2").arg(attentionKindName(kind)).arg(l));
            p.plot->setMinimumSize(200, 150);
            p.plot->setCursor(Qt::PointingHandCursor);
            // The colour bar once per row, right of the last kind: one scale for every map.
            p.heat = makeHeatmap(p.plot, kind == AttentionKind::Cross, sequentialGradient());
            for (QCPAxis* a : {p.plot->xAxis, p.plot->yAxis}) {
                a->setTickLabelFont(smallFont());
                a->setLabelFont(smallFont());
                a->setLabelPadding(2);
            }
            if (p.heat.scale) {
                p.heat.scale->axis()->setTickLabelFont(smallFont());
                p.heat.scale->axis()->setLabelFont(smallFont());
                p.heat.scale->setBarWidth(10);
            }
            p.title = addTitle(p.plot, QString(), smallFont(true));
            labelPanel(p, kind, l);
            enableHoverReadout(p.plot, [this, kind, l](QCustomPlot*, QPoint px) { return hoverText(kind, l, px); });
            connect(p.plot, &QCustomPlot::mousePress, this, [this, kind, l](QMouseEvent* e) {
                const Panel* pp = panelOf(kind, l);
                int row = 0, col = 0;
                if (pp && heatmapCellAt(pp->heat, e->pos(), &row, &col))
                    emit cellClicked(HeadId{kind, l, row}, stepAt(col));
            });
            p.frame = panel(p.plot, [this, kind, l] {
                                 const Panel* pp = panelOf(kind, l);
                                 QStringList names;
                                 for (int h = 0; h < heads_; ++h)
                                     names << tr("head %1").arg(h + 1);
                                 return pp ? heatmapCsv(pp->heat, tr("head \\ record"), names) : QString();
                             }, nullptr);
            grid_->addWidget(p.frame, l, k);
            panels_[k].push_back(p);
        }
    }
}

void HeadDynamicsView::draw()
{
    throttle_.clean();
    if (history_.empty()) {
        stack_->setCurrentIndex(0);
        info_->setText(QString());
        return;
    }
    // The shape is the latest record's (a run's records share it; a new run starts over).
    const HeadDynamicsPoint& last = *points_.back();
    int layers[3];
    bool same = heads_ == history_.back()->heads;
    for (AttentionKind kind : kAttentionKinds) {
        layers[int(kind)] = int(last.of(kind).size());
        same = same && layers[int(kind)] == int(panels_[int(kind)].size());
    }
    heads_ = history_.back()->heads;
    if (!same)
        rebuildPanels(layers);
    stack_->setCurrentIndex(1);

    // One colour scale for every map so that heads, layers and kinds compare: confidence, the
    // diagonal's and the punctuation's mass lie in 0 … 1; alignment, a correlation, in −1 … 1;
    // entropy in 0 … ln(keys), the entropy of uniform attention over the most keys any map has.
    range_ = QCPRange(metric_ == Metric::Alignment ? -1 : 0, 1);
    if (metric_ == Metric::Entropy) {
        long keys = 2;
        for (const auto& r : history_)
            for (AttentionKind kind : kAttentionKinds)
                for (const Mat<float>& m : attentionLayers(*r, kind))
                    keys = std::max(keys, long(m.cols()));
        range_ = QCPRange(0, std::log(double(keys)));
    }
    QStringList steps, heads;
    for (const auto& r : history_)
        steps << QString::number(r->step);
    for (int h = 0; h < heads_; ++h)
        heads << QString::number(h + 1);
    const int n = int(points_.size());
    for (AttentionKind kind : kAttentionKinds)
        for (int l = 0; l < int(panels_[int(kind)].size()); ++l) {
            Panel& p = panels_[int(kind)][l];
            setHeatmapData(p.heat, heads_, n, [&](int h, int c) {
                const auto& ls = points_[c]->of(kind);
                return l < int(ls.size()) && h < int(ls[l].size()) ? valueOf(ls[l][h]) : std::nan("");
            }, heads, steps, range_.lower, range_.upper);
            if (p.heat.scale)
                p.heat.scale->axis()->setLabel(metricName(metric_));
            replotIfVisible(p.plot);
        }
    // A translator's probe is a pair, source → target; a decoder-only model's its text alone.
    const AttentionRecord& probed = *history_.back();
    const QString target = probed.tgtTokens.mid(1).join(QLatin1Char(' '));
    const QString probe = probed.srcTokens.isEmpty()
                              ? target
                              : probed.srcTokens.join(QLatin1Char(' ')) + QStringLiteral(" → ") + target;
    info_->setText(tr("%1 records, steps %2 – %3 · probe: %4 · click a cell to see that head "
                      "at that step in Attention")
                       .arg(n)
                       .arg(history_.front()->step)
                       .arg(probed.step)
                       .arg(probe));
}

QString HeadDynamicsView::infoText() const
{
    return info_->text();
}

QString HeadDynamicsView::hoverText(AttentionKind kind, int layer, QPoint pixel) const
{
    const Panel* p = panelOf(kind, layer);
    int row = 0, col = 0;
    if (!p || !heatmapCellAt(p->heat, pixel, &row, &col) || col >= int(points_.size()))
        return {};
    const auto& ls = points_[col]->of(kind);
    if (layer >= int(ls.size()) || row >= int(ls[layer].size()))
        return {};
    const HeadMapStats& s = ls[layer][row];
    return tr("%1 · layer %2 · head %3\nstep %4 (record %5 of %6)\nentropy %7 nats · confidence %8 · "
              "diagonal ±1 %9\npunctuation mass %10 (uniform %11, ×%12) · alignment %13\n"
              "click: this head at this step in Attention")
        .arg(attentionKindTitle(kind))
        .arg(layer + 1)
        .arg(row + 1)
        .arg(stepAt(col))
        .arg(col + 1)
        .arg(points_.size())
        .arg(s.entropy, 0, 'f', 3)
        .arg(s.confidence, 0, 'f', 3)
        .arg(s.diagonal, 0, 'f', 3)
        .arg(s.punctuation, 0, 'f', 3)
        .arg(s.punctuationShare, 0, 'f', 3)
        .arg(s.punctuationRatio(), 0, 'f', 2)
        .arg(s.alignment, 0, 'f', 3);
}

}  // namespace as::ui
