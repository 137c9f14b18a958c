// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
#include "model/activation.h"
#include "model/dropout.h"
#include "model/linear.h"

namespace as {

// FFN(x) = w2(dropout(act(w1(x)))), act ReLU unless set otherwise (core/SPEC.md §2.3)
template <typename T>
struct FeedForward {
    Linear<T> w1, w2;  // w1: d -> d_ff, w2: d_ff -> d
    Dropout<T> drop;
    Activation act = Activation::Relu;
    Mat<T> z;   // [n, d_ff] w1 x, kept for backward (not with ReLU, whose h tells where z > 0)
    Mat<T> h;   // [n, d_ff] dropout(act(w1 x)), kept for backward
    Mat<T> dh;  // [n, d_ff] backward scratch

    static FeedForward make(ParamStore<T>& ps, const std::string& prefix, int d, int d_ff);
    // ReLU reads its mask off h and fuses it with dropout's; the others keep z and the mask.
    void setActivation(Activation a)
    {
        act = a;
        drop.keepMask = a != Activation::Relu;
    }

    // x: [n, d] -> y: [n, d]. Without the output bias, y lacks w2's bias, which the caller
    // adds (SublayerConnection, with the dropout after the sublayer).
    void forward(In<T> x, Out<T> y, double p, const Pass& pass, bool withOutputBias = true);
    // x: forward's input; dy: [n, d] -> dx: [n, d] (= or +=); accumulates parameter grads.
    void backward(In<T> x, In<T> dy, Out<T> dx, bool accumulate);
};

}  // namespace as
