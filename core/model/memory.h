// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Memory: how much a configuration needs, how much the machine has, and sizes for messages.
#include "model/config.h"

#include <QString>

#include <cstdint>

namespace as {

// Physical memory of the machine in bytes (0 when it cannot be told).
std::uint64_t physicalMemoryBytes();

// "412 GB", "1.5 GB", "300 MB", "12 kB", "7 bytes" (decimal units, as disks and `df -H`).
QString formatBytes(double bytes);

// The parameters of a configuration (vocabulary sizes included), counted from the shapes
// of core/SPEC.md §6.1: embeddings, per encoder layer self-attention (Q, K, V, O with biases), the
// feed-forward network and two norms, per decoder layer two attentions, the feed-forward network
// and three norms, the final norms in pre-norm, the generator; a matrix shared by weight tying
// once (ModelConfig::tiedWeights). In double: an absurd
// configuration's count does not fit an integer.
double parameterCount(const ModelConfig& c);

// What training a configuration holds in memory, in bytes (float32 throughout).
struct MemoryEstimate {
    double weights = 0;      // the parameters
    double gradients = 0;    // one gradient per parameter
    double adam = 0;         // Adam's two moments
    double activations = 0;  // what one batch keeps for the backward pass (see memory.cpp)
    double total() const { return weights + gradients + adam + activations; }
};
// batch: sentences; srcLen, tgtLen: their (padded) lengths.
MemoryEstimate estimateTrainingMemory(const ModelConfig& c, int batch, int srcLen, int tgtLen);

// Empty when the machine's memory holds what training a model of this configuration needs
// before its first batch (weights, gradients, Adam's moments); otherwise the figures, e.g.
// "this model would need 412 GB of memory (…); this machine has 24 GB". ModelConfig::validate()
// says it, so that nothing is allocated for such a model.
QString memoryProblem(const ModelConfig& c);

}  // namespace as
