#pragma once
#include "model/attention.h"
#include "model/feed_forward.h"
#include "model/layer_norm.h"

namespace as {

// Pre-norm:  y += dropout(SelfAttn(norm1(y)));  y += dropout(CrossAttn(norm2(y), mem));
//            y += dropout(FFN(norm3(y)))
// Post-norm: y = norm1(y + dropout(SelfAttn(y))); y = norm2(y + dropout(CrossAttn(y, mem)));
//            y = norm3(y + dropout(FFN(y)))
// Self-attention masks padded keys and future positions; cross-attention masks padded sources.
template <typename T>
struct DecoderLayer {
    bool pre = true;
    double p = 0.0;
    LayerNorm<T> norm1, norm2, norm3;
    MultiHeadAttention<T> self_attn, cross_attn;
    FeedForward<T> ffn;
    Dropout<T> drop1, drop2, drop3;

    // Activations kept for backward (all [n, d], n = B * T).
    Mat<T> a1, a2, a3;  // pre: norm inputs' outputs (the sublayers' inputs)
    Mat<T> s1, s2, f;   // sublayer outputs after dropout
    Mat<T> y1, y2;      // after the first and second sublayers
    Mat<T> z;           // post: residual sums, norm inputs (scratch)
    Mat<T> g, g2, dy1, dy2;  // backward scratch

    static DecoderLayer make(ParamStore<T>& ps, const std::string& prefix, int d, int heads,
                             int d_ff, double dropout, bool pre);

    // y: [B*T, d], mem: [B*S, d] -> out: [B*T, d].  tgtValid: [B*T], srcValid: [B*S]
    void forward(In<T> y, In<T> mem, int B, int T_, int S, const std::uint8_t* tgtValid,
                 const std::uint8_t* srcValid, const Pass& pass, Out<T> out);
    // y, mem: forward's inputs; dout: [B*T, d] -> dy: [B*T, d]; dmem: [B*S, d] accumulated.
    void backward(In<T> y, In<T> mem, In<T> dout, Out<T> dy, Out<T> dmem);
};

}  // namespace as
