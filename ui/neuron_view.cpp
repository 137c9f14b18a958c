// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "neuron_view.h"

#include <QEvent>
#include <QComboBox>
#include <QStandardItemModel>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

namespace as::ui {

NeuronPanel::NeuronPanel(QWidget* parent) : QWidget(parent)
{
    qRegisterMetaType<as::NeuronRecordPtr>();
    kind_ = new QComboBox(this);
    for (AttentionKind k : {AttentionKind::EncoderSelf, AttentionKind::DecoderSelf, AttentionKind::Cross})
        kind_->addItem(QString(), int(k));
    // Layers and heads numbered from 1, as in the attention grid and the Model and Decoding
    // views; neuronRequested and choose() take them from 0, as the engine does.
    layer_ = new QSpinBox(this);
    head_ = new QSpinBox(this);
    layer_->setRange(1, 1);
    head_->setRange(1, 1);
    query_ = new QComboBox(this);
    query_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    shares_ = new QLabel(this);
    shares_->setWordWrap(true);
    // Two lines at least; the panel's layout gives it the height its width needs.
    shares_->setMinimumSize(100, 2 * shares_->fontMetrics().lineSpacing());
    auto* bar = new QHBoxLayout;
    title_ = new QLabel(this);
    queryLabel_ = new QLabel(this);
    bar->addWidget(title_);
    bar->addWidget(kind_);
    bar->addWidget(layer_);
    bar->addWidget(head_);
    bar->addWidget(queryLabel_);
    bar->addWidget(query_);
    bar->addStretch(1);

    const QFont base = font();
    vectors_ = new QCustomPlot(this);
    vectors_->setMinimumSize(200, 160);
    productHeat_ = makeHeatmap(vectors_, true, divergingGradient());
    vectorsTitle_ = addTitle(vectors_, QString(), base);
    enableHoverReadout(vectors_, [this](QCustomPlot*, QPoint p) {
        int r = 0, c = 0;
        if (!record_ || !heatmapCellAt(productHeat_, p, &r, &c))
            return QString();
        const NeuronView& v = record_->view;
        return tr("key %1, dimension %2: q %3 × k %4 = %5")
            .arg(record_->keyTokens.value(r)).arg(c)
            .arg(v.query[std::size_t(c)], 0, 'f', 3)
            .arg(v.keys[std::size_t(r)][std::size_t(c)], 0, 'f', 3)
            .arg(v.products[std::size_t(r)][std::size_t(c)], 0, 'f', 3);
    });
    scores_ = new QCustomPlot(this);
    scores_->setMinimumSize(200, 160);
    scoresTitle_ = addTitle(scores_, QString(), base);
    scoreBars_ = new QCPBars(scores_->xAxis, scores_->yAxis);
    scoreBars_->setBrush(QColor(0, 0, 0, 150));  // the series colour, translucent (see redraw)
    setSeriesColour(scoreBars_, 0);
    scores_->yAxis2->setVisible(true);
    scores_->yAxis2->setRange(0, 1);
    probGraph_ = scores_->addGraph(scores_->xAxis, scores_->yAxis2);
    probGraph_->setPen(QPen(Qt::black, 2));
    setSeriesColour(probGraph_, 3);
    probGraph_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 5));
    const int termSeries[] = {0, 1, 2, 4, 7};  // blue, orange, green, purple, grey
    auto* group = new QCPBarsGroup(scores_);
    for (int i = 0; i < 5; ++i) {
        auto* b = new QCPBars(scores_->xAxis, scores_->yAxis);
        b->setBrush(Qt::black);
        b->setPen(Qt::NoPen);
        setSeriesColour(b, termSeries[i]);
        b->setBarsGroup(group);
        b->setWidth(0.15);
        termBars_.push_back(b);
    }
    scores_->legend->setVisible(true);
    QFont small = base;
    small.setPointSizeF(base.pointSizeF() * 0.85);
    scores_->legend->setFont(small);
    scores_->legend->setRowSpacing(-3);
    // Beside the plot, not over the bars: seven entries fill a small plot.
    scores_->axisRect()->insetLayout()->take(scores_->legend);
    scores_->plotLayout()->addElement(1, 1, scores_->legend);  // row 0 is the title
    scores_->plotLayout()->setColumnStretchFactor(1, 0.001);
    scores_->legend->setMargins(QMargins(4, 2, 4, 2));
    auto* plots = new QHBoxLayout;
    plots->addWidget(panel(vectors_, [this] { return heatmapCsv(productHeat_, QStringLiteral("key")); }, this), 1);
    plots->addWidget(scores_, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(shares_);  // wrapped to the panel's width
    layout->addLayout(plots, 1);

    for (QSpinBox* s : {layer_, head_})
        connect(s, &QSpinBox::valueChanged, this, [this] { ask(); });
    connect(kind_, &QComboBox::currentIndexChanged, this, [this] {
        const QSignalBlocker b(layer_);
        layer_->setMaximum(std::max(1, layers_[kind_->currentIndex() == 0 ? 0 : 1]));
        ask();
    });
    connect(query_, &QComboBox::currentIndexChanged, this, [this] { ask(); });
    retranslate();  // and draws: empty, the placeholder
}

