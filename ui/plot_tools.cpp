// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "plot_tools.h"

#include "io/atomic_file.h"

#include <QApplication>
#include <QEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QVBoxLayout>
#include <QMenu>
#include <QMessageBox>
#include <QPointer>
#include <QTimer>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QTextLayout>
#include <QTextOption>
#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

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
    if (!f.open(QIODevice::WriteOnly | QIODevice::Unbuffered) || !pm.save(&f, "PNG") || !f.commit())
        return failWith(error, QObject::tr("cannot write %1: %2").arg(path, f.errorString()));
    return true;
}

bool savePlotSvg(QCustomPlot* plot, const QString& path, QString* error)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Unbuffered))
        return failWith(error, QObject::tr("cannot write %1: %2").arg(path, f.errorString()));
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
        return failWith(error, QObject::tr("cannot write %1: %2").arg(path, f.errorString()));
    return true;
}

namespace {

// The Export button and its menu: its texts set in one place, again at every language change.
class ExportButton : public QToolButton {
public:
    ExportButton(QCustomPlot* plot, std::function<QString()> csv, QWidget* parent,
                 std::function<QString()> text)
        : QToolButton(parent), text_(std::move(text))
    {
        setPopupMode(QToolButton::InstantPopup);
        auto* menu = new QMenu(this);
        auto ask = [parent](const QString& title, const QString& filter) {
            return QFileDialog::getSaveFileName(parent, title, QString(), filter);
        };
        auto report = [parent](bool ok, const QString& error) {
            if (!ok)
                QMessageBox::warning(parent, QObject::tr("Export failed"), error);
        };
        png_ = menu->addAction(QString(), parent, [=] {
            const QString p = ask(QObject::tr("Export PNG"), QObject::tr("PNG image (*.png)"));
            QString e;
            if (!p.isEmpty())
                report(savePlotPng(plot, p, &e), e);
        });
        svg_ = menu->addAction(QString(), parent, [=] {
            const QString p = ask(QObject::tr("Export SVG"), QObject::tr("SVG image (*.svg)"));
            QString e;
            if (!p.isEmpty())
                report(savePlotSvg(plot, p, &e), e);
        });
        csv_ = menu->addAction(QString(), parent, [=] {
            const QString p = ask(QObject::tr("Export CSV"), QObject::tr("CSV data (*.csv)"));
            QString e;
            if (!p.isEmpty())
                report(saveText(p, csv(), &e), e);
        });
        setMenu(menu);
        retranslate();
    }

protected:
    void changeEvent(QEvent* event) override
    {
        if (event->type() == QEvent::LanguageChange)
            retranslate();
        QToolButton::changeEvent(event);
    }

private:
    void retranslate()
    {
        setText(text_ ? text_() : QObject::tr("Export"));
        setToolTip(QObject::tr("Export this plot as PNG or SVG, or its data as CSV"));
        png_->setText(QObject::tr("Export PNG…"));
        svg_->setText(QObject::tr("Export SVG…"));
        csv_->setText(QObject::tr("Export CSV…"));
    }

    std::function<QString()> text_;
    QAction *png_ = nullptr, *svg_ = nullptr, *csv_ = nullptr;
};

}  // namespace

QToolButton* makeExportButton(QCustomPlot* plot, std::function<QString()> csv, QWidget* parent,
                              std::function<QString()> text)
{
    followPalette(plot);
    return new ExportButton(plot, std::move(csv), parent, std::move(text));
}

