// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Opening a file to read it whole, as every reader of the program does (models, checkpoints,
// weight files, compared runs): first, without opening it, the path is refused when it cannot
// be such a file — a folder, or a pipe (opening one blocks until a writer comes), a device
// (which may never end) or a socket — so that no command and no window hangs on it.
#include <QFile>
#include <QString>

namespace as {

// Empty when `path` is a regular file or does not exist (opening it then says why); else the
// reason, e.g. "is a folder, not a file".
QString notARegularFile(const QString& path);

// notARegularFile, then QFile::open for reading; false and *why (the reason alone, without the
// path) otherwise.
bool openForReading(QFile& file, QString* why);

}  // namespace as
