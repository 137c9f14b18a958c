// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Training health, per parameter tensor: what Trainer::setRecordHealth measures at every
// applied step (norms, the update ratio, Adam's effective step), histograms of weights and
// gradients at intervals, and the tensor whose gradient first went non-finite. The window's
// Health view (ui/health_view.h) draws these records; `train --log` writes them.
#include "train/profile.h"

#include <QString>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace as {

// One parameter tensor's training health at a step.
struct TensorHealth {
    double gradNorm = 0;       // L2 norm of its gradient, before clipping
    double weightNorm = 0;     // L2 norm of its weights after the update
    double updateRatio = 0;    // ‖w_t − w_{t−1}‖ / ‖w_{t−1}‖: the step Adam actually applied
    double effectiveStep = 0;  // mean over its elements of lr / (sqrt(v̂) + ε), Adam's step size
};

// Histograms over log10|x|, the same fixed bins for every tensor and step so that they can be
// laid side by side: kHistogramBins bins of 1/kHistogramBinsPerDecade decade from
// 10^kHistogramLowDecade up. Weights (about 1e-3 … 1) and gradients (1e-9 … 1e-1) both fit,
// which a linear symmetric range would not; the sign is dropped. Bin 0 also counts every
// |x| below the range (exact zeros included: biases start at 0), the last bin everything
// above it; non-finite values are counted apart.
inline constexpr int kHistogramLowDecade = -10;
inline constexpr int kHistogramBinsPerDecade = 4;
inline constexpr int kHistogramBins = 12 * kHistogramBinsPerDecade;  // 1e-10 … 1e2
// log10 of the lower edge of bin b (b = kHistogramBins: the upper edge of the last).
inline double histogramBinEdge(int b) { return kHistogramLowDecade + double(b) / kHistogramBinsPerDecade; }
// Adds n values to counts[kHistogramBins] (and non-finite ones to *nonFinite). In float: a
// value within a rounding of a bin edge may land on either side.
void addToHistogram(const float* x, std::size_t n, std::uint32_t* counts, std::uint32_t* nonFinite);

// Every tensor's histograms at one step (Trainer::setHistogramEvery).
struct HistogramRecord {
    long step = 0;
    int tensors = 0;
    // [tensor * kHistogramBins + bin], tensors in params().table() order. grads: before
    // clipping; weights: after the update.
    std::vector<std::uint32_t> weights, grads;
    std::vector<std::uint32_t> weightsNonFinite, gradsNonFinite;  // [tensor]
    const std::uint32_t* weightCounts(int tensor) const { return weights.data() + std::size_t(tensor) * kHistogramBins; }
    const std::uint32_t* gradCounts(int tensor) const { return grads.data() + std::size_t(tensor) * kHistogramBins; }
};

// One applied step's health: every tensor, in params().table() order.
struct HealthRecord {
    long step = 0;
    std::shared_ptr<const std::vector<TensorHealth>> tensors;
};

// The tensors the records describe, once per model.
struct HealthLayout {
    std::vector<std::string> names;  // params().table() order: the records' indices
    std::vector<std::size_t> forward;  // indices into names in forward order (forwardOrder)
    std::vector<QString> groups;  // per name: tensorGroup(name)
};
// The layer a tensor belongs to, for grouping: "src_embed", "encoder 0" (its layer),
// "encoder norm", "tgt_embed", "decoder 1", "decoder norm", "generator"; else the name's first part.
QString tensorGroup(const std::string& name);

// A step whose loss or gradient was not finite (the update was skipped).
struct NonFiniteRecord {
    long step = 0;
    int tensor = -1;  // table index of the first tensor in forward order with a non-finite
                      // gradient; -1 when every gradient was finite (only the loss was not)
    QString fault;    // StepStats::fault
};

// What a snapshot carries of training health since the previous one.
struct HealthUpdate {
    std::shared_ptr<const HealthLayout> layout;  // the session's tensors (every snapshot)
    std::vector<std::shared_ptr<const HealthRecord>> records;  // applied steps, in order
    std::vector<std::shared_ptr<const HistogramRecord>> histograms;
    std::shared_ptr<const NonFiniteRecord> nonFinite;  // the last skipped step, if any
    // Where the time of the steps since the previous snapshot went (train/profile.h); null
    // when no step was taken.
    std::shared_ptr<const ProfileTotals> profile;
};

}  // namespace as
