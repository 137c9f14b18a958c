// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "model_view.h"

#include "train/history.h"

#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QScrollArea>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace as::ui {

namespace {

bool isAttention(ModelBlock b)
{
    return b == ModelBlock::EncSelf || b == ModelBlock::DecSelf || b == ModelBlock::DecCross;
}

bool isEncoder(ModelBlock b)
{
    return b <= ModelBlock::EncNorm;
}

// Blocks repeated in every layer (the ones inside the N× frames).
bool isLayered(ModelBlock b)
{
    switch (b) {
    case ModelBlock::EncSelf: case ModelBlock::EncSelfAdd: case ModelBlock::EncFF: case ModelBlock::EncFFAdd:
    case ModelBlock::DecSelf: case ModelBlock::DecSelfAdd: case ModelBlock::DecCross: case ModelBlock::DecCrossAdd:
    case ModelBlock::DecFF: case ModelBlock::DecFFAdd:
        return true;
    default:
        return false;
    }
}

// The paper's figure colours its blocks by kind; here a hue per kind, mixed into the palette's
// base colour so that it stays a light tint on a light theme and a dark one on a dark theme,
// under text in the palette's text colour.
QColor blockFill(ModelBlock b, bool normPart, const QPalette& pal)
{
    int hue = 0;
    switch (b) {
    case ModelBlock::SrcEmbed: case ModelBlock::TgtEmbed: hue = 340; break;
    case ModelBlock::SrcPosition: case ModelBlock::TgtPosition: hue = 300; break;
    case ModelBlock::EncSelf: case ModelBlock::DecSelf: case ModelBlock::DecCross: hue = 28; break;
    case ModelBlock::EncFF: case ModelBlock::DecFF: hue = 200; break;
    case ModelBlock::Generator: hue = 260; break;
    case ModelBlock::Softmax: hue = 130; break;
    default: hue = 55; break;  // Add & Norm, LayerNorm
    }
    if (normPart)
        hue = 55;
    const QColor base = pal.color(QPalette::Base);
    const QColor tint = QColor::fromHsv(hue, 200, 230);
    const double w = base.lightness() > 128 ? 0.30 : 0.35;
    return QColor::fromRgbF(float(base.redF() * (1 - w) + tint.redF() * w),
                            float(base.greenF() * (1 - w) + tint.greenF() * w),
                            float(base.blueF() * (1 - w) + tint.blueF() * w));
}

void arrow(QPainter& p, QPointF from, QPointF to)
{
    p.drawLine(from, to);
    const QPointF d = to - from;
    const double len = std::hypot(d.x(), d.y());
    if (len < 1)
        return;
    const QPointF u = d / len, n(-u.y(), u.x());
    const double s = 5.0;
    QPolygonF head;
    head << to << to - u * s * 1.6 + n * s * 0.8 << to - u * s * 1.6 - n * s * 0.8;
    p.setBrush(p.pen().color());
    p.drawPolygon(head);
    p.setBrush(Qt::NoBrush);
}

// The trace tensor's element (i, j) of a 2-D tensor, or of head h of a 3-D one.
double element(const TraceTensor& t, int h, int i, int j)
{
    if (t.shape.size() == 3)
        return t.data[(std::size_t(h) * std::size_t(t.shape[1]) + std::size_t(i)) * std::size_t(t.shape[2]) + std::size_t(j)];
    return t.data[std::size_t(i) * std::size_t(t.shape[1]) + std::size_t(j)];
}

bool maskedAt(const TraceTensor& t, int h, int i, int j)
{
    if (t.masked.empty())
        return false;
    return t.masked[(std::size_t(h) * std::size_t(t.shape[1]) + std::size_t(i)) * std::size_t(t.shape[2]) + std::size_t(j)] != 0;
}

}  // namespace

QString modelBlockName(ModelBlock block)
{
    switch (block) {
    case ModelBlock::SrcEmbed: return ModelView::tr("Input embedding");
    case ModelBlock::SrcPosition: return ModelView::tr("Positional encoding (encoder)");
    case ModelBlock::EncSelf: return ModelView::tr("Encoder self-attention");
    case ModelBlock::EncSelfAdd: return ModelView::tr("Encoder: residual after self-attention");
    case ModelBlock::EncFF: return ModelView::tr("Encoder feed-forward");
    case ModelBlock::EncFFAdd: return ModelView::tr("Encoder: residual after feed-forward");
    case ModelBlock::EncNorm: return ModelView::tr("Encoder's final layer normalisation");
    case ModelBlock::TgtEmbed: return ModelView::tr("Output embedding");
    case ModelBlock::TgtPosition: return ModelView::tr("Positional encoding (decoder)");
    case ModelBlock::DecSelf: return ModelView::tr("Decoder masked self-attention");
    case ModelBlock::DecSelfAdd: return ModelView::tr("Decoder: residual after self-attention");
    case ModelBlock::DecCross: return ModelView::tr("Cross-attention (encoder–decoder)");
    case ModelBlock::DecCrossAdd: return ModelView::tr("Decoder: residual after cross-attention");
    case ModelBlock::DecFF: return ModelView::tr("Decoder feed-forward");
    case ModelBlock::DecFFAdd: return ModelView::tr("Decoder: residual after feed-forward");
    case ModelBlock::DecNorm: return ModelView::tr("Decoder's final layer normalisation");
    case ModelBlock::Generator: return ModelView::tr("Linear (generator)");
    case ModelBlock::Softmax: return ModelView::tr("Softmax");
    }
    return {};
}

