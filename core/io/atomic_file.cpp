// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/atomic_file.h"

#include <QCoreApplication>
#include <QSaveFile>

namespace as {

bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString* error)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Unbuffered) || f.write(bytes) != bytes.size() || !f.commit()) {
        if (error)
            *error = QCoreApplication::translate("as::File", "cannot write %1: %2").arg(path, f.errorString());
        return false;
    }
    return true;
}

}  // namespace as
