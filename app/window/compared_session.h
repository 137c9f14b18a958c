// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A/B's B: a second session with A's data, order, seed and plan (run/settings.h's
// comparisonOf) and the user's changes, stepped by the worker after each of A's steps. It keeps
// its own points until the next snapshot takes them.
#include "background_validations.h"
#include "run/settings.h"
#include "train/session.h"
#include "train/snapshot.h"

#include <memory>

namespace as {

class ComparedSession {
public:
    // B as asked (`asked`, its settings as the user gave them), built as `settings` (over A's
    // data and plan), named in legends after what it changes from `a`. Its validations run in
    // `validations` (A's thread: one at a time beside training) under `lane`; its tensors'
    // health is measured at every step, as A's is.
    ComparedSession(const SessionSettings& a, const SessionSettings& asked,
                    const SessionSettings& settings, std::unique_ptr<TrainingSession> session,
                    BackgroundValidations* validations, int lane);

    const SessionSettings& asked() const { return asked_; }
    const SessionSettings& settings() const { return settings_; }
    int lane() const { return lane_; }
    // B's next step while it is behind A (`stepOfA`), until a step of B fails. A validation
    // due starts in the background on a copy of B's weights: loss, accuracy and BLEU, as A's
    // (without the samples, which show A's translations).
    void catchUp(long stepOfA);
    // A validation of B's that finished, recorded in B's history and the next update.
    void addValidation(const Validation& v);
    // B's points since the last call, for a snapshot (the first carries B's series afresh).
    std::shared_ptr<ComparisonUpdate> takeUpdate();
    // B itself, to become the worker's session (A/B's Keep B).
    std::unique_ptr<TrainingSession> takeSession() { return std::move(session_); }

private:
    SessionSettings asked_, settings_;
    std::unique_ptr<TrainingSession> session_;
    BackgroundValidations* validations_;
    int lane_;
    QString name_, fault_;
    std::vector<LossPoint> newLoss_;
    std::vector<EvalPoint> newEval_;
    std::vector<std::shared_ptr<const HealthRecord>> newHealth_;
    std::shared_ptr<const HealthLayout> healthLayout_;
    bool restore_ = true;  // the next update starts B's series afresh
};

}  // namespace as
