// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a trained model learned, asserted with margins instead of exact outputs.
//
// N training steps do not give the same weights on every CPU: the float products round
// differently with AVX2 and AVX-512 kernels (and under a sanitizer's -O1), Adam turns that
// noise into different steps, and a test that compared the decoded output after N steps hung on
// those bits whenever the model was undecided between two tokens. A defect (a wrong mask, a
// wrong gradient, a decoder that ignores its input) leaves the model far from the targets.
// So: the teacher-forced NLL of the target is below a bound, and the output must be the
// target exactly when the model is decided — when at every position the target token beats
// every other (<pad> and <s>, never emitted, aside) by kDecided nats — for then no rounding
// can change greedy decoding's choice.
#include "model/transformer.h"
#include "train/batch.h"

#include <QString>

#include <cmath>
#include <limits>
#include <vector>

namespace as::test {

constexpr double kDecided = 0.05;  // nats: float rounding moves a log-probability by ~1e-6

struct Fit {
    double nll = 0;  // mean over the target's tokens and </s>
    double minMargin = std::numeric_limits<double>::infinity();  // target − best other
    int worstPosition = -1;
    bool decided() const { return minMargin >= kDecided; }
};

// Teacher-forced: one sentence, no padding, dropout off.
template <typename T>
Fit fitOf(Transformer<T>& model, const std::vector<int>& src, const std::vector<int>& tgt)
{
    std::vector<int> in{kBos}, out = tgt;
    in.insert(in.end(), tgt.begin(), tgt.end());
    out.push_back(kEos);
    model.encode(src.data(), 1, int(src.size()), Pass::eval());
    const Mat<T> mem = model.memory();
    const std::vector<std::uint8_t> valid = model.sourceValid();
    model.decode(in.data(), 1, int(in.size()), mem, valid.data(), int(src.size()), Pass::eval());
    Mat<T> logp;
    model.allLogProbs(logp);
    Fit f;
    for (int r = 0; r < int(out.size()); ++r) {
        const int t = out[std::size_t(r)];
        double other = -std::numeric_limits<double>::infinity();
        for (int j = 0; j < int(logp.cols()); ++j)
            if (j != t && j != kPad && j != kBos)
                other = std::max(other, double(logp(r, j)));
        const double margin = double(logp(r, t)) - other;
        if (margin < f.minMargin) {
            f.minMargin = margin;
            f.worstPosition = r;
        }
        f.nll -= double(logp(r, t));
    }
    f.nll /= double(out.size());
    return f;
}

// Empty when the model learned the pair: NLL below nllBound, and `got` (what greedy decoding
// or the window gave for src) is the target whenever the model is decided. Otherwise why not.
template <typename T>
QString learnedPair(Transformer<T>& model, const std::vector<int>& src, const std::vector<int>& tgt,
                    const std::vector<int>& got, double nllBound)
{
    const Fit f = fitOf(model, src, tgt);
    if (!(f.nll < nllBound))
        return QStringLiteral("teacher-forced NLL %1 per token, bound %2 (smallest margin %3 at %4)")
            .arg(f.nll).arg(nllBound).arg(f.minMargin).arg(f.worstPosition);
    if (f.decided() && got != tgt)
        return QStringLiteral("the model is decided (every target token ahead by %1 nats or more, "
                              "NLL %2) but the output is not the target")
            .arg(f.minMargin).arg(f.nll);
    if (!f.decided())
        qWarning("undecided model (margin %g at position %d, NLL %g): the output is not checked",
                 f.minMargin, f.worstPosition, f.nll);
    return {};
}

}  // namespace as::test
