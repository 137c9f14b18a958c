// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What every view shares: hover read-outs, export to PNG / SVG / CSV, and heatmaps whose cells
// are drawn as cells (no interpolation) with token labels on the axes.
#include "model/head_id.h"

#include <qcustomplot.h>

#include <QLabel>
#include <QStringList>

#include <functional>

namespace as::ui {

// Shows text(plot, mouse position in pixels) as a tooltip while the mouse moves over the plot;
// an empty string hides it.
void enableHoverReadout(QCustomPlot* plot, std::function<QString(QCustomPlot*, QPoint)> text);

// Files are written atomically (QSaveFile): a failed export leaves no half-written file.
bool savePlotPng(QCustomPlot* plot, const QString& path, QString* error, int width = 0,
                 int height = 0);
bool savePlotSvg(QCustomPlot* plot, const QString& path, QString* error);
bool saveText(const QString& path, const QString& text, QString* error);

// A tool button with a menu "Export PNG… / SVG… / CSV…" that asks for a file name. Its text is
// "Export", or what `text` says (asked again at every language change, so give it a tr()).
QToolButton* makeExportButton(QCustomPlot* plot, std::function<QString()> csv, QWidget* parent,
                              std::function<QString()> text = {});

// Colours follow the widgets' palette (View > Theme): a plot's background is QPalette::Base,
// its axes, tick labels, axis labels, titles, legend texts and item texts QPalette::Text, its
// grid a blend of the two, its legend's box Base. followPalette() applies that now and again at
// every palette or style change of the plot (an event filter it installs once); makeHeatmap,
// addTitle, panel and makeExportButton call it, so every plot made through them follows.
// An item text may ask for another ink with the property kInkProperty: "alert" (alertColour),
// "muted" (a grey between Base and Text, still >= 4.5:1), "own" (the view sets its colour and brush itself).
inline constexpr const char* kInkProperty = "asInk";
bool isDarkPalette(const QPalette& palette);
// A red for warnings and errors that reads (>= 4.5:1) on the palette's Window and Base.
QColor alertColour(const QPalette& palette);
// a * (1 - t) + b * t, channel by channel (alpha too).
QColor blend(const QColor& a, const QColor& b, double t);
void applyPalette(QCustomPlot* plot);
void followPalette(QCustomPlot* plot);
// One categorical palette for data series (curves, bars, markers, the lines and bands that go
// with them), chosen for the plot's background: Tableau's category-10 order (blue, orange,
// green, red, purple, brown, pink, grey, olive, cyan), darkened on a light palette and
// lightened on a dark one so that each colour reads against Base at >= 3:1 (WCAG 2.x
// non-text contrast).
inline constexpr int kSeriesColours = 10;
QColor seriesColour(int i, const QPalette& palette);  // i modulo kSeriesColours
// The box behind a legend or a label drawn over data: the palette's Base, `alpha` opaque (its
// texts in Text read on it at the palette's Text-on-Base contrast).
QBrush legendBrush(const QPalette& palette, int alpha = 220);
// Colours a plottable's pen (and brush and scatter style, where it has them) or an item's pen
// and brush in seriesColour(i) of its plot's palette, each keeping its alpha, width and style;
// applyPalette colours it again at every palette change. kAlertSeries: alertColour() instead.
inline constexpr int kAlertSeries = -1;
inline constexpr const char* kSeriesProperty = "asSeries";
void setSeriesColour(QCPAbstractPlottable* plottable, int i);
void setSeriesColour(QCPAbstractItem* item, int i);
// A label whose text is a warning: coloured alertColour() of the application's palette, now and
// at every palette change.
void showAsAlert(QLabel* label);

// Colour gradients: attention weights 0…1 (sequential) and signed values (diverging, 0 white).
// The sequential map runs from the background's end: white to dark blue on a light palette,
// dark to light blue on a dark one (both ordered in lightness); followPalette swaps a map's
// sequential gradient when the palette turns.
// The application font at `size` points (bold if asked): the views' labels and titles.
QFont pointFont(int size, bool bold = false);
QCPColorGradient sequentialGradient();
QCPColorGradient sequentialGradient(bool dark);
QCPColorGradient divergingGradient();

// A heatmap of a [rows, cols] matrix: row 0 at the top, column 0 at the left, one cell per
// entry, no interpolation. Labels (when given) replace the numeric ticks.
struct Heatmap {
    QCPColorMap* map = nullptr;
    QCPColorScale* scale = nullptr;  // null when made without a colour bar
    QCPItemText* placeholder = nullptr;  // shown while the map is empty; see setHeatmapPlaceholder
    int rows = 0, cols = 0;
};
Heatmap makeHeatmap(QCustomPlot* plot, bool withColorScale, const QCPColorGradient& gradient);
// values(r, c) for r < rows, c < cols. rowLabels/colLabels may be empty (numbers are shown).
// With no cells (rows or cols 0) the map is empty: no ticks, the colour bar hidden (an empty
// map has no scale to read) and the placeholder, if any, shown.
void setHeatmapData(Heatmap& h, int rows, int cols, const std::function<double(int, int)>& values,
                    const QStringList& rowLabels = {}, const QStringList& colLabels = {},
                    double lo = 0.0, double hi = 1.0);
// The text shown in the middle of the plot while the map is empty (e.g. what to do to fill it).
void setHeatmapPlaceholder(Heatmap& h, const QString& text);
// The cell under a pixel, or false when the pixel is outside the map.
bool heatmapCellAt(const Heatmap& h, QPoint pixel, int* row, int* col);
// The row whose y tick label area (left of the map) or the column whose x tick label area
// (below it) is under a pixel; the other is set to -1. False elsewhere. Thinned labels (see
// setTokenTicks) stay reachable by hovering there.
bool heatmapAxisTokenAt(const Heatmap& h, QPoint pixel, int* row, int* col);
// Axis ticks at integer positions with the given texts. Only as many labels are shown as fit
// the axis's length in pixels without overlapping (every k-th, k from the font metrics),
// recomputed at every layout of the plot (a resize, an export at another size); the x axis's
// labels are slanted when that shows more of them.
void setTokenTicks(QCPAxis* axis, const QStringList& labels);
// The axes of a map of tokens: tick labels and axis labels at `pointSize` points, short ticks,
// no sub-ticks (the Translate view's maps, the attention and decoding views').
void styleTokenAxes(QCustomPlot* plot, int pointSize);
// Whole-number ticks for an axis that counts positions, dimensions or ids.
void setIntegerTicks(QCPAxis* axis);
// The value drawn in cell (row, col), read back from the map; NaN outside it.
double heatmapCell(const Heatmap& h, int row, int col);
// The drawn matrix as CSV: a header row of column numbers, then one row per matrix row,
// named by rowNames (numbers where absent); `corner` is the first header cell.
QString heatmapCsv(const Heatmap& h, const QString& corner, const QStringList& rowNames = {});

// Snapshots keep coming while a view sits in a hidden tab, and a QCustomPlot renders its
// buffers on replot() whether it is visible or not. Views replot through this: a visible plot
// is queued for a replot; a hidden one is marked and queued when it is next shown. The queue
// replots one plot per pass of the event loop, so that a tab of many plots (Attention: seven)
// does not hold the GUI thread for all of them at once (9-13 ms here, with queued replots,
// which Qt delivers in one batch).
void replotIfVisible(QCustomPlot* plot);
// Replots every queued plot now: before pixels are read (a screenshot, a grab in a test).
void replotQueuedNow();

// A bold title above the plot, across its whole width (the colour bar's column too). A title
// wider than the plot is broken into lines at " · ", then at its words (and elided as a last
// resort) at every layout, so that it is never cut off at the widget's edge; setText() may be
// called as usual.
QCPTextElement* addTitle(QCustomPlot* plot, const QString& text, const QFont& base);
// The same fitting for a title a view placed in its plot's layout itself.
void fitTitle(QCPTextElement* title);
// A plot with its export button in a slim row above it.
QWidget* panel(QCustomPlot* plot, std::function<QString()> csv, QWidget* parent);

// An attention kind's name in the window ("Encoder self-attention", in the language
// installed), where the command line says "encoder.self" (attentionKindName).
QString attentionKindTitle(AttentionKind kind);

}  // namespace as::ui
