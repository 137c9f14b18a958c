// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "decoding_view.h"
#include "sampling_controls.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QSlider>
#include <QScrollBar>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace as::ui {

namespace {

constexpr int kPointSize = 10;
constexpr int kOthersSeries = 7;  // seriesColour(): grey, the top tokens not fed back
constexpr int kFedSeries = 0;     // blue, the token fed back
constexpr int kCutSeries = 1;     // orange, a sampled step's probability after the cut

QString escaped(const QString& token)
{
    return token.toHtmlEscaped();
}

// The sequential map with masked cells (NaN) in the palette's mid tone: neither white (a
// weight of 0) nor any blue.
QCPColorGradient maskedGradient(const QPalette& palette)
{
    QCPColorGradient g = sequentialGradient();
    g.setNanHandling(QCPColorGradient::nhNanColor);
    g.setNanColor(palette.color(QPalette::Mid));
    return g;
}

void styleAxes(QCustomPlot* plot)
{
    styleTokenAxes(plot, kPointSize - 1);
}

// No taller than its rows (with the header and a horizontal scroll bar): the space below a
// table of a few layers goes to the plots.
void fitHeight(QTableWidget* table)
{
    table->resizeRowsToContents();
    const int rows = table->verticalHeader()->length();
    const int h = table->horizontalHeader()->sizeHint().height() + rows + 2 * table->frameWidth()
                  + table->horizontalScrollBar()->sizeHint().height();
    table->setMaximumHeight(std::max(h, table->fontMetrics().height() * 4));
    // Every layer shown without scrolling, up to about four of them (the recipes' two and
    // three; six scroll): the window fits 1280×800.
    table->setMinimumHeight(std::min(table->maximumHeight(), table->fontMetrics().height() * 7));
}

// Two decimals, or two significant digits for what would show as 0.00.
QString probabilityText(double p)
{
    return p >= 0.005 ? QString::number(p, 'f', 2) : QString::number(p, 'g', 2);
}

}  // namespace

DecodingView::DecodingView(QWidget* parent) : QWidget(parent)
{
    auto makeButton = [this](QAction* a) {
        auto* b = new QToolButton(this);
        b->setDefaultAction(a);
        b->setToolButtonStyle(Qt::ToolButtonTextOnly);
        return b;
    };
    backAction_ = new QAction(this);
    backAction_->setShortcut(QKeySequence(Qt::Key_Left));
    stepAction_ = new QAction(this);
    stepAction_->setShortcut(QKeySequence(Qt::Key_Right));
    runAction_ = new QAction(this);
    runAction_->setShortcut(QKeySequence(Qt::Key_R));
    auto* first = new QAction(this);
    first->setShortcut(QKeySequence(Qt::Key_Home));
    auto* last = new QAction(this);
    last->setShortcut(QKeySequence(Qt::Key_End));
    for (QAction* a : {backAction_, stepAction_, runAction_, first, last}) {
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        addAction(a);
    }
    connect(backAction_, &QAction::triggered, this, &DecodingView::stepBack);
    connect(stepAction_, &QAction::triggered, this, &DecodingView::stepForward);
    connect(runAction_, &QAction::triggered, this, &DecodingView::run);
    connect(first, &QAction::triggered, this, [this] { setStep(0); });
    connect(last, &QAction::triggered, this, [this] { setStep(stepCount() - 1); });
    runTimer_ = new QTimer(this);
    runTimer_->setInterval(kRunIntervalMs);
    connect(runTimer_, &QTimer::timeout, this, [this] {
        if (step_ + 1 >= stepCount()) {
            runTimer_->stop();
            updateControls();
            return;
        }
        setStep(step_ + 1);
    });

    slider_ = new QSlider(Qt::Horizontal, this);
    slider_->setPageStep(1);
    slider_->setTickPosition(QSlider::TicksBelow);
    connect(slider_, &QSlider::valueChanged, this, [this](int v) {
        if (v != step_)
            setStep(v);
    });
    stepLabel_ = new QLabel(this);
    layerBox_ = new QComboBox(this);
    layerBox_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    headBox_ = new QComboBox(this);
    headBox_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(layerBox_, &QComboBox::activated, this, [this](int i) { setLayer(i); });
    connect(headBox_, &QComboBox::activated, this, [this](int i) { setHead(i); });

    auto* controls = new QHBoxLayout;
    controls->addWidget(makeButton(backAction_));
    controls->addWidget(makeButton(stepAction_));
    controls->addWidget(makeButton(runAction_));
    controls->addWidget(slider_, 1);
    controls->addWidget(stepLabel_);
    controls->addSpacing(12);
    layerLabel_ = new QLabel(this);
    headLabel_ = new QLabel(this);
    controls->addWidget(layerLabel_);
    controls->addWidget(layerBox_);
    controls->addWidget(headLabel_);
    controls->addWidget(headBox_);

    // Sampling (ui/sampling_controls.h): a temperature slider (0–2; 0 is greedy), top-k, top-p
    // and the seed, on when Sample is ticked.
    sample_ = new QCheckBox(this);
    sampling_ = new SamplingControls(this);
    auto* samplingBar = new QHBoxLayout;
    samplingBar->addWidget(sample_);
    samplingBar->addWidget(sampling_, 1);
    connect(sample_, &QCheckBox::toggled, this, &DecodingView::syncSampling);
    connect(sampling_, &SamplingControls::changed, this, &DecodingView::syncSampling);

    source_ = new QLabel(this);
    source_->setWordWrap(true);
    source_->setTextFormat(Qt::RichText);
    source_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    divergence_ = new QLabel(this);
    divergence_->setObjectName(QStringLiteral("divergence"));
    divergence_->setWordWrap(true);
    divergence_->setTextFormat(Qt::RichText);
    connect(divergence_, &QLabel::linkActivated, this, [this] {
        if (record_ && record_->divergence >= 0)
            setStep(record_->divergence);
    });
    placeholder_ = new QLabel(this);
    placeholder_->setWordWrap(true);
    placeholder_->setAlignment(Qt::AlignCenter);

    auto* columns = new QSplitter(Qt::Horizontal);
    for (Side side : {FreeRunning, TeacherForced}) {
        buildColumn(side);
        columns->addWidget(columns_[side].box);
    }

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addLayout(samplingBar);
    layout->addWidget(source_);
    layout->addWidget(divergence_);
    layout->addWidget(placeholder_, 1);
    // The two columns scroll (vertically) when the window is lower than they are tall: the
    // window fits a 1280×800 screen whatever view is shown.
    auto* columnsScroll = new QScrollArea(this);
    columnsScroll->setWidgetResizable(true);
    columnsScroll->setFrameShape(QFrame::NoFrame);
    columnsScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    columnsScroll->setWidget(columns);
    layout->addWidget(columnsScroll, 1);
    retranslate();
    syncSampling();
    refresh();
}

