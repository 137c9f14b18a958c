// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The residual connection around every sublayer (attention, feed-forward) of the encoder and
// decoder layers, written once, as the Annotated Transformer's SublayerConnection:
//   pre-norm:  y = x + dropout(sublayer(norm(x)))
//   post-norm: y = norm(x + dropout(sublayer(x)))       (the paper's own placement)
// The layer owns what its sublayer computes; the connection owns the norm, the dropout after the
// sublayer, the norm's output (the sublayer's input, kept for backward in pre-norm) and the
// sublayer's output. The residual sums and the gradients are scratch that the layer's
// connections share (Scratch), so that a layer holds no more than its three or two sublayers
// need one at a time.
#include "model/dropout.h"
#include "model/layer_norm.h"
#include "model/parallel.h"

#include <algorithm>

namespace as {

template <typename T>
struct SublayerConnection {
    bool pre = true;
    double p = 0.0;  // dropout after the sublayer
    LayerNorm<T> norm;
    Dropout<T> drop;
    Mat<T> a;  // pre: norm(x), the sublayer's input
    Mat<T> s;  // the sublayer's output, after dropout

    // Shared by the connections of one layer: used within one forward or backward call only.
    struct Scratch {
        Mat<T> z;      // post: x + s, the norm's input
        Mat<T> g, g2;  // backward: the gradient after the dropout, at the sublayer's input or z
    };

    static SublayerConnection make(ParamStore<T>& ps, const std::string& normName, int d,
                                   double dropout, bool pre)
    {
        SublayerConnection c;
        c.pre = pre;
        c.p = dropout;
        c.norm = LayerNorm<T>::make(ps, normName, d);
        return c;
    }

    // x: [n, d] -> y: [n, d] (y may be x). sublayer(in, out): in [n, d] -> out [n, d], out
    // already sized; `in` is a, or x itself in post-norm. It returns the bias of its last
    // linear layer, which it left out of `out`: the connection adds it to each row as it reads
    // the row for the dropout and the residual sum, in the same pass (a sublayer that adds its
    // own returns nullptr).
    template <typename X, typename Y, typename Sublayer>
    void forward(const X& x, const Pass& pass, Scratch& scratch, Sublayer&& sublayer, Y&& y)
    {
        const Eigen::Index n = x.rows(), d = x.cols();
        s.resize(n, d);
        if (pre) {
            a.resize(n, d);
            norm.forward(x, a);
            const T* bias = sublayer(a, s);
            drop.forwardAdd(s, x, y, p, pass, bias);
        } else {
            scratch.z.resize(n, d);
            const T* bias = sublayer(x, s);
            drop.forwardAdd(s, x, scratch.z, p, pass, bias);
            norm.forward(scratch.z, y);
        }
    }

    // x: forward's input, dy: [n, d] -> dx: [n, d] (dx may be dy). sublayerBackward(in, dout,
    // din, accumulate): the sublayer's backward from its input `in` (as forward gave it) and
    // the gradient at its output; din = (or += when accumulate) the gradient at its input.
    template <typename X, typename DY, typename DX, typename SublayerBackward>
    void backward(const X& x, const DY& dy, Scratch& scratch, SublayerBackward&& sublayerBackward,
                  DX&& dx)
    {
        const Eigen::Index n = dy.rows(), d = dy.cols();
        Mat<T>& g = scratch.g;
        Mat<T>& g2 = scratch.g2;
        g.resize(n, d);
        g2.resize(n, d);
        if (pre) {
            // y = x + s(norm(x))
            drop.backward(dy, g);
            sublayerBackward(a, g, g2, false);
            if (dx.data() != dy.data())  // in place (dx is dy), the residual is there already
                copyRows(dy, dx);
            norm.backward(g2, dx, true);
        } else {
            // y = norm(z), z = x + s(x)
            norm.backward(dy, g2, false);  // g2 = dz
            copyRows(g2, dx);
            drop.backward(g2, g);
            sublayerBackward(x, g, dx, true);
        }
    }

private:
    // to = from, [n, d] both, its rows split between the threads.
    template <typename From, typename To>
    static void copyRows(const From& from, To&& to)
    {
        parallelFor(long(from.rows()), std::max(1L, 16384 / std::max(1L, long(from.cols()))),
                    [&](long b, long e) { to.middleRows(b, e - b) = from.middleRows(b, e - b); });
    }
};

}  // namespace as
