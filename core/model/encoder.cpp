// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/encoder.h"

namespace as {

template <typename T>
EncoderLayer<T> EncoderLayer<T>::make(ParamStore<T>& ps, const std::string& prefix, int d,
                                      int heads, int d_ff, double dropout, bool pre)
{
    EncoderLayer l;
    l.feedForward = d_ff > 0;
    l.self_attn = MultiHeadAttention<T>::make(ps, prefix + ".self_attn", d, heads);
    if (l.feedForward)
        l.ffn = FeedForward<T>::make(ps, prefix + ".ffn", d, d_ff);
    l.sub1 = SublayerConnection<T>::make(ps, prefix + ".norm1", d, dropout, pre);
    if (l.feedForward)
        l.sub2 = SublayerConnection<T>::make(ps, prefix + ".norm2", d, dropout, pre);
    return l;
}

template <typename T>
void EncoderLayer<T>::forward(In<T> x, int B, int S, const std::uint8_t* srcValid,
                              const Pass& pass, Out<T> y)
{
    const double p = sub1.p;
    x1.resize(x.rows(), x.cols());
    sub1.forward(x, pass, scratch, [&](const auto& in, Mat<T>& s) -> const T* {
        self_attn.forwardSelf(in, B, S, srcValid, false, p, pass, s, /*withOutputBias=*/false);
        return self_attn.o.bias().data();
    }, x1);
    if (!feedForward) {
        y = x1;
        return;
    }
    sub2.forward(x1, pass, scratch, [&](const auto& in, Mat<T>& f) -> const T* {
        ffn.forward(in, f, p, pass, /*withOutputBias=*/false);
        return ffn.w2.bias().data();
    }, y);
}

template <typename T>
void EncoderLayer<T>::backward(In<T> x, In<T> dy, Out<T> dx)
{
    // The gradient at x1 is computed in dx, and the first connection takes it from there in
    // place: its residual path then has nothing to copy.
    if (!feedForward)
        dx = dy;
    else
        sub2.backward(x1, dy, scratch, [&](const auto& in, const Mat<T>& dout, auto&& din, bool acc) {
            ffn.backward(in, dout, din, acc);
        }, dx);
    sub1.backward(x, dx, scratch, [&](const auto& in, const Mat<T>& dout, auto&& din, bool acc) {
        self_attn.backwardSelf(in, dout, din, acc);
    }, dx);
}

template struct EncoderLayer<float>;
template struct EncoderLayer<double>;

}  // namespace as
