// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Row-wise softmax and log-softmax, max subtracted first so that scores of any finite size
// (±1e4 and beyond) give finite results.
#include "model/tensor.h"

#include <cmath>

namespace as {

// x: [rows, cols], in place.
template <typename T>
void softmaxRows(Out<T> x)
{
    for (Eigen::Index r = 0; r < x.rows(); ++r) {
        auto row = x.row(r);
        const T m = row.maxCoeff();
        row = (row.array() - m).exp();
        row /= row.sum();
    }
}

// x: [rows, cols], in place: x - logsumexp(x) per row.
template <typename T>
void logSoftmaxRows(Out<T> x)
{
    for (Eigen::Index r = 0; r < x.rows(); ++r) {
        auto row = x.row(r);
        const T m = row.maxCoeff();
        const T lse = m + std::log((row.array() - m).exp().sum());
        row.array() -= lse;
    }
}

}  // namespace as
