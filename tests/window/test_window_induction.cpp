// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The Induction heads view in the window (issue 61), on a few dozen steps of the repeat task:
//  - each validation's induction record reaches the view (and, whole, after a checkpoint's
//    history replaces the views');
//  - "Ablate the induction head" and "Ablate the previous-token head" set the window's head
//    mutes (the Heads view shows them) and the validations after them are measured with exactly
//    that head masked; "Restore" unmutes;
//  - a click on a head of the map shows it in the Attention view at the record's step;
//  - the phase change the view finds is marked on the Loss view (one place), and forgotten with
//    the model.
#include "skip.h"
#include "attention_view.h"
#include "heads_controller.h"
#include "heads_view.h"
#include "induction_view.h"
#include "loss_view.h"
#include "main_window.h"
#include "view_set.h"
#include "window_runs.h"
#include "worker_link.h"

#include "run/settings.h"

#include <QPushButton>
#include <QStandardPaths>
#include <QTest>

using namespace as;
using namespace Qt::StringLiterals;

class TestWindowInduction : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void recordsAblationAndClicks();
    void phaseChangeOnTheLossView();
};

namespace {

// Trains `steps` more steps and waits until the validation at the last one has reached the view.
bool trainTo(MainWindow& w, long target)
{
    ui::InductionView* v = w.views()->induction();
    w.link()->step(int(target - w.currentStep()));
    return QTest::qWaitFor([&] { return w.currentStep() == target && v->recordCount() > 0
                                        && v->shownRecord()->step == target; }, 60000);
}

int indexOf(const HeadId& id, int heads)
{
    return id.layer * heads + id.head;
}

}  // namespace

void TestWindowInduction::recordsAblationAndClicks()
{
    MainWindow w;
    w.resize(1280, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    SessionSettings s = SessionSettings::defaultsFor(u"repeat"_s);
    s.evalEvery = 10;
    w.applySettings(s);
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == 0; }, 20000));
    ui::InductionView* v = w.views()->induction();
    QVERIFY(trainTo(w, 20));
    QCOMPARE(v->recordCount(), 2);  // steps 10 and 20
    QVERIFY(v->shownRecord()->masked.empty());
    const int heads = v->shownRecord()->heads;
    QVERIFY(v->shownRecord()->layers >= 2);

    // Twenty steps in, the top head may still be in the first layer: the record at step 20
    // replaced (as a record of the same step does) by one whose circuit is known — top
    // induction head layer 2 head 1, fed by layer 1's head 2.
    {
        InductionRecord r = *v->shownRecord();
        std::fill(r.induction.begin(), r.induction.end(), 0.01);
        std::fill(r.previous.begin(), r.previous.end(), 0.02);
        r.induction[std::size_t(heads)] = 0.9;
        r.previous[1] = 0.8;
        v->addRecord(std::make_shared<const InductionRecord>(r));
        QCOMPARE(v->recordCount(), 2);
    }
    // Ablate the induction head: the window's mutes, and the next validation masks it alone.
    QCOMPARE(v->circuitInductionHead(), std::optional<HeadId>(HeadId{AttentionKind::DecoderSelf, 1, 0}));
    QCOMPARE(v->circuitPreviousHead(), std::optional<HeadId>(HeadId{AttentionKind::DecoderSelf, 0, 1}));
    const HeadId top = *v->circuitInductionHead();
    v->ablateInductionButton()->click();
    QCOMPARE(w.heads()->mutedHeads(), std::vector<HeadId>{top});
    QVERIFY(w.views()->heads()->isMutedShown(top));
    QVERIFY(v->restoreButton()->isEnabled());
    QVERIFY(trainTo(w, 30));
    QCOMPARE(v->shownRecord()->masked, std::vector<int>{indexOf(top, heads)});
    // The circuit stays the one measured without ablation.
    QCOMPARE(v->circuitInductionHead(), std::optional<HeadId>(top));

    // The previous-token head instead.
    const HeadId feeder = *v->circuitPreviousHead();
    QVERIFY(feeder.layer < top.layer);
    v->ablatePreviousButton()->click();
    QCOMPARE(w.heads()->mutedHeads(), std::vector<HeadId>{feeder});
    QVERIFY(trainTo(w, 40));
    QCOMPARE(v->shownRecord()->masked, std::vector<int>{indexOf(feeder, heads)});
    v->drawNow();
    QCOMPARE(v->firstCopyGraph(true)->dataCount(), 2);   // steps 30, 40
    QCOMPARE(v->firstCopyGraph(false)->dataCount(), 2);  // steps 10, 20

    // Restore: no mute, and the next validation is the whole model's.
    v->restoreButton()->click();
    QVERIFY(w.heads()->mutedHeads().empty());
    QVERIFY(!w.views()->heads()->isMutedShown(feeder));
    QVERIFY(!v->restoreButton()->isEnabled());
    QVERIFY(trainTo(w, 50));
    QVERIFY(v->shownRecord()->masked.empty());

    // A head of the map: shown in Attention, at the step of the record shown.
    w.views()->showView(v);
    v->showRecord(1);
    QCoreApplication::processEvents();
    ui::replotQueuedNow();
    const HeadId clicked{AttentionKind::DecoderSelf, 1, heads - 1};
    QTest::mouseClick(v->mapPlot(), Qt::LeftButton, {}, v->mapCellCentre(clicked.layer, clicked.head));
    ui::AttentionView* att = w.views()->attention();
    QVERIFY(att->isVisible());
    QCOMPARE(att->kind(), AttentionKind::DecoderSelf);
    QCOMPARE(att->layer(), clicked.layer);
    QCOMPARE(att->enlargedHead(), clicked.head);
    QCOMPARE(att->shownStep(), 20L);
}

void TestWindowInduction::phaseChangeOnTheLossView()
{
    MainWindow w;
    w.resize(1280, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    ViewSet* views = w.views();
    // A checkpoint's history, as the worker sends it: the records whole, the phase change at
    // step 200 (top induction 0.5, later copies 2 nats below the first).
    TrainingSnapshot s;
    s.replacesHistory = true;
    s.config.encoder_layers = 0;
    s.config.decoder_layers = 2;
    for (long step : {100L, 200L, 300L}) {
        auto r = std::make_shared<InductionRecord>();
        r->step = step;
        r->layers = 2;
        r->heads = 2;
        r->induction = {0.0, 0.0, step >= 200 ? 0.5 : 0.1, 0.0};
        r->previous = r->duplicate = r->copying = {0.1, 0.2, 0.3, 0.4};
        r->composition.assign(16, std::nan(""));
        r->firstCopyLoss = 4;
        r->laterCopyLoss = step >= 200 ? 2 : 4;
        s.inductionHistory.push_back(r);
        s.newEval.push_back({step, double(step) / 10, 3.0, 0.2});
        s.newLoss.push_back({step, double(step) / 10, 3.0, 1e-3, 10});
    }
    views->applySnapshot(s);
    QCOMPARE(views->induction()->recordCount(), 3);
    QCOMPARE(views->induction()->phaseChange(), std::optional<long>(200));
    QCOMPARE(views->loss()->phaseChange(), std::optional<long>(200));
    QVERIFY(views->loss()->phaseLine()->visible());
    QVERIFY(views->loss()->csv().contains(u"\nphase_change,200,"_s));
    // Another model: gone from both.
    views->reset();
    QCOMPARE(views->induction()->recordCount(), 0);
    QVERIFY(!views->loss()->phaseChange());
    QVERIFY(!views->loss()->phaseLine()->visible());
}

AS_TEST_MAIN(TestWindowInduction)
#include "test_window_induction.moc"
