// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "background_validations.h"

namespace as {

BackgroundValidations::BackgroundValidations(Mailbox* inbox, Ready ready)
    : inbox_(inbox), ready_(std::move(ready))
{
    pool_.setMaxThreadCount(1);
}

BackgroundValidations::~BackgroundValidations()
{
    abandon();
}

void BackgroundValidations::start(std::shared_ptr<Transformer<float>> model,
                                  std::shared_ptr<const SessionData> data, long step,
                                  double trainSeconds, const ValidationOptions& options, int lane)
{
    const quint64 generation = generation_;
    std::shared_ptr<std::atomic<bool>> cancel = cancel_;
    // QThreadPool wakes its thread through a lock inside Qt, which TSan cannot see.
    static char handOff;
    std::function<void()> job = [this, model, data, step, trainSeconds, options, lane, generation, cancel] {
        AS_TSAN_ACQUIRE(&handOff);
        Validation v = validateModel(*model, *data, step, trainSeconds, options,
                                     [&cancel](int, int) { return !cancel->load(); });
        if (v.cancelled)
            return;
        {
            const std::lock_guard<std::mutex> lock(mutex_);
            finished_.emplace_back(generation, Done{lane, std::move(v)});
        }
        inbox_->post([this] { deliver(); });
    };
    AS_TSAN_RELEASE(&handOff);
    pool_.start(std::move(job));
}

void BackgroundValidations::deliver()
{
    std::vector<std::pair<quint64, Done>> done;
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        done.swap(finished_);
    }
    std::vector<Done> current;
    for (auto& [generation, v] : done)
        if (generation == generation_)  // else of a session that was replaced
            current.push_back(std::move(v));
    if (!current.empty())
        ready_(std::move(current));
}

void BackgroundValidations::finish()
{
    pool_.waitForDone();
    deliver();
}

void BackgroundValidations::abandon()
{
    cancel_->store(true);
    pool_.waitForDone();
    cancel_ = std::make_shared<std::atomic<bool>>(false);
    ++generation_;
    const std::lock_guard<std::mutex> lock(mutex_);
    finished_.clear();
}

}  // namespace as
