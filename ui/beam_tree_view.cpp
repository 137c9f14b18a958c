// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "beam_tree_view.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace as::ui {

namespace {

constexpr double kMargin = 10, kGap = 26;

QColor stateFill(BeamNode::State s, const QPalette& pal)
{
    const QColor base = pal.color(QPalette::Base);
    const bool dark = isDarkPalette(pal);
    switch (s) {
    case BeamNode::State::Kept: return blend(base, QColor::fromHsv(210, 170, 235), dark ? 0.45 : 0.32);
    case BeamNode::State::Finished: return blend(base, QColor::fromHsv(130, 170, 200), dark ? 0.5 : 0.38);
    case BeamNode::State::Pruned: break;
    }
    return base;
}

QColor mutedInk(const QPalette& pal)
{
    return blend(pal.color(QPalette::Base), pal.color(QPalette::Text), 0.62);
}

QString stateText(BeamNode::State s)
{
    switch (s) {
    case BeamNode::State::Kept: return BeamTreeDiagram::tr("kept");
    case BeamNode::State::Finished: return BeamTreeDiagram::tr("finished");
    case BeamNode::State::Pruned: break;
    }
    return BeamTreeDiagram::tr("pruned");
}

QString number(double v)
{
    return QString::number(v, 'f', 3);
}

// The legend: the three states and the best path, in one row from (x, y); its width.
double paintLegend(QPainter& p, double x, double ly, const QFont& font, const QPalette& pal)
{
    const QFontMetricsF fm(font);
    const QColor ink = pal.color(QPalette::Text), muted = mutedInk(pal);
    const double box = fm.height() * 0.8, x0 = x;
    p.setFont(font);
    for (BeamNode::State s : {BeamNode::State::Kept, BeamNode::State::Finished, BeamNode::State::Pruned}) {
        p.setBrush(stateFill(s, pal));
        p.setPen(s == BeamNode::State::Pruned ? QPen(muted, 1, Qt::DashLine) : QPen(muted, 1));
        p.drawRoundedRect(QRectF(x, ly + (fm.height() - box) / 2, box * 1.6, box), 3, 3);
        x += box * 1.6 + 5;
        p.setPen(ink);
        const QString t = stateText(s);
        p.drawText(QPointF(x, ly + fm.ascent()), t);
        x += fm.horizontalAdvance(t) + 16;
    }
    p.setPen(QPen(pal.color(QPalette::Highlight), 3));
    p.drawLine(QPointF(x, ly + fm.height() / 2), QPointF(x + 22, ly + fm.height() / 2));
    x += 28;
    p.setPen(ink);
    const QString best = BeamTreeDiagram::tr("best hypothesis");
    p.drawText(QPointF(x, ly + fm.ascent()), best);
    return x + fm.horizontalAdvance(best) - x0;
}

// The legend above the scrolled tree, so that it stays in sight.
class Legend : public QWidget {
public:
    explicit Legend(QWidget* parent) : QWidget(parent) { setMinimumHeight(fontMetrics().height() + 8); }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter p(this);
        p.setRenderHint(QPainter::Antialiasing);
        paintLegend(p, 4, 4, font(), palette());
    }
    void changeEvent(QEvent* e) override
    {
        QWidget::changeEvent(e);
        if (e->type() == QEvent::LanguageChange)
            update();
    }
};

}  // namespace

BeamTreeDiagram::BeamTreeDiagram(QWidget* parent) : QWidget(parent)
{
    setFocusPolicy(Qt::StrongFocus);
    setMouseTracking(true);
    setObjectName(QStringLiteral("beamTree"));
}

void BeamTreeDiagram::setRecord(BeamTreeRecordPtr record)
{
    record_ = std::move(record);
    selected_ = -1;
    relayout();
}

