// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "cross_attention_panel.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace as::ui {

CrossAttentionPanel::CrossAttentionPanel(QWidget* parent) : QWidget(parent)
{
    title_ = new QLabel(this);
    title_->setFont(pointFont(11, true));
    title_->setTextFormat(Qt::PlainText);
    title_->setWordWrap(true);
    output_ = new QLabel(this);
    output_->setFont(pointFont(13));
    output_->setTextFormat(Qt::PlainText);  // a translation may contain <unk>
    output_->setWordWrap(true);
    output_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    output_->setMinimumHeight(output_->fontMetrics().height() + 4);
    alert_ = new QLabel(this);
    alert_->setWordWrap(true);
    alert_->setTextFormat(Qt::PlainText);
    alert_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    alert_->hide();
    showAsAlert(alert_);
    // As wide as their items: a narrow panel wraps the title instead.
    layer_ = new QComboBox(this);
    layer_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    layer_->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    head_ = new QComboBox(this);
    head_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    head_->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    plot_ = new QCustomPlot(this);
    plot_->setMinimumSize(200, 220);
    heat_ = makeHeatmap(plot_, true, sequentialGradient());
    heat_.scale->setBarWidth(10);
    styleTokenAxes(plot_, 10);
    enableHoverReadout(plot_, [this](QCustomPlot*, QPoint p) {
        int r = 0, c = 0;
        if (!record_)
            return QString();
        if (heatmapCellAt(heat_, p, &r, &c))
            return readout(*record_, r, c, heatmapCell(heat_, r, c));
        if (!heatmapAxisTokenAt(heat_, p, &r, &c))  // thinned tick labels stay readable
            return QString();
        if (r >= 0)
            return tr("output %1 (step %2)").arg(record_->outputSteps.value(r)).arg(r + 1);
        return tr("source %1: %2").arg(c + 1).arg(record_->sourceTokens.value(c));
    });
    auto* exportButton = makeExportButton(plot_, [this] {
        return record_ ? heatmapCsv(heat_, QStringLiteral("output\\source"), record_->outputSteps) : QString();
    }, this);

    // Narrow enough for two side by side in the Translate view at 1280 px: the export button
    // beside the title, the choices on a row of their own.
    auto* top = new QHBoxLayout;
    top->addWidget(title_, 1);
    top->addWidget(exportButton, 0, Qt::AlignTop);
    auto* bar = new QHBoxLayout;
    bar->addWidget(layer_);
    bar->addWidget(head_);
    bar->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(output_);
    layout->addWidget(alert_);
    layout->addLayout(bar);
    layout->addWidget(plot_, 1);
    connect(layer_, &QComboBox::currentIndexChanged, this, [this] { draw(); });
    connect(head_, &QComboBox::currentIndexChanged, this, [this] { draw(); });
    retranslate();
}

QString CrossAttentionPanel::readout(const TranslationRecord& r, int row, int col, double weight)
{
    const QString unknown = r.unknown.contains(col) ? tr(" (unknown: read as <unk>)") : QString();
    return tr("output %1 (step %2) → source %3%4\nweight %5")
        .arg(r.outputSteps.value(row))
        .arg(row + 1)
        .arg(r.sourceTokens.value(col), unknown)
        .arg(weight, 0, 'f', 3);
}

void CrossAttentionPanel::setTitle(const QString& title)
{
    title_->setText(title);
}

QString CrossAttentionPanel::title() const
{
    return title_->text();
}

void CrossAttentionPanel::setRecord(TranslationRecordPtr record)
{
    record_ = record && record->ok() && !record->generated ? std::move(record) : nullptr;
    alert_->hide();
    output_->show();
    output_->setText(record_ ? record_->nbest.front().text : QString());
    const CrossAttention& ca = record_ ? record_->cross : CrossAttention{};
    if (layer_->count() != ca.layers || head_->count() != ca.heads + 1) {
        const QSignalBlocker b1(layer_), b2(head_);
        layer_->clear();
        head_->clear();
        for (int l = 0; l < ca.layers; ++l)
            layer_->addItem(QString());
        for (int h = 0; h <= ca.heads && ca.layers > 0; ++h)  // the mean, then each head
            head_->addItem(QString());
        layer_->setCurrentIndex(ca.layers - 1);
        head_->setCurrentIndex(0);
        retranslate();
    }
    draw();
}

void CrossAttentionPanel::setMessage(const QString& text, bool warning)
{
    record_ = nullptr;
    output_->setText(warning ? QString() : text);
    output_->setVisible(!warning);
    alert_->setText(warning ? text : QString());
    alert_->setVisible(warning);
    draw();
}

QString CrossAttentionPanel::translation() const
{
    return record_ ? record_->nbest.front().text : QString();
}

QString CrossAttentionPanel::message() const
{
    return record_ ? QString() : output_->text() + alert_->text();
}

void CrossAttentionPanel::setChoice(int layer, int head)
{
    layer_->setCurrentIndex(std::clamp(layer, 0, std::max(0, layer_->count() - 1)));
    head_->setCurrentIndex(std::clamp(head + 1, 0, std::max(0, head_->count() - 1)));
}

int CrossAttentionPanel::layer() const
{
    return layer_->currentIndex();
}

int CrossAttentionPanel::head() const
{
    return head_->currentIndex() - 1;
}

QSize CrossAttentionPanel::mapShape() const
{
    return {heat_.cols, heat_.rows};
}

double CrossAttentionPanel::mapCell(int row, int col) const
{
    return heatmapCell(heat_, row, col);
}

void CrossAttentionPanel::draw()
{
    layer_->setEnabled(record_ != nullptr);
    head_->setEnabled(record_ != nullptr);
    if (!record_ || record_->cross.steps == 0) {
        setHeatmapData(heat_, 0, 0, [](int, int) { return 0.0; });
        replotIfVisible(plot_);
        return;
    }
    const CrossAttention& ca = record_->cross;
    const int layer = std::clamp(layer_->currentIndex(), 0, ca.layers - 1);
    const int head = head_->currentIndex() - 1;
    setHeatmapData(
        heat_, ca.steps, ca.srcLen, [&](int t, int s) { return ca.cell(layer, head, t, s); },
        record_->outputSteps.mid(0, ca.steps), record_->sourceTokens.mid(0, ca.srcLen));
    replotIfVisible(plot_);
}

void CrossAttentionPanel::retranslate()
{
    for (int l = 0; l < layer_->count(); ++l)
        layer_->setItemText(l, tr("layer %1").arg(l + 1));
    if (head_->count() > 0)
        head_->setItemText(0, tr("mean of heads"));
    for (int h = 1; h < head_->count(); ++h)
        head_->setItemText(h, tr("head %1").arg(h));
    layer_->setToolTip(tr("Decoder layer of the cross-attention"));
    head_->setToolTip(tr("One head, or the mean over the heads"));
    setHeatmapPlaceholder(heat_, tr("Translate a sentence\nto see its cross-attention"));
    plot_->xAxis->setLabel(tr("source token (key)"));
    plot_->yAxis->setLabel(tr("output token (query)"));
    heat_.scale->axis()->setLabel(tr("attention weight"));
    replotIfVisible(plot_);
}

void CrossAttentionPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

}  // namespace as::ui
