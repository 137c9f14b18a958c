#include "model/attention.h"

#include "model/parallel.h"
#include "model/softmax.h"

#include <cmath>
#include <stdexcept>

namespace as {

namespace {
constexpr double kMaskedScore = -1e9;  // core/SPEC.md §2.2: masked_fill(mask == 0, -1e9)
}

template <typename T>
MultiHeadAttention<T> MultiHeadAttention<T>::make(ParamStore<T>& ps, const std::string& prefix,
                                                  int d, int heads)
{
    if (heads <= 0 || d % heads != 0)
        throw std::invalid_argument("attention: d_model must be a multiple of heads");
    MultiHeadAttention a;
    a.d = d;
    a.heads = heads;
    a.dk = d / heads;
    // Weights of q, k, v back to back, then their biases back to back: each group is then
    // one contiguous [3d, d] matrix and [3d] vector.
    const std::size_t wq = ps.addMatrix(prefix + ".q.weight", d, d);
    const std::size_t wk = ps.addMatrix(prefix + ".k.weight", d, d);
    const std::size_t wv = ps.addMatrix(prefix + ".v.weight", d, d);
    const std::size_t bq = ps.addVector(prefix + ".q.bias", d);
    const std::size_t bk = ps.addVector(prefix + ".k.bias", d);
    const std::size_t bv = ps.addVector(prefix + ".v.bias", d);
    auto view = [&](std::size_t w, std::size_t b, int out) {
        Linear<T> l;
        l.ps = &ps;
        l.w = w;
        l.b = b;
        l.in = d;
        l.out = out;
        l.kind = ProfileCategory::GemmAttentionProjections;
        return l;
    };
    a.q = view(wq, bq, d);
    a.k = view(wk, bk, d);
    a.v = view(wv, bv, d);
    a.qkv = view(wq, bq, 3 * d);
    a.kv = view(wk, bk, 2 * d);
    a.o = Linear<T>::make(ps, prefix + ".o", d, d);
    a.o.kind = ProfileCategory::GemmAttentionProjections;
    return a;
}

template <typename T>
void MultiHeadAttention<T>::forwardSelf(In<T> x, int B_, int S, const std::uint8_t* valid,
                                        bool causal_, double p, const Pass& pass, Out<T> y)
{
    B = B_;
    Sq = Sk = S;
    causal = causal_;
    keyValid.assign(valid, valid + std::size_t(B) * S);
    qkvBuf.resize(x.rows(), 3 * d);
    qkv.forward(x, qkvBuf);
    const T* base = qkvBuf.data();
    attend(base, 3 * d, base + d, 3 * d, base + 2 * d, 3 * d, p, pass);
    applyGates();
    o.forward(ctx, y);
}

template <typename T>
void MultiHeadAttention<T>::forwardCross(In<T> xq, In<T> mem, int B_, int Sq_, int Sk_,
                                         const std::uint8_t* valid, double p, const Pass& pass,
                                         Out<T> y)
{
    B = B_;
    Sq = Sq_;
    Sk = Sk_;
    causal = false;
    keyValid.assign(valid, valid + std::size_t(B) * Sk);
    qBuf.resize(xq.rows(), d);
    q.forward(xq, qBuf);
    kvBuf.resize(mem.rows(), 2 * d);
    kv.forward(mem, kvBuf);
    attend(qBuf.data(), d, kvBuf.data(), 2 * d, kvBuf.data() + d, 2 * d, p, pass);
    applyGates();
    o.forward(ctx, y);
}

template <typename T>
void MultiHeadAttention<T>::applyGates()
{
    if (!gated())
        return;
    if (int(gate.size()) != heads)
        throw std::invalid_argument("attention: one gate per head");
    ctxUngated = ctx;
    for (int h = 0; h < heads; ++h)
        ctx.middleCols(Eigen::Index(h) * dk, dk) *= gate[std::size_t(h)];
}

template <typename T>
void MultiHeadAttention<T>::gatesBackward()
{
    if (!gated())
        return;
    // ctx = ξ_h · ctxUngated in head h's columns: ∂L/∂ξ_h = Σ dctx ⊙ ctxUngated over those
    // columns (per sequence: its Sq rows), and dctxUngated = ξ_h · dctx.
    gateGrad.setZero(B, heads);
    for (int b = 0; b < B; ++b)
        for (int h = 0; h < heads; ++h)
            gateGrad(b, h) = (dctx.block(Eigen::Index(b) * Sq, Eigen::Index(h) * dk, Sq, dk).array()
                              * ctxUngated.block(Eigen::Index(b) * Sq, Eigen::Index(h) * dk, Sq, dk).array())
                                 .sum();
    for (int h = 0; h < heads; ++h)
        dctx.middleCols(Eigen::Index(h) * dk, dk) *= gate[std::size_t(h)];
}

template <typename T>
void MultiHeadAttention<T>::attend(const T* Q, int ldq, const T* K, int ldk, const T* V, int ldv,
                                   double p, const Pass& pass)
{
    const T scale = T(1.0 / std::sqrt(double(dk)));
    probs.resize(Eigen::Index(B) * heads * Sq, Sk);
    if (keepScores)
        scores.resize(probs.rows(), probs.cols());
    ctx.resize(Eigen::Index(B) * Sq, d);
    const double perHead = 2.0 * Sq * Sk * dk;  // FLOPs of one head's product
    profileWork(ProfileCategory::GemmAttentionScores, long(B) * heads, perHead * B * heads);
    profileWork(ProfileCategory::GemmAttentionContext, long(B) * heads, perHead * B * heads);
    // Each (batch, head) block is independent: one parallel range over all of them.
    parallelFor(long(B) * heads, 1, [&](long from, long to) {
        for (long bh = from; bh < to; ++bh) {
            const int b = int(bh / heads), h = int(bh % heads);
            const ConstStridedMap<T> Qbh(Q + std::size_t(b) * Sq * ldq + h * dk, Sq, dk,
                                         Eigen::OuterStride<>(ldq));
            const ConstStridedMap<T> Kbh(K + std::size_t(b) * Sk * ldk + h * dk, Sk, dk,
                                         Eigen::OuterStride<>(ldk));
            MatMap<T> P(probs.data() + (std::size_t(b) * heads + h) * Sq * Sk, Sq, Sk);
            {
                const ProfileScope timed(ProfileCategory::GemmAttentionScores);
                P.noalias() = (Qbh * scale) * Kbh.transpose();  // [Sq, Sk]
            }
            const ProfileScope timed(ProfileCategory::AttentionSoftmax);
            for (int i = 0; i < Sq; ++i)
                for (int j = 0; j < Sk; ++j)
                    if (masked(b, i, j))
                        P(i, j) = T(kMaskedScore);
            if (keepScores)
                scores.middleRows((Eigen::Index(b) * heads + h) * Sq, Sq) = P;
            softmaxRows<T>(P);
        }
    });
    const Mat<T>* used = &probs;
    drop.active = false;
    if (pass.train && p > 0.0) {
        // probs stay as they were, for the window and for backward
        probsDropped.resize(probs.rows(), probs.cols());
        drop.forward(probs, probsDropped, p, pass);
        used = &probsDropped;
    }
    parallelFor(long(B) * heads, 1, [&](long from, long to) {
        for (long bh = from; bh < to; ++bh) {
            const int b = int(bh / heads), h = int(bh % heads);
            const ConstMatMap<T> P(used->data() + (std::size_t(b) * heads + h) * Sq * Sk, Sq, Sk);
            const ConstStridedMap<T> Vbh(V + std::size_t(b) * Sk * ldv + h * dk, Sk, dk,
                                         Eigen::OuterStride<>(ldv));
            StridedMap<T> C(ctx.data() + std::size_t(b) * Sq * d + h * dk, Sq, dk,
                            Eigen::OuterStride<>(d));
            const ProfileScope timed(ProfileCategory::GemmAttentionContext);
            C.noalias() = P * Vbh;  // [Sq, dk]
        }
    });
}

template <typename T>
void MultiHeadAttention<T>::attendBackward(const T* Q, int ldq, const T* K, int ldk, const T* V,
                                           int ldv, T* dQ, T* dK, T* dV)
{
    // The gradient buffers share the layouts (and strides) of Q, K, V.
    const T scale = T(1.0 / std::sqrt(double(dk)));
    const Mat<T>& used = drop.active ? probsDropped : probs;
    dPs.resize(std::size_t(chunkCount(long(B) * heads, 1)));
    const double perHead = 2.0 * Sq * Sk * dk;  // FLOPs of one head's product
    profileWork(ProfileCategory::GemmAttentionScores, 2L * B * heads, 2 * perHead * B * heads);
    profileWork(ProfileCategory::GemmAttentionContext, 2L * B * heads, 2 * perHead * B * heads);
    parallelChunks(long(B) * heads, 1, [&](int chunk, long from, long to) {
        Mat<T>& dP = dPs[std::size_t(chunk)];  // this chunk's scratch
        dP.resize(Sq, Sk);
        for (long bh = from; bh < to; ++bh) {
            const int b = int(bh / heads), h = int(bh % heads);
            const std::size_t pOff = (std::size_t(b) * heads + h) * Sq * Sk;
            const ConstMatMap<T> P(probs.data() + pOff, Sq, Sk);
            const ConstMatMap<T> Pd(used.data() + pOff, Sq, Sk);
            const ConstStridedMap<T> Qbh(Q + std::size_t(b) * Sq * ldq + h * dk, Sq, dk,
                                         Eigen::OuterStride<>(ldq));
            const ConstStridedMap<T> Kbh(K + std::size_t(b) * Sk * ldk + h * dk, Sk, dk,
                                         Eigen::OuterStride<>(ldk));
            const ConstStridedMap<T> Vbh(V + std::size_t(b) * Sk * ldv + h * dk, Sk, dk,
                                         Eigen::OuterStride<>(ldv));
            const ConstStridedMap<T> dC(dctx.data() + std::size_t(b) * Sq * d + h * dk, Sq, dk,
                                        Eigen::OuterStride<>(d));
            StridedMap<T> dQbh(dQ + std::size_t(b) * Sq * ldq + h * dk, Sq, dk,
                               Eigen::OuterStride<>(ldq));
            StridedMap<T> dKbh(dK + std::size_t(b) * Sk * ldk + h * dk, Sk, dk,
                               Eigen::OuterStride<>(ldk));
            StridedMap<T> dVbh(dV + std::size_t(b) * Sk * ldv + h * dk, Sk, dk,
                               Eigen::OuterStride<>(ldv));

            {
                const ProfileScope timed(ProfileCategory::GemmAttentionContext);
                dVbh.noalias() = Pd.transpose() * dC;  // [Sk, dk]
                dP.noalias() = dC * Vbh.transpose();   // [Sq, Sk] gradient of Pd
            }
            if (drop.active) {
                const ProfileScope timed(ProfileCategory::Dropout);
                const ConstMatMap<T> mask(drop.mask.data() + pOff, Sq, Sk);
                dP.array() *= mask.array();
            }
            {
                const ProfileScope timed(ProfileCategory::AttentionSoftmax);
                // softmax backward: dS = P . (dP - rowsum(dP . P))
                for (int i = 0; i < Sq; ++i) {
                    const T dot = dP.row(i).dot(P.row(i));
                    dP.row(i) = P.row(i).cwiseProduct((dP.row(i).array() - dot).matrix());
                    // A masked score was overwritten, not computed: no gradient flows to it (this
                    // matters only in a fully masked row, where P is uniform rather than 0).
                    for (int j = 0; j < Sk; ++j)
                        if (masked(b, i, j))
                            dP(i, j) = T(0);
                }
                dP *= scale;
            }
            const ProfileScope timed(ProfileCategory::GemmAttentionScores);
            dQbh.noalias() = dP * Kbh;              // [Sq, dk]
            dKbh.noalias() = dP.transpose() * Qbh;  // [Sk, dk]
        }
    });
}

template <typename T>
void MultiHeadAttention<T>::backwardSelf(In<T> x, In<T> dy, Out<T> dx, bool accumulate)
{
    o.backwardParams(ctx, dy);
    dctx.resize(dy.rows(), d);
    o.backwardInput(dy, dctx, false);
    gatesBackward();
    dqkvBuf.resize(qkvBuf.rows(), 3 * d);
    const T* base = qkvBuf.data();
    T* dbase = dqkvBuf.data();
    attendBackward(base, 3 * d, base + d, 3 * d, base + 2 * d, 3 * d, dbase, dbase + d,
                   dbase + 2 * d);
    qkv.backwardParams(x, dqkvBuf);
    qkv.backwardInput(dqkvBuf, dx, accumulate);
}

template <typename T>
void MultiHeadAttention<T>::backwardCross(In<T> xq, In<T> mem, In<T> dy, Out<T> dxq,
                                          bool accumulate, Out<T> dmem)
{
    o.backwardParams(ctx, dy);
    dctx.resize(dy.rows(), d);
    o.backwardInput(dy, dctx, false);
    gatesBackward();
    dqBuf.resize(qBuf.rows(), d);
    dkvBuf.resize(kvBuf.rows(), 2 * d);
    attendBackward(qBuf.data(), d, kvBuf.data(), 2 * d, kvBuf.data() + d, 2 * d, dqBuf.data(),
                   dkvBuf.data(), dkvBuf.data() + d);
    q.backwardParams(xq, dqBuf);
    q.backwardInput(dqBuf, dxq, accumulate);
    kv.backwardParams(mem, dkvBuf);
    kv.backwardInput(dkvBuf, dmem, true);
}

template struct MultiHeadAttention<float>;
template struct MultiHeadAttention<double>;

}  // namespace as