namespace {

constexpr char kFitter[] = "as_layoutFitter";
constexpr double kSlant = 60.0;  // degrees: x tick labels when upright ones would be thinned more
constexpr double kLabelGap = 2.0;  // pixels between neighbouring tick labels, at least

// What QCustomPlot measures a tick label as (QCPAxisPainterPrivate::getTickLabelData).
QRect tickLabelBounds(const QFontMetrics& fm, const QString& text)
{
    return fm.boundingRect(0, 0, 0, 0, Qt::TextDontClip | Qt::AlignHCenter, text);
}

// Fits a plot's token tick labels and titles to its size in pixels. QCustomPlot builds the tick
// vectors while it computes the margins, from the axis rect of the previous layout; so this
// runs after every layout (afterLayout: replot, and export at another size, which lays out
// anew), chooses each axis's stride from the final axis length, and lays the plot out again
// when a stride or a title changed.
class LayoutFitter : public QObject {
public:
    static LayoutFitter* of(QCustomPlot* plot)
    {
        if (auto* f = plot->property(kFitter).value<QObject*>())
            return static_cast<LayoutFitter*>(f);  // set only here
        auto* f = new LayoutFitter(plot);
        plot->setProperty(kFitter, QVariant::fromValue(static_cast<QObject*>(f)));
        return f;
    }

    void setLabels(QCPAxis* axis, const QStringList& labels,
                   const QSharedPointer<QCPAxisTickerText>& ticker)
    {
        TokenAxis* a = find(axis);
        if (!a) {
            axes_.push_back(TokenAxis{});
            a = &axes_.back();
            a->axis = axis;
        }
        a->labels = labels;
        a->ticker = ticker;
        a->stride = 0;  // fill the new ticker
        a->font = QFont();
        a->widest = a->tallest = 0;
        fitAxis(*a, false);
    }
    // The axis shows these labels already (a new snapshot of the same sentence).
    bool shows(QCPAxis* axis, const QStringList& labels)
    {
        const TokenAxis* a = find(axis);
        return a && a->axis->ticker() == a->ticker && a->labels == labels;
    }
    void forget(QCPAxis* axis)
    {
        axes_.erase(std::remove_if(axes_.begin(), axes_.end(),
                                   [axis](const TokenAxis& a) { return a.axis == axis; }),
                    axes_.end());
    }
    void addTitle(QCPTextElement* title) { titles_.push_back(Title{title, title->text(), title->text()}); }

private:
    struct TokenAxis {
        QPointer<QCPAxis> axis;
        QStringList labels;
        QSharedPointer<QCPAxisTickerText> ticker;  // ours while the axis still uses it
        int stride = 0;  // every stride-th label is shown; 0: not filled yet
        double rotation = 0;
        QFont font;  // of the cached sizes
        int widest = 0, tallest = 0;
    };
    struct Title {
        QPointer<QCPTextElement> element;
        QString full;   // as set by the view
        QString shown;  // as fitted here
    };

    explicit LayoutFitter(QCustomPlot* plot) : QObject(plot), plot_(plot)
    {
        connect(plot, &QCustomPlot::afterLayout, this, [this] { fit(); });
    }

    TokenAxis* find(QCPAxis* axis)
    {
        for (TokenAxis& a : axes_)
            if (a.axis == axis)
                return &a;
        return nullptr;
    }

    void fit()
    {
        if (fitting_)
            return;
        fitting_ = true;
        // Drop axes given another ticker since (e.g. setIntegerTicks) and deleted titles.
        axes_.erase(std::remove_if(axes_.begin(), axes_.end(),
                                   [](const TokenAxis& a) {
                                       return !a.axis || a.axis->ticker() != a.ticker;
                                   }),
                    axes_.end());
        titles_.erase(std::remove_if(titles_.begin(), titles_.end(),
                                     [](const Title& t) { return !t.element; }),
                      titles_.end());
        bool changed = fitTitles();
        for (TokenAxis& a : axes_)
            changed |= fitAxis(a, false);
        // The labels shown set the margins, hence the axes' length: lay out again until the
        // strides hold. Strides only grow from here on, so this ends; and the last layout's
        // axes have at least the room their labels need.
        for (int pass = 0; changed && pass < 16; ++pass) {
            relayout();
            changed = false;
            for (TokenAxis& a : axes_)
                changed |= fitAxis(a, true);
        }
        if (changed)
            relayout();
        fitting_ = false;
    }

