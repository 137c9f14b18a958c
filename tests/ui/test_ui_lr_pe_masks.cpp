// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The learning-rate, positional-encoding and masks views: what they plot, read back from the
// plotted data and checked against the formulas of core/SPEC.md §2.1, §3.1, §4.6 written out
// here.
#include "skip.h"
#include "lr_view.h"
#include "masks_view.h"
#include "pe_view.h"
#include "plot_tools.h"
#include "train/schedule.h"
#include "train/snapshot.h"

#include <QCheckBox>
#include <QElapsedTimer>
#include <QImage>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QVBoxLayout>
#include <QtTest>

#include <cmath>
#include <random>

using namespace as;
using namespace as::ui;

namespace {

TrainingSnapshot lrSnapshot(int dModel, double factor, long warmup, long planned)
{
    TrainingSnapshot s;
    s.config.d_model = dModel;
    s.options.factor = factor;
    s.options.warmup = warmup;
    s.plannedSteps = planned;
    return s;
}

// core/SPEC.md §2.1: PE[pos, 2i] = sin(pos / 10000^(2i/d)), PE[pos, 2i+1] = cos(pos / 10000^(2i/d)).
double sinusoid(int pos, int dim, int d)
{
    const int i = dim / 2;
    const double angle = pos / std::pow(10000.0, 2.0 * i / d);
    return dim % 2 == 0 ? std::sin(angle) : std::cos(angle);
}

// Two sentences with padding; V = 11 so that every smoothed entry is drawn.
//   sentence 0: src 5 6 7 8      tgt 4 9 6  ->  tgtIn <s> 4 9 6 <pad>  tgtOut 4 9 6 </s> <pad>
//   sentence 1: src 9 5 <pad>..  tgt 10     ->  tgtIn <s> 10 <pad>..   tgtOut 10 </s> <pad>..
std::shared_ptr<BatchRecord> handBatch()
{
    auto b = std::make_shared<BatchRecord>();
    b->B = 2;
    b->S = 4;
    b->T = 5;
    b->src = {5, 6, 7, 8, /**/ 9, 5, 0, 0};
    b->tgtIn = {1, 4, 9, 6, 0, /**/ 1, 10, 0, 0, 0};
    b->tgtOut = {4, 9, 6, 2, 0, /**/ 10, 2, 0, 0, 0};
    b->tgtVocab = 11;
    b->labelSmoothing = 0.1;
    return b;
}

}  // namespace

class TestUiLrPeMasks : public QObject {
    Q_OBJECT
private slots:
    void lrCurveEqualsNoam_data();
    void lrCurveEqualsNoam();
    void lrConfigChangeAndZeroPlan();
    void lrAppliedPointsAccumulate();
    void lrOverlayToggles();
    void lrLogScale();
    void peCellsEqualSinusoids_data();
    void peCellsEqualSinusoids();
    void peFollowsSnapshot();
    void peHalvesAsMarianLaysThem();
    void masksMatchBatch();
    void masksSmoothingDistribution();
    void exportPngAndSvg();
    void hiddenPlotReplotsWhenShown();
    void queuedReplotsRunOnceEach();
    void singleRowAndColumnHeatmapsAreDrawn_data();
    void singleRowAndColumnHeatmapsAreDrawn();
};

void TestUiLrPeMasks::lrCurveEqualsNoam_data()
{
    QTest::addColumn<int>("dModel");
    QTest::addColumn<double>("factor");
    QTest::addColumn<qlonglong>("warmup");
    QTest::addColumn<qlonglong>("planned");
    QTest::addColumn<double>("tolerance");  // relative, between sampled points
    // Every step is plotted up to 2000 planned steps; beyond, the curve is sampled.
    QTest::newRow("d64 every step") << 64 << 1.0 << qlonglong(400) << qlonglong(1500) << 0.0;
    QTest::newRow("d256 sampled") << 256 << 2.0 << qlonglong(1000) << qlonglong(30000) << 1e-4;
}

