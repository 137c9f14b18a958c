// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Greedy and beam-search decoding (core/SPEC.md §5). <pad> and <s> are never emitted.
#include "decode/sampling.h"
#include "model/transformer.h"

#include <QString>

#include <vector>

namespace as {

// The cross-attention behind one output: for each output step t (each emitted token, and
// </s> when the output finished), each decoder layer and head, the weights over the source.
struct CrossAttention {
    int layers = 0, heads = 0, steps = 0, srcLen = 0;
    std::vector<float> weights;  // [layers][heads][steps][srcLen]
    float at(int layer, int head, int step, int src) const
    {
        return weights[((std::size_t(layer) * heads + head) * steps + step) * srcLen + src];
    }
    // One head's weight, or with head < 0 the mean over the layer's heads: what the views draw.
    double cell(int layer, int head, int step, int src) const
    {
        if (head >= 0)
            return at(layer, head, step, src);
        double sum = 0;
        for (int h = 0; h < heads; ++h)
            sum += at(layer, h, step, src);
        return sum / heads;
    }
};

struct Hypothesis {
    std::vector<int> tokens;  // without <s> and </s>
    bool finished = false;    // ended with </s> (else it reached max_len)
    double logprob = 0.0;     // sum of log p over the emitted tokens and </s>
    double score = 0.0;       // logprob / lp(length), length counting </s>
};

// Beam search's tree (core/SPEC.md §5.5): one node per expanded hypothesis, in the order
// they were made (a parent before its children), the root <s> first.
struct BeamNode {
    enum class State { Kept, Pruned, Finished };
    int id = 0;
    int parent = -1;  // -1 at the root
    int step = 0;     // the root 0; a node at step s holds the s-th token after <s>
    int token = 0;    // kBos at the root, kEos for a finished node
    double logProb = 0.0;  // log p(token | source, prefix)
    double score = 0.0;    // cumulative: the parent's score + logProb
    State state = State::Kept;
    // Its place in the list the n-best is read from (§5.3): finished nodes, and kept nodes
    // that reached the length limit (finished = false). finalScore = score / lp(|y|).
    bool final = false;
    double finalScore = 0.0;
};

struct BeamTree {
    std::vector<BeamNode> nodes;
    int beam = 0;
};

QString beamNodeStateName(BeamNode::State state);  // kept, pruned, finished

struct DecodeResult {
    std::vector<Hypothesis> nbest;  // best first
    CrossAttention cross;           // of nbest[0]
    BeamTree tree;                  // beamSearch with DecodeOptions::tree only
};

struct DecodeOptions {
    int beam = 1;
    int nbest = 1;
    double alpha = 0.6;  // GNMT length penalty lp = ((5 + |y|) / 6)^alpha
    // Output length limit. maxLen > 0: exactly that many tokens at most. Otherwise at most
    // maxLenA * |src| + maxLenB (fairseq's max-len-a/b) and never more than the model's
    // max_len: a confused model can repeat one token for ever, and one such output costs more
    // than it could ever earn.
    int maxLen = 0;
    double maxLenA = 2.0;
    int maxLenB = 10;
    // </s> is forbidden before this many tokens (minLen = maxLen: exactly maxLen tokens, which
    // is how bench --decode times a fixed length on random weights).
    int minLen = 0;
    // Incremental decoding with cached keys and values; false re-runs the decoder on the whole
    // prefix at every step (the plain path, kept as the test oracle). Same results.
    bool cached = true;
    // beamSearch records its search tree in DecodeResult::tree (core/SPEC.md §5.5).
    bool tree = false;
    // The limit for a source of srcLen tokens under these options and the model's max_len.
    int limitFor(int srcLen, int modelMaxLen) const;
    // The limit for `model`: as above, or for a decoder-only model (which reads `src` as its
    // prompt, core/SPEC.md §2.10) maxLen new tokens (0: max(kDefaultContinuation, maxLenA *
    // srcLen + maxLenB)), at most what its context has room for after <s> and the prompt
    // (std::invalid_argument when it has none).
    int limitFor(const ModelConfig& model, int srcLen) const;
    static constexpr int kDefaultContinuation = 64;
};

double lengthPenalty(int length, double alpha);

// src: source ids without specials. Dropout is off. A decoder-only model (core/SPEC.md §2.10)
// reads src as its prompt and continues it: the hypotheses' tokens are the new ones, and the
// result has no cross-attention.
template <typename T>
DecodeResult greedyDecode(Transformer<T>& model, const std::vector<int>& src, int maxLen = 0);
// Greedy with options' length limits and path (beam and nbest are ignored).
template <typename T>
DecodeResult greedyDecode(Transformer<T>& model, const std::vector<int>& src,
                          const DecodeOptions& options);
template <typename T>
DecodeResult beamSearch(Transformer<T>& model, const std::vector<int>& src,
                        const DecodeOptions& options);

// One output drawn token by token (core/SPEC.md §5.6) with sampling's temperature, top-k, top-p
// and seed (options' length limits and path; beam and nbest ignored). The hypothesis's logprob
// is the model's, before sampling's changes. steps: each step's distributions and draw.
template <typename T>
DecodeResult sampleDecode(Transformer<T>& model, const std::vector<int>& src,
                          const DecodeOptions& options, const SamplingOptions& sampling,
                          std::vector<SamplingStep>* steps = nullptr);

// The cross-attention of each output step for a given output (teacher-forced run).
template <typename T>
CrossAttention crossAttentionFor(Transformer<T>& model, const std::vector<int>& src,
                                 const std::vector<int>& output, bool finished);

}  // namespace as
