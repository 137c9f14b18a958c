// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Sampling the next token (core/SPEC.md §5.6): temperature, then top-k, then top-p (nucleus),
// then one draw from what is left, renormalised. Temperature 0 is greedy (the first maximum,
// as greedyDecode). A seed makes a sample repeatable.
#include "model/rng.h"

#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace as {

struct SamplingOptions {
    double temperature = 1.0;  // > 0, or 0 for greedy
    int topK = 0;              // keep the k most probable tokens; 0: all
    double topP = 1.0;         // keep the fewest most probable whose mass reaches p; 1: all
    std::uint64_t seed = 0;

    bool greedy() const { return temperature == 0.0; }
    // Empty when usable; else what is wrong (in the program's words).
    QString validate() const;
};

// One step of a sampled output: the model's distribution and the one drawn from.
struct SamplingStep {
    std::vector<double> model;  // [V] the model's probabilities, <pad> and <s> included
    std::vector<double> cut;    // [V] after temperature, top-k and top-p, renormalised
    int token = -1;             // the token drawn
};

// logp: [V] log-probabilities (-inf for a token that may not be drawn) -> the distribution
// sampled from: p_i ∝ exp(logp_i / T), then only the top-k, then the top-p nucleus (the most
// probable first, ties to the lower id, until their mass reaches p), renormalised; 0 elsewhere.
// Greedy: all the mass on the first maximum. At least one token is always kept.
std::vector<double> samplingDistribution(const std::vector<double>& logp,
                                         const SamplingOptions& options);
// softmax(logp), the distribution before sampling's changes.
std::vector<double> softmaxOf(const std::vector<double>& logp);
// One draw from p (sums to 1): the first i with u < p_0 + … + p_i, u = rng.uniform(); a token
// of probability 0 is never drawn.
int drawToken(const std::vector<double>& p, Rng& rng);

}  // namespace as
