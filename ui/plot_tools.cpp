#include "plot_tools.h"

#include "io/atomic_file.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QVBoxLayout>
#include <QMenu>
#include <QPointer>
#include <QTimer>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QToolTip>

#include <cmath>
#include <limits>

namespace as::ui {

void enableHoverReadout(QCustomPlot* plot, std::function<QString(QCustomPlot*, QPoint)> text)
{
    plot->setMouseTracking(true);
    QObject::connect(plot, &QCustomPlot::mouseMove, plot, [plot, text](QMouseEvent* e) {
        const QString t = text(plot, e->pos());
        if (t.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(plot->mapToGlobal(e->pos()) + QPoint(14, 10), t, plot);
    });
}

namespace {

constexpr char kStale[] = "as_replotWhenShown";
constexpr char kWatched[] = "as_replotFilterInstalled";

// Plots waiting for a replot, in the order asked, each once; a zero-interval timer replots one
// per timeout, and Qt runs other events and timers between timeouts.
class ReplotQueue : public QObject {
public:
    ReplotQueue()
    {
        timer_.setInterval(0);
        connect(&timer_, &QTimer::timeout, this, [this] { replotNext(); });
    }
    // One plot (skipping those destroyed while they waited); false when none was left.
    bool replotNext()
    {
        bool replotted = false;
        while (!pending_.isEmpty() && !replotted) {
            const QPointer<QCustomPlot> plot = pending_.takeFirst();
            if (plot) {
                plot->replot(QCustomPlot::rpRefreshHint);
                replotted = true;
            }
        }
        if (pending_.isEmpty())
            timer_.stop();
        return replotted;
    }
    void add(QCustomPlot* plot)
    {
        for (const QPointer<QCustomPlot>& p : pending_)
            if (p == plot)
                return;
        pending_.append(plot);
        if (!timer_.isActive())
            timer_.start();
    }

private:
    QList<QPointer<QCustomPlot>> pending_;
    QTimer timer_;
};

ReplotQueue& replotQueue()
{
    static ReplotQueue* queue = new ReplotQueue;  // GUI thread only; lives as long as the app
    return *queue;
}

void queueReplot(QCustomPlot* plot)
{
    replotQueue().add(plot);
}

// Replots a plot marked stale when it is shown (showing a tab sends Show to its widgets).
class ReplotWhenShown : public QObject {
public:
    using QObject::QObject;
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::Show && watched->property(kStale).toBool()) {
            watched->setProperty(kStale, false);
            queueReplot(static_cast<QCustomPlot*>(watched));
        }
        return false;
    }
};

}  // namespace

void replotIfVisible(QCustomPlot* plot)
{
    if (plot->isVisible()) {
        queueReplot(plot);
        return;
    }
    plot->setProperty(kStale, true);
    // A marker, not findChild: findChild needs a Q_OBJECT class, else it matches any child.
    if (!plot->property(kWatched).toBool()) {
        plot->installEventFilter(new ReplotWhenShown(plot));
        plot->setProperty(kWatched, true);
    }
}

void replotQueuedNow()
{
    while (replotQueue().replotNext()) {
    }
}

namespace {
bool failWith(QString* error, const QString& msg)
{
    if (error)
        *error = msg;
    return false;
}
}  // namespace

bool saveText(const QString& path, const QString& text, QString* error)
{
    return writeFileAtomically(path, text.toUtf8(), error);
}

bool savePlotPng(QCustomPlot* plot, const QString& path, QString* error, int width, int height)
{
    // Render into memory, then write atomically.
    const QPixmap pm = plot->toPixmap(width, height);
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || !pm.save(&f, "PNG") || !f.commit())
        return failWith(error, QStringLiteral("cannot write %1: %2").arg(path, f.errorString()));
    return true;
}

