// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Dark and light, issue 26 §2: in the dark theme every text the views draw reads against its
// background at WCAG AA (contrast ratio >= 4.5:1, WCAG 2.x relative luminance worked here by
// hand): plots' tick labels, axis labels, titles, legend texts and item texts, and labels' and
// table cells' texts with their palette roles or the colours their rich text names. The colours
// are read from the widgets and QCustomPlot objects after the switch (a plot's background from
// its rendered pixels), not from the theme's constants. A light <-> dark switch at runtime
// changes them, and View > Theme applies and remembers the choice.
// Data series too (issue 26 §2, "every colour from the palette or a colour map chosen for its
// background"), in dark and in light: every opaque curve, bar and marker line of a plot without
// a heatmap reads against the plot's background at >= 3:1 (WCAG 2.x non-text contrast), read
// from the plottables' and items' pens and brushes; legends' texts on their boxes at 4.5:1;
// and the Translate view's source-token chips, read from the styles in its label, are chips of
// the theme (dark chips on dark, light on light) whose text reads at 4.5:1.
#include "skip.h"
#include "main_window.h"
#include "plot_tools.h"
#include "settings_store.h"
#include "theme.h"
#include "translate_view.h"
#include "view_set.h"
#include "window_runs.h"
#include "worker_link.h"

#include <QAction>
#include <QLabel>
#include <QMenu>
#include <QRegularExpression>
#include <QSettings>
#include <QStandardPaths>
#include <QTableWidget>
#include <QtTest>

#include <cmath>

using namespace as;

