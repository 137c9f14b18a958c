// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The window's validations, in a thread of their own so that training goes on: each takes a
// copy of the weights at the step it is due, computes loss, accuracy, BLEU and the samples
// (validateModel), and comes back through the worker's mailbox, in the order they were due.
// A/B's two runs share the thread (one validation at a time beside training): each validation
// carries its run's lane, 0 for the session, another number for each B.
#include "mailbox.h"
#include "train/session.h"

#include <QThreadPool>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace as {

class BackgroundValidations {
public:
    struct Done {
        int lane = 0;
        Validation validation;
    };
    // ready(results) runs in the mailbox's thread with the results of the current generation.
    using Ready = std::function<void(std::vector<Done>)>;
    BackgroundValidations(Mailbox* inbox, Ready ready);
    ~BackgroundValidations();

    // A validation of `model` (a copy taken now) on `data` (kept alive by the job) at `step`,
    // computing what `options` asks, for the run of `lane`.
    void start(std::shared_ptr<Transformer<float>> model, std::shared_ptr<const SessionData> data,
               long step, double trainSeconds, const ValidationOptions& options, int lane = 0);
    // Waits for the validations started so far and delivers them (before a checkpoint is
    // saved, so that it holds every validation up to its step).
    void finish();
    // Drops the validations started so far (they stop early): a new generation begins.
    void abandon();
    // Which session the validations belong to: abandon() starts a new one.
    quint64 generation() const { return generation_; }

private:
    void deliver();

    Mailbox* inbox_;
    Ready ready_;
    QThreadPool pool_;  // one thread: validations run in the order they are due
    std::mutex mutex_;
    std::vector<std::pair<quint64, Done>> finished_;  // (generation, result)
    quint64 generation_ = 0;
    std::shared_ptr<std::atomic<bool>> cancel_ = std::make_shared<std::atomic<bool>>(false);
};

}  // namespace as
