// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A new session's data built off the GUI and worker threads where it trains a SentencePiece
// model (seconds on zh-en), with a busy progress dialog and Cancel: Settings > Apply and Reset
// (A's data, and a running A/B's B's, which restarts with it) and A/B's B. One build at a time,
// in order: what is asked to wait for it (whenIdle: a lesson's settings, then its A/B) runs
// after its session is handed to the worker, and is dropped with it. A newer build, or a
// session ordered another way (WorkerLink::sessionOrdered: a file opened, settings needing no
// build), cancels it; a cancelled build leaves the session as it was, still training.
#include "background_job.h"
#include "training_worker.h"

#include <QObject>

#include <functional>
#include <vector>

class QWidget;

namespace as {

class WorkerLink;

// Whether building the data of a session of `s` trains a SentencePiece model: a side cut by
// BPE or unigram on a bundled corpus (always cut anew) or on a user's (when `s` names it).
bool trainsTokenizer(const SessionSettings& s);
// The subword sides `s` trains, as a progress dialog names them: "target bpe:8000".
QString subwordSides(const SessionSettings& s);

class SessionBuilder : public QObject {
    Q_OBJECT
public:
    SessionBuilder(QWidget* window, WorkerLink* link);

    // Builds p->aData (if `a`) on p->a and p->bData (if `b`) on B's settings,
    // comparisonOf(p->a, *p->asked), in the job, showing `label` in a busy progress dialog
    // titled `title`; then, in this thread, `done(p)`, or `failed(message)` if the data cannot
    // be built. The dialog's Cancel drops the build and calls `canceled`.
    void build(const PreparedSessionPtr& p, bool a, bool b, const QString& title,
               const QString& label, std::function<void(const PreparedSessionPtr&)> done,
               std::function<void(const QString&)> failed, std::function<void()> canceled);
    // `f` now if no build is under way, else once it is done (dropped if it is cancelled).
    void whenIdle(std::function<void()> f);
    // Drops the build under way and what waits for it, silently (a newer session replaces it).
    void cancel();
    bool busy() const { return job_->busy(); }
    BackgroundJob* job() const { return job_; }  // tests: to hold a build

private:
    QWidget* window_;
    BackgroundJob* job_;
    std::function<void()> canceled_;
    std::vector<std::function<void()>> waiting_;
};

}  // namespace as
