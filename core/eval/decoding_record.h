// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The decoding loop of one probe sentence, step by step (issue 25 §2, the Decoding view): the
// greedy output and, at each of its steps, what the decoder read (its input so far), what it
// attended to in the source, the likeliest next tokens, the token it chose and fed back, and
// what each decoder layer would have predicted (the logit lens). With a reference target, the
// same for the teacher-forced pass beside it, and the first step where the two part.
//
// Computed from one traced forward pass per side (eval/trace.h): the decoder is causal, so a
// teacher-forced pass over <s> + the greedy output gives at position t exactly the
// distribution the incremental decoder had at step t (tests/core/test_decoding_record checks
// this against IncrementalDecoder). A value: the views read it, never the model.
#include "decode/sampling.h"
#include "model/transformer.h"
#include "text/vocab.h"

#include <QMetaType>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <vector>

namespace as {

struct TokenProbability {
    int id = 0;
    QString token;
    double probability = 0;
};

// One step t of the loop: the decoder's input is <s> + the tokens before step t.
struct DecodingStep {
    // The k likeliest next tokens, most likely first (<pad> and <s> left out: greedy decoding
    // never emits them, decode/decode.h).
    std::vector<TokenProbability> top;
    TokenProbability predicted;  // the argmax (greedy's choice): top[0]
    // The token fed back at step t + 1: the prediction when free-running, the reference's
    // token when teacher-forced (</s> at the last step of a finished sequence).
    TokenProbability fed;        // probability: the model's for that token
    // The cross-attention of this position: [layer][head][source token].
    std::vector<float> cross;
    // The logit lens: per decoder layer, its top-1 token and probability (the last layer's is
    // `predicted`).
    std::vector<TokenProbability> lens;
    // A sampled run (DecodingRecord::sampling): the probability of each of `top`, in order, and
    // of `fed` (the token drawn) in the distribution drawn from — the model's after temperature,
    // top-k and top-p, renormalised (core/SPEC.md §5.6). Empty when greedy.
    std::vector<double> topCut;
    double fedCut = 0;
};

// One pass: free-running (the greedy output) or teacher-forced (the reference).
struct DecodingRun {
    // The whole decoder input: "<s>", a decoder-only model's prompt, then the fed tokens.
    QStringList input;
    int promptLength = 0;          // the prompt's tokens (a decoder-only model's; else 0)
    std::vector<DecodingStep> steps;  // steps[t] reads input[0..promptLength + t]
    bool finished = false;         // the last step fed </s>
    // The decoder's causal self-attention over the whole input: [layer][head][query][key],
    // input.size() × input.size() per head; step t sees row t, keys 0..t (the rest masked).
    std::vector<float> self;
    QStringList fedTokens() const;  // steps' fed tokens, in order
};

struct DecodingRecord {
    long step = 0;  // of the weights
    int layers = 0, heads = 0, topK = 0;
    // A decoder-only model's (core/SPEC.md §2.10): `source` is its prompt, which it reads as the
    // start of its input; there is no cross-attention (DecodingStep::cross empty).
    bool generated = false;
    QStringList source;  // as the model reads it (<unk> for tokens it does not know)
    // Set: the free run was drawn with these (sampleDecode), not greedy.
    std::optional<SamplingOptions> sampling;
    DecodingRun free;    // greedy (or sampled) decoding
    bool hasReference = false;
    QStringList reference;  // the reference target (without <s> and </s>)
    DecodingRun forced;     // teacher-forced on the reference, when hasReference
    // The first step whose fed token differs between the two runs (from there on the
    // free-running decoder reads its own output, not the reference); −1 when they agree
    // throughout or there is no reference.
    int divergence = -1;

    int srcLen() const { return int(source.size()); }
    float crossAt(const DecodingStep& s, int layer, int head, int src) const
    {
        return s.cross[(std::size_t(layer) * heads + head) * std::size_t(srcLen()) + std::size_t(src)];
    }
    float selfAt(const DecodingRun& r, int layer, int head, int query, int key) const
    {
        const std::size_t T = std::size_t(r.input.size());
        return r.self[((std::size_t(layer) * heads + head) * T + std::size_t(query)) * T + std::size_t(key)];
    }
};
using DecodingRecordPtr = std::shared_ptr<const DecodingRecord>;

// The record of source (ids, no specials; not empty for a translator, a decoder-only model's
// prompt may be) with the model as it is, dropout off: greedy decoding with the default limits
// (decode/decode.h), or sampleDecode with `sampling`, then the traced passes. reference (ids,
// no specials) is used when hasReference (a translator's). topK ≥ 1.
template <typename T>
DecodingRecord makeDecodingRecord(Transformer<T>& model, const Vocab& srcVocab,
                                  const Vocab& tgtVocab, const std::vector<int>& source,
                                  const std::vector<int>& reference, bool hasReference,
                                  int topK = 5,
                                  const std::optional<SamplingOptions>& sampling = std::nullopt);

}  // namespace as

Q_DECLARE_METATYPE(as::DecodingRecordPtr)