void BeamTreeDiagram::relayout()
{
    drawn_.clear();
    columns_.clear();
    const QFontMetricsF fm(font());
    if (!record_ || record_->empty()) {
        size_ = QSize(200, 120);
        updateGeometry();
        update();
        return;
    }
    const BeamTreeRecord& r = *record_;
    const int N = int(r.nodes.size());
    int steps = 0;
    for (const BeamNode& n : r.nodes)
        steps = std::max(steps, n.step + 1);
    columns_.assign(std::size_t(steps), {});
    for (const BeamNode& n : r.nodes)
        columns_[std::size_t(n.step)].push_back(n.id);
    // Within a step: under the parent's place, then in the order they were made (the
    // candidate ranking of core/SPEC.md §5.3).
    std::vector<int> rowOf(std::size_t(N), 0);
    for (auto& col : columns_) {
        std::stable_sort(col.begin(), col.end(), [&](int a, int b) {
            const int pa = r.nodes[std::size_t(a)].parent, pb = r.nodes[std::size_t(b)].parent;
            const int ra = pa < 0 ? 0 : rowOf[std::size_t(pa)], rb = pb < 0 ? 0 : rowOf[std::size_t(pb)];
            return ra != rb ? ra < rb : a < b;
        });
        for (int i = 0; i < int(col.size()); ++i)
            rowOf[std::size_t(col[std::size_t(i)])] = i;
    }
    double nodeW = 40;
    for (const QString& t : r.tokens)
        nodeW = std::max(nodeW, std::min(150.0, fm.horizontalAdvance(t) + 14));
    const double nodeH = fm.height() + 8, rowH = nodeH + 8;
    const double top = kMargin + fm.height() + 8;  // below the step headers
    std::size_t rows = 0;
    for (const auto& col : columns_)
        rows = std::max(rows, col.size());
    std::vector<bool> best(std::size_t(N), false);
    for (int id : r.best)
        best[std::size_t(id)] = true;
    drawn_.resize(std::size_t(N));
    for (const BeamNode& n : r.nodes) {
        Drawn& d = drawn_[std::size_t(n.id)];
        d.id = n.id;
        d.parent = n.parent;
        d.state = n.state;
        d.token = r.tokens.value(n.id);
        d.best = best[std::size_t(n.id)];
        d.rect = QRectF(kMargin + n.step * (nodeW + kGap), top + rowOf[std::size_t(n.id)] * rowH, nodeW, nodeH);
    }
    size_ = QSize(int(std::ceil(kMargin * 2 + steps * (nodeW + kGap) - kGap)),
                  int(std::ceil(top + double(rows) * rowH + kMargin)));
    if (selected_ >= N)
        selected_ = -1;
    updateGeometry();
    resize(size_.expandedTo(parentWidget() ? parentWidget()->size() : QSize()));
    update();
}

QSize BeamTreeDiagram::sizeHint() const
{
    return size_;
}

void BeamTreeDiagram::setSelected(int id)
{
    if (!record_ || id < 0 || id >= int(drawn_.size()))
        id = -1;
    if (id == selected_)
        return;
    selected_ = id;
    update();
}

int BeamTreeDiagram::nodeAt(QPointF p) const
{
    for (const Drawn& d : drawn_)
        if (d.rect.contains(p))
            return d.id;
    return -1;
}

QString BeamTreeDiagram::toolTipOf(int id) const
{
    if (!record_ || id < 0 || id >= int(record_->nodes.size()))
        return {};
    const BeamNode& n = record_->nodes[std::size_t(id)];
    if (n.parent < 0)
        return tr("%1: the start of every hypothesis").arg(record_->tokens.value(id));
    QString text = tr("“%1”, step %2, %3\nlog p(token | prefix) = %4\nscore (sum of log p) = %5")
                       .arg(record_->tokens.value(id))
                       .arg(n.step)
                       .arg(stateText(n.state), number(n.logProb), number(n.score));
    if (n.final)
        text += QLatin1Char('\n') + tr("length-penalised score = %1").arg(number(n.finalScore));
    return text;
}

