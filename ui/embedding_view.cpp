// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "embedding_view.h"

#include <QEvent>
#include <QComboBox>
#include <QStandardItemModel>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace as::ui {

namespace {

QString percent(double share)
{
    return QString::number(100.0 * share, 'f', 1) + QStringLiteral(" %");
}

// embeddingTableName(t), in the window's language.
QString tableName(EmbeddingTable t)
{
    switch (t) {
    case EmbeddingTable::Source: return EmbeddingView::tr("source embedding");
    case EmbeddingTable::Target: return EmbeddingView::tr("target embedding");
    case EmbeddingTable::Generator: return EmbeddingView::tr("generator (output rows)");
    }
    return {};
}

QString tableNote(EmbeddingTable t, Tie tie)
{
    // A tied model (core/SPEC.md §2.6): the generator's rows are the target embedding's, and with
    // tie=all the source embedding's too.
    if (t == EmbeddingTable::Generator && tie != Tie::None)
        return EmbeddingView::tr("Generator: the output row of each target token (its logit is the "
                                 "row · the decoder's state + bias). Tied: the same matrix as the "
                                 "target embedding, used without its √d_model scale "
                                 "(core/SPEC.md §2.6).");
    if (t == EmbeddingTable::Source && tie == Tie::All)
        return EmbeddingView::tr("Source embedding: the encoder's input vector of each token. "
                                 "Tied: one matrix with the target embedding and the generator, "
                                 "over one shared vocabulary (core/SPEC.md §2.6).");
    switch (t) {
    case EmbeddingTable::Source:
        return EmbeddingView::tr("Source embedding: the encoder's input vector of each source token.");
    case EmbeddingTable::Target:
        return EmbeddingView::tr("Target embedding: the decoder's input vector of each target token.");
    case EmbeddingTable::Generator:
        return EmbeddingView::tr("Generator: the output row of each target token (its logit is the "
                                 "row · the decoder's state + bias). Not tied to the target "
                                 "embedding: a parameter of its own (core/SPEC.md §2.6).");
    }
    return {};
}

}  // namespace

EmbeddingView::EmbeddingView(QWidget* parent) : QWidget(parent)
{
    qRegisterMetaType<as::EmbeddingTable>();
    qRegisterMetaType<as::EmbeddingRecordPtr>();
    qRegisterMetaType<as::NeighboursRecordPtr>();
    table_ = new QComboBox(this);
    for (EmbeddingTable t : {EmbeddingTable::Source, EmbeddingTable::Target, EmbeddingTable::Generator})
        table_->addItem(QString(), int(t));
    note_ = new QLabel(this);
    note_->setWordWrap(true);
    auto* bar = new QHBoxLayout;
    tableLabel_ = new QLabel(this);
    bar->addWidget(tableLabel_);
    bar->addWidget(table_);
    bar->addWidget(note_, 1);

    plot_ = new QCustomPlot(this);
    plot_->setMinimumSize(320, 260);
    title_ = addTitle(plot_, QString(), font());
    points_ = new QCPCurve(plot_->xAxis, plot_->yAxis);
    points_->setLineStyle(QCPCurve::lsNone);
    // Translucent discs of the series colour: the cloud's density shows.
    points_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(0, 0, 0, 150),
                                             QColor(0, 0, 0, 110), 5));
    setSeriesColour(points_, 0);
    marked_ = new QCPCurve(plot_->xAxis, plot_->yAxis);
    marked_->setLineStyle(QCPCurve::lsNone);
    marked_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::black, 2),
                                             Qt::NoBrush, 10));
    setSeriesColour(marked_, 3);
    chosen_ = new QCPCurve(plot_->xAxis, plot_->yAxis);
    chosen_->setLineStyle(QCPCurve::lsNone);
    chosen_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, Qt::black, Qt::black, 9));
    setSeriesColour(chosen_, 3);
    // The marks above the labels (items of the main layer, drawn after the points).
    plot_->addLayer(QStringLiteral("marks"), plot_->layer(QStringLiteral("main")), QCustomPlot::limAbove);
    marked_->setLayer(QStringLiteral("marks"));
    chosen_->setLayer(QStringLiteral("marks"));
    connect(plot_, &QCustomPlot::afterLayout, this, [this] { placeLabels(); });
    connect(plot_, &QCustomPlot::mousePress, this, [this](QMouseEvent* e) {
        const int id = pointAt(e->pos());
        if (id >= 0)
            selectToken(id);
    });
    enableHoverReadout(plot_, [this](QCustomPlot*, QPoint p) {
        const int id = pointAt(p);
        if (id < 0)
            return QString();
        const std::size_t i = std::size_t(id);
        return tr("%1 (id %2)\nPC1 %3 · PC2 %4\nclick for its nearest neighbours")
            .arg(record_->tokens.value(id))
            .arg(id)
            .arg(record_->x[i], 0, 'g', 4)
            .arg(record_->y[i], 0, 'g', 4);
    });

    heading_ = new QLabel(this);
    heading_->setWordWrap(true);
    list_ = new QTreeWidget(this);
    list_->setColumnCount(3);
    list_->setRootIsDecorated(false);
    list_->header()->setStretchLastSection(false);
    list_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    list_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    list_->header()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    connect(list_, &QTreeWidget::itemDoubleClicked, this, [this](QTreeWidgetItem* item) {
        selectToken(item->text(1).toInt());
    });
    auto* side = new QWidget(this);
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(heading_);
    sideLayout->addWidget(list_, 1);

    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(panel(plot_, [this] { return csv(); }, this));
    split->addWidget(side);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setSizes({720, 300});

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(split, 1);

    connect(table_, &QComboBox::currentIndexChanged, this, [this] {
        note_->setText(tableNote(table(), tie_));
        selected_ = -1;
        neighbours_.reset();
        showNeighbours();
        refresh();
    });
    retranslate();
}