void TestUiLrPeMasks::lrCurveEqualsNoam()
{
    QFETCH(int, dModel);
    QFETCH(double, factor);
    QFETCH(qlonglong, warmup);
    QFETCH(qlonglong, planned);
    QFETCH(double, tolerance);
    LrView view;
    view.applySnapshot(lrSnapshot(dModel, factor, warmup, planned));

    // The first step, the peak and the last step are always plotted points: exact.
    for (long s : {1L, long(warmup), long(planned)})
        QCOMPARE(view.curveValueAt(s), noamRate(s, dModel, factor, warmup));
    std::mt19937 rng(7);
    std::uniform_int_distribution<long> pick(1, planned);
    for (int k = 0; k < 50; ++k) {
        const long s = pick(rng);
        const double want = noamRate(s, dModel, factor, warmup);
        const double got = view.curveValueAt(s);
        if (tolerance == 0)
            QCOMPARE(got, want);
        else
            QVERIFY2(std::abs(got - want) <= tolerance * want,
                     qPrintable(QStringLiteral("step %1: %2 vs %3").arg(s).arg(got).arg(want)));
    }
    QVERIFY(std::isnan(view.curveValueAt(planned + 1)));
}

void TestUiLrPeMasks::lrConfigChangeAndZeroPlan()
{
    LrView view;
    view.applySnapshot(lrSnapshot(64, 1.0, 400, 1500));
    QCOMPARE(view.curveValueAt(400), noamRate(400, 64, 1.0, 400));
    // A new configuration redraws the curve; plannedSteps 0 plots 1000 steps.
    view.applySnapshot(lrSnapshot(512, 0.5, 100, 0));
    QCOMPARE(view.curveValueAt(1), noamRate(1, 512, 0.5, 100));
    QCOMPARE(view.curveValueAt(100), noamRate(100, 512, 0.5, 100));
    QCOMPARE(view.curveValueAt(1000), noamRate(1000, 512, 0.5, 100));
    QVERIFY(std::isnan(view.curveValueAt(1001)));
}

void TestUiLrPeMasks::lrAppliedPointsAccumulate()
{
    LrView view;
    QCOMPARE(view.appliedPointCount(), 0);
    TrainingSnapshot s = lrSnapshot(64, 1.0, 400, 1500);
    for (long k = 1; k <= 5; ++k)
        s.newLoss.push_back({k, 0.1 * k, 4.0, noamRate(k, 64, 1.0, 400), 10});
    s.step = 5;
    view.applySnapshot(s);
    QCOMPARE(view.appliedPointCount(), 5);
    s.newLoss.clear();
    for (long k = 6; k <= 8; ++k)
        s.newLoss.push_back({k, 0.1 * k, 4.0, noamRate(k, 64, 1.0, 400), 10});
    s.step = 8;
    view.applySnapshot(s);
    QCOMPARE(view.appliedPointCount(), 8);
    s.newLoss.clear();
    s.step = 9;
    view.applySnapshot(s);  // a snapshot without new steps adds nothing
    QCOMPARE(view.appliedPointCount(), 8);
    view.reset();
    QCOMPARE(view.appliedPointCount(), 0);
}

void TestUiLrPeMasks::lrOverlayToggles()
{
    LrView view;
    view.applySnapshot(lrSnapshot(64, 1.0, 400, 1500));
    QVERIFY(!view.overlayShown());
    QVERIFY(view.plot()->xAxis->range().upper < 20000);
    const int visibleBefore = [&] {
        int n = 0;
        for (int i = 0; i < view.plot()->graphCount(); ++i)
            n += view.plot()->graph(i)->visible();
        return n;
    }();

    QCheckBox* box = nullptr;
    for (QCheckBox* b : view.findChildren<QCheckBox*>())
        if (b->text().startsWith(QStringLiteral("Compare")))
            box = b;
    QVERIFY(box);
    box->click();
    QVERIFY(view.overlayShown());
    QVERIFY(view.plot()->xAxis->range().upper >= 20000);
    int visibleAfter = 0;
    for (int i = 0; i < view.plot()->graphCount(); ++i)
        visibleAfter += view.plot()->graph(i)->visible();
    QCOMPARE(visibleAfter, visibleBefore + 3);

    view.setOverlayShown(false);
    QVERIFY(!view.overlayShown());
    QVERIFY(view.plot()->xAxis->range().upper < 20000);
    // The current-settings curve is untouched by the overlay.
    QCOMPARE(view.curveValueAt(400), noamRate(400, 64, 1.0, 400));
}