// ---------------------------------------------------------------------------------------------
// The diagram

ArchitectureDiagram::ArchitectureDiagram(QWidget* parent) : QWidget(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(false);
    setToolTip(tr("Click a block (or use the arrow keys) to see its numbers for the probe sentence"));
    relayout();
}

void ArchitectureDiagram::setConfig(const ModelConfig& config)
{
    const bool same = config.arch == config_.arch && config.encoder_layers == config_.encoder_layers
                      && config.decoder_layers == config_.decoder_layers
                      && config.norm == config_.norm && config.heads == config_.heads
                      && config.d_model == config_.d_model && config.d_ff == config_.d_ff
                      && config.position == config_.position;
    config_ = config;
    if (!same) {
        relayout();
        // A block the new shape has not (cross-attention in a decoder-only model): its
        // masked self-attention instead.
        if (rectOf(selected_).isEmpty() && !rectOf(ModelBlock::DecSelf).isEmpty())
            selected_ = ModelBlock::DecSelf;
        update();
    }
}

void ArchitectureDiagram::setSelected(ModelBlock block)
{
    if (rectOf(block).isEmpty())  // not in this configuration (a final LayerNorm in post-norm)
        return;
    selected_ = block;
    update();
}

bool ArchitectureDiagram::blockAt(QPointF p, ModelBlock* block) const
{
    for (const Drawn& d : drawn_)
        if (!d.text && d.rect.contains(p)) {
            *block = d.block;
            return true;
        }
    return false;
}

QRectF ArchitectureDiagram::rectOf(ModelBlock block) const
{
    for (const Drawn& d : drawn_)
        if (d.block == block && !d.normPart && !d.text)
            return d.rect;
    return {};
}

QSize ArchitectureDiagram::sizeHint() const
{
    const QFontMetrics fm(font());
    return {fm.horizontalAdvance(QLatin1Char('x')) * 64, fm.height() * 34};
}

QSize ArchitectureDiagram::minimumSizeHint() const
{
    const QFontMetrics fm(font());
    return {fm.horizontalAdvance(QLatin1Char('x')) * 44, fm.height() * 22};
}

void ArchitectureDiagram::relayout()
{
    // Each column bottom-up: text rows, blocks, pre-norm LayerNorm boxes and the N× frame.
    enum Kind { Text, Block, Norm, FrameBegin, FrameEnd };
    struct Item {
        Kind kind;
        ModelBlock block = ModelBlock::EncSelf;
        QString label;
    };
    const bool pre = config_.norm == NormPlacement::Pre;
    const QString add = pre ? tr("Add") : tr("Add & Norm");
    auto sublayer = [&](std::vector<Item>& col, ModelBlock b, const QString& label, ModelBlock addBlock) {
        if (pre)
            col.push_back({Norm, b, tr("Layer norm")});
        col.push_back({Block, b, label});
        col.push_back({Block, addBlock, add});
    };
    // A decoder-only model (core/SPEC.md §2.10) is one column, as GPT's Figure 1 draws it: the
    // decoder's blocks without cross-attention, under the same generator.
    const bool only = config_.decoderOnly();
    std::vector<Item> enc, dec;
    enc.push_back({Text, ModelBlock::SrcEmbed, tr("Inputs")});
    enc.push_back({Block, ModelBlock::SrcEmbed, tr("Input embedding")});
    // Learned positions (core/SPEC.md §2.11) are GPT-2's table; attention-only layers (§2.12)
    // have no feed-forward block.
    const QString position = config_.position == Position::Learned ? tr("+ Learned positions")
                                                                     : tr("+ Positional encoding");
    const bool ff = config_.d_ff > 0;
    enc.push_back({Block, ModelBlock::SrcPosition, position});
    enc.push_back({FrameBegin, {}, {}});
    sublayer(enc, ModelBlock::EncSelf, tr("Multi-head attention"), ModelBlock::EncSelfAdd);
    if (ff)
        sublayer(enc, ModelBlock::EncFF, tr("Feed forward"), ModelBlock::EncFFAdd);
    enc.push_back({FrameEnd, {}, {}});
    if (pre)
        enc.push_back({Block, ModelBlock::EncNorm, tr("Layer norm")});
    if (only)
        enc.clear();
    dec.push_back({Text, ModelBlock::TgtEmbed, only ? tr("Text (shifted right)") : tr("Outputs (shifted right)")});
    dec.push_back({Block, ModelBlock::TgtEmbed, only ? tr("Token embedding") : tr("Output embedding")});
    dec.push_back({Block, ModelBlock::TgtPosition, position});
    dec.push_back({FrameBegin, {}, {}});
    sublayer(dec, ModelBlock::DecSelf, tr("Masked multi-head attention"), ModelBlock::DecSelfAdd);
    if (!only)
        sublayer(dec, ModelBlock::DecCross, tr("Cross-attention"), ModelBlock::DecCrossAdd);
    if (ff)
        sublayer(dec, ModelBlock::DecFF, tr("Feed forward"), ModelBlock::DecFFAdd);
    dec.push_back({FrameEnd, {}, {}});
    if (pre)
        dec.push_back({Block, ModelBlock::DecNorm, tr("Layer norm")});
    dec.push_back({Block, ModelBlock::Generator, tr("Linear")});
    dec.push_back({Block, ModelBlock::Softmax, tr("Softmax")});
    dec.push_back({Text, ModelBlock::Softmax, only ? tr("Next-token probabilities") : tr("Output probabilities")});

    auto units = [](const std::vector<Item>& col) {
        double u = 0;
        for (const Item& it : col)
            u += it.kind == Norm ? 0.75 + 0.35 : it.kind == FrameBegin || it.kind == FrameEnd ? 0.35 : 1.0 + 0.55;
        return u;
    };
    const QFontMetrics fm(font());
    const double margin = fm.height() * 0.8;
    const double unit = std::clamp((height() - 2 * margin) / std::max(units(enc), units(dec)),
                                   fm.height() * 1.15, fm.height() * 2.6);
    const double colGap = fm.height() * 3.0;
    const double colW = std::max(40.0, (width() - 2 * margin - colGap) / 2.0);
    const double blockW = colW * 0.86;

    drawn_.clear();
    auto place = [&](const std::vector<Item>& col, double left, QRectF* frame) {
        double y = height() - margin;
        const double x = left + (colW - blockW) * 0.8;  // room on the left for the residual lines
        double frameBottom = 0;
        for (const Item& it : col) {
            switch (it.kind) {
            case FrameBegin:
                frameBottom = y;
                y -= unit * 0.35;
                break;
            case FrameEnd:
                y -= unit * 0.35 - unit * 0.55;  // the gap above the last block closes the frame
                *frame = QRectF(left + 2, y, colW - 4, frameBottom - y);
                y -= unit * 0.55;
                break;
            case Norm: {
                const double h = unit * 0.75;
                drawn_.push_back({it.block, it.label, QRectF(x + blockW * 0.12, y - h, blockW * 0.76, h), true});
                y -= h + unit * 0.35;
                break;
            }
            case Block:
            case Text:
                drawn_.push_back({it.block, it.label, QRectF(x, y - unit, blockW, unit), false, it.kind == Text});
                y -= unit * 1.55;
                break;
            }
        }
        return y;
    };
    if (only) {  // one column, in the middle
        encoderStack_ = QRectF();
        encoderOut_ = QPointF();
        place(dec, (width() - colW) / 2, &decoderStack_);
        return;
    }
    place(enc, margin, &encoderStack_);
    place(dec, margin + colW + colGap, &decoderStack_);
    const QRectF top = pre ? rectOf(ModelBlock::EncNorm) : rectOf(ModelBlock::EncFFAdd);
    encoderOut_ = QPointF(top.center().x(), top.top());
}

