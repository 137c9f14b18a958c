// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "heads_view.h"

#include <QEvent>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace as::ui {

namespace {


int indexOf(AttentionKind k)
{
    return k == AttentionKind::EncoderSelf ? 0 : k == AttentionKind::DecoderSelf ? 1 : 2;
}

}  // namespace

HeadsView::HeadsView(QWidget* parent) : QWidget(parent)
{
    qRegisterMetaType<as::HeadsRecordPtr>();
    qRegisterMetaType<as::PruningRecordPtr>();
    scoreBox_ = new QComboBox(this);
    for (Score s : {Score::Importance, Score::DeltaNll, Score::Confidence, Score::Entropy})
        scoreBox_->addItem(QString(), int(s));
    scoreButton_ = new QPushButton(this);
    scoreOnButton_ = new QPushButton(this);
    pruneButton_ = new QPushButton(this);
    unmute_ = new QPushButton(this);
    cancel_ = new QPushButton(this);
    cancel_->setEnabled(false);
    progress_ = new QProgressBar(this);
    progress_->setVisible(false);
    progress_->setMaximumWidth(220);
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    summary_ = new QLabel(this);
    summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* bar = new QHBoxLayout;
    colourLabel_ = new QLabel(this);
    bar->addWidget(colourLabel_);
    bar->addWidget(scoreBox_);
    bar->addWidget(scoreButton_);
    bar->addWidget(scoreOnButton_);
    bar->addWidget(pruneButton_);
    bar->addWidget(unmute_);
    bar->addWidget(progress_);
    bar->addWidget(cancel_);
    bar->addWidget(status_, 1);

    auto* grids = new QHBoxLayout;
    const QFont base = font();
    for (AttentionKind k : kAttentionKinds) {
        const int i = indexOf(k);
        auto* plot = new QCustomPlot(this);
        plot->setMinimumSize(180, 160);
        maps_[i] = makeHeatmap(plot, i == 2, sequentialGradient());
        titles_[i] = addTitle(plot, QString(), base);
        plots_[i] = plot;
        connect(plot, &QCustomPlot::mousePress, this, [this, k, i](QMouseEvent* e) {
            int row = 0, col = 0;
            if (heatmapCellAt(maps_[i], e->pos(), &row, &col))
                emit headToggled(HeadId{k, row, col});
        });
        enableHoverReadout(plot, [this, k, i](QCustomPlot*, QPoint p) {
            int row = 0, col = 0;
            if (!heatmapCellAt(maps_[i], p, &row, &col))
                return QString();
            const HeadId id{k, row, col};
            // Numbered from 1, as the window numbers layers and heads (the CLI's spec counts from 0).
            QString text = tr("%1 · layer %2 · head %3").arg(attentionKindTitle(k)).arg(row + 1).arg(col + 1);
            if (record_ && record_->scored)
                for (const HeadScore& s : record_->report.heads)
                    if (s.id == id)
                        text += tr("\nimportance %1 · ΔNLL %2\nconfidence %3 · entropy %4")
                                    .arg(s.importance, 0, 'g', 4)
                                    .arg(s.deltaNll, 0, 'f', 4)
                                    .arg(s.confidence, 0, 'f', 3)
                                    .arg(s.entropy, 0, 'f', 3);
            text += isMutedShown(id) ? tr("\nmuted: click to unmute") : tr("\nclick to mute");
            return text;
        });
        panels_[i] = panel(plot, [this, i] { return heatmapCsv(maps_[i], QStringLiteral("layer")); }, this);
        grids->addWidget(panels_[i]);
    }

    pruning_ = new QCustomPlot(this);
    pruning_->setMinimumSize(200, 150);
    pruningTitle_ = addTitle(pruning_, QString(), base);
    pruning_->yAxis2->setVisible(true);
    pruning_->addGraph(pruning_->xAxis, pruning_->yAxis);
    pruning_->graph(0)->setPen(QPen(Qt::black, 2));
    setSeriesColour(pruning_->graph(0), 0);
    pruning_->graph(0)->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 5));
    pruning_->addGraph(pruning_->xAxis, pruning_->yAxis2);
    pruning_->graph(1)->setPen(QPen(Qt::black, 2, Qt::DashLine));
    setSeriesColour(pruning_->graph(1), 3);
    pruning_->graph(1)->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssSquare, 5));
    pruning_->legend->setVisible(true);
    // Left, half way up: the curves start at the top left (BLEU) and end at the right.
    pruning_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignLeft | Qt::AlignVCenter);
    enableHoverReadout(pruning_, [this](QCustomPlot* plot, QPoint p) {
        if (!pruningRecord_ || pruningRecord_->curve.points.empty())
            return QString();
        const double x = plot->xAxis->pixelToCoord(p.x());
        const PruningPoint* best = nullptr;
        for (const PruningPoint& pt : pruningRecord_->curve.points)
            if (!best || std::abs(pt.masked - x) < std::abs(best->masked - x))
                best = &pt;
        return tr("%1 heads masked: BLEU %2, NLL %3").arg(best->masked).arg(best->bleu, 0, 'f', 2).arg(best->nll, 0, 'f', 4);
    });

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(summary_);
    layout->addLayout(grids, 3);
    layout->addWidget(panel(pruning_, [this] {
        QString csv = QStringLiteral("heads_masked,bleu,nll\n");
        if (pruningRecord_)
            for (const PruningPoint& p : pruningRecord_->curve.points)
                csv += QStringLiteral("%1,%2,%3\n").arg(p.masked).arg(p.bleu, 0, 'g', 8).arg(p.nll, 0, 'g', 8);
        return csv;
    }, this), 2);

    connect(scoreBox_, &QComboBox::currentIndexChanged, this, [this] { redraw(); });
    connect(scoreButton_, &QPushButton::clicked, this, &HeadsView::scoreRequested);
    connect(scoreOnButton_, &QPushButton::clicked, this, &HeadsView::scoreOnRequested);
    connect(pruneButton_, &QPushButton::clicked, this, &HeadsView::pruningRequested);
    connect(unmute_, &QPushButton::clicked, this, &HeadsView::unmuteAllRequested);
    connect(cancel_, &QPushButton::clicked, this, &HeadsView::cancelRequested);
    showIntro();
    retranslate();
}

