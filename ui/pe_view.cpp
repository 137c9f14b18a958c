// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "pe_view.h"

#include "model/positional_encoding.h"
#include "train/snapshot.h"

#include <QComboBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

namespace as::ui {

namespace {

constexpr int kDefaultDModel = 64;
constexpr int kDefaultPositions = 100;
constexpr int kMaxPositions = 1000;
constexpr int kMaxLines = 4;
const int kLineSeries[kMaxLines] = {0, 3, 2, 4};  // seriesColour(): blue, red, green, purple

}  // namespace

PeView::PeView(QWidget* parent) : QWidget(parent)
{
    positionsBox_ = new QSpinBox(this);
    positionsBox_->setRange(1, kMaxPositions);
    positionsBox_->setValue(kDefaultPositions);
    positionsBox_->setKeyboardTracking(false);
    dModelBox_ = new QSpinBox(this);
    dModelBox_->setRange(2, 4096);
    dModelBox_->setValue(kDefaultDModel);
    dModelBox_->setKeyboardTracking(false);
    layoutBox_ = new QComboBox(this);
    layoutBox_->addItem(QString(), false);
    layoutBox_->addItem(QString(), true);
    dimsEdit_ = new QLineEdit(QStringLiteral("4, 5, 6, 7"), this);
    dimsEdit_->setMaximumWidth(160);
    lineDims_ = {4, 5, 6, 7};

    auto* controls = new QHBoxLayout;
    positionsLabel_ = new QLabel(this);
    dModelLabel_ = new QLabel(this);
    dimsLabel_ = new QLabel(this);
    controls->addWidget(positionsLabel_);
    controls->addWidget(positionsBox_);
    controls->addSpacing(12);
    controls->addWidget(dModelLabel_);
    controls->addWidget(dModelBox_);
    controls->addSpacing(12);
    controls->addWidget(dimsLabel_);
    controls->addWidget(dimsEdit_);
    controls->addSpacing(12);
    layoutLabel_ = new QLabel(this);
    layoutLabel_->setBuddy(layoutBox_);
    controls->addWidget(layoutLabel_);
    controls->addWidget(layoutBox_);
    controls->addStretch(1);

    // (a) PE as position x dimension.
    heatPlot_ = new QCustomPlot(this);
    heatPlot_->setObjectName(QStringLiteral("positionalEncodingHeatmap"));
    heat_ = makeHeatmap(heatPlot_, true, divergingGradient());
    heatPlot_->xAxis2->setTicks(false);  // the box's far sides: a frame, not a second scale
    heatPlot_->yAxis2->setTicks(false);
    heatTitle_ = addTitle(heatPlot_, QString(), font());

    // (b) chosen dimensions against position.
    linePlot_ = new QCustomPlot(this);
    linePlot_->setObjectName(QStringLiteral("positionalEncodingLines"));
    lineTitle_ = addTitle(linePlot_, QString(), font());
    linePlot_->yAxis->setRange(-1.1, 1.1);
    linePlot_->legend->setVisible(true);
    // The legend is one row under the title, where it never covers a curve.
    linePlot_->plotLayout()->insertRow(1);
    linePlot_->plotLayout()->addElement(1, 0, linePlot_->legend);
    linePlot_->plotLayout()->setRowStretchFactor(1, 0.001);
    linePlot_->legend->setFillOrder(QCPLegend::foColumnsFirst);
    linePlot_->legend->setBorderPen(Qt::NoPen);
    linePlot_->legend->setMargins(QMargins(4, 0, 4, 0));

    // (c) PE PE^T between positions.
    simPlot_ = new QCustomPlot(this);
    simPlot_->setObjectName(QStringLiteral("positionalEncodingSimilarity"));
    sim_ = makeHeatmap(simPlot_, true, divergingGradient());
    simPlot_->xAxis2->setTicks(false);  // the box's far sides: a frame, not a second scale
    simPlot_->yAxis2->setTicks(false);
    simTitle_ = addTitle(simPlot_, QString(), font());
    retranslate();

    for (QCustomPlot* p : plots())
        p->setMinimumSize(320, 240);

    auto* grid = new QGridLayout;
    grid->addWidget(panel(heatPlot_, [this] { return heatCsv(); }, this), 0, 0);
    grid->addWidget(panel(simPlot_, [this] { return simCsv(); }, this), 0, 1);
    grid->addWidget(panel(linePlot_, [this] { return lineCsv(); }, this), 1, 0, 1, 2);
    grid->setRowStretch(0, 3);
    grid->setRowStretch(1, 2);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addLayout(grid, 1);

    enableHoverReadout(heatPlot_, [this](QCustomPlot*, QPoint p) {
        int r = 0, c = 0;
        if (!heatmapCellAt(heat_, p, &r, &c))
            return QString();
        return tr("position %1, dimension %2: %3")
            .arg(r)
            .arg(c)
            .arg(QString::number(heatmapCell(heat_, r, c), 'f', 4));
    });
    enableHoverReadout(simPlot_, [this](QCustomPlot*, QPoint p) {
        int r = 0, c = 0;
        if (!heatmapCellAt(sim_, p, &r, &c))
            return QString();
        return tr("positions %1 and %2: PE·PE = %3")
            .arg(r)
            .arg(c)
            .arg(QString::number(heatmapCell(sim_, r, c), 'f', 3));
    });
    enableHoverReadout(linePlot_, [this](QCustomPlot* plot, QPoint p) {
        if (!plot->axisRect()->rect().contains(p))
            return QString();
        const int pos = int(std::lround(plot->xAxis->pixelToCoord(p.x())));
        if (pos < 0 || pos >= heat_.rows)
            return QString();
        // The curve nearest to the mouse vertically at that position.
        int bestDim = -1;
        double bestDist = std::numeric_limits<double>::infinity(), bestValue = 0;
        for (int i = 0; i < plot->graphCount(); ++i) {
            const int dim = plot->graph(i)->property("dim").toInt();
            const double v = heatmapCell(heat_, pos, dim);
            const double d = std::abs(plot->yAxis->coordToPixel(v) - p.y());
            if (d < bestDist) {
                bestDist = d;
                bestDim = dim;
                bestValue = v;
            }
        }
        if (bestDim < 0)
            return QString();
        return tr("position %1, dimension %2: %3")
            .arg(pos)
            .arg(bestDim)
            .arg(QString::number(bestValue, 'f', 4));
    });

    connect(positionsBox_, &QSpinBox::valueChanged, this, [this] { rebuild(); });
    connect(dModelBox_, &QSpinBox::valueChanged, this, [this] { rebuild(); });
    connect(layoutBox_, &QComboBox::currentIndexChanged, this, [this] { rebuild(); });
    connect(dimsEdit_, &QLineEdit::editingFinished, this, [this] {
        QList<int> dims;
        const QStringList parts =
            dimsEdit_->text().split(QRegularExpression(QStringLiteral("[^0-9]+")),
                                    Qt::SkipEmptyParts);
        for (const QString& s : parts)
            if (dims.size() < kMaxLines)
                dims.push_back(s.toInt());
        setLineDims(dims);
    });

    rebuild();
}

void PeView::reset()
{
    lastSnapshotDModel_ = 0;
    lastSnapshotLayout_ = -1;
    setDModel(kDefaultDModel);
    setHalves(false);
}

void PeView::applySnapshot(const TrainingSnapshot& snapshot)
{
    const int layout = snapshot.config.position == Position::SinusoidalHalves ? 1 : 0;
    if (layout != lastSnapshotLayout_) {
        lastSnapshotLayout_ = layout;
        setHalves(layout == 1);
    }
    const int d = snapshot.config.d_model;
    if (d <= 0 || d == lastSnapshotDModel_)
        return;
    lastSnapshotDModel_ = d;
    setDModel(d);
}

void PeView::setHalves(bool halves)
{
    if (halves == this->halves())
        return;
    const QSignalBlocker block(layoutBox_);
    layoutBox_->setCurrentIndex(halves ? 1 : 0);
    rebuild();
}

bool PeView::halves() const { return layoutBox_->currentData().toBool(); }

void PeView::setDModel(int dModel)
{
    if (dModel == dModelBox_->value())
        return;
    const QSignalBlocker block(dModelBox_);
    dModelBox_->setValue(dModel);
    rebuild();
}

void PeView::setPositions(int positions)
{
    if (positions == positionsBox_->value())
        return;
    const QSignalBlocker block(positionsBox_);
    positionsBox_->setValue(positions);
    rebuild();
}

void PeView::setLineDims(const QList<int>& dims)
{
    lineDims_ = dims.mid(0, kMaxLines);
    QStringList text;
    for (int d : lineDims_)
        text << QString::number(d);
    dimsEdit_->setText(text.join(QStringLiteral(", ")));
    rebuildLines();
    replotIfVisible(linePlot_);
}

int PeView::positions() const { return positionsBox_->value(); }

int PeView::dModel() const { return dModelBox_->value(); }

double PeView::cellValue(int pos, int dim) const { return heatmapCell(heat_, pos, dim); }

double PeView::similarityValue(int a, int b) const { return heatmapCell(sim_, a, b); }

void PeView::rebuild()
{
    const int n = positions();
    const int d = dModel();
    const Mat<double> pe = positionalEncoding<double>(n, d, halves());  // [positions, d_model]
    setHeatmapData(heat_, n, d, [&pe](int r, int c) { return pe(r, c); }, {}, {}, -1.0, 1.0);

    const Mat<double> sim = pe * pe.transpose();  // [positions, positions]; diagonal = d/2
    const double half = 0.5 * d;
    setHeatmapData(sim_, n, n, [&sim](int r, int c) { return sim(r, c); }, {}, {}, -half, half);
    for (QCPAxis* axis : {heatPlot_->xAxis, heatPlot_->yAxis, simPlot_->xAxis, simPlot_->yAxis})
        setIntegerTicks(axis);

    rebuildLines();
    for (QCustomPlot* p : plots())
        replotIfVisible(p);
}

void PeView::retranslate()
{
    positionsBox_->setToolTip(tr("Number of positions drawn (rows of the heatmap)"));
    dModelBox_->setToolTip(tr("Model width; follows the training configuration"));
    dimsEdit_->setToolTip(tr("Up to four dimensions drawn against position, e.g. 4, 5, 6, 7"));
    positionsLabel_->setText(tr("Positions"));
    dModelLabel_->setText(tr("d_model"));
    dimsLabel_->setText(tr("Dimensions"));
    layoutLabel_->setText(tr("Layout"));
    layoutBox_->setItemText(0, tr("sin, cos interleaved (Annotated Transformer)"));
    layoutBox_->setItemText(1, tr("sines, then cosines (Marian)"));
    layoutBox_->setToolTip(tr("The same numbers in two orders of columns: sin and cos of each "
                              "frequency side by side, as The Annotated Transformer writes them, "
                              "or every sine first and every cosine after, as Marian's OPUS-MT "
                              "translators lay them out; a model opened with that layout shows it"));
    heat_.scale->axis()->setLabel(tr("PE value"));
    heatTitle_->setText(tr("Positional encoding PE[position, dimension]"));
    heatPlot_->xAxis->setLabel(tr("dimension"));
    heatPlot_->yAxis->setLabel(tr("position"));
    lineTitle_->setText(tr("Chosen dimensions against position"));
    linePlot_->xAxis->setLabel(tr("position"));
    linePlot_->yAxis->setLabel(tr("PE value"));
    nameLines();
    sim_.scale->axis()->setLabel(tr("dot product"));
    simTitle_->setText(tr("Similarity PE·PEᵀ between positions"));
    simPlot_->xAxis->setLabel(tr("position"));
    simPlot_->yAxis->setLabel(tr("position"));
    for (QCustomPlot* p : plots())
        replotIfVisible(p);
}

void PeView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void PeView::nameLines()
{
    for (int i = 0; i < linePlot_->graphCount(); ++i)
        linePlot_->graph(i)->setName(tr("dim %1").arg(linePlot_->graph(i)->property("dim").toInt()));
}

void PeView::rebuildLines()
{
    linePlot_->clearGraphs();
    const int n = heat_.rows;
    QVector<double> keys(n);
    for (int p = 0; p < n; ++p)
        keys[p] = p;
    int colour = 0;
    for (int dim : lineDims_) {
        if (dim < 0 || dim >= heat_.cols)
            continue;
        QVector<double> values(n);
        for (int p = 0; p < n; ++p)
            values[p] = heatmapCell(heat_, p, dim);
        QCPGraph* g = linePlot_->addGraph();
        g->setProperty("dim", dim);
        g->setPen(QPen(Qt::black, 1.8));
        setSeriesColour(g, kLineSeries[colour++ % kMaxLines]);
        g->setData(keys, values, true);
    }
    nameLines();
    linePlot_->xAxis->setRange(0, std::max(n - 1, 1));
    setIntegerTicks(linePlot_->xAxis);
}

QString PeView::heatCsv() const { return heatmapCsv(heat_, QStringLiteral("position\\dimension")); }

QString PeView::simCsv() const { return heatmapCsv(sim_, QStringLiteral("position\\position")); }

QString PeView::lineCsv() const
{
    QString out = QStringLiteral("position");
    for (int i = 0; i < linePlot_->graphCount(); ++i)
        out += QStringLiteral(",dim ") + QString::number(linePlot_->graph(i)->property("dim").toInt());
    out += QLatin1Char('\n');
    for (int p = 0; p < heat_.rows; ++p) {
        out += QString::number(p);
        for (int i = 0; i < linePlot_->graphCount(); ++i) {
            const auto data = linePlot_->graph(i)->data();
            out += QLatin1Char(',') + QString::number((data->constBegin() + p)->value, 'g', 17);
        }
        out += QLatin1Char('\n');
    }
    return out;
}

}  // namespace as::ui
