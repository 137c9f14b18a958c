// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/transformer.h"

#include "model/softmax.h"

#include <cmath>
#include <stdexcept>
#include <utility>

namespace as {

template <typename T>
Transformer<T>::Transformer(const ModelConfig& config) : cfg_(config)
{
    if (const QString err = cfg_.validate(); !err.isEmpty())
        throw std::invalid_argument("model configuration: " + err.toStdString());
    const int d = cfg_.d_model;
    const bool pre = cfg_.norm == NormPlacement::Pre;
    // Weight tying (core/SPEC.md §2.6, §6.1): the shared matrix is registered once, under the
    // name of its first use in §6.2's order; the other uses read and accumulate into it.
    // Decoder-only (core/SPEC.md §2.10): no source embedding, no encoder, no cross-attention.
    const bool only = cfg_.decoderOnly();
    // Learned positions (§2.11): each embedding's table follows it.
    const bool learned = cfg_.position == Position::Learned;
    if (!only) {
        srcEmbed_ = Embedding<T>::make(ps_, "src_embed.weight", cfg_.src_vocab, d);
        if (learned)
            srcEmbed_.addLearnedPositions(ps_, "src_pos.weight", cfg_.max_len);
    }
    tgtEmbed_ = cfg_.tie == Tie::All
                    ? Embedding<T>::makeTied(ps_, srcEmbed_.w, cfg_.tgt_vocab, d)
                    : Embedding<T>::make(ps_, "tgt_embed.weight", cfg_.tgt_vocab, d);
    if (learned)
        tgtEmbed_.addLearnedPositions(ps_, "tgt_pos.weight", cfg_.max_len);
    // Marian's sinusoids (§2.13): the same numbers, sines first, then cosines.
    srcEmbed_.halves = tgtEmbed_.halves = cfg_.position == Position::SinusoidalHalves;
    for (int i = 0; i < cfg_.encoder_layers; ++i)
        enc_.push_back(EncoderLayer<T>::make(ps_, "encoder.layers." + std::to_string(i), d,
                                             cfg_.heads, cfg_.d_ff, cfg_.dropout, pre));
    if (pre && !only)
        encNorm_ = LayerNorm<T>::make(ps_, "encoder.norm", d);
    for (int i = 0; i < cfg_.decoder_layers; ++i)
        dec_.push_back(DecoderLayer<T>::make(ps_, "decoder.layers." + std::to_string(i), d,
                                             cfg_.heads, cfg_.d_ff, cfg_.dropout, pre, !only));
    if (pre)
        decNorm_ = LayerNorm<T>::make(ps_, "decoder.norm", d);
    generator_ = cfg_.tie == Tie::None
                     ? Linear<T>::make(ps_, "generator", d, cfg_.tgt_vocab, cfg_.generator_bias)
                     : Linear<T>::makeTied(ps_, "generator", tgtEmbed_.w, d, cfg_.tgt_vocab,
                                           cfg_.generator_bias);
    generator_.kind = ProfileCategory::GemmGenerator;
    // Every LayerNorm's ε (§2.4), the sublayers' that a shape leaves unused included.
    const double eps = cfg_.norm_eps;
    // And every feed-forward's activation (§2.3).
    for (EncoderLayer<T>& l : enc_) {
        l.sub1.norm.eps = l.sub2.norm.eps = eps;
        l.ffn.setActivation(cfg_.activation);
    }
    for (DecoderLayer<T>& l : dec_) {
        l.sub1.norm.eps = l.sub2.norm.eps = l.sub3.norm.eps = eps;
        l.ffn.setActivation(cfg_.activation);
    }
    encNorm_.eps = decNorm_.eps = eps;
    ps_.allocate();
    // LayerNorm weights start at 1 even before initXavier, so a fresh model is usable.
    for (const ParamInfo& p : ps_.table())
        if (p.shape.size() == 1 && p.name.find("norm") != std::string::npos
            && p.name.ends_with(".weight"))
            RowVecMap<T>(ps_.values() + p.offset, Eigen::Index(p.size)).setOnes();
    encX_.resize(enc_.size() + 1);
    decY_.resize(dec_.size() + 1);
}

template <typename T>
std::unique_ptr<Transformer<T>> Transformer<T>::clone() const
{
    auto m = std::make_unique<Transformer<T>>(cfg_);
    m->ps_.valueVector() = ps_.valueVector();
    return m;
}

template <typename T>
void Transformer<T>::initXavier(Rng& rng)
{
    for (const ParamInfo& p : ps_.table()) {
        T* v = ps_.values() + p.offset;
        if (p.shape.size() == 2) {
            const double bound = std::sqrt(6.0 / double(p.rows() + p.cols()));
            for (std::size_t i = 0; i < p.size; ++i)
                v[i] = T((2.0 * rng.uniform() - 1.0) * bound);
        } else {
            const bool normWeight = p.name.find("norm") != std::string::npos
                                    && p.name.ends_with(".weight");
            std::fill(v, v + p.size, normWeight ? T(1) : T(0));
        }
    }
}

template <typename T>
void Transformer<T>::encode(const int* src, int B, int S, const Pass& pass)
{
    if (cfg_.decoderOnly())
        throw std::logic_error("encode: a decoder-only model has no encoder");
    const std::size_t n = std::size_t(B) * S;
    for (std::size_t i = 0; i < n; ++i)
        if (src[i] < 0 || src[i] >= cfg_.src_vocab)
            throw std::out_of_range("encode: source id outside the vocabulary");
    B_ = B;
    S_ = S;
    srcIds_.assign(src, src + n);
    srcValid_.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        srcValid_[i] = src[i] != kPad;
    for (Mat<T>& x : encX_)
        x.resize(Eigen::Index(n), cfg_.d_model);
    srcEmbed_.forward(src, B, S, encX_[0], cfg_.dropout, pass);
    if (!srcScale_.empty()) {
        if (pass.train || int(srcScale_.size()) != B)
            throw std::invalid_argument("encode: a source scale per sequence, and no dropout");
        // x = α (x - PE) + PE: the embeddings scaled, the positional encodings kept.
        for (int b = 0; b < B; ++b) {
            auto rows = encX_[0].middleRows(Eigen::Index(b) * S, S);
            const Mat<T> pe = srcEmbed_.positions(S);
            rows = (rows - pe) * srcScale_[std::size_t(b)] + pe;
        }
    }
    for (std::size_t l = 0; l < enc_.size(); ++l)
        enc_[l].forward(encX_[l], B, S, srcValid_.data(), pass, encX_[l + 1]);
    if (cfg_.norm == NormPlacement::Pre) {
        mem_.resize(Eigen::Index(n), cfg_.d_model);
        encNorm_.forward(encX_.back(), mem_);
    } else {
        mem_ = encX_.back();
    }
}

template <typename T>
void Transformer<T>::decode(const int* tgtIn, int B, int Tn, In<T> mem,
                            const std::uint8_t* srcValid, int S, const Pass& pass)
{
    const std::size_t n = std::size_t(B) * Tn;
    for (std::size_t i = 0; i < n; ++i)
        if (tgtIn[i] < 0 || tgtIn[i] >= cfg_.tgt_vocab)
            throw std::out_of_range("decode: target id outside the vocabulary");
    T_ = Tn;
    tgtIds_.assign(tgtIn, tgtIn + n);
    tgtValid_.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        tgtValid_[i] = tgtIn[i] != kPad;
    for (Mat<T>& y : decY_)
        y.resize(Eigen::Index(n), cfg_.d_model);
    tgtEmbed_.forward(tgtIn, B, Tn, decY_[0], cfg_.dropout, pass);
    if (cfg_.decoderOnly() && !srcScale_.empty()) {
        if (pass.train || int(srcScale_.size()) != B || 1 + promptLength_ > Tn)
            throw std::invalid_argument("decode: a prompt scale per sequence, no dropout, and "
                                        "the prompt within the sequence");
        // The prompt's x = α (x - PE) + PE after <s>, as encode() scales a source.
        const Mat<T> pe = tgtEmbed_.positions(1 + promptLength_).bottomRows(promptLength_);
        for (int b = 0; b < B; ++b) {
            auto rows = decY_[0].middleRows(Eigen::Index(b) * Tn + 1, promptLength_);
            rows = (rows - pe) * srcScale_[std::size_t(b)] + pe;
        }
    }
    for (std::size_t l = 0; l < dec_.size(); ++l)
        dec_[l].forward(decY_[l], mem, B, Tn, S, tgtValid_.data(), srcValid, pass, decY_[l + 1]);
    if (cfg_.norm == NormPlacement::Pre) {
        decOut_.resize(Eigen::Index(n), cfg_.d_model);
        decNorm_.forward(decY_.back(), decOut_);
    } else {
        decOut_ = decY_.back();
    }
}

template <typename T>
void maskSpecialLogits(const ModelConfig& c, Out<T> logits)
{
    for (int id = 0; id < 4; ++id)
        if (c.masked_specials & (1u << id))
            logits.col(id).setConstant(T(kMaskedLogit));
}

template <typename T>
void Transformer<T>::generatorForward(In<T> x, Out<T> out, bool withBias) const
{
    generator_.forward(x, out, withBias);
    maskSpecialLogits<T>(cfg_, out);
}

template <typename T>
void Transformer<T>::nextTokenLogProbs(Mat<T>& out)
{
    const Eigen::Index B = decOut_.rows() / T_;
    Mat<T> last(B, cfg_.d_model);
    for (Eigen::Index b = 0; b < B; ++b)
        last.row(b) = decOut_.row(b * T_ + T_ - 1);
    out.resize(B, cfg_.tgt_vocab);
    generatorForward(last, out);
    logSoftmaxRows<T>(out);
}

template <typename T>
void Transformer<T>::allLogProbs(Mat<T>& out)
{
    out.resize(decOut_.rows(), cfg_.tgt_vocab);
    generatorForward(decOut_, out);
    logSoftmaxRows<T>(out);
}

template <typename T>
void Transformer<T>::setKeepScores(bool on)
{
    for (EncoderLayer<T>& l : enc_)
        l.self_attn.keepScores = on;
    for (DecoderLayer<T>& l : dec_) {
        l.self_attn.keepScores = on;
        l.cross_attn.keepScores = on;
    }
}

template <typename T>
void Transformer<T>::lensLogProbs(In<T> states, Mat<T>& out) const
{
    out.resize(states.rows(), cfg_.tgt_vocab);
    if (cfg_.norm == NormPlacement::Pre) {
        LayerNorm<T> norm = decNorm_;  // a copy: its caches are the last forward's
        Mat<T> normed(states.rows(), states.cols());
        norm.forward(states, normed);
        generatorForward(normed, out);
    } else {
        generatorForward(states, out);
    }
    logSoftmaxRows<T>(out);
}

template <typename T>
void Transformer<T>::forwardBatch(const Batch& batch, const Pass& pass)
{
    if (!cfg_.decoderOnly()) {
        encode(batch.src.data(), batch.B, batch.S, pass);
        decode(batch.tgtIn.data(), batch.B, batch.T, mem_, srcValid_.data(), batch.S, pass);
        return;
    }
    if (batch.S != 0 || !batch.src.empty())
        throw std::invalid_argument("a decoder-only model reads no source: the batch has one");
    B_ = batch.B;
    S_ = 0;
    srcIds_.clear();
    srcValid_.clear();
    mem_.resize(0, cfg_.d_model);
    decode(batch.tgtIn.data(), batch.B, batch.T, mem_, nullptr, 0, pass);
}

template <typename T>
void Transformer<T>::backwardBatch(In<T> dDecOut)
{
    decodeBackward(dDecOut);
    if (!cfg_.decoderOnly())
        encodeBackward(dMem_);
}

template <typename T>
LossStats Transformer<T>::forwardBackward(const Batch& batch, const Pass& pass)
{
    ps_.ensureGrads();
    forwardBatch(batch, pass);
    logits_.resize(decOut_.rows(), cfg_.tgt_vocab);
    // The loss adds the generator's bias to each row of logits as it reads it, and its gradient
    // (the column sums of d loss / d logits) while it writes each row of those: the [n, V]
    // logits are written once, by the product (the bias written into them before it was a
    // pass of its own: about 1 of the 27 ms of a tiny decoder-only step).
    generatorForward(decOut_, logits_, /*withBias=*/false);
    const LossStats st = labelSmoothedLoss<T>(logits_, batch.tgtOut.data(), cfg_.label_smoothing,
                                              true,
                                              generator_.hasBias() ? generator_.biasGrad().data() : nullptr,
                                              generator_.hasBias() ? generator_.bias().data() : nullptr);
    // logits_ now holds d loss / d logits.
    dA_.resize(decOut_.rows(), cfg_.d_model);
    generator_.backward(decOut_, logits_, dA_, false, nullptr, /*biasGradTaken=*/true);
    backwardBatch(dA_);
    return st;
}

template <typename T>
LossStats Transformer<T>::forwardLoss(const Batch& batch, const Pass& pass)
{
    forwardBatch(batch, pass);
    logits_.resize(decOut_.rows(), cfg_.tgt_vocab);
    generatorForward(decOut_, logits_);
    return labelSmoothedLoss<T>(logits_, batch.tgtOut.data(), cfg_.label_smoothing, false);
}

template <typename T>
LossStats Transformer<T>::evaluateFrom(const Batch& batch, AttentionKind kind, int layer)
{
    if (layer < 0 || layer >= layers(kind))
        throw std::out_of_range("evaluateFrom: no such layer");
    if (B_ != batch.B || S_ != batch.S || T_ != batch.T || srcIds_ != batch.src ||
        tgtIds_ != batch.tgtIn)
        throw std::logic_error("evaluateFrom: not the batch of the last forward pass");
    const Pass pass = Pass::eval();
    if (kind == AttentionKind::EncoderSelf) {
        for (std::size_t l = std::size_t(layer); l < enc_.size(); ++l)
            enc_[l].forward(encX_[l], B_, S_, srcValid_.data(), pass, encX_[l + 1]);
        if (cfg_.norm == NormPlacement::Pre)
            encNorm_.forward(encX_.back(), mem_);
        else
            mem_ = encX_.back();
        layer = 0;  // the whole decoder reads the new memory
    }
    const std::size_t n = std::size_t(B_) * T_;
    for (std::size_t l = std::size_t(layer); l < dec_.size(); ++l)
        dec_[l].forward(decY_[l], mem_, B_, T_, S_, tgtValid_.data(), srcValid_.data(), pass,
                        decY_[l + 1]);
    if (cfg_.norm == NormPlacement::Pre) {
        decOut_.resize(Eigen::Index(n), cfg_.d_model);
        decNorm_.forward(decY_.back(), decOut_);
    } else {
        decOut_ = decY_.back();
    }
    logits_.resize(decOut_.rows(), cfg_.tgt_vocab);
    generatorForward(decOut_, logits_);
    return labelSmoothedLoss<T>(logits_, batch.tgtOut.data(), cfg_.label_smoothing, false);
}

template <typename T>
void Transformer<T>::decodeBackward(In<T> dout)
{
    // dout: [B*T, d] gradient of decOut_.
    dB_.resize(dout.rows(), dout.cols());
    if (cfg_.norm == NormPlacement::Pre)
        decNorm_.backward(dout, dB_, false);
    else
        dB_ = dout;
    dMem_.setZero(mem_.rows(), mem_.cols());  // decoder-only: 0 rows, nothing read
    for (std::size_t l = dec_.size(); l-- > 0;) {
        dA_.resize(dB_.rows(), dB_.cols());
        dec_[l].backward(decY_[l], mem_, dB_, dA_, dMem_);
        std::swap(dA_, dB_);
    }
    if (recordSourceGrad_ && cfg_.decoderOnly()) {
        // ∂F/∂x of the prompts' positions (x = e + PE, no dropout: ∂F/∂e).
        const Eigen::Index B = dB_.rows() / T_, P = promptLength_;
        dSrcEmb_.resize(B * P, dB_.cols());
        for (Eigen::Index b = 0; b < B; ++b)
            dSrcEmb_.middleRows(b * P, P) = dB_.middleRows(b * T_ + 1, P);
    }
    tgtEmbed_.backward(tgtIds_.data(), dB_);
}

template <typename T>
void Transformer<T>::encodeBackward(In<T> dmem)
{
    dB_.resize(dmem.rows(), dmem.cols());
    if (cfg_.norm == NormPlacement::Pre)
        encNorm_.backward(dmem, dB_, false);
    else
        dB_ = dmem;
    for (std::size_t l = enc_.size(); l-- > 0;) {
        dA_.resize(dB_.rows(), dB_.cols());
        enc_[l].backward(encX_[l], dB_, dA_);
        std::swap(dA_, dB_);
    }
    if (recordSourceGrad_)
        dSrcEmb_ = dB_;  // x = e + PE (no dropout): ∂F/∂e = ∂F/∂x
    srcEmbed_.backward(srcIds_.data(), dB_);
}

template <typename T>
MultiHeadAttention<T>& Transformer<T>::attentionBlock(AttentionKind kind, int layer)
{
    return const_cast<MultiHeadAttention<T>&>(std::as_const(*this).attention(kind, layer));
}

template <typename T>
void Transformer<T>::setHeadGates(AttentionKind kind, int layer, std::vector<T> gates)
{
    if (!gates.empty() && int(gates.size()) != cfg_.heads)
        throw std::invalid_argument("setHeadGates: one gate per head");
    attentionBlock(kind, layer).gate = std::move(gates);
}

template <typename T>
void Transformer<T>::clearHeadGates()
{
    for (AttentionKind k : {AttentionKind::EncoderSelf, AttentionKind::DecoderSelf, AttentionKind::Cross})
        for (int l = 0; l < layers(k); ++l)
            attentionBlock(k, l).gate.clear();
}

template <typename T>
const Mat<T>& Transformer<T>::headGateGrad(AttentionKind kind, int layer) const
{
    return attention(kind, layer).gateGrad;
}

template <typename T>
void Transformer<T>::setSourceScale(std::vector<T> scale, int promptLength)
{
    if (promptLength < 0 || (promptLength > 0 && !cfg_.decoderOnly()))
        throw std::invalid_argument("setSourceScale: a prompt length is a decoder-only model's");
    srcScale_ = std::move(scale);
    promptLength_ = srcScale_.empty() ? 0 : promptLength;
}

template <typename T>
std::vector<double> Transformer<T>::logProbBackward(const Batch& batch,
                                                    const std::vector<Selection>& selected)
{
    ps_.ensureGrads();
    forwardBatch(batch, Pass::eval());
    logits_.resize(decOut_.rows(), cfg_.tgt_vocab);
    generatorForward(decOut_, logits_);
    // d log p(k) / d logits = onehot(k) - softmax(logits), in the selected rows only.
    Mat<T> grad = Mat<T>::Zero(logits_.rows(), logits_.cols());
    std::vector<double> logp;
    logp.reserve(selected.size());
    for (const Selection& s : selected) {
        if (s.row < 0 || s.row >= batch.B || s.pos < 0 || s.pos >= batch.T || s.token < 0
            || s.token >= cfg_.tgt_vocab)
            throw std::out_of_range("logProbBackward: selection outside the batch");
        const Eigen::Index r = Eigen::Index(s.row) * batch.T + s.pos;
        Mat<T> row = logits_.row(r);
        logSoftmaxRows<T>(row);
        logp.push_back(double(row(0, s.token)));
        grad.row(r) -= T(s.weight) * row.array().exp().matrix();
        grad(r, s.token) += T(s.weight);
    }
    dA_.resize(decOut_.rows(), cfg_.d_model);
    generator_.backward(decOut_, grad, dA_, false);
    recordSourceGrad_ = true;
    backwardBatch(dA_);
    recordSourceGrad_ = false;
    return logp;
}

template <typename T>
const MultiHeadAttention<T>& Transformer<T>::attention(AttentionKind kind, int layer) const
{
    switch (kind) {
    case AttentionKind::EncoderSelf:
        return enc_.at(std::size_t(layer)).self_attn;
    case AttentionKind::DecoderSelf:
        return dec_.at(std::size_t(layer)).self_attn;
    case AttentionKind::Cross:
        break;
    }
    if (cfg_.decoderOnly())
        throw std::out_of_range("attention: a decoder-only model has no cross-attention");
    return dec_.at(std::size_t(layer)).cross_attn;
}

template class Transformer<float>;
template class Transformer<double>;

template void maskSpecialLogits<float>(const ModelConfig&, Out<float>);
template void maskSpecialLogits<double>(const ModelConfig&, Out<double>);

}  // namespace as
