#pragma once
// attention-studio-cli as a user runs it: the program built beside the test, in a process of its
// own.
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QtDebug>

namespace as::test {

inline QString cliProgram()
{
    return QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("attention-studio-cli"));
}

// Runs it to the end; false (with its stderr in the test log) unless it exits with 0.
inline bool runCli(const QStringList& args, int timeoutMs = 600000)
{
    QProcess p;
    p.start(cliProgram(), args);
    if (!p.waitForStarted(10000) || !p.waitForFinished(timeoutMs)) {
        p.kill();
        qWarning("attention-studio-cli %s did not finish", qPrintable(args.join(' ')));
        return false;
    }
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        qWarning("attention-studio-cli %s: exit %d\n%s", qPrintable(args.join(' ')), p.exitCode(),
                 p.readAllStandardError().constData());
        return false;
    }
    return true;
}

}  // namespace as::test