bool savePlotSvg(QCustomPlot* plot, const QString& path, QString* error)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return failWith(error, QStringLiteral("cannot write %1: %2").arg(path, f.errorString()));
    {
        QSvgGenerator gen;
        gen.setOutputDevice(&f);
        gen.setSize(plot->size());
        gen.setViewBox(QRect(QPoint(0, 0), plot->size()));
        gen.setTitle(plot->objectName());
        QCPPainter painter(&gen);
        plot->toPainter(&painter, plot->width(), plot->height());
    }
    if (!f.commit())
        return failWith(error, QStringLiteral("cannot write %1: %2").arg(path, f.errorString()));
    return true;
}

QToolButton* makeExportButton(QCustomPlot* plot, std::function<QString()> csv, QWidget* parent)
{
    auto* button = new QToolButton(parent);
    button->setText(QObject::tr("Export"));
    button->setToolTip(QObject::tr("Export this plot as PNG or SVG, or its data as CSV"));
    button->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(button);
    auto ask = [parent](const QString& title, const QString& filter) {
        return QFileDialog::getSaveFileName(parent, title, QString(), filter);
    };
    auto report = [parent](bool ok, const QString& error) {
        if (!ok)
            QMessageBox::warning(parent, QObject::tr("Export failed"), error);
    };
    menu->addAction(QObject::tr("Export PNG…"), parent, [=] {
        const QString p = ask(QObject::tr("Export PNG"), QObject::tr("PNG image (*.png)"));
        QString e;
        if (!p.isEmpty())
            report(savePlotPng(plot, p, &e), e);
    });
    menu->addAction(QObject::tr("Export SVG…"), parent, [=] {
        const QString p = ask(QObject::tr("Export SVG"), QObject::tr("SVG image (*.svg)"));
        QString e;
        if (!p.isEmpty())
            report(savePlotSvg(plot, p, &e), e);
    });
    menu->addAction(QObject::tr("Export CSV…"), parent, [=] {
        const QString p = ask(QObject::tr("Export CSV"), QObject::tr("CSV data (*.csv)"));
        QString e;
        if (!p.isEmpty())
            report(saveText(p, csv(), &e), e);
    });
    button->setMenu(menu);
    return button;
}

QCPColorGradient sequentialGradient()
{
    // White to deep blue: weights near 0 recede, strong attention stands out.
    QCPColorGradient g;
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    g.setColorStopAt(0.0, QColor(255, 255, 255));
    g.setColorStopAt(0.25, QColor(198, 219, 239));
    g.setColorStopAt(0.5, QColor(107, 174, 214));
    g.setColorStopAt(0.75, QColor(33, 113, 181));
    g.setColorStopAt(1.0, QColor(8, 48, 107));
    return g;
}

QCPColorGradient divergingGradient()
{
    QCPColorGradient g;
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    g.setColorStopAt(0.0, QColor(5, 48, 97));
    g.setColorStopAt(0.25, QColor(67, 147, 195));
    g.setColorStopAt(0.5, QColor(247, 247, 247));
    g.setColorStopAt(0.75, QColor(214, 96, 77));
    g.setColorStopAt(1.0, QColor(103, 0, 31));
    return g;
}

Heatmap makeHeatmap(QCustomPlot* plot, bool withColorScale, const QCPColorGradient& gradient)
{
    Heatmap h;
    h.map = new QCPColorMap(plot->xAxis, plot->yAxis);
    h.map->setInterpolate(false);
    h.map->setTightBoundary(false);
    h.map->setGradient(gradient);
    plot->yAxis->setRangeReversed(true);  // row 0 at the top, as a matrix is read
    plot->axisRect()->setupFullAxesBox(false);
    if (withColorScale) {
        h.scale = new QCPColorScale(plot);
        plot->plotLayout()->addElement(0, 1, h.scale);
        h.scale->setType(QCPAxis::atRight);
        h.map->setColorScale(h.scale);
        h.scale->setGradient(gradient);
        auto* group = new QCPMarginGroup(plot);
        plot->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, group);
        h.scale->setMarginGroup(QCP::msBottom | QCP::msTop, group);
    }
    return h;
}