namespace {

// WCAG 2.x: sRGB channel to linear, relative luminance, contrast ratio.
double linear(double c)
{
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

double luminance(const QColor& c)
{
    const QColor rgb = c.toRgb();
    return 0.2126 * linear(rgb.redF()) + 0.7152 * linear(rgb.greenF()) + 0.0722 * linear(rgb.blueF());
}

double contrast(const QColor& a, const QColor& b)
{
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

// A colour with alpha painted over an opaque one.
QColor over(const QColor& top, const QColor& under)
{
    const double a = top.alphaF();
    auto mix = [a](double t, double u) { return t * a + u * (1 - a); };
    return QColor::fromRgbF(float(mix(top.redF(), under.redF())), float(mix(top.greenF(), under.greenF())),
                            float(mix(top.blueF(), under.blueF())));
}

// What failed to read, one line each ("where: text colour on background = ratio").
struct Checker {
    QStringList failures;
    int checked = 0;
    void check(const QString& where, const QColor& text, const QColor& background,
               double minimum = 4.5)
    {
        ++checked;
        const double r = contrast(text, background);
        if (r < minimum)
            failures << QStringLiteral("%1: %2 on %3 = %4:1")
                            .arg(where, text.name(), background.name())
                            .arg(r, 0, 'f', 2);
    }
};

QString nameOf(const QObject* o)
{
    QStringList chain;
    for (; o; o = o->parent())
        if (o->metaObject()->className() != QLatin1String("QWidget"))
            chain.prepend(QString::fromLatin1(o->metaObject()->className()));
    return chain.mid(std::max(0, int(chain.size()) - 3)).join(QLatin1Char('/'));
}

// The plot's background as drawn: the pixel at its top-left corner.
QColor plotBackground(QCustomPlot* plot)
{
    return plot->toPixmap(plot->width(), plot->height()).toImage().pixelColor(1, 1);
}

void checkAxis(Checker& c, const QString& where, QCPAxis* axis, const QColor& bg)
{
    if (!axis->visible())
        return;
    if (axis->tickLabels())
        c.check(where + QStringLiteral(" tick labels"), axis->tickLabelColor(), bg);
    if (!axis->label().isEmpty())
        c.check(where + QStringLiteral(" label"), axis->labelColor(), bg);
}

void checkPlot(Checker& c, QCustomPlot* plot)
{
    const QString where = nameOf(plot);
    const QColor bg = plotBackground(plot);
    for (QCPAxisRect* r : plot->axisRects())
        for (QCPAxis* a : r->axes())
            checkAxis(c, where + QStringLiteral(" axis"), a, bg);
    auto checkLegend = [&](QCPLegend* legend) {
        if (!legend->visible())
            return;
        const QColor box = legend->brush().style() == Qt::NoBrush ? bg : over(legend->brush().color(), bg);
        for (int i = 0; i < legend->itemCount(); ++i)
            if (QCPAbstractLegendItem* item = legend->item(i); item && item->visible())
                c.check(where + QStringLiteral(" legend"), item->textColor(), box);
    };
    if (plot->legend)
        checkLegend(plot->legend);
    for (QCPLayoutElement* e : plot->plotLayout()->elements(true)) {
        if (auto* t = qobject_cast<QCPTextElement*>(e); t && t->visible() && !t->text().isEmpty())
            c.check(where + QStringLiteral(" title"), t->textColor(), bg);
        else if (auto* s = qobject_cast<QCPColorScale*>(e); s && s->visible())
            checkAxis(c, where + QStringLiteral(" colour bar"), s->axis(), bg);
        else if (auto* l = qobject_cast<QCPLegend*>(e); l && l != plot->legend)
            checkLegend(l);
    }
    for (int i = 0; i < plot->itemCount(); ++i) {
        auto* t = qobject_cast<QCPItemText*>(plot->item(i));
        if (!t || !t->visible() || t->text().isEmpty())
            continue;
        // A text in a coloured bar (the Decoding view's) has its own colour for that bar.
        if (t->property(ui::kInkProperty).toString() == QLatin1String("own"))
            continue;
        const QColor box = t->brush().style() == Qt::NoBrush ? bg : over(t->brush().color(), bg);
        c.check(where + QStringLiteral(" item text '") + t->text().left(20) + QLatin1Char('\''), t->color(), box);
    }
}

// Non-text contrast (WCAG 2.x 1.4.11): 3:1.
constexpr double kSeriesContrast = 3.0;

// The colour a plottable or item draws its series in: its pen, or its brush when it has no
// pen; invalid when both are translucent (a faint context band, the raw loss behind its
// smoothed curve) or absent.
QColor seriesInk(const QPen& pen, const QBrush& brush)
{
    if (pen.style() != Qt::NoPen && pen.color().alpha() == 255)
        return pen.color();
    if (brush.style() != Qt::NoBrush && brush.color().alpha() == 255)
        return brush.color();
    return {};
}

// The colour each series was drawn in, by plottable or item, in the other theme.
using SeriesInks = QHash<const QObject*, QColor>;

// Every series of a plot against its background. Plots with a heatmap are left out: what is
// drawn there (a marker) is drawn on the map's colours, not on the background. `inks` gets each
// series' colour; given `before` (the other theme's), a series drawn in the same colour in both
// fails: its colour was not chosen for the background (a literal).
int checkSeries(Checker& c, QCustomPlot* plot, SeriesInks* inks, const SeriesInks* before)
{
    for (int i = 0; i < plot->plottableCount(); ++i)
        if (qobject_cast<QCPColorMap*>(plot->plottable(i)))
            return 0;
    const QString where = nameOf(plot);
    const QColor bg = plotBackground(plot);
    int n = 0;
    auto check = [&](const QObject* o, const QString& what, const QColor& ink) {
        if (!ink.isValid())
            return;
        c.check(where + QStringLiteral(" series '") + what + QLatin1Char('\''), ink, bg, kSeriesContrast);
        ++n;
        (*inks)[o] = ink;
        if (before && before->contains(o) && before->value(o).rgb() == ink.rgb())
            c.failures << where + QStringLiteral(" series '") + what
                              + QStringLiteral("': %1 in both themes").arg(ink.name());
    };
    for (int i = 0; i < plot->plottableCount(); ++i) {
        QCPAbstractPlottable* p = plot->plottable(i);
        if (p->visible())
            check(p, p->name().isEmpty() ? QString::fromLatin1(p->metaObject()->className()) : p->name(),
                  seriesInk(p->pen(), p->brush()));
    }
    for (int i = 0; i < plot->itemCount(); ++i) {
        QCPAbstractItem* item = plot->item(i);
        if (!item->visible())
            continue;
        const QString what = QString::fromLatin1(item->metaObject()->className());
        if (auto* l = qobject_cast<QCPItemStraightLine*>(item))
            check(item, what, seriesInk(l->pen(), Qt::NoBrush));
        else if (auto* l = qobject_cast<QCPItemLine*>(item))
            check(item, what, seriesInk(l->pen(), Qt::NoBrush));
        else if (auto* t = qobject_cast<QCPItemTracer*>(item))
            check(item, what, seriesInk(t->pen(), t->brush()));
        else if (auto* r = qobject_cast<QCPItemRect*>(item))
            check(item, what, seriesInk(r->pen(), r->brush()));
    }
    return n;
}

// Colours named in a label's rich text: a span's colour on its own background-color, else on
// the label's background.
void checkRichText(Checker& c, const QString& where, const QString& html, const QColor& bg)
{
    static const QRegularExpression style(QStringLiteral("style=\"([^\"]*)\""));
    static const QRegularExpression colour(QStringLiteral("(?:^|;)\\s*color:\\s*(#[0-9a-fA-F]{6})"));
    static const QRegularExpression back(QStringLiteral("background-color:\\s*(#[0-9a-fA-F]{6})"));
    for (const QRegularExpressionMatch& m : style.globalMatch(html)) {
        const QString s = m.captured(1);
        const QRegularExpressionMatch fg = colour.match(s);
        if (!fg.hasMatch())
            continue;
        const QRegularExpressionMatch b = back.match(s);
        c.check(where + QStringLiteral(" rich text"), QColor(fg.captured(1)),
                b.hasMatch() ? QColor(b.captured(1)) : bg);
    }
}

void checkLabel(Checker& c, QLabel* label)
{
    if (label->text().isEmpty())
        return;
    const QPalette& p = label->palette();
    const QPalette::ColorGroup g = label->isEnabled() ? QPalette::Active : QPalette::Disabled;
    const QColor bg = p.color(g, label->backgroundRole());
    c.check(nameOf(label) + QStringLiteral(" '") + label->text().left(20) + QLatin1Char('\''),
            p.color(g, label->foregroundRole()), bg);
    checkRichText(c, nameOf(label), label->text(), bg);
}

// Cells whose background or text a view set (a highlight, a probability's tint).
void checkTable(Checker& c, QTableWidget* table)
{
    const QPalette& p = table->palette();
    for (int r = 0; r < table->rowCount(); ++r)
        for (int col = 0; col < table->columnCount(); ++col) {
            const QTableWidgetItem* item = table->item(r, col);
            if (!item || item->text().isEmpty())
                continue;
            const QVariant b = item->data(Qt::BackgroundRole), f = item->data(Qt::ForegroundRole);
            if (!b.isValid() && !f.isValid())
                continue;
            const QColor base = p.color(QPalette::Base);
            const QColor bg = b.isValid() ? over(b.value<QBrush>().color(), base) : base;
            const QColor fg = f.isValid() ? f.value<QBrush>().color() : p.color(QPalette::Text);
            c.check(nameOf(table) + QStringLiteral(" cell '") + item->text().left(20) + QLatin1Char('\''),
                    fg, bg);
        }
}

// The Translate view's source chips: each span's background-color and color, as its label
// draws them. Returns how many chips were found.
int checkChips(Checker& c, QLabel* chips, bool dark)
{
    static const QRegularExpression span(
        QStringLiteral("<span style=\"background-color:\\s*(#[0-9a-fA-F]{6});\\s*color:\\s*(#[0-9a-fA-F]{6})"));
    int n = 0;
    for (const QRegularExpressionMatch& m : span.globalMatch(chips->text())) {
        const QColor back(m.captured(1)), ink(m.captured(2));
        c.check(QStringLiteral("source chip"), ink, back);
        // A chip of the theme: dark on dark, light on light.
        if (dark ? luminance(back) > 0.2 : luminance(back) < 0.5)
            c.failures << QStringLiteral("source chip %1 on a %2 background").arg(back.name(), dark ? QStringLiteral("dark") : QStringLiteral("light"));
        ++n;
    }
    return n;
}

// inks/before: see checkSeries.
Checker checkWindow(MainWindow& w, int* series = nullptr, SeriesInks* inks = nullptr,
                    const SeriesInks* before = nullptr)
{
    Checker c;
    ui::replotQueuedNow();
    int n = 0;
    SeriesInks unused;
    for (QCustomPlot* plot : w.findChildren<QCustomPlot*>()) {
        checkPlot(c, plot);
        n += checkSeries(c, plot, inks ? inks : &unused, before);
    }
    if (series)
        *series = n;
    for (QLabel* label : w.findChildren<QLabel*>())
        checkLabel(c, label);
    for (QTableWidget* table : w.findChildren<QTableWidget*>())
        checkTable(c, table);
    return c;
}

// Each tab shown once, so that every view has drawn what it shows (the Model view traces only
// while shown).
bool visitTabs(MainWindow& w)
{
    QTabWidget* tabs = w.views()->tabs();
    for (int i = 0; i < tabs->count(); ++i) {
        tabs->setCurrentIndex(i);
        if (!test::settled(w))
            return false;
        QCoreApplication::processEvents();
    }
    return true;
}

QAction* themeAction(MainWindow& w, const QString& code)
{
    for (QAction* a : w.themeMenu()->actions())
        if (a->data().toString() == code)
            return a;
    return nullptr;
}

}  // namespace

class TestTheme : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void contrastFormula();
    void darkTextReadsEverywhere();
    void startupChoice();
    void seriesMarkersAreDrawnInTheirColour();
};

void TestTheme::contrastFormula()
{
    // Worked values of WCAG 2.x: black on white is 21:1, a colour on itself 1:1, #767676 on
    // white 4.54:1 (the lightest grey that passes AA).
    QCOMPARE(std::round(contrast(Qt::black, Qt::white) * 100) / 100, 21.0);
    QCOMPARE(contrast(QColor(30, 30, 30), QColor(30, 30, 30)), 1.0);
    QVERIFY(std::abs(contrast(QColor(0x76, 0x76, 0x76), Qt::white) - 4.54) < 0.01);
    QVERIFY(contrast(QColor(0x77, 0x77, 0x77), Qt::white) < 4.5);
}

void TestTheme::darkTextReadsEverywhere()
{
    QSettings().remove(QStringLiteral("window/theme"));
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    w.applySettings(SessionSettings::defaultsFor("toy"));
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == 0 && w.examplesShown() > 0; }, 20000));
    w.link()->step(12);
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == 12; }, 60000));
    QVERIFY(visitTabs(w));
    // A translation with a token the vocabulary lacks (猫): chips of both kinds.
    ui::TranslateView* translate = w.views()->translate();
    QSignalSpy translated(translate, &ui::TranslateView::translationFinished);
    translate->translate(QStringLiteral("我有一只猫"));
    QVERIFY(translated.wait(30000));
    QVERIFY(translate->lastRecord() && !translate->lastRecord()->unknown.isEmpty());

    // View > Theme > Dark: applied at once and remembered.
    QAction* dark = themeAction(w, QStringLiteral("dark"));
    QVERIFY(dark);
    dark->trigger();
    QCOMPARE(currentTheme(), QStringLiteral("dark"));
    QVERIFY(dark->isChecked());
    {
        QSettings store;
        QCOMPARE(rememberedTheme(store), QStringLiteral("dark"));
    }
    QCoreApplication::processEvents();
    w.link()->step(2);  // views that draw at each snapshot draw in the new colours too
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == 14; }, 60000));
    QVERIFY(visitTabs(w));

    const QList<QCustomPlot*> plots = w.findChildren<QCustomPlot*>();
    QVERIFY(plots.size() >= 20);
    // Every plot turned dark, its tick labels light.
    QHash<QCustomPlot*, QColor> darkBg, darkTicks;
    for (QCustomPlot* plot : plots) {
        const QColor bg = plotBackground(plot);
        QVERIFY2(luminance(bg) < 0.05, qPrintable(nameOf(plot) + QStringLiteral(" ") + bg.name()));
        darkBg[plot] = bg;
        darkTicks[plot] = plot->xAxis->tickLabelColor();
    }
    int series = 0;
    SeriesInks darkInks, lightInks;
    Checker c = checkWindow(w, &series, &darkInks);
    QVERIFY(series >= 15);  // the loss, learning-rate, health, heads, neuron, … curves and bars
    QVERIFY(checkChips(c, translate->sourceChips(), true) >= 2);
    QVERIFY2(c.failures.isEmpty(), qPrintable(c.failures.join(QLatin1Char('\n'))));
    QVERIFY(c.checked > 200);
    // The labels of the window itself (the status line, the settings panel) read on Window.
    QVERIFY(luminance(w.palette().color(QPalette::Window)) < 0.05);

    // Back to light at runtime: backgrounds and texts change, and still read.
    QAction* light = themeAction(w, QStringLiteral("light"));
    QVERIFY(light);
    light->trigger();
    QCOMPARE(currentTheme(), QStringLiteral("light"));
    // At once: by the time the event loop has run the posted events.
    auto allPlots = [&](auto light) {
        return std::all_of(plots.begin(), plots.end(), [&](QCustomPlot* plot) {
            return light(luminance(plotBackground(plot)));
        });
    };
    // Waited for here, checked plot by plot below with each plot named.
    (void)QTest::qWaitFor([&] { return allPlots([](double l) { return l > 0.8; }); }, 3000);
    ui::replotQueuedNow();
    for (QCustomPlot* plot : plots) {
        const QColor bg = plotBackground(plot);
        QVERIFY2(luminance(bg) > 0.8, qPrintable(nameOf(plot) + QStringLiteral(" ") + bg.name()));
        QVERIFY(bg != darkBg[plot]);
        QVERIFY(plot->xAxis->tickLabelColor() != darkTicks[plot]);
        QVERIFY(contrast(plot->xAxis->tickLabelColor(), bg) >= 4.5);
    }
    Checker lightChecks = checkWindow(w, &series, &lightInks, &darkInks);
    QVERIFY(series >= 15);
    QVERIFY(checkChips(lightChecks, translate->sourceChips(), false) >= 2);
    QVERIFY2(lightChecks.failures.isEmpty(), qPrintable(lightChecks.failures.join(QLatin1Char('\n'))));

    // And dark again: the same plots, dark again.
    dark->trigger();
    (void)QTest::qWaitFor([&] { return allPlots([](double l) { return l < 0.05; }); }, 3000);
    ui::replotQueuedNow();
    for (QCustomPlot* plot : plots)
        QCOMPARE(plotBackground(plot), darkBg[plot]);
    themeAction(w, QStringLiteral("system"))->trigger();
    QCOMPARE(currentTheme(), QStringLiteral("system"));
}

