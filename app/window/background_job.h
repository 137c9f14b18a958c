// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One piece of work at a time off the GUI thread, with progress and Cancel: what reading a
// user's corpus (CorpusOpener) and building A/B's B (ComparisonActions: a new subword side
// trains a SentencePiece model, seconds on zh-en) share. A new job cancels the one before; a
// cancelled or replaced job's answer is dropped at once (work that cannot stop, such as
// training a SentencePiece model, runs to its end in the job's thread, unseen). Optionally a
// progress dialog over the window: a bar of the job's progress, or a busy one where the work
// reports none, whose Cancel cancels the job.
#include "eval/evaluate.h"  // Progress

#include "mailbox.h"

#include <QObject>
#include <QPointer>
#include <QThreadPool>

#include <atomic>
#include <functional>
#include <memory>

class QProgressDialog;
class QWidget;

namespace as {

class BackgroundJob : public QObject {
    Q_OBJECT
public:
    // The work, in the job's thread: `progress` (done, total) says how far it is and returns
    // false once the job is cancelled (work that can stop stops there). It returns what to do
    // with its result in this object's thread, which runs only if the job is still the current
    // one (neither cancelled nor replaced), after busy() turned false.
    using Work = std::function<std::function<void()>(const Progress& progress)>;

    explicit BackgroundJob(QObject* parent = nullptr);
    ~BackgroundJob() override;  // cancels the job and waits for its thread

    // Starts `work`, cancelling the job before it (and closing its progress dialog).
    void start(Work work);
    // Drops the job's answer and closes its progress dialog; its thread finishes what it
    // cannot stop.
    void cancel();
    // A job started and not yet answered, cancelled or replaced.
    bool busy() const { return busy_; }
    // Waits until the job's thread is idle (a cancelled job's work included).
    void waitForDone();

    // The progress dialog of the current job, over `window`: shown once the work has taken a
    // moment, with `label`; a bar of the work's progress (per mille) when `determinate`, else a
    // busy bar. Its Cancel cancels the job and emits canceled(). It closes when the job ends.
    void showProgress(QWidget* window, const QString& title, const QString& label,
                      bool determinate);
    QProgressDialog* progressDialog() const { return dialog_; }  // null before showProgress

    // Tests: runs in the job's thread before each work, e.g. to hold a job under way until the
    // test has seen it (and cancelled it). Empty: none.
    void setBeforeWork(std::function<void()> hook) { beforeWork_ = std::move(hook); }

signals:
    void progress(int perMille);
    void canceled();  // by the progress dialog's Cancel

private:
    void closeProgress();

    QThreadPool pool_;
    Mailbox* results_ = nullptr;  // the job's progress and answer, back on this object's thread
    std::shared_ptr<std::atomic<bool>> cancel_;
    quint64 generation_ = 0;
    bool busy_ = false;
    QPointer<QProgressDialog> dialog_;
    std::function<void()> beforeWork_;
};

}  // namespace as
