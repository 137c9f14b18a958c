#include "model/linear.h"

#include "model/gemm.h"
#include "model/parallel.h"

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

template <typename T>
Linear<T> Linear<T>::makeTied(ParamStore<T>& ps, const std::string& prefix, std::size_t weight,
                              int in, int out)
{
    Linear l;
    l.ps = &ps;
    l.in = in;
    l.out = out;
    l.w = weight;
    l.b = ps.addVector(prefix + ".bias", out);
    return l;
}

// Rows per thread below which splitting a product costs more than it saves.
constexpr long kMinRows = 32;

template <typename T>
void Linear<T>::forward(In<T> x, Out<T> y) const
{
    profileWork(kind, 1, 2.0 * double(x.rows()) * in * out);
    if (chunkCount(x.rows(), kMinRows) < engineThreads() && x.rows() < out) {
        // Too few rows to split (a sentence being translated): split the output features.
        parallelFor(out, kMinRows, [&](long b, long e) {
            {
                const ProfileScope timed(kind);
                gemm<T>(x, false, weight().middleRows(b, e - b), true, y.middleCols(b, e - b), false);
            }
            y.middleCols(b, e - b).rowwise() += bias().segment(b, e - b);
        });
        return;
    }
    parallelFor(x.rows(), kMinRows, [&](long b, long e) {
        {
            const ProfileScope timed(kind);
            gemm<T>(x.middleRows(b, e - b), false, weight(), true, y.middleRows(b, e - b), false);
        }
        y.middleRows(b, e - b).rowwise() += bias();
    });
}

template <typename T>
void Linear<T>::backwardParams(In<T> x, In<T> dy) const
{
    profileWork(kind, 1, 2.0 * double(x.rows()) * in * out);
    // Split over output features: each thread owns rows of dW and entries of db.
    parallelFor(out, 8, [&](long b, long e) {
        {
            const ProfileScope timed(kind);
            gemm<T>(dy.middleCols(b, e - b), true, x, false, weightGrad().middleRows(b, e - b), true);
        }
        biasGrad().segment(b, e - b) += dy.middleCols(b, e - b).colwise().sum();
    });
}

template <typename T>
void Linear<T>::backwardInput(In<T> dy, Out<T> dx, bool accumulate) const
{
    profileWork(kind, 1, 2.0 * double(dy.rows()) * in * out);
    parallelFor(dy.rows(), kMinRows, [&](long b, long e) {
        const ProfileScope timed(kind);
        gemm<T>(dy.middleRows(b, e - b), false, weight(), false, dx.middleRows(b, e - b),
                accumulate);
    });
}

template struct Linear<float>;
template struct Linear<double>;

}  // namespace as