    void relayout()
    {
        QCPLayoutGrid* layout = plot_->plotLayout();
        layout->update(QCPLayoutElement::upPreparation);
        layout->update(QCPLayoutElement::upMargins);
        layout->update(QCPLayoutElement::upLayout);
    }

    // Chooses the stride (and on the x axis, upright or slanted labels) from the axis's length
    // in pixels; growOnly keeps the orientation and never shows more labels than now.
    bool fitAxis(TokenAxis& a, bool growOnly)
    {
        const int n = int(a.labels.size());
        const QFont font = a.axis->tickLabelFont();
        if (a.font != font || a.widest == 0) {
            const QFontMetrics fm(font);
            a.font = font;
            a.widest = a.tallest = 1;
            for (const QString& l : a.labels) {
                const QRect r = tickLabelBounds(fm, l);
                a.widest = std::max(a.widest, r.width());
                a.tallest = std::max(a.tallest, r.height());
            }
        }
        const double cell = std::abs(a.axis->coordToPixel(1.0) - a.axis->coordToPixel(0.0));
        auto strideFor = [&](double extent) {
            if (!(cell > 0.5))  // not laid out yet
                return 1;
            return std::clamp(int(std::ceil((extent + kLabelGap) / cell)), 1, std::max(n, 1));
        };
        double rotation = 0;
        int stride = 0;
        if (a.axis->orientation() == Qt::Vertical) {
            stride = strideFor(a.tallest);  // upright labels, one above the other
        } else {
            // Upright labels are centred under their ticks: neighbours are apart by the widest.
            // Slanted ones are parallel: they are apart by their height across the slant.
            const int upright = strideFor(a.widest);
            const int slanted = strideFor(a.tallest / std::sin(kSlant * M_PI / 180.0));
            rotation = growOnly ? a.rotation : (upright <= slanted ? 0.0 : kSlant);
            stride = rotation == 0.0 ? upright : slanted;
        }
        if (growOnly)
            stride = std::max(stride, a.stride);
        if (stride == a.stride && rotation == a.rotation
            && a.axis->tickLabelRotation() == rotation)
            return false;
        a.stride = stride;
        a.rotation = rotation;
        a.ticker->clear();
        for (int i = 0; i < n; i += stride)
            a.ticker->addTick(i, a.labels[i]);
        a.axis->setTickLabelRotation(rotation);
        return true;
    }

    // The lines `text` breaks into at `width` by Unicode's line-breaking rules (at spaces, and
    // between CJK characters), at most `most` of them: the last one elided if more were needed.
    static QStringList wrapped(const QString& text, const QFont& font, int width, int most)
    {
        QTextLayout layout(text, font);
        QTextOption option;
        option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
        layout.setTextOption(option);
        layout.beginLayout();
        std::vector<int> starts;
        for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
            line.setLineWidth(width);
            starts.push_back(line.textStart());
        }
        layout.endLayout();
        starts.push_back(int(text.size()));
        QStringList lines;
        const QFontMetrics fm(font);
        for (int i = 0; i + 1 < int(starts.size()) && i < most; ++i) {
            const bool last = i == most - 1 && i + 2 < int(starts.size());
            const QString line = text.mid(starts[std::size_t(i)],
                                          last ? -1 : starts[std::size_t(i) + 1] - starts[std::size_t(i)]);
            lines << fm.elidedText(line.trimmed(), Qt::ElideRight, width);
        }
        return lines;
    }

