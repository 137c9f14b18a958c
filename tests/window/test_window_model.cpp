// The Model tab in the window: the worker traces the probe only while the tab is shown (a
// forward pass per snapshot), the trace is of the current weights and the probe the Attention
// view shows, and "Show in the Attention view" opens that head there.
#include "skip.h"
#include "main_window.h"
#include "view_set.h"
#include "window_runs.h"
#include "worker_link.h"
#include "attention_view.h"
#include "model_view.h"

#include <QPushButton>
#include <QStandardPaths>
#include <QtTest>

using namespace as;

class TestWindowModel : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void tracedWhileShown();
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

AS_TEST_MAIN(TestWindowModel)
#include "test_window_model.moc"