QSlider* DecodingView::temperatureSlider() const
{
    return sampling_->temperatureSlider();
}

std::optional<SamplingOptions> DecodingView::sampling() const
{
    return sample_->isChecked() ? std::optional(sampling_->options()) : std::nullopt;
}

void DecodingView::setSampling(const std::optional<SamplingOptions>& o)
{
    {
        const QSignalBlocker b1(sample_), b2(sampling_);
        sample_->setChecked(o.has_value());
        if (o)
            sampling_->setOptions(*o);
    }
    syncSampling();
}

void DecodingView::syncSampling()
{
    // Shown while Sample is ticked (greedy has no options; disabled controls would not read
    // on a dark theme).
    sampling_->setVisible(sample_->isChecked());
    emit samplingChanged();
}

void DecodingView::retranslate()
{
    backAction_->setText(tr("◀ Back"));
    backAction_->setToolTip(tr("One step back (←; Home: the first step)"));
    stepAction_->setText(tr("Step ▶"));
    stepAction_->setToolTip(tr("The next step: the chosen token is fed back (→; End: the last step)"));
    runAction_->setToolTip(tr("Step through to the end, one step every half second (R); again to pause"));
    slider_->setToolTip(tr("The decoding step shown"));
    stepLabel_->setMinimumWidth(stepLabel_->fontMetrics().horizontalAdvance(tr("step %1 of %2").arg(88).arg(88)));
    layerBox_->setToolTip(tr("The decoder layer whose self- and cross-attention are shown"));
    headBox_->setToolTip(tr("The head whose causal self-attention is shown"));
    layerLabel_->setText(tr("Layer"));
    headLabel_->setText(tr("Self-attention head"));
    divergence_->setToolTip(tr("From this step on the free-running decoder reads its own output, "
                               "which the reference does not contain: exposure to its own mistakes"));
    placeholder_->setText(tr("Train a few steps or open a model: the probe sentence (chosen "
                             "above the Attention view) is decoded here one token at a time."));
    sample_->setText(tr("Sample"));
    sample_->setToolTip(tr("Draw each token from the model's distribution instead of taking the "
                           "likeliest (greedy); the bars then show each token's probability "
                           "before and after temperature and the cut. Moving a control samples "
                           "again at once"));
    for (Side side : {FreeRunning, TeacherForced}) {
        Column& c = columns_[side];
        c.title->setText(side == FreeRunning ? tr("Free-running: greedy decoding feeds back its own choice")
                                             : tr("Teacher-forced: the reference is fed back"));
        c.input->setToolTip(tr("The decoder's input at this step: <s>, then the tokens fed back so "
                               "far; after the arrow, the token this step feeds back"));
        c.selfTitle->setText(tr("Self-attention · grey: masked"));
        c.selfPlot->xAxis->setLabel(tr("key (input so far)"));
        c.selfPlot->yAxis->setLabel(tr("query"));
        c.topTitle->setText(tr("Likeliest next tokens · highlighted: fed back"));
                c.lens->setToolTip(tr("Logit lens: the generator applied to each decoder layer's output "
                              "(through the final LayerNorm in pre-norm): that layer's top-1 next "
                              "token and its probability, per input position. The last layer's is "
                              "the model's prediction"));
        c.exportLabel->setText(tr("Export:"));
        c.exportButtons[0]->setText(tr("self-attention"));
        c.exportButtons[1]->setText(tr("next tokens"));
        c.exportButtons[2]->setText(tr("cross-attention"));
        c.lensTitle->setText(tr("Logit lens: each layer's top-1 next token (probability)"));
    }
}