void ArchitectureDiagram::resizeEvent(QResizeEvent* e)
{
    QWidget::resizeEvent(e);
    relayout();
}

void ArchitectureDiagram::changeEvent(QEvent* e)
{
    QWidget::changeEvent(e);
    if (e->type() == QEvent::LanguageChange || e->type() == QEvent::FontChange) {
        relayout();
        update();
    }
}

void ArchitectureDiagram::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette& pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));
    const QColor ink = pal.color(QPalette::Text);
    QColor line = ink;
    line.setAlphaF(0.75f);
    const QFontMetrics fm(font());

    // The N× frames, with the layer count on their left.
    p.setPen(QPen(pal.color(QPalette::Mid), 1.5));
    for (const auto& [frame, n] : {std::pair{encoderStack_, config_.encoder_layers},
                                   std::pair{decoderStack_, config_.decoder_layers}}) {
        if (frame.isEmpty())  // no encoder
            continue;
        p.drawRoundedRect(frame, 8, 8);
        p.setPen(ink);
        QFont bold = font();
        bold.setBold(true);
        p.setFont(bold);
        const double w = fm.horizontalAdvance(QStringLiteral("00×")) + 8;
        p.drawText(QRectF(frame.right() - w - 4, frame.top() + 2, w, fm.height() * 1.5), Qt::AlignRight | Qt::AlignTop,
                   tr("%1×").arg(n));
        p.setFont(font());
        p.setPen(QPen(pal.color(QPalette::Mid), 1.5));
    }

    // Arrows between consecutive items of a column, and the residual connections.
    p.setPen(QPen(line, 1.3));
    const std::size_t firstDecoder = std::size_t(std::find_if(drawn_.begin(), drawn_.end(), [](const Drawn& d) {
                                                     return !isEncoder(d.block);
                                                 }) - drawn_.begin());
    for (std::size_t i = 1; i < drawn_.size(); ++i) {
        if (i == firstDecoder)
            continue;
        const QRectF& a = drawn_[i - 1].rect;
        const QRectF& b = drawn_[i].rect;
        arrow(p, QPointF(b.center().x(), a.top()), QPointF(b.center().x(), b.bottom()));
    }
    // A residual: from below the sublayer (its LayerNorm in pre-norm) round its left side into
    // the Add box.
    for (std::size_t i = 0; i < drawn_.size(); ++i) {
        const Drawn& d = drawn_[i];
        const bool addBox = !d.normPart && !d.text && (d.block == ModelBlock::EncSelfAdd || d.block == ModelBlock::EncFFAdd
                                            || d.block == ModelBlock::DecSelfAdd || d.block == ModelBlock::DecCrossAdd
                                            || d.block == ModelBlock::DecFFAdd);
        if (!addBox || i < 2)
            continue;
        const bool pre = config_.norm == NormPlacement::Pre;
        const QRectF& from = drawn_[i - (pre ? 2 : 1)].rect;  // the sublayer's first box
        const double y0 = from.bottom() + (fm.height() * 0.25);
        const double x = d.rect.left() - d.rect.width() * 0.065;  // half way to the frame
        QPainterPath path(QPointF(d.rect.center().x(), y0));
        path.lineTo(x, y0);
        path.lineTo(x, d.rect.center().y());
        p.drawPath(path);
        arrow(p, QPointF(x, d.rect.center().y()), QPointF(d.rect.left(), d.rect.center().y()));
    }
    // The memory: from the encoder's top into the cross-attention (keys and values).
    const QRectF cross = rectOf(ModelBlock::DecCross);
    if (!cross.isEmpty()) {
        const double yTop = encoderOut_.y() - fm.height() * 0.6;
        const double xMid = (encoderStack_.right() + decoderStack_.left()) / 2;
        QPainterPath path(encoderOut_);
        path.lineTo(encoderOut_.x(), yTop);
        path.lineTo(xMid, yTop);
        path.lineTo(xMid, cross.center().y());
        p.drawPath(path);
        arrow(p, QPointF(xMid, cross.center().y()), QPointF(cross.left(), cross.center().y()));
    }

    // The boxes.
    for (const Drawn& d : drawn_) {
        if (d.text) {
            p.setPen(ink);
            p.drawText(d.rect, Qt::AlignCenter | Qt::TextWordWrap, d.label);
            continue;
        }
        const bool selected = d.block == selected_;
        p.setBrush(blockFill(d.block, d.normPart, pal));
        p.setPen(selected ? QPen(pal.color(QPalette::Highlight), 3) : QPen(line, 1));
        p.drawRoundedRect(d.rect, 6, 6);
        p.setBrush(Qt::NoBrush);
        p.setPen(ink);
        // A label too wide for its box: set smaller (to 85 %), else on two lines, else elided.
        const QRectF inner = d.rect.adjusted(4, 1, -4, -1);
        QFont f = font();
        const double wide = fm.horizontalAdvance(d.label);
        int flags = Qt::AlignCenter;
        QString text = d.label;
        if (wide > inner.width() && f.pointSizeF() > 0) {
            f.setPointSizeF(f.pointSizeF() * std::max(0.85, inner.width() / wide));
            const QFontMetricsF small(f);
            if (small.horizontalAdvance(text) > inner.width()) {
                QFont two = font();
                two.setPointSizeF(font().pointSizeF() * 0.85);
                const QRectF need = QFontMetricsF(two).boundingRect(inner, Qt::AlignCenter | Qt::TextWordWrap, text);
                if (need.height() <= inner.height() + 1 && need.width() <= inner.width() + 1) {
                    f = two;
                    flags |= Qt::TextWordWrap;
                } else {
                    text = small.elidedText(text, Qt::ElideRight, inner.width());
                }
            }
        }
        p.setFont(f);
        p.drawText(inner, flags, text);
        p.setFont(font());
    }
    if (hasFocus()) {
        QColor f = pal.color(QPalette::Highlight);
        f.setAlphaF(0.5f);
        p.setPen(QPen(f, 1, Qt::DotLine));
        p.drawRect(rect().adjusted(1, 1, -2, -2));
    }
}

