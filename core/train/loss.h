// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Label-smoothed KL loss of core/SPEC.md §3, fused with log-softmax and its gradient. For a target t
// (not <pad>): q[t] = 1 - eps, q[pad] = 0, every other entry eps / (V - 2), and
//   KL(q || p) = sum_j q_j log q_j - sum_j q_j log p_j
//              = C - (1 - eps) log p_t - eps / (V - 2) * (sum_j log p_j - log p_pad - log p_t)
// with the constant C = (1 - eps) log(1 - eps) + eps log(eps / (V - 2)). The smoothed
// distribution is never built; the gradient w.r.t. the logits is (p_j - q_j) / ntokens.
#include "model/tensor.h"

namespace as {

struct LossStats {
    double loss_sum = 0.0;  // sum over non-pad targets of KL(q || p)
    double nll_sum = 0.0;   // sum over non-pad targets of -log p_target
    long ntokens = 0;       // non-pad targets
    long correct = 0;       // argmax == target
    double loss() const { return ntokens ? loss_sum / double(ntokens) : 0.0; }
    double nll() const { return ntokens ? nll_sum / double(ntokens) : 0.0; }
    double accuracy() const { return ntokens ? double(correct) / double(ntokens) : 0.0; }
    LossStats& operator+=(const LossStats& o)
    {
        loss_sum += o.loss_sum;
        nll_sum += o.nll_sum;
        ntokens += o.ntokens;
        correct += o.correct;
        return *this;
    }
};

constexpr int kPadId = 0;

// logits: [n, V]; targets: [n] (kPadId rows are ignored). With wantGrad, logits are replaced
// by d(loss_sum / ntokens) / d logits (rows of pad targets become 0), and, if gradColumnSums
// is given ([V]), the column sums of that gradient are added to it: the gradient of the
// generator's bias, taken while each row is still in cache instead of in a pass of its own
// over the [n, V] gradient (16 MB for `tiny`) after it. If rowBias is given ([V]), it is added
// to every row of logits first (the generator's bias, for a product made without it: see
// Linear::forward), as each row is read.
template <typename T>
LossStats labelSmoothedLoss(Out<T> logits, const int* targets, double eps, bool wantGrad,
                            T* gradColumnSums = nullptr, const T* rowBias = nullptr);

}  // namespace as
