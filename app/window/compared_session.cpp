// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "compared_session.h"

namespace as {

ComparedSession::ComparedSession(const SessionSettings& a, const SessionSettings& asked,
                                 const SessionSettings& settings,
                                 std::unique_ptr<TrainingSession> session,
                                 BackgroundValidations* validations, int lane)
    : asked_(asked), settings_(settings), session_(std::move(session)), validations_(validations), lane_(lane),
      name_(QStringLiteral("B: ") + settingsDifferences(a, settings))
{
    session_->trainer().setRecordHealth(true);
    healthLayout_ = healthLayoutOf(session_->model());
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
    if (r.stats.health)
        newHealth_.push_back(std::make_shared<const HealthRecord>(HealthRecord{r.stats.step, r.stats.health}));
    if (r.validationDue)
        validations_->start(std::shared_ptr<Transformer<float>>(session_->model().clone()), session_->sharedData(),
                            session_->stepCount(), session_->trainSeconds(), {true, false}, lane_);
}

void ComparedSession::addValidation(const Validation& v)
{
    if (!session_)
        return;
    session_->addValidation(v);
    newEval_.push_back(v.point);
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
    c->health.swap(newHealth_);
    c->healthLayout = healthLayout_;
    return c;
}

}  // namespace as
