// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
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
#include "cli_process.h"

#include "model/parallel.h"
#include "run/make_session.h"
#include "train/health.h"

#include <QtTest>
#include <QMessageBox>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <cmath>
#include <map>

using namespace as;

class TestWindowHealth : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void heatmapFillsAsTheRunGoes();
    void cellsEqualTheLogAndCountsByHand();
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

// The view's numbers against independent ones. Update ratios: every cell of the heatmap is
// log10 of the update_ratio that `train --log` writes for that tensor and step (same task,
// seed and threads: the same run). Histograms: the weight and gradient maps' column at the
// histogram step is log10(count / total) of counts made here by hand, in double, from the
// weights after that step and its gradient, taken from a session of the same settings.
void TestWindowHealth::cellsEqualTheLogAndCountsByHand()
{
    constexpr int kEvery = TrainingWorker::kHistogramEvery;
    constexpr int n = kEvery + 2;
    SessionSettings s = SessionSettings::defaultsFor("toy");
    s.plannedSteps = n;
    s.train.clipNorm = 0;  // the gradient the histogram counts is the one the step applied
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString log = dir.filePath("run.jsonl");
    QVERIFY(test::runCli({"train", "--threads", "1", "--task", "toy", "--steps", QString::number(n), "--seed",
                          QString::number(s.train.seed), "--clip-norm", "0", "--log", log, "--out",
                          dir.filePath("m.safetensors")}));
    // step -> tensor name -> update ratio
    std::map<long, std::map<QString, double>> logged;
    {
        QFile f(log);
        QVERIFY(f.open(QIODevice::ReadOnly));
        for (const QByteArray& line : f.readAll().split('\n')) {
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            if (!o.contains("tensors"))
                continue;
            const QJsonObject t = o.value("tensors").toObject();
            for (auto it = t.begin(); it != t.end(); ++it)
                logged[long(o.value("step").toDouble())][it.key()] = it.value().toObject().value("update_ratio").toDouble();
        }
    }
    QCOMPARE(int(logged.size()), n);

    setEngineThreads(1);
    MainWindow w;
    w.show();
    w.applySettings(s);
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == 0 && w.examplesShown() > 0; }, 20000));
    w.link()->step(n);
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == n; }, 60000));
    QVERIFY(test::settled(w));
    ui::HealthView* v = w.views()->health();
    v->redrawNow();
    const ui::Heatmap& h = v->ratioMap();
    QCOMPARE(h.cols, n);
    int compared = 0;
    for (int c = 0; c < h.cols; ++c) {
        const long step = v->stepOfColumn(c);
        QCOMPARE(step, long(c + 1));
        for (int r = 0; r < h.rows; ++r) {
            const QString name = v->tensorName(v->tensorOfRow(r));
            QVERIFY2(logged[step].count(name), qPrintable(name));
            const double ratio = logged[step][name];
            const double cell = ui::heatmapCell(h, r, c);
            if (!(ratio > 0)) {
                QVERIFY2(std::isnan(cell), qPrintable(QStringLiteral("%1 at %2").arg(name).arg(step)));
                continue;
            }
            QVERIFY2(std::abs(cell - std::log10(ratio)) < 1e-9,
                     qPrintable(QStringLiteral("%1 at step %2: cell %3, log %4").arg(name).arg(step).arg(cell).arg(std::log10(ratio))));
            ++compared;
        }
    }
    QVERIFY(compared > h.rows * h.cols / 2);

    // The same run in a session here, to the histogram step.
    QString error;
    SessionSettings same = s;
    std::unique_ptr<TrainingSession> session = makeSession(makeSessionData(same, &error), &same, &error);
    QVERIFY2(session, qPrintable(error));
    for (int i = 0; i < kEvery; ++i)
        QVERIFY(session->step().stats.applied);
    const ParamStore<float>& ps = session->model().params();
    QCOMPARE(v->histogramCount(), 1);
    // Each tensor in turn shown (its histograms are the chosen tensor's).
    int tensorsChecked = 0;
    for (int t : {0, int(ps.table().size()) / 2, int(ps.table().size()) - 1}) {
        v->chooseTensors({t});
        QCOMPARE(v->histogramTensor(), t);
        v->redrawNow();
        const auto& info = ps.table()[std::size_t(t)];
        for (int k = 0; k < 2; ++k) {
            const float* x = (k == 0 ? ps.valueVector().data() : ps.gradVector().data()) + info.offset;
            std::vector<double> counts(kHistogramBins, 0.0);
            std::vector<double> nearEdge(kHistogramBins, 0.0);  // within a float rounding of an edge
            for (std::size_t i = 0; i < info.size; ++i) {
                const double a = std::abs(double(x[i]));
                const double pos = a > 0 ? (std::log10(a) - kHistogramLowDecade) * kHistogramBinsPerDecade : -1.0;
                const int bin = std::clamp(int(std::floor(pos)), 0, kHistogramBins - 1);
                counts[std::size_t(bin)] += 1;
                if (a > 0 && std::abs(pos - std::round(pos)) < 1e-5)
                    nearEdge[std::size_t(bin)] += 1;
            }
            const ui::Heatmap& m = k == 0 ? v->weightHistogramMap() : v->gradHistogramMap();
            QCOMPARE(m.rows, kHistogramBins);
            QCOMPARE(m.cols, 1);
            for (int b = 0; b < kHistogramBins; ++b) {
                const double cell = ui::heatmapCell(m, b, 0);
                const QString what = QStringLiteral("%1 %2 bin %3: cell %4, %5 of %6 by hand")
                                         .arg(k == 0 ? "weights" : "gradients", QString::fromStdString(info.name))
                                         .arg(b).arg(cell).arg(counts[std::size_t(b)]).arg(info.size);
                if (counts[std::size_t(b)] == 0 && nearEdge[std::size_t(b)] == 0) {
                    QVERIFY2(std::isnan(cell), qPrintable(what));
                    continue;
                }
                const double shown = std::isnan(cell) ? 0.0 : std::pow(10.0, cell) * double(info.size);
                QVERIFY2(std::abs(shown - counts[std::size_t(b)]) <= nearEdge[std::size_t(b)] + 1e-6 * double(info.size)
                             + (b > 0 ? nearEdge[std::size_t(b - 1)] : 0.0),
                         qPrintable(what));
            }
        }
        ++tensorsChecked;
    }
    QCOMPARE(tensorsChecked, 3);
    w.close();
    setEngineThreads(1);
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

    w.views()->showView(w.views()->health());
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
