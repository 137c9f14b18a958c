// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/decoder.h"

namespace as {

template <typename T>
DecoderLayer<T> DecoderLayer<T>::make(ParamStore<T>& ps, const std::string& prefix, int d,
                                      int heads, int d_ff, double dropout, bool pre, bool cross)
{
    // Registered in core/SPEC.md §6.2's order: self-attention, cross-attention, feed-forward,
    // then the norms.
    DecoderLayer l;
    l.cross = cross;
    l.feedForward = d_ff > 0;
    l.self_attn = MultiHeadAttention<T>::make(ps, prefix + ".self_attn", d, heads);
    if (cross)
        l.cross_attn = MultiHeadAttention<T>::make(ps, prefix + ".cross_attn", d, heads);
    if (l.feedForward)
        l.ffn = FeedForward<T>::make(ps, prefix + ".ffn", d, d_ff);
    l.sub1 = SublayerConnection<T>::make(ps, prefix + ".norm1", d, dropout, pre);
    if (cross)
        l.sub2 = SublayerConnection<T>::make(ps, prefix + ".norm2", d, dropout, pre);
    if (l.feedForward)
        l.sub3 = SublayerConnection<T>::make(ps, prefix + (cross ? ".norm3" : ".norm2"), d, dropout, pre);
    return l;
}

template <typename T>
void DecoderLayer<T>::forward(In<T> y, In<T> mem, int B, int T_, int S,
                              const std::uint8_t* tgtValid, const std::uint8_t* srcValid,
                              const Pass& pass, Out<T> out)
{
    const double p = sub1.p;
    y1.resize(y.rows(), y.cols());
    sub1.forward(y, pass, scratch, [&](const auto& in, Mat<T>& s) -> const T* {
        self_attn.forwardSelf(in, B, T_, tgtValid, true, p, pass, s, /*withOutputBias=*/false);
        return self_attn.o.bias().data();
    }, y1);
    if (cross) {
        y2.resize(y.rows(), y.cols());
        sub2.forward(y1, pass, scratch, [&](const auto& in, Mat<T>& s) -> const T* {
            cross_attn.forwardCross(in, mem, B, T_, S, srcValid, p, pass, s, /*withOutputBias=*/false);
            return cross_attn.o.bias().data();
        }, y2);
    }
    if (!feedForward) {
        out = cross ? y2 : y1;
        return;
    }
    sub3.forward(cross ? y2 : y1, pass, scratch, [&](const auto& in, Mat<T>& f) -> const T* {
        ffn.forward(in, f, p, pass, /*withOutputBias=*/false);
        return ffn.w2.bias().data();
    }, out);
}

template <typename T>
void DecoderLayer<T>::backward(In<T> y, In<T> mem, In<T> dout, Out<T> dy, Out<T> dmem)
{
    // The gradients at y2 and y1 are computed in dy, and each connection takes the one after
    // it from there in place: their residual paths then have nothing to copy.
    if (!feedForward)
        dy = dout;
    else
        sub3.backward(cross ? y2 : y1, dout, scratch,
                      [&](const auto& in, const Mat<T>& g, auto&& din, bool acc) {
                          ffn.backward(in, g, din, acc);
                      }, dy);
    if (cross)
        sub2.backward(y1, dy, scratch, [&](const auto& in, const Mat<T>& g, auto&& din, bool acc) {
            cross_attn.backwardCross(in, mem, g, din, acc, dmem);
        }, dy);
    sub1.backward(y, dy, scratch, [&](const auto& in, const Mat<T>& g, auto&& din, bool acc) {
        self_attn.backwardSelf(in, g, din, acc);
    }, dy);
}

template struct DecoderLayer<float>;
template struct DecoderLayer<double>;

}  // namespace as
