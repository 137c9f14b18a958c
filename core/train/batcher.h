// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Batches by a token budget with length bucketing, as torch_mt.py builds them, served in an
// order that is reshuffled every epoch from a seed.
//
// A batch's cost is its larger padded matrix: sentences × max(S, T), with S = the longest
// source (at least 1, as makeBatch pads an empty source to one column) and T = the longest
// target + 1 (the decoder sees <s> y1 … yn and predicts y1 … yn </s>).
//
// Building an epoch (a pure function of the seed and the epoch number, so that any position
// can be restored exactly):
//  1. the pairs are sorted once by (source length, target length), ties in input order;
//  2. each run of pairs with the same (source length, target length) is shuffled;
//  3. the sorted sequence is cut greedily: a batch grows while its cost stays within the
//     budget; a single pair over the budget forms a batch of its own;
//  4. the order of the batches is shuffled.
// Step 2 only permutes pairs of identical shape, so the lengths along the sorted sequence, and
// therefore the cut points, the batch shapes and batchesPerEpoch(), are the same in every
// epoch; which sentences share a batch changes (wherever a run of equal lengths is longer than
// one pair or straddles a cut), and so does the order of the batches. Shuffling only within
// equal lengths keeps padding exactly as low as the plain sort does.
// The generator is as::Rng seeded from (seed, epoch), so the sequence does not depend on the
// standard library or Qt.
//
// Errors: invalid arguments (no pairs, a budget under 1, a position outside the epoch) throw
// std::invalid_argument with a message; nothing else throws.
#include "text/dataset.h"
#include "train/batch.h"

#include <QtGlobal>
#include <vector>

namespace as {

class Batcher {
public:
    // Throws std::invalid_argument when pairs is empty or tokenBudget < 1.
    Batcher(std::vector<EncodedPair> pairs, int tokenBudget, quint64 seed);

    // The batch at (epoch(), position()); then advances, to the next epoch after its last
    // batch. indices (if given) receives the positions in pairs() of the batch's rows.
    Batch next(std::vector<int>* indices = nullptr);

    int epoch() const { return epoch_; }           // 0-based epoch of the next batch
    qint64 position() const { return position_; }  // index in that epoch of the next batch
    // Makes (epoch, indexInEpoch) the next batch: the same sequence of batches follows as
    // after serving everything before it. Throws std::invalid_argument when epoch < 0 or
    // indexInEpoch is not in [0, batchesPerEpoch()).
    void setPosition(int epoch, qint64 indexInEpoch);

    int batchesPerEpoch() const { return int(cuts_.size()) - 1; }
    int tokenBudget() const { return budget_; }
    quint64 seed() const { return seed_; }
    const std::vector<EncodedPair>& pairs() const { return pairs_; }

private:
    void planEpoch(int epoch);

    std::vector<EncodedPair> pairs_;
    int budget_;
    quint64 seed_;
    std::vector<int> sorted_;      // pair indices sorted by (src length, tgt length, index)
    std::vector<int> runs_;        // boundaries in sorted_ of runs of equal lengths
    std::vector<int> cuts_;        // batch b = sorted positions [cuts_[b], cuts_[b + 1])
    std::vector<int> epochOrder_;  // sorted_ with runs shuffled, for plannedEpoch_
    std::vector<int> batchOrder_;  // batch ids in serving order, for plannedEpoch_
    int plannedEpoch_ = -1;
    int epoch_ = 0;
    qint64 position_ = 0;
};

// The cost of a batch as above: sentences × max(longest source (>= 1), longest target + 1).
long batchCost(const std::vector<EncodedPair>& pairs, const std::vector<int>& indices);

// Fixed batches for evaluation: pairs sorted by (source length, target length), ties in input
// order, cut under the token budget as the Batcher does; no shuffling. Returns the indices into
// pairs of each batch (empty for no pairs). Throws std::invalid_argument when tokenBudget < 1.
std::vector<std::vector<int>> evaluationBatches(const std::vector<EncodedPair>& pairs,
                                                int tokenBudget);

// makeBatch() of the pairs at the given indices, in that order; for a language model
// (decoder-only, core/SPEC.md §2.10) makeSentenceLmBatch() of their targets.
Batch gatherBatch(const std::vector<EncodedPair>& pairs, const std::vector<int>& indices,
                  bool languageModel = false);

}  // namespace as