    // Breaks a title too wide for the plot into lines at " · ", then a part still too wide at
    // its words (up to three lines; eliding only what still does not fit).
    bool fitTitles()
    {
        bool changed = false;
        for (Title& t : titles_) {
            QCPTextElement* e = t.element;
            if (e->text() != t.shown)  // set anew by the view
                t.full = e->text();
            const QMargins m = e->margins();
            const int width = plot_->viewport().width() - m.left() - m.right() - 4;
            const QFontMetrics fm(e->font());
            QStringList lines;
            for (const QString& line : t.full.split(QLatin1Char('\n'))) {
                if (width <= 0 || fm.horizontalAdvance(line) <= width) {
                    lines << line;
                    continue;
                }
                const QString sep = QStringLiteral(" · ");
                QString current;
                for (const QString& part : line.split(sep)) {
                    const QString joined = current.isEmpty() ? part : current + sep + part;
                    if (current.isEmpty() || fm.horizontalAdvance(joined) <= width) {
                        current = joined;
                    } else {
                        lines << wrapped(current, e->font(), width, 3);
                        current = part;
                    }
                }
                lines << wrapped(current, e->font(), width, 3);
            }
            const QString shown = lines.join(QLatin1Char('\n'));
            if (shown != e->text()) {
                e->setText(shown);
                changed = true;
            }
            t.shown = shown;
        }
        return changed;
    }

    QCustomPlot* plot_;
    std::vector<TokenAxis> axes_;
    std::vector<Title> titles_;
    bool fitting_ = false;
};

}  // namespace

QFont pointFont(int size, bool bold)
{
    QFont f;
    f.setPointSize(size);
    f.setBold(bold);
    return f;
}

QCPColorGradient sequentialGradient()
{
    return sequentialGradient(isDarkPalette(QApplication::palette()));
}

QCPColorGradient sequentialGradient(bool dark)
{
    // White to deep blue: weights near 0 recede, strong attention stands out. On a dark
    // palette the same hues (ColorBrewer's Blues) run from near the background to pale: still
    // ordered in lightness, 0 receding into the dark and 1 standing out.
    QCPColorGradient g;
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    if (dark) {
        g.setColorStopAt(0.0, QColor(22, 28, 40));
        g.setColorStopAt(0.25, QColor(8, 64, 129));
        g.setColorStopAt(0.5, QColor(33, 113, 181));
        g.setColorStopAt(0.75, QColor(107, 174, 214));
        g.setColorStopAt(1.0, QColor(222, 235, 247));
        return g;
    }
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
    // The box's far sides are a frame: with ranges of their own (0–5) their ticks would be a
    // second scale that matches no row or column.
    plot->xAxis2->setTicks(false);
    plot->yAxis2->setTicks(false);
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
    followPalette(plot);
    return h;
}

void styleTokenAxes(QCustomPlot* plot, int pointSize)
{
    for (QCPAxis* a : {plot->xAxis, plot->yAxis}) {
        a->setTickLabelFont(pointFont(pointSize));
        a->setLabelFont(pointFont(pointSize));
        a->setTickLength(0, 3);
        a->setSubTickLength(0, 0);
    }
}

void setTokenTicks(QCPAxis* axis, const QStringList& labels)
{
    LayoutFitter* fitter = LayoutFitter::of(axis->parentPlot());
    if (labels.isEmpty()) {
        fitter->forget(axis);
        axis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        axis->setTickLabelRotation(0);
        return;
    }
    if (fitter->shows(axis, labels))
        return;  // keeps the stride, and QCustomPlot its cached labels
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    axis->setTicker(ticker);
    axis->setSubTicks(false);
    fitter->setLabels(axis, labels, ticker);
}