void NeuronPanel::retranslate()
{
    const QString kinds[] = {tr("encoder self"), tr("decoder self"), tr("decoder cross")};
    for (int i = 0; i < 3; ++i)
        kind_->setItemText(i, kinds[i]);
    layer_->setPrefix(tr("layer "));
    head_->setPrefix(tr("head "));
    query_->setToolTip(tr("The query token whose attention is taken apart"));
    title_->setText(tr("<b>Neuron view</b>"));
    queryLabel_->setText(tr("query"));
    setHeatmapPlaceholder(productHeat_, tr("Choose a kind, layer, head and query token\nof the probe sentence"));
    vectorsTitle_->setText(tr("q ⊙ k: each key times the query,\nelement by element (row sums = q·k)"));
    vectors_->xAxis->setLabel(tr("dimension of the head"));
    scoresTitle_->setText(tr("Scores q·k/√d_k (bars)\nand softmax (line, right axis)"));
    scoreBars_->setName(tr("score"));
    probGraph_->setName(tr("softmax"));
    const QString termNames[] = {tr("token·token"), tr("token·position"), tr("position·token"),
                                 tr("position·position"), tr("bias")};
    for (int i = 0; i < 5; ++i)
        termBars_[std::size_t(i)]->setName(termNames[i]);
    redraw();  // the shares line
}

void NeuronPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}



void NeuronPanel::setShape(int encoderLayers, int decoderLayers, int heads)
{
    const QSignalBlocker b1(layer_), b2(head_);
    layers_[0] = encoderLayers;
    layers_[1] = decoderLayers;
    // No encoder: a decoder-only model (core/SPEC.md §2.10), whose only attention is causal
    // self-attention.
    if (auto* items = qobject_cast<QStandardItemModel*>(kind_->model())) {
        for (AttentionKind k : {AttentionKind::EncoderSelf, AttentionKind::Cross})
            items->item(kind_->findData(int(k)))->setEnabled(encoderLayers > 0);
        if (encoderLayers == 0 && AttentionKind(kind_->currentData().toInt()) != AttentionKind::DecoderSelf)
            kind_->setCurrentIndex(kind_->findData(int(AttentionKind::DecoderSelf)));
    }
    layer_->setMaximum(std::max(1, layers_[kind_->currentIndex() == 0 ? 0 : 1]));
    head_->setMaximum(std::max(1, heads));
}

void NeuronPanel::choose(AttentionKind kind, int layer, int head, int query)
{
    updating_ = true;
    kind_->setCurrentIndex(kind_->findData(int(kind)));
    layer_->setValue(layer + 1);
    head_->setValue(head + 1);
    updating_ = false;
    emit neuronRequested(kind, layer, head, query);
}

void NeuronPanel::refresh()
{
    ask();
}

void NeuronPanel::ask()
{
    if (updating_)
        return;
    emit neuronRequested(AttentionKind(kind_->currentData().toInt()), layer_->value() - 1,
                         head_->value() - 1, std::max(0, query_->currentIndex()));
}

