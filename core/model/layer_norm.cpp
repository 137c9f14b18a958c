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
    const RowVecMap<T> weight(ps->values() + w, d);
    const RowVecMap<T> bias(ps->values() + b, d);
    parallelFor(n, 64, [&](long b, long e) {
        for (Eigen::Index r = b; r < e; ++r) {
            const T mean = x.row(r).mean();
            xhat.row(r) = x.row(r).array() - mean;
            const T var = xhat.row(r).squaredNorm() / T(d);
            rstd(r) = T(1) / std::sqrt(var + T(kEps));
            xhat.row(r) *= rstd(r);
            y.row(r) = xhat.row(r).cwiseProduct(weight) + bias;
        }
    });
}

template <typename T>
void LayerNorm<T>::backward(In<T> dy, Out<T> dx, bool accumulate)
{
    const ProfileScope timed(ProfileCategory::LayerNorm);
    const Eigen::Index n = dy.rows();
    const RowVecMap<T> weight(ps->values() + w, d);
    RowVecMap<T> dweight(ps->grads() + w, d);
    RowVecMap<T> dbias(ps->grads() + b, d);
    // dx = rstd * (g - mean(g) - xhat * mean(g . xhat)),  g = dy . weight
    g.resize(n, d);
    const int chunks = chunkCount(n, 64);
    partial.setZero(2 * chunks, d);  // per chunk: sum of dy . xhat, sum of dy
    parallelChunks(n, 64, [&](int c, long b, long e) {
        const auto dyc = dy.middleRows(b, e - b);
        partial.row(2 * c) = (dyc.array() * xhat.middleRows(b, e - b).array()).colwise().sum().matrix();
        partial.row(2 * c + 1) = dyc.colwise().sum();
        g.middleRows(b, e - b).noalias() = dyc * weight.asDiagonal();
        for (Eigen::Index r = b; r < e; ++r) {
            const T gMean = g.row(r).mean();
            const T gxMean = g.row(r).dot(xhat.row(r)) / T(d);
            if (accumulate)
                dx.row(r) += rstd(r) * (g.row(r).array() - gMean - xhat.row(r).array() * gxMean).matrix();
            else
                dx.row(r) = rstd(r) * (g.row(r).array() - gMean - xhat.row(r).array() * gxMean).matrix();
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
