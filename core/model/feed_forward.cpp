#include "model/feed_forward.h"

namespace as {

template <typename T>
FeedForward<T> FeedForward<T>::make(ParamStore<T>& ps, const std::string& prefix, int d, int d_ff)
{
    FeedForward f;
    f.w1 = Linear<T>::make(ps, prefix + ".w1", d, d_ff);
    f.w2 = Linear<T>::make(ps, prefix + ".w2", d_ff, d);
    return f;
}

template <typename T>
void FeedForward<T>::forward(In<T> x, Out<T> y, double p, const Pass& pass)
{
    h.resize(x.rows(), w1.out);
    w1.forward(x, h);
    h = h.cwiseMax(T(0));
    drop.forward(h, p, pass);
    w2.forward(h, y);
}

template <typename T>
void FeedForward<T>::backward(In<T> x, In<T> dy, Out<T> dx, bool accumulate)
{
    w2.backwardParams(h, dy);
    dh.resize(dy.rows(), w1.out);
    w2.backwardInput(dy, dh, false);
    drop.backward(dh);
    // relu'(z) = [z > 0]. h holds relu output after dropout: a unit dropped by dropout has
    // h = 0, but its dh was already zeroed by the mask, so testing h > 0 is exact for both.
    dh = (h.array() > T(0)).select(dh, T(0));
    w1.backwardParams(x, dh);
    w1.backwardInput(dh, dx, accumulate);
}

template struct FeedForward<float>;
template struct FeedForward<double>;

}  // namespace as
