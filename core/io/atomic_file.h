#pragma once
#include <QByteArray>
#include <QString>

namespace as {

// Writes the whole file or nothing (QSaveFile): a failure or a crash midway leaves any
// previous file as it was. Returns false with *error naming the file and the cause.
bool writeFileAtomically(const QString& path, const QByteArray& bytes, QString* error);

}  // namespace as
