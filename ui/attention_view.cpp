// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "attention_view.h"

#include "eval/attention_stats.h"

#include <QEvent>
#include <QComboBox>
#include <QStandardItemModel>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QResizeEvent>
#include <QScrollArea>
#include <QSlider>
#include <QSplitter>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace as::ui {

namespace {

constexpr int kMaxColumns = 4;   // small multiples per row, at most
constexpr int kSmallWidth = 190;  // a small multiple's width when choosing the column count
constexpr int kSmallPointSize = 8;
constexpr int kBigPointSize = 10;

QString kindName(AttentionKind kind)
{
    switch (kind) {
    case AttentionKind::EncoderSelf: return QObject::tr("encoder self");
    case AttentionKind::DecoderSelf: return QObject::tr("decoder self");
    case AttentionKind::Cross: return QObject::tr("cross");
    }
    return {};
}

// n labels: the given tokens, or positions where the record has fewer tokens than the map.
QStringList fitLabels(const QStringList& tokens, int n)
{
    QStringList out = tokens.mid(0, n);
    for (int i = int(out.size()); i < n; ++i)
        out.push_back(QStringLiteral("#%1").arg(i));
    return out;
}

QString csvField(const QString& s)
{
    if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"'))
        && !s.contains(QLatin1Char('\n')))
        return s;
    QString q = s;
    q.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + q + QLatin1Char('"');
}

// A map's axes: keys across, queries down.
void labelAxes(QCustomPlot* plot)
{
    plot->xAxis->setLabel(QObject::tr("key"));
    plot->yAxis->setLabel(QObject::tr("query"));
}

void styleAxes(QCustomPlot* plot, int pointSize)
{
    styleTokenAxes(plot, pointSize);
    for (QCPAxis* a : {plot->xAxis, plot->yAxis}) {
        a->setLabelPadding(2);
        a->setTickLabelPadding(3);
    }
    labelAxes(plot);
}

}  // namespace

