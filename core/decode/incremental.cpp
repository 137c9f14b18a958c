// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "decode/incremental.h"

#include "model/parallel.h"
#include "model/positional_encoding.h"
#include "model/softmax.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace as {

namespace {

constexpr double kMaskedScore = -1e9;  // as MultiHeadAttention: a fully masked row is uniform

// y = x W^T + b for the few rows of a decoding step (x: [n, in], n = live hypotheses ->
// y: [n, out]). A GEMM would pack all of W into a scratch copy at every call, which for n <= 5
// costs more than the product. Instead, one matrix-vector product per hypothesis (Eigen's:
// OpenBLAS's sgemv is 2-6x slower at these shapes); with more than one hypothesis, per block
// of W's rows small enough to stay in L2, so that W streams from memory once per step. A step
// reads every weight of the decoder (16 MB for `small`) and is bound by that, so the blocks
// are split over the engine's threads: greedy decoding of `small` went from 13-16 ms to
// 7.5-9 ms (median of 300 sentences, 2 threads, AMD EPYC Zen 3). Each output is the same dot
// product whatever the split.
template <typename T>
void linearFewRows(const Linear<T>& lin, const Mat<T>& x, Mat<T>& y)
{
    const ConstMatMap<T> W(lin.ps->values() + lin.w, lin.out, lin.in);
    y.resize(x.rows(), lin.out);
    const Eigen::Index block = std::max<Eigen::Index>(16, (64 << 10) / (lin.in * sizeof(T)));
    const long blocks = (lin.out + block - 1) / block;
    parallelFor(blocks, 1, [&](long from, long to) {
        const Eigen::Index j0 = from * block, j1 = std::min<Eigen::Index>(to * block, lin.out);
        const Eigen::Index step = x.rows() == 1 ? j1 - j0 : block;
        for (Eigen::Index j = j0; j < j1; j += step) {
            const Eigen::Index m = std::min<Eigen::Index>(step, j1 - j);
            for (Eigen::Index i = 0; i < x.rows(); ++i) {
                y.row(i).segment(j, m).noalias() = x.row(i) * W.middleRows(j, m).transpose();
                if (lin.hasBias())
                    y.row(i).segment(j, m) += lin.bias().segment(j, m);
            }
        }
    });
}

}  // namespace

template <typename T>
void IncrementalDecoder<T>::start(const std::vector<int>& srcIn, int capacity)
{
    if (capacity < 1)
        throw std::invalid_argument("IncrementalDecoder: capacity must be >= 1");
    const ModelConfig& c = m_.config();
    const bool only = c.decoderOnly();  // no source, no memory, no cross-attention
    if (only && !srcIn.empty())
        throw std::invalid_argument("IncrementalDecoder: a decoder-only model reads no source");
    // An empty sentence is one padded position (see decode.cpp).
    const std::vector<int> src = srcIn.empty() && !only ? std::vector<int>{kPad} : srcIn;
    S_ = int(src.size());
    cap_ = capacity;
    n_ = 1;
    t_ = 0;
    const int d = c.d_model, L = int(m_.dec_.size());
    if (!only) {
        m_.encode(src.data(), 1, S_, Pass::eval());
        srcValid_ = m_.sourceValid();
    } else {
        srcValid_.clear();
    }
    pe_ = m_.tgtEmbed_.positions(cap_);
    memKV_.resize(std::size_t(L));
    selfK_.resize(std::size_t(L));
    selfV_.resize(std::size_t(L));
    cross_.resize(std::size_t(L));
    for (int l = 0; l < L; ++l) {
        DecoderLayer<T>& layer = m_.dec_[std::size_t(l)];
        Mat<T>& kv = memKV_[std::size_t(l)];
        kv.resize(S_, 2 * d);
        if (layer.cross)
            layer.cross_attn.kv.forward(m_.memory(), kv);
        selfK_[std::size_t(l)].resize(Eigen::Index(cap_), d);
        selfV_[std::size_t(l)].resize(Eigen::Index(cap_), d);
    }
    scores_.resize(std::max(cap_, S_));
}

