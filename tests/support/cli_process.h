// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// attention-studio-cli as a user runs it: the program built beside the test, in a process of its
// own.
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QtDebug>

namespace as::test {

// A program run to its end (or killed after timeoutMs): exit code (-1 for a crash, a kill or a
// start that failed), whether it finished, and what it printed.
struct ProcessRun {
    int exitCode = -1;
    bool finished = false;
    QByteArray out, err;
};

inline ProcessRun runProgram(const QString& program, const QStringList& args,
                             const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment(),
                             const QByteArray& input = {}, int timeoutMs = 600000)
{
    ProcessRun r;
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    if (!p.waitForStarted(10000)) {
        r.err = (program + QStringLiteral(": ") + p.errorString()).toUtf8();
        return r;
    }
    p.write(input);
    p.closeWriteChannel();
    r.finished = p.waitForFinished(timeoutMs);
    if (!r.finished)
        p.kill(), p.waitForFinished(5000);
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

// For a failure message: what ran, how it ended, the end of its output.
inline QString describeRun(const QString& what, const ProcessRun& r)
{
    return QStringLiteral("%1: %2exit %3\n%4\n%5")
        .arg(what, r.finished ? QString() : QStringLiteral("timed out, "))
        .arg(r.exitCode)
        .arg(QString::fromUtf8(r.out.right(3000)), QString::fromUtf8(r.err.right(5000)));
}

inline QString cliProgram()
{
    return QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("attention-studio-cli"));
}

// Runs it to the end; false (with its stderr in the test log) unless it exits with 0.
inline bool runCli(const QStringList& args, int timeoutMs = 600000)
{
    const ProcessRun r = runProgram(cliProgram(), args, QProcessEnvironment::systemEnvironment(), {}, timeoutMs);
    if (r.exitCode != 0) {
        qWarning("%s", qPrintable(describeRun(QStringLiteral("attention-studio-cli ") + args.join(u' '), r)));
        return false;
    }
    return true;
}

}  // namespace as::test
