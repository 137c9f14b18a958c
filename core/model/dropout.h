#pragma once
// Inverted dropout: kept values are scaled by 1 / (1 - p), so evaluation needs no rescaling.
#include "model/parallel.h"
#include "model/rng.h"
#include "model/tensor.h"
#include "train/profile.h"

#include <algorithm>
#include <cstdint>

namespace as {

// What a forward pass is: training (dropout on, drawn from rng) or evaluation (dropout off).
struct Pass {
    bool train = false;
    Rng* rng = nullptr;
    static Pass eval() { return {}; }
    static Pass training(Rng& r) { return {true, &r}; }
};

// How a mask is drawn. One number is taken from the pass's generator: the mask's key. The mask
// is cut into fixed blocks of kDropoutBlock elements; block b draws from its own xoshiro256**
// generator seeded with mix(key, b), and each 64-bit output decides two elements (its high and
// its low 24-bit halves). The blocks are independent, so threads fill them in parallel, and the
// mask depends only on the key and the shape, never on the thread count.
inline constexpr long kDropoutBlock = 4096;

inline std::uint64_t dropoutBlockSeed(std::uint64_t key, std::uint64_t block)
{
    std::uint64_t z = key ^ (block * 0xd1b54a32d192ed03ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

// Fills mask[begin, end) of the mask with key `key` (begin a multiple of kDropoutBlock):
// 0 where dropped, scale where kept. Also the plain reference for tests.
template <typename T>
void fillDropoutMask(T* mask, long begin, long end, std::uint64_t key, float p, T scale)
{
    // A 24-bit uniform u is dropped when u < p, i.e. when its integer form is below p * 2^24.
    const std::uint32_t threshold = std::uint32_t(double(p) * double(1 << 24) + 0.5);
    for (long b0 = begin; b0 < end; b0 += kDropoutBlock) {
        Rng rng(dropoutBlockSeed(key, std::uint64_t(b0 / kDropoutBlock)));
        const long b1 = std::min(end, b0 + kDropoutBlock);
        long i = b0;
        for (; i + 1 < b1; i += 2) {
            const std::uint64_t r = rng.next();
            mask[i] = std::uint32_t(r >> 40) < threshold ? T(0) : scale;
            mask[i + 1] = std::uint32_t((r >> 8) & 0xffffff) < threshold ? T(0) : scale;
        }
        if (i < b1)
            mask[i] = std::uint32_t(rng.next() >> 40) < threshold ? T(0) : scale;
    }
}

template <typename T>
struct Dropout {
    Mat<T> mask;  // [same shape as x]: 0 or 1 / (1 - p); empty when inactive
    bool active = false;
    T scale = T(1);  // 1 / (1 - p) of the last active forward

    // x: any shape, in place.
    void forward(Out<T> x, double p, const Pass& pass) { forward(x, x, p, pass); }

    // dst = dropout(src), src and dst of the same shape (they may be the same matrix). With
    // relu set, dst = dropout(max(src, 0)): the feed-forward layer's two passes in one.
    void forward(In<T> src, Out<T> dst, double p, const Pass& pass, bool relu = false)
    {
        const ProfileScope timed(ProfileCategory::Dropout);
        active = pass.train && p > 0.0;
        if (!active) {
            if (relu)
                dst = src.cwiseMax(T(0));
            else if (src.data() != dst.data())
                dst = src;
            return;
        }
        mask.resize(src.rows(), src.cols());
        const std::uint64_t key = pass.rng->next();
        scale = T(1.0 / (1.0 - p));
        const float pf = float(p);
        const long size = long(mask.size());
        const long cols = long(src.cols());
        const long blocks = (size + kDropoutBlock - 1) / kDropoutBlock;
        parallelFor(blocks, 4, [&](long bFrom, long bTo) {
            const long begin = bFrom * kDropoutBlock;
            const long end = std::min(size, bTo * kDropoutBlock);
            fillDropoutMask(mask.data(), begin, end, key, pf, scale);
            // src and dst are row-major with possibly different row strides: go row by row
            // over the rows this range touches.
            for (long r = begin / cols; r * cols < end; ++r) {
                const long c0 = std::max(begin - r * cols, 0L);
                const long c1 = std::min(end - r * cols, cols);
                const auto m = mask.row(r).segment(c0, c1 - c0).array();
                const auto s = src.row(r).segment(c0, c1 - c0).array();
                if (relu)
                    dst.row(r).segment(c0, c1 - c0).array() = s.max(T(0)) * m;
                else
                    dst.row(r).segment(c0, c1 - c0).array() = s * m;
            }
        });
    }

    // dx: same shape as forward's x, in place.
    void backward(Out<T> dx) const
    {
        if (!active)
            return;
        const ProfileScope timed(ProfileCategory::Dropout);
        const long rows = long(dx.rows());
        parallelFor(rows, std::max(1L, 16384 / std::max(1L, long(dx.cols()))),
                    [&](long from, long to) {
                        dx.middleRows(from, to - from).array() *=
                            mask.middleRows(from, to - from).array();
                    });
    }
};

}  // namespace as
