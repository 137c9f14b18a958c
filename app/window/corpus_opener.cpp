// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "corpus_opener.h"

#include "run/resume.h"
#include "text/lm_tasks.h"

#include <QFileInfo>

namespace as {

CorpusOpener::CorpusOpener(QObject* parent) : QObject(parent), job_(new BackgroundJob(this))
{
    qRegisterMetaType<as::CorpusJobPtr>();
}

CorpusOpener::~CorpusOpener() = default;  // job_, a child, cancels and waits

void CorpusOpener::cancel()
{
    job_->cancel();
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
    job_->start([this, job](const Progress& onProgress) -> std::function<void()> {
        std::shared_ptr<Checkpoint> ck;
        if (!job->checkpointPath.isEmpty()) {
            QString error;
            std::optional<Checkpoint> loaded = loadCheckpoint(job->checkpointPath, &error);
            if (!loaded)
                job->error = error;
            else
                ck = std::make_shared<Checkpoint>(std::move(*loaded));
            // A fine-tuning run read the pairs with its model's tokenisers and vocabularies.
            if (ck)
                if (const std::shared_ptr<const ModelText> text = savedModelText(*ck))
                    readWithModel(&job->run.source.dataset, *text);
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
        return [this, job] { emit finished(job); };
    });
}

}  // namespace as
