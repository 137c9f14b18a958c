// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/attention.h"

#include "model/parallel.h"
#include "model/row_products.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace as {

namespace {
constexpr double kMaskedScore = -1e9;  // core/SPEC.md §2.2: masked_fill(mask == 0, -1e9)

// Sets the entries of a row of scores (or of their gradient) at masked keys to `value`: the
// padding (valid[j] == 0, only looked for when `padded`) and the keys from `first` on.
template <typename T>
void setMasked(T* row, int Sk, const std::uint8_t* valid, bool padded, int first, T value)
{
    if (padded)
        for (int j = 0; j < Sk; ++j)
            if (!valid[j])
                row[j] = value;
    for (int j = first; j < Sk; ++j)
        row[j] = value;
}

// The softmax's rows, written out in packets: Eigen's expressions on a row of run-time length
// (a Map of the row, then maxCoeff, exp, sum and a division) checked the alignment and the
// tail for each of the four, and a row of `tiny` is one vector. The same operations in the
// same order as those expressions on an aligned row (Redux.h: two accumulators over pairs of
// packets, added, then an odd last packet), so the results are the same, bit for bit (the
// model files of a training run too). A row: `pad` elements, whole packets (paddedWidth).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"  // Eigen's packets as template arguments
template <typename Packet, typename Load>
Packet pairwiseSum(int n, Load load)
{
    namespace ei = Eigen::internal;
    Packet r0 = load(0);
    if (n > 1) {
        Packet r1 = load(1);
        int k = 2;
        for (; k + 1 < n; k += 2) {
            r0 = ei::padd(r0, load(k));
            r1 = ei::padd(r1, load(k + 1));
        }
        r0 = ei::padd(r0, r1);
        if (k < n)
            r0 = ei::padd(r0, load(k));
    }
    return r0;
}

// row = softmax(row) in place; returns the row's maximum.
template <typename T>
T softmaxRow(T* row, int pad)
{
    namespace ei = Eigen::internal;
    using Packet = typename ei::packet_traits<T>::type;
    constexpr int L = ei::packet_traits<T>::size;
    static_assert(rowProductLanes<T>() % L == 0, "paddedWidth must give whole packets");
    const int n = pad / L;
    Packet mx = ei::ploadu<Packet>(row);
    for (int k = 1; k < n; ++k)
        mx = ei::pmax(mx, ei::ploadu<Packet>(row + k * L));
    const T m = ei::predux_max(mx);
    const Packet pm = ei::pset1<Packet>(m);
    for (int k = 0; k < n; ++k)
        ei::pstoreu(row + k * L, ei::pexp(ei::psub(ei::ploadu<Packet>(row + k * L), pm)));
    const Packet sum = ei::pset1<Packet>(
        ei::predux(pairwiseSum<Packet>(n, [row](int k) { return ei::ploadu<Packet>(row + k * L); })));
    for (int k = 0; k < n; ++k)
        ei::pstoreu(row + k * L, ei::pdiv(ei::ploadu<Packet>(row + k * L), sum));
    return m;
}

// g = p . (g - sum(g . p)) * scale in place: the softmax's backward for one row.
template <typename T>
void softmaxBackwardRow(T* g, const T* p, int pad, T scale)
{
    namespace ei = Eigen::internal;
    using Packet = typename ei::packet_traits<T>::type;
    constexpr int L = ei::packet_traits<T>::size;
    static_assert(rowProductLanes<T>() % L == 0, "paddedWidth must give whole packets");
    const int n = pad / L;
    const Packet dot = ei::pset1<Packet>(ei::predux(pairwiseSum<Packet>(n, [g, p](int k) {
        return ei::pmul(ei::ploadu<Packet>(g + k * L), ei::ploadu<Packet>(p + k * L));
    })));
    const Packet ps = ei::pset1<Packet>(scale);
    for (int k = 0; k < n; ++k)
        ei::pstoreu(g + k * L, ei::pmul(ei::pmul(ei::ploadu<Packet>(p + k * L),
                                                ei::psub(ei::ploadu<Packet>(g + k * L), dot)),
                                       ps));
}

#pragma GCC diagnostic pop

// Xt[c, j] = X[j, c] for j < rows, c < cols: Xt's row stride ldt. Its columns from rows on
// are left as they are, or (in whole vectors) set to 0 up to rows rounded up to a vector.
// By blocks of a vector's width squared: that many rows of X loaded as vectors (zeros past the
// last row), transposed in registers (Eigen's ptranspose) and stored as vectors. Element by
// element, each store went to another cache line, and `tiny`'s 14 x 32 took 250 ns; four rows at
// a time, 104; by blocks, 48 (scratch benchmark, this Zen 5; 100 and 32 built for Haswell).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"  // Eigen's packets as template arguments
template <typename T>
void transposeInto(int rows, int cols, const T* X, long ldx, T* Xt, long ldt)
{
    namespace ei = Eigen::internal;
    using Packet = typename ei::packet_traits<T>::type;
    constexpr int L = ei::packet_traits<T>::size;
    if (L > 1 && cols % L == 0 && ldt % L == 0) {
        for (int j0 = 0; j0 < rows; j0 += L) {
            const int n = std::min(L, rows - j0);
            for (int c0 = 0; c0 < cols; c0 += L) {
                ei::PacketBlock<Packet, L> block;
                for (int i = 0; i < L; ++i)
                    block.packet[i] = i < n ? ei::ploadu<Packet>(X + long(j0 + i) * ldx + c0)
                                            : ei::pset1<Packet>(T(0));
                ei::ptranspose(block);
                for (int i = 0; i < L; ++i)
                    ei::pstoreu(Xt + long(c0 + i) * ldt + j0, block.packet[i]);
            }
        }
        return;
    }
    for (int j = 0; j < rows; ++j) {
        const T* x = X + long(j) * ldx;
        for (int c = 0; c < cols; ++c)
            Xt[long(c) * ldt + j] = x[c];
    }
}
#pragma GCC diagnostic pop

}  // namespace

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
                                        bool causal_, double p, const Pass& pass, Out<T> y,
                                        bool withOutputBias)
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
    o.forward(ctx, y, withOutputBias);
}

