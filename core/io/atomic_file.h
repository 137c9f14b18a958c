// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
#include <QByteArray>
#include <QString>

namespace as {

// Writes the whole file or nothing (QSaveFile): a failure or a crash midway leaves any
// previous file as it was. Returns false with *error naming the file and the cause.
//
// Every QSaveFile in the program is opened Unbuffered: Qt 6.4's commit() closes the file,
// and a write that fails only then, as the buffer is flushed (a full disk), is not reported —
// commit() went on to rename the truncated file over the old one and returned true (found by
// tests/cli/test_full_disk.cpp). Unbuffered, each write() reaches the system and its failure
// is the QSaveFile's write error, which commit() honours.
bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString* error);

}  // namespace as
