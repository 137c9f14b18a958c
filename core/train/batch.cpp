// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "train/batch.h"

#include "model/config.h"
#include "model/rng.h"

#include <algorithm>
#include <stdexcept>

namespace as {

long Batch::targetTokens() const
{
    return long(std::count_if(tgtOut.begin(), tgtOut.end(), [](int id) { return id != kPad; }));
}

Batch makeBatch(const std::vector<std::vector<int>>& src, const std::vector<std::vector<int>>& tgt)
{
    if (src.size() != tgt.size())
        throw std::invalid_argument("makeBatch: source and target counts differ");
    Batch b;
    b.B = int(src.size());
    b.S = 1;
    b.T = 1;
    for (std::size_t i = 0; i < src.size(); ++i) {
        b.S = std::max(b.S, int(src[i].size()));
        b.T = std::max(b.T, int(tgt[i].size()) + 1);
    }
    b.src.assign(std::size_t(b.B) * b.S, kPad);
    b.tgtIn.assign(std::size_t(b.B) * b.T, kPad);
    b.tgtOut.assign(std::size_t(b.B) * b.T, kPad);
    for (int i = 0; i < b.B; ++i) {
        std::copy(src[i].begin(), src[i].end(), b.src.begin() + std::size_t(i) * b.S);
        int* in = b.tgtIn.data() + std::size_t(i) * b.T;
        int* out = b.tgtOut.data() + std::size_t(i) * b.T;
        in[0] = kBos;
        std::copy(tgt[i].begin(), tgt[i].end(), in + 1);
        std::copy(tgt[i].begin(), tgt[i].end(), out);
        out[tgt[i].size()] = kEos;
    }
    return b;
}

Batch makeLmBatch(const std::vector<std::vector<int>>& windows)
{
    Batch b;
    b.B = int(windows.size());
    b.S = 0;
    for (const std::vector<int>& w : windows) {
        if (w.size() < 2)
            throw std::invalid_argument("makeLmBatch: a window needs at least 2 tokens");
        b.T = std::max(b.T, int(w.size()) - 1);
    }
    b.tgtIn.assign(std::size_t(b.B) * b.T, kPad);
    b.tgtOut.assign(std::size_t(b.B) * b.T, kPad);
    for (int i = 0; i < b.B; ++i) {
        const std::vector<int>& w = windows[std::size_t(i)];
        std::copy(w.begin(), w.end() - 1, b.tgtIn.begin() + std::ptrdiff_t(i) * b.T);
        std::copy(w.begin() + 1, w.end(), b.tgtOut.begin() + std::ptrdiff_t(i) * b.T);
    }
    return b;
}

Batch makeSentenceLmBatch(const std::vector<std::vector<int>>& sentences)
{
    std::vector<std::vector<int>> windows;
    windows.reserve(sentences.size());
    for (const std::vector<int>& ids : sentences) {
        std::vector<int> w{kBos};
        w.insert(w.end(), ids.begin(), ids.end());
        w.push_back(kEos);
        windows.push_back(std::move(w));
    }
    return makeLmBatch(windows);
}

Batch randomBenchBatch(const ModelConfig& config, int rows, int srcLen, int tgtLen,
                       std::uint64_t seed)
{
    Rng rng(seed);
    const auto draw = [&](int vocab, int n) {
        std::vector<int> ids;
        for (int i = 0; i < n; ++i)
            ids.push_back(4 + int(rng.below(std::uint64_t(vocab - 4))));
        return ids;
    };
    std::vector<std::vector<int>> src(static_cast<std::size_t>(rows)), tgt(static_cast<std::size_t>(rows));
    if (config.decoderOnly()) {
        for (std::vector<int>& w : tgt)
            w = draw(config.tgt_vocab, tgtLen + 1);
        return makeLmBatch(tgt);
    }
    for (int b = 0; b < rows; ++b) {
        src[std::size_t(b)] = draw(config.src_vocab, srcLen);
        tgt[std::size_t(b)] = draw(config.tgt_vocab, tgtLen);
    }
    return makeBatch(src, tgt);
}

}  // namespace as
