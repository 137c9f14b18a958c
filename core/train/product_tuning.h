// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Measuring which library computes each kind of product fastest on this machine
// (model/gemm_tuning.h) from a training step: what `attention-studio-cli bench --retune` does
// on request, and what the programs do once, at first use, where nothing is stored yet for this
// CPU and thread count (attention-studio-cli train; the window at start, with progress and
// Cancel). AS_GEMM_TUNING=off in the environment turns both the first use's measuring and the
// stored tuning off: every product in the default library (the tests run so).
#include "eval/evaluate.h"  // Progress
#include "model/config.h"
#include "model/gemm_tuning.h"

#include <QString>

#include <optional>

namespace as {

// Whether the programs should measure now: tuning on, more than one library loaded, and no
// tuning stored for this CPU and `threads` that can be applied (none, or the file unreadable).
bool productTuningNeeded(int threads);

// One training step of `config` (random ids, 64 pairs of 12 source and 12 target tokens, as
// bench times it) on the engine's threads, its products recorded, then each kind replayed
// `rounds` times with each library loaded (tuneGemm). progress(done, total) returning false
// cancels: nullopt, nothing stored or applied. Otherwise the tuning is stored
// (saveGemmTuning; a failure said in *error, the tuning still used) and applied.
std::optional<GemmTuning> measureProductTuning(const ModelConfig& config, int rounds,
                                               const Progress& progress, QString* error);

// What the first use measures: the small configuration of core/SPEC.md §7.3, 5 rounds (about
// 5 s on two cores of a 2020s CPU).
std::optional<GemmTuning> measureProductTuningAtFirstUse(const Progress& progress, QString* error);

}  // namespace as