// Log axis: from below the smallest rate drawn (warm-up 4000's first step, 2.5e-7 at d 256) to
// above the largest; back on the linear axis from 0.
void TestUiLrPeMasks::lrLogScale()
{
    LrView view;
    view.applySnapshot(lrSnapshot(256, 1.0, 4000, 1000));
    QCheckBox* box = nullptr;
    for (QCheckBox* b : view.findChildren<QCheckBox*>())
        if (b->text() == QStringLiteral("log scale"))
            box = b;
    QVERIFY(box);
    QVERIFY(!view.logScale());
    box->click();
    QVERIFY(view.logScale());
    QCOMPARE(view.plot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
    const QCPRange r = view.plot()->yAxis->range();
    const double first = noamRate(1, 256, 1.0, 4000), last = noamRate(1000, 256, 1.0, 4000);
    QVERIFY2(r.lower > 0 && r.lower <= first, qPrintable(QStringLiteral("%1 vs %2").arg(r.lower).arg(first)));
    QVERIFY(r.upper >= last);
    view.setLogScale(false);
    QVERIFY(!box->isChecked());
    QCOMPARE(view.plot()->yAxis->scaleType(), QCPAxis::stLinear);
    QCOMPARE(view.plot()->yAxis->range().lower, 0.0);
}

void TestUiLrPeMasks::peCellsEqualSinusoids_data()
{
    QTest::addColumn<int>("d");
    QTest::newRow("d16") << 16;
    QTest::newRow("d64") << 64;
}

void TestUiLrPeMasks::peCellsEqualSinusoids()
{
    QFETCH(int, d);
    PeView view;
    QCOMPARE(view.dModel(), 64);  // before any snapshot
    QCOMPARE(view.positions(), 100);
    view.setDModel(d);
    QCOMPARE(view.dModel(), d);
    for (int pos : {0, 1, 2, 7, 31, 50, 99})
        for (int dim = 0; dim < d; ++dim) {
            const double want = sinusoid(pos, dim, d);
            QVERIFY2(std::abs(view.cellValue(pos, dim) - want) <= 1e-12,
                     qPrintable(QStringLiteral("pos %1 dim %2").arg(pos).arg(dim)));
        }
    QVERIFY(std::isnan(view.cellValue(100, 0)));
    QVERIFY(std::isnan(view.cellValue(0, d)));
    // The similarity matrix: PE[a] . PE[b]; the diagonal is d / 2.
    for (auto [a, b] : {std::pair{0, 0}, {3, 3}, {0, 5}, {17, 42}, {99, 1}}) {
        double dot = 0;
        for (int dim = 0; dim < d; ++dim)
            dot += sinusoid(a, dim, d) * sinusoid(b, dim, d);
        QVERIFY(std::abs(view.similarityValue(a, b) - dot) <= 1e-9);
    }
    QVERIFY(std::abs(view.similarityValue(10, 10) - d / 2.0) <= 1e-9);
    QCOMPARE(view.plots().size(), 3);
}

void TestUiLrPeMasks::peFollowsSnapshot()
{
    PeView view;
    TrainingSnapshot s;
    s.config.d_model = 16;
    view.applySnapshot(s);
    QCOMPARE(view.dModel(), 16);
    QVERIFY(std::abs(view.cellValue(5, 3) - sinusoid(5, 3, 16)) <= 1e-12);
    view.setPositions(300);
    QCOMPARE(view.positions(), 300);
    QVERIFY(std::abs(view.cellValue(299, 0) - std::sin(299.0)) <= 1e-12);
    view.reset();
    QCOMPARE(view.dModel(), 64);
    s.config.d_model = 32;
    view.applySnapshot(s);
    QCOMPARE(view.dModel(), 32);
}

// Marian's layout (core/SPEC.md §2.13): column i the sine and column d/2 + i the cosine of
// frequency i, worked by hand; chosen by hand or by a snapshot of a model with that layout.
void TestUiLrPeMasks::peHalvesAsMarianLaysThem()
{
    PeView view;
    QVERIFY(!view.halves());
    view.setDModel(16);
    view.setHalves(true);
    QVERIFY(view.halves());
    for (int pos : {0, 1, 5, 42, 99})
        for (int i = 0; i < 8; ++i) {
            const double angle = pos / std::pow(10000.0, 2.0 * i / 16);
            QVERIFY(std::abs(view.cellValue(pos, i) - std::sin(angle)) <= 1e-12);
            QVERIFY(std::abs(view.cellValue(pos, 8 + i) - std::cos(angle)) <= 1e-12);
        }
    // The same numbers: each position's similarity to another is the interleaved table's.
    const double halvesSim = view.similarityValue(3, 40);
    view.setHalves(false);
    QVERIFY(std::abs(view.similarityValue(3, 40) - halvesSim) <= 1e-9);
    QVERIFY(std::abs(view.cellValue(42, 1) - sinusoid(42, 1, 16)) <= 1e-12);
    // A model opened with Marian's layout shows it; one without, the interleaved table.
    TrainingSnapshot s;
    s.config.d_model = 16;
    s.config.position = Position::SinusoidalHalves;
    view.applySnapshot(s);
    QVERIFY(view.halves());
    s.config.position = Position::Sinusoidal;
    view.applySnapshot(s);
    QVERIFY(!view.halves());
}

void TestUiLrPeMasks::masksMatchBatch()
{
    MasksView view;
    QVERIFY(std::isnan(view.paddingMaskCell(0, 0)));  // no batch yet
    const auto batch = handBatch();
    TrainingSnapshot s;
    s.batch = batch;
    view.applySnapshot(s);
    QCOMPARE(view.sentence(), 0);

    // Source padding mask [B, S].
    for (int b = 0; b < 2; ++b)
        for (int k = 0; k < 4; ++k)
            QCOMPARE(view.paddingMaskCell(b, k), batch->src[size_t(b * 4 + k)] != 0 ? 1.0 : 0.0);
    QCOMPARE(view.paddingMaskCell(1, 2), 0.0);
    QCOMPARE(view.paddingMaskCell(1, 3), 0.0);
    QCOMPARE(view.paddingMaskCell(1, 1), 1.0);

    // Decoder mask of sentence 0: tgtIn <s> 4 9 6 <pad>.
    for (int q = 0; q < 5; ++q)
        for (int k = 0; k < 5; ++k) {
            const double want = (k <= q && k != 4) ? 1.0 : 0.0;
            QCOMPARE(view.causalMaskCell(q, k), want);
            if (k > q)
                QCOMPARE(view.causalMaskCell(q, k), 0.0);  // upper triangle
        }
    // Sentence 1: tgtIn <s> 10 <pad> <pad> <pad>: only keys 0 and 1 can ever be attended.
    view.setSentence(1);
    QCOMPARE(view.sentence(), 1);
    for (int q = 0; q < 5; ++q)
        for (int k = 0; k < 5; ++k)
            QCOMPARE(view.causalMaskCell(q, k), (k <= q && k <= 1) ? 1.0 : 0.0);
    view.setSentence(5);  // beyond the batch: clamped by the spin box
    QCOMPARE(view.sentence(), 1);

    view.reset();
    QVERIFY(std::isnan(view.paddingMaskCell(0, 0)));
    QVERIFY(std::isnan(view.causalMaskCell(0, 0)));
}

void TestUiLrPeMasks::masksSmoothingDistribution()
{
    MasksView view;
    const auto batch = handBatch();
    view.setBatch(batch);
    const int V = batch->tgtVocab;
    const double eps = batch->labelSmoothing;
    const struct {
        int sentence;
        QList<int> targets;  // non-pad targets of the sentence, in order
    } cases[] = {{0, {4, 9, 6, 2}}, {1, {10, 2}}};
    for (const auto& c : cases) {
        view.setSentence(c.sentence);
        QCOMPARE(view.smoothingRows(), int(c.targets.size()));
        QCOMPARE(view.smoothingColumns(), V);
        for (int r = 0; r < c.targets.size(); ++r) {
            double sum = 0;
            for (int id = 0; id < V; ++id) {
                const double q = view.smoothingCell(r, id);
                // core/SPEC.md §3.1: q[target] = 1 - eps, q[<pad>] = 0, every other id eps / (V - 2).
                const double want =
                    id == c.targets[r] ? 1.0 - eps : (id == 0 ? 0.0 : eps / double(V - 2));
                QCOMPARE(q, want);
                sum += q;
            }
            QVERIFY(std::abs(sum - 1.0) <= 1e-12);
        }
        QVERIFY(std::isnan(view.smoothingCell(int(c.targets.size()), 0)));
    }

    // A large vocabulary: only the first 40 ids are drawn.
    auto big = std::make_shared<BatchRecord>(*batch);
    big->tgtVocab = 5000;
    view.setBatch(big);
    QCOMPARE(view.smoothingColumns(), 40);
    QCOMPARE(view.smoothingCell(0, 1), 0.1 / 4998.0);
}

void TestUiLrPeMasks::exportPngAndSvg()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    PeView view;
    view.resize(900, 700);
    view.show();
    QCoreApplication::processEvents();
    QCustomPlot* plot = view.plots().first();
    plot->replot();
    QString error;
    const QString png = dir.filePath(QStringLiteral("pe.png"));
    const QString svg = dir.filePath(QStringLiteral("pe.svg"));
    QVERIFY2(savePlotPng(plot, png, &error, 600, 400), qPrintable(error));
    QVERIFY2(savePlotSvg(plot, svg, &error), qPrintable(error));
    QVERIFY(QFileInfo(png).size() > 0);
    QVERIFY(QFileInfo(svg).size() > 0);

    const QImage image(png);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), QSize(600, 400));
    // Not blank: the grey levels vary, and a good part of the image is neither white nor flat.
    double sum = 0, sum2 = 0;
    int n = 0;
    for (int y = 0; y < image.height(); y += 3)
        for (int x = 0; x < image.width(); x += 3) {
            const double g = qGray(image.pixel(x, y));
            sum += g;
            sum2 += g * g;
            ++n;
        }
    const double mean = sum / n;
    const double variance = sum2 / n - mean * mean;
    QVERIFY2(variance > 100.0, qPrintable(QStringLiteral("variance %1").arg(variance)));
}