void ArchitectureDiagram::mousePressEvent(QMouseEvent* e)
{
    ModelBlock b;
    if (blockAt(e->position(), &b)) {
        setFocus(Qt::MouseFocusReason);
        setSelected(b);
        emit blockClicked(b);
        return;
    }
    QWidget::mousePressEvent(e);
}

void ArchitectureDiagram::keyPressEvent(QKeyEvent* e)
{
    // Up and Down follow the data: the encoder's blocks bottom-up, then the decoder's.
    std::vector<ModelBlock> order;
    for (const Drawn& d : drawn_)
        if (!d.normPart && !d.text && std::find(order.begin(), order.end(), d.block) == order.end())
            order.push_back(d.block);
    const auto at = std::find(order.begin(), order.end(), selected_);
    if (at == order.end() || (e->key() != Qt::Key_Up && e->key() != Qt::Key_Down)) {
        QWidget::keyPressEvent(e);
        return;
    }
    const std::ptrdiff_t i = at - order.begin() + (e->key() == Qt::Key_Up ? 1 : -1);
    if (i < 0 || i >= std::ptrdiff_t(order.size()))
        return;
    setSelected(order[std::size_t(i)]);
    emit blockClicked(selected_);
}

// ---------------------------------------------------------------------------------------------
// The view

