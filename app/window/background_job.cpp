// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "background_job.h"

#include <QProgressDialog>

namespace as {

BackgroundJob::BackgroundJob(QObject* parent) : QObject(parent)
{
    pool_.setMaxThreadCount(1);
    results_ = new Mailbox(this);
    connect(this, &BackgroundJob::progress, this, [this](int perMille) {
        if (dialog_ && dialog_->maximum() > 0)
            dialog_->setValue(perMille);
    });
}

BackgroundJob::~BackgroundJob()
{
    cancel();
    pool_.waitForDone();
}

void BackgroundJob::cancel()
{
    if (cancel_)
        cancel_->store(true);
    ++generation_;  // whatever the cancelled job still reports is dropped
    busy_ = false;
    closeProgress();
}

void BackgroundJob::waitForDone()
{
    pool_.waitForDone();
}

void BackgroundJob::closeProgress()
{
    if (!dialog_)
        return;
    dialog_->reset();  // without autoClose, reset() alone leaves it shown
    dialog_->hide();
}

void BackgroundJob::start(Work work)
{
    cancel();
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    busy_ = true;
    const quint64 generation = generation_;
    auto stop = cancel_;
    // QThreadPool wakes its thread through a lock inside Qt, which ThreadSanitizer cannot see:
    // the annotations order building this closure before running it. What the job reports
    // comes back through the mailbox (a std::mutex it does see), not a queued invokeMethod,
    // whose closure would cross threads through Qt's event queue (app/mailbox.h).
    static char handOff;
    std::function<void()> job = [this, work = std::move(work), generation, stop, before = beforeWork_] {
        AS_TSAN_ACQUIRE(&handOff);
        if (stop->load())
            return;  // cancelled before it began: nothing to answer
        if (before)
            before();
        int last = -1;
        const Progress onProgress = [&](int done, int total) {
            const int perMille = int(1000.0 * done / std::max(1, total));
            if (perMille != last) {
                last = perMille;
                results_->post([this, generation, perMille] {
                    if (generation == generation_)
                        emit progress(perMille);
                });
            }
            return !stop->load();
        };
        std::function<void()> answer = work(onProgress);
        results_->post([this, generation, answer = std::move(answer)] {
            if (generation != generation_)
                return;  // cancelled, or replaced by a newer job
            busy_ = false;
            closeProgress();
            if (answer)
                answer();
        });
    };
    AS_TSAN_RELEASE(&handOff);
    pool_.start(std::move(job));
}

void BackgroundJob::showProgress(QWidget* window, const QString& title, const QString& label,
                                 bool determinate)
{
    if (!dialog_) {
        dialog_ = new QProgressDialog(window);
        dialog_->setMinimumDuration(300);
        dialog_->setAutoReset(false);
        dialog_->setAutoClose(false);
        connect(dialog_, &QProgressDialog::canceled, this, [this] {
            cancel();
            emit canceled();
        });
    }
    dialog_->setWindowTitle(title);
    dialog_->setLabelText(label);
    // A busy bar (range 0 to 0) where the work reports no progress.
    dialog_->setRange(0, determinate ? 1000 : 0);
    dialog_->setValue(0);  // the dialog shows once the work has taken its minimum duration
}

}  // namespace as
