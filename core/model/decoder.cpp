#include "model/decoder.h"

namespace as {

template <typename T>
DecoderLayer<T> DecoderLayer<T>::make(ParamStore<T>& ps, const std::string& prefix, int d,
                                      int heads, int d_ff, double dropout, bool pre)
{
    DecoderLayer l;
    l.pre = pre;
    l.p = dropout;
    l.self_attn = MultiHeadAttention<T>::make(ps, prefix + ".self_attn", d, heads);
    l.cross_attn = MultiHeadAttention<T>::make(ps, prefix + ".cross_attn", d, heads);
    l.ffn = FeedForward<T>::make(ps, prefix + ".ffn", d, d_ff);
    l.norm1 = LayerNorm<T>::make(ps, prefix + ".norm1", d);
    l.norm2 = LayerNorm<T>::make(ps, prefix + ".norm2", d);
    l.norm3 = LayerNorm<T>::make(ps, prefix + ".norm3", d);
    return l;
}

template <typename T>
void DecoderLayer<T>::forward(In<T> y, In<T> mem, int B, int T_, int S,
                              const std::uint8_t* tgtValid, const std::uint8_t* srcValid,
                              const Pass& pass, Out<T> out)
{
    const Eigen::Index n = y.rows(), d = y.cols();
    for (Mat<T>* m : {&s1, &s2, &f, &y1, &y2})
        m->resize(n, d);
    if (pre) {
        for (Mat<T>* m : {&a1, &a2, &a3})
            m->resize(n, d);
        norm1.forward(y, a1);
        self_attn.forwardSelf(a1, B, T_, tgtValid, true, p, pass, s1);
        drop1.forward(s1, p, pass);
        y1.noalias() = y + s1;
        norm2.forward(y1, a2);
        cross_attn.forwardCross(a2, mem, B, T_, S, srcValid, p, pass, s2);
        drop2.forward(s2, p, pass);
        y2.noalias() = y1 + s2;
        norm3.forward(y2, a3);
        ffn.forward(a3, f, p, pass);
        drop3.forward(f, p, pass);
        out.noalias() = y2 + f;
    } else {
        z.resize(n, d);
        self_attn.forwardSelf(y, B, T_, tgtValid, true, p, pass, s1);
        drop1.forward(s1, p, pass);
        z.noalias() = y + s1;
        norm1.forward(z, y1);
        cross_attn.forwardCross(y1, mem, B, T_, S, srcValid, p, pass, s2);
        drop2.forward(s2, p, pass);
        z.noalias() = y1 + s2;
        norm2.forward(z, y2);
        ffn.forward(y2, f, p, pass);
        drop3.forward(f, p, pass);
        z.noalias() = y2 + f;
        norm3.forward(z, out);
    }
}

template <typename T>
void DecoderLayer<T>::backward(In<T> y, In<T> mem, In<T> dout, Out<T> dy, Out<T> dmem)
{
    const Eigen::Index n = dout.rows(), d = dout.cols();
    for (Mat<T>* m : {&g, &g2, &dy1, &dy2})
        m->resize(n, d);
    if (pre) {
        g = dout;
        drop3.backward(g);
        ffn.backward(a3, g, g2, false);
        dy2 = dout;
        norm3.backward(g2, dy2, true);

        g = dy2;
        drop2.backward(g);
        cross_attn.backwardCross(a2, mem, g, g2, false, dmem);
        dy1 = dy2;
        norm2.backward(g2, dy1, true);

        g = dy1;
        drop1.backward(g);
        self_attn.backwardSelf(a1, g, g2, false);
        dy = dy1;
        norm1.backward(g2, dy, true);
    } else {
        norm3.backward(dout, g2, false);  // g2 = d(y2 + f)
        dy2 = g2;
        g = g2;
        drop3.backward(g);
        ffn.backward(y2, g, dy2, true);

        norm2.backward(dy2, g2, false);  // g2 = d(y1 + s2)
        dy1 = g2;
        g = g2;
        drop2.backward(g);
        cross_attn.backwardCross(y1, mem, g, dy1, true, dmem);

        norm1.backward(dy1, g2, false);  // g2 = d(y + s1)
        dy = g2;
        g = g2;
        drop1.backward(g);
        self_attn.backwardSelf(y, g, dy, true);
    }
}

template struct DecoderLayer<float>;
template struct DecoderLayer<double>;

}  // namespace as