void setHeatmapData(Heatmap& h, int rows, int cols, const std::function<double(int, int)>& values,
                    const QStringList& rowLabels, const QStringList& colLabels, double lo,
                    double hi)
{
    QCustomPlot* plot = h.map->parentPlot();
    if (rows <= 0 || cols <= 0) {
        // Nothing to show: no cells, no ticks, and no colour bar to read them by.
        h.rows = h.cols = 0;
        h.map->data()->clear();
        for (QCPAxis* axis : {plot->xAxis, plot->yAxis}) {
            setTokenTicks(axis, {});
            axis->setTicker(QSharedPointer<QCPAxisTickerText>(new QCPAxisTickerText));
            axis->setRange(0, 1);
        }
        if (h.scale)
            h.scale->setVisible(false);
        if (h.placeholder)
            h.placeholder->setVisible(true);
        return;
    }
    if (h.scale)
        h.scale->setVisible(true);
    if (h.placeholder)
        h.placeholder->setVisible(false);
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

void setHeatmapPlaceholder(Heatmap& h, const QString& text)
{
    QCustomPlot* plot = h.map->parentPlot();
    if (!h.placeholder) {
        h.placeholder = new QCPItemText(plot);
        h.placeholder->setClipToAxisRect(false);
        h.placeholder->position->setType(QCPItemPosition::ptAxisRectRatio);
        h.placeholder->position->setAxisRect(plot->axisRect());
        h.placeholder->position->setCoords(0.5, 0.5);
        h.placeholder->setPositionAlignment(Qt::AlignCenter);
        h.placeholder->setTextAlignment(Qt::AlignCenter);
        h.placeholder->setProperty(kInkProperty, QStringLiteral("muted"));
        applyPalette(plot);
    }
    h.placeholder->setText(text);
    h.placeholder->setVisible(h.rows == 0 || h.cols == 0);
}

bool heatmapAxisTokenAt(const Heatmap& h, QPoint pixel, int* row, int* col)
{
    if (!h.map || h.rows == 0 || h.cols == 0)
        return false;
    QCustomPlot* plot = h.map->parentPlot();
    const QRect r = plot->axisRect()->rect();
    if (pixel.x() < r.left() && pixel.y() >= r.top() && pixel.y() <= r.bottom()) {
        const int q = int(std::lround(plot->yAxis->pixelToCoord(pixel.y())));
        if (q < 0 || q >= h.rows)
            return false;
        *row = q;
        *col = -1;
        return true;
    }
    if (pixel.y() > r.bottom() && pixel.x() >= r.left() && pixel.x() <= r.right()) {
        const int k = int(std::lround(plot->xAxis->pixelToCoord(pixel.x())));
        if (k < 0 || k >= h.cols)
            return false;
        *row = -1;
        *col = k;
        return true;
    }
    return false;
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
    QCPLayoutGrid* top = plot->plotLayout();
    if (top->columnCount() > 1) {
        // A grid has no spans: in the first column the title would be centred over the axis
        // rect alone, and pushed past the widget's left edge when wider. So what the plot holds
        // so far (e.g. the axis rect and its colour bar) moves into a grid of its own, under
        // a title row as wide as the plot.
        auto* body = new QCPLayoutGrid;
        body->setColumnSpacing(top->columnSpacing());
        body->setRowSpacing(top->rowSpacing());
        const int rows = top->rowCount(), cols = top->columnCount();
        const QList<double> colStretch = top->columnStretchFactors();
        const QList<double> rowStretch = top->rowStretchFactors();
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c)
                if (QCPLayoutElement* e = top->element(r, c)) {
                    top->take(e);
                    body->addElement(r, c, e);
                }
        body->setColumnStretchFactors(colStretch);
        body->setRowStretchFactors(rowStretch);
        top->simplify();
        top->addElement(0, 0, body);
    }
    auto* title =
        new QCPTextElement(plot, text, QFont(base.family(), base.pointSize() + 1, QFont::Bold));
    top->insertRow(0);
    top->addElement(0, 0, title);
    LayoutFitter::of(plot)->addTitle(title);
    followPalette(plot);
    return title;
}

