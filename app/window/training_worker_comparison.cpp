// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The worker's A/B jobs (training_worker.h): B started beside A, stopped, or kept in A's place;
// B's data taken from what the window built when it was built for this B.
#include "training_worker.h"

namespace as {
namespace {

// Whether the data of A/B's B built on A's settings `x` is B's data on `y` too: the same task
// or corpus, batches, seed and tokenisers (what comparisonOf gives B of A's, and
// makeSessionData reads).
bool sameComparisonData(const SessionSettings& x, const SessionSettings& y)
{
    const auto name = [](const std::optional<Tokenizer>& t) { return t ? tokenizerName(*t) : QString(); };
    return x.task == y.task && x.corpus == y.corpus && x.batchSize == y.batchSize
           && x.batchTokens == y.batchTokens && x.train.seed == y.train.seed
           && x.sharedVocab == y.sharedVocab && name(x.srcTok) == name(y.srcTok)
           && name(x.tgtTok) == name(y.tgtTok);
}

}  // namespace

std::unique_ptr<SessionData> TrainingWorker::takeComparisonData(PreparedSession* p, const SessionSettings& a,
                                                                const SessionSettings& asked)
{
    if (!p || !p->bData || !p->asked
        || !sameComparisonData(comparisonOf(p->a, *p->asked), comparisonOf(a, asked)))
        return nullptr;
    return std::move(p->bData);
}

void TrainingWorker::startComparison(const PreparedSessionPtr& b)
{
    if (!trainable()) {
        emit comparisonFailed(tr("A/B needs a session that trains (a task or a corpus)."));
        return;
    }
    // Both from step 0, on the same data in the same order. B's data, if the window built it on
    // other settings than this session's (a session it asked for that failed), is built again.
    const SessionSettings a = settings_;
    startSession(a, *b->asked, takeComparisonData(b.get(), a, *b->asked));
}

void TrainingWorker::stopComparison()
{
    endComparison();
    emitSnapshot();
}

void TrainingWorker::keepComparison()
{
    if (!compared_)
        return;
    timer_->stop();
    // B's validations due so far join its history before it becomes the session.
    validations_->finish();
    const bool wasRunning = running_;
    std::unique_ptr<TrainingSession> b = compared_->takeSession();
    const SessionSettings s = compared_->settings();
    adoptSession(s, std::move(b), probe_);  // the history comes whole with the next snapshot
    if (wasRunning)
        emit runningChanged(false);
    emit sessionLoaded(settings_, std::make_shared<const Task>(session_->data().description()),
                       QString(), session_->stepCount(), true);
    emitSnapshot();
}

void TrainingWorker::buildComparison(const SessionSettings& asked, std::unique_ptr<SessionData> data)
{
    SessionSettings b = comparisonOf(settings_, asked);
    QString error;
    std::unique_ptr<TrainingSession> session = buildSession(&b, &error, std::move(data));
    if (!session) {
        compared_.reset();
        emit comparisonFailed(error);
        return;
    }
    compared_ = std::make_unique<ComparedSession>(settings_, asked, b, std::move(session), validations_.get(),
                                                  ++lastLane_);
}

void TrainingWorker::endComparison()
{
    compared_.reset();
}

}  // namespace as