void DecodingView::changeEvent(QEvent* event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        setRecord(record_);  // the combo boxes' items and the record's texts
    } else if (event->type() == QEvent::PaletteChange) {
        refresh();  // the bars' labels and the lens's cells in the new colours
    }
}

void DecodingView::buildColumn(Side side)
{
    Column& c = columns_[side];
    c.box = new QWidget(this);
    c.title = new QLabel(c.box);
    c.title->setFont(pointFont(kPointSize + 1, true));
    c.title->setWordWrap(true);
    c.input = new QLabel(c.box);
    c.input->setTextFormat(Qt::RichText);
    c.input->setWordWrap(true);
    c.input->setTextInteractionFlags(Qt::TextSelectableByMouse);
    c.chosen = new QLabel(c.box);
    c.chosen->setTextFormat(Qt::RichText);
    c.chosen->setWordWrap(true);
    // Two lines in both columns, so that their plots start at the same height.
    c.chosen->setMinimumHeight(2 * c.chosen->fontMetrics().lineSpacing());
    c.chosen->setAlignment(Qt::AlignLeft | Qt::AlignTop);

    const QCPColorGradient gradient = maskedGradient(palette());
    c.selfPlot = new QCustomPlot(c.box);
    c.selfPlot->setMinimumSize(170, 170);
    c.selfHeat = makeHeatmap(c.selfPlot, false, gradient);
    c.selfTitle = addTitle(c.selfPlot, QString(), pointFont(kPointSize, true));
    styleAxes(c.selfPlot);
    enableHoverReadout(c.selfPlot, [this, side](QCustomPlot*, QPoint p) {
        const Column& col = columns_[side];
        const DecodingRun* r = runOf(side);
        int q = 0, k = 0;
        if (!r || !heatmapCellAt(col.selfHeat, p, &q, &k))
            return QString();
        const double w = heatmapCell(col.selfHeat, q, k);
        if (std::isnan(w))
            return tr("%1 → %2: masked (a later token)").arg(r->input.value(q), r->input.value(k));
        return tr("%1 → %2\nweight %3").arg(r->input.value(q), r->input.value(k)).arg(w, 0, 'f', 3);
    });

    c.topPlot = new QCustomPlot(c.box);
    c.topPlot->setMinimumSize(170, 170);
    c.topTitle = addTitle(c.topPlot, QString(), pointFont(kPointSize, true));
    c.bars = new QCPBars(c.topPlot->yAxis, c.topPlot->xAxis);
    c.fedBar = new QCPBars(c.topPlot->yAxis, c.topPlot->xAxis);
    c.cutBars = new QCPBars(c.topPlot->yAxis, c.topPlot->xAxis);
    c.cutBars->setBrush(Qt::black);
    c.cutBars->setPen(Qt::NoPen);
    setSeriesColour(c.cutBars, kCutSeries);
    c.bars->setBrush(Qt::black);
    c.bars->setPen(Qt::NoPen);
    c.fedBar->setBrush(Qt::black);
    c.fedBar->setPen(Qt::NoPen);
    setSeriesColour(c.bars, kOthersSeries);
    setSeriesColour(c.fedBar, kFedSeries);
    for (QCPBars* b : {c.bars, c.fedBar})
        b->setWidth(0.7);
    c.topPlot->yAxis->setRangeReversed(true);  // the likeliest at the top
    c.topPlot->yAxis->grid()->setVisible(false);
    c.topPlot->yAxis->grid()->setZeroLinePen(Qt::NoPen);
    c.topPlot->xAxis->setRange(0, 1.18);       // room for the numbers after the shorter bars
    c.topPlot->xAxis->setLabel(tr("probability"));
    styleAxes(c.topPlot);
    enableHoverReadout(c.topPlot, [this, side](QCustomPlot* plot, QPoint p) {
        const Column& col = columns_[side];
        const int i = int(std::lround(plot->yAxis->pixelToCoord(p.y())));
        if (i < 0 || i >= int(col.topTokens.size()))
            return QString();
        if (i < int(col.cutProbs.size()))
            return tr("%1: p = %2, after temperature and the cut %3")
                .arg(col.topTokens[i])
                .arg(col.topProbs[std::size_t(i)], 0, 'f', 4)
                .arg(col.cutProbs[std::size_t(i)], 0, 'f', 4);
        return tr("%1: p = %2").arg(col.topTokens[i]).arg(col.topProbs[std::size_t(i)], 0, 'f', 4);
    });

    c.crossPlot = new QCustomPlot(c.box);
    c.crossPlot->setMinimumSize(220, 175);
    c.crossHeat = makeHeatmap(c.crossPlot, true, sequentialGradient());
    c.crossHeat.scale->setBarWidth(10);
    c.crossTitle = addTitle(c.crossPlot, QString(), pointFont(kPointSize, true));
    c.crossPlot->xAxis->setLabel(tr("source token"));
    styleAxes(c.crossPlot);
    enableHoverReadout(c.crossPlot, [this, side](QCustomPlot*, QPoint p) {
        const Column& col = columns_[side];
        int h = 0, j = 0;
        if (!record_ || !heatmapCellAt(col.crossHeat, p, &h, &j))
            return QString();
        return tr("head %1 → %2\nweight %3").arg(h + 1).arg(record_->source.value(j))
            .arg(heatmapCell(col.crossHeat, h, j), 0, 'f', 3);
    });

    c.lens = new QTableWidget(c.box);
    c.lens->setObjectName(side == FreeRunning ? QStringLiteral("lensFree") : QStringLiteral("lensForced"));
    c.lens->setEditTriggers(QAbstractItemView::NoEditTriggers);
    c.lens->setSelectionMode(QAbstractItemView::NoSelection);
    c.lens->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    c.lens->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);

    auto* plots = new QHBoxLayout;
    plots->addWidget(c.selfPlot, 1);
    plots->addWidget(c.topPlot, 1);
    auto* upper = new QWidget(c.box);
    auto* upperLayout = new QVBoxLayout(upper);
    upperLayout->setContentsMargins(0, 0, 0, 0);
    // Export of each plot: the picture, or its numbers as CSV.
    auto* exports = new QHBoxLayout;
    c.exportLabel = new QLabel(upper);
    exports->addWidget(c.exportLabel);
    const QCustomPlot* exported[] = {c.selfPlot, c.topPlot, c.crossPlot};
    for (int i = 0; i < 3; ++i) {
        QCustomPlot* plot = const_cast<QCustomPlot*>(exported[i]);
        c.exportButtons[std::size_t(i)] = makeExportButton(plot, [this, side, plot] { return csvOf(side, plot); }, upper);
        exports->addWidget(c.exportButtons[std::size_t(i)]);
    }
    exports->addStretch(1);
    upperLayout->addWidget(c.title);
    upperLayout->addLayout(exports);
    upperLayout->addWidget(c.input);
    upperLayout->addWidget(c.chosen);
    upperLayout->addLayout(plots, 1);
    auto* lensBox = new QWidget(c.box);
    auto* lensLayout = new QVBoxLayout(lensBox);
    lensLayout->setContentsMargins(0, 0, 0, 0);
    c.lensTitle = new QLabel(lensBox);
    c.lensTitle->setFont(pointFont(kPointSize, true));
    c.lensTitle->setWordWrap(true);
    lensLayout->addWidget(c.lensTitle);
    lensLayout->addWidget(c.lens, 1);
    lensLayout->setSizeConstraint(QLayout::SetMaximumSize);  // as tall as fitHeight lets the table be
    auto* split = new QSplitter(Qt::Vertical, c.box);
    split->addWidget(upper);
    split->addWidget(c.crossPlot);
    split->addWidget(lensBox);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 3);
    split->setStretchFactor(2, 1);
    split->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(c.box);
    layout->setContentsMargins(4, 0, 4, 0);
    layout->addWidget(split);
}

