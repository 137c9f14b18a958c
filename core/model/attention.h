// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
#include "model/dropout.h"
#include "model/linear.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace as {

// Multi-head attention (core/SPEC.md §2.2): per head scores = Q K^T / sqrt(d_k), masked
// scores set to -1e9 (a fully masked row becomes uniform, as in PyTorch), softmax over keys,
// dropout on the probabilities, heads concatenated, output projection o.
//
// q, k and v are registered back to back, so self-attention projects with one [3d, d] GEMM and
// cross-attention projects memory with one [2d, d] GEMM. Per-head slices are strided views.
template <typename T>
struct MultiHeadAttention {
    int d = 0, heads = 0, dk = 0;
    Linear<T> q, k, v, o;
    Linear<T> qkv;  // view: q, k, v as one d -> 3d projection
    Linear<T> kv;   // view: k, v as one d -> 2d projection

    // Shapes of the last forward.
    int B = 0, Sq = 0, Sk = 0;
    bool causal = false;
    std::vector<std::uint8_t> keyValid;  // [B * Sk]: 1 = a real key, 0 = padding

    // Cached by forward.
    Mat<T> qkvBuf;  // self: [B*S, 3d] = [Q | K | V]
    Mat<T> qBuf;    // cross: [B*Sq, d]
    Mat<T> kvBuf;   // cross: [B*Sk, 2d] = [K | V]
    Mat<T> probs;   // [B*heads*Sq, Sk] softmax output before dropout: what the window draws
    Dropout<T> drop;      // its key, scale and whether active; the mask itself is not kept
    Mat<T> probsDropped;  // [B*heads*Sq, Sk] after dropout (only when dropout is active)
    Mat<T> ctx;           // [B*Sq, d] heads concatenated (each head times its gate)
    // The scores before softmax, QKᵀ/√d_k with masked entries at -1e9: [B*heads*Sq, Sk] like
    // probs, kept only when keepScores is set (the traced pass, core/eval/trace.h).
    bool keepScores = false;
    Mat<T> scores;

    // Head gates ξ (Michel et al. 2019): head h's output (its attention-weighted values) is
    // multiplied by gate[h] before the output projection. Empty: no gates (ξ = 1, nothing
    // extra computed). Set, backward also gives gateGrad: [B, heads], ∂L/∂ξ_h of each
    // sequence of the batch separately (the sum over its query rows).
    std::vector<T> gate;
    Mat<T> ctxUngated;  // [B*Sq, d] the heads' outputs before their gates (when gated)
    Mat<T> gateGrad;

    // Backward scratch.
    Mat<T> dctx, dqkvBuf, dqBuf, dkvBuf;
    // [chunks] per-head scratch, one per chunk of the parallel range: Kᵀ and the scores
    // (forward), Vᵀ and dP (backward), each [d_k + Sq, Sk padded to whole vectors]
    std::vector<Mat<T>> headScratch;
    std::vector<DropoutMaskStream<T>> maskStreams;  // [chunks] the dropout mask, head by head

    static MultiHeadAttention make(ParamStore<T>& ps, const std::string& prefix, int d, int heads);

    // x: [B*S, d] -> y: [B*S, d].  keyValid: [B*S]. Without the output bias, y lacks o's
    // bias, which the caller adds (SublayerConnection, with the dropout after the sublayer).
    void forwardSelf(In<T> x, int B, int S, const std::uint8_t* keyValid, bool causal, double p,
                     const Pass& pass, Out<T> y, bool withOutputBias = true);
    // xq: [B*Sq, d], mem: [B*Sk, d] -> y: [B*Sq, d].  keyValid: [B*Sk].
    void forwardCross(In<T> xq, In<T> mem, int B, int Sq, int Sk, const std::uint8_t* keyValid,
                      double p, const Pass& pass, Out<T> y, bool withOutputBias = true);

    // x: forward's input; dy: [B*S, d] -> dx: [B*S, d] (= or +=).
    void backwardSelf(In<T> x, In<T> dy, Out<T> dx, bool accumulate);
    // dy: [B*Sq, d] -> dxq: [B*Sq, d] (= or +=); dmem: [B*Sk, d] always +=.
    void backwardCross(In<T> xq, In<T> mem, In<T> dy, Out<T> dxq, bool accumulate, Out<T> dmem);

    bool masked(int b, int i, int j) const
    {
        return !keyValid[std::size_t(b) * Sk + j] || (causal && j > i);
    }

    bool gated() const { return !gate.empty(); }
    // The gates applied to ctx (forward), and their gradient taken out of dctx (backward).
    void applyGates();
    void gatesBackward();

private:
    // Whether any of a sequence's Sk keys (valid: its keyValid entries) is padding.
    bool hasPadding(const std::uint8_t* valid) const
    {
        return std::find(valid, valid + Sk, std::uint8_t(0)) != valid + Sk;
    }
    // The first key in query i's future (causal), masked with all after it; Sk if none.
    int firstMasked(int i) const { return causal ? std::min(i + 1, Sk) : Sk; }
    // Scores, mask, softmax, dropout and P V for all batches and heads. Q, K, V: row strides
    // ldq, ldk, ldv; head h occupies columns [h*dk, (h+1)*dk).
    void attend(const T* Q, int ldq, const T* K, int ldk, const T* V, int ldv, double p,
                const Pass& pass);
    // From dctx: writes dQ, dK, dV (same layouts as attend's inputs).
    void attendBackward(const T* Q, int ldq, const T* K, int ldk, const T* V, int ldv, T* dQ,
                        T* dK, T* dV);
};

}  // namespace as
