// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Lessons in the window (issue 26 §3): a bundled lesson applies its settings, types its probe,
// shows its view and its notes; Play trains to its next stop and pauses exactly there, with the
// stop's view shown and marked in the panel; an A/B lesson starts its B; a bad lesson file is
// refused with the field named and changes nothing; Save as lesson writes the session as a
// lesson that reads back to the same settings and view; the panel follows the language.
#include "skip.h"
#include "main_window.h"
#include "attention_view.h"
#include "language.h"
#include "lesson_actions.h"
#include "lesson_panel.h"
#include "loss_view.h"
#include "lr_view.h"
#include "samples_view.h"
#include "view_set.h"
#include "window_runs.h"
#include "worker_link.h"

#include <QDockWidget>
#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace as;

class TestWindowLessons : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void bundledLessonPausesAtItsStops();
    void abLessonStartsB();
    void badLessonChangesNothing();
    void savedLessonReadsBack();

private:
    static Lesson bundled(const QString& name)
    {
        QFile f(QStringLiteral(":/lessons/") + name);
        if (!f.open(QIODevice::ReadOnly))
            qFatal("no %s", qPrintable(name));
        QString error;
        return *parseLesson(f.readAll(), &error);
    }
};

void TestWindowLessons::bundledLessonPausesAtItsStops()
{
    MainWindow w;
    w.show();
    const Lesson l = bundled(QStringLiteral("01-three-sentences.json"));
    QCOMPARE(l.stops.size(), std::size_t(2));
    w.lessons()->startLesson(l);
    QCOMPARE(w.settings().task, QStringLiteral("toy"));
    QCOMPARE(w.settings().plannedSteps, l.steps);
    QCOMPARE(w.settings().train.seed, *l.seed);
    QVERIFY(w.lessons()->dock()->isVisible());
    ui::LessonPanel* panel = w.lessons()->panel();
    QCOMPARE(panel->title(), l.title.en);
    QVERIFY(panel->notesText().contains(QStringLiteral("我有零个女朋友")));
    QCOMPARE(panel->stopCount(), 2);
    QVERIFY(!panel->stopReached(0));
    QCOMPARE(w.views()->currentView(), w.views()->loss());  // "view": "loss"
    // The probe typed once the data is there: the Attention view shows its characters.
    QVERIFY(QTest::qWaitFor([&] { return w.examplesShown() > 0; }, 20000));
    QVERIFY(QTest::qWaitFor([&] {
        return w.views()->attention()->headCount() > 0
               && w.views()->attention()->colLabels(0).join(QString()) == l.probe;
    }, 20000));

    // Play: exactly to the first stop, then paused there with its view shown.
    w.playAction()->trigger();
    QVERIFY(w.isRunning());
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == l.stops[0].step && !w.isRunning(); }, 60000));
    QVERIFY(test::settled(w));
    QCOMPARE(w.currentStep(), l.stops[0].step);  // not one step more
    QCOMPARE(w.views()->currentView(), w.views()->attentionPage());
    QCOMPARE(w.views()->attention()->kind(), AttentionKind::Cross);
    QCOMPARE(w.views()->attention()->layer(), 1);  // "layer": 2, counted from 1
    QVERIFY(panel->stopReached(0));
    QVERIFY(!panel->stopReached(1));
    QCOMPARE(panel->currentStop(), 0);
    // Play again: to the last stop (the end of the plan).
    w.playAction()->trigger();
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == l.stops[1].step && !w.isRunning(); }, 60000));
    QVERIFY(test::settled(w));
    QCOMPARE(w.currentStep(), l.stops[1].step);
    QCOMPARE(w.views()->currentView(), w.views()->samples());
    QVERIFY(panel->stopReached(1));
    QCOMPARE(panel->currentStop(), 1);
    QCOMPARE(w.lessons()->nextStop(w.currentStep()), -1L);
    // Double-clicking the first stop shows its view again.
    emit panel->stopActivated(0);
    QCOMPARE(w.views()->currentView(), w.views()->attentionPage());
    // The panel in the window's language.
    QVERIFY(setLanguage(QStringLiteral("zh_CN")));
    QTRY_COMPARE(panel->title(), l.title.zh);
    QVERIFY(panel->stopText(1).contains(l.stops[1].text.zh));
    QVERIFY(panel->stopReached(1));
    QVERIFY(setLanguage(QStringLiteral("en")));
    QTRY_COMPARE(panel->title(), l.title.en);
    // Close: the panel goes, Play trains as usual again.
    emit panel->closeRequested();
    QVERIFY(!w.lessons()->dock()->isVisible());
    QCOMPARE(w.lessons()->nextStop(0), -1L);
    w.close();
}

