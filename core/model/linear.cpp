#include "model/linear.h"

#include "model/parallel.h"

#include <algorithm>

namespace as {

template <typename T>
Linear<T> Linear<T>::make(ParamStore<T>& ps, const std::string& prefix, int in, int out)
{
    Linear l;
    l.ps = &ps;
    l.in = in;
    l.out = out;
    l.w = ps.addMatrix(prefix + ".weight", out, in);
    l.b = ps.addVector(prefix + ".bias", out);
    return l;
}

// Rows per thread below which splitting a product costs more than it saves.
constexpr long kMinRows = 32;

// Output features per product. Eigen packs all the rows of W a product uses into one buffer
// (kc x out floats); up to 1024 of them it stays under EIGEN_STACK_ALLOCATION_LIMIT and on the
// stack, where a generator over a 5,000-word vocabulary would take megabytes from the heap at
// every step (tests/test_no_alloc.cpp).
constexpr long kMaxOutPerProduct = 1024;

template <typename T>
void Linear<T>::forward(In<T> x, Out<T> y) const
{
    parallelFor(x.rows(), kMinRows, [&](long b, long e) {
        for (long j = 0; j < out; j += kMaxOutPerProduct) {
            const long m = std::min<long>(kMaxOutPerProduct, out - j);
            y.middleRows(b, e - b).middleCols(j, m).noalias()
                = x.middleRows(b, e - b) * weight().middleRows(j, m).transpose();
        }
        y.middleRows(b, e - b).rowwise() += bias();
    });
}

template <typename T>
void Linear<T>::backwardParams(In<T> x, In<T> dy) const
{
    // Split over output features: each thread owns rows of dW and entries of db.
    parallelFor(out, 8, [&](long b, long e) {
        weightGrad().middleRows(b, e - b).noalias() += dy.middleCols(b, e - b).transpose() * x;
        biasGrad().segment(b, e - b) += dy.middleCols(b, e - b).colwise().sum();
    });
}

template <typename T>
void Linear<T>::backwardInput(In<T> dy, Out<T> dx, bool accumulate) const
{
    parallelFor(dy.rows(), kMinRows, [&](long b, long e) {
        if (accumulate)
            dx.middleRows(b, e - b).noalias() += dy.middleRows(b, e - b) * weight();
        else
            dx.middleRows(b, e - b).noalias() = dy.middleRows(b, e - b) * weight();
    });
}

template struct Linear<float>;
template struct Linear<double>;

}  // namespace as
