// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a bug report needs to know about the program and the machine it runs on: the versions of
// the program and of the libraries it is built with (Qt, Eigen, SentencePiece) and runs with
// (OpenBLAS, loaded at start-up, and the kernels it picked), the CPU, the vector instructions
// the engine was compiled for and those the CPU has, and the threads. The window's
// Help > About and Help > Copy diagnostics show it; `attention-studio-cli --version` prints it.
#include <QList>
#include <QString>

namespace as {

struct SystemFact {
    QString key;    // "Qt", "OpenBLAS", "CPU", … (English: for bug reports)
    QString value;
};

// version: the program's (PROJECT_VERSION). full: also what only a bug report needs (the
// CPU's flags, the operating system, the threads); without it, the versions and the kernels.
QList<SystemFact> systemReport(const QString& version, bool full);
// "key: value" lines.
QString systemReportText(const QList<SystemFact>& facts);

}  // namespace as