AttentionView::AttentionView(QWidget* parent) : QWidget(parent)
{
    kindBox_ = new QComboBox(this);
    kindBox_->addItems({QString(), QString(), QString()});  // AttentionKind's order
    layerBox_ = new QComboBox(this);
    replay_ = new ReplayBar(this);
    kindLabel_ = new QLabel(this);
    layerLabel_ = new QLabel(this);

    auto* controls = new QHBoxLayout;
    controls->addWidget(kindLabel_);
    controls->addWidget(kindBox_);
    controls->addWidget(layerLabel_);
    controls->addWidget(layerBox_);
    controls->addStretch(1);

    sentenceLabel_ = new QLabel(this);
    sentenceLabel_->setTextFormat(Qt::PlainText);  // tokens such as <s> are not markup
    sentenceLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    sentenceLabel_->setWordWrap(true);

    // Small multiples on the left, the enlarged map and the entropies on the right.
    auto* gridHost = new QWidget;
    grid_ = new QGridLayout(gridHost);
    grid_->setSpacing(4);
    grid_->setContentsMargins(2, 2, 2, 2);
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setWidget(gridHost);
    scroll->setMinimumWidth(220);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->viewport()->installEventFilter(this);  // the column count follows the width
    meanPlot_ = makeHeadPlot(kMeanHead);

    bigPlot_ = new QCustomPlot;
    bigPlot_->setObjectName(QStringLiteral("attentionEnlarged"));
    bigPlot_->setMinimumSize(240, 170);
    bigHeat_ = makeHeatmap(bigPlot_, true, sequentialGradient());
    bigHeat_.scale->axis()->setTickLabelFont(pointFont(kBigPointSize - 1));
    bigHeat_.scale->axis()->setLabelFont(pointFont(kBigPointSize - 1));
    bigHeat_.scale->setBarWidth(12);
    styleAxes(bigPlot_, kBigPointSize);
    bigTitle_ = addTitle(bigPlot_, QString(), pointFont(kBigPointSize));  // spans the colour bar
    enableHoverReadout(bigPlot_, [this](QCustomPlot*, QPoint p) { return hoverText(enlarged_, true, p); });

    entropyPlot_ = new QCustomPlot;
    entropyPlot_->setMinimumSize(200, 140);
    entropyBars_ = new QCPBars(entropyPlot_->xAxis, entropyPlot_->yAxis);
    entropyBars_->setWidth(0.6);
    entropyBars_->setPen(QPen(Qt::black));
    entropyBars_->setBrush(QColor(0, 0, 0, 120));  // the outline's colour, lighter
    setSeriesColour(entropyBars_, 0);
    entropyMax_ = new QCPItemStraightLine(entropyPlot_);
    entropyMax_->setPen(QPen(Qt::black, 1, Qt::DashLine));
    setSeriesColour(entropyMax_, 7);  // grey
    for (QCPAxis* a : {entropyPlot_->xAxis, entropyPlot_->yAxis}) {
        a->setTickLabelFont(pointFont(kBigPointSize - 1));
        a->setLabelFont(pointFont(kBigPointSize - 1));
    }
    entropyPlot_->plotLayout()->insertRow(0);
    entropyTitle_ = new QCPTextElement(entropyPlot_, QString(), pointFont(kBigPointSize - 1));
    entropyPlot_->plotLayout()->addElement(0, 0, entropyTitle_);
    fitTitle(entropyTitle_);
    enableHoverReadout(entropyPlot_, [this](QCustomPlot* plot, QPoint p) {
        if (!plot->axisRect()->rect().contains(p))
            return QString();
        const int h = int(std::lround(plot->xAxis->pixelToCoord(p.x()))) - 1;
        if (h < 0 || h >= headCount())
            return QString();
        return tr("head %1: H = %2 nats (uniform: %3)")
            .arg(h + 1)
            .arg(data_[h].entropy, 0, 'f', 3)
            .arg(data_[h].uniform, 0, 'f', 3);
    });

    auto* bigExport = makeExportButton(bigPlot_, [this] { return matrixCsv(enlarged_); }, this,
                                       [this] { return tr("Export map"); });
    auto* entropyExport = makeExportButton(entropyPlot_, [this] {
        QString csv = QStringLiteral("head,entropy_nats,uniform_nats\n");
        for (int h = 0; h < headCount(); ++h)
            csv += QStringLiteral("%1,%2,%3\n").arg(h + 1).arg(data_[h].entropy).arg(data_[h].uniform);
        return csv;
    }, this, [this] { return tr("Export entropies"); });
    auto* exports = new QHBoxLayout;
    exports->addStretch(1);
    exports->addWidget(bigExport);
    exports->addWidget(entropyExport);

    auto* right = new QWidget;
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(bigPlot_, 3);
    rightLayout->addWidget(entropyPlot_, 1);
    rightLayout->addLayout(exports);

    auto* splitter = new QSplitter(Qt::Horizontal);
    splitter->addWidget(scroll);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({kMaxColumns * kSmallWidth + 30, 560});

    auto* placeholder = placeholder_ = new QLabel;
    placeholder->setAlignment(Qt::AlignCenter);
    placeholder->setWordWrap(true);
    stack_ = new QStackedWidget(this);
    stack_->addWidget(placeholder);
    stack_->addWidget(splitter);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    // The replay below the choice of map: one row would be wider than the window has room for.
    layout->addWidget(replay_);
    layout->addWidget(sentenceLabel_);
    layout->addWidget(stack_, 1);

    connect(kindBox_, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (!updating_)
            setKind(AttentionKind(i));
    });
    connect(layerBox_, &QComboBox::currentIndexChanged, this, [this](int i) {
        if (!updating_ && i >= 0)
            setLayer(i);
    });
    connect(replay_, &ReplayBar::indexRequested, this, &AttentionView::replayTo);
    retranslate();
}

