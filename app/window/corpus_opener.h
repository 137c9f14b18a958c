// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Reads a user's corpus off the GUI thread, with progress and cancel: for "Open corpus…", and
// for continuing the corpus run of a checkpoint (which it reads too, and checks that the
// corpus found is the one the run trained on). One job at a time; a new one cancels the last
// (a BackgroundJob, whose progress dialog "Open corpus…" shows).
#include "background_job.h"
#include "io/checkpoint.h"
#include "train/corpus_run.h"

#include <QObject>

#include <memory>

namespace as {

struct CorpusJob {
    CorpusRun run;
    std::shared_ptr<const SessionData> data;  // null: error (or cancelled)
    CorpusBuildReport report;
    // Continuing a saved run: the checkpoint, read again in the background, and its file.
    std::shared_ptr<Checkpoint> checkpoint;
    QString checkpointPath;
    bool autosave = false;
    QString error;
    bool cancelled = false;
};
using CorpusJobPtr = std::shared_ptr<const CorpusJob>;

class CorpusOpener : public QObject {
    Q_OBJECT
public:
    explicit CorpusOpener(QObject* parent = nullptr);
    ~CorpusOpener() override;  // cancels the job and waits for it

    // Reads run's files; finished answers.
    void open(const CorpusRun& run);
    // Reads the checkpoint at `path` and the corpus `run` names (the run its record holds,
    // with files the user may have pointed to elsewhere), and checks that it is the data the
    // checkpoint was trained on; finished answers.
    void openForCheckpoint(const QString& path, const CorpusRun& run, bool autosave);
    void cancel();
    bool busy() const { return job_->busy(); }
    // The job that reads (its progress, and its dialog if one is shown).
    BackgroundJob* job() const { return job_; }

signals:
    void finished(as::CorpusJobPtr job);

private:
    void start(std::shared_ptr<CorpusJob> job);

    BackgroundJob* job_ = nullptr;
};

}  // namespace as

Q_DECLARE_METATYPE(as::CorpusJobPtr)