const DecodingRun* DecodingView::runOf(Side side) const
{
    if (!record_)
        return nullptr;
    if (side == TeacherForced)
        return record_->hasReference ? &record_->forced : nullptr;
    return &record_->free;
}

void DecodingView::setRecord(DecodingRecordPtr record)
{
    record_ = std::move(record);
    if (record_) {
        layerBox_->clear();
        for (int l = 0; l < record_->layers; ++l)
            layerBox_->addItem(tr("decoder %1").arg(l + 1));
        headBox_->clear();
        for (int h = 0; h < record_->heads; ++h)
            headBox_->addItem(tr("head %1").arg(h + 1));
        layer_ = std::clamp(layer_, 0, std::max(0, record_->layers - 1));
        head_ = std::clamp(head_, 0, std::max(0, record_->heads - 1));
        layerBox_->setCurrentIndex(layer_);
        headBox_->setCurrentIndex(head_);
    }
    step_ = std::clamp(step_, 0, std::max(0, stepCount() - 1));
    refresh();
}

void DecodingView::reset()
{
    runTimer_->stop();
    record_.reset();
    step_ = 0;
    refresh();
}

int DecodingView::stepCount() const
{
    if (!record_)
        return 0;
    int n = int(record_->free.steps.size());
    if (record_->hasReference)
        n = std::max(n, int(record_->forced.steps.size()));
    return n;
}

