// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What one attention map says about its head, in one place for every view and report:
//  - confidence (Voita et al. 2019): the largest weight of a query's row;
//  - entropy: −Σ a log a of a query's row, in nats (0 log 0 = 0, so keys a causal or padding
//    mask hides count for nothing: decoder self-attention's row t is the entropy over s ≤ t);
//  - diagonal: the attention mass of a query's row within ±1 of the diagonal, the diagonal
//    being where source length is scaled to target length: for query t of T and key s of S it
//    lies at d(t) = t·(S−1)/(T−1) (T > 1; T = 1: the centre (S−1)/2), and the row's score is
//    Σ a(t, s) over the keys with |s − d(t)| ≤ 1. It joins the first query to the first key
//    and the last to the last. For cross-attention this is the monotonic alignment of a
//    translation that keeps the word order; for self-attention (S = T, d(t) = t) it is the mass
//    on the previous, the same and the next token (Voita et al.'s "positional" heads).
//  - punctuation mass (core/SPEC.md §12): the weight a query's row puts on keys whose token is
//    punctuation (isPunctuationToken), with the share such keys have among the keys the row may
//    see (what uniform attention would put on them); their ratio says how many times more than
//    uniform a head looks at punctuation.
//  - alignment (core/SPEC.md §12): over a head's query rows, the Pearson correlation of the
//    query position t with the position of the row's largest weight (the first if tied); 0
//    when either does not vary (fewer than two rows, or every row's largest weight on the same
//    key). It is a whole-map score, not a mean of per-row scores.
// A head's score over a map is the mean over its query rows (alignment: over all of them).
#include "model/head_id.h"
#include "model/tensor.h"
#include "train/history.h"

#include <Eigen/Core>

#include <cmath>
#include <memory>
#include <vector>

namespace as {

template <typename Derived>
double attentionConfidence(const Eigen::DenseBase<Derived>& row)
{
    return row.size() ? double(row.maxCoeff()) : 0.0;
}

template <typename Derived>
double attentionEntropy(const Eigen::DenseBase<Derived>& row)
{
    double e = 0;
    for (Eigen::Index j = 0; j < row.size(); ++j) {
        const double a = double(row(j));
        if (a > 0)
            e -= a * std::log(a);
    }
    return e;
}

// d(t) above, for query t of T (0-based) over S keys.
double attentionDiagonalAt(int t, int T, int S);

template <typename Derived>
double attentionDiagonalMass(const Eigen::DenseBase<Derived>& row, int t, int T)
{
    const double d = attentionDiagonalAt(t, T, int(row.size()));
    double mass = 0;
    for (Eigen::Index s = 0; s < row.size(); ++s)
        if (std::abs(double(s) - d) <= 1.0)
            mass += double(row(s));
    return mass;
}

// A token is punctuation when it has at least one character other than white space and the
// SentencePiece word mark ▁ (U+2581), and every such character is punctuation by its Unicode
// category (QChar::isPunct: 。，？！ and . , ? ! are; <s>, </s>, letters and digits are not).
bool isPunctuationToken(const QString& token);

struct HeadMapStats {
    double entropy = 0, confidence = 0, diagonal = 0;  // means over the query rows
    double punctuation = 0, punctuationShare = 0;       // means over the query rows
    double alignment = 0;                               // −1 … 1, over the query rows
    // punctuation / punctuationShare: 1 for uniform attention; 0 when no key is punctuation.
    double punctuationRatio() const { return punctuationShare > 0 ? punctuation / punctuationShare : 0.0; }
};

// One head's map: rows head·Sq … head·Sq+Sq−1 of `layer` ([heads·Sq, Sk], as AttentionRecord
// keeps it). A map with no rows scores 0. `keyTokens` names the keys (a key past its end is
// not punctuation); `causal`: query t may see keys 0 … t only (decoder self-attention), which
// the punctuation share counts.
HeadMapStats headMapStats(const Mat<float>& layer, int heads, int head,
                          const QStringList& keyTokens = {}, bool causal = false);

// Every head's stats of one recorded probe: [kind][layer][head], kinds in AttentionKind order.
struct HeadDynamicsPoint {
    long step = 0;
    std::vector<std::vector<HeadMapStats>> layers[3];
    const std::vector<std::vector<HeadMapStats>>& of(AttentionKind kind) const&
    {
        return layers[int(kind)];
    }
    // Not on a temporary (headDynamicsOf(r).of(k)[l][h] would dangle by the next statement).
    void of(AttentionKind kind) && = delete;
};
HeadDynamicsPoint headDynamicsOf(const AttentionRecord& record);

}  // namespace as
