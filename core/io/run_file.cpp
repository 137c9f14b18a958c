// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/run_file.h"

#include "io/file_open.h"
#include "io/checkpoint.h"
#include "io/safetensors.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>

namespace as {

std::optional<RunSeries> readRunSeries(const QString& path, QString* error)
{
    const QString name = QFileInfo(path).fileName();
    auto fail = [&](const QString& msg) -> std::optional<RunSeries> {
        if (error)
            *error = msg;
        return std::nullopt;
    };
    QFile f(path);
    if (QString why; !openForReading(f, &why))
        return fail(QStringLiteral("%1: %2").arg(name, why));
    const QByteArray head = f.read(64);
    f.close();
    if (!looksLikeCheckpoint(head)) {
        // Say what the file is when it is a weight file: its weights are fine, it just has no
        // record of how they were trained.
        QString why;
        if (SafetensorsFile::read(path, &why))
            return fail(QCoreApplication::translate("as::RunFile", "%1 is a weight file: it holds a model but not the history "
                                       "of its training. Compare with the run's checkpoint (.%2, "
                                       "File > Save, or attention-studio-cli train --checkpoint).")
                            .arg(name, QLatin1String(kCheckpointSuffix)));
        return fail(QCoreApplication::translate("as::RunFile", "%1: not an Attention Studio checkpoint (no magic number at the "
                                   "start)").arg(name));
    }
    QString why;
    std::optional<Checkpoint> c = loadCheckpoint(path, &why);
    if (!c)
        return fail(why);  // names the file already
    if (c->history.loss.empty())
        return fail(QCoreApplication::translate("as::RunFile", "%1 records no training steps: nothing to compare.").arg(name));
    RunSeries s;
    s.name = QFileInfo(path).completeBaseName();
    s.loss = std::move(c->history.loss);
    s.eval = std::move(c->history.eval);
    return s;
}

}  // namespace as