template <typename T>
void IncrementalDecoder<T>::reorder(const std::vector<int>& parents)
{
    const int n = int(parents.size());
    for (int p : parents)
        if (p < 0 || p >= n_)
            throw std::out_of_range("IncrementalDecoder: no such hypothesis");
    const int d = m_.config().d_model;
    for (std::size_t l = 0; l < selfK_.size(); ++l) {
        for (auto [cache, spare] : {std::pair{&selfK_[l], &spareK_}, std::pair{&selfV_[l], &spareV_}}) {
            spare->resize(Eigen::Index(n) * cap_, d);
            for (int i = 0; i < n; ++i)
                spare->middleRows(Eigen::Index(i) * cap_, t_)
                    = cache->middleRows(Eigen::Index(parents[std::size_t(i)]) * cap_, t_);
            std::swap(*cache, *spare);
        }
    }
    n_ = n;
}

template <typename T>
void IncrementalDecoder<T>::selfAttend(int layer, const Mat<T>& x, Mat<T>& out)
{
    MultiHeadAttention<T>& att = m_.dec_[std::size_t(layer)].self_attn;
    const int d = att.d, dk = att.dk, len = t_ + 1;
    const T scale = T(1.0 / std::sqrt(double(dk)));
    Mat<T>& K = selfK_[std::size_t(layer)];
    Mat<T>& V = selfV_[std::size_t(layer)];
    qkv_.resize(n_, 3 * d);
    linearFewRows(att.qkv, x, qkv_);  // [n, 3d] = [Q | K | V]
    ctx_.resize(n_, d);
    for (int i = 0; i < n_; ++i) {
        const Eigen::Index row = Eigen::Index(i) * cap_ + t_;
        K.row(row) = qkv_.row(i).segment(d, d);
        V.row(row) = qkv_.row(i).segment(2 * d, d);
        for (int h = 0; h < att.heads; ++h) {
            // Keys 0..t of this hypothesis and head: [len, dk]. No key is masked: every
            // position fed so far is a real token at or before the query.
            const ConstStridedMap<T> Kh(K.data() + Eigen::Index(i) * cap_ * d + h * dk, len, dk,
                                        Eigen::OuterStride<>(d));
            const ConstStridedMap<T> Vh(V.data() + Eigen::Index(i) * cap_ * d + h * dk, len, dk,
                                        Eigen::OuterStride<>(d));
            MatMap<T> p(scores_.data(), 1, len);
            p.noalias() = (qkv_.row(i).segment(h * dk, dk) * scale) * Kh.transpose();  // [1, len]
            softmaxRows<T>(p);
            ctx_.row(i).segment(h * dk, dk).noalias() = p * Vh;  // [1, dk]
        }
    }
    for (int h = 0; h < int(att.gate.size()); ++h)  // head gates (masked heads), as forward
        ctx_.middleCols(Eigen::Index(h) * dk, dk) *= att.gate[std::size_t(h)];
    linearFewRows(att.o, ctx_, out);
}