void TestUiLrPeMasks::singleRowAndColumnHeatmapsAreDrawn_data()
{
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("cols");
    QTest::newRow("1 x 3") << 1 << 3;  // e.g. the padding mask of a one-sentence batch
    QTest::newRow("3 x 1") << 3 << 1;
    QTest::newRow("1 x 1") << 1 << 1;
    QTest::newRow("2 x 3") << 2 << 3;
}

void TestUiLrPeMasks::singleRowAndColumnHeatmapsAreDrawn()
{
    QFETCH(int, rows);
    QFETCH(int, cols);
    QCustomPlot plot;
    plot.resize(300, 240);
    ui::Heatmap h = ui::makeHeatmap(&plot, false, ui::sequentialGradient());
    ui::setHeatmapData(h, rows, cols, [](int, int) { return 1.0; });
    const QImage img = plot.toPixmap(300, 240).toImage();
    // Every cell's centre, and a point a third of a cell from it, has the colour of 1 (dark),
    // not the white background.
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            for (double d : {0.0, 0.33, -0.33}) {
                const int x = int(plot.xAxis->coordToPixel(c + d));
                const int y = int(plot.yAxis->coordToPixel(r + d));
                QVERIFY2(qGray(img.pixel(x, y)) < 100,
                         qPrintable(QStringLiteral("cell (%1, %2) offset %3: gray %4")
                                        .arg(r).arg(c).arg(d).arg(qGray(img.pixel(x, y)))));
            }
}

