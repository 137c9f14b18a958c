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
// A head's score over a map is the mean over its query rows.
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

struct HeadMapStats {
    double entropy = 0, confidence = 0, diagonal = 0;  // means over the query rows
};

// One head's map: rows head·Sq … head·Sq+Sq−1 of `layer` ([heads·Sq, Sk], as AttentionRecord
// keeps it). A map with no rows scores 0.
HeadMapStats headMapStats(const Mat<float>& layer, int heads, int head);

// Every head's stats of one recorded probe: [kind][layer][head], kinds in AttentionKind order.
struct HeadDynamicsPoint {
    long step = 0;
    std::vector<std::vector<HeadMapStats>> layers[3];
    const std::vector<std::vector<HeadMapStats>>& of(AttentionKind kind) const
    {
        return layers[int(kind)];
    }
};
HeadDynamicsPoint headDynamicsOf(const AttentionRecord& record);

}  // namespace as
