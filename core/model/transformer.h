// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The encoder–decoder Transformer (core/SPEC.md §2, §3), or its decoder alone as a language
// model (arch=decoder-only, §2.10): forward, loss and backward by hand.
#include "model/config.h"
#include "model/decoder.h"
#include "model/embedding.h"
#include "model/encoder.h"
#include "model/head_id.h"
#include "model/rng.h"
#include "train/batch.h"
#include "train/loss.h"

#include <memory>
#include <vector>

namespace as {


template <typename T>
class IncrementalDecoder;

// The logit a masked special id gets (ModelConfig::masked_specials, core/SPEC.md §2.6): set, not
// added, as a masked attention score (§2.2); its probability is then exactly 0.
inline constexpr double kMaskedLogit = -1e9;
// Sets the columns of `logits` ([n, V]) of c's masked special ids to kMaskedLogit.
template <typename T>
void maskSpecialLogits(const ModelConfig& c, Out<T> logits);

template <typename T>
class Transformer {
public:
    // Throws std::invalid_argument when config.validate() is not empty.
    explicit Transformer(const ModelConfig& config);
    // Layers hold pointers into the parameter store: the model is neither copied nor moved.
    Transformer(const Transformer&) = delete;
    Transformer& operator=(const Transformer&) = delete;
    // A new model with the same configuration and parameter values (for decoding on a copy of
    // the weights while training goes on).
    std::unique_ptr<Transformer> clone() const;

    const ModelConfig& config() const { return cfg_; }
    ParamStore<T>& params() { return ps_; }
    const ParamStore<T>& params() const { return ps_; }

    // Xavier-uniform for every matrix, biases 0, LayerNorm weight 1.
    void initXavier(Rng& rng);

    // Training step's forward + loss + backward. Gradients are accumulated into params().grads()
    // (zero them first); returns the loss statistics of the batch.
    LossStats forwardBackward(const Batch& batch, const Pass& pass);
    // Forward and loss only. evaluate() is forwardLoss with dropout off.
    LossStats forwardLoss(const Batch& batch, const Pass& pass);
    LossStats evaluate(const Batch& batch) { return forwardLoss(batch, Pass::eval()); }
    // evaluate() of the batch of the last forward pass again, recomputing only from the input
    // of `kind`'s layer `layer` on (an encoder layer: the rest of the encoder and the whole
    // decoder; a decoder layer: the decoder from there). The caller changed nothing the layers
    // below depend on since that forward — e.g. only head gates of that layer or above — so
    // the result equals evaluate(batch) at a fraction of its cost (scoring one head at a time).
    LossStats evaluateFrom(const Batch& batch, AttentionKind kind, int layer);

    // Pieces for decoding and inspection.
    // src: [B*S] -> memory(): [B*S, d], sourceValid(): [B*S]
    void encode(const int* src, int B, int S, const Pass& pass);
    const Mat<T>& memory() const { return mem_; }
    const std::vector<std::uint8_t>& sourceValid() const { return srcValid_; }
    // tgtIn: [B*Tn], mem: [B*S, d], srcValid: [B*S] -> decoderOutput(): [B*Tn, d]
    void decode(const int* tgtIn, int B, int Tn, In<T> mem, const std::uint8_t* srcValid, int S,
                const Pass& pass);
    const Mat<T>& decoderOutput() const { return decOut_; }
    // Log-probabilities of the next token after each sequence of the last decode():
    // rows b*Tn + Tn-1 of the generator's log-softmax -> [B, V_tgt]
    void nextTokenLogProbs(Mat<T>& out);
    // Log-probabilities after every position of the last decode() -> [B*Tn, V_tgt]
    void allLogProbs(Mat<T>& out);

    // The attention of the last forward pass. probs: [B*heads*Sq, Sk], block (b, h) at rows
    // (b*heads + h)*Sq.
    const MultiHeadAttention<T>& attention(AttentionKind kind, int layer) const;
    int layers(AttentionKind kind) const
    {
        return kind == AttentionKind::EncoderSelf ? int(enc_.size())
               : kind == AttentionKind::Cross && cfg_.decoderOnly() ? 0
                                                                     : int(dec_.size());
    }

