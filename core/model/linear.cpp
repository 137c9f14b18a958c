#include "model/linear.h"

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
void Linear<T>::forward(In<T> x, Out<T> y) const
{
    y.noalias() = x * weight().transpose();
    y.rowwise() += bias();
}

template <typename T>
void Linear<T>::backwardParams(In<T> x, In<T> dy) const
{
    weightGrad().noalias() += dy.transpose() * x;
    biasGrad() += dy.colwise().sum();
}

template <typename T>
void Linear<T>::backwardInput(In<T> dy, Out<T> dx, bool accumulate) const
{
    if (accumulate)
        dx.noalias() += dy * weight();
    else
        dx.noalias() = dy * weight();
}

template struct Linear<float>;
template struct Linear<double>;

}  // namespace as
