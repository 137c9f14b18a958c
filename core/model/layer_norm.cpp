// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/layer_norm.h"

#include "model/parallel.h"
#include "train/profile.h"

#include <cmath>

namespace as {

template <typename T>
LayerNorm<T> LayerNorm<T>::make(ParamStore<T>& ps, const std::string& prefix, int d)
{
    LayerNorm l;
    l.ps = &ps;
    l.d = d;
    l.w = ps.addVector(prefix + ".weight", d);
    l.b = ps.addVector(prefix + ".bias", d);
    return l;
}

template <typename T>
void LayerNorm<T>::reset()
{
    RowVecMap<T>(ps->values() + w, d).setOnes();
    RowVecMap<T>(ps->values() + b, d).setZero();
}

template <typename T>
void LayerNorm<T>::forward(In<T> x, Out<T> y)
{
    const ProfileScope timed(ProfileCategory::LayerNorm);
    const Eigen::Index n = x.rows();
    xhat.resize(n, d);
    rstd.resize(n);
    const RowVecMap<T> weightMap(ps->values() + w, d), biasMap(ps->values() + b, d);
    const auto weight = weightMap.array();
    const auto bias = biasMap.array();
    // Each row read from memory once and worked on in L1: its sum, the sum of squared
    // deviations, then x̂ and y written in the same pass (y may be x: the row is read first).
    parallelFor(n, 64, [&](long from, long to) {
        for (Eigen::Index r = from; r < to; ++r) {
            const auto xr = x.row(r).array();
            const T mean = xr.sum() / T(d);
            const T var = (xr - mean).square().sum() / T(d);
            const T rs = T(1) / std::sqrt(var + T(eps));
            rstd(r) = rs;
            auto h = xhat.row(r).array();
            h = (xr - mean) * rs;
            y.row(r).array() = h * weight + bias;
        }
    });
}

template <typename T>
void LayerNorm<T>::backward(In<T> dy, Out<T> dx, bool accumulate)
{
    const ProfileScope timed(ProfileCategory::LayerNorm);
    const Eigen::Index n = dy.rows();
    const RowVecMap<T> weightMap(ps->values() + w, d);
    const auto weight = weightMap.array();
    RowVecMap<T> dweight(ps->grads() + w, d);
    RowVecMap<T> dbias(ps->grads() + b, d);
    // dx = rstd * (g - mean(g) - x̂ * mean(g . x̂)),  g = dy . weight
    // One pass per row, while dy's and x̂'s rows are in L1: the chunk's parameter gradients,
    // both means and dx (g is never stored).
    const int chunks = chunkCount(n, 64);
    partial.setZero(2 * chunks, d);  // per chunk: sum of dy . x̂, sum of dy
    parallelChunks(n, 64, [&](int c, long from, long to) {
        auto dw = partial.row(2 * c).array();
        auto db = partial.row(2 * c + 1).array();
        for (Eigen::Index r = from; r < to; ++r) {
            const auto dyr = dy.row(r).array();
            const auto h = xhat.row(r).array();
            dw += dyr * h;
            db += dyr;
            const T gMean = (dyr * weight).sum() / T(d);
            const T gxMean = (dyr * weight * h).sum() / T(d);
            const T rs = rstd(r);
            if (accumulate)
                dx.row(r).array() += rs * (dyr * weight - gMean - h * gxMean);
            else
                dx.row(r).array() = rs * (dyr * weight - gMean - h * gxMean);
        }
    });
    for (int c = 0; c < chunks; ++c) {  // in chunk order: deterministic
        dweight += partial.row(2 * c);
        dbias += partial.row(2 * c + 1);
    }
}

template struct LayerNorm<float>;
template struct LayerNorm<double>;

}  // namespace as
