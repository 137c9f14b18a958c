// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
#include "model/attention.h"
#include "model/feed_forward.h"
#include "model/layer_norm.h"
#include "model/sublayer.h"

namespace as {

// Pre-norm:  y += dropout(SelfAttn(norm1(y)));  y += dropout(CrossAttn(norm2(y), mem));
//            y += dropout(FFN(norm3(y)))
// Post-norm: y = norm1(y + dropout(SelfAttn(y))); y = norm2(y + dropout(CrossAttn(y, mem)));
//            y = norm3(y + dropout(FFN(y)))
// Self-attention masks padded keys and future positions; cross-attention masks padded sources.
// Decoder-only (GPT, core/SPEC.md §2.10): no cross-attention and no norm2/sub2; the feed-forward's
// connection is then named norm2, as it is the layer's second sublayer.
// Attention-only (d_ff = 0, core/SPEC.md §2.12): no feed-forward sublayer and no norm after it.
template <typename T>
struct DecoderLayer {
    bool cross = true;  // false: a decoder-only layer; mem, S and srcValid are not read
    bool feedForward = true;  // false: attention-only
    MultiHeadAttention<T> self_attn, cross_attn;
    FeedForward<T> ffn;
    // The residual connections around self_attn (norm1), cross_attn (norm2) and ffn (norm3).
    SublayerConnection<T> sub1, sub2, sub3;
    typename SublayerConnection<T>::Scratch scratch;

    // Activations kept for backward (all [n, d], n = B * T).
    Mat<T> y1, y2;  // after the first and second sublayers

    static DecoderLayer make(ParamStore<T>& ps, const std::string& prefix, int d, int heads,
                             int d_ff, double dropout, bool pre, bool cross = true);

    // y: [B*T, d], mem: [B*S, d] -> out: [B*T, d].  tgtValid: [B*T], srcValid: [B*S]
    void forward(In<T> y, In<T> mem, int B, int T_, int S, const std::uint8_t* tgtValid,
                 const std::uint8_t* srcValid, const Pass& pass, Out<T> out);
    // y, mem: forward's inputs; dout: [B*T, d] -> dy: [B*T, d]; dmem: [B*S, d] accumulated.
    void backward(In<T> y, In<T> mem, In<T> dout, Out<T> dy, Out<T> dmem);
};

}  // namespace as
