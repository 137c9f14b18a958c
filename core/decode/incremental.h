// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Incremental decoding: one new token per hypothesis and step, with a key/value cache of each
// decoder layer's self-attention and the encoder memory's cross-attention keys and values
// projected once per sentence. Transformer::decode() on the whole prefix computes the same
// numbers (it is the test oracle); this costs O(t) per step instead of O(t^2).
#include "model/transformer.h"

#include <vector>

namespace as {

template <typename T>
class IncrementalDecoder {
public:
    explicit IncrementalDecoder(Transformer<T>& model) : m_(model) {}

    // Encodes src (one sentence, [S] ids, no specials; empty = one padded position) and
    // projects the memory's cross-attention keys and values. A decoder-only model takes no
    // source (src empty, sourceLength() 0): its prompt is fed by step() like any token. capacity: most tokens any
    // hypothesis will be fed (<s> included). Starts with one hypothesis of no tokens.
    void start(const std::vector<int>& src, int capacity);

    // Keeps the hypotheses parents[i] (indices into the current ones), in that order; a parent
    // may be kept several times (beam search).
    void reorder(const std::vector<int>& parents);

    // Feeds tokens[i] to hypothesis i at position length() -> logp: [n, V] log-probabilities of
    // the next token (n = hypotheses()).
    void step(const int* tokens, Mat<T>& logp);

    int hypotheses() const { return n_; }
    int length() const { return t_; }
    int sourceLength() const { return S_; }
    // The last step's cross-attention of a decoder layer: [n*heads, S], row i*heads + h.
    const Mat<T>& crossProbs(int layer) const { return cross_[std::size_t(layer)]; }

private:
    // x: [n, d] the sublayer's input -> out: [n, d] the attention's output.
    void selfAttend(int layer, const Mat<T>& x, Mat<T>& out);
    void crossAttend(int layer, const Mat<T>& x, Mat<T>& out);
    // x: [n, d] -> out: [n, d] (dropout off)
    void feedForward(const FeedForward<T>& ffn, const Mat<T>& x, Mat<T>& out);

    Transformer<T>& m_;
    int n_ = 0, t_ = 0, S_ = 0, cap_ = 0;
    std::vector<std::uint8_t> srcValid_;        // [S]
    Mat<T> pe_;                                 // [cap, d]
    std::vector<Mat<T>> memKV_;                 // [layers] [S, 2d] = [K | V] of the memory
    std::vector<Mat<T>> selfK_, selfV_;         // [layers] [n*cap, d], row i*cap + position
    Mat<T> spareK_, spareV_;                    // reorder scratch
    std::vector<Mat<T>> cross_;                 // [layers] [n*heads, S]
    Mat<T> y_, a_, qkv_, q_, ctx_, h_;          // per-step activations, [n, ...]
    RowVec<T> scores_;                          // [max(cap, S)]
};

}  // namespace as
