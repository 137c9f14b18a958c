#include "model/attention.h"

#include "model/parallel.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace as {

namespace {
constexpr double kMaskedScore = -1e9;  // core/SPEC.md §2.2: masked_fill(mask == 0, -1e9)

// The per-head products are small (a sentence's queries by its keys by d_k: 13 x 14 x 32 in
// `tiny`): Eigen's general product packs both sides for each and ran them at 25-28 GFLOP/s.
// Here every one of them is written as rows of C combining rows of B,
//   C[i, 0:w] = alpha * sum_t A(i, t) * B[t, 0:w],   A(i, t) = A[i * ars + t * acs],
// with A read as is (acs = 1) or transposed (ars = 1) and one element of it broadcast against a
// contiguous 64-byte vector of a row of B (one AVX-512 register): 4 rows of C by 2 vectors
// accumulate in registers over the whole depth. Products with keys along the rows of C (Q Kᵀ, dC Vᵀ) read a
// transposed copy of K or V, its width padded to whole vectors.
typedef float Vec16f __attribute__((vector_size(64)));
typedef double Vec8d __attribute__((vector_size(64)));
template <typename T>
struct Simd;
template <>
struct Simd<float> {
    using V = Vec16f;
};
template <>
struct Simd<double> {
    using V = Vec8d;
};
template <typename T>
constexpr int kLanes = int(sizeof(typename Simd<T>::V) / sizeof(T));

// w rounded up to whole vectors.
template <typename T>
int paddedWidth(int w)
{
    return (w + kLanes<T> - 1) / kLanes<T> * kLanes<T>;
}

// R <= 4 rows of C by NV <= 2 whole vectors of columns, the accumulators in named variables:
// GCC keeps an array of them in memory too, storing every one at every step. (Vectors go
// through memcpy, never by value through a function: that would change the ABI of the
// portable build, which has no 64-byte registers.)
template <typename T, int R, int NV>
void combineRowBlock(int depth, const T* A, long ars, long acs, const T* B, long ldb, T* C,
                     long ldc, T alpha)
{
    static_assert(R >= 1 && R <= 4 && NV >= 1 && NV <= 2);
    using V = typename Simd<T>::V;
    constexpr int W = kLanes<T>;
    const V zero = {};
    V c00 = zero, c01 = zero, c10 = zero, c11 = zero, c20 = zero, c21 = zero, c30 = zero,
      c31 = zero;
    for (int t = 0; t < depth; ++t) {
        const T* bt = B + long(t) * ldb;
        const T* at = A + long(t) * acs;
        V b0, b1 = zero;
        std::memcpy(&b0, bt, sizeof b0);
        if constexpr (NV == 2)
            std::memcpy(&b1, bt + W, sizeof b1);
        const T a0 = at[0];
        c00 += a0 * b0;
        if constexpr (NV == 2)
            c01 += a0 * b1;
        if constexpr (R > 1) {
            const T a1 = at[ars];
            c10 += a1 * b0;
            if constexpr (NV == 2)
                c11 += a1 * b1;
        }
        if constexpr (R > 2) {
            const T a2 = at[2 * ars];
            c20 += a2 * b0;
            if constexpr (NV == 2)
                c21 += a2 * b1;
        }
        if constexpr (R > 3) {
            const T a3 = at[3 * ars];
            c30 += a3 * b0;
            if constexpr (NV == 2)
                c31 += a3 * b1;
        }
    }
    const auto put = [&](const V& c, int r, int v) {
        const V scaled = c * alpha;
        std::memcpy(C + r * ldc + v * W, &scaled, sizeof scaled);
    };
    put(c00, 0, 0);
    if constexpr (NV == 2)
        put(c01, 0, 1);
    if constexpr (R > 1) {
        put(c10, 1, 0);
        if constexpr (NV == 2)
            put(c11, 1, 1);
    }
    if constexpr (R > 2) {
        put(c20, 2, 0);
        if constexpr (NV == 2)
            put(c21, 2, 1);
    }
    if constexpr (R > 3) {
        put(c30, 3, 0);
        if constexpr (NV == 2)
            put(c31, 3, 1);
    }
}

// One row of C by the last n < one vector of columns (a width that is not a whole number of
// vectors): through a buffer a vector wide.
template <typename T>
void combineRowTail(int depth, int n, const T* A, long acs, const T* B, long ldb, T* C, T alpha)
{
    using V = typename Simd<T>::V;
    const std::size_t bytes = std::size_t(n) * sizeof(T);
    V acc = {};
    for (int t = 0; t < depth; ++t) {
        V b = {};
        std::memcpy(&b, B + long(t) * ldb, bytes);
        acc += A[t * acs] * b;
    }
    const V scaled = acc * alpha;
    std::memcpy(C, &scaled, bytes);
}

// R rows of C, all w columns.
template <typename T, int R>
void combineRowsOf(int depth, int w, const T* A, long ars, long acs, const T* B, long ldb, T* C,
                   long ldc, T alpha)
{
    constexpr int W = kLanes<T>;
    int c = 0;
    for (; c + 2 * W <= w; c += 2 * W)
        combineRowBlock<T, R, 2>(depth, A, ars, acs, B + c, ldb, C + c, ldc, alpha);
    if (c + W <= w) {
        combineRowBlock<T, R, 1>(depth, A, ars, acs, B + c, ldb, C + c, ldc, alpha);
        c += W;
    }
    if (c < w)
        for (int r = 0; r < R; ++r)
            combineRowTail<T>(depth, w - c, A + r * ars, acs, B + c, ldb, C + r * ldc + c, alpha);
}

// C[i, 0:w] = alpha * sum_t A(i, t) * B[t, 0:w] for i < m, t < depth (see above).
template <typename T>
void combineRows(int m, int depth, int w, const T* A, long ars, long acs, const T* B, long ldb,
                 T* C, long ldc, T alpha)
{
    int i = 0;
    for (; i + 4 <= m; i += 4)
        combineRowsOf<T, 4>(depth, w, A + i * ars, ars, acs, B, ldb, C + i * ldc, ldc, alpha);
    if (i + 2 <= m) {
        combineRowsOf<T, 2>(depth, w, A + i * ars, ars, acs, B, ldb, C + i * ldc, ldc, alpha);
        i += 2;
    }
    if (i < m)
        combineRowsOf<T, 1>(depth, w, A + i * ars, ars, acs, B, ldb, C + i * ldc, ldc, alpha);
}

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

// Xt[c, j] = X[j, c] for j < rows, c < cols: Xt's row stride ldt (its columns from rows on are
// left as they are).
template <typename T>
void transposeInto(int rows, int cols, const T* X, long ldx, T* Xt, long ldt)
{
    for (int j = 0; j < rows; ++j) {
        const T* x = X + long(j) * ldx;
        for (int c = 0; c < cols; ++c)
            Xt[long(c) * ldt + j] = x[c];
    }
}

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
    drop.active = false;
    const bool dropping = pass.train && p > 0.0;
    // P V of block bh from probabilities Pbh ([Sq, Sk]).
    const auto context = [&](long bh, const T* Pbh) {
        const int b = int(bh / heads), h = int(bh % heads);
        const ProfileScope timed(ProfileCategory::GemmAttentionContext);
        combineRows<T>(Sq, Sk, dk, Pbh, Sk, 1, V + std::size_t(b) * Sk * ldv + h * dk, ldv,
                       ctx.data() + std::size_t(b) * Sq * d + h * dk, d, T(1));
    };
    // Each (batch, head) block is independent: one parallel range over all of them.
    parallelChunks(blocks, 1, [&](int chunk, long from, long to) {
        Mat<T>& s = headScratch[std::size_t(chunk)];
        T* Kt = s.data();
        T* S = s.data() + std::size_t(dk) * pad;
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
                    Eigen::Map<Eigen::Array<T, 1, Eigen::Dynamic>> row(si, pad);
                    const T m = row.maxCoeff();
                    row = (row - m).exp();
                    row /= row.sum();
                    if (m != T(kMaskedScore))
                        setMasked(si, Sk, valid, padded, firstMasked(i), T(0));
                    std::memcpy(P + std::size_t(i) * Sk, si, std::size_t(Sk) * sizeof(T));
                }
            }
            if (!dropping)  // P V at once, while P is in cache
                context(bh, probs.data() + std::size_t(bh) * Sq * Sk);
        }
    });
    if (!dropping)
        return;
    // probs stay as they were, for the window and for backward
    probsDropped.resize(probs.rows(), probs.cols());
    drop.forward(probs, probsDropped, p, pass);
    parallelFor(blocks, 1, [&](long from, long to) {
        for (long bh = from; bh < to; ++bh)
            context(bh, probsDropped.data() + std::size_t(bh) * Sq * Sk);
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
                const ProfileScope timed(ProfileCategory::Dropout);
                const T* mask = drop.mask.data() + pOff;
                for (int i = 0; i < Sq; ++i)
                    for (int j = 0; j < Sk; ++j)
                        dP[std::size_t(i) * pad + j] *= mask[std::size_t(i) * Sk + j];
            }
            {
                // softmax backward: dS = P . (dP - rowsum(dP . P)), times the scores' scale; over
                // whole vectors of the padded width (dP is 0 there, and so is P's copy).
                const ProfileScope timed(ProfileCategory::AttentionSoftmax);
                const std::uint8_t* valid = keyValid.data() + std::size_t(b) * Sk;
                const bool padded = hasPadding(valid);
                using RowArray = Eigen::Map<Eigen::Array<T, 1, Eigen::Dynamic>>;
                const RowArray p(Prow, pad);
                for (int i = 0; i < Sq; ++i) {
                    T* gi = dP + std::size_t(i) * pad;
                    std::memcpy(Prow, P + std::size_t(i) * Sk, std::size_t(Sk) * sizeof(T));
                    RowArray g(gi, pad);
                    const T dot = (g * p).sum();
                    g = p * (g - dot) * scale;
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