void TestUiLrPeMasks::hiddenPlotReplotsWhenShown()
{
    // A plot on a hidden tab is not replotted on an update, but as soon as its tab is shown.
    QTabWidget tabs;
    auto* first = new QWidget;
    auto* plot = new QCustomPlot;
    tabs.addTab(first, QStringLiteral("first"));
    tabs.addTab(plot, QStringLiteral("plot"));
    tabs.resize(400, 300);
    tabs.show();
    QVERIFY(QTest::qWaitForWindowExposed(&tabs));
    int replots = 0;
    connect(plot, &QCustomPlot::afterReplot, plot, [&] { ++replots; });
    QCoreApplication::processEvents();
    replots = 0;
    ui::replotIfVisible(plot);
    ui::replotIfVisible(plot);
    QCoreApplication::processEvents();
    QCOMPARE(replots, 0);
    tabs.setCurrentIndex(1);
    QVERIFY(QTest::qWaitFor([&] { return replots > 0; }, 2000));
    // Shown: an update replots (queued) without anything else.
    const int before = replots;
    ui::replotIfVisible(plot);
    QVERIFY(QTest::qWaitFor([&] { return replots > before; }, 2000));
    // Hidden again: an update waits for the next show (the filter is installed once).
    tabs.setCurrentIndex(0);
    QCoreApplication::processEvents();
    const int hidden = replots;
    ui::replotIfVisible(plot);
    QCoreApplication::processEvents();
    QCOMPARE(replots, hidden);
    tabs.setCurrentIndex(1);
    QVERIFY(QTest::qWaitFor([&] { return replots > hidden; }, 2000));
}

