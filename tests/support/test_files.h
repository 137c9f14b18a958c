// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Files the tests read from the source tree (tests/data, tests/reference, scripts/), found from
// AS_TESTS_DIR — the tests folder, which tests/CMakeLists.txt defines for every test — rather
// than from __FILE__ (QFINDTESTDATA), which a compiler cache may make relative and a test in a
// subfolder would have to climb out of.
#include <QByteArray>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace as::test {

// The absolute path of `relative` (to tests/), or empty when there is no such file.
inline QString testFile(const QString& relative)
{
    const QString path = QDir::cleanPath(QStringLiteral(AS_TESTS_DIR "/") + relative);
    return QFileInfo::exists(path) ? path : QString();
}

// A file's bytes; empty when it cannot be read.
inline QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// Writes `bytes` to `path` (replacing it); false when it could not be written whole.
inline bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// Debian's Python, which has python3-torch (pyenv's and others may not).
inline const QString kTorchPython = QStringLiteral("/usr/bin/python3");

// Whether kTorchPython imports `modules` (e.g. "torch, numpy"): what a test that runs a PyTorch
// reference checks before it skips (AS_SKIP, skip.h) with how to install it.
inline bool pythonImports(const QString& modules)
{
    QProcess probe;
    probe.start(kTorchPython, {QStringLiteral("-c"), QStringLiteral("import ") + modules});
    return probe.waitForFinished(120'000) && probe.exitStatus() == QProcess::NormalExit
           && probe.exitCode() == 0;
}

// Runs kTorchPython with `args` (a script and its arguments); false with its standard error in
// *error when it fails or takes more than five minutes.
inline bool runPython(const QStringList& args, QString* error)
{
    QProcess p;
    p.start(kTorchPython, args);
    if (!p.waitForFinished(300'000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        *error = QString::fromUtf8(p.readAllStandardError());
        return false;
    }
    return true;
}

}  // namespace as::test