void NeuronPanel::setRecord(NeuronRecordPtr record)
{
    record_ = std::move(record);
    if (record_) {
        const QSignalBlocker b(query_);
        if (query_->count() != record_->queryTokens.size()
            || (query_->count() > 0 && query_->itemText(0) != record_->queryTokens.value(0))) {
            query_->clear();
            query_->addItems(record_->queryTokens);
        }
        query_->setCurrentIndex(record_->query);
    }
    redraw();
}

double NeuronPanel::product(int key, int dim) const
{
    return heatmapCell(productHeat_, key, dim);
}

double NeuronPanel::termBar(int term, int key) const
{
    const auto it = termBars_[std::size_t(term)]->data()->findBegin(key, false);
    return it != termBars_[std::size_t(term)]->data()->constEnd() && it->key == key ? it->value : NAN;
}

QString NeuronPanel::shares() const
{
    return shares_->text();
}

void NeuronPanel::redraw()
{
    for (QCPBars* b : termBars_)
        b->data()->clear();
    scoreBars_->data()->clear();
    probGraph_->data()->clear();
    shares_->clear();
    if (!record_ || record_->view.query.empty()) {
        for (QCPBars* b : termBars_)
            b->removeFromLegend();
        setHeatmapData(productHeat_, 0, 0, [](int, int) { return 0.0; });
        replotIfVisible(vectors_);
        replotIfVisible(scores_);
        return;
    }
    const NeuronView& v = record_->view;
    const int keys = int(v.keys.size()), dk = int(v.query.size());
    double hi = 1e-9;
    for (const auto& row : v.products)
        for (double x : row)
            hi = std::max(hi, std::abs(x));
    QStringList dims;
    for (int c = 0; c < dk; ++c)
        dims << QString::number(c);
    setHeatmapData(
        productHeat_, keys, dk, [&](int r, int c) { return v.products[std::size_t(r)][std::size_t(c)]; },
        record_->keyTokens.mid(0, keys), dims, -hi, hi);
    const bool split = !record_->terms.empty();
    double lo = 0, top = 0;
    for (int j = 0; j < keys; ++j) {
        const double s = v.scores[std::size_t(j)] < -1e8 ? 0.0 : v.scores[std::size_t(j)];  // masked: not drawn
        probGraph_->addData(j, v.probs[std::size_t(j)]);
        if (!split) {
            scoreBars_->addData(j, s);
            lo = std::min(lo, s);
            top = std::max(top, s);
            continue;
        }
        const ScoreTerms& t = record_->terms[std::size_t(record_->head)];
        const int q = record_->query;
        const double parts[] = {t.tokenToken(q, j), t.tokenPosition(q, j), t.positionToken(q, j),
                                t.positionPosition(q, j), t.bias(q, j)};
        for (int k = 0; k < 5; ++k) {
            termBars_[std::size_t(k)]->addData(j, parts[k]);
            lo = std::min(lo, parts[k]);
            top = std::max(top, parts[k]);
        }
        scoreBars_->addData(j, s);
        lo = std::min(lo, s);
        top = std::max(top, s);
    }
    scoreBars_->setWidth(split ? 0.9 : 0.6);
    // The series colour: outlined, filled faintly behind the terms when split.
    scoreBars_->setBrush(QColor(0, 0, 0, split ? 35 : 150));
    setSeriesColour(scoreBars_, 0);
    for (QCPBars* b : termBars_) {
        b->setVisible(split);
        if (split)
            b->addToLegend();
        else
            b->removeFromLegend();
    }
    setTokenTicks(scores_->xAxis, record_->keyTokens.mid(0, keys));
    scores_->xAxis->setRange(-0.6, keys - 0.4);
    scores_->yAxis->setRange(lo - 0.05 * (top - lo + 1e-9), top + 0.05 * (top - lo + 1e-9));
    if (split) {
        QStringList s;
        for (std::size_t h = 0; h < record_->terms.size(); ++h)
            s << tr("head %1 %2 %").arg(h + 1).arg(100.0 * record_->terms[h].positionalShare, 0, 'f', 0);
        shares_->setText(tr("Positional share of the scores (first encoder layer): %1").arg(s.join(QStringLiteral(" · "))));
    }
    replotIfVisible(vectors_);
    replotIfVisible(scores_);
}

}  // namespace as::ui