bool BeamTreeDiagram::event(QEvent* e)
{
    if (e->type() == QEvent::ToolTip) {
        auto* h = static_cast<QHelpEvent*>(e);
        const int id = nodeAt(h->pos());
        if (id >= 0)
            QToolTip::showText(h->globalPos(), toolTipOf(id), this, drawn_[std::size_t(id)].rect.toRect());
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(e);
}

void BeamTreeDiagram::changeEvent(QEvent* e)
{
    QWidget::changeEvent(e);
    if (e->type() == QEvent::FontChange || e->type() == QEvent::LanguageChange)
        relayout();
}

void BeamTreeDiagram::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette& pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));
    const QColor ink = pal.color(QPalette::Text);
    const QColor muted = mutedInk(pal);
    const QColor highlight = pal.color(QPalette::Highlight);
    const QFontMetricsF fm(font());
    if (!record_ || record_->empty())
        return;

    // The step headers.
    p.setPen(muted);
    const double hy = kMargin;
    for (std::size_t s = 0; s < columns_.size(); ++s) {
        if (columns_[s].empty())
            continue;
        const QRectF r0 = drawn_[std::size_t(columns_[s].front())].rect;
        p.drawText(QRectF(r0.left() - kGap / 2, hy, r0.width() + kGap, fm.height() + 4), Qt::AlignCenter,
                   s == 0 ? tr("start") : tr("step %1").arg(s));
    }

    // The edges: parent to child, the best path last and bold.
    QColor edge = ink;
    edge.setAlphaF(0.45f);
    for (int pass = 0; pass < 2; ++pass)
        for (const Drawn& d : drawn_) {
            if (d.parent < 0 || (pass == 1) != (d.best && drawn_[std::size_t(d.parent)].best))
                continue;
            const QRectF& a = drawn_[std::size_t(d.parent)].rect;
            const QPointF from(a.right(), a.center().y()), to(d.rect.left(), d.rect.center().y());
            QPainterPath path(from);
            const double mid = (from.x() + to.x()) / 2;
            path.cubicTo(QPointF(mid, from.y()), QPointF(mid, to.y()), to);
            if (pass == 1)
                p.setPen(QPen(highlight, 3));
            else
                p.setPen(QPen(edge, 1.2, d.state == BeamNode::State::Pruned ? Qt::DashLine : Qt::SolidLine));
            p.setBrush(Qt::NoBrush);
            p.drawPath(path);
        }

    // The nodes.
    for (const Drawn& d : drawn_) {
        const bool pruned = d.state == BeamNode::State::Pruned;
        p.setBrush(stateFill(d.state, pal));
        QPen border = pruned ? QPen(muted, 1, Qt::DashLine) : QPen(d.best ? highlight : muted, d.best ? 2 : 1);
        if (d.id == selected_)
            border = QPen(ink, 3);
        p.setPen(border);
        p.drawRoundedRect(d.rect, 5, 5);
        p.setPen(pruned ? muted : ink);
        QFont f = font();
        f.setBold(d.best);
        p.setFont(f);
        const QRectF inner = d.rect.adjusted(4, 0, -4, 0);
        p.drawText(inner, Qt::AlignCenter, QFontMetricsF(f).elidedText(d.token, Qt::ElideRight, inner.width()));
        p.setFont(font());
    }
    if (hasFocus()) {
        QColor f = highlight;
        f.setAlphaF(0.5f);
        p.setPen(QPen(f, 1, Qt::DotLine));
        p.setBrush(Qt::NoBrush);
        p.drawRect(rect().adjusted(1, 1, -2, -2));
    }
}

void BeamTreeDiagram::mousePressEvent(QMouseEvent* e)
{
    const int id = nodeAt(e->position());
    if (id < 0)
        return QWidget::mousePressEvent(e);
    setFocus(Qt::MouseFocusReason);
    setSelected(id);
    emit nodeClicked(id);
}

void BeamTreeDiagram::keyPressEvent(QKeyEvent* e)
{
    if (!record_ || drawn_.empty())
        return QWidget::keyPressEvent(e);
    const int cur = selected_ < 0 ? 0 : selected_;
    const BeamNode& n = record_->nodes[std::size_t(cur)];
    const std::vector<int>& col = columns_[std::size_t(n.step)];
    const int row = int(std::find(col.begin(), col.end(), cur) - col.begin());
    int next = -1;
    switch (e->key()) {
    case Qt::Key_Left: next = n.parent; break;
    case Qt::Key_Right:
        if (std::size_t(n.step + 1) < columns_.size())
            for (int c : columns_[std::size_t(n.step + 1)])
                if (record_->nodes[std::size_t(c)].parent == cur) {
                    next = c;
                    break;
                }
        break;
    case Qt::Key_Up: next = row > 0 ? col[std::size_t(row - 1)] : -1; break;
    case Qt::Key_Down: next = row + 1 < int(col.size()) ? col[std::size_t(row + 1)] : -1; break;
    default: return QWidget::keyPressEvent(e);
    }
    if (selected_ < 0)
        next = 0;
    if (next >= 0) {
        setSelected(next);
        emit nodeClicked(next);
    }
}