void HeadsView::retranslate()
{
    const QString scores[] = {tr("importance |∂L/∂ξ|"), tr("ΔNLL when masked"), tr("confidence"),
                              tr("entropy (nats)")};
    for (int i = 0; i < 4; ++i)
        scoreBox_->setItemText(i, scores[i]);
    scoreBox_->setToolTip(tr("importance: mean over validation pairs of |∂L/∂ξ_h| (Michel et al. "
                             "2019) · ΔNLL: the mean token NLL with the head alone masked, minus "
                             "without · confidence: mean largest attention weight (Voita et al. "
                             "2019) · entropy: mean −Σ a log a of a query's attention"));
    scoreButton_->setText(tr("Score heads"));
    scoreButton_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_H));  // after setText, which resets it
    scoreButton_->setToolTip(tr("Score every head on the validation pairs with the current "
                                "weights, in the background (Ctrl+H)"));
    scoreOnButton_->setText(tr("Score on…"));
    scoreOnButton_->setToolTip(tr("Score every head on the sentence pairs of a corpus file you "
                                  "choose (source<TAB>target per line, or an Anki file), as "
                                  "attention-studio-cli heads --data does: for a model opened "
                                  "without its data, or to compare with other text"));
    pruneButton_->setText(tr("Pruning curve"));
    pruneButton_->setToolTip(tr("Validation BLEU and NLL with 0, 1, 2, … heads masked, least "
                                "important first (Michel et al. 2019, Fig. 3), in the background"));
    unmute_->setText(tr("Unmute all"));
    cancel_->setText(tr("Cancel"));
    colourLabel_->setText(tr("Colour by"));
    if (introShown_)
        showIntro();
    for (AttentionKind k : kAttentionKinds) {
        const int i = indexOf(k);
        titles_[i]->setText(attentionKindTitle(k));
        plots_[i]->xAxis->setLabel(tr("head"));
        plots_[i]->yAxis->setLabel(tr("layer"));
    }
    pruningTitle_->setText(tr("Pruning: heads masked in increasing order of importance"));
    pruning_->xAxis->setLabel(tr("heads masked"));
    pruning_->yAxis->setLabel(tr("validation BLEU"));
    pruning_->yAxis2->setLabel(tr("validation NLL"));
    pruning_->graph(0)->setName(tr("BLEU"));  // and the NLL's name in redrawPruning
    summarize();
    redraw();
    redrawPruning();
}

void HeadsView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void HeadsView::showIntro()
{
    showIdle(tr("Score heads to colour the grids; click a head to mute it."));
    introShown_ = true;
}

