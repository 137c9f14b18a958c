// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "masks_view.h"

#include "train/batch.h"
#include "train/snapshot.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

namespace as::ui {

namespace {

constexpr int kMaxShownIds = 40;

QString idName(int id)
{
    switch (id) {
    case kPad: return QStringLiteral("<pad>");
    case kBos: return QStringLiteral("<s>");
    case kEos: return QStringLiteral("</s>");
    case kUnk: return QStringLiteral("<unk>");
    default: return QString::number(id);
    }
}

// A 0/1 colour bar that names its two values.
void setBinaryScale(const Heatmap& h, const QString& zero, const QString& one)
{
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    ticker->addTick(0, zero);
    ticker->addTick(1, one);
    h.scale->axis()->setTicker(ticker);
    h.scale->axis()->setSubTicks(false);
    h.scale->setBarWidth(12);
}

void clearHeatmap(Heatmap& h)
{
    h.map->data()->clear();
    h.rows = h.cols = 0;
}

}  // namespace

MasksView::MasksView(QWidget* parent) : QWidget(parent)
{
    sentenceBox_ = new QSpinBox(this);
    sentenceBox_->setRange(0, 0);
    info_ = new QLabel(this);
    info_->setWordWrap(true);

    auto* controls = new QHBoxLayout;
    sentenceLabel_ = new QLabel(this);
    controls->addWidget(sentenceLabel_);
    controls->addWidget(sentenceBox_);
    controls->addSpacing(16);
    controls->addWidget(info_, 1);

    padPlot_ = new QCustomPlot(this);
    padPlot_->setObjectName(QStringLiteral("sourcePaddingMask"));
    pad_ = makeHeatmap(padPlot_, true, sequentialGradient());
    padPlot_->xAxis2->setTicks(false);  // the box's far sides: a frame, not a second scale
    padPlot_->yAxis2->setTicks(false);
    padTitle_ = addTitle(padPlot_, QString(), font());

    causalPlot_ = new QCustomPlot(this);
    causalPlot_->setObjectName(QStringLiteral("decoderSelfAttentionMask"));
    causal_ = makeHeatmap(causalPlot_, true, sequentialGradient());
    causalPlot_->xAxis2->setTicks(false);  // the box's far sides: a frame, not a second scale
    causalPlot_->yAxis2->setTicks(false);
    causalTitle_ = addTitle(causalPlot_, QString(), font());

    smoothPlot_ = new QCustomPlot(this);
    smoothPlot_->setObjectName(QStringLiteral("labelSmoothingTarget"));
    smooth_ = makeHeatmap(smoothPlot_, true, sequentialGradient());
    smoothPlot_->xAxis2->setTicks(false);  // the box's far sides: a frame, not a second scale
    smoothPlot_->yAxis2->setTicks(false);
    smoothTitle_ = addTitle(smoothPlot_, QString(), font());

    for (QCustomPlot* p : plots())
        p->setMinimumSize(200, 200);

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->setChildrenCollapsible(false);
    padPanel_ = panel(padPlot_, [this] { return padCsv(); }, splitter);
    splitter->addWidget(padPanel_);
    splitter->addWidget(panel(causalPlot_, [this] { return causalCsv(); }, splitter));
    splitter->addWidget(panel(smoothPlot_, [this] { return smoothCsv(); }, splitter));
    splitter->setSizes({1, 1, 1});

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(splitter, 1);

    enableHoverReadout(padPlot_, [this](QCustomPlot*, QPoint p) {
        int r = 0, c = 0;
        if (!batch_ || !heatmapCellAt(pad_, p, &r, &c))
            return QString();
        return tr("sentence %1, source position %2 (%3): %4")
            .arg(r)
            .arg(c)
            .arg(idName(batch_->src[size_t(r) * size_t(batch_->S) + size_t(c)]))
            .arg(heatmapCell(pad_, r, c));
    });
    enableHoverReadout(causalPlot_, [this](QCustomPlot*, QPoint p) {
        int r = 0, c = 0;
        if (!batch_ || !heatmapCellAt(causal_, p, &r, &c))
            return QString();
        const size_t row = size_t(sentence()) * size_t(batch_->T);
        return tr("query %1 (%2), key %3 (%4): %5")
            .arg(r)
            .arg(idName(batch_->tgtIn[row + size_t(r)]))
            .arg(c)
            .arg(idName(batch_->tgtIn[row + size_t(c)]))
            .arg(heatmapCell(causal_, r, c));
    });
    enableHoverReadout(smoothPlot_, [this](QCustomPlot*, QPoint p) {
        int r = 0, c = 0;
        if (!batch_ || !heatmapCellAt(smooth_, p, &r, &c))
            return QString();
        const size_t row = size_t(sentence()) * size_t(batch_->T);
        return tr("target position %1 (%2), id %3: q = %4")
            .arg(smoothPositions_[r])
            .arg(idName(batch_->tgtOut[row + size_t(smoothPositions_[r])]))
            .arg(idName(c))
            .arg(QString::number(heatmapCell(smooth_, r, c), 'g', 6));
    });

    connect(sentenceBox_, &QSpinBox::valueChanged, this, [this] {
        drawSentence();
        replotIfVisible(causalPlot_);
        replotIfVisible(smoothPlot_);
    });

    reset();
    retranslate();
}

void MasksView::retranslate()
{
    sentenceBox_->setToolTip(tr("Sentence of the batch whose decoder mask and targets are shown"));
    sentenceLabel_->setText(tr("Sentence"));
    setBinaryScale(pad_, tr("0 pad"), tr("1 token"));
    padTitle_->setText(tr("Source padding mask (src ≠ <pad>)"));
    padPlot_->xAxis->setLabel(tr("source position"));
    padPlot_->yAxis->setLabel(tr("sentence"));
    setBinaryScale(causal_, tr("0 masked"), tr("1 allowed"));
    causalTitle_->setText(tr("Decoder self-attention mask"));
    causalPlot_->xAxis->setLabel(tr("key position"));
    causalPlot_->yAxis->setLabel(tr("query position"));
    smooth_.scale->axis()->setLabel(tr("target probability q"));
    smoothPlot_->xAxis->setLabel(tr("vocabulary id"));
    smoothPlot_->yAxis->setLabel(tr("target position: id"));
    describeBatch();
    drawSentence();  // its title
    for (QCustomPlot* p : plots())
        replotIfVisible(p);
}

void MasksView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void MasksView::describeBatch()
{
    // A language model's batch (a decoder-only model, core/SPEC.md §2.10) has no source: no
    // padding mask to draw.
    padPanel_->setVisible(!batch_ || batch_->S > 0 || batch_->B <= 0);
    if (batch_ && batch_->S == 0)
        info_->setText(tr("Batch of %1 texts · length %2 · vocabulary %3 · label smoothing ε = %4 "
                          "(no source: a decoder-only model)")
                           .arg(batch_->B)
                           .arg(batch_->T)
                           .arg(batch_->tgtVocab)
                           .arg(batch_->labelSmoothing));
    else if (batch_)
        info_->setText(tr("Batch of %1 sentences · source length %2 · target length %3 · "
                          "target vocabulary %4 · label smoothing ε = %5")
                           .arg(batch_->B)
                           .arg(batch_->S)
                           .arg(batch_->T)
                           .arg(batch_->tgtVocab)
                           .arg(batch_->labelSmoothing));
    else
        info_->setText(tr("No batch yet: start training to see its masks."));
}

void MasksView::reset() { setBatch(nullptr); }

void MasksView::applySnapshot(const TrainingSnapshot& snapshot)
{
    if (snapshot.batch && snapshot.batch != batch_)
        setBatch(snapshot.batch);
}

void MasksView::setBatch(std::shared_ptr<const BatchRecord> batch)
{
    batch_ = std::move(batch);
    {
        const QSignalBlocker block(sentenceBox_);
        sentenceBox_->setRange(0, batch_ ? std::max(batch_->B - 1, 0) : 0);
    }
    describeBatch();
    drawPadding();
    drawSentence();
    for (QCustomPlot* p : plots())
        replotIfVisible(p);
}

int MasksView::sentence() const { return sentenceBox_->value(); }

void MasksView::setSentence(int sentence) { sentenceBox_->setValue(sentence); }

double MasksView::paddingMaskCell(int b, int s) const { return heatmapCell(pad_, b, s); }

double MasksView::causalMaskCell(int q, int k) const { return heatmapCell(causal_, q, k); }

double MasksView::smoothingCell(int row, int id) const { return heatmapCell(smooth_, row, id); }

void MasksView::drawPadding()
{
    if (!batch_ || batch_->B <= 0 || batch_->S <= 0) {
        clearHeatmap(pad_);
        return;
    }
    const BatchRecord& b = *batch_;
    // [B, S]: 1 where the source token is real, 0 at <pad>.
    setHeatmapData(pad_, b.B, b.S, [&b](int r, int c) {
        return b.src[size_t(r) * size_t(b.S) + size_t(c)] != kPad ? 1.0 : 0.0;
    });
    setIntegerTicks(padPlot_->xAxis);
    setIntegerTicks(padPlot_->yAxis);
}

void MasksView::drawSentence()
{
    smoothPositions_.clear();
    if (!batch_ || batch_->B <= 0 || batch_->T <= 0) {
        clearHeatmap(causal_);
        clearHeatmap(smooth_);
        smoothTitle_->setText(tr("Label-smoothed target q"));
        return;
    }
    const BatchRecord& b = *batch_;
    const int n = std::clamp(sentence(), 0, b.B - 1);
    const int* tgtIn = b.tgtIn.data() + size_t(n) * size_t(b.T);    // [T]
    const int* tgtOut = b.tgtOut.data() + size_t(n) * size_t(b.T);  // [T]

    // [T, T]: query q may attend to key k when k is not <pad> and k <= q.
    setHeatmapData(causal_, b.T, b.T, [tgtIn](int q, int k) {
        return (tgtIn[k] != kPad && k <= q) ? 1.0 : 0.0;
    });
    setIntegerTicks(causalPlot_->xAxis);
    setIntegerTicks(causalPlot_->yAxis);

    // core/SPEC.md §3.1: q[target] = 1 - eps, q[<pad>] = 0, every other id eps / (V - 2).
    QStringList rowLabels;
    QList<int> targets;
    for (int t = 0; t < b.T; ++t)
        if (tgtOut[t] != kPad) {
            smoothPositions_.push_back(t);
            targets.push_back(tgtOut[t]);
            rowLabels << QStringLiteral("%1: %2").arg(t).arg(idName(tgtOut[t]));
        }
    const int V = b.tgtVocab;
    const double eps = b.labelSmoothing;
    const double other = V > 2 ? eps / double(V - 2) : 0.0;
    const int shown = std::min(V, kMaxShownIds);
    if (targets.isEmpty() || shown <= 0) {
        clearHeatmap(smooth_);
    } else {
        setHeatmapData(
            smooth_, int(targets.size()), shown,
            [&](int r, int id) {
                if (id == targets[r])
                    return 1.0 - eps;
                return id == kPad ? 0.0 : other;
            },
            rowLabels);
        setIntegerTicks(smoothPlot_->xAxis);
    }
    QString title = tr("Label-smoothed target q (ε = %1)").arg(eps);
    if (V > shown)
        title += tr("\nfirst %1 of %2 ids shown").arg(shown).arg(V);
    smoothTitle_->setText(title);
}

QString MasksView::padCsv() const
{
    return heatmapCsv(pad_, QStringLiteral("sentence\\source_position"), {});
}

QString MasksView::causalCsv() const
{
    return heatmapCsv(causal_, QStringLiteral("query\\key"), {});
}

QString MasksView::smoothCsv() const
{
    QStringList rows;
    for (int t : smoothPositions_)
        rows << QString::number(t);
    return heatmapCsv(smooth_, QStringLiteral("target_position\\id"), rows);
}

}  // namespace as::ui
