// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
#include <cstdint>
#include <vector>

namespace as {

struct ModelConfig;

// Token ids of core/SPEC.md §1.1.
enum SpecialId : int { kPad = 0, kBos = 1, kEos = 2, kUnk = 3 };

// A batch of sentence pairs as padded id matrices (row-major, row = sentence).
// Decoder input is <s> y1 … yn, decoder target is y1 … yn </s>, both padded with <pad>.
struct Batch {
    int B = 0, S = 0, T = 0;
    std::vector<int> src;     // [B * S]
    std::vector<int> tgtIn;   // [B * T]
    std::vector<int> tgtOut;  // [B * T]
    long targetTokens() const;
};

// src, tgt: id sequences without specials. An empty source still gets one (padded) column.
Batch makeBatch(const std::vector<std::vector<int>>& src, const std::vector<std::vector<int>>& tgt);

// A language model's batch (a decoder-only model, core/SPEC.md §2.10): no source (S = 0), and
// each window w of a token stream (specials included as they stand in it, at least 2 ids)
// gives tgtIn = w[0 … n-2] and tgtOut = w[1 … n-1], padded with <pad> to the longest.
Batch makeLmBatch(const std::vector<std::vector<int>>& windows);
// makeLmBatch of sentences (ids without specials), each the window <s> ids </s>: a language
// model's batch of whole sentences, as its validation reads them.
Batch makeSentenceLmBatch(const std::vector<std::vector<int>>& sentences);

// The benchmark's batch (core/SPEC.md §7.3): `rows` sentences of srcLen source and tgtLen target
// ids drawn uniformly (specials excluded) from a generator seeded `seed`; for a decoder-only
// model, rows windows of tgtLen + 1 target ids and no source. What bench times and what the
// products' tuning measures (train/product_tuning.h).
Batch randomBenchBatch(const ModelConfig& config, int rows, int srcLen, int tgtLen,
                       std::uint64_t seed);

}  // namespace as
