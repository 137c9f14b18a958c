// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/file_open.h"

#include <QCoreApplication>
#include <QFileInfo>

namespace as {

QString notARegularFile(const QString& path)
{
    const QFileInfo info(path);  // stat(), which never opens the file
    if (!info.exists() || info.isFile())
        return {};
    if (info.isDir())
        return QCoreApplication::translate("as::File", "is a folder, not a file");
    return QCoreApplication::translate("as::File", "is not a regular file (a pipe, a device or a socket cannot be read "
                          "as one)");
}

bool openForReading(QFile& file, QString* why)
{
    if (QString reason = notARegularFile(file.fileName()); !reason.isEmpty()) {
        *why = reason;
        return false;
    }
    if (!file.open(QIODevice::ReadOnly)) {
        *why = file.errorString();
        return false;
    }
    return true;
}

}  // namespace as
