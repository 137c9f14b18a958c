#pragma once
#include "model/attention.h"
#include "model/feed_forward.h"
#include "model/layer_norm.h"

namespace as {

// Pre-norm:  x = x + dropout(SelfAttn(norm1(x)));  x = x + dropout(FFN(norm2(x)))
// Post-norm: x = norm1(x + dropout(SelfAttn(x)));  x = norm2(x + dropout(FFN(x)))
template <typename T>
struct EncoderLayer {
    bool pre = true;
    double p = 0.0;  // dropout
    LayerNorm<T> norm1, norm2;
    MultiHeadAttention<T> self_attn;
    FeedForward<T> ffn;
    Dropout<T> drop1, drop2;

    // Activations kept for backward (all [n, d], n = B * S).
    Mat<T> a;   // pre: norm1(x)
    Mat<T> s;   // attention sublayer output after dropout
    Mat<T> z;   // post: x + s (norm1's input)
    Mat<T> x1;  // after the first sublayer
    Mat<T> b;   // pre: norm2(x1)
    Mat<T> f;   // FFN output after dropout
    Mat<T> z2;  // post: x1 + f
    Mat<T> g, g2, dx1;  // backward scratch

    static EncoderLayer make(ParamStore<T>& ps, const std::string& prefix, int d, int heads,
                             int d_ff, double dropout, bool pre);

    // x: [B*S, d] -> y: [B*S, d].  srcValid: [B*S]
    void forward(In<T> x, int B, int S, const std::uint8_t* srcValid, const Pass& pass, Out<T> y);
    // x: forward's input, dy: [B*S, d] -> dx: [B*S, d]
    void backward(In<T> x, In<T> dy, Out<T> dx);
};

}  // namespace as
