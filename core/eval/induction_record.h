// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the induction-head measurement of one point of a run holds (eval/induction.h,
// core/SPEC.md §13): values only, for the run's history, its files and the views.
#include <memory>
#include <optional>
#include <vector>

namespace as {

// Everything measured at one point of a run (§13).
struct InductionRecord {
    long step = 0;
    int layers = 0, heads = 0;
    // Per head, index layer · heads + head.
    std::vector<double> induction, previous, duplicate;
    std::vector<double> copying;   // direct logit attribution (§13.2); NaN in a post-norm model
    // K-composition (§13.3): [later · layers·heads + earlier], NaN unless earlier's layer is
    // below later's; and the mean score of random matrices of the same shapes.
    std::vector<double> composition;
    double compositionBaseline = 0;
    // The probe's mean NLL (nats) at each decoder position (predicting the next token), and of
    // the tokens in first copies (after the first token) and in later copies (after theirs).
    std::vector<double> positionLoss;
    double firstCopyLoss = 0, laterCopyLoss = 0;
    double inContextScore = 0;   // §13.4
    // The heads masked (gate 0, §2.8) when the probe ran, as indices layer · heads + head,
    // ascending: an ablation's record (the window's head mutes, heads --mask-heads).
    std::vector<int> masked;
    int top() const;             // the head with the highest induction score
    double topInduction() const { return induction.empty() ? 0.0 : induction[std::size_t(top())]; }
};

// The step of the phase change in a run's records (§13.5), if it has come: the first record
// whose top induction score is at least kPhaseChangeInduction while its later copies' loss is
// at least kPhaseChangeLossGap nats below its first copies'.
inline constexpr double kPhaseChangeInduction = 0.3;
inline constexpr double kPhaseChangeLossGap = 1.0;
std::optional<long> phaseChangeStep(const std::vector<std::shared_ptr<const InductionRecord>>& records);

}  // namespace as