void AttentionView::retranslate()
{
    const QString kinds[] = {tr("Encoder self-attention (source × source)"),
                             tr("Decoder self-attention (target × target)"),
                             tr("Cross-attention (target × source)")};
    for (int i = 0; i < 3; ++i)
        kindBox_->setItemText(i, kinds[i]);
    kindBox_->setToolTip(tr("Which attention to show: queries are rows, keys are columns"));
    layerBox_->setToolTip(tr("Layer (1 = nearest the embeddings)"));
    replay_->setSliderToolTip(tr("Replay the attention recorded during training; at the right end "
                                 "the view follows the latest step"));
    kindLabel_->setText(tr("Attention:"));
    layerLabel_->setText(tr("Layer:"));
    bigHeat_.scale->axis()->setLabel(tr("attention weight"));
    entropyPlot_->xAxis->setLabel(tr("head"));
    // The axis says only the unit: the plot is short, and a longer label was cut off at the
    // window's default size. The title says what is measured.
    entropyPlot_->yAxis->setLabel(tr("nats"));
    entropyTitle_->setText(tr("Mean row entropy per head (dashed: uniform over the keys)"));
    placeholder_->setText(tr("No attention recorded yet.\nStart training: the attention of the "
                             "probe sentence appears here at every snapshot."));
    labelAxes(bigPlot_);
    for (HeadPlot& hp : heads_)
        labelAxes(hp.plot);
    labelAxes(meanPlot_.plot);
    refresh();  // the titles and labels drawn from the record
}

void AttentionView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::StyleChange) {
        // A frame with a style sheet keeps the palette it was polished with: polished again,
        // its plot takes the theme's, and the ring the theme's highlight.
        for (HeadPlot& hp : heads_)
            hp.frame->setStyleSheet(QString());
        updateFrames();
    }
}



AttentionView::HeadPlot AttentionView::makeHeadPlot(int index)
{
    HeadPlot hp;
    auto* frame = new QFrame(grid_->parentWidget());  // parented before any size is set
    frame->setObjectName(QStringLiteral("headFrame"));
    auto* l = new QVBoxLayout(frame);
    l->setContentsMargins(2, 2, 2, 2);
    hp.frame = frame;
    hp.plot = new QCustomPlot(frame);
    hp.plot->setObjectName(index == kMeanHead ? QStringLiteral("attentionHeadMean")
                                              : QStringLiteral("attentionHead%1").arg(index + 1));
    hp.plot->setMinimumSize(150, 170);
    hp.plot->setCursor(Qt::PointingHandCursor);
    hp.plot->setToolTip(QString());
    l->addWidget(hp.plot);
    hp.heat = makeHeatmap(hp.plot, false, sequentialGradient());
    styleAxes(hp.plot, kSmallPointSize);
    hp.title = addTitle(hp.plot, QString(), pointFont(kSmallPointSize));
    hp.title->setMargins(QMargins(0, 2, 0, 0));
    enableHoverReadout(hp.plot, [this, index](QCustomPlot*, QPoint p) { return hoverText(index, false, p); });
    connect(hp.plot, &QCustomPlot::mousePress, this, [this, index](QMouseEvent*) {
        enlargeHead(index);
    });
    return hp;
}

void AttentionView::ensureHeadPlots(int heads)
{
    while (int(heads_.size()) < heads)
        heads_.push_back(makeHeadPlot(int(heads_.size())));
    // Heads first, then the mean: position i of the grid.
    for (int i = 0; i < int(heads_.size()); ++i) {
        grid_->removeWidget(heads_[i].frame);
        heads_[i].frame->setVisible(i < heads);
        if (i < heads)
            grid_->addWidget(heads_[i].frame, i / columns_, i % columns_);
    }
    grid_->removeWidget(meanPlot_.frame);
    grid_->addWidget(meanPlot_.frame, heads / columns_, heads % columns_);
    meanPlot_.frame->setVisible(heads > 0);
}

bool AttentionView::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::Resize && watched == grid_->parentWidget()->parentWidget()) {
        const int width = static_cast<QResizeEvent*>(event)->size().width();
        const int columns = std::clamp(width / kSmallWidth, 1, kMaxColumns);
        if (columns != columns_) {
            columns_ = columns;
            ensureHeadPlots(headCount());
        }
    }
    return QWidget::eventFilter(watched, event);
}

void AttentionView::addRecord(std::shared_ptr<const AttentionRecord> record)
{
    if (history_.append(std::move(record), kHistoryCapacity))
        refresh();
}

void AttentionView::applySnapshot(const TrainingSnapshot& snapshot)
{
    if (snapshot.attention)
        addRecord(snapshot.attention);
}