    // What the traced pass (core/eval/trace.h) reads of the last forward pass, dropout off:
    // the layers with the activations they keep, each stack's states (l: layer l's input;
    // l = layers: the last layer's output, before the final LayerNorm), the embedding tables
    // and the generator's output of the last forwardLoss() (forwardBackward() leaves the
    // loss's gradient there instead).
    const EncoderLayer<T>& encoderLayer(int l) const { return enc_.at(std::size_t(l)); }
    const DecoderLayer<T>& decoderLayer(int l) const { return dec_.at(std::size_t(l)); }
    const Mat<T>& encoderState(int l) const { return encX_.at(std::size_t(l)); }
    const Mat<T>& decoderState(int l) const { return decY_.at(std::size_t(l)); }
    const Embedding<T>& embedding(bool target) const { return target ? tgtEmbed_ : srcEmbed_; }
    const Mat<T>& logits() const { return logits_; }
    // Every attention block keeps its scores before softmax in the passes that follow
    // (MultiHeadAttention::keepScores); off again with false.
    void setKeepScores(bool on);
    // The logit lens: the log-softmax of the generator applied to `states` ([n, d], e.g. a
    // decoder layer's output), through the final LayerNorm in pre-norm, as the last layer's
    // output is -> out: [n, V_tgt]. Leaves the model's caches as they are.
    void lensLogProbs(In<T> states, Mat<T>& out) const;

    // Questions to the model (issue "which heads matter, what each output word rests on").
    // Head gates ξ of one attention block (MultiHeadAttention::gate; empty: none, ξ = 1):
    // masking a head is ξ = 0; they apply to every forward pass and to incremental decoding.
    void setHeadGates(AttentionKind kind, int layer, std::vector<T> gates);
    void clearHeadGates();
    // ∂F/∂ξ of the last logProbBackward for a gated block: [B, heads], per sequence.
    const Mat<T>& headGateGrad(AttentionKind kind, int layer) const;
    // Integrated gradients' path: each sequence b's source embeddings e = sqrt(d)·E[id] scaled
    // by scale[b], positional encodings kept (x = scale[b]·e + PE). Empty: 1. Eval passes only.
    // A decoder-only model's source is its prompt (core/SPEC.md §11.1): the promptLength tokens
    // after <s> of each sequence, positions 1 … promptLength of the decoder's input.
    void setSourceScale(std::vector<T> scale, int promptLength = 0);

    // One target log-probability: of `token` at position `pos` of sequence `row` of a batch.
    struct Selection {
        int row = 0, pos = 0, token = 0;
        double weight = 1;
    };
    // Forward with dropout off, then the backward pass of F = Σ weight · log p(token | source,
    // target before pos) over `selected`. Returns each selection's log p. Parameter gradients
    // are accumulated into params().grads(); sourceEmbeddingGrad() and the gated blocks'
    // headGateGrad() are filled.
    std::vector<double> logProbBackward(const Batch& batch, const std::vector<Selection>& selected);
    // ∂F/∂e of the last logProbBackward, at the (scaled) embeddings used: [B*S, d]; for a
    // decoder-only model its prompts' embeddings (setSourceScale's promptLength): [B*P, d].
    const Mat<T>& sourceEmbeddingGrad() const { return dSrcEmb_; }

private:
    // generator_.forward, then the masked specials' logits (maskSpecialLogits).
    void generatorForward(In<T> x, Out<T> out, bool withBias = true) const;
    // Decodes one token at a time with cached keys and values (decode/incremental.*): it
    // runs the decoder's layers on its own activations, so it needs their parts.
    template <typename U>
    friend class IncrementalDecoder;

    MultiHeadAttention<T>& attentionBlock(AttentionKind kind, int layer);
    // A batch's forward pass up to decoderOutput(): the encoder, then the decoder on its memory;
    // decoder-only, the decoder alone on a batch without source (S = 0). backwardBatch takes
    // the gradient at decoderOutput() back to the embeddings.
    void forwardBatch(const Batch& batch, const Pass& pass);
    void backwardBatch(In<T> dDecOut);
    void encodeBackward(In<T> dmem);
    void decodeBackward(In<T> dout);  // accumulates into dMem_

    ModelConfig cfg_;
    ParamStore<T> ps_;
    Embedding<T> srcEmbed_, tgtEmbed_;
    std::vector<EncoderLayer<T>> enc_;
    std::vector<DecoderLayer<T>> dec_;
    LayerNorm<T> encNorm_, decNorm_;  // pre-norm only
    Linear<T> generator_;

    // Activations of the last forward.
    int B_ = 0, S_ = 0, T_ = 0;
    std::vector<int> srcIds_, tgtIds_;
    std::vector<std::uint8_t> srcValid_, tgtValid_;
    std::vector<Mat<T>> encX_;  // [L+1] inputs of each encoder layer, then the last output
    std::vector<Mat<T>> decY_;  // [L+1] likewise for the decoder
    Mat<T> mem_, decOut_, logits_;
    // Backward scratch.
    Mat<T> dA_, dB_, dMem_;
    // Interpretation.
    std::vector<T> srcScale_;
    int promptLength_ = 0;  // setSourceScale's, for a decoder-only model
    bool recordSourceGrad_ = false;
    Mat<T> dSrcEmb_;
};

}  // namespace as
