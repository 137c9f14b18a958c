// The Health tab on the window's own run: a few steps fill its heatmap (one column per step,
// each cell log10 of a plausible update ratio); after a step whose gradient overflows (a Noam
// factor of 1e30, as in test_window_fault) the marker sits at that step on the row of the tensor
// the pause message names, and the histograms were recorded at their interval.
#include "skip.h"
#include "main_window.h"
#include "view_set.h"
#include "worker_link.h"
#include "window_runs.h"
#include "health_view.h"

#include <QtTest>
#include <QMessageBox>
#include <QRegularExpression>
#include <QStandardPaths>

using namespace as;

class TestWindowHealth : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void heatmapFillsAsTheRunGoes();
    void markerAtTheFirstNonFiniteTensor();
};

void TestWindowHealth::heatmapFillsAsTheRunGoes()
{
    MainWindow w;
    w.show();
    w.applySettings(SessionSettings::defaultsFor("toy"));
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == 0 && w.examplesShown() > 0; }, 20000));
    const int n = TrainingWorker::kHistogramEvery + 2;
    w.link()->step(n);
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == n; }, 20000));
    QVERIFY(test::settled(w));  // the last snapshot has arrived
    ui::HealthView* v = w.views()->health();
    v->redrawNow();
    QCOMPARE(v->recordCount(), n);
    QCOMPARE(v->histogramCount(), 1);
    const ui::Heatmap& h = v->ratioMap();
    QCOMPARE(h.cols, n);
    QVERIFY(h.rows > 10);
    QCOMPARE(v->stepOfColumn(n - 1), long(n));
    int finite = 0;
    for (int r = 0; r < h.rows; ++r)
        for (int c = 0; c < h.cols; ++c) {
            const double x = ui::heatmapCell(h, r, c);
            // Biases start at 0 (no ratio: no colour) and the first steps move them by more
            // than their size; nothing moves by 100 times its norm.
            QVERIFY2(std::isnan(x) || (x < 2 && x > -12), qPrintable(QString::number(x)));
            finite += !std::isnan(x);
        }
    QVERIFY(finite > h.rows * h.cols / 2);
    double step = 0, row = 0;
    QVERIFY(!v->nonFiniteMarker(&step, &row));
    w.close();
}

void TestWindowHealth::markerAtTheFirstNonFiniteTensor()
{
    MainWindow w;
    w.show();
    SessionSettings s = SessionSettings::defaultsFor("toy");
    s.train.factor = 1e30;  // step 1 is finite, step 2 overflows
    w.applySettings(s);
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == 0 && w.examplesShown() > 0; }, 20000));
    const test::MessageBoxes reader;  // closes them as a user would
    const QStringList& boxes = reader.seen();
    w.link()->step(5);
    QVERIFY2(QTest::qWaitFor([&] { return !boxes.isEmpty(); }, 20000), "no message");
    QCOMPARE(w.currentStep(), 1L);
    const QRegularExpressionMatch m =
        QRegularExpression(QStringLiteral("step 2: .*the gradient of (\\S+) is")).match(boxes.first());
    QVERIFY2(m.hasMatch(), qPrintable(boxes.first()));

    w.views()->tabs()->setCurrentWidget(w.views()->health());
    QVERIFY(test::settled(w));  // the worker pauses and sends its snapshot before the message
    ui::HealthView* v = w.views()->health();
    v->redrawNow();
    QVERIFY(v->nonFinite());
    QCOMPARE(v->nonFinite()->step, 2L);
    double step = 0, row = 0;
    QVERIFY(v->nonFiniteMarker(&step, &row));
    QCOMPARE(step, 2.0);
    const int tensor = v->tensorOfRow(int(row));
    QVERIFY(tensor >= 0);
    QCOMPARE(v->tensorName(tensor), m.captured(1));  // the marker's row is the named tensor's
    QVERIFY2(v->faultText().contains(m.captured(1) + QStringLiteral(" at step 2")), qPrintable(v->faultText()));
    QCOMPARE(v->recordCount(), 1);  // step 1 only: the skipped step records nothing
    w.close();
}

AS_TEST_MAIN(TestWindowHealth)
#include "test_window_health.moc"