ModelView::ModelView(QWidget* parent) : QWidget(parent)
{
    diagram_ = new ArchitectureDiagram(this);
    auto* right = new QWidget(this);
    auto* rl = new QVBoxLayout(right);
    rl->setContentsMargins(6, 0, 6, 0);
    title_ = new QLabel(right);
    title_->setFont(pointFont(11, true));
    title_->setWordWrap(true);
    formula_ = new QLabel(right);
    formula_->setWordWrap(true);
    formula_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    hint_ = new QLabel(right);
    hint_->setWordWrap(true);
    auto* controls = new QHBoxLayout;
    layerLabel_ = new QLabel(right);
    layerBox_ = new QSpinBox(right);
    headLabel_ = new QLabel(right);
    headBox_ = new QSpinBox(right);
    toAttention_ = new QPushButton(right);
    controls->addWidget(layerLabel_);
    controls->addWidget(layerBox_);
    controls->addSpacing(12);
    controls->addWidget(headLabel_);
    controls->addWidget(headBox_);
    controls->addSpacing(12);
    controls->addWidget(toAttention_);
    controls->addStretch(1);
    replay_ = new ReplayBar(right);
    rl->addWidget(replay_);
    rl->addWidget(title_);
    rl->addLayout(controls);
    rl->addWidget(formula_);
    rl->addWidget(hint_);
    // The block's matrices scroll under its title and formula: six of them are more than a
    // 1280×800 window has room for beside the diagram.
    auto* plotsHost = new QWidget;
    auto* grid = new QGridLayout(plotsHost);
    grid->setContentsMargins(0, 0, 0, 0);
    for (int i = 0; i < kMaxPlots; ++i) {
        Plot pl;
        pl.plot = new QCustomPlot(plotsHost);
        pl.plot->setMinimumSize(160, 120);
        pl.heat = makeHeatmap(pl.plot, true, divergingGradient());
        pl.title = addTitle(pl.plot, QString(), pointFont(8));
        pl.plot->xAxis->setTickLabelFont(pointFont(8));
        pl.plot->yAxis->setTickLabelFont(pointFont(8));
        pl.heat.scale->axis()->setTickLabelFont(pointFont(8));
        grid->addWidget(pl.plot, i / 2, i % 2);
        plots_.push_back(pl);
        enableHoverReadout(pl.plot, [this, i](QCustomPlot*, QPoint px) -> QString {
            const Plot& q = plots_[std::size_t(i)];
            int r = 0, c = 0;
            if (i >= shown_ || !heatmapCellAt(q.heat, px, &r, &c))
                return {};
            const QString row = r < q.rows.size() ? q.rows[r] : QString::number(r);
            const QString col = c < q.cols.size() ? q.cols[c] : QString::number(c);
            const double v = heatmapCell(q.heat, r, c);
            const QString value = std::isnan(v) ? tr("masked: −∞ before the softmax, 0 after it")
                                                : QString::number(v, 'g', 6);
            return tr("%1\nrow %2 (%3), column %4 (%5)\n%6").arg(q.name).arg(r).arg(row).arg(c).arg(col).arg(value);
        });
    }
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    auto* plotsScroll = new QScrollArea(right);
    plotsScroll->setWidgetResizable(true);
    plotsScroll->setFrameShape(QFrame::NoFrame);
    plotsScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    plotsScroll->setWidget(plotsHost);
    rl->addWidget(plotsScroll, 1);

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(diagram_);
    split->addWidget(right);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setSizes({2000, 3000});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    connect(diagram_, &ArchitectureDiagram::blockClicked, this, [this](ModelBlock) {
        updateControls();
        redraw();
    });
    connect(layerBox_, &QSpinBox::valueChanged, this, [this](int v) {
        if (v - 1 != layer_)
            setLayer(v - 1);
    });
    connect(headBox_, &QSpinBox::valueChanged, this, [this](int v) {
        if (v - 1 != head_)
            setHead(v - 1);
    });
    connect(replay_, &ReplayBar::indexRequested, this, &ModelView::showHistoryIndex);
    connect(toAttention_, &QPushButton::clicked, this, [this] {
        HeadId id;
        if (attentionOfBlock(&id))
            emit attentionRequested(id);
    });
    retranslate();
    updateControls();
    redraw();
}

void ModelView::retranslate()
{
    layerLabel_->setText(tr("Layer:"));
    layerBox_->setToolTip(tr("Layer (1 = nearest the embeddings)"));
    headLabel_->setText(tr("Head:"));
    headBox_->setToolTip(tr("Which head's Q, K, V, scores and weights to show"));
    toAttention_->setText(tr("Show in the Attention view"));
    toAttention_->setToolTip(tr("Every head of this layer in the Attention view, this one enlarged"));
    replay_->setSliderToolTip(tr("Replay the traces recorded during training (while this tab was shown); "
                                 "at the right end the view follows the latest step"));
    replay_->setEmptyText(tr("no steps traced"));
}

void ModelView::changeEvent(QEvent* e)
{
    QWidget::changeEvent(e);
    if (e->type() == QEvent::LanguageChange) {
        retranslate();
        redraw();
    }
}

void ModelView::applySnapshot(const TrainingSnapshot& snapshot)
{
    diagram_->setConfig(snapshot.config);
    if (snapshot.trace)
        setRecord(snapshot.trace);
    else
        updateControls();
}

namespace {

std::size_t traceBytes(const TraceRecord& r)
{
    std::size_t bytes = sizeof(TraceRecord);
    for (const TraceTensor& t : r.trace.tensors)
        bytes += t.data.size() * sizeof(double) + t.masked.size() + t.shape.size() * sizeof(int);
    return bytes;
}

// The records of r's size that ModelView::kHistoryBytes holds (2 … the Attention view's count).
int capacityFor(const TraceRecord& r)
{
    const std::size_t each = std::max<std::size_t>(1, traceBytes(r));
    return int(std::clamp<std::size_t>(ModelView::kHistoryBytes / each, 2, std::size_t(kAttentionHistoryCapacity)));
}

}  // namespace

int ModelView::historyCapacity() const
{
    return history_.empty() ? kAttentionHistoryCapacity : capacityFor(*history_.back());
}

