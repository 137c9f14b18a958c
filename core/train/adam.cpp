#include "train/adam.h"

#include "model/parallel.h"

#include <cmath>

namespace as {

template <typename T>
void Adam<T>::step(T* params, const T* grads, double lr)
{
    ++t_;
    const double bc1 = 1.0 - std::pow(opt_.beta1, double(t_));
    const double bc2 = 1.0 - std::pow(opt_.beta2, double(t_));
    const T b1 = T(opt_.beta1), b2 = T(opt_.beta2);
    const T stepSize = T(lr / bc1);
    const T invSqrtBc2 = T(1.0 / std::sqrt(bc2));
    const T eps = T(opt_.eps);
    T* m = m_.data();
    T* v = v_.data();
    const Eigen::Index n = m_.size();
    parallelFor(long(n), 1 << 14, [&](long from, long to) {
        for (long i = from; i < to; ++i) {
            const T g = grads[i];
            m[i] = b1 * m[i] + (T(1) - b1) * g;
            v[i] = b2 * v[i] + (T(1) - b2) * g * g;
            params[i] -= stepSize * m[i] / (std::sqrt(v[i]) * invSqrtBc2 + eps);
        }
    });
}

template class Adam<float>;
template class Adam<double>;

}  // namespace as