template <typename T>
void MultiHeadAttention<T>::forwardCross(In<T> xq, In<T> mem, int B_, int Sq_, int Sk_,
                                         const std::uint8_t* valid, double p, const Pass& pass,
                                         Out<T> y, bool withOutputBias)
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
    o.forward(ctx, y, withOutputBias);
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
    const int pad = paddedWidth<T>(Sk);
    const long blocks = long(B) * heads;
    headScratch.resize(std::size_t(chunkCount(blocks, 1)));
    for (Mat<T>& s : headScratch) {
        // Kᵀ [dk, pad], then the scores [Sq, pad] (and a row backward uses: one size for both)
        s.resize(dk + Sq + 1, pad);
        s.topRows(dk).setZero();  // the padding columns stay 0
    }
    const double perHead = 2.0 * Sq * Sk * dk;  // FLOPs of one head's product
    profileWork(ProfileCategory::GemmAttentionScores, blocks, perHead * double(blocks));
    profileWork(ProfileCategory::GemmAttentionContext, blocks, perHead * double(blocks));
    // Dropout on each head's probabilities right after its softmax, while they are in cache:
    // the mask is drawn as Dropout draws it (one key from the pass, the same values), head by
    // head, and not kept (backward reads it off probsDropped).
    drop.active = pass.train && p > 0.0;
    const bool dropping = drop.active;
    std::uint64_t key = 0;
    if (dropping) {
        key = pass.rng->next();
        drop.scale = T(1.0 / (1.0 - p));
        probsDropped.resize(probs.rows(), probs.cols());  // probs stay, for the window and backward
        maskStreams.resize(headScratch.size());
    }
    // P V of block bh from probabilities Pbh ([Sq, Sk]).
    const auto context = [&](long bh, const T* Pbh) {
        const int b = int(bh / heads), h = int(bh % heads);
        const ProfileScope timed(ProfileCategory::GemmAttentionContext);
        combineRows<T>(Sq, Sk, dk, Pbh, Sk, 1, V + std::size_t(b) * Sk * ldv + h * dk, ldv,
                       ctx.data() + std::size_t(b) * Sq * d + h * dk, d, T(1));
    };
    // Each (batch, head) block is independent: one parallel range over all of them.
    const long headSize = long(Sq) * Sk;
    // The region's start and wait are charged to the softmax, whose loop over heads it is.
    const ProfileScope region(ProfileCategory::AttentionSoftmax);
    parallelChunks(blocks, 1, [&](int chunk, long from, long to) {
        Mat<T>& s = headScratch[std::size_t(chunk)];
        T* Kt = s.data();
        T* S = s.data() + std::size_t(dk) * pad;
        if (dropping)
            maskStreams[std::size_t(chunk)].start(blocks * headSize, to * headSize, key, float(p),
                                                  drop.scale);
        for (long bh = from; bh < to; ++bh) {
            const int b = int(bh / heads), h = int(bh % heads);
            {
                const ProfileScope timed(ProfileCategory::GemmAttentionScores);
                transposeInto<T>(Sk, dk, K + std::size_t(b) * Sk * ldk + h * dk, ldk, Kt, pad);
                combineRows<T>(Sq, dk, pad, Q + std::size_t(b) * Sq * ldq + h * dk, ldq, 1, Kt,
                               pad, S, pad, scale);  // [Sq, pad]: Q Kᵀ / √d_k
            }
            {
                // Masked, then the softmax of each row over its whole padded width: whole
                // vectors. The vectorised exp clamps its argument (to about -88.7 in float), so
                // the padding at -inf and masked scores add only ~3e-39 each to the sum; they are
                // then set to 0, as the scalar exp of -1e9 gives (a fully masked row, whose
                // maximum is the masked score, stays uniform).
                const ProfileScope timed(ProfileCategory::AttentionSoftmax);
                T* P = probs.data() + std::size_t(bh) * Sq * Sk;
                const std::uint8_t* valid = keyValid.data() + std::size_t(b) * Sk;
                const bool padded = hasPadding(valid);
                for (int i = 0; i < Sq; ++i) {
                    T* si = S + std::size_t(i) * pad;
                    setMasked(si, Sk, valid, padded, firstMasked(i), T(kMaskedScore));
                    if (keepScores)
                        std::memcpy(scores.data() + (std::size_t(bh) * Sq + i) * Sk, si,
                                    std::size_t(Sk) * sizeof(T));
                    for (int j = Sk; j < pad; ++j)
                        si[j] = -std::numeric_limits<T>::infinity();
                    const T m = softmaxRow(si, pad);
                    if (m != T(kMaskedScore))
                        setMasked(si, Sk, valid, padded, firstMasked(i), T(0));
                    std::memcpy(P + std::size_t(i) * Sk, si, std::size_t(Sk) * sizeof(T));
                }
            }
            const std::size_t off = std::size_t(bh) * std::size_t(headSize);
            if (dropping) {
                const ProfileScope timed(ProfileCategory::Dropout);
                using Arr = Eigen::Array<T, Eigen::Dynamic, 1>;
                // In ranges the stream's buffer holds (a head of 200 queries and keys is
                // 40,000 elements, more than its eight blocks).
                constexpr long kMax = DropoutMaskStream<T>::kMaxRange;
                for (long q = 0; q < headSize; q += kMax) {
                    const long len = std::min(kMax, headSize - q);
                    const long at = long(off) + q;
                    const T* m = maskStreams[std::size_t(chunk)].range(at, at + len);
                    Eigen::Map<Arr>(probsDropped.data() + at, len) =
                        Eigen::Map<const Arr>(probs.data() + at, len) * Eigen::Map<const Arr>(m, len);
                }
            }
            // P V at once, while P is in cache
            context(bh, (dropping ? probsDropped.data() : probs.data()) + off);
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
    const int pad = paddedWidth<T>(Sk);
    const long blocks = long(B) * heads;
    headScratch.resize(std::size_t(chunkCount(blocks, 1)));
    for (Mat<T>& s : headScratch) {
        s.resize(dk + Sq + 1, pad);  // Vᵀ [dk, pad], dP [Sq, pad], a row of P [1, pad]
        s.topRows(dk).setZero();  // the padding columns stay 0
    }
    const double perHead = 2.0 * Sq * Sk * dk;  // FLOPs of one head's product
    profileWork(ProfileCategory::GemmAttentionScores, 2 * blocks, 2 * perHead * double(blocks));
    profileWork(ProfileCategory::GemmAttentionContext, 2 * blocks, 2 * perHead * double(blocks));
    const ProfileScope region(ProfileCategory::AttentionSoftmax);
    parallelChunks(blocks, 1, [&](int chunk, long from, long to) {
        Mat<T>& s = headScratch[std::size_t(chunk)];
        T* Vt = s.data();
        T* dP = s.data() + std::size_t(dk) * pad;
        T* Prow = dP + std::size_t(Sq) * pad;  // a row of P, then zeros to the padded width
        std::fill(Prow + Sk, Prow + pad, T(0));
        for (long bh = from; bh < to; ++bh) {
            const int b = int(bh / heads), h = int(bh % heads);
            const std::size_t pOff = std::size_t(bh) * Sq * Sk;
            const T* P = probs.data() + pOff;
            const T* Pd = used.data() + pOff;
            const std::size_t qOff = std::size_t(b) * Sq * ldq + h * dk;
            const std::size_t kOff = std::size_t(b) * Sk * ldk + h * dk;
            const std::size_t vOff = std::size_t(b) * Sk * ldv + h * dk;
            const T* dC = dctx.data() + std::size_t(b) * Sq * d + h * dk;
            {
                const ProfileScope timed(ProfileCategory::GemmAttentionContext);
                combineRows<T>(Sk, Sq, dk, Pd, 1, Sk, dC, d, dV + vOff, ldv, T(1));  // Pdᵀ dC
                transposeInto<T>(Sk, dk, V + vOff, ldv, Vt, pad);
                combineRows<T>(Sq, dk, pad, dC, d, 1, Vt, pad, dP, pad, T(1));  // dC Vᵀ: ∂/∂Pd
            }
            if (drop.active) {
                // ∂/∂P = ∂/∂Pd times the mask, which forward did not keep: it is the scale where
                // Pd ≠ 0 and 0 where Pd = 0. The second is also where P = 0 (a masked score or an
                // exp that underflowed) and the mask may have kept it; there the softmax's
                // backward below multiplies by P = 0, so the gradient is the same, exactly.
                const ProfileScope timed(ProfileCategory::Dropout);
                using RowArray = Eigen::Map<Eigen::Array<T, 1, Eigen::Dynamic>>;
                using ConstRow = Eigen::Map<const Eigen::Array<T, 1, Eigen::Dynamic>>;
                const T ds = drop.scale;
                for (int i = 0; i < Sq; ++i) {
                    RowArray g(dP + std::size_t(i) * pad, Sk);
                    const ConstRow pd(Pd + std::size_t(i) * Sk, Sk);
                    g = (pd != T(0)).select(g * ds, T(0));
                }
            }
            {
                // softmax backward: dS = P . (dP - rowsum(dP . P)), times the scores' scale; over
                // whole vectors of the padded width (dP is 0 there, and so is P's copy).
                const ProfileScope timed(ProfileCategory::AttentionSoftmax);
                const std::uint8_t* valid = keyValid.data() + std::size_t(b) * Sk;
                const bool padded = hasPadding(valid);
                for (int i = 0; i < Sq; ++i) {
                    T* gi = dP + std::size_t(i) * pad;
                    std::memcpy(Prow, P + std::size_t(i) * Sk, std::size_t(Sk) * sizeof(T));
                    softmaxBackwardRow(gi, Prow, pad, scale);
                    // A masked score was overwritten, not computed: no gradient flows to it
                    // (this matters only in a fully masked row, where P is uniform, not 0).
                    setMasked(gi, Sk, valid, padded, firstMasked(i), T(0));
                }
            }
            const ProfileScope timed(ProfileCategory::GemmAttentionScores);
            combineRows<T>(Sq, Sk, dk, dP, pad, 1, K + kOff, ldk, dQ + qOff, ldq, T(1));  // dS K
            combineRows<T>(Sk, Sq, dk, dP, 1, pad, Q + qOff, ldq, dK + kOff, ldk, T(1));  // dSᵀ Q
        }
    });
}

template <typename T>
void MultiHeadAttention<T>::backwardSelf(In<T> x, In<T> dy, Out<T> dx, bool accumulate)
{
    dctx.resize(dy.rows(), d);
    o.backward(ctx, dy, dctx, false);
    gatesBackward();
    dqkvBuf.resize(qkvBuf.rows(), 3 * d);
    const T* base = qkvBuf.data();
    T* dbase = dqkvBuf.data();
    attendBackward(base, 3 * d, base + d, 3 * d, base + 2 * d, 3 * d, dbase, dbase + d,
                   dbase + 2 * d);
    qkv.backward(x, dqkvBuf, dx, accumulate);
}

template <typename T>
void MultiHeadAttention<T>::backwardCross(In<T> xq, In<T> mem, In<T> dy, Out<T> dxq,
                                          bool accumulate, Out<T> dmem)
{
    dctx.resize(dy.rows(), d);
    o.backward(ctx, dy, dctx, false);
    gatesBackward();
    dqBuf.resize(qBuf.rows(), d);
    dkvBuf.resize(kvBuf.rows(), 2 * d);
    attendBackward(qBuf.data(), d, kvBuf.data(), 2 * d, kvBuf.data() + d, 2 * d, dqBuf.data(),
                   dkvBuf.data(), dkvBuf.data() + d);
    q.backward(xq, dqBuf, dxq, accumulate);
    kv.backward(mem, dkvBuf, dmem, true);
}

template struct MultiHeadAttention<float>;
template struct MultiHeadAttention<double>;

}  // namespace as
