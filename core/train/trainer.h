// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One object that owns a model, its optimiser, its schedule and its random generators, and
// takes training steps: the command line, the window's worker and the tests all use it.
#include "model/gemm.h"
#include "model/transformer.h"
#include "train/adam.h"
#include "train/health.h"
#include "train/profile.h"

#include <QString>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <utility>

namespace as {

struct TrainOptions {
    double factor = 1.0;  // Noam
    long warmup = 400;    // Noam
    std::uint64_t seed = 0;
    // Gradients are scaled down to this global L2 norm when above it (PyTorch's
    // clip_grad_norm_); 0 = no clipping.
    double clipNorm = 0.0;
    // The products' precision in the step's forward and backward passes (model/gemm.h,
    // core/SPEC.md §2.14); the weights, Adam's moments and the update stay float32 either way.
    // Whoever sets bfloat16 checks bf16Unavailable() first.
    GemmPrecision precision = GemmPrecision::Float32;
};

struct StepStats {
    long step = 0;      // steps taken so far, this one included (if skipped: the step tried)
    double lr = 0.0;    // rate applied in this step (if skipped: the rate it would have had)
    LossStats loss;     // of this batch, before the update
    double gradNorm = 0.0;  // global L2 norm of the gradient, before clipping
    bool clipped = false;
    // False when the loss or a gradient was not finite: the update was skipped, so the
    // weights, Adam's moments and the step count are as before the call; fault says why.
    bool applied = true;
    QString fault;
    // When a gradient was not finite: the first such tensor in forward order (a
    // params().table() index), the one fault names; -1 otherwise.
    int faultTensor = -1;
    double seconds = 0.0;
    // Per tensor, in params().table() order, when health is recorded and the step applied.
    std::shared_ptr<const std::vector<TensorHealth>> health;
    // At applied steps that are multiples of setHistogramEvery's interval: every tensor's
    // histograms of weights and gradients.
    std::shared_ptr<const HistogramRecord> histograms;
};

class Trainer {
public:
    Trainer(const ModelConfig& config, const TrainOptions& options);
    // Continues with a model that already has its weights (a checkpoint): no initialisation.
    Trainer(std::unique_ptr<Transformer<float>> model, const TrainOptions& options);

    // Forward, loss, backward, then — unless the loss or a gradient is not finite — optional
    // clipping and one Adam update at the Noam rate of the next step.
    StepStats step(const Batch& batch);

    Transformer<float>& model() { return *model_; }
    const Transformer<float>& model() const { return *model_; }
    const TrainOptions& options() const { return opt_; }
    void setClipNorm(double clipNorm) { opt_.clipNorm = clipNorm; }
    void setPrecision(GemmPrecision precision) { opt_.precision = precision; }
    // Every applied step also measures each tensor's health (StepStats::health), in Adam's
    // pass over the weights.
    void setRecordHealth(bool on) { recordHealth_ = on; }
    // Histograms of every tensor's weights and gradients (train/health.h) at every n-th step
    // (StepStats::histograms); 0 = never (the default).
    void setHistogramEvery(int n) { histogramEvery_ = std::max(0, n); }
    long stepCount() const { return step_; }
    // Where the time of each step goes from here on (train/profile.h): off by default.
    void setProfile(bool on) { profiling_ = on; }
    bool profiling() const { return profiling_; }
    // Totals of the profiled steps since the last takeProfile (which starts them anew).
    const ProfileTotals& profile() const { return profile_; }
    ProfileTotals takeProfile() { return std::exchange(profile_, ProfileTotals{}); }
    double rateAt(long step) const;

    // The state a checkpoint saves and restores exactly.
    Adam<float>& adam() { return adam_; }
    const Adam<float>& adam() const { return adam_; }
    Rng::State dropoutRngState() const { return dropoutRng_.state(); }
    void restoreState(long step, const Rng::State& dropoutRng)
    {
        step_ = step;
        dropoutRng_.setState(dropoutRng);
    }

    // Called between backward and the finiteness check, with the gradients in params().grads():
    // lets tests inject faults. Empty by default.
    std::function<void(ParamStore<float>&)> afterBackward;

private:
    TrainOptions opt_;
    std::unique_ptr<Transformer<float>> model_;
    Adam<float> adam_;
    Rng dropoutRng_;
    long step_ = 0;
    bool recordHealth_ = false;
    bool profiling_ = false;
    ProfileTotals profile_;
    int histogramEvery_ = 0;
    std::vector<AdamTensorSums> healthSums_;  // per tensor (health); a member: no allocation
    std::vector<double> gradSquares_;  // per tensor; a member so that a step never allocates
    struct GradPiece {
        std::size_t begin, end, tensor;
    };
    std::vector<GradPiece> gradPieces_;  // see sumGradSquares
    std::vector<double> pieceSquares_;
    void sumGradSquares();
    // Per tensor of r (in table order), the histogram of data (values or gradients) into counts.
    void addHistograms(const HistogramRecord& r, const float* data, std::vector<std::uint32_t>& counts,
                       std::vector<std::uint32_t>& nonFinite) const;
};

// The parameters of a model in the order the forward pass uses them (src_embed, the encoder
// layers sublayer by sublayer, tgt_embed, the decoder, generator): indices into
// params().table().
std::vector<std::size_t> forwardOrder(const Transformer<float>& model);
// The names, forward order and groups of the model's tensors, as health records index them.
std::shared_ptr<const HealthLayout> healthLayoutOf(const Transformer<float>& model);

}  // namespace as