void TestTheme::startupChoice()
{
    QSettings store;
    rememberTheme(store, QStringLiteral("dark"));
    QCOMPARE(startupTheme(QString(), store), QStringLiteral("dark"));      // remembered
    QCOMPARE(startupTheme(QStringLiteral(" Light "), store), QStringLiteral("light"));  // --theme
    QCOMPARE(startupTheme(QStringLiteral("sepia"), store), QStringLiteral("dark"));  // unknown: ignored
    store.remove(QStringLiteral("window/theme"));
    QCOMPARE(startupTheme(QString(), store), QStringLiteral("system"));
    QVERIFY(!setTheme(QStringLiteral("sepia")));
    QCOMPARE(availableThemes(), (QStringList{"system", "light", "dark"}));
}

// A coloured series' markers are drawn in its colour, in both themes: a graph of one point (the
// loss view's first validation, the Health view's single step) shows as its marker alone. Read
// from the rendered pixels: a marker style made without a pen, QCPScatterStyle(shape, size),
// draws with the graph's pen, and colouring the series had given it a pen of its own, Qt::NoPen
// (hollow markers vanished; discs were black on either background).
void TestTheme::seriesMarkersAreDrawnInTheirColour()
{
    const QList<QCPScatterStyle::ScatterShape> shapes{
        QCPScatterStyle::ssCircle, QCPScatterStyle::ssDisc, QCPScatterStyle::ssSquare,
        QCPScatterStyle::ssDiamond};
    for (const bool dark : {false, true}) {
        const QPalette pal = dark ? darkPalette() : lightPalette();
        for (const QCPScatterStyle::ScatterShape shape : shapes) {
            QCustomPlot plot;
            plot.setPalette(pal);
            ui::followPalette(&plot);
            QCPGraph* g = plot.addGraph();
            g->setPen(QPen(Qt::black, 2));
            g->setScatterStyle(QCPScatterStyle(shape, 11));
            ui::setSeriesColour(g, 3);
            g->setData(QVector<double>{0.0}, QVector<double>{0.0});
            plot.xAxis->setRange(-1, 1);
            plot.yAxis->setRange(-1, 1);
            const QImage image = plot.toPixmap(200, 160).toImage();
            const QColor want = ui::seriesColour(3, pal);
            const QColor background = pal.color(QPalette::Base);
            QVERIFY(contrast(want, background) >= 3.0);
            int inColour = 0;
            for (int y = 0; y < image.height(); ++y)
                for (int x = 0; x < image.width(); ++x) {
                    const QColor c = image.pixelColor(x, y);
                    inColour += std::abs(c.red() - want.red()) + std::abs(c.green() - want.green())
                                    + std::abs(c.blue() - want.blue())
                                <= 30;
                }
            QVERIFY2(inColour >= 12, qPrintable(QStringLiteral("%1 theme, shape %2: %3 pixels "
                                                               "in the series' colour")
                                                    .arg(dark ? "dark" : "light")
                                                    .arg(int(shape))
                                                    .arg(inColour)));
        }
    }
}

AS_TEST_MAIN(TestTheme)
#include "test_theme.moc"