BeamTreeView::BeamTreeView(QWidget* parent) : QWidget(parent)
{
    hint_ = new QLabel(this);
    hint_->setWordWrap(true);
    diagram_ = new BeamTreeDiagram;
    scroll_ = new QScrollArea(this);
    scroll_->setWidget(diagram_);
    scroll_->setWidgetResizable(false);
    scroll_->setMinimumHeight(110);
    nodeInfo_ = new QLabel(this);
    nodeInfo_->setWordWrap(true);
    nodeInfo_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layerLabel_ = new QLabel(this);
    layerBox_ = new QComboBox(this);
    headBox_ = new QComboBox(this);
    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("beamTreeCross"));
    plot_->setMinimumSize(300, 160);
    heat_ = makeHeatmap(plot_, true, sequentialGradient());
    title_ = addTitle(plot_, QString(), pointFont(10, true));
    enableHoverReadout(plot_, [this](QCustomPlot*, QPoint px) {
        int row = 0, col = 0;
        if (!heatmapCellAt(heat_, px, &row, &col))
            return QString();
        return tr("%1 → %2: %3")
            .arg(rowLabels_.value(row), record_ ? record_->source.value(col) : QString())
            .arg(heatmapCell(heat_, row, col), 0, 'f', 3);
    });

    auto* controls = new QHBoxLayout;
    controls->addWidget(layerLabel_);
    controls->addWidget(layerBox_);
    controls->addWidget(headBox_);
    controls->addStretch(1);
    auto* lower = new QWidget(this);
    auto* lowerLayout = new QVBoxLayout(lower);
    lowerLayout->setContentsMargins(0, 0, 0, 0);
    lowerLayout->addWidget(nodeInfo_);
    lowerLayout->addLayout(controls);
    lowerLayout->addWidget(plot_, 1);
    legend_ = new Legend(this);
    auto* upper = new QWidget(this);
    auto* upperLayout = new QVBoxLayout(upper);
    upperLayout->setContentsMargins(0, 0, 0, 0);
    upperLayout->setSpacing(2);
    upperLayout->addWidget(legend_);
    upperLayout->addWidget(scroll_, 1);
    auto* split = split_ = new QSplitter(Qt::Vertical, this);
    split->addWidget(upper);
    split->addWidget(lower);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(hint_);
    layout->addWidget(split, 1);
    split->setSizes({1000, 1000});

    connect(diagram_, &BeamTreeDiagram::nodeClicked, this, [this](int id) { selectNode(id); });
    connect(layerBox_, &QComboBox::currentIndexChanged, this, [this] { drawCross(); });
    connect(headBox_, &QComboBox::currentIndexChanged, this, [this] { drawCross(); });
    retranslate();
}

void BeamTreeView::retranslate()
{
    hint_->setText(tr("Beam search keeps the k likeliest prefixes at every step. Choose “Beam "
                      "search” and translate to see its tree: kept, finished and pruned "
                      "hypotheses; hover a node for its log-probability and scores, click it for "
                      "its prefix's cross-attention."));
    layerLabel_->setText(tr("Cross-attention of the selected node's prefix:"));
    layerBox_->setToolTip(tr("Decoder layer of the cross-attention"));
    headBox_->setToolTip(tr("Attention head"));
    plot_->xAxis->setLabel(tr("source token (key)"));
    plot_->yAxis->setLabel(tr("token produced"));
    setHeatmapPlaceholder(heat_, tr("Click a node of the tree\nto see its prefix's cross-attention"));
    nameChoices();
    drawCross();
}

void BeamTreeView::nameChoices()
{
    for (int l = 0; l < layerBox_->count(); ++l)
        layerBox_->setItemText(l, tr("layer %1").arg(l + 1));
    for (int h = 0; h < headBox_->count(); ++h)
        headBox_->setItemText(h, tr("head %1").arg(h + 1));
}

void BeamTreeView::changeEvent(QEvent* e)
{
    QWidget::changeEvent(e);
    if (e->type() == QEvent::LanguageChange)
        retranslate();
}

