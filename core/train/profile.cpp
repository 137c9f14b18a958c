// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "train/profile.h"

#include "model/bf16.h"

namespace as {

namespace profile_detail {
thread_local ThreadState tState;
}

const char* profileCategoryKey(ProfileCategory c)
{
    switch (c) {
    case ProfileCategory::GemmAttentionProjections: return "gemm_attention_projections";
    case ProfileCategory::GemmAttentionScores: return "gemm_attention_scores";
    case ProfileCategory::GemmAttentionContext: return "gemm_attention_context";
    case ProfileCategory::GemmFeedForward: return "gemm_feed_forward";
    case ProfileCategory::GemmGenerator: return "gemm_generator";
    case ProfileCategory::AttentionSoftmax: return "attention_softmax";
    case ProfileCategory::LayerNorm: return "layer_norm";
    case ProfileCategory::Dropout: return "dropout";
    case ProfileCategory::Embedding: return "embedding";
    case ProfileCategory::Loss: return "loss";
    case ProfileCategory::Adam: return "adam";
    case ProfileCategory::Bias: return "bias";
    case ProfileCategory::Gradient: return "gradient";
    case ProfileCategory::ThreadWait: return "thread_wait";
    case ProfileCategory::Other: return "other";
    case ProfileCategory::Count: break;
    }
    return "?";
}

double ProfileTotals::categorySeconds() const
{
    double s = 0;
    for (double v : seconds)
        s += v;
    return s;
}

ProfileTotals& ProfileTotals::operator+=(const ProfileTotals& o)
{
    steps += o.steps;
    wallSeconds += o.wallSeconds;
    for (int i = 0; i < kProfileCategories; ++i) {
        seconds[std::size_t(i)] += o.seconds[std::size_t(i)];
        flops[std::size_t(i)] += o.flops[std::size_t(i)];
        calls[std::size_t(i)] += o.calls[std::size_t(i)];
        waitSeconds[std::size_t(i)] += o.waitSeconds[std::size_t(i)];
        regions[std::size_t(i)] += o.regions[std::size_t(i)];
    }
    if (o.steps > 0) {
        gemmLibraries = o.gemmLibraries;  // the later steps'
        precision = o.precision;
        bf16Kernel = o.bf16Kernel;
        bf16Units = o.bf16Units;
    }
    return *this;
}

double trainingStepFlops(const ModelConfig& c, double B, double S, double T)
{
    const double d = c.d_model, f = c.d_ff, Le = c.encoder_layers, Ld = c.decoder_layers,
                 V = c.tgt_vocab;
    const double ns = B * S, nt = B * T;
    const double enc = Le * (2 * ns * d * d * 4 + 2 * ns * d * f * 2 + 2 * 2 * B * S * S * d);
    // A decoder-only layer (core/SPEC.md §2.10) has no cross-attention: its query and output
    // projections, the memory's keys and values, and its scores and context drop out.
    const double cross = c.decoderOnly()
                             ? 0.0
                             : 2 * nt * d * d * 2 + 2 * ns * d * d * 2 + 2 * 2 * B * T * S * d;
    const double dec = Ld * (2 * nt * d * d * 4 + cross + 2 * nt * d * f * 2 + 2 * 2 * B * T * T * d);
    return 3 * (enc + dec + 2 * nt * d * V);
}

ProfileStep::ProfileStep(bool enabled) noexcept : enabled_(enabled)
{
    if (!enabled_)
        return;
    profile_detail::ThreadState& s = profile_detail::tState;
    s = profile_detail::ThreadState{};
    s.current = int(ProfileCategory::Other);
    s.since = profile_detail::now();
    s.on = true;
}

ProfileStep::~ProfileStep()
{
    if (enabled_)
        profile_detail::tState.on = false;
}

void ProfileStep::finish(ProfileTotals& totals, double wallSeconds) noexcept
{
    if (!enabled_)
        return;
    profile_detail::ThreadState& s = profile_detail::tState;
    s.ns[s.current] += profile_detail::now() - s.since;
    s.on = false;
    enabled_ = false;
    totals.steps += 1;
    totals.wallSeconds += wallSeconds;
    for (int i = 0; i < kProfileCategories; ++i) {
        totals.seconds[std::size_t(i)] += double(s.ns[i]) * 1e-9;
        totals.flops[std::size_t(i)] += s.flops[i];
        totals.calls[std::size_t(i)] += s.calls[i];
        totals.waitSeconds[std::size_t(i)] += double(s.waitNs[i]) * 1e-9;
        totals.regions[std::size_t(i)] += s.regions[i];
    }
    for (int site = 0; site < kGemmSites; ++site)
        totals.gemmLibraries[std::size_t(site)] = gemmChoice(site);
    totals.precision = gemmPrecision();
    totals.bf16Kernel = bf16Kernel();
    totals.bf16Units = totals.precision == GemmPrecision::BFloat16 ? bf16ProductUnits() : QString();
}

}  // namespace as