void fitTitle(QCPTextElement* title)
{
    LayoutFitter::of(title->parentPlot())->addTitle(title);
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

bool isDarkPalette(const QPalette& palette)
{
    return palette.color(QPalette::Base).lightnessF() < 0.5;
}

QColor alertColour(const QPalette& palette)
{
    // ColorBrewer's RdBu ends: #b2182b on light (6.3:1 on white), #f4a582 on dark (9:1 on #1e1e1e).
    return isDarkPalette(palette) ? QColor(244, 165, 130) : QColor(178, 24, 43);
}

QColor seriesColour(int i, const QPalette& palette)
{
    // Light: >= 3.4:1 on white; dark: >= 6:1 on #1e1e1e (the dark theme's Base), worked out
    // with WCAG 2.x relative luminance (tests/window/test_theme checks what the views draw).
    static const QRgb light[kSeriesColours] = {0x1f77b4, 0xd95f02, 0x2ca02c, 0xd62728, 0x9467bd,
                                               0x8c564b, 0xc2439a, 0x737373, 0x7f7f00, 0x0e8a99};
    static const QRgb dark[kSeriesColours] = {0x5aa9e6, 0xff9f40, 0x5fd35f, 0xff6b6b, 0xc5a3ff,
                                              0xd4a58c, 0xf78fd0, 0xb3b3b3, 0xd4d44a, 0x4dd8e6};
    const int k = ((i % kSeriesColours) + kSeriesColours) % kSeriesColours;
    return QColor(isDarkPalette(palette) ? dark[k] : light[k]);
}

QBrush legendBrush(const QPalette& palette, int alpha)
{
    QColor box = palette.color(QPalette::Base);
    box.setAlpha(alpha);
    return box;
}

QColor blend(const QColor& a, const QColor& b, double t)
{
    auto mix = [t](double x, double y) { return x * (1 - t) + y * t; };
    return QColor::fromRgbF(float(mix(a.redF(), b.redF())), float(mix(a.greenF(), b.greenF())),
                            float(mix(a.blueF(), b.blueF())), float(mix(a.alphaF(), b.alphaF())));
}

namespace {

void inkAxis(QCPAxis* axis, const QColor& ink, const QColor& grid, const QColor& subGrid)
{
    auto recolour = [](QPen pen, const QColor& c) {
        pen.setColor(c);
        return pen;
    };
    axis->setBasePen(recolour(axis->basePen(), ink));
    axis->setTickPen(recolour(axis->tickPen(), ink));
    axis->setSubTickPen(recolour(axis->subTickPen(), ink));
    axis->setTickLabelColor(ink);
    axis->setLabelColor(ink);
    if (QCPGrid* g = axis->grid()) {
        g->setPen(recolour(g->pen(), grid));
        g->setSubGridPen(recolour(g->subGridPen(), subGrid));
        g->setZeroLinePen(g->zeroLinePen().style() == Qt::NoPen ? g->zeroLinePen()
                                                                : recolour(g->zeroLinePen(), grid));
    }
}

void inkLegend(QCPLegend* legend, const QColor& ink, const QColor& base)
{
    QColor box = base;
    box.setAlpha(legend->brush().style() == Qt::NoBrush ? 255 : legend->brush().color().alpha());
    if (legend->brush().style() != Qt::NoBrush)
        legend->setBrush(box);
    QPen border = legend->borderPen();
    if (border.style() != Qt::NoPen) {
        border.setColor(ink);
        legend->setBorderPen(border);
    }
    legend->setTextColor(ink);
    for (int i = 0; i < legend->itemCount(); ++i)
        if (QCPAbstractLegendItem* item = legend->item(i))
            item->setTextColor(ink);
}

QColor keepAlpha(QColor c, const QColor& old)
{
    c.setAlpha(old.alpha());
    return c;
}

QPen recoloured(QPen pen, const QColor& c)
{
    if (pen.style() != Qt::NoPen)
        pen.setColor(keepAlpha(c, pen.color()));
    return pen;
}

QBrush recoloured(QBrush brush, const QColor& c)
{
    if (brush.style() != Qt::NoBrush)
        brush.setColor(keepAlpha(c, brush.color()));
    return brush;
}

QCPScatterStyle recoloured(QCPScatterStyle s, const QColor& c)
{
    // A style made without a pen (QCPScatterStyle(shape, size)) draws with its graph's: setting
    // its Qt::NoPen would make it a pen of its own that draws nothing (hollow markers vanished
    // and discs were drawn black, whatever the series' colour and the theme).
    if (s.isPenDefined())
        s.setPen(recoloured(s.pen(), c));
    s.setBrush(recoloured(s.brush(), c));
    return s;
}

// The colour kSeriesProperty asks for in this palette.
QColor seriesInk(const QObject* o, const QPalette& pal)
{
    const int i = o->property(kSeriesProperty).toInt();
    return i == kAlertSeries ? alertColour(pal) : seriesColour(i, pal);
}

void colourSeries(QCPAbstractPlottable* p, const QPalette& pal)
{
    const QColor c = seriesInk(p, pal);
    p->setPen(recoloured(p->pen(), c));
    p->setBrush(recoloured(p->brush(), c));
    if (auto* g = qobject_cast<QCPGraph*>(p))
        g->setScatterStyle(recoloured(g->scatterStyle(), c));
    else if (auto* curve = qobject_cast<QCPCurve*>(p))
        curve->setScatterStyle(recoloured(curve->scatterStyle(), c));
}

void colourSeries(QCPAbstractItem* item, const QPalette& pal)
{
    const QColor c = seriesInk(item, pal);
    if (auto* l = qobject_cast<QCPItemStraightLine*>(item))
        l->setPen(recoloured(l->pen(), c));
    else if (auto* l = qobject_cast<QCPItemLine*>(item))
        l->setPen(recoloured(l->pen(), c));
    else if (auto* r = qobject_cast<QCPItemRect*>(item)) {
        r->setPen(recoloured(r->pen(), c));
        r->setBrush(recoloured(r->brush(), c));
    } else if (auto* t = qobject_cast<QCPItemTracer*>(item)) {
        t->setPen(recoloured(t->pen(), c));
        t->setBrush(recoloured(t->brush(), c));
    } else if (auto* e = qobject_cast<QCPItemEllipse*>(item)) {
        e->setPen(recoloured(e->pen(), c));
        e->setBrush(recoloured(e->brush(), c));
    }
}

// Re-applies the palette when it changes (the application's, by View > Theme) or the style does.
class PaletteFollower : public QObject {
public:
    using QObject::QObject;
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        const QEvent::Type t = event->type();
        // Polish too: colours a view set after making the plot (a legend's box) are taken
        // over before the plot is first shown.
        if ((t == QEvent::PaletteChange || t == QEvent::ApplicationPaletteChange ||
             t == QEvent::StyleChange || t == QEvent::Polish) &&
            !pending_) {
            // The filter sees the event before the widget has taken the new palette: applied
            // once the event loop comes back.
            pending_ = true;
            auto* plot = static_cast<QCustomPlot*>(watched);
            QMetaObject::invokeMethod(
                this,
                [this, plot] {
                    pending_ = false;
                    applyPalette(plot);
                    replotIfVisible(plot);
                },
                Qt::QueuedConnection);
        }
        return false;
    }

private:
    bool pending_ = false;
};

// Keeps a label's text in the alert colour of the application's palette.
class AlertFollower : public QObject {
public:
    using QObject::QObject;
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        const QEvent::Type t = event->type();
        if (t == QEvent::PaletteChange || t == QEvent::ApplicationPaletteChange ||
            t == QEvent::StyleChange) {
            QPointer<QLabel> label = static_cast<QLabel*>(watched);
            QMetaObject::invokeMethod(
                this, [label] { if (label) colour(label); }, Qt::QueuedConnection);
        }
        return false;
    }
    static void colour(QLabel* label)
    {
        const QColor c = alertColour(QApplication::palette());
        if (label->palette().color(QPalette::WindowText) == c)
            return;  // no change, no new PaletteChange
        QPalette p = label->palette();
        p.setColor(QPalette::WindowText, c);
        p.setColor(QPalette::Text, c);
        label->setPalette(p);
    }
};

}  // namespace