void AttentionView::reset()
{
    history_.clear();
    refresh();
}

const AttentionRecord* AttentionView::shownRecord() const
{
    return history_.shown().get();
}

void AttentionView::showHistoryIndex(int index)
{
    if (history_.show(index))
        refresh();
    else if (!history_.empty())
        updateReplayControls();
}

void AttentionView::replayTo(int index)
{
    showHistoryIndex(index);
    emit replayMoved(shownStep(), isLive());
}

void AttentionView::showStep(long step)
{
    showHistoryIndex(history_.indexOfStep(step));
}

void AttentionView::setKind(AttentionKind kind)
{
    if (kind == kind_)
        return;
    kind_ = kind;
    refresh();
}

void AttentionView::setLayer(int layer)
{
    if (layer == layer_ || layer < 0)
        return;
    layer_ = layer;
    refresh();
}

void AttentionView::enlargeHead(int h)
{
    if (h != kMeanHead && (h < 0 || h >= headCount()))
        return;
    enlarged_ = h;
    updateFrames();
    drawEnlarged();
}

void AttentionView::updateReplayControls()
{
    replay_->setState(historySize(), history_.shownIndex(), shownStep());
}

void AttentionView::rebuildLayerChoices()
{
    const AttentionRecord* r = shownRecord();
    updating_ = true;
    // A decoder-only model's record (core/SPEC.md §2.10) has causal self-attention alone: the
    // other kinds are not offered, and the view shows that one.
    if (auto* items = qobject_cast<QStandardItemModel*>(kindBox_->model()); items && r) {
        for (AttentionKind k : {AttentionKind::EncoderSelf, AttentionKind::DecoderSelf, AttentionKind::Cross})
            items->item(int(k))->setEnabled(!attentionLayers(*r, k).empty());
        if (attentionLayers(*r, kind_).empty() && !r->decoderSelf.empty())
            kind_ = AttentionKind::DecoderSelf;
    }
    const int layers = r ? int(attentionLayers(*r, kind_).size()) : 0;
    if (kindBox_->currentIndex() != int(kind_))
        kindBox_->setCurrentIndex(int(kind_));
    if (layerBox_->count() != layers) {
        layerBox_->clear();
        for (int l = 0; l < layers; ++l)
            layerBox_->addItem(QString());
    }
    for (int l = 0; l < layers; ++l)
        layerBox_->setItemText(l, tr("layer %1").arg(l + 1));
    if (layers > 0) {
        layer_ = std::clamp(layer_, 0, layers - 1);
        layerBox_->setCurrentIndex(layer_);
    }
    updating_ = false;
}