void HeadsView::summarize()
{
    if (!summarized_) {
        summary_->clear();
        return;
    }
    const HeadsRecord& r = *summarized_;
    auto signedText = [](double v, int decimals) {
        return (v >= 0 ? QStringLiteral("+") : QString()) + QString::number(v, 'f', decimals);
    };
    if (std::isnan(r.bleu)) {  // a language model's (decoder-only): no translation, no BLEU
        summary_->setText(
            r.muted.empty()
                ? tr("Step %1, %2 validation sentences, no head muted: NLL %3")
                      .arg(r.step).arg(r.pairs).arg(r.nll, 0, 'f', 4)
                : tr("Step %1, %2 validation sentences, %n head(s) muted: NLL %3 (%4 against none)",
                     nullptr, int(r.muted.size()))
                      .arg(r.step).arg(r.pairs)
                      .arg(r.nll, 0, 'f', 4).arg(signedText(r.nll - r.nllUnmuted, 4)));
        return;
    }
    summary_->setText(
        r.muted.empty()
            ? tr("Step %1, %2 validation pairs, no head muted: NLL %3 · BLEU %4")
                  .arg(r.step).arg(r.pairs).arg(r.nll, 0, 'f', 4).arg(r.bleu, 0, 'f', 2)
            : tr("Step %1, %2 validation pairs, %n head(s) muted: NLL %3 (%4 against none) · "
                 "BLEU %5 (%6)", nullptr, int(r.muted.size()))
                  .arg(r.step).arg(r.pairs)
                  .arg(r.nll, 0, 'f', 4).arg(signedText(r.nll - r.nllUnmuted, 4))
                  .arg(r.bleu, 0, 'f', 2).arg(signedText(r.bleu - r.bleuUnmuted, 2)));
}

void HeadsView::reset()
{
    record_.reset();
    pruningRecord_.reset();
    muted_.clear();
    summarized_.reset();
    summarize();
    showIntro();
    redraw();
    redrawPruning();
}

void HeadsView::setShape(int encoderLayers, int decoderLayers, int heads)
{
    if (layers_[0] == encoderLayers && layers_[1] == decoderLayers && heads_ == heads)
        return;
    layers_[0] = encoderLayers;
    layers_[1] = decoderLayers;
    layers_[2] = encoderLayers > 0 ? decoderLayers : 0;  // no encoder: a decoder-only model, no cross-attention
    heads_ = heads;
    // A decoder-only model's only attention is its decoder's: the other two grids would stay empty.
    for (int i = 0; i < 3; ++i)
        panels_[i]->setVisible(!decoderOnly() || i == indexOf(AttentionKind::DecoderSelf));
    record_.reset();
    pruningRecord_.reset();
    redraw();
    redrawPruning();
}

void HeadsView::setMuted(const std::vector<HeadId>& muted)
{
    muted_ = muted;
    redraw();
}

void HeadsView::setRecord(HeadsRecordPtr record)
{
    if (!record) {
        record_.reset();
        summarized_.reset();
        summarize();
        redraw();
        return;
    }
    setShape(record->encoderLayers, record->decoderLayers, record->heads);  // may drop old scores
    if (record->scored || !record_ || !record_->scored) {
        record_ = record;
    } else {
        // Only the NLL and BLEU of new mutes: the scores drawn stay, the figures are new.
        auto merged = std::make_shared<HeadsRecord>(*record_);
        merged->muted = record->muted;
        merged->nll = record->nll;
        merged->nllUnmuted = record->nllUnmuted;
        merged->bleu = record->bleu;
        merged->bleuUnmuted = record->bleuUnmuted;
        merged->pairs = record->pairs;
        record_ = merged;
    }
    summarized_ = record;
    summarize();
    redraw();
}

void HeadsView::setPruning(PruningRecordPtr record)
{
    pruningRecord_ = std::move(record);
    redrawPruning();
}

void HeadsView::setScore(Score score)
{
    scoreBox_->setCurrentIndex(scoreBox_->findData(int(score)));
}

HeadsView::Score HeadsView::score() const
{
    return Score(scoreBox_->currentData().toInt());
}

void HeadsView::showProgress(const QString& text, int done, int total)
{
    introShown_ = false;
    status_->setText(text);
    progress_->setVisible(true);
    progress_->setRange(0, std::max(1, total));
    progress_->setValue(done);
    cancel_->setEnabled(true);
}

void HeadsView::showIdle(const QString& text)
{
    introShown_ = false;
    status_->setText(text);
    progress_->setVisible(false);
    cancel_->setEnabled(false);
}

double HeadsView::valueOf(const HeadScore& s) const
{
    switch (score()) {
    case Score::Importance: return s.importance;
    case Score::DeltaNll: return s.deltaNll;
    case Score::Confidence: return s.confidence;
    case Score::Entropy: return s.entropy;
    }
    return NAN;
}

double HeadsView::cell(AttentionKind kind, int layer, int head) const
{
    return heatmapCell(maps_[indexOf(kind)], layer, head);
}

bool HeadsView::isMutedShown(const HeadId& id) const
{
    return std::find(muted_.begin(), muted_.end(), id) != muted_.end();
}

