// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The Model tab in the window: the worker traces the probe only while the tab is shown (a
// forward pass per snapshot), the trace is of the current weights and the probe the Attention
// view shows, and "Show in the Attention view" opens that head there. The computation panel
// follows the Attention view's replay slider: moving it back to step k shows the trace of step k,
// whose attention weights are the Attention view's at step k and not the live step's.
#include "skip.h"
#include "main_window.h"
#include "view_set.h"
#include "window_runs.h"
#include "worker_link.h"
#include "attention_view.h"
#include "model_view.h"

#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QStandardPaths>
#include <QtTest>

using namespace as;

class TestWindowModel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void tracedWhileShown();
    void followsTheReplay();
};

void TestWindowModel::tracedWhileShown()
{
    MainWindow w;
    w.show();
    w.applySettings(SessionSettings::defaultsFor("toy"));
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == 0 && w.examplesShown() > 0; }, 20000));
    // Hidden: snapshots come without a trace.
    int traced = 0, snapshots = 0;
    connect(w.link(), &WorkerLink::snapshotReady, this, [&](const SnapshotPtr& s) {
        ++snapshots;
        traced += s->trace != nullptr;
    });
    w.link()->step(3);
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == 3; }, 20000));
    QVERIFY(test::settled(w));
    QVERIFY(snapshots > 0);
    QCOMPARE(traced, 0);
    ui::ModelView* v = w.views()->model();
    QVERIFY(!v->record());

    // Shown: a trace at once, of this step's weights and the probe.
    w.views()->showView(v);
    QVERIFY(QTest::qWaitFor([&] { return v->record() && v->record()->step == 3; }, 20000));
    const ui::AttentionView* a = w.views()->attention();
    QCOMPARE(v->record()->srcTokens, a->colLabels(0).mid(0, v->record()->srcTokens.size()));
    QCOMPARE(v->record()->config.heads, w.settings().model.heads);
    QCOMPARE(v->diagram()->config().encoder_layers, w.settings().model.encoder_layers);
    // And with each step while shown.
    w.link()->step(2);
    QVERIFY(QTest::qWaitFor([&] { return v->record()->step == 5; }, 20000));
    // The attention weights it shows are the Attention view's, for the same head.
    v->selectBlock(ui::ModelBlock::EncSelf);
    v->setLayer(0);
    v->setHead(1);
    QVERIFY(test::settled(w));
    for (int q = 0; q < v->map(4).rows; ++q)
        for (int k = 0; k < v->map(4).cols; ++k)
            QVERIFY(std::abs(ui::heatmapCell(v->map(4), q, k) - a->weight(1, q, k)) < 1e-6);

    // Show in the Attention view: that tab, kind, layer and head.
    v->selectBlock(ui::ModelBlock::DecCross);
    v->setLayer(1);
    v->setHead(2);
    QPushButton* button = nullptr;
    for (QPushButton* b : v->findChildren<QPushButton*>())
        if (b->text().contains(QStringLiteral("Attention view")))
            button = b;
    QVERIFY(button);
    button->click();
    QCOMPARE(w.views()->currentView(), w.views()->attentionPage());
    QCOMPARE(a->kind(), AttentionKind::Cross);
    QCOMPARE(a->layer(), 1);
    QCOMPARE(a->enlargedHead(), 2);

    // Hidden again: no more traces.
    QVERIFY(test::settled(w));
    traced = 0;
    w.link()->step(2);
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == 7; }, 20000));
    QVERIFY(test::settled(w));
    QCOMPARE(traced, 0);
    w.close();
}

void TestWindowModel::followsTheReplay()
{
    MainWindow w;
    w.show();
    w.applySettings(SessionSettings::defaultsFor("toy"));
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == 0 && w.examplesShown() > 0; }, 20000));
    ui::ModelView* v = w.views()->model();
    ui::AttentionView* a = w.views()->attention();
    w.views()->showView(v);
    QVERIFY(QTest::qWaitFor([&] { return v->record() && v->record()->step == 0; }, 20000));
    // N = 6 steps, one at a time: a trace and an attention record at each.
    const int N = 6;
    for (int n = 1; n <= N; ++n) {
        w.link()->step(1);
        QVERIFY(QTest::qWaitFor([&] { return v->record() && v->record()->step == n; }, 20000));
    }
    QVERIFY(test::settled(w));
    QVERIFY(v->isLive());
    QVERIFY(v->historySize() >= N);
    QVERIFY(a->historySize() >= N);
    v->selectBlock(ui::ModelBlock::EncSelf);
    v->setLayer(0);
    v->setHead(1);
    a->setKind(AttentionKind::EncoderSelf);
    a->setLayer(0);
    // The live weights, to tell the replayed ones from.
    std::vector<double> live;
    for (int q = 0; q < v->map(4).rows; ++q)
        for (int k = 0; k < v->map(4).cols; ++k)
            live.push_back(ui::heatmapCell(v->map(4), q, k));

    // The Attention view's replay slider to step k = 2, as a user drags it.
    const long k = 2;
    int index = -1;
    QSlider* slider = nullptr;
    for (QSlider* s : a->findChildren<QSlider*>())
        slider = s;
    QVERIFY(slider);
    a->showStep(k);
    index = a->shownHistoryIndex();
    a->showHistoryIndex(a->historySize() - 1);
    QCOMPARE(v->shownStep(), long(N));
    slider->setValue(index);
    QCOMPARE(a->shownStep(), k);
    QCOMPARE(v->shownStep(), k);
    QVERIFY(!v->isLive());
    QVERIFY(v->stepLabel()->text().contains(QStringLiteral("step 2")));
    // Its weights: the Attention view's at step k, not the live step's.
    QVERIFY(test::settled(w));
    double apart = 0;
    std::size_t i = 0;
    for (int q = 0; q < v->map(4).rows; ++q)
        for (int c = 0; c < v->map(4).cols; ++c, ++i) {
            const double shown = ui::heatmapCell(v->map(4), q, c);
            QVERIFY2(std::abs(shown - a->weight(1, q, c)) < 1e-6, qPrintable(QStringLiteral("%1 %2").arg(q).arg(c)));
            apart = std::max(apart, std::abs(shown - live[i]));
        }
    QVERIFY2(apart > 1e-6, "the replayed step's weights are the live step's");
    // Cross-attention too.
    v->selectBlock(ui::ModelBlock::DecCross);
    a->setKind(AttentionKind::Cross);
    QVERIFY(test::settled(w));
    for (int q = 0; q < v->map(4).rows; ++q)
        for (int c = 0; c < v->map(4).cols; ++c)
            QVERIFY(std::abs(ui::heatmapCell(v->map(4), q, c) - a->weight(1, q, c)) < 1e-6);

    // A new step keeps the replayed one shown; the Model view's own slider moves it; Live
    // (the Attention view's) follows the latest again.
    w.link()->step(1);
    QVERIFY(QTest::qWaitFor([&] { return v->historySize() > N + 1; }, 20000));
    QVERIFY(test::settled(w));
    QCOMPARE(v->shownStep(), k);
    v->replaySlider()->setValue(0);
    QCOMPARE(v->shownStep(), 0L);
    QToolButton* liveButton = nullptr;
    for (QToolButton* b : a->findChildren<QToolButton*>())
        if (b->text() == QStringLiteral("Live"))
            liveButton = b;
    QVERIFY(liveButton);
    liveButton->click();
    QVERIFY(v->isLive());
    QCOMPARE(v->shownStep(), long(N + 1));
    w.close();
}

AS_TEST_MAIN(TestWindowModel)
#include "test_window_model.moc"
