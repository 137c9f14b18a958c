#include "background_job.h"

#include <QProgressDialog>

namespace as {

BackgroundJob::BackgroundJob(QObject* parent) : QObject(parent)
{
    pool_.setMaxThreadCount(1);
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
    pool_.start([this, work = std::move(work), generation, stop, before = beforeWork_] {
        if (stop->load())
            return;  // cancelled before it began: nothing to answer
        if (before)
            before();
        int last = -1;
        const Progress onProgress = [&](int done, int total) {
            const int perMille = int(1000.0 * done / std::max(1, total));
            if (perMille != last) {
                last = perMille;
                QMetaObject::invokeMethod(this, [this, generation, perMille] {
                    if (generation == generation_)
                        emit progress(perMille);
                }, Qt::QueuedConnection);
            }
            return !stop->load();
        };
        std::function<void()> answer = work(onProgress);
        QMetaObject::invokeMethod(this, [this, generation, answer = std::move(answer)] {
            if (generation != generation_)
                return;  // cancelled, or replaced by a newer job
            busy_ = false;
            closeProgress();
            if (answer)
                answer();
        }, Qt::QueuedConnection);
    });
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