void applyPalette(QCustomPlot* plot)
{
    const QPalette pal = plot->palette();
    const bool dark = isDarkPalette(pal);
    const QColor ink = pal.color(QPalette::Text), base = pal.color(QPalette::Base);
    const QColor grid = blend(base, ink, 0.22), subGrid = blend(base, ink, 0.12);
    plot->setBackground(base);
    for (QCPAxisRect* r : plot->axisRects())
        for (QCPAxis* a : r->axes())
            inkAxis(a, ink, grid, subGrid);
    if (plot->legend)
        inkLegend(plot->legend, ink, base);
    const QCPColorGradient lightMap = sequentialGradient(false), darkMap = sequentialGradient(true);
    auto turned = [&](QCPColorGradient g) {
        const QCPColorGradient& from = dark ? lightMap : darkMap;
        const QCPColorGradient& to = dark ? darkMap : lightMap;
        if (g.colorStops() == from.colorStops()) {
            g.clearColorStops();
            g.setColorStops(to.colorStops());
        }
        return g;
    };
    for (QCPLayoutElement* e : plot->plotLayout()->elements(true)) {
        if (auto* text = qobject_cast<QCPTextElement*>(e))
            text->setTextColor(ink);
        else if (auto* legend = qobject_cast<QCPLegend*>(e); legend && legend != plot->legend)
            inkLegend(legend, ink, base);
        else if (auto* scale = qobject_cast<QCPColorScale*>(e)) {
            inkAxis(scale->axis(), ink, grid, subGrid);
            scale->setGradient(turned(scale->gradient()));
        }
    }
    for (int i = 0; i < plot->plottableCount(); ++i) {
        QCPAbstractPlottable* p = plot->plottable(i);
        if (auto* map = qobject_cast<QCPColorMap*>(p))
            map->setGradient(turned(map->gradient()));
        else if (p->property(kSeriesProperty).isValid())
            colourSeries(p, pal);
    }
    for (int i = 0; i < plot->itemCount(); ++i) {
        QCPAbstractItem* item = plot->item(i);
        if (item->property(kSeriesProperty).isValid())
            colourSeries(item, pal);
        auto* text = qobject_cast<QCPItemText*>(item);
        if (!text)
            continue;
        const QString role = text->property(kInkProperty).toString();
        if (role == QLatin1String("own"))
            continue;
        text->setColor(role == QLatin1String("alert")   ? alertColour(pal)
                       : role == QLatin1String("muted") ? blend(base, ink, 0.55)
                                                        : ink);
        if (role == QLatin1String("alert"))  // its frame too
            text->setPen(recoloured(text->pen(), alertColour(pal)));
        if (text->brush().style() != Qt::NoBrush) {
            QColor box = base;
            box.setAlpha(text->brush().color().alpha());
            text->setBrush(box);
        }
    }
}