void setTokenTicks(QCPAxis* axis, const QStringList& labels)
{
    if (labels.isEmpty()) {
        axis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        axis->setTickLabelRotation(0);
        return;
    }
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (int i = 0; i < labels.size(); ++i)
        ticker->addTick(i, labels[i]);
    axis->setTicker(ticker);
    axis->setSubTicks(false);
    int longest = 0;
    for (const QString& l : labels)
        longest = std::max(longest, int(l.size()));
    const bool horizontal = axis->orientation() == Qt::Horizontal;
    axis->setTickLabelRotation(horizontal && (longest > 2 || labels.size() > 12) ? 60 : 0);
}

void setHeatmapData(Heatmap& h, int rows, int cols, const std::function<double(int, int)>& values,
                    const QStringList& rowLabels, const QStringList& colLabels, double lo,
                    double hi)
{
    h.rows = rows;
    h.cols = cols;
    QCPColorMapData* data = h.map->data();
    // Cell (r, c) is centred on (x = c, y = r). QCustomPlot widens the image by half a cell on
    // each side only along a dimension of more than one cell; a single row or column is given
    // its full extent here, else it is drawn zero pixels tall (or wide).
    auto extent = [](int n) { return n > 1 ? QCPRange(0, n - 1) : QCPRange(-0.5, 0.5); };
    data->setSize(std::max(cols, 1), std::max(rows, 1));
    data->setRange(extent(cols), extent(rows));
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            data->setCell(c, r, values(r, c));
    h.map->setDataRange(QCPRange(lo, hi));
    QCustomPlot* plot = h.map->parentPlot();
    plot->xAxis->setRange(-0.5, cols - 0.5);
    plot->yAxis->setRange(-0.5, rows - 0.5);
    setTokenTicks(plot->xAxis, colLabels);
    setTokenTicks(plot->yAxis, rowLabels);
}

bool heatmapCellAt(const Heatmap& h, QPoint pixel, int* row, int* col)
{
    if (!h.map || h.rows == 0 || h.cols == 0)
        return false;
    QCustomPlot* plot = h.map->parentPlot();
    if (!plot->axisRect()->rect().contains(pixel))
        return false;
    const int c = int(std::lround(plot->xAxis->pixelToCoord(pixel.x())));
    const int r = int(std::lround(plot->yAxis->pixelToCoord(pixel.y())));
    if (r < 0 || r >= h.rows || c < 0 || c >= h.cols)
        return false;
    *row = r;
    *col = c;
    return true;
}

void setIntegerTicks(QCPAxis* axis)
{
    QSharedPointer<QCPAxisTickerFixed> ticker(new QCPAxisTickerFixed);
    ticker->setTickStep(1.0);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    axis->setTicker(ticker);
    axis->setSubTicks(false);
}

double heatmapCell(const Heatmap& h, int row, int col)
{
    if (!h.map || row < 0 || col < 0 || row >= h.rows || col >= h.cols)
        return std::numeric_limits<double>::quiet_NaN();
    return h.map->data()->cell(col, row);
}

QString heatmapCsv(const Heatmap& h, const QString& corner, const QStringList& rowNames)
{
    QString out = corner;
    for (int c = 0; c < h.cols; ++c)
        out += QLatin1Char(',') + QString::number(c);
    out += QLatin1Char('\n');
    for (int r = 0; r < h.rows; ++r) {
        out += r < rowNames.size() ? rowNames[r] : QString::number(r);
        for (int c = 0; c < h.cols; ++c)
            out += QLatin1Char(',') + QString::number(h.map->data()->cell(c, r), 'g', 17);
        out += QLatin1Char('\n');
    }
    return out;
}

QCPTextElement* addTitle(QCustomPlot* plot, const QString& text, const QFont& base)
{
    auto* title =
        new QCPTextElement(plot, text, QFont(base.family(), base.pointSize() + 1, QFont::Bold));
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(0, 0, title);
    return title;
}

QWidget* panel(QCustomPlot* plot, std::function<QString()> csv, QWidget* parent)
{
    auto* w = new QWidget(parent);
    auto* v = new QVBoxLayout(w);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(2);
    auto* row = new QHBoxLayout;
    row->addStretch(1);
    row->addWidget(makeExportButton(plot, std::move(csv), w));
    v->addLayout(row);
    v->addWidget(plot, 1);
    return w;
}

}  // namespace as::ui
