// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/linear.h"

#include "model/gemm.h"
#include "model/parallel.h"

#include <algorithm>

namespace as {

template <typename T>
Linear<T> Linear<T>::make(ParamStore<T>& ps, const std::string& prefix, int in, int out,
                          bool withBias)
{
    Linear l;
    l.ps = &ps;
    l.in = in;
    l.out = out;
    l.w = ps.addMatrix(prefix + ".weight", out, in);
    l.b = withBias ? ps.addVector(prefix + ".bias", out) : kNoBias;
    return l;
}

template <typename T>
Linear<T> Linear<T>::makeTied(ParamStore<T>& ps, const std::string& prefix, std::size_t weight,
                              int in, int out, bool withBias)
{
    Linear l;
    l.ps = &ps;
    l.in = in;
    l.out = out;
    l.w = weight;
    l.b = withBias ? ps.addVector(prefix + ".bias", out) : kNoBias;
    return l;
}

// Rows per thread below which splitting a product costs more than it saves.
constexpr long kMinRows = 32;

namespace {
// The site of a product (model/gemm.h: which library computes it): the layer's kind.
GemmKind gemmKindOf(ProfileCategory kind)
{
    switch (kind) {
    case ProfileCategory::GemmAttentionProjections: return GemmKind::Projections;
    case ProfileCategory::GemmFeedForward: return GemmKind::FeedForward;
    case ProfileCategory::GemmGenerator: return GemmKind::Generator;
    default: return GemmKind::Other;
    }
}
}  // namespace

template <typename T>
void Linear<T>::forward(In<T> x, Out<T> y, bool withBias) const
{
    withBias = withBias && hasBias();
    profileWork(kind, 1, 2.0 * double(x.rows()) * in * out);
    const ProfileScope region(kind);  // the region's start and wait are the product's
    if (chunkCount(x.rows(), kMinRows) < engineThreads() && x.rows() < out) {
        // Too few rows to split (a sentence being translated): split the output features.
        parallelFor(out, kMinRows, [&](long b, long e) {
            const ProfileScope timed(kind);
            gemm<T>(x, false, weight().middleRows(b, e - b), true, y.middleCols(b, e - b), false,
                    gemmKindOf(kind), GemmPass::Forward, withBias ? bias().data() + b : nullptr);
        });
        return;
    }
    // y = x Wᵀ + b: the bias added by the product (model/gemm.h).
    parallelFor(x.rows(), kMinRows, [&](long b, long e) {
        const ProfileScope timed(kind);
        gemm<T>(x.middleRows(b, e - b), false, weight(), true, y.middleRows(b, e - b), false,
                gemmKindOf(kind), GemmPass::Forward, withBias ? bias().data() : nullptr);
    });
}

// The parameters' gradient for output features [b, e): dW[b:e] += dy[:, b:e]ᵀ x and
// db[b:e] += the column sums of dy[:, b:e].
template <typename T>
void Linear<T>::paramsPart(In<T> x, In<T> dy, long b, long e, bool withBias) const
{
    {
        const ProfileScope timed(kind);
        gemm<T>(dy.middleCols(b, e - b), true, x, false, weightGrad().middleRows(b, e - b), true,
                gemmKindOf(kind), GemmPass::WeightGradient);
    }
    if (!withBias || !hasBias())
        return;
    const ProfileScope timed(ProfileCategory::Bias);
    // A row at a time: each row's segment is contiguous and the sums stay in cache.
    auto db = biasGrad().segment(b, e - b);
    for (Eigen::Index r = 0; r < dy.rows(); ++r)
        db += dy.row(r).segment(b, e - b);
}

// The input's gradient for rows [b, e): dx[b:e] (+)= dy[b:e] W.
template <typename T>
void Linear<T>::inputPart(In<T> dy, Out<T> dx, bool accumulate, long b, long e) const
{
    const ProfileScope timed(kind);
    gemm<T>(dy.middleRows(b, e - b), false, weight(), false, dx.middleRows(b, e - b), accumulate,
            gemmKindOf(kind), GemmPass::InputGradient);
}

// Parameters: split over output features, so that each thread owns rows of dW and entries of
// db. Input: split over rows.
template <typename T>
void Linear<T>::backwardParams(In<T> x, In<T> dy) const
{
    profileWork(kind, 1, 2.0 * double(x.rows()) * in * out);
    const ProfileScope region(kind);
    parallelFor(out, 8, [&](long b, long e) { paramsPart(x, dy, b, e); });
}

template <typename T>
void Linear<T>::backwardInput(In<T> dy, Out<T> dx, bool accumulate) const
{
    profileWork(kind, 1, 2.0 * double(dy.rows()) * in * out);
    const ProfileScope region(kind);
    parallelFor(dy.rows(), kMinRows, [&](long b, long e) { inputPart(dy, dx, accumulate, b, e); });
}

template <typename T>
void Linear<T>::backward(In<T> x, In<T> dy, Out<T> dx, bool accumulate,
                         const FunctionRef<void(long, long)>* rowsDone, bool biasGradTaken) const
{
    profileWork(kind, 2, 2 * 2.0 * double(x.rows()) * in * out);
    const ProfileScope region(kind);
    // One parallel region for both: chunk c takes the c-th part of each split (the same parts
    // as backwardParams and backwardInput make), so the threads start and meet once.
    const long n = dy.rows();
    const int paramChunks = chunkCount(out, 8), inputChunks = chunkCount(n, kMinRows);
    parallelChunks(std::max(paramChunks, inputChunks), 1, [&](int, long c0, long c1) {
        for (long c = c0; c < c1; ++c) {
            if (c < paramChunks)
                paramsPart(x, dy, out * c / paramChunks, out * (c + 1) / paramChunks,
                           !biasGradTaken);
            if (c < inputChunks) {
                const long b = n * c / inputChunks, e = n * (c + 1) / inputChunks;
                inputPart(dy, dx, accumulate, b, e);
                if (rowsDone)
                    (*rowsDone)(b, e);
            }
        }
    });
}

template struct Linear<float>;
template struct Linear<double>;

}  // namespace as