void ModelView::setRecord(std::shared_ptr<const TraceRecord> record)
{
    // As the Attention view's replay (ReplayHistory): live follows, a replayed step stays (or
    // the nearest earlier one kept); an earlier step starts a new run.
    if (!record)
        return;
    const int capacity = capacityFor(*record);
    if (!history_.append(std::move(record), capacity))
        return;
    updateReplayControls();
    drawShown();
}

void ModelView::showHistoryIndex(int index)
{
    const bool changed = history_.show(index);
    updateReplayControls();
    if (changed)
        drawShown();
}

void ModelView::drawShown()
{
    diagram_->setConfig(history_.shown()->config);
    updateControls();
    redraw();
}

void ModelView::showStep(long step)
{
    showHistoryIndex(history_.indexOfStep(step));
}

void ModelView::showLive()
{
    showHistoryIndex(history_.size() - 1);
}

void ModelView::updateReplayControls()
{
    replay_->setState(historySize(), history_.shownIndex(), history_.shownStep());
}

void ModelView::reset()
{
    history_.clear();
    updateReplayControls();
    updateControls();
    redraw();
}

void ModelView::selectBlock(ModelBlock block)
{
    diagram_->setSelected(block);
    updateControls();
    redraw();
}

void ModelView::setLayer(int layer)
{
    layer_ = std::max(0, layer);
    updateControls();
    redraw();
}

void ModelView::setHead(int head)
{
    head_ = std::max(0, head);
    updateControls();
    redraw();
}

bool ModelView::attentionOfBlock(HeadId* id) const
{
    const ModelBlock b = diagram_->selected();
    if (!isAttention(b))
        return false;
    id->kind = b == ModelBlock::EncSelf ? AttentionKind::EncoderSelf
               : b == ModelBlock::DecSelf ? AttentionKind::DecoderSelf : AttentionKind::Cross;
    id->layer = layer_;
    id->head = head_;
    return true;
}

void ModelView::updateControls()
{
    const ModelConfig& c = diagram_->config();
    const ModelBlock b = diagram_->selected();
    const int layers = isEncoder(b) ? c.encoder_layers : c.decoder_layers;
    layer_ = std::clamp(layer_, 0, std::max(0, layers - 1));
    head_ = std::clamp(head_, 0, std::max(0, c.heads - 1));
    const QSignalBlocker lb(layerBox_), hb(headBox_);
    layerBox_->setRange(1, std::max(1, layers));
    layerBox_->setValue(layer_ + 1);
    layerBox_->setEnabled(isLayered(b));
    headBox_->setRange(1, std::max(1, c.heads));
    headBox_->setValue(head_ + 1);
    headBox_->setEnabled(isAttention(b));
    toAttention_->setEnabled(isAttention(b));
}

QString ModelView::formula() const
{
    return formula_->text();
}

QString ModelView::title() const
{
    return title_->text();
}

QString ModelView::plotTitle(int i) const
{
    return plots_[std::size_t(i)].title->text();
}

void ModelView::showMatrix(int i, const QString& title, const std::string& name, int rows, int cols,
                           const std::function<double(int, int)>& value,
                           const std::function<bool(int, int)>& masked, const QStringList& rowLabels,
                           const QStringList& colLabels, bool probabilities)
{
    Plot& pl = plots_[std::size_t(i)];
    pl.name = QString::fromStdString(name);
    pl.rows = rowLabels;
    pl.cols = colLabels;
    pl.title->setText(title);
    double lo = 0, hi = 1;
    if (!probabilities) {
        double m = 0;
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c)
                if (!masked || !masked(r, c))
                    m = std::max(m, std::abs(value(r, c)));
        lo = -std::max(m, 1e-12);
        hi = -lo;
    }
    QCPColorGradient g = probabilities ? sequentialGradient() : divergingGradient();
    // Masked scores have no number: drawn in the palette's mid colour, apart from any value.
    g.setNanHandling(QCPColorGradient::nhNanColor);
    g.setNanColor(palette().color(QPalette::Mid));
    pl.heat.map->setGradient(g);
    if (pl.heat.scale)
        pl.heat.scale->setGradient(g);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    setHeatmapData(pl.heat, rows, cols, [&](int r, int c) { return masked && masked(r, c) ? nan : value(r, c); },
                   rowLabels, colLabels, lo, hi);
    if (colLabels.isEmpty())
        setIntegerTicks(pl.plot->xAxis);  // dimensions
    if (rowLabels.isEmpty())
        setIntegerTicks(pl.plot->yAxis);
    pl.plot->setVisible(true);
    replotIfVisible(pl.plot);
}