void DecodingView::setStep(int t)
{
    const int clamped = std::clamp(t, 0, std::max(0, stepCount() - 1));
    if (clamped == step_ && slider_->value() == clamped)
        return;
    step_ = clamped;
    refresh();
}

void DecodingView::stepForward()
{
    setStep(step_ + 1);
}

void DecodingView::stepBack()
{
    runTimer_->stop();
    setStep(step_ - 1);
}

void DecodingView::run()
{
    if (runTimer_->isActive()) {
        runTimer_->stop();
    } else if (stepCount() > 1) {
        if (step_ + 1 >= stepCount())
            setStep(0);  // from the start again
        runTimer_->start();
    }
    updateControls();
}

bool DecodingView::running() const
{
    return runTimer_->isActive();
}

void DecodingView::setLayer(int layer)
{
    if (!record_)
        return;
    layer_ = std::clamp(layer, 0, std::max(0, record_->layers - 1));
    layerBox_->setCurrentIndex(layer_);
    refresh();
}

void DecodingView::setHead(int head)
{
    if (!record_)
        return;
    head_ = std::clamp(head, 0, std::max(0, record_->heads - 1));
    headBox_->setCurrentIndex(head_);
    refresh();
}

bool DecodingView::sideShown(Side side) const
{
    return runOf(side) != nullptr;
}

void DecodingView::updateControls()
{
    const int n = stepCount();
    const QSignalBlocker block(slider_);
    slider_->setRange(0, std::max(0, n - 1));
    slider_->setValue(step_);
    slider_->setEnabled(n > 1);
    backAction_->setEnabled(step_ > 0);
    stepAction_->setEnabled(step_ + 1 < n);
    runAction_->setEnabled(n > 1);
    runAction_->setText(runTimer_->isActive() ? tr("Pause") : tr("Run"));
    layerBox_->setEnabled(record_ != nullptr);
    headBox_->setEnabled(record_ != nullptr);
    stepLabel_->setText(n > 0 ? tr("step %1 of %2").arg(step_ + 1).arg(n) : QString());
}

void DecodingView::refresh()
{
    updateControls();
    const bool any = record_ != nullptr;
    placeholder_->setVisible(!any);
    source_->setVisible(any);
    for (Side side : {FreeRunning, TeacherForced})
        columns_[side].box->setVisible(any && (side == FreeRunning || sideShown(side)));
    if (!any) {
        divergence_->clear();
        divergence_->setVisible(false);
        for (Side side : {FreeRunning, TeacherForced})
            clearColumn(side);
        return;
    }
    QString src = record_->generated ? tr("Prompt: %1").arg(escaped(record_->source.join(QLatin1Char(' '))))
                                     : tr("Source: %1").arg(escaped(record_->source.join(QLatin1Char(' '))));
    if (record_->sampling)
        src += QStringLiteral("<br>")
               + tr("Sampled: temperature %1, top-k %2, top-p %3, seed %4")
                     .arg(record_->sampling->temperature)
                     .arg(record_->sampling->topK == 0 ? tr("all") : QString::number(record_->sampling->topK))
                     .arg(record_->sampling->topP)
                     .arg(record_->sampling->seed);
    if (record_->hasReference)
        src += QStringLiteral("<br>") + tr("Reference: %1").arg(escaped(record_->reference.join(QLatin1Char(' '))));
    src += QStringLiteral("<br>") + tr("Weights of step %1").arg(record_->step);
    source_->setText(src);
    divergence_->setVisible(record_->hasReference);
    if (record_->hasReference) {
        const int d = record_->divergence;
        if (d < 0) {
            divergence_->setText(tr("Free-running and teacher-forced feed back the same tokens at every step."));
        } else {
            const DecodingStep* f = d < int(record_->free.steps.size()) ? &record_->free.steps[std::size_t(d)] : nullptr;
            const DecodingStep* r = d < int(record_->forced.steps.size()) ? &record_->forced.steps[std::size_t(d)] : nullptr;
            divergence_->setText(
                tr("◆ The runs part at <a href=\"divergence\">step %1</a>: free-running feeds back <b>%2</b>, the reference "
                   "<b>%3</b>. From there on the free-running decoder reads its own output.%4")
                    .arg(d + 1)
                    .arg(escaped(f ? f->fed.token : tr("(nothing: it stopped)")),
                         escaped(r ? r->fed.token : tr("(nothing: it ended)")),
                         step_ >= d ? QString() : tr(" (%1 steps ahead)").arg(d - step_)));
        }
    }
    for (Side side : {FreeRunning, TeacherForced}) {
        if (sideShown(side))
            drawColumn(side);
        else
            clearColumn(side);
    }
}

