#include "model/encoder.h"

namespace as {

template <typename T>
EncoderLayer<T> EncoderLayer<T>::make(ParamStore<T>& ps, const std::string& prefix, int d,
                                      int heads, int d_ff, double dropout, bool pre)
{
    EncoderLayer l;
    l.pre = pre;
    l.p = dropout;
    l.self_attn = MultiHeadAttention<T>::make(ps, prefix + ".self_attn", d, heads);
    l.ffn = FeedForward<T>::make(ps, prefix + ".ffn", d, d_ff);
    l.norm1 = LayerNorm<T>::make(ps, prefix + ".norm1", d);
    l.norm2 = LayerNorm<T>::make(ps, prefix + ".norm2", d);
    return l;
}

template <typename T>
void EncoderLayer<T>::forward(In<T> x, int B, int S, const std::uint8_t* srcValid,
                              const Pass& pass, Out<T> y)
{
    const Eigen::Index n = x.rows(), d = x.cols();
    s.resize(n, d);
    x1.resize(n, d);
    f.resize(n, d);
    if (pre) {
        a.resize(n, d);
        b.resize(n, d);
        norm1.forward(x, a);
        self_attn.forwardSelf(a, B, S, srcValid, false, p, pass, s);
        drop1.forward(s, p, pass);
        x1.noalias() = x + s;
        norm2.forward(x1, b);
        ffn.forward(b, f, p, pass);
        drop2.forward(f, p, pass);
        y.noalias() = x1 + f;
    } else {
        z.resize(n, d);
        z2.resize(n, d);
        self_attn.forwardSelf(x, B, S, srcValid, false, p, pass, s);
        drop1.forward(s, p, pass);
        z.noalias() = x + s;
        norm1.forward(z, x1);
        ffn.forward(x1, f, p, pass);
        drop2.forward(f, p, pass);
        z2.noalias() = x1 + f;
        norm2.forward(z2, y);
    }
}

template <typename T>
void EncoderLayer<T>::backward(In<T> x, In<T> dy, Out<T> dx)
{
    const Eigen::Index n = dy.rows(), d = dy.cols();
    g.resize(n, d);
    g2.resize(n, d);
    dx1.resize(n, d);
    if (pre) {
        // y = x1 + f(norm2(x1)),  x1 = x + s(norm1(x))
        g = dy;
        drop2.backward(g);
        ffn.backward(b, g, g2, false);
        dx1 = dy;
        norm2.backward(g2, dx1, true);
        g = dx1;
        drop1.backward(g);
        self_attn.backwardSelf(a, g, g2, false);
        dx = dx1;
        norm1.backward(g2, dx, true);
    } else {
        // y = norm2(z2), z2 = x1 + f(x1), x1 = norm1(z), z = x + s(x)
        norm2.backward(dy, g2, false);  // g2 = dz2
        dx1 = g2;
        g = g2;
        drop2.backward(g);
        ffn.backward(x1, g, dx1, true);
        norm1.backward(dx1, g2, false);  // g2 = dz
        g = g2;
        drop1.backward(g);
        dx = g2;
        self_attn.backwardSelf(x, g, dx, true);
    }
}

template struct EncoderLayer<float>;
template struct EncoderLayer<double>;

}  // namespace as
