// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// attention-studio as a user starts it: --help and --version print and exit without a display
// (they aborted: QApplication needs a screen), and a scripted run (--screenshot) leaves the
// user's remembered settings and autosave alone (a `--seed 3 --steps 60` run became the next
// plain launch's settings).
#include "skip.h"
#include "cli_process.h"

#include <QDir>
#include <QDirIterator>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

class TestWindowProgram : public QObject {
    Q_OBJECT
private slots:
    void helpAndVersionNeedNoDisplay();
    void scriptedRunLeavesTheUsersSettingsAlone();

private:
    static QString program()
    {
        return QDir(QCoreApplication::applicationDirPath()).filePath(u"attention-studio"_s);
    }
};

void TestWindowProgram::helpAndVersionNeedNoDisplay()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const QString& var : {u"DISPLAY"_s, u"WAYLAND_DISPLAY"_s, u"QT_QPA_PLATFORM"_s})
        env.remove(var);
    const as::test::ProcessRun help = as::test::runProgram(program(), {u"--help"_s}, env);
    QVERIFY2(help.finished && help.exitCode == 0, qPrintable(as::test::describeRun(u"--help"_s, help)));
    QVERIFY2(help.out.contains("--screenshot") && help.out.contains("Usage:"),
             qPrintable(as::test::describeRun(u"--help"_s, help)));
    const as::test::ProcessRun version = as::test::runProgram(program(), {u"--version"_s}, env);
    QVERIFY2(version.finished && version.exitCode == 0,
             qPrintable(as::test::describeRun(u"--version"_s, version)));
    QVERIFY2(version.out.contains(PROJECT_VERSION_STRING),
             qPrintable(as::test::describeRun(u"--version"_s, version)));
}

void TestWindowProgram::scriptedRunLeavesTheUsersSettingsAlone()
{
    QTemporaryDir home;
    QVERIFY(home.isValid());
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
    for (const char* var : {"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"}) {
        const QString dir = home.filePath(QString::fromLatin1(var));
        QVERIFY(QDir().mkpath(dir));
        env.insert(QString::fromLatin1(var), dir);
    }
    const QString shots = QDir(QDir::tempPath()).filePath(u"as-program-shots-%1"_s.arg(QCoreApplication::applicationPid()));
    const as::test::ProcessRun r = as::test::runProgram(
        program(), {u"--screenshot"_s, shots, u"--task"_s, u"toy"_s, u"--steps"_s, u"3"_s,
                    u"--seed"_s, u"3"_s, u"--threads"_s, u"1"_s},
        env);
    QDir(shots).removeRecursively();
    QVERIFY2(r.finished && r.exitCode == 0, qPrintable(as::test::describeRun(u"--screenshot"_s, r)));
    QStringList written;
    for (QDirIterator it(home.path(), QDir::Files | QDir::Hidden, QDirIterator::Subdirectories); it.hasNext();)
        written << it.next();
    QVERIFY2(written.isEmpty(), qPrintable(u"the scripted run wrote: "_s + written.join(u", "_s)));
}

AS_TEST_GUILESS_MAIN(TestWindowProgram)
#include "test_window_program.moc"
