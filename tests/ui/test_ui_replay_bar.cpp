// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The replay bar the Attention and Model views share (ui/replay_bar.h): the slider spans the
// history (index 0 … size − 1) and is off with fewer than two records; the right end is live,
// and Live is off there; the label says the step, "live" or "replay i/n", or the view's words
// when nothing is recorded; moving the slider or pressing Live asks for an index, and setting
// the state asks for nothing.
#include "skip.h"
#include "replay_bar.h"

#include <QLabel>
#include <QSignalSpy>
#include <QSlider>
#include <QToolButton>
#include <QtTest>

using namespace as;

class TestUiReplayBar : public QObject {
    Q_OBJECT
private slots:
    void emptyHistory();
    void historySizesAndLiveState();
    void sliderAndLiveAskForIndices();
};

void TestUiReplayBar::emptyHistory()
{
    ui::ReplayBar bar;
    QVERIFY(!bar.isLive());
    QCOMPARE(bar.index(), -1);
    QVERIFY(!bar.slider()->isEnabled());
    QVERIFY(!bar.liveButton()->isEnabled());
    QCOMPARE(bar.stepLabel()->text(), QStringLiteral("no steps recorded"));
    bar.setEmptyText(QStringLiteral("no steps traced"));
    QCOMPARE(bar.stepLabel()->text(), QStringLiteral("no steps traced"));
    bar.setState(0, 3, 30);  // no records: nothing shown, whatever the index
    QCOMPARE(bar.index(), -1);
    QCOMPARE(bar.step(), -1L);
    QCOMPARE(bar.stepLabel()->text(), QStringLiteral("no steps traced"));
    QCOMPARE(bar.liveButton()->text(), QStringLiteral("Live"));
}

void TestUiReplayBar::historySizesAndLiveState()
{
    ui::ReplayBar bar;
    QSignalSpy asked(&bar, &ui::ReplayBar::indexRequested);
    // One record: shown and live; nothing to slide over.
    bar.setState(1, 0, 10);
    QVERIFY(bar.isLive());
    QVERIFY(!bar.slider()->isEnabled());
    QVERIFY(!bar.liveButton()->isEnabled());
    QCOMPARE(bar.stepLabel()->text(), QStringLiteral("step 10 · live"));
    // Five records, the last shown: the slider spans 0 … 4 at its right end.
    bar.setState(5, 4, 50);
    QVERIFY(bar.isLive());
    QVERIFY(bar.slider()->isEnabled());
    QCOMPARE(bar.slider()->minimum(), 0);
    QCOMPARE(bar.slider()->maximum(), 4);
    QCOMPARE(bar.slider()->value(), 4);
    QVERIFY(!bar.liveButton()->isEnabled());
    // The second replayed: not live, Live on, "replay 2/5".
    bar.setState(5, 1, 20);
    QVERIFY(!bar.isLive());
    QCOMPARE(bar.slider()->value(), 1);
    QVERIFY(bar.liveButton()->isEnabled());
    QCOMPARE(bar.stepLabel()->text(), QStringLiteral("step 20 · replay 2/5"));
    // An index past the end is the last one.
    bar.setState(3, 7, 30);
    QCOMPARE(bar.index(), 2);
    QVERIFY(bar.isLive());
    QCOMPARE(asked.count(), 0);  // values in: setting the state asks for nothing
}

void TestUiReplayBar::sliderAndLiveAskForIndices()
{
    ui::ReplayBar bar;
    QSignalSpy asked(&bar, &ui::ReplayBar::indexRequested);
    bar.setState(6, 5, 60);
    // The user moves the slider to 2: index 2 asked for (the view decides what is shown).
    bar.slider()->setValue(2);
    QCOMPARE(asked.count(), 1);
    QCOMPARE(asked.at(0).at(0).toInt(), 2);
    QCOMPARE(bar.index(), 5);  // unchanged until the view sets it
    bar.setState(6, 2, 30);
    QCOMPARE(asked.count(), 1);
    // Live asks for the last index.
    bar.liveButton()->click();
    QCOMPARE(asked.count(), 2);
    QCOMPARE(asked.at(1).at(0).toInt(), 5);
}

AS_TEST_MAIN(TestUiReplayBar)
#include "test_ui_replay_bar.moc"