void BeamTreeView::setRecord(BeamTreeRecordPtr record)
{
    record_ = (record && !record->empty()) ? std::move(record) : nullptr;
    const int layers = record_ ? record_->layers : 0, heads = record_ ? record_->heads : 0;
    if (layerBox_->count() != layers || headBox_->count() != heads) {
        const QSignalBlocker b1(layerBox_), b2(headBox_);
        layerBox_->clear();
        headBox_->clear();
        for (int l = 0; l < layers; ++l)
            layerBox_->addItem(QString());
        for (int h = 0; h < heads; ++h)
            headBox_->addItem(QString());
        layerBox_->setCurrentIndex(layers - 1);
        headBox_->setCurrentIndex(0);
        nameChoices();
    }
    hint_->setVisible(!record_);
    legend_->setVisible(record_ != nullptr);
    diagram_->setRecord(record_);
    fitTree();
    const int last = record_ && !record_->best.empty() ? record_->best.back() : -1;
    selectNode(last);
}

void BeamTreeView::selectNode(int id)
{
    diagram_->setSelected(id);
    scrollToSelected();
    drawCross();
}

void BeamTreeView::scrollToSelected()
{
    const int shown = diagram_->selected();
    if (shown >= 0) {
        const QRectF r = diagram_->drawn()[std::size_t(shown)].rect;
        scroll_->ensureVisible(int(r.center().x()), int(r.center().y()), int(r.width()), int(r.height()));
    }
}

void BeamTreeView::fitTree()
{
    // The tree whole when it fits in 55 % of the height, the rest for its cross-attention.
    const int total = split_->height();
    if (!record_ || total <= 0)
        return;
    const int tree = std::min(diagram_->sizeHint().height() + legend_->minimumHeight()
                                  + scroll_->horizontalScrollBar()->sizeHint().height() + 10,
                              std::max(total * 55 / 100, 160));
    split_->setSizes({tree, std::max(total - tree, 160)});
}

void BeamTreeView::showEvent(QShowEvent* e)
{
    QWidget::showEvent(e);
    // Laid out only now when the tree came while the tab was hidden.
    QTimer::singleShot(0, this, [this] {
        fitTree();
        scrollToSelected();
    });
}

void BeamTreeView::setLayer(int layer)
{
    layerBox_->setCurrentIndex(layer);
}

void BeamTreeView::setHead(int head)
{
    headBox_->setCurrentIndex(head);
}

int BeamTreeView::layer() const
{
    return layerBox_->currentIndex();
}

int BeamTreeView::head() const
{
    return headBox_->currentIndex();
}

void BeamTreeView::drawCross()
{
    const int id = diagram_->selected();
    rowLabels_.clear();
    if (!record_ || id < 0) {
        nodeInfo_->setText(record_ ? tr("Click a node (or use the arrow keys) to see its prefix.") : QString());
        title_->setText(QString());
        setHeatmapData(heat_, 0, 0, [](int, int) { return 0.0; });
        replotIfVisible(plot_);
        return;
    }
    const BeamTreeRecord& r = *record_;
    QStringList prefix;
    for (int n : r.path(id))
        prefix << r.tokens.value(n);
    nodeInfo_->setText(diagram_->toolTipOf(id).replace(QLatin1Char('\n'), QStringLiteral(" · ")));
    const auto rows = r.prefixCross(id, layer(), head());
    for (int n : r.path(id))
        if (r.nodes[std::size_t(n)].parent >= 0)
            rowLabels_ << r.tokens.value(n);
    if (rows.empty()) {
        title_->setText(tr("The root <s> has no token of its own: click a later node"));
        setHeatmapData(heat_, 0, 0, [](int, int) { return 0.0; });
    } else {
        title_->setText(tr("Cross-attention of “%1” · layer %2 · head %3")
                            .arg(prefix.join(QLatin1Char(' ')))
                            .arg(layer() + 1)
                            .arg(head() + 1));
        setHeatmapData(heat_, int(rows.size()), r.srcLen(),
                       [&](int q, int s) { return double(rows[std::size_t(q)][std::size_t(s)]); },
                       rowLabels_, r.source);
    }
    replotIfVisible(plot_);
}

}  // namespace as::ui