template <typename T>
void IncrementalDecoder<T>::crossAttend(int layer, const Mat<T>& x, Mat<T>& out)
{
    MultiHeadAttention<T>& att = m_.dec_[std::size_t(layer)].cross_attn;
    const int d = att.d, dk = att.dk, heads = att.heads;
    const T scale = T(1.0 / std::sqrt(double(dk)));
    const Mat<T>& kv = memKV_[std::size_t(layer)];
    Mat<T>& probs = cross_[std::size_t(layer)];
    q_.resize(n_, d);
    linearFewRows(att.q, x, q_);  // [n, d]
    probs.resize(Eigen::Index(n_) * heads, S_);
    ctx_.resize(n_, d);
    for (int h = 0; h < heads; ++h) {
        // Every hypothesis attends to the same memory: one product per head for all of them.
        const ConstStridedMap<T> Kh(kv.data() + h * dk, S_, dk, Eigen::OuterStride<>(2 * d));
        const ConstStridedMap<T> Vh(kv.data() + d + h * dk, S_, dk, Eigen::OuterStride<>(2 * d));
        const ConstStridedMap<T> Qh(q_.data() + h * dk, n_, dk, Eigen::OuterStride<>(d));
        // Rows i*heads + h of probs: [n, S] with stride heads*S.
        StridedMap<T> P(probs.data() + Eigen::Index(h) * S_, n_, S_,
                        Eigen::OuterStride<>(Eigen::Index(heads) * S_));
        P.noalias() = (Qh * scale) * Kh.transpose();  // [n, S]
        for (int j = 0; j < S_; ++j)
            if (!srcValid_[std::size_t(j)])
                P.col(j).setConstant(T(kMaskedScore));
        softmaxRows<T>(P);
        StridedMap<T> C(ctx_.data() + h * dk, n_, dk, Eigen::OuterStride<>(d));
        C.noalias() = P * Vh;  // [n, dk]
    }
    for (int h = 0; h < int(att.gate.size()); ++h)
        ctx_.middleCols(Eigen::Index(h) * dk, dk) *= att.gate[std::size_t(h)];
    linearFewRows(att.o, ctx_, out);
}

template <typename T>
void IncrementalDecoder<T>::feedForward(const FeedForward<T>& ffn, const Mat<T>& x, Mat<T>& out)
{
    linearFewRows(ffn.w1, x, h_);  // [n, d_ff]
    activate<T>(ffn.act, h_.data(), h_.data(), long(h_.size()));
    linearFewRows(ffn.w2, h_, out);  // [n, d]
}

template <typename T>
void IncrementalDecoder<T>::step(const int* tokens, Mat<T>& logp)
{
    const ModelConfig& c = m_.config();
    if (t_ >= cap_)
        throw std::out_of_range("IncrementalDecoder: more steps than the capacity");
    for (int i = 0; i < n_; ++i)
        if (tokens[i] < 0 || tokens[i] >= c.tgt_vocab)
            throw std::out_of_range("IncrementalDecoder: target id outside the vocabulary");
    const int d = c.d_model;
    // x = E[id] * scale + PE[t] (or P[t]), as Embedding::forward.
    const Embedding<T>& emb = m_.tgtEmbed_;
    const ConstMatMap<T> table(emb.ps->values() + emb.w, emb.vocab, d);
    const T embScale = emb.scale();
    y_.resize(n_, d);
    for (int i = 0; i < n_; ++i)
        y_.row(i) = table.row(tokens[i]) * embScale + pe_.row(t_);
    // Each sublayer through the layer's residual connection (model/sublayer.h), as forward
    // does, on the new position only.
    const Pass eval = Pass::eval();
    for (int l = 0; l < int(m_.dec_.size()); ++l) {
        DecoderLayer<T>& layer = m_.dec_[std::size_t(l)];
        // Each sublayer adds its own biases here (it returns none for the connection to add).
        layer.sub1.forward(y_, eval, layer.scratch, [&](const Mat<T>& in, Mat<T>& s) -> const T* {
            selfAttend(l, in, s);
            return nullptr;
        }, y_);
        if (layer.cross)
            layer.sub2.forward(y_, eval, layer.scratch, [&](const Mat<T>& in, Mat<T>& s) -> const T* {
                crossAttend(l, in, s);
                return nullptr;
            }, y_);
        if (layer.feedForward)
            layer.sub3.forward(y_, eval, layer.scratch, [&](const Mat<T>& in, Mat<T>& s) -> const T* {
                feedForward(layer.ffn, in, s);
                return nullptr;
            }, y_);
    }
    const Mat<T>* out = &y_;
    if (c.norm == NormPlacement::Pre) {
        a_.resize(n_, d);
        m_.decNorm_.forward(y_, a_);
        out = &a_;
    }
    linearFewRows(m_.generator_, *out, logp);
    maskSpecialLogits<T>(c, logp);
    logSoftmaxRows<T>(logp);
    ++t_;
}

template class IncrementalDecoder<float>;
template class IncrementalDecoder<double>;

}  // namespace as