void EmbeddingView::retranslate()
{
    for (int i = 0; i < table_->count(); ++i)
        table_->setItemText(i, tableName(EmbeddingTable(table_->itemData(i).toInt())));
    table_->setToolTip(tr("Which table of token vectors to project"));
    note_->setText(tableNote(table(), tie_));
    tableLabel_->setText(tr("Table"));
    points_->setName(tr("tokens"));
    marked_->setName(tr("its nearest neighbours"));
    chosen_->setName(tr("the token clicked"));
    list_->setHeaderLabels({tr("token"), tr("id"), tr("cosine")});
    list_->setToolTip(tr("Double-click a neighbour to select it"));
    redraw();          // the title and axes
    showNeighbours();  // the heading
}

void EmbeddingView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}


EmbeddingTable EmbeddingView::table() const
{
    return EmbeddingTable(table_->currentData().toInt());
}

void EmbeddingView::setTable(EmbeddingTable t)
{
    table_->setCurrentIndex(table_->findData(int(t)));
}

void EmbeddingView::setHasSource(bool has)
{
    auto* items = qobject_cast<QStandardItemModel*>(table_->model());
    const int source = table_->findData(int(EmbeddingTable::Source));
    if (QStandardItem* item = items ? items->item(source) : nullptr; item && item->isEnabled() != has) {
        item->setEnabled(has);
        if (!has && table() == EmbeddingTable::Source)
            setTable(EmbeddingTable::Target);
    }
}

void EmbeddingView::refresh()
{
    emit embeddingRequested(table());
}

void EmbeddingView::reset()
{
    record_.reset();
    neighbours_.reset();
    selected_ = -1;
    redraw();
    showNeighbours();
}

void EmbeddingView::setRecord(EmbeddingRecordPtr record)
{
    if (!record || record->table != table())
        return;
    record_ = std::move(record);
    if (record_->tie != tie_) {
        tie_ = record_->tie;
        note_->setText(tableNote(table(), tie_));
    }
    redraw();
    // The neighbours follow the weights too.
    if (selected_ >= 0 && (!neighbours_ || neighbours_->step < record_->step))
        emit neighboursRequested(table(), selected_);
}

