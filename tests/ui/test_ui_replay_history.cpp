// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The replay history the Attention and Model views share (ui/replay_history.h), worked by hand
// at capacity 4 (appendThinned keeps steps 1 2 3 4, then 1 3 5 when 5 comes): a record appended
// while live is shown; one appended while replaying leaves the replayed step shown, or the
// nearest earlier one kept when thinning dropped it; a record of an earlier step starts a new
// run, shown; a step between records shows the record before it.
#include "skip.h"
#include "replay_history.h"

#include <QtTest>

using namespace as;

namespace {

struct Rec {
    long step = 0;
};
using Ptr = std::shared_ptr<const Rec>;
using History = ui::ReplayHistory<Rec>;

Ptr rec(long step)
{
    return std::make_shared<const Rec>(Rec{step});
}

QList<long> steps(const History& h)
{
    QList<long> s;
    for (int i = 0; i < h.size(); ++i)
        s << h.at(i)->step;
    return s;
}

constexpr int kCapacity = 4;

}  // namespace

class TestUiReplayHistory : public QObject {
    Q_OBJECT
private slots:
    void empty();
    void appendWhileLive();
    void appendWhileReplaying();
    void newRunOnAnEarlierStep();
    void stepBetweenRecords();
};

void TestUiReplayHistory::empty()
{
    History h;
    QVERIFY(h.empty());
    QCOMPARE(h.shownIndex(), -1);
    QVERIFY(!h.shown());
    QCOMPARE(h.shownStep(), -1L);
    QVERIFY(!h.isLive());
    QVERIFY(!h.show(2));  // nothing to show
    QCOMPARE(h.shownIndex(), -1);
    QCOMPARE(h.indexOfStep(7), 0);
    QVERIFY(!h.append(nullptr, kCapacity));
    QVERIFY(h.empty());
}

void TestUiReplayHistory::appendWhileLive()
{
    History h;
    QVERIFY(h.append(rec(1), kCapacity));  // the first: shown, live
    QCOMPARE(h.shownIndex(), 0);
    QCOMPARE(h.shownStep(), 1L);
    QVERIFY(h.isLive());
    for (long step = 2; step <= 4; ++step)
        QVERIFY(h.append(rec(step), kCapacity));
    QCOMPARE(steps(h), (QList<long>{1, 2, 3, 4}));
    QCOMPARE(h.shownIndex(), 3);  // followed each one
    QVERIFY(h.isLive());
    // Full: thinned to 1 3 5, and 5 shown.
    QVERIFY(h.append(rec(5), kCapacity));
    QCOMPARE(steps(h), (QList<long>{1, 3, 5}));
    QCOMPARE(h.shownIndex(), 2);
    QCOMPARE(h.shownStep(), 5L);
    QVERIFY(h.isLive());
    // Another record of step 5 replaces the last and is shown; the same record again is nothing.
    const Ptr five = rec(5);
    QVERIFY(h.append(five, kCapacity));
    QCOMPARE(steps(h), (QList<long>{1, 3, 5}));
    QCOMPARE(h.shown(), five);
    QVERIFY(h.isLive());
    QVERIFY(!h.append(five, kCapacity));
    QVERIFY(!h.append(nullptr, kCapacity));
    QCOMPARE(h.size(), 3);
    QCOMPARE(h.shown(), five);
}

void TestUiReplayHistory::appendWhileReplaying()
{
    History h;
    for (long step = 1; step <= 4; ++step)
        h.append(rec(step), kCapacity);
    // Step 2 replayed: no longer live.
    QVERIFY(h.show(1));
    QVERIFY(!h.show(1));  // the same: no change
    QCOMPARE(h.shownStep(), 2L);
    QVERIFY(!h.isLive());
    // 5 comes: thinned to 1 3 5, step 2 is gone, the nearest earlier kept (1) is shown.
    QVERIFY(h.append(rec(5), kCapacity));
    QCOMPARE(steps(h), (QList<long>{1, 3, 5}));
    QCOMPARE(h.shownIndex(), 0);
    QCOMPARE(h.shownStep(), 1L);
    QVERIFY(!h.isLive());
    // Step 3 replayed; 6 comes (stride 2: 1 3 5 6 all kept): step 3 stays shown.
    QVERIFY(h.show(1));
    QVERIFY(h.append(rec(6), kCapacity));
    QCOMPARE(steps(h), (QList<long>{1, 3, 5, 6}));
    QCOMPARE(h.shownIndex(), 1);
    QCOMPARE(h.shownStep(), 3L);
    QVERIFY(!h.isLive());
    // Live again (the right end): the next record is followed.
    QVERIFY(h.show(99));  // clamped to the last
    QCOMPARE(h.shownIndex(), 3);
    QVERIFY(h.isLive());
    QVERIFY(h.append(rec(7), kCapacity));
    QCOMPARE(h.shownStep(), 7L);
    QVERIFY(h.isLive());
    QVERIFY(h.show(-3));  // clamped to the first
    QCOMPARE(h.shownIndex(), 0);
}

void TestUiReplayHistory::newRunOnAnEarlierStep()
{
    History h;
    for (long step : {10L, 20L, 30L})
        h.append(rec(step), kCapacity);
    // Replaying step 20; a record of step 25 (before the last, 30) starts a new run: the replayed
    // record is gone with the old run, and the new run's record is shown, live.
    QVERIFY(h.show(1));
    QVERIFY(h.append(rec(25), kCapacity));
    QCOMPARE(steps(h), (QList<long>{25}));
    QCOMPARE(h.shownIndex(), 0);
    QCOMPARE(h.shownStep(), 25L);
    QVERIFY(h.isLive());
    // While live, a record of step 0 starts another, likewise shown.
    h.append(rec(26), kCapacity);
    QVERIFY(h.append(rec(0), kCapacity));
    QCOMPARE(steps(h), (QList<long>{0}));
    QCOMPARE(h.shownStep(), 0L);
    QVERIFY(h.isLive());
    // Forgotten: nothing shown.
    h.clear();
    QVERIFY(h.empty());
    QCOMPARE(h.shownIndex(), -1);
    QVERIFY(!h.isLive());
}

void TestUiReplayHistory::stepBetweenRecords()
{
    History h;
    for (long step = 1; step <= 6; ++step)
        h.append(rec(step), kCapacity);
    QCOMPARE(steps(h), (QList<long>{1, 3, 5, 6}));
    // A step between two records: the one before it; a step of a record: that record.
    QCOMPARE(h.indexOfStep(4), 1);
    QCOMPARE(h.indexOfStep(3), 1);
    QCOMPARE(h.indexOfStep(5), 2);
    // Before every record: the first; past the last: the last.
    QCOMPARE(h.indexOfStep(0), 0);
    QCOMPARE(h.indexOfStep(100), 3);
    QVERIFY(h.show(h.indexOfStep(4)));
    QCOMPARE(h.shownStep(), 3L);
    QVERIFY(!h.isLive());
}

AS_TEST_GUILESS_MAIN(TestUiReplayHistory)
#include "test_ui_replay_history.moc"
