// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The runs compared with the current one (View > Compare with run…): up to kMaxRuns
// checkpoints, each read off the GUI thread and kept as a RunSeries for the plots. A file
// that cannot be used gives failed(message) and changes nothing. The set is the window's, not
// the session's: a Reset or a new session keeps it, and checkpoints do not save it.
#include "train/run_series.h"

#include <QObject>
#include <QStringList>
#include <QThreadPool>

namespace as {

class RunComparer : public QObject {
    Q_OBJECT
public:
    static constexpr int kMaxRuns = 4;

    explicit RunComparer(QObject* parent = nullptr);
    ~RunComparer() override;  // waits for a file being read

    // Reads the checkpoint at `path` in the background; runsChanged or failed answers. Refused
    // at once (failed) when kMaxRuns are compared or being read, or the file is already.
    void add(const QString& path);
    void remove(int i);
    void removeAll();

    const RunSeriesList& runs() const { return runs_; }
    QStringList paths() const { return paths_; }
    bool busy() const { return !pending_.isEmpty(); }

signals:
    void runsChanged(const as::RunSeriesList& runs);
    void added(const QString& name);  // after runsChanged, for a run read from a file
    void failed(const QString& message);

private:
    void finish(const QString& path, const RunSeriesPtr& series, const QString& error);

    QThreadPool pool_;
    RunSeriesList runs_;
    QStringList paths_;    // the files of runs_, as given
    QStringList pending_;  // being read
};

}  // namespace as
