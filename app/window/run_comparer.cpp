// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "run_comparer.h"

#include "io/run_file.h"

#include <QFileInfo>

namespace as {

namespace {

// The same file, however it was named.
QString canonical(const QString& path)
{
    const QString c = QFileInfo(path).canonicalFilePath();
    return c.isEmpty() ? QFileInfo(path).absoluteFilePath() : c;
}

}  // namespace

RunComparer::RunComparer(QObject* parent) : QObject(parent)
{
    pool_.setMaxThreadCount(1);
}

RunComparer::~RunComparer()
{
    pool_.waitForDone();
}

void RunComparer::add(const QString& path)
{
    const QString name = QFileInfo(path).fileName();
    if (runs_.size() + std::size_t(pending_.size()) >= std::size_t(kMaxRuns)) {
        emit failed(tr("%1 was not added: at most %2 runs can be compared at once. Remove one "
                       "first (View > Remove compared run).")
                        .arg(name)
                        .arg(kMaxRuns));
        return;
    }
    const QString key = canonical(path);
    for (const QString& p : paths_ + pending_)
        if (canonical(p) == key) {
            emit failed(tr("%1 is already compared.").arg(name));
            return;
        }
    pending_ << path;
    pool_.start([this, path] {
        QString error;
        std::optional<RunSeries> s = readRunSeries(path, &error);
        RunSeriesPtr series = s ? std::make_shared<const RunSeries>(std::move(*s)) : nullptr;
        QMetaObject::invokeMethod(this, [this, path, series, error] { finish(path, series, error); },
                                  Qt::QueuedConnection);
    });
}

void RunComparer::finish(const QString& path, const RunSeriesPtr& series, const QString& error)
{
    pending_.removeOne(path);
    if (!series) {
        emit failed(tr("Not compared: %1").arg(error));
        return;
    }
    // Two runs of one name would share a legend entry and a colour: the second is told apart.
    QStringList names;
    for (const RunSeriesPtr& r : runs_)
        names << r->name;
    RunSeriesPtr kept = series;
    if (names.contains(series->name)) {
        auto named = std::make_shared<RunSeries>(*series);
        for (int k = 2; names.contains(named->name); ++k)
            named->name = QStringLiteral("%1 (%2)").arg(series->name).arg(k);
        kept = std::move(named);
    }
    runs_.push_back(std::move(kept));
    paths_ << path;
    emit runsChanged(runs_);
    emit added(runs_.back()->name);
}

void RunComparer::remove(int i)
{
    if (i < 0 || std::size_t(i) >= runs_.size())
        return;
    runs_.erase(runs_.begin() + i);
    paths_.removeAt(i);
    emit runsChanged(runs_);
}

void RunComparer::removeAll()
{
    if (runs_.empty())
        return;
    runs_.clear();
    paths_.clear();
    emit runsChanged(runs_);
}

}  // namespace as