void TestUiLrPeMasks::queuedReplotsRunOnceEach()
{
    // Plots queued for a replot are replotted once each however often they were queued, in
    // turn as the event loop runs, or all at once by replotQueuedNow(); a plot destroyed while
    // it waited is skipped.
    //
    // QCustomPlot replots by itself too (on a resize, or a paint at another device pixel
    // ratio), and the offscreen platform may deliver a late expose or resize after the window
    // is shown: counting across a wait of wall time (qWait) could gain one of those. So the
    // counts are taken relative to a baseline taken once the plots have settled, and the queue
    // is run by passes of the event loop without waiting (flush), which is all it needs: it is
    // driven by a zero-interval timer.
    QWidget window;
    auto* layout = new QVBoxLayout(&window);
    std::vector<QCustomPlot*> plots;
    std::vector<int> replots(3, 0);
    for (int i = 0; i < 3; ++i) {
        plots.push_back(new QCustomPlot);
        layout->addWidget(plots.back());
        connect(plots.back(), &QCustomPlot::afterReplot, plots.back(), [&replots, i] { ++replots[std::size_t(i)]; });
    }
    auto* doomed = new QCustomPlot;  // a window of its own: deleting it resizes no other plot
    doomed->show();
    window.resize(400, 600);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(QTest::qWaitForWindowExposed(doomed));
    // Settled: no replot of any kind for 300 ms.
    QElapsedTimer quiet;
    quiet.start();
    for (std::vector<int> last = replots; quiet.elapsed() < 300;) {
        QTest::qWait(20);
        if (replots != last) {
            last = replots;
            quiet.restart();
        }
    }
    auto flush = [] {
        for (int i = 0; i < 20; ++i)
            QCoreApplication::processEvents();
    };
    auto since = [&](const std::vector<int>& base) {
        std::vector<int> d(3);
        for (int i = 0; i < 3; ++i)
            d[std::size_t(i)] = replots[std::size_t(i)] - base[std::size_t(i)];
        return d;
    };
    const std::vector<int> base = replots;

    for (QCustomPlot* p : plots)
        ui::replotIfVisible(p);
    ui::replotIfVisible(plots[0]);
    QCOMPARE(since(base), std::vector<int>({0, 0, 0}));  // queued, not yet run
    QCoreApplication::processEvents();  // one pass: at most one plot (plot_tools.h)
    {
        const std::vector<int> d = since(base);
        QVERIFY(d[1] == 0 && d[2] == 0 && d[0] <= 1);
    }
    flush();
    QCOMPARE(since(base), std::vector<int>({1, 1, 1}));

    ui::replotIfVisible(doomed);
    ui::replotIfVisible(plots[1]);
    ui::replotIfVisible(plots[2]);
    delete doomed;
    ui::replotQueuedNow();  // no event loop in between
    QCOMPARE(since(base), std::vector<int>({1, 2, 2}));
    flush();  // nothing is left to run later
    QCOMPARE(since(base), std::vector<int>({1, 2, 2}));
}

AS_TEST_MAIN(TestUiLrPeMasks)
#include "test_ui_lr_pe_masks.moc"
