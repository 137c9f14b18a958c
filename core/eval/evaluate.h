// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A model on held-out pairs: teacher-forced loss and accuracy, and translation of many
// sentences with greedy or beam search. Dropout is off in both (Pass::eval()).
#include "decode/decode.h"
#include "model/transformer.h"
#include "text/dataset.h"
#include "train/history.h"
#include "train/loss.h"

#include <functional>
#include <vector>

namespace as {

// Called after each unit of work (a batch, a sentence) with how many are done out of how many;
// returning false stops before the next one.
using Progress = std::function<bool(int done, int total)>;

// Teacher-forced loss of the pairs with the model's own label smoothing (a decoder-only model:
// of each pair's target as a sentence, <s> … </s>, core/SPEC.md §2.10), in batches of
// evaluationBatches(pairs, tokenBudget) (the sums do not depend on the batching beyond float
// rounding). progress counts batches. When it cancels, the statistics of the batches done are
// returned and *cancelled (if given) is set; for no pairs, all-zero statistics.
// Throws std::invalid_argument when tokenBudget < 1.
template <typename T>
LossStats evaluateLoss(Transformer<T>& model, const std::vector<EncodedPair>& pairs,
                       int tokenBudget = 4000, const Progress& progress = {},
                       bool* cancelled = nullptr);

struct TranslateResult {
    std::vector<std::vector<int>> best;          // [sentences done]: best hypothesis' ids
    std::vector<std::vector<Hypothesis>> nbest;  // [sentences done] when asked, else empty
    int done = 0;                                // sentences translated
    bool cancelled = false;                      // progress returned false before the end
};

// Each source (ids without specials) in order, with greedyDecode when options.beam <= 1 (then
// an n-best list holds the one greedy hypothesis), else beamSearch. progress counts sentences.
template <typename T>
TranslateResult translate(Transformer<T>& model, const std::vector<std::vector<int>>& sources,
                          const DecodeOptions& options = {}, const Progress& progress = {},
                          bool keepNbest = false);

// Translations of sentence pairs given as text (TranslationSample: train/history.h), scored
// against their references.
struct TranslationReport {
    double bleu = 0;  // corpusBleu (sacreBLEU's default) of every hypothesis
    std::vector<TranslationSample> translations;  // one per pair, in order (pairs done)
    bool cancelled = false;
};

// Each source encoded with `codec` (its vocabularies and tokenisers), translated as translate()
// does, decoded to text, and BLEU against the references. A source with no token gets an empty
// hypothesis. progress counts sentences.
TranslationReport translateAndScore(Transformer<float>& model, const ParallelData& codec,
                                    const QList<SentencePair>& pairs,
                                    const DecodeOptions& options = {},
                                    const Progress& progress = {});

}  // namespace as
