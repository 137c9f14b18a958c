// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
#include "model/attention.h"
#include "model/feed_forward.h"
#include "model/layer_norm.h"
#include "model/sublayer.h"

namespace as {

// Pre-norm:  x = x + dropout(SelfAttn(norm1(x)));  x = x + dropout(FFN(norm2(x)))
// Post-norm: x = norm1(x + dropout(SelfAttn(x)));  x = norm2(x + dropout(FFN(x)))
// Attention-only (d_ff = 0, core/SPEC.md §2.12): no feed-forward sublayer and no norm2.
template <typename T>
struct EncoderLayer {
    bool feedForward = true;  // false: attention-only
    MultiHeadAttention<T> self_attn;
    FeedForward<T> ffn;
    // The residual connections around self_attn (norm1) and ffn (norm2).
    SublayerConnection<T> sub1, sub2;
    typename SublayerConnection<T>::Scratch scratch;

    // Activations kept for backward (all [n, d], n = B * S).
    Mat<T> x1;  // after the first sublayer

    static EncoderLayer make(ParamStore<T>& ps, const std::string& prefix, int d, int heads,
                             int d_ff, double dropout, bool pre);

    // x: [B*S, d] -> y: [B*S, d].  srcValid: [B*S]
    void forward(In<T> x, int B, int S, const std::uint8_t* srcValid, const Pass& pass, Out<T> y);
    // x: forward's input, dy: [B*S, d] -> dx: [B*S, d]
    void backward(In<T> x, In<T> dy, Out<T> dx);
};

}  // namespace as