void TestWindowLessons::abLessonStartsB()
{
    MainWindow w;
    w.show();
    QString comparison;
    connect(w.link(), &WorkerLink::snapshotReady, this, [&](const SnapshotPtr& s) {
        if (s->comparison)
            comparison = s->comparison->name;
    });
    const Lesson l = bundled(QStringLiteral("02-warm-up.json"));
    w.lessons()->startLesson(l);
    QCOMPARE(w.settings().task, QStringLiteral("reverse"));
    QVERIFY(w.settings().model.norm == NormPlacement::Post);
    QCOMPARE(w.settings().train.warmup, 400L);
    QVERIFY(QTest::qWaitFor([&] { return w.examplesShown() > 0; }, 20000));
    w.playAction()->trigger();  // to the first stop (step 100)
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == l.stops[0].step && !w.isRunning(); }, 120000));
    QVERIFY2(comparison.contains(QStringLiteral("warm-up 1")), qPrintable(comparison));
    QCOMPARE(w.views()->currentView(), w.views()->lr());
    w.close();
}

void TestWindowLessons::badLessonChangesNothing()
{
    MainWindow w;
    w.show();
    SessionSettings s = SessionSettings::defaultsFor(QStringLiteral("copy"));
    s.plannedSteps = 77;
    w.applySettings(s);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bad.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"format": "attention-studio-lesson", "version": 1, "title": "T", "task": "toy",
                "stops": [{"step": 5, "view": "charts", "text": "x"}]})");
    f.close();
    QSignalSpy errors(&w, &MainWindow::fileError);
    QVERIFY(!w.lessons()->openLessonFile(path));
    QCOMPARE(errors.size(), 1);
    QVERIFY2(w.lastFileError().contains(QStringLiteral("stops[0].view.view")), qPrintable(w.lastFileError()));
    QVERIFY2(w.lastFileError().contains(QStringLiteral("bad.json")), qPrintable(w.lastFileError()));
    QCOMPARE(w.settings().task, QStringLiteral("copy"));
    QCOMPARE(w.settings().plannedSteps, 77L);
    QVERIFY(!w.lessons()->lesson());
    QVERIFY(!w.lessons()->dock()->isVisible());
    // A file that is not there.
    QVERIFY(!w.lessons()->openLessonFile(dir.filePath(QStringLiteral("missing.json"))));
    QCOMPARE(w.settings().task, QStringLiteral("copy"));
    w.close();
}

void TestWindowLessons::savedLessonReadsBack()
{
    MainWindow w;
    w.show();
    SessionSettings s = SessionSettings::defaultsFor(QStringLiteral("reverse"));
    QString error;
    QVERIFY(applySettingsSpec(QStringLiteral("norm=post,warmup=123,heads=2"), &s, &error));
    s.train.seed = 42;
    s.plannedSteps = 222;
    w.applySettings(s);
    QVERIFY(QTest::qWaitFor([&] { return w.examplesShown() > 0; }, 20000));
    QVERIFY(test::settled(w));
    w.views()->attention()->setKind(AttentionKind::DecoderSelf);
    w.views()->attention()->setLayer(1);
    w.views()->showView(w.views()->attentionPage());
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("mine.json"));
    QVERIFY2(w.lessons()->saveLesson(path, {QStringLiteral("Mine"), {}}, {QStringLiteral("*Look* here"), {}}, &error),
             qPrintable(error));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const std::optional<Lesson> l = parseLesson(f.readAll(), &error);
    QVERIFY2(l, qPrintable(error));
    QCOMPARE(l->title.en, QStringLiteral("Mine"));
    QCOMPARE(l->notes.en, QStringLiteral("*Look* here"));
    QCOMPARE(l->focus.view, QStringLiteral("attention"));
    QCOMPARE(l->focus.kind, QStringLiteral("decoder.self"));
    QCOMPARE(l->focus.layer, 2);
    QVERIFY(!l->probe.isEmpty());
    // Opened in another window: the same run.
    MainWindow other;
    other.show();
    QVERIFY(other.lessons()->openLessonFile(path));
    QVERIFY(other.settings().model == s.model);
    QCOMPARE(other.settings().train.warmup, 123L);
    QCOMPARE(other.settings().train.seed, quint64(42));
    QCOMPARE(other.settings().plannedSteps, 222L);
    QCOMPARE(other.views()->currentView(), other.views()->attentionPage());
    QCOMPARE(other.views()->attention()->kind(), AttentionKind::DecoderSelf);
    other.close();
    // A session that is not a built-in task is not saved as one.
    SessionSettings opened = s;
    opened.task = QStringLiteral("model:/nowhere.safetensors");
    QVERIFY(!lessonOfSession(opened, &error));
    w.close();
}

AS_TEST_MAIN(TestWindowLessons)
#include "test_window_lessons.moc"
