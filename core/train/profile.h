// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Where a training step's time goes (attention-studio-cli bench --profile, the Health tab's
// table). Trainer::setProfile(true) turns the profiler on for the thread that runs
// Trainer::step, for the step's duration only; every other thread (the engine's pool workers)
// and every other moment costs one thread-local flag test per scope.
//
// The training thread's wall time is cut into categories: a ProfileScope charges the time from
// its construction to its destruction to its category, minus the time of scopes nested in it
// (exclusive time), and whatever no scope covers is Other. The categories of one step therefore
// add up to the step's wall time. The calling thread runs chunks of a parallel region too (the
// engine's pool lets every thread claim the next chunk not yet taken): a category's time is the
// training thread's share of that work, and the time it then waits for the other threads'
// chunks is ThreadWait. GFLOP/s of a GEMM category are its
// FLOPs (of all threads) per second of the training thread in it.
//
// Each category also counts the parallel regions started inside it (profileRegion) and the
// ThreadWait of those regions: a region's start and its wait for the other threads are charged
// to ThreadWait and, a second time, as the wait of the category that started it. These waits
// therefore add up to ThreadWait, and tell whose regions the threads wait in (many short ones,
// or long ones split unevenly).
//
// profileWork counts matrix products where they are issued (one call = one product, however
// many threads split it; 2·m·n·k FLOPs). Neither scopes nor counts allocate or lock: the state
// is a fixed thread-local block (tests/core/test_no_alloc.cpp).
#include "model/config.h"
#include "model/bf16.h"
#include "model/gemm.h"

#include <QString>

#include <array>
#include <chrono>
#include <cstdint>

namespace as {

enum class ProfileCategory : std::uint8_t {
    GemmAttentionProjections,  // Q, K, V and output projections (forward and backward)
    GemmAttentionScores,       // Q Kᵀ per head, and its two backward products
    GemmAttentionContext,      // weights · V per head, and its two backward products
    GemmFeedForward,           // both feed-forward layers
    GemmGenerator,             // the output projection onto the vocabulary
    AttentionSoftmax,          // masking, softmax and its backward
    LayerNorm,
    Dropout,                   // masks drawn and applied (with the feed-forward's ReLU, and
                               // the residual sum after each sublayer)
    Embedding,                 // embedding lookup, positional encoding, their backward
    Loss,                      // label-smoothed loss with log-softmax and its gradient
    Adam,
    Bias,                      // biases written into the outputs, their gradients summed
    Gradient,                  // the gradient zeroed before the step, its norm, clipping
    ThreadWait,                // starting the pool's threads and waiting for their chunks
    Other,                     // everything else: the batch's masks, copies of gradients, …
    Count
};

inline constexpr int kProfileCategories = int(ProfileCategory::Count);

// The JSON key of a category ("gemm_feed_forward", "layer_norm", …).
const char* profileCategoryKey(ProfileCategory c);
inline bool isGemmCategory(ProfileCategory c) { return int(c) <= int(ProfileCategory::GemmGenerator); }

// Totals over profiled steps: a value record (the Health tab's table, bench's JSON).
struct ProfileTotals {
    long steps = 0;
    double wallSeconds = 0;  // Trainer::step's own measure of the steps (StepStats::seconds)
    std::array<double, kProfileCategories> seconds{};  // exclusive time of the training thread
    std::array<double, kProfileCategories> flops{};    // GEMM categories only
    std::array<long, kProfileCategories> calls{};      // matrix products issued
    std::array<double, kProfileCategories> waitSeconds{};  // ThreadWait of the regions it started
    std::array<long, kProfileCategories> regions{};        // parallel regions it started
    // The library that computed each site's products (model/gemm.h: gemmSite(kind, pass)) in
    // the last step added: the choice in force then.
    std::array<GemmLibrary, kGemmSites> gemmLibraries{};
    // The layers' products' precision in the last step added (bfloat16: one kernel computed them
    // all, model/bf16.h's bf16Kernel(): the engine's own or oneDNN's).
    GemmPrecision precision = GemmPrecision::Float32;
    Bf16Kernel bf16Kernel = Bf16Kernel::Packed;
    // Under bfloat16, the CPU's units that computed them (model/bf16.h's bf16ProductUnits():
    // "AVX512-BF16" or "AMX-BF16"); empty under float32.
    QString bf16Units;

    double categorySeconds() const;  // the sum over categories
    // categorySeconds / wallSeconds: the part of the step's wall time the categories cover.
    double coverage() const { return wallSeconds > 0 ? categorySeconds() / wallSeconds : 0; }
    ProfileTotals& operator+=(const ProfileTotals& o);
};

// Matmul FLOPs of one training step of batch × srcLen → tgtLen (forward + backward = 3 ×
// forward), as scripts/torch_ref.py counts them: what the GEMM categories add up to.
double trainingStepFlops(const ModelConfig& c, double batch, double srcLen, double tgtLen);

namespace profile_detail {

struct ThreadState {
    bool on;
    int current;             // the category charged now
    std::int64_t since;      // ns, when it started to be
    std::int64_t ns[kProfileCategories];
    double flops[kProfileCategories];
    long calls[kProfileCategories];
    std::int64_t waitNs[kProfileCategories];  // ThreadWait charged inside the category's regions
    long regions[kProfileCategories];
};

// Zero-initialised, no constructor: reading it never allocates nor runs an initialiser.
extern thread_local ThreadState tState;

inline std::int64_t now()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

}  // namespace profile_detail

class ProfileScope {
public:
    explicit ProfileScope(ProfileCategory c) noexcept
    {
        profile_detail::ThreadState& s = profile_detail::tState;
        if (!s.on)
            return;
        const std::int64_t t = profile_detail::now();
        s.ns[s.current] += t - s.since;
        prev_ = s.current;
        s.current = int(c);
        s.since = t;
    }
    ~ProfileScope()
    {
        if (prev_ < 0)
            return;
        profile_detail::ThreadState& s = profile_detail::tState;
        const std::int64_t t = profile_detail::now();
        s.ns[s.current] += t - s.since;
        if (s.current == int(ProfileCategory::ThreadWait) && prev_ != s.current)
            s.waitNs[prev_] += t - s.since;
        s.current = prev_;
        s.since = t;
    }
    ProfileScope(const ProfileScope&) = delete;
    ProfileScope& operator=(const ProfileScope&) = delete;

private:
    int prev_ = -1;
};

// Counts `calls` matrix products of `flops` FLOPs in all on category c (training thread only).
inline void profileWork(ProfileCategory c, long calls, double flops) noexcept
{
    profile_detail::ThreadState& s = profile_detail::tState;
    if (!s.on)
        return;
    s.calls[int(c)] += calls;
    s.flops[int(c)] += flops;
}

// Counts a parallel region started by the training thread, on the category charged now.
inline void profileRegion() noexcept
{
    profile_detail::ThreadState& s = profile_detail::tState;
    if (s.on)
        ++s.regions[s.current];
}

// Profiles the calling thread from construction to finish() (or destruction, which discards).
class ProfileStep {
public:
    explicit ProfileStep(bool enabled) noexcept;
    ~ProfileStep();
    // Adds this step to `totals`, with wallSeconds as its wall time, and stops.
    void finish(ProfileTotals& totals, double wallSeconds) noexcept;
    ProfileStep(const ProfileStep&) = delete;
    ProfileStep& operator=(const ProfileStep&) = delete;

private:
    bool enabled_;
};

}  // namespace as