QString HeadsView::summary() const
{
    return summary_->text();
}

QCustomPlot* HeadsView::grid(AttentionKind kind) const
{
    return plots_[indexOf(kind)];
}

QPoint HeadsView::cellCentre(AttentionKind kind, int layer, int head) const
{
    QCustomPlot* plot = plots_[indexOf(kind)];
    return QPoint(int(plot->xAxis->coordToPixel(head)), int(plot->yAxis->coordToPixel(layer)));
}

void HeadsView::redraw()
{
    for (QCPAbstractItem* m : marks_)
        m->parentPlot()->removeItem(m);
    marks_.clear();
    // One colour scale for the three grids, so that heads of different kinds compare.
    double lo = INFINITY, hi = -INFINITY;
    const bool scored = record_ && record_->scored;
    if (scored)
        for (const HeadScore& s : record_->report.heads) {
            lo = std::min(lo, valueOf(s));
            hi = std::max(hi, valueOf(s));
        }
    if (!(hi > lo)) {
        lo = 0;
        hi = 1;
    }
    for (AttentionKind k : kAttentionKinds) {
        const int i = indexOf(k);
        QStringList rows, cols;
        // Numbered from 1, as everywhere in the window (the command line's JSON counts from 0).
        for (int l = 0; l < layers_[i]; ++l)
            rows << QString::number(l + 1);
        for (int h = 0; h < heads_; ++h)
            cols << QString::number(h + 1);
        setHeatmapData(
            maps_[i], layers_[i], heads_,
            [&](int l, int h) {
                if (!scored)
                    return std::nan("");
                for (const HeadScore& s : record_->report.heads)
                    if (s.id == HeadId{k, l, h})
                        return valueOf(s);
                return std::nan("");
            },
            rows, cols, lo, hi);
        for (const HeadId& id : muted_) {
            if (id.kind != k)
                continue;
            auto* mark = new QCPItemText(plots_[i]);
            mark->position->setCoords(id.head, id.layer);
            mark->setText(QStringLiteral("✕"));
            QFont f = font();
            f.setPointSizeF(f.pointSizeF() * 1.6);
            f.setBold(true);
            mark->setFont(f);
            mark->setProperty(kInkProperty, QStringLiteral("alert"));  // red for the theme
            marks_.push_back(mark);
        }
        applyPalette(plots_[i]);
        replotIfVisible(plots_[i]);
    }
    if (maps_[2].scale)
        maps_[2].scale->axis()->setLabel(scoreBox_->currentText());
}

void HeadsView::redrawPruning()
{
    QVector<double> x, bleu, nll;
    if (pruningRecord_)
        for (const PruningPoint& p : pruningRecord_->curve.points) {
            x << p.masked;
            bleu << p.bleu;
            nll << p.nll;
        }
    pruning_->graph(0)->setData(x, bleu);
    pruning_->graph(1)->setData(x, nll);
    const int total = pruningRecord_ ? pruningRecord_->totalHeads
                                     : (layers_[0] + layers_[1] + layers_[2]) * heads_;
    pruning_->xAxis->setRange(-0.5, std::max(1, total) + 0.5);
    // A language model's curve has no BLEU (NaN): its NLL alone, on the right axis, with its
    // grid; so from the start for a decoder-only model.
    const bool translated = !bleu.isEmpty() && !std::isnan(bleu.front());
    const bool bleuShown = translated || (bleu.isEmpty() && !decoderOnly());
    pruning_->graph(0)->setVisible(bleuShown);
    if (bleuShown)
        pruning_->graph(0)->addToLegend();
    else
        pruning_->graph(0)->removeFromLegend();
    pruning_->yAxis->setVisible(bleuShown);
    pruning_->yAxis2->grid()->setVisible(!bleuShown);
    pruning_->graph(1)->setName(bleuShown ? tr("NLL (right axis)") : tr("NLL"));
    // The legend where the curves are not: left, half way up, below a BLEU curve that starts at
    // the top; at the top for an NLL alone, which starts at its lowest and rises.
    pruning_->axisRect()->insetLayout()->setInsetAlignment(
        0, Qt::AlignLeft | (bleuShown ? Qt::AlignVCenter : Qt::AlignTop));
    if (!bleu.isEmpty()) {
        pruning_->yAxis->setRange(0, translated ? std::max(1.0, *std::max_element(bleu.begin(), bleu.end()) * 1.1) : 1.0);
        const auto [mn, mx] = std::minmax_element(nll.begin(), nll.end());
        pruning_->yAxis2->setRange(*mn * 0.95, std::max(*mx * 1.05, *mn * 0.95 + 0.1));
    }
    replotIfVisible(pruning_);
}

}  // namespace as::ui
