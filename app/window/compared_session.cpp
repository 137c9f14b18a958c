// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "compared_session.h"

namespace as {

ComparedSession::ComparedSession(const SessionSettings& a, const SessionSettings& asked,
                                 const SessionSettings& settings,
                                 std::unique_ptr<TrainingSession> session)
    : asked_(asked), settings_(settings), session_(std::move(session)),
      name_(QStringLiteral("B: ") + settingsDifferences(a, settings))
{
}

void ComparedSession::catchUp(long stepOfA)
{
    if (!session_ || !fault_.isEmpty() || session_->stepCount() >= stepOfA)
        return;
    const SessionStep r = session_->step();
    if (!r.stats.applied) {
        fault_ = r.stats.fault;
        return;
    }
    newLoss_.push_back(session_->history().loss.back());
    if (r.validationDue)
        newEval_.push_back(session_->validate().point);
}

std::shared_ptr<ComparisonUpdate> ComparedSession::takeUpdate()
{
    auto c = std::make_shared<ComparisonUpdate>();
    c->name = name_;
    c->step = session_ ? session_->stepCount() : 0;
    c->fault = fault_;
    c->replacesHistory = restore_;
    restore_ = false;
    c->newLoss.swap(newLoss_);
    c->newEval.swap(newEval_);
    return c;
}

}  // namespace as
