// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "train/batcher.h"

#include "model/rng.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

namespace as {

namespace {

int paddedSource(const EncodedPair& p)
{
    return std::max(1, int(p.src.size()));
}

int paddedTarget(const EncodedPair& p)
{
    return int(p.tgt.size()) + 1;
}

std::vector<int> sortedByLength(const std::vector<EncodedPair>& pairs)
{
    std::vector<int> order(pairs.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        const EncodedPair &pa = pairs[std::size_t(a)], &pb = pairs[std::size_t(b)];
        if (pa.src.size() != pb.src.size())
            return pa.src.size() < pb.src.size();
        return pa.tgt.size() < pb.tgt.size();
    });
    return order;
}

// Greedy cut of `order` (already sorted): boundaries 0 = c0 < c1 < … < cn = order.size().
std::vector<int> cutUnderBudget(const std::vector<EncodedPair>& pairs,
                                const std::vector<int>& order, int budget)
{
    std::vector<int> cuts{0};
    long width = 0;  // max(S, T) of the batch being built
    for (int i = 0; i < int(order.size()); ++i) {
        const EncodedPair& p = pairs[std::size_t(order[std::size_t(i)])];
        const long w = std::max(width, long(std::max(paddedSource(p), paddedTarget(p))));
        const long n = i - cuts.back() + 1;  // sentences with this one
        if (n > 1 && w * n > budget) {
            cuts.push_back(i);
            width = std::max(paddedSource(p), paddedTarget(p));
        } else {
            width = w;
        }
    }
    if (cuts.back() != int(order.size()))
        cuts.push_back(int(order.size()));
    return cuts;
}

void checkBudget(int tokenBudget)
{
    if (tokenBudget < 1)
        throw std::invalid_argument("batcher: the token budget must be at least 1, not " +
                                    std::to_string(tokenBudget));
}

template <typename It>
void shuffle(It begin, It end, Rng& rng)
{
    for (auto n = end - begin; n > 1; --n)
        std::swap(begin[n - 1], begin[std::ptrdiff_t(rng.below(std::uint64_t(n)))]);
}

}  // namespace

Batcher::Batcher(std::vector<EncodedPair> pairs, int tokenBudget, quint64 seed)
    : pairs_(std::move(pairs)), budget_(tokenBudget), seed_(seed)
{
    if (pairs_.empty())
        throw std::invalid_argument("batcher: no sentence pairs to train on");
    checkBudget(tokenBudget);
    sorted_ = sortedByLength(pairs_);
    runs_.push_back(0);
    for (int i = 1; i < int(sorted_.size()); ++i) {
        const EncodedPair& a = pairs_[std::size_t(sorted_[std::size_t(i - 1)])];
        const EncodedPair& b = pairs_[std::size_t(sorted_[std::size_t(i)])];
        if (a.src.size() != b.src.size() || a.tgt.size() != b.tgt.size())
            runs_.push_back(i);
    }
    runs_.push_back(int(sorted_.size()));
    cuts_ = cutUnderBudget(pairs_, sorted_, budget_);
}

void Batcher::planEpoch(int epoch)
{
    if (plannedEpoch_ == epoch)
        return;
    // One generator per epoch, seeded from both numbers (Rng::reseed mixes with splitmix64).
    Rng rng(seed_ ^ (std::uint64_t(epoch) + 1) * 0x9e3779b97f4a7c15ULL);
    epochOrder_ = sorted_;
    for (std::size_t r = 0; r + 1 < runs_.size(); ++r)
        shuffle(epochOrder_.begin() + runs_[r], epochOrder_.begin() + runs_[r + 1], rng);
    batchOrder_.resize(std::size_t(batchesPerEpoch()));
    std::iota(batchOrder_.begin(), batchOrder_.end(), 0);
    shuffle(batchOrder_.begin(), batchOrder_.end(), rng);
    plannedEpoch_ = epoch;
}

Batch Batcher::next(std::vector<int>* indices)
{
    planEpoch(epoch_);
    const int b = batchOrder_[std::size_t(position_)];
    std::vector<int> rows(epochOrder_.begin() + cuts_[std::size_t(b)],
                          epochOrder_.begin() + cuts_[std::size_t(b) + 1]);
    if (++position_ == batchesPerEpoch()) {
        position_ = 0;
        ++epoch_;
    }
    Batch batch = gatherBatch(pairs_, rows);
    if (indices)
        *indices = std::move(rows);
    return batch;
}

void Batcher::setPosition(int epoch, qint64 indexInEpoch)
{
    if (epoch < 0 || indexInEpoch < 0 || indexInEpoch >= batchesPerEpoch())
        throw std::invalid_argument("batcher: position (" + std::to_string(epoch) + ", " +
                                    std::to_string(indexInEpoch) + ") is outside the " +
                                    std::to_string(batchesPerEpoch()) + " batches of an epoch");
    epoch_ = epoch;
    position_ = indexInEpoch;
}

long batchCost(const std::vector<EncodedPair>& pairs, const std::vector<int>& indices)
{
    long width = 0;
    for (int i : indices) {
        const EncodedPair& p = pairs[std::size_t(i)];
        width = std::max(width, long(std::max(paddedSource(p), paddedTarget(p))));
    }
    return width * long(indices.size());
}

std::vector<std::vector<int>> evaluationBatches(const std::vector<EncodedPair>& pairs,
                                                int tokenBudget)
{
    checkBudget(tokenBudget);
    const std::vector<int> order = sortedByLength(pairs);
    const std::vector<int> cuts = cutUnderBudget(pairs, order, tokenBudget);
    std::vector<std::vector<int>> batches;
    for (std::size_t b = 0; b + 1 < cuts.size(); ++b)
        batches.emplace_back(order.begin() + cuts[b], order.begin() + cuts[b + 1]);
    return batches;
}

Batch gatherBatch(const std::vector<EncodedPair>& pairs, const std::vector<int>& indices,
                  bool languageModel)
{
    std::vector<std::vector<int>> src, tgt;
    src.reserve(indices.size());
    tgt.reserve(indices.size());
    for (int i : indices) {
        src.push_back(pairs[std::size_t(i)].src);
        tgt.push_back(pairs[std::size_t(i)].tgt);
    }
    return languageModel ? makeSentenceLmBatch(tgt) : makeBatch(src, tgt);
}

}  // namespace as
