// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Files the tests read from the source tree (tests/data, tests/reference, scripts/), found from
// AS_TESTS_DIR — the tests folder, which tests/CMakeLists.txt defines for every test — rather
// than from __FILE__ (QFINDTESTDATA), which a compiler cache may make relative and a test in a
// subfolder would have to climb out of.
#include <QDir>
#include <QFileInfo>
#include <QString>

namespace as::test {

// The absolute path of `relative` (to tests/), or empty when there is no such file.
inline QString testFile(const QString& relative)
{
    const QString path = QDir::cleanPath(QStringLiteral(AS_TESTS_DIR "/") + relative);
    return QFileInfo::exists(path) ? path : QString();
}

}  // namespace as::test