void AttentionView::refresh()
{
    rebuildLayerChoices();
    updateReplayControls();
    data_.clear();
    mean_ = {};
    rowLabels_.clear();
    colLabels_.clear();
    const AttentionRecord* r = shownRecord();
    const std::vector<Mat<float>>* layers = r ? &attentionLayers(*r, kind_) : nullptr;
    if (!r || r->heads <= 0 || layer_ >= int(layers->size())
        || (*layers)[layer_].rows() % r->heads != 0) {
        stack_->setCurrentIndex(0);
        sentenceLabel_->clear();
        ensureHeadPlots(0);
        return;
    }
    stack_->setCurrentIndex(1);
    const Mat<float>& m = (*layers)[layer_];  // [heads * Sq, Sk]
    const int heads = r->heads;
    const int sq = int(m.rows()) / heads, sk = int(m.cols());
    const bool queriesAreSource = kind_ == AttentionKind::EncoderSelf;
    const bool keysAreSource = kind_ != AttentionKind::DecoderSelf;
    rowLabels_ = fitLabels(queriesAreSource ? r->srcTokens : r->tgtTokens, sq);
    colLabels_ = fitLabels(keysAreSource ? r->srcTokens : r->tgtTokens, sk);
    if (r->encoderSelf.empty())  // a decoder-only model reads one text
        sentenceLabel_->setText(tr("Probe at step %1 — input: %2")
                                    .arg(r->step)
                                    .arg(r->tgtTokens.join(QLatin1Char(' '))));
    else
        sentenceLabel_->setText(tr("Probe at step %1 — source: %2   target input: %3")
                                    .arg(r->step)
                                    .arg(r->srcTokens.join(QLatin1Char(' ')),
                                         r->tgtTokens.join(QLatin1Char(' '))));

    // Entropy over the valid keys: masked keys carry weight 0 and add nothing to -sum p ln p;
    // the uniform reference counts the keys a query may see (causal in decoder self-attention).
    double uniform = 0;
    for (int q = 0; q < sq; ++q)
        uniform += std::log(double(kind_ == AttentionKind::DecoderSelf ? std::min(q + 1, sk) : sk));
    uniform /= std::max(sq, 1);
    auto entropyOf = [](HeadData& d) {
        double sum = 0;
        for (int q = 0; q < d.rows; ++q)
            sum += attentionEntropy(Eigen::Map<const Eigen::RowVectorXd>(&d.w[std::size_t(q) * d.cols], d.cols));
        d.entropy = sum / std::max(d.rows, 1);
    };
    mean_ = HeadData{sq, sk, std::vector<double>(std::size_t(sq) * sk, 0.0), 0.0, uniform};
    data_.resize(heads);
    for (int h = 0; h < heads; ++h) {
        HeadData& d = data_[h];
        d = HeadData{sq, sk, std::vector<double>(std::size_t(sq) * sk), 0.0, uniform};
        for (int q = 0; q < sq; ++q)
            for (int k = 0; k < sk; ++k) {
                const double p = double(m(Eigen::Index(h) * sq + q, k));
                d.w[std::size_t(q) * sk + k] = p;
                mean_.w[std::size_t(q) * sk + k] += p / heads;
            }
        entropyOf(d);
    }
    entropyOf(mean_);

    ensureHeadPlots(heads);
    auto fill = [this](HeadPlot& hp, const HeadData& d, const QString& title) {
        setHeatmapData(hp.heat, d.rows, d.cols, [&d](int q, int k) { return d.at(q, k); },
                       rowLabels_, colLabels_);
        hp.title->setText(title);
        replotIfVisible(hp.plot);
    };
    for (int h = 0; h < heads; ++h)
        fill(heads_[h], data_[h],
             tr("head %1 · H=%2").arg(h + 1).arg(data_[h].entropy, 0, 'f', 2));
    fill(meanPlot_, mean_, tr("mean of heads · H=%1").arg(mean_.entropy, 0, 'f', 2));
    if (enlarged_ >= heads)
        enlarged_ = kMeanHead;
    updateFrames();
    drawEnlarged();
    drawEntropy();
}

void AttentionView::updateFrames()
{
    const QString ring = palette().color(QPalette::Highlight).name();
    auto style = [&ring](HeadPlot& hp, bool selected) {
        hp.frame->setStyleSheet(selected ? QStringLiteral("QFrame#headFrame { border: 2px solid "
                                                          "%1; border-radius: 3px; }").arg(ring)
                                         : QStringLiteral("QFrame#headFrame { border: 2px solid "
                                                          "transparent; }"));
    };
    for (int h = 0; h < int(heads_.size()); ++h)
        style(heads_[h], h == enlarged_);
    style(meanPlot_, enlarged_ == kMeanHead);
}

void AttentionView::drawEnlarged()
{
    const HeadData* d = data(enlarged_);
    if (!d) {
        setHeatmapData(bigHeat_, 0, 0, [](int, int) { return 0.0; });
        bigTitle_->setText(QString());
        replotIfVisible(bigPlot_);
        return;
    }
    setHeatmapData(bigHeat_, d->rows, d->cols, [d](int q, int k) { return d->at(q, k); },
                   rowLabels_, colLabels_);
    const QString which = enlarged_ == kMeanHead
                              ? tr("mean of %1 heads").arg(headCount())
                              : tr("head %1").arg(enlarged_ + 1);
    // Two lines: on one, the title is wider than the plot beside the small multiples.
    bigTitle_->setText(tr("%1 · %2 · layer %3\nentropy H = %4 nats")
                           .arg(which, kindName(kind_))
                           .arg(layer_ + 1)
                           .arg(d->entropy, 0, 'f', 2));
    replotIfVisible(bigPlot_);
}