void ModelView::redraw()
{
    const ModelBlock b = diagram_->selected();
    const std::shared_ptr<const TraceRecord> record = history_.shown();
    const ModelConfig& c = record ? record->config : diagram_->config();
    title_->setText(isLayered(b) ? tr("%1 · layer %2").arg(modelBlockName(b)).arg(layer_ + 1) : modelBlockName(b));
    shown_ = 0;
    const auto finish = [this] {
        for (int i = shown_; i < kMaxPlots; ++i)
            plots_[std::size_t(i)].plot->setVisible(false);
    };
    if (!record) {
        formula_->clear();
        hint_->setText(tr("The numbers appear here once there is a probe sentence (the Attention tab's "
                          "probe bar) and a model: training, or a model file opened."));
        hint_->setVisible(true);
        finish();
        return;
    }
    hint_->setVisible(false);
    const TraceRecord& r = *record;
    const int S = int(r.srcTokens.size()), T = int(r.tgtTokens.size());
    const int H = std::max(1, c.heads), dk = c.d_model / H, d = c.d_model;
    const bool pre = c.norm == NormPlacement::Pre;
    const QString l = QString::number(layer_);
    auto find = [&](const QString& name) { return r.trace.find(name.toStdString()); };
    auto show2d = [&](const QString& title, const QString& name, const QStringList& rows, bool probabilities = false) {
        const TraceTensor* t = find(name);
        if (!t || t->shape.size() != 2 || shown_ >= kMaxPlots)
            return;
        showMatrix(shown_++, title, t->name, t->shape[0], t->shape[1],
                   [t](int i, int j) { return element(*t, 0, i, j); }, {}, rows, {}, probabilities);
    };
    QString formula;
    switch (b) {
    case ModelBlock::SrcEmbed:
    case ModelBlock::TgtEmbed: {
        const bool enc = b == ModelBlock::SrcEmbed;
        const int n = enc ? S : T;
        show2d(tr("embedding × √d_model"), enc ? QStringLiteral("encoder.embed") : QStringLiteral("decoder.embed"),
               enc ? r.srcTokens : r.tgtTokens);
        formula = tr("Embedding(x) · √d_model = Embedding(x) · √%1 : %2×%3").arg(d).arg(n).arg(d);
        break;
    }
    case ModelBlock::SrcPosition:
    case ModelBlock::TgtPosition: {
        const bool enc = b == ModelBlock::SrcPosition;
        const QString stack = enc ? QStringLiteral("encoder") : QStringLiteral("decoder");
        const QStringList& rows = enc ? r.srcTokens : r.tgtTokens;
        const TraceTensor* e = find(stack + QStringLiteral(".embed"));
        const TraceTensor* in = find(stack + QStringLiteral(".input"));
        if (e && in && e->shape == in->shape && e->shape.size() == 2) {
            showMatrix(shown_++, tr("positional encoding (input − embedding)"), in->name + " - " + e->name,
                       in->shape[0], in->shape[1], [e, in](int i, int j) { return element(*in, 0, i, j) - element(*e, 0, i, j); },
                       {}, rows, {}, false);
        }
        show2d(tr("input = embedding + PE"), stack + QStringLiteral(".input"), rows);
        formula = c.position == Position::Learned
                      ? tr("x + P[pos], P a learned table of %1 positions (GPT-2's) : %2×%3")
                            .arg(c.max_len).arg(enc ? S : T).arg(d)
                      : tr("x · √d_model + PE(pos, 2i) = sin(pos / 10000^(2i/%1)), PE(pos, 2i+1) = cos(…) : %2×%3")
                            .arg(d).arg(enc ? S : T).arg(d);
        break;
    }
    case ModelBlock::EncSelf:
    case ModelBlock::DecSelf:
    case ModelBlock::DecCross: {
        const QString prefix = b == ModelBlock::EncSelf ? QStringLiteral("encoder.%1.self").arg(l)
                               : b == ModelBlock::DecSelf ? QStringLiteral("decoder.%1.self").arg(l)
                                                          : QStringLiteral("decoder.%1.cross").arg(l);
        const QStringList& qRows = b == ModelBlock::EncSelf ? r.srcTokens : r.tgtTokens;
        const QStringList& kRows = b == ModelBlock::DecSelf ? r.tgtTokens : r.srcTokens;
        const int h = head_;
        auto head3 = [&](const QString& title, const QString& part, const QStringList& rows, const QStringList& cols,
                         bool probabilities) {
            const TraceTensor* t = find(prefix + QLatin1Char('.') + part);
            if (!t || t->shape.size() != 3 || h >= t->shape[0] || shown_ >= kMaxPlots)
                return;
            showMatrix(shown_++, title, t->name, t->shape[1], t->shape[2], [t, h](int i, int j) { return element(*t, h, i, j); },
                       t->masked.empty() ? std::function<bool(int, int)>() : [t, h](int i, int j) { return maskedAt(*t, h, i, j); },
                       rows, cols, probabilities);
        };
        head3(tr("Q (queries)"), QStringLiteral("q"), qRows, {}, false);
        head3(tr("K (keys)"), QStringLiteral("k"), kRows, {}, false);
        head3(tr("V (values)"), QStringLiteral("v"), kRows, {}, false);
        head3(tr("QKᵀ/√d_k, masked"), QStringLiteral("scores"), qRows, kRows, false);
        head3(tr("softmax: attention weights"), QStringLiteral("weights"), qRows, kRows, true);
        if (const TraceTensor* ctx = find(prefix + QStringLiteral(".context")); ctx && ctx->shape.size() == 2) {
            showMatrix(shown_++, tr("weights·V: this head's context"), ctx->name, ctx->shape[0], dk,
                       [ctx, h, dk](int i, int j) { return element(*ctx, 0, i, h * dk + j); }, {}, qRows, {}, false);
        }
        const int nq = int(qRows.size()), nk = int(kRows.size());
        const QString mask = b == ModelBlock::DecSelf ? tr(" + causal mask") : QString();
        formula = tr("head %1 = softmax(Q Kᵀ / √%2%3) · V : (%4×%2)(%2×%5) → %4×%5 · %5×%2 → %4×%2;  "
                     "Concat(head 1 … head %6) · W_O : %4×%7")
                      .arg(h + 1).arg(dk).arg(mask).arg(nq).arg(nk).arg(H).arg(d);
        if (b == ModelBlock::DecCross)
            formula += tr("  (queries from the decoder, keys and values from the encoder's output)");
        if (pre)
            formula += tr("  (Q, K, V are projections of LayerNorm(x): pre-norm)");
        break;
    }
    case ModelBlock::EncSelfAdd:
    case ModelBlock::DecSelfAdd:
    case ModelBlock::DecCrossAdd: {
        const QString name = b == ModelBlock::EncSelfAdd ? QStringLiteral("encoder.%1.self.residual").arg(l)
                             : b == ModelBlock::DecSelfAdd ? QStringLiteral("decoder.%1.self.residual").arg(l)
                                                           : QStringLiteral("decoder.%1.cross.residual").arg(l);
        const QStringList& rows = b == ModelBlock::EncSelfAdd ? r.srcTokens : r.tgtTokens;
        const QString out = name.left(name.size() - int(qstrlen("residual"))) + QStringLiteral("out");
        show2d(tr("sublayer output (after W_O)"), out, rows);
        show2d(pre ? tr("x + Sublayer(LayerNorm(x))") : tr("LayerNorm(x + Sublayer(x))"), name, rows);
        formula = (pre ? tr("x + Sublayer(LayerNorm(x)) : %1×%2") : tr("LayerNorm(x + Sublayer(x)) : %1×%2"))
                      .arg(rows.size()).arg(d);
        break;
    }
    case ModelBlock::EncFF:
    case ModelBlock::DecFF: {
        const QString stack = b == ModelBlock::EncFF ? QStringLiteral("encoder") : QStringLiteral("decoder");
        const QStringList& rows = b == ModelBlock::EncFF ? r.srcTokens : r.tgtTokens;
        // The configuration's nonlinearity (core/SPEC.md §2.3).
        const QString act = c.activation == Activation::GeluTanh ? tr("GELU")
                            : c.activation == Activation::Silu   ? tr("SiLU")
                                                                 : tr("ReLU");
        show2d(tr("%1(x W₁ + b₁)").arg(act), QStringLiteral("%1.%2.ff.hidden").arg(stack, l), rows);
        show2d(tr("· W₂ + b₂"), QStringLiteral("%1.%2.ff.out").arg(stack, l), rows);
        formula = c.activation == Activation::Relu
                      ? tr("FFN(x) = max(0, x W₁ + b₁) W₂ + b₂ : %1×%2 → %1×%3 → %1×%2").arg(rows.size()).arg(d).arg(c.d_ff)
                      : tr("FFN(x) = %4(x W₁ + b₁) W₂ + b₂ : %1×%2 → %1×%3 → %1×%2").arg(rows.size()).arg(d).arg(c.d_ff).arg(act);
        break;
    }
    case ModelBlock::EncFFAdd:
    case ModelBlock::DecFFAdd: {
        const QString stack = b == ModelBlock::EncFFAdd ? QStringLiteral("encoder") : QStringLiteral("decoder");
        const QStringList& rows = b == ModelBlock::EncFFAdd ? r.srcTokens : r.tgtTokens;
        show2d(tr("the layer's output"), QStringLiteral("%1.%2.out").arg(stack, l), rows);
        formula = (pre ? tr("x + FFN(LayerNorm(x)) : %1×%2") : tr("LayerNorm(x + FFN(x)) : %1×%2")).arg(rows.size()).arg(d);
        break;
    }
    case ModelBlock::EncNorm:
    case ModelBlock::DecNorm: {
        const bool enc = b == ModelBlock::EncNorm;
        show2d(enc ? tr("the memory the decoder reads") : tr("the decoder's output"),
               enc ? QStringLiteral("encoder.out") : QStringLiteral("decoder.out"), enc ? r.srcTokens : r.tgtTokens);
        formula = tr("LayerNorm(x) = γ ⊙ (x − mean) / √(var + ε) + β : %1×%2").arg(enc ? S : T).arg(d);
        break;
    }
    case ModelBlock::Generator:
    case ModelBlock::Softmax: {
        const bool logits = b == ModelBlock::Generator;
        const TraceTensor* t = find(logits ? QStringLiteral("logits") : QStringLiteral("log_probs"));
        const std::vector<int>& ids = r.topTokens;
        if (t && t->shape.size() == 2 && !ids.empty()) {
            showMatrix(shown_++, logits ? tr("logits (%n of the vocabulary's columns)", "", int(ids.size()))
                                        : tr("probabilities (%n of the vocabulary's columns)", "", int(ids.size())),
                       t->name, t->shape[0], int(ids.size()),
                       [t, &ids, logits](int i, int j) {
                           const double v = element(*t, 0, i, ids[std::size_t(j)]);
                           return logits ? v : std::exp(v);
                       },
                       {}, r.tgtTokens, r.topLabels, !logits);
        }
        const int V = t && t->shape.size() == 2 ? t->shape[1] : c.tgt_vocab;
        formula = logits ? tr("x W_gen + b : %1×%2 → %1×%3 (one score per word of the vocabulary)").arg(T).arg(d).arg(V)
                         : tr("softmax(logits) : %1×%2; the most probable word at each position: %3")
                               .arg(T).arg(V).arg(r.outTokens.join(QLatin1Char(' ')));
        break;
    }
    }
    formula_->setText(formula);
    finish();
}

}  // namespace as::ui
