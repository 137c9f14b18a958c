// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
#include "model/params.h"

namespace as {

// y = (x - mean) / sqrt(var + eps) * weight + bias over the features of each row (biased
// variance, as PyTorch's LayerNorm); eps the configuration's norm_eps (core/SPEC.md §2.4).
template <typename T>
struct LayerNorm {
    ParamStore<T>* ps = nullptr;
    std::size_t w = 0, b = 0;  // weight [d], bias [d]
    int d = 0;
    static constexpr double kEps = 1e-6;  // the default
    double eps = kEps;

    // Cached by forward for backward.
    Mat<T> xhat;                               // [n, d] normalised input
    Eigen::Matrix<T, Eigen::Dynamic, 1> rstd;  // [n] 1 / sqrt(var + eps)
    Mat<T> partial;                            // [2 * chunks, d] backward scratch

    static LayerNorm make(ParamStore<T>& ps, const std::string& prefix, int d);
    // Initial values (core/SPEC.md §4.2): weight 1, bias 0.
    void reset();

    // x: [n, d] -> y: [n, d]
    void forward(In<T> x, Out<T> y);
    // Accumulates dweight, dbias; dx = (or +=) the input gradient.  dy, dx: [n, d]
    void backward(In<T> dy, Out<T> dx, bool accumulate);
};

}  // namespace as