void DecodingView::clearColumn(Side side)
{
    Column& c = columns_[side];
    c.input->clear();
    c.chosen->clear();
    setHeatmapData(c.selfHeat, 0, 0, [](int, int) { return 0.0; });
    setHeatmapData(c.crossHeat, 0, 0, [](int, int) { return 0.0; });
    c.crossTitle->setText(QString());
    c.bars->data()->clear();
    c.fedBar->data()->clear();
    c.cutBars->data()->clear();
    c.cutProbs.clear();
    for (QCPItemText* t : c.barTexts)
        c.topPlot->removeItem(t);
    c.barTexts.clear();
    c.topTokens.clear();
    c.topProbs.clear();
    c.lens->clear();
    c.lens->setRowCount(0);
    c.lens->setColumnCount(0);
    fitHeight(c.lens);
    for (QCustomPlot* p : {c.selfPlot, c.crossPlot, c.topPlot})
        replotIfVisible(p);
}

void DecodingView::drawColumn(Side side)
{
    Column& c = columns_[side];
    const DecodingRun& run = *runOf(side);
    const int n = int(run.steps.size());
    const int t = std::min(step_, n - 1);  // a shorter run stays at its last step
    const int d = record_->divergence;
    if (n == 0) {
        clearColumn(side);
        return;
    }
    const DecodingStep& s = run.steps[std::size_t(t)];
    // A decoder-only model's input starts with its prompt: step t reads position P + t.
    const int P = run.promptLength, at = P + t;
    const bool only = record_->generated;
    if (side == FreeRunning)
        c.title->setText(record_->sampling ? tr("Free-running: sampling feeds back the token drawn")
                                           : tr("Free-running: greedy decoding feeds back its own choice"));
    c.crossPlot->setVisible(!only);
    c.exportButtons[2]->setVisible(!only);

    // The input so far, the token fed back after the arrow. Tokens from the point where the
    // runs part are in italics, the first of them underlined.
    auto tokenHtml = [&](int position) {  // input position ≥ 1 holds the fed token of step position − 1
        QString h = escaped(run.input.value(position));
        if (only && position >= 1 && position <= P)
            h = QStringLiteral("<b>%1</b>").arg(h);  // the prompt
        if (d >= 0 && position - 1 >= d) {
            h = QStringLiteral("<i>%1</i>").arg(h);
            if (position - 1 == d)
                h = QStringLiteral("<u>%1</u>").arg(h);
        }
        return h;
    };
    QStringList shown;
    for (int i = 0; i <= at; ++i)
        shown.push_back(tokenHtml(i));
    const QColor hi = palette().color(QPalette::Highlight), hiText = palette().color(QPalette::HighlightedText);
    QString fed = escaped(s.fed.token);
    if (d >= 0 && t >= d && t == d)
        fed = QStringLiteral("<u>%1</u>").arg(fed);
    c.input->setText(tr("Decoder input: %1 &nbsp;⟶ %2")
                         .arg(shown.join(QLatin1Char(' ')),
                              QStringLiteral("<span style=\"background-color:%1; color:%2\"><b>&nbsp;%3&nbsp;</b></span>")
                                  .arg(hi.name(), hiText.name(), fed)));
    QString chosen;
    if (side == FreeRunning && record_->sampling)
        chosen = tr("Step %1: drew <b>%2</b> (p = %3; %4 after temperature and the cut) and feeds it back.")
                     .arg(t + 1)
                     .arg(escaped(s.fed.token))
                     .arg(probabilityText(s.fed.probability))
                     .arg(probabilityText(s.fedCut));
    else if (side == FreeRunning)
        chosen = tr("Step %1: chose <b>%2</b> (p = %3) and feeds it back.")
                     .arg(t + 1).arg(escaped(s.fed.token)).arg(probabilityText(s.fed.probability));
    else
        chosen = tr("Step %1: predicts <b>%2</b> (p = %3); the reference's <b>%4</b> (p = %5) is fed back.")
                     .arg(t + 1)
                     .arg(escaped(s.predicted.token))
                     .arg(probabilityText(s.predicted.probability))
                     .arg(escaped(s.fed.token))
                     .arg(probabilityText(s.fed.probability));
    if (step_ >= n)
        chosen += QStringLiteral(" ") + (run.finished ? tr("It has ended (</s>).").toHtmlEscaped()
                                                   : tr("It stopped at the length limit."));
    c.chosen->setText(chosen);

    // The causal self-attention of the chosen layer and head over the input so far.
    const QStringList inputs = run.input.mid(0, at + 1);
    const int layer = std::min(layer_, record_->layers - 1), head = std::min(head_, record_->heads - 1);
    setHeatmapData(c.selfHeat, at + 1, at + 1,
                   [&](int q, int k) { return k > q ? std::nan("") : double(record_->selfAt(run, layer, head, q, k)); },
                   inputs, inputs);

    // The cross-attention of position t: every head of the layer over the source.
    QStringList heads;
    for (int h = 0; h < record_->heads; ++h)
        heads.push_back(tr("head %1").arg(h + 1));
    if (only)  // no cross-attention
        setHeatmapData(c.crossHeat, 0, 0, [](int, int) { return 0.0; });
    else
        setHeatmapData(c.crossHeat, record_->heads, record_->srcLen(),
                       [&](int h, int j) { return double(record_->crossAt(s, layer, h, j)); }, heads,
                       record_->source);
    c.crossTitle->setText(only ? QString()
                               : tr("Cross-attention of position %1 (%2)\nover the source · layer %3")
                                     .arg(t + 1).arg(run.input.value(t)).arg(layer + 1));

    // The top-k, and the token fed back when it is not among them.
    c.topTokens.clear();
    c.topProbs.clear();
    c.cutProbs.clear();
    const bool cut = !s.topCut.empty();  // a sampled step: the distribution drawn from beside
    int fedIndex = -1;
    for (std::size_t i = 0; i < s.top.size(); ++i) {
        const TokenProbability& p = s.top[i];
        if (p.id == s.fed.id)
            fedIndex = int(c.topTokens.size());
        c.topTokens.push_back(p.token);
        c.topProbs.push_back(p.probability);
        if (cut)
            c.cutProbs.push_back(s.topCut[i]);
    }
    if (fedIndex < 0) {
        fedIndex = int(c.topTokens.size());
        c.topTokens.push_back(tr("%1 (fed)").arg(s.fed.token));
        c.topProbs.push_back(s.fed.probability);
        if (cut)
            c.cutProbs.push_back(s.fedCut);
    }
    // Greedy: one bar a token. Sampled: the model's (upper) and the cut's (lower, orange).
    const double shift = cut ? -0.19 : 0.0;
    QVector<double> keys, values, fedKeys, fedValues, cutKeys, cutValues;
    for (int i = 0; i < int(c.topTokens.size()); ++i) {
        (i == fedIndex ? fedKeys : keys).push_back(i + shift);
        (i == fedIndex ? fedValues : values).push_back(c.topProbs[std::size_t(i)]);
        if (cut) {
            cutKeys.push_back(i + 0.19);
            cutValues.push_back(c.cutProbs[std::size_t(i)]);
        }
    }
    for (QCPBars* b : {c.bars, c.fedBar})
        b->setWidth(cut ? 0.36 : 0.7);
    c.cutBars->setWidth(0.36);
    c.bars->setData(keys, values, true);
    c.fedBar->setData(fedKeys, fedValues, true);
    c.cutBars->setData(cutKeys, cutValues, true);
    c.topTitle->setText(cut ? tr("Next tokens: the model's p, and after\ntemperature and the cut (orange) · "
                                 "highlighted: drawn")
                            : tr("Likeliest next tokens · highlighted: fed back"));
    for (QCPItemText* x : c.barTexts)
        c.topPlot->removeItem(x);
    c.barTexts.clear();
    // The bars' colours in the palette now (their brushes follow it a moment later).
    const QColor otherColour = seriesColour(kOthersSeries, palette()),
                 fedColour = seriesColour(kFedSeries, palette());
    for (int i = 0; i < int(c.topTokens.size()); ++i) {
        auto* label = new QCPItemText(c.topPlot);
        label->setClipToAxisRect(true);
        // After the bar, or inside its end when it reaches far right.
        const double p = c.topProbs[std::size_t(i)];
        const bool inside = p > 0.7;
        label->position->setCoords(p, i + shift);
        label->setPositionAlignment((inside ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
        label->setText(inside ? probabilityText(p) + QStringLiteral(" ") : QStringLiteral(" ") + probabilityText(p));
        label->setFont(pointFont(kPointSize - 1));
        const QColor bar = i == fedIndex ? fedColour : otherColour;
        label->setColor(inside ? (bar.lightnessF() < 0.5 ? QColor(Qt::white) : QColor(Qt::black))
                               : palette().color(QPalette::Text));
        if (inside)  // ink for its bar, not for the background (plot_tools.h, kInkProperty)
            label->setProperty(kInkProperty, QStringLiteral("own"));
        c.barTexts.push_back(label);
        if (cut) {  // the cut's probability after its bar
            auto* after = new QCPItemText(c.topPlot);
            after->setClipToAxisRect(true);
            after->position->setCoords(c.cutProbs[std::size_t(i)], i + 0.19);
            after->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
            after->setText(QStringLiteral(" ") + probabilityText(c.cutProbs[std::size_t(i)]));
            after->setFont(pointFont(kPointSize - 2));
            after->setColor(palette().color(QPalette::Text));
            c.barTexts.push_back(after);
        }
    }
    setTokenTicks(c.topPlot->yAxis, c.topTokens);
    c.topPlot->yAxis->setRange(-0.5, c.topTokens.size() - 0.5);

    // The logit lens: layers as rows, the input positions so far as columns.
    c.lens->clear();
    c.lens->setRowCount(record_->layers);
    c.lens->setColumnCount(t + 1);
    c.lens->setHorizontalHeaderLabels(run.input.mid(P, t + 1));  // the positions the steps read
    QStringList layers;
    for (int l = 0; l < record_->layers; ++l)
        layers.push_back(tr("layer %1").arg(l + 1));
    c.lens->setVerticalHeaderLabels(layers);
    QCPColorGradient g = sequentialGradient();  // color() is not const: it caches
    for (int pos = 0; pos <= t; ++pos) {
        const DecodingStep& at = run.steps[std::size_t(pos)];
        for (int l = 0; l < record_->layers; ++l) {
            const TokenProbability& p = at.lens[std::size_t(l)];
            auto* item = new QTableWidgetItem(QStringLiteral("%1 %2").arg(p.token, probabilityText(p.probability)));
            const QColor bg = QColor::fromRgb(g.color(p.probability, QCPRange(0, 1)));
            item->setBackground(bg);
            item->setForeground(bg.lightnessF() < 0.5 ? QColor(Qt::white) : QColor(Qt::black));
            item->setToolTip(tr("Layer %1 at position %2 (%3): %4, p = %5")
                                 .arg(l + 1).arg(P + pos + 1).arg(run.input.value(P + pos), p.token)
                                 .arg(p.probability, 0, 'f', 4));
            if (l + 1 == record_->layers && pos == t) {
                QFont f = item->font();
                f.setBold(true);
                item->setFont(f);
            }
            c.lens->setItem(l, pos, item);
        }
    }
    c.lens->scrollToItem(c.lens->item(0, t));
    fitHeight(c.lens);
    for (QCustomPlot* p : {c.selfPlot, c.crossPlot, c.topPlot})
        replotIfVisible(p);
}

QString DecodingView::csvOf(Side side, QCustomPlot* plot) const
{
    const Column& c = columns_[side];
    const DecodingRun* r = runOf(side);
    if (!r)
        return {};
    auto quoted = [](QString s) { return QLatin1Char('"') + s.replace(QLatin1Char('"'), QStringLiteral("\"\"")) + QLatin1Char('"'); };
    if (plot == c.topPlot) {
        QString out = QStringLiteral("token,probability\n");
        for (int i = 0; i < int(c.topTokens.size()); ++i)
            out += quoted(c.topTokens[i]) + QLatin1Char(',') + QString::number(c.topProbs[std::size_t(i)], 'g', 17) + QLatin1Char('\n');
        return out;
    }
    if (plot == c.selfPlot)
        return heatmapCsv(c.selfHeat, QStringLiteral("query"), inputTokens(side));
    QStringList heads;
    for (int h = 0; h < c.crossHeat.rows; ++h)
        heads.push_back(QStringLiteral("head %1").arg(h + 1));
    return heatmapCsv(c.crossHeat, QStringLiteral("head"), heads);
}

double DecodingView::selfWeight(Side side, int query, int key) const
{
    return heatmapCell(columns_[side].selfHeat, query, key);
}

double DecodingView::crossWeight(Side side, int head, int source) const
{
    return heatmapCell(columns_[side].crossHeat, head, source);
}

QStringList DecodingView::inputTokens(Side side) const
{
    const DecodingRun* r = runOf(side);
    if (!r || r->steps.empty())
        return {};
    return r->input.mid(0, r->promptLength + std::min(step_, int(r->steps.size()) - 1) + 1);
}

QString DecodingView::fedToken(Side side) const
{
    const DecodingRun* r = runOf(side);
    if (!r || r->steps.empty())
        return {};
    return r->steps[std::size_t(std::min(step_, int(r->steps.size()) - 1))].fed.token;
}

QStringList DecodingView::topTokens(Side side) const
{
    return columns_[side].topTokens;
}

std::vector<double> DecodingView::topProbabilities(Side side) const
{
    return columns_[side].topProbs;
}

}  // namespace as::ui
