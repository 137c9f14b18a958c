#include "corpus_opener.h"

#include "run/resume.h"

#include <QFileInfo>

namespace as {

CorpusOpener::CorpusOpener(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<as::CorpusJobPtr>();
    pool_.setMaxThreadCount(1);
}

CorpusOpener::~CorpusOpener()
{
    cancel();
    pool_.waitForDone();
}

void CorpusOpener::cancel()
{
    if (cancel_)
        cancel_->store(true);
    ++generation_;  // whatever the cancelled job still reports is dropped
    busy_ = false;
}

void CorpusOpener::open(const CorpusRun& run)
{
    auto job = std::make_shared<CorpusJob>();
    job->run = run;
    start(std::move(job));
}

void CorpusOpener::openForCheckpoint(const QString& path, const CorpusRun& run, bool autosave)
{
    auto job = std::make_shared<CorpusJob>();
    job->run = run;
    job->checkpointPath = path;
    job->autosave = autosave;
    start(std::move(job));
}

void CorpusOpener::start(std::shared_ptr<CorpusJob> job)
{
    cancel();
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    busy_ = true;
    const quint64 generation = generation_;
    auto stop = cancel_;
    pool_.start([this, job, generation, stop] {
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
        std::shared_ptr<Checkpoint> ck;
        if (!job->checkpointPath.isEmpty()) {
            QString error;
            std::optional<Checkpoint> loaded = loadCheckpoint(job->checkpointPath, &error);
            if (!loaded)
                job->error = error;
            else
                ck = std::make_shared<Checkpoint>(std::move(*loaded));
        }
        if (job->error.isEmpty()) {
            CorpusBuild built = buildCorpus(job->run, onProgress);
            job->report = built.report;
            job->error = built.error;
            job->cancelled = built.cancelled;
            if (built.data && ck) {
                // The corpus found must be the one the run trained on.
                job->error = checkSavedRunData(*built.data, *ck);
            }
            if (job->error.isEmpty() && built.data) {
                job->data = std::move(built.data);
                job->checkpoint = std::move(ck);
            }
        }
        QMetaObject::invokeMethod(this, [this, generation, job] {
            if (generation != generation_)
                return;  // cancelled, or replaced by a newer job
            busy_ = false;
            emit finished(job);
        }, Qt::QueuedConnection);
    });
}

}  // namespace as