void AttentionView::drawEntropy()
{
    QVector<double> keys, values;
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    double top = 0.1;
    for (int h = 0; h < headCount(); ++h) {
        keys.push_back(h + 1);
        values.push_back(data_[h].entropy);
        ticker->addTick(h + 1, QString::number(h + 1));
        top = std::max({top, data_[h].entropy, data_[h].uniform});
    }
    entropyBars_->setData(keys, values);
    entropyPlot_->xAxis->setTicker(ticker);
    entropyPlot_->xAxis->setSubTicks(false);
    entropyPlot_->xAxis->setRange(0.4, headCount() + 0.6);
    entropyPlot_->yAxis->setRange(0, top * 1.1);
    const double u = headCount() > 0 ? data_[0].uniform : 0;
    entropyMax_->point1->setCoords(0, u);
    entropyMax_->point2->setCoords(1, u);
    replotIfVisible(entropyPlot_);
}

const AttentionView::HeadData* AttentionView::data(int h) const
{
    if (h == kMeanHead)
        return data_.empty() ? nullptr : &mean_;
    if (h < 0 || h >= headCount())
        return nullptr;
    return &data_[h];
}

QSize AttentionView::headMapShape(int h) const
{
    const HeadData* d = data(h);
    return d ? QSize(d->cols, d->rows) : QSize();
}

QStringList AttentionView::rowLabels(int h) const
{
    return data(h) ? rowLabels_ : QStringList();
}

QStringList AttentionView::colLabels(int h) const
{
    return data(h) ? colLabels_ : QStringList();
}

double AttentionView::weight(int h, int q, int k) const
{
    const HeadData* d = data(h);
    if (!d || q < 0 || q >= d->rows || k < 0 || k >= d->cols)
        return std::nan("");
    const HeadPlot& hp = h == kMeanHead ? meanPlot_ : heads_[h];
    return hp.heat.map->data()->cell(k, q);  // cell (x = key, y = query)
}

double AttentionView::headEntropy(int h) const
{
    const HeadData* d = data(h);
    return d ? d->entropy : std::nan("");
}

QString AttentionView::hoverText(int h, bool big, QPoint pixel) const
{
    const HeadData* d = data(h);
    if (!d)
        return {};
    const Heatmap& heat = big ? bigHeat_ : (h == kMeanHead ? meanPlot_.heat : heads_[h].heat);
    int q = 0, k = 0;
    if (!heatmapCellAt(heat, pixel, &q, &k)) {
        // Over the tick labels, which show only every k-th token when the tokens are many.
        if (!heatmapAxisTokenAt(heat, pixel, &q, &k))
            return {};
        if (q >= 0 && q < d->rows)
            return tr("query %1: %2").arg(q + 1).arg(rowLabels_.value(q));
        if (k >= 0 && k < d->cols)
            return tr("key %1: %2").arg(k + 1).arg(colLabels_.value(k));
        return {};
    }
    if (q >= d->rows || k >= d->cols)
        return {};
    const QString which = h == kMeanHead ? tr("mean of heads") : tr("head %1").arg(h + 1);
    return tr("%1\nquery %2 (%3) → key %4 (%5)\nweight %6")
        .arg(which, rowLabels_.value(q))
        .arg(q + 1)
        .arg(colLabels_.value(k))
        .arg(k + 1)
        .arg(d->at(q, k), 0, 'f', 3);
}

QString AttentionView::matrixCsv(int h) const
{
    const HeadData* d = data(h);
    if (!d)
        return {};
    QString csv = QStringLiteral("query\\key");
    for (const QString& c : colLabels_)
        csv += QLatin1Char(',') + csvField(c);
    csv += QLatin1Char('\n');
    for (int q = 0; q < d->rows; ++q) {
        csv += csvField(rowLabels_.value(q));
        for (int k = 0; k < d->cols; ++k)
            csv += QLatin1Char(',') + QString::number(d->at(q, k), 'g', 6);
        csv += QLatin1Char('\n');
    }
    return csv;
}

}  // namespace as::ui
