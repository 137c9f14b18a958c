// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// SIGTERM (a logout, systemd, kill) and SIGHUP (a closed terminal) close the window as the
// user's close does: the unsaved steps go to the autosave, and the exit status is 128 + the
// signal. The signal is raised in this process, as the system would send it.
#include "skip.h"
#include "file_actions.h"
#include "main_window.h"
#include "termination_watch.h"
#include "worker_link.h"
#include "io/checkpoint.h"

#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

#include <csignal>
#include <memory>

using namespace as;

class TestWindowTermination : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void signalSavesTheSessionAndCloses_data();
    void signalSavesTheSessionAndCloses();
};

void TestWindowTermination::signalSavesTheSessionAndCloses_data()
{
    QTest::addColumn<int>("sig");
    QTest::newRow("SIGTERM") << int(SIGTERM);
    QTest::newRow("SIGHUP") << int(SIGHUP);
}

void TestWindowTermination::signalSavesTheSessionAndCloses()
{
    QFETCH(int, sig);
    const QString path = FileActions::autosavePath();
    QFile::remove(path);
    auto w = std::make_unique<MainWindow>();
    w->show();
    w->applySettings(SessionSettings::defaultsFor("toy"));
    QVERIFY(QTest::qWaitFor([&] { return w->currentStep() == 0; }, 20000));
    TerminationWatch watch(w.get());
    w->link()->step(6);
    QVERIFY(QTest::qWaitFor([&] { return w->currentStep() == 6; }, 20000));

    QSignalSpy terminated(&watch, &TerminationWatch::terminated);
    QCOMPARE(::raise(sig), 0);  // the handler only writes to the watch's pipe
    QVERIFY(terminated.wait(10000));
    QCOMPARE(terminated.takeFirst().at(0).toInt(), sig);
    QVERIFY(!w->isVisible());
    QCOMPARE(watch.exitStatus(0), 128 + sig);
    QString error;
    const std::optional<Checkpoint> c = loadCheckpoint(path, &error);
    QVERIFY2(c, qPrintable(error));
    QCOMPARE(c->step, 6L);
}

AS_TEST_MAIN(TestWindowTermination)
#include "test_window_termination.moc"
