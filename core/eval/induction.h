// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Induction heads (core/SPEC.md §13; Elhage et al. 2021, Olsson et al. 2022): what each head
// of a decoder-only model does on a probe of repeated random tokens — induction (prefix
// matching), previous-token and duplicate-token attention, and how much its output raises the
// logit of the token it should copy — with the K-composition of every later head with every
// earlier one, the probe's loss at each position, and the step where the phase change came.
#include "model/transformer.h"
#include "eval/induction_record.h"
#include "text/repeat_task.h"

#include <QJsonObject>
#include <QString>

#include <functional>
#include <vector>

namespace as {

inline constexpr std::uint64_t kInductionProbeSeed = 20220308;  // Olsson et al.'s arXiv date
inline constexpr int kInductionProbeRows = 32;
inline constexpr int kInductionMinVocab = 6;  // the specials and two tokens to repeat

// The probe: rows of the repeat task (text/repeat_task.h) over the model's own tokens (ids 4 …
// V−1), each <s> row </s>, drawn from Rng(seed).
struct InductionProbe {
    std::vector<RepeatRow> rows;  // symbols: the model's ids
    Batch batch;                  // makeSentenceLmBatch of the rows
};
InductionProbe makeInductionProbe(int vocabSize, int rows = kInductionProbeRows,
                                  std::uint64_t seed = kInductionProbeSeed);

// One head's attention pattern scores (§13.1), each a mean of attention weights in [0, 1].
struct PatternScores {
    double induction = 0;   // from each later-copy token to the token after its first occurrence
    double previous = 0;    // from each position t ≥ 1 to t − 1
    double duplicate = 0;   // from each later-copy token to its first occurrence
};
// a(row, query, key): the head's weight at decoder-input positions (<s> at 0; row symbol i at
// i + 1); T: the decoder input's length.
using AttentionAt = std::function<double(int row, int query, int key)>;
PatternScores patternScores(const AttentionAt& a, int T, const std::vector<RepeatRow>& rows);

// The probe through the model (dropout off, head gates applied) and its weights: every field
// of the record but step. Throws std::invalid_argument for a model that is not decoder-only.
template <typename T>
InductionRecord measureInduction(Transformer<T>& model, const InductionProbe& probe);

// The K-composition table and baseline of a decoder-only model's weights (§13.3).
template <typename T>
void kComposition(const Transformer<T>& model, std::vector<double>* table, double* baseline);
// The mean K-composition of random Gaussian factors of a head's shapes (§13.3).
double compositionBaseline(int dModel, int dHead);

// The record as JSON (train --log, heads --induction --json): per head (named as core/SPEC.md
// §6.3) its four scores, the composition table's pairs and baseline, the probe's losses.
QJsonObject inductionJson(const InductionRecord& r);
// One line: the top induction head, its score, and the later against the first copies' loss.
QString inductionSummary(const InductionRecord& r);

}  // namespace as