void setSeriesColour(QCPAbstractPlottable* plottable, int i)
{
    plottable->setProperty(kSeriesProperty, i);
    colourSeries(plottable, plottable->parentPlot()->palette());
}

void setSeriesColour(QCPAbstractItem* item, int i)
{
    item->setProperty(kSeriesProperty, i);
    colourSeries(item, item->parentPlot()->palette());
}

void followPalette(QCustomPlot* plot)
{
    applyPalette(plot);
    // (Found by name: a class without Q_OBJECT matches any child in findChild.)
    static const QString name = QStringLiteral("as_palette_follower");
    if (plot->findChild<QObject*>(name, Qt::FindDirectChildrenOnly))
        return;
    auto* follower = new PaletteFollower(plot);
    follower->setObjectName(name);
    plot->installEventFilter(follower);
}

void showAsAlert(QLabel* label)
{
    AlertFollower::colour(label);
    static const QString name = QStringLiteral("as_alert_follower");
    if (label->findChild<QObject*>(name, Qt::FindDirectChildrenOnly))
        return;
    auto* follower = new AlertFollower(label);
    follower->setObjectName(name);
    label->installEventFilter(follower);
}

QString attentionKindTitle(AttentionKind kind)
{
    switch (kind) {
    case AttentionKind::EncoderSelf: return QCoreApplication::translate("as::ui::AttentionKind", "Encoder self-attention");
    case AttentionKind::DecoderSelf: return QCoreApplication::translate("as::ui::AttentionKind", "Decoder self-attention");
    case AttentionKind::Cross: return QCoreApplication::translate("as::ui::AttentionKind", "Decoder cross-attention");
    }
    return {};
}

}  // namespace as::ui