void EmbeddingView::setNeighbours(NeighboursRecordPtr record)
{
    if (!record || record->table != table() || record->id != selected_)
        return;
    neighbours_ = std::move(record);
    showNeighbours();
    redraw();
}

void EmbeddingView::selectToken(int id)
{
    selected_ = id;
    emit neighboursRequested(table(), id);
}

void EmbeddingView::redraw()
{
    for (QCPItemText* label : labels_)
        plot_->removeItem(label);
    labels_.clear();
    points_->data()->clear();
    marked_->data()->clear();
    chosen_->data()->clear();
    if (!record_) {
        title_->setText(tr("Embedding space: computed while this tab is shown"));
        plot_->xAxis->setLabel(tr("PC1"));
        plot_->yAxis->setLabel(tr("PC2"));
        replotIfVisible(plot_);
        return;
    }
    const EmbeddingRecord& r = *record_;
    const int shown = int(r.x.size());
    QVector<QCPCurveData> data;
    data.reserve(shown);
    for (int i = 0; i < shown; ++i)
        data.append(QCPCurveData(i, r.x[std::size_t(i)], r.y[std::size_t(i)]));
    points_->data()->set(data, true);
    if (neighbours_) {  // ids: drawn where this record has them
        QVector<QCPCurveData> marks, chosen;
        const auto mark = [&](QVector<QCPCurveData>& to, int id) {
            if (id < shown)
                to.append(QCPCurveData(to.size(), r.x[std::size_t(id)], r.y[std::size_t(id)]));
        };
        mark(chosen, neighbours_->id);
        for (const Neighbour& nb : neighbours_->neighbours)
            mark(marks, nb.id);
        marked_->data()->set(marks, true);
        chosen_->data()->set(chosen, true);
    }
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    // In order of priority (placeLabels): the token clicked, however rare; the words, most
    // frequent first; the specials.
    std::vector<int> labelled;
    if (neighbours_ && neighbours_->id < shown)
        labelled.push_back(neighbours_->id);
    for (int i = Vocab::kSpecials; i < std::min(shown, kLabels); ++i)
        if (labelled.empty() || i != labelled.front())
            labelled.push_back(i);
    for (int i = 0; i < std::min(shown, Vocab::kSpecials); ++i)
        if (labelled.empty() || i != labelled.front())
            labelled.push_back(i);
    for (int i : labelled) {
        auto* label = new QCPItemText(plot_);
        label->position->setCoords(r.x[std::size_t(i)], r.y[std::size_t(i)]);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        label->setPadding(QMargins(2, 0, 2, 0));
        label->setText(r.tokens.value(i));
        label->setFont(small);
        // On a box of the background's colour, readable over the cloud; ink from the palette
        // (plot_tools.h, applyPalette below).
        label->setBrush(legendBrush(palette(), 190));
        // The specials (<pad>, <s>, </s>, <unk>) are not words: greyed.
        if (i < Vocab::kSpecials)
            label->setProperty(kInkProperty, QStringLiteral("muted"));
        if (neighbours_ && i == neighbours_->id) {
            QFont bold = small;
            bold.setBold(true);
            label->setFont(bold);
            label->setProperty(kInkProperty, QStringLiteral("alert"));
        }
        labels_.push_back(label);
    }
    applyPalette(plot_);
    plot_->xAxis->setLabel(tr("PC1 (%1 of the variance)").arg(percent(r.explained(0))));
    plot_->yAxis->setLabel(tr("PC2 (%1 of the variance)").arg(percent(r.explained(1))));
    const QString which = shown < r.vocabSize
                              ? tr("the %1 most frequent of %2 tokens shown").arg(shown).arg(r.vocabSize)
                              : tr("all %1 tokens").arg(r.vocabSize);
    title_->setText(tr("%1 at step %2 · %3 · principal components of all %4 rows")
                        .arg(tableName(r.table))
                        .arg(r.step)
                        .arg(which)
                        .arg(r.vocabSize));
    // Fixed margins around the cloud: labels of the outermost points stay inside.
    const auto [xlo, xhi] = std::minmax_element(r.x.begin(), r.x.end());
    const auto [ylo, yhi] = std::minmax_element(r.y.begin(), r.y.end());
    const double xm = std::max(1e-9, *xhi - *xlo) * 0.06, ym = std::max(1e-9, *yhi - *ylo) * 0.06;
    plot_->xAxis->setRange(*xlo - xm, *xhi + 2 * xm);  // room on the right for labels
    plot_->yAxis->setRange(*ylo - ym, *yhi + 2 * ym);
    replotIfVisible(plot_);
}

