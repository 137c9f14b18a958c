// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "session_builder.h"

#include "worker_link.h"

#include "text/lm_tasks.h"

#include <QProgressDialog>

namespace as {

bool trainsTokenizer(const SessionSettings& s)
{
    if (s.inspecting()
        || (!s.userCorpus() && !isBundledCorpusTask(s.task) && !isCorpusLanguageModelTask(s.task)))
        return false;
    return (s.srcTok && s.srcTok->isSubword()) || (s.tgtTok && s.tgtTok->isSubword());
}

QString subwordSides(const SessionSettings& s)
{
    // As A/B's legends name them: what s changes from the same settings without those sides.
    SessionSettings without = s;
    if (s.srcTok && s.srcTok->isSubword())
        without.srcTok.reset();
    if (s.tgtTok && s.tgtTok->isSubword())
        without.tgtTok.reset();
    return settingsDifferences(without, s);
}

SessionBuilder::SessionBuilder(QWidget* window, WorkerLink* link)
    : QObject(window), window_(window), job_(new BackgroundJob(this))
{
    connect(job_, &BackgroundJob::canceled, this, [this] {
        waiting_.clear();
        if (auto f = std::exchange(canceled_, {}))
            f();
    });
    // The latest session wins over one still being built for it.
    connect(link, &WorkerLink::sessionOrdered, this, &SessionBuilder::cancel);
}

void SessionBuilder::cancel()
{
    job_->cancel();
    waiting_.clear();
    canceled_ = {};
}

void SessionBuilder::whenIdle(std::function<void()> f)
{
    if (job_->busy())
        waiting_.push_back(std::move(f));
    else
        f();
}

void SessionBuilder::build(const PreparedSessionPtr& p, bool a, bool b, const QString& title,
                           const QString& label, std::function<void(const PreparedSessionPtr&)> done,
                           std::function<void(const QString&)> failed, std::function<void()> canceled)
{
    cancel();  // a newer session wins
    canceled_ = std::move(canceled);
    const std::optional<SessionSettings> bSettings =
        b && p->asked ? std::optional<SessionSettings>(comparisonOf(p->a, *p->asked)) : std::nullopt;
    job_->start([this, p, a, bSettings, done = std::move(done),
                 failed = std::move(failed)](const Progress&) -> std::function<void()> {
        QString error;
        if (a)
            p->aData = TrainingWorker::buildData(p->a, &error);
        if (error.isEmpty() && bSettings)
            p->bData = TrainingWorker::buildData(*bSettings, &error);
        return [this, p, error, done, failed] {
            canceled_ = {};
            // What waited runs after this session reached the worker (whose sessionOrdered
            // would otherwise drop it).
            std::vector<std::function<void()>> waiting = std::exchange(waiting_, {});
            if (error.isEmpty())
                done(p);
            else
                failed(error);
            for (auto& f : waiting)
                f();
        };
    });
    // SentencePiece says nothing of how far its training is: a busy bar.
    job_->showProgress(window_, title, label, false);
}

}  // namespace as