void EmbeddingView::showNeighbours()
{
    list_->clear();
    if (!neighbours_) {
        heading_->setText(tr("Click a token to list its 10 nearest neighbours by cosine similarity."));
        return;
    }
    const NeighboursRecord& n = *neighbours_;
    heading_->setText(tr("Nearest to “%1” (id %2) in the %3, by cosine similarity, at step %4")
                          .arg(n.token)
                          .arg(n.id)
                          .arg(tableName(n.table))
                          .arg(n.step));
    for (std::size_t i = 0; i < n.neighbours.size(); ++i) {
        auto* item = new QTreeWidgetItem(list_);
        item->setText(0, n.tokens.value(int(i)));
        item->setText(1, QString::number(n.neighbours[i].id));
        item->setText(2, QString::number(n.neighbours[i].cosine, 'f', 3));
        item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
        item->setTextAlignment(2, Qt::AlignRight | Qt::AlignVCenter);
    }
}

void EmbeddingView::placeLabels()
{
    std::vector<QRectF> placed;
    for (QCPItemText* label : labels_) {
        const QRectF rect = QRectF(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition()).normalized();
        const bool free = std::none_of(placed.begin(), placed.end(), [&](const QRectF& r) { return r.intersects(rect); });
        label->setVisible(free);
        if (free)
            placed.push_back(rect);
    }
}

QRectF EmbeddingView::labelRect(int index) const
{
    const QCPItemText* label = labels_.at(std::size_t(index));
    return QRectF(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition()).normalized();
}

QStringList EmbeddingView::shownLabels() const
{
    QStringList out;
    for (const QCPItemText* label : labels_)
        if (label->visible())
            out << label->text();
    return out;
}

QStringList EmbeddingView::labels() const
{
    QStringList out;
    for (const QCPItemText* label : labels_)
        out << label->text();
    return out;
}

QPoint EmbeddingView::pointPixel(int id) const
{
    if (!record_ || id < 0 || id >= int(record_->x.size()))
        return {-1, -1};
    return QPoint(int(std::lround(plot_->xAxis->coordToPixel(record_->x[std::size_t(id)]))),
                  int(std::lround(plot_->yAxis->coordToPixel(record_->y[std::size_t(id)]))));
}

int EmbeddingView::pointAt(QPoint pixel) const
{
    if (!record_)
        return -1;
    int best = -1;
    double bestDist = 8.0 * 8.0;
    for (std::size_t i = 0; i < record_->x.size(); ++i) {
        const double dx = plot_->xAxis->coordToPixel(record_->x[i]) - pixel.x();
        const double dy = plot_->yAxis->coordToPixel(record_->y[i]) - pixel.y();
        if (dx * dx + dy * dy < bestDist) {
            bestDist = dx * dx + dy * dy;
            best = int(i);
        }
    }
    return best;
}

QString EmbeddingView::csv() const
{
    QString out = QStringLiteral("id,token,pc1,pc2\n");
    if (!record_)
        return out;
    for (std::size_t i = 0; i < record_->x.size(); ++i) {
        QString token = record_->tokens.value(int(i));
        token.replace(QLatin1Char('"'), QStringLiteral("\"\""));
        out += QStringLiteral("%1,\"%2\",%3,%4\n")
                   .arg(i)
                   .arg(token)
                   .arg(record_->x[i], 0, 'g', 9)
                   .arg(record_->y[i], 0, 'g', 9);
    }
    return out;
}

}  // namespace as::ui
