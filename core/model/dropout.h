// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Inverted dropout: kept values are scaled by 1 / (1 - p), so evaluation needs no rescaling.
#include "model/parallel.h"
#include "model/rng.h"
#include "model/tensor.h"
#include "train/profile.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <vector>

#if defined(__AVX512F__)
#include <immintrin.h>
#define AS_DROPOUT_AVX512 1
#endif
#if defined(__AVX2__)
#include <immintrin.h>
#define AS_DROPOUT_AVX2 1
#endif

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
// mask depends only on the key and the shape, never on the thread count. fillDropoutMask states
// the rule plainly; Dropout::forward draws the same bits eight blocks at a time
// (dropout_detail::fillBlocks).
inline constexpr long kDropoutBlock = 4096;

inline std::uint64_t dropoutBlockSeed(std::uint64_t key, std::uint64_t block)
{
    std::uint64_t z = key ^ (block * 0xd1b54a32d192ed03ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

// A 24-bit uniform u is dropped when u < p, i.e. when its integer form is below this.
inline std::uint32_t dropoutThreshold(float p)
{
    return std::uint32_t(double(p) * double(1 << 24) + 0.5);
}

// Block `block` of the mask with key `key`, its first `len` elements, into out[0, len).
template <typename T>
void fillDropoutBlock(T* out, long block, long len, std::uint64_t key, std::uint32_t threshold,
                      T scale)
{
    Rng rng(dropoutBlockSeed(key, std::uint64_t(block)));
    long i = 0;
    for (; i + 1 < len; i += 2) {
        const std::uint64_t r = rng.next();
        out[i] = std::uint32_t(r >> 40) < threshold ? T(0) : scale;
        out[i + 1] = std::uint32_t((r >> 8) & 0xffffff) < threshold ? T(0) : scale;
    }
    if (i < len)
        out[i] = std::uint32_t(rng.next() >> 40) < threshold ? T(0) : scale;
}

// Fills mask[begin, end) of the mask with key `key` (begin a multiple of kDropoutBlock):
// 0 where dropped, scale where kept. Also the plain reference for tests.
template <typename T>
void fillDropoutMask(T* mask, long begin, long end, std::uint64_t key, float p, T scale)
{
    const std::uint32_t threshold = dropoutThreshold(p);
    for (long b0 = begin; b0 < end; b0 += kDropoutBlock)
        fillDropoutBlock(mask + b0, b0 / kDropoutBlock, std::min(end, b0 + kDropoutBlock) - b0, key,
                         threshold, scale);
}

namespace dropout_detail {

// The vector fills' common parts. Blocks [g, g + lanes) of the mask, one per lane: each block's
// generator state (st[word][lane]) and length.
inline void laneStates(std::uint64_t (&st)[4][8], long (&len)[8], long g, int lanes, long size,
                       std::uint64_t key)
{
    for (int l = 0; l < lanes; ++l) {
        const Rng::State s = Rng(dropoutBlockSeed(key, std::uint64_t(g + l))).state();
        for (int w = 0; w < 4; ++w)
            st[w][l] = s[std::size_t(w)];
        len[l] = std::min(kDropoutBlock, size - (g + l) * kDropoutBlock);
    }
}

// Elements [e, e + 64) of each lane's block from its 64 drop bits (out: where lane 0's block
// is written, the others following): a whole run by full(out, kept bits), a block's short end
// element by element.
template <typename T, typename Full>
void writeLanes(T* out0, int lanes, const long (&len)[8], long e, const std::uint64_t (&bits)[8],
                T scale, Full full)
{
    for (int l = 0; l < lanes; ++l) {
        const long count = std::min(64L, len[l] - e);
        if (count <= 0)
            continue;
        T* out = out0 + l * kDropoutBlock + e;
        const std::uint64_t kept = ~bits[l];
        if (count < 64) {
            for (long j = 0; j < count; ++j)
                out[j] = (kept >> j) & 1u ? scale : T(0);
        } else {
            full(out, kept);
        }
    }
}

#ifdef AS_DROPOUT_AVX2
// fillBlocks with AVX2 (a CPU without AVX-512: Zen 3, or the sanitizer build of .ci/run): eight
// blocks at a time as there, in two sets of four 64-bit lanes (AVX2 has no 64-bit rotate, no
// unsigned 64-bit compare and no mask registers: shifts, a sign flip and vector masks instead).
// The element-by-element generator it replaces took `small`'s dropout from 3 to 21 ms a step.
// For float and double masks; the caller checks that the threshold fits 24 bits. mask: where
// block blockFrom begins, as fillBlocks.
template <typename T>
void fillBlocksAvx2(T* mask, long size, long blockFrom, long blockTo, std::uint64_t key,
                    std::uint64_t threshold, T scale)
{
    static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>);
    const auto rol = [](__m256i x, int k) {
        return _mm256_or_si256(_mm256_slli_epi64(x, k), _mm256_srli_epi64(x, 64 - k));
    };
    // Unsigned a < b as signed, both with the sign bit flipped.
    const __m256i sign = _mm256_set1_epi64x(static_cast<long long>(0x8000000000000000ULL));
    const __m256i high = _mm256_xor_si256(_mm256_set1_epi64x(static_cast<long long>(threshold << 40)), sign);
    const __m256i low = _mm256_xor_si256(_mm256_set1_epi64x(static_cast<long long>(threshold << 8)), sign);
    const __m256i lowBits = _mm256_set1_epi64x(0xffffff00LL);
    struct Lanes {
        __m256i s0, s1, s2, s3, dropped;
    };
    // One xoshiro256** output per lane (as Rng::next), its two decisions or-ed into `dropped`.
    const auto round = [&](Lanes& x, __m256i even, __m256i odd) {
        __m256i r = _mm256_add_epi64(x.s1, _mm256_slli_epi64(x.s1, 2));  // s1 * 5
        r = rol(r, 7);
        r = _mm256_add_epi64(r, _mm256_slli_epi64(r, 3));  // * 9
        const __m256i t = _mm256_slli_epi64(x.s1, 17);
        x.s2 = _mm256_xor_si256(x.s2, x.s0);
        x.s3 = _mm256_xor_si256(x.s3, x.s1);
        x.s1 = _mm256_xor_si256(x.s1, x.s2);
        x.s0 = _mm256_xor_si256(x.s0, x.s3);
        x.s2 = _mm256_xor_si256(x.s2, t);
        x.s3 = rol(x.s3, 45);
        const __m256i a = _mm256_cmpgt_epi64(high, _mm256_xor_si256(r, sign));
        const __m256i b = _mm256_cmpgt_epi64(low, _mm256_xor_si256(_mm256_and_si256(r, lowBits), sign));
        x.dropped = _mm256_or_si256(x.dropped, _mm256_and_si256(a, even));
        x.dropped = _mm256_or_si256(x.dropped, _mm256_and_si256(b, odd));
    };
    for (long g = blockFrom; g < blockTo; g += 8) {
        const int lanes = int(std::min(8L, blockTo - g));
        alignas(32) std::uint64_t st[4][8] = {};
        long len[8] = {};
        laneStates(st, len, g, lanes, size, key);
        const auto load = [&](int w, int half) {
            return _mm256_load_si256(reinterpret_cast<const __m256i*>(st[w] + 4 * half));
        };
        Lanes x0{load(0, 0), load(1, 0), load(2, 0), load(3, 0), {}};
        Lanes x1{load(0, 1), load(1, 1), load(2, 1), load(3, 1), {}};
        // Lane 0's block is the longest: only the mask's last block is short.
        for (long e = 0; e < len[0]; e += 64) {
            // Bit 2k of a lane: element e + 2k of its block dropped; bit 2k + 1: e + 2k + 1.
            x0.dropped = x1.dropped = _mm256_setzero_si256();
            __m256i even = _mm256_set1_epi64x(1), odd = _mm256_set1_epi64x(2);
            for (int k = 0; k < 32; ++k) {
                round(x0, even, odd);
                round(x1, even, odd);
                even = _mm256_slli_epi64(even, 2);
                odd = _mm256_slli_epi64(odd, 2);
            }
            alignas(32) std::uint64_t bits[8];
            _mm256_store_si256(reinterpret_cast<__m256i*>(bits), x0.dropped);
            _mm256_store_si256(reinterpret_cast<__m256i*>(bits + 4), x1.dropped);
            writeLanes(mask + (g - blockFrom) * kDropoutBlock, lanes, len, e, bits, scale,
                       [scale](T* out, std::uint64_t kept) {
                if constexpr (std::is_same_v<T, float>) {
                    // Eight elements a store: their bits spread over eight 32-bit lanes.
                    const __m256 v = _mm256_set1_ps(scale);
                    const __m256i pick = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
                    for (int q = 0; q < 8; ++q) {
                        const __m256i byte = _mm256_set1_epi32(int((kept >> (8 * q)) & 0xffu));
                        const __m256i on = _mm256_cmpeq_epi32(_mm256_and_si256(byte, pick), pick);
                        _mm256_storeu_ps(out + 8 * q, _mm256_and_ps(_mm256_castsi256_ps(on), v));
                    }
                } else {
                    const __m256d v = _mm256_set1_pd(scale);
                    const __m256i pick = _mm256_setr_epi64x(1, 2, 4, 8);
                    for (int q = 0; q < 16; ++q) {
                        const __m256i nibble = _mm256_set1_epi64x(static_cast<long long>((kept >> (4 * q)) & 0xfu));
                        const __m256i on = _mm256_cmpeq_epi64(_mm256_and_si256(nibble, pick), pick);
                        _mm256_storeu_pd(out + 4 * q, _mm256_and_pd(_mm256_castsi256_pd(on), v));
                    }
                }
            });
        }
    }
}
#endif

// Blocks [blockFrom, blockTo) of a mask of `size` elements, the same values as fillDropoutMask,
// into mask[0, ...): mask is where block blockFrom begins.
// With AVX-512, eight blocks are drawn at once, one per 64-bit lane: a round of the eight
// generators is a dozen vector instructions and decides sixteen elements, where one generator
// stepped element by element took a few instructions per element. Each lane gathers its
// block's decisions as bits, 64 elements at a time, written out as masked stores.
template <typename T>
void fillBlocks(T* mask, long size, long blockFrom, long blockTo, std::uint64_t key, float p,
                T scale)
{
#ifdef AS_DROPOUT_AVX512
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
        const std::uint64_t threshold = dropoutThreshold(p);
        if (threshold < (std::uint64_t(1) << 24)) {
            // r >> 40 < threshold  <=>  r < threshold << 40, and
            // ((r >> 8) & 0xffffff) < threshold  <=>  (r & 0xffffff00) < threshold << 8.
            const __m512i high = _mm512_set1_epi64(static_cast<long long>(threshold << 40));
            const __m512i low = _mm512_set1_epi64(static_cast<long long>(threshold << 8));
            const __m512i lowBits = _mm512_set1_epi64(0xffffff00LL);
            for (long g = blockFrom; g < blockTo; g += 8) {
                const int lanes = int(std::min(8L, blockTo - g));
                alignas(64) std::uint64_t st[4][8] = {};
                long len[8] = {};
                laneStates(st, len, g, lanes, size, key);
                __m512i s0 = _mm512_load_si512(st[0]), s1 = _mm512_load_si512(st[1]);
                __m512i s2 = _mm512_load_si512(st[2]), s3 = _mm512_load_si512(st[3]);
                // Lane 0's block is the longest: only the mask's last block is short.
                for (long e = 0; e < len[0]; e += 64) {
                    // Bit 2k of a lane: element e + 2k of its block dropped; bit 2k + 1: e + 2k + 1.
                    __m512i dropped = _mm512_setzero_si512();
                    __m512i even = _mm512_set1_epi64(1), odd = _mm512_set1_epi64(2);
                    for (int k = 0; k < 32; ++k) {
                        // xoshiro256**, as Rng::next, in every lane
                        __m512i r = _mm512_add_epi64(s1, _mm512_slli_epi64(s1, 2));  // s1 * 5
                        r = _mm512_rol_epi64(r, 7);
                        r = _mm512_add_epi64(r, _mm512_slli_epi64(r, 3));  // * 9
                        const __m512i t = _mm512_slli_epi64(s1, 17);
                        s2 = _mm512_xor_si512(s2, s0);
                        s3 = _mm512_xor_si512(s3, s1);
                        s1 = _mm512_xor_si512(s1, s2);
                        s0 = _mm512_xor_si512(s0, s3);
                        s2 = _mm512_xor_si512(s2, t);
                        s3 = _mm512_rol_epi64(s3, 45);
                        const __mmask8 a = _mm512_cmplt_epu64_mask(r, high);
                        const __mmask8 b = _mm512_cmplt_epu64_mask(_mm512_and_si512(r, lowBits), low);
                        dropped = _mm512_mask_or_epi64(dropped, a, dropped, even);
                        dropped = _mm512_mask_or_epi64(dropped, b, dropped, odd);
                        even = _mm512_slli_epi64(even, 2);
                        odd = _mm512_slli_epi64(odd, 2);
                    }
                    alignas(64) std::uint64_t bits[8];
                    _mm512_store_si512(bits, dropped);
                    writeLanes(mask + (g - blockFrom) * kDropoutBlock, lanes, len, e, bits, scale,
                               [scale](T* out, std::uint64_t kept) {
                        if constexpr (std::is_same_v<T, float>) {
                            const __m512 v = _mm512_set1_ps(scale);
                            for (int q = 0; q < 4; ++q)
                                _mm512_storeu_ps(out + 16 * q, _mm512_maskz_mov_ps(__mmask16(kept >> (16 * q)), v));
                        } else {
                            const __m512d v = _mm512_set1_pd(scale);
                            for (int q = 0; q < 8; ++q)
                                _mm512_storeu_pd(out + 8 * q, _mm512_maskz_mov_pd(__mmask8(kept >> (8 * q)), v));
                        }
                    });
                }
            }
            return;
        }
    }
#elif defined(AS_DROPOUT_AVX2)
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
        const std::uint64_t threshold = dropoutThreshold(p);
        if (threshold < (std::uint64_t(1) << 24)) {
            fillBlocksAvx2(mask, size, blockFrom, blockTo, key, threshold, scale);
            return;
        }
    }
#endif
    const std::uint32_t threshold = dropoutThreshold(p);
    for (long b = blockFrom; b < blockTo; ++b)
        fillDropoutBlock(mask + (b - blockFrom) * kDropoutBlock, b,
                         std::min(kDropoutBlock, size - b * kDropoutBlock), key, threshold, scale);
}

// A kept mask as bits: bit i of words[w] says element 64 w + i was kept (the mask is not 0
// there). Packs the mask's elements m[0, len) into words[0, ⌈len / 64⌉), the bits past len 0.
template <typename T>
void packKept(const T* m, long len, std::uint64_t* words)
{
    long w = 0;
#if defined(AS_DROPOUT_AVX512) || defined(AS_DROPOUT_AVX2)
    if constexpr (std::is_same_v<T, float>) {
        // One vector's elements: a bit each, set where not 0.
#if defined(AS_DROPOUT_AVX512)
        constexpr int kLanes = 16;
        const auto bitsOf = [](const float* q) {
            return std::uint64_t(_mm512_cmp_ps_mask(_mm512_loadu_ps(q), _mm512_setzero_ps(), _CMP_NEQ_UQ));
        };
#else
        constexpr int kLanes = 8;
        const auto bitsOf = [](const float* q) {
            return std::uint64_t(unsigned(
                _mm256_movemask_ps(_mm256_cmp_ps(_mm256_loadu_ps(q), _mm256_setzero_ps(), _CMP_NEQ_UQ))));
        };
#endif
        for (; 64 * w + 64 <= len; ++w) {
            std::uint64_t bits = 0;
            for (int k = 0; k < 64 / kLanes; ++k)
                bits |= bitsOf(m + 64 * w + kLanes * k) << (kLanes * k);
            words[w] = bits;
        }
    }
#endif
    for (; 64 * w < len; ++w) {
        const long n = std::min(64L, len - 64 * w);
        std::uint64_t bits = 0;
        for (long i = 0; i < n; ++i)
            bits |= std::uint64_t(m[64 * w + i] != T(0)) << i;
        words[w] = bits;
    }
}

// out[i] = in[i] · (scale if element first + i was kept, else 0), for i in [0, len): the same
// products as in · mask with the mask's floats (a dropped element's 0 keeps in's sign, and a NaN
// stays NaN). out may be in.
template <typename T>
void applyKept(const std::uint64_t* words, long first, long len, const T* in, T* out, T scale)
{
    long i = 0;
    const auto one = [&](long j) {
        const long e = first + j;
        out[j] = in[j] * ((words[e >> 6] >> (e & 63)) & 1u ? scale : T(0));
    };
    for (; i < len && ((first + i) & 63) != 0; ++i)
        one(i);
#if defined(AS_DROPOUT_AVX512)
    if constexpr (std::is_same_v<T, float>) {
        const __m512 s = _mm512_set1_ps(scale);
        for (; i + 64 <= len; i += 64) {
            const std::uint64_t bits = words[(first + i) >> 6];
            for (int k = 0; k < 4; ++k) {
                const __m512 m = _mm512_maskz_mov_ps(__mmask16(bits >> (16 * k)), s);
                _mm512_storeu_ps(out + i + 16 * k, _mm512_mul_ps(_mm512_loadu_ps(in + i + 16 * k), m));
            }
        }
    }
#elif defined(AS_DROPOUT_AVX2)
    if constexpr (std::is_same_v<T, float>) {
        const __m256 s = _mm256_set1_ps(scale);
        const __m256i lane = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
        for (; i + 64 <= len; i += 64) {
            const std::uint64_t bits = words[(first + i) >> 6];
            for (int k = 0; k < 8; ++k) {
                const __m256i byte = _mm256_set1_epi32(int((bits >> (8 * k)) & 0xff));
                const __m256i on = _mm256_cmpeq_epi32(_mm256_and_si256(byte, lane), lane);
                const __m256 m = _mm256_and_ps(_mm256_castsi256_ps(on), s);
                _mm256_storeu_ps(out + i + 8 * k, _mm256_mul_ps(_mm256_loadu_ps(in + i + 8 * k), m));
            }
        }
    }
#endif
    for (; i < len; ++i)
        one(i);
}

// Room for eight blocks of mask, for the thread that calls it: the chunk scratch of
// core/model/parallel.h, which every Dropout draws its mask into (and DropoutMaskStream), so
// the buffer is in that thread's cache when the next one draws. A buffer per layer and chunk,
// as before, was last written a whole step earlier, and one of the two was slow to write:
// `small`, 2 threads, drew eight blocks in 11 us into its layers' second buffers and in 6.6 us
// into their first (which buffer, not which thread, decided it), and the first thread waited
// for the second 2 ms a step in Dropout. A chunk runs on one thread from start to end, and
// nothing it calls draws another mask, so one buffer per thread is enough.
template <typename T>
T* threadScratch()
{
    static_assert(8 * kDropoutBlock * sizeof(T) <= kChunkScratchBytes);
    return reinterpret_cast<T*>(chunkScratch());
}

}  // namespace dropout_detail

// A mask read in order, range by range, by a pass that applies it itself and keeps none of it:
// attention applies it to each head's probabilities while they are in cache, and its backward
// needs no mask (core/model/attention.cpp). The values are those of the mask of `size` elements
// with this key, as Dropout's; they are drawn into a buffer eight blocks at a time, so ranges
// read in increasing order draw each block once, into the calling thread's buffer
// (dropout_detail::threadScratch, which Dropout draws into too): a stream is read by one chunk
// of a parallel region, from start() on, and nothing else draws a mask meanwhile.
template <typename T>
class DropoutMaskStream {
public:
    // A new mask. end: where this reader's last range ends (blocks past it are never drawn).
    void start(long size, long end, std::uint64_t key, float p, T scale)
    {
        size_ = size;
        end_ = std::min(end, size);
        key_ = key;
        p_ = p;
        scale_ = scale;
        from_ = to_ = 0;
    }

    // The longest range one call may ask for: wherever it starts, it lies in eight blocks, the
    // size of the thread's buffer.
    static constexpr long kMaxRange = 7 * kDropoutBlock;

    // Elements [begin, end) of the mask (end - begin <= kMaxRange), valid until the next call.
    const T* range(long begin, long end)
    {
        if (end - begin > kMaxRange)
            throw std::logic_error("DropoutMaskStream::range: longer than kMaxRange");
        if (begin < from_ * kDropoutBlock || end > std::min(size_, to_ * kDropoutBlock)) {
            from_ = begin / kDropoutBlock;
            const long last = (std::max(end, end_) + kDropoutBlock - 1) / kDropoutBlock;
            to_ = std::max((end + kDropoutBlock - 1) / kDropoutBlock, std::min(from_ + 8, last));
            buf_ = dropout_detail::threadScratch<T>();
            dropout_detail::fillBlocks(buf_, size_, from_, to_, key_, p_, scale_);
        }
        return buf_ + (begin - from_ * kDropoutBlock);
    }

private:
    long size_ = 0, end_ = 0;
    std::uint64_t key_ = 0;
    float p_ = 0;
    T scale_ = T(1);
    long from_ = 0, to_ = 0;  // the blocks in buf_
    T* buf_ = nullptr;
};

template <typename T>
struct Dropout {
    // The last active forward's mask as bits (dropout_detail::packKept, row-major over x's
    // shape): a bit per element, where a float mask was 32. Empty when inactive or not kept.
    std::vector<std::uint64_t> keptBits;
    long maskRows = 0, maskCols = 0;  // the shape it covers
    bool active = false;
    T scale = T(1);  // 1 / (1 - p) of the last active forward
    // Off for a layer whose backward reads the mask off its output (the feed-forward layer's
    // ReLU and dropout: kept where the output is > 0): the mask is then only drawn into the
    // scratch of eight blocks per thread and applied from there, and backward() must not be
    // called.
    bool keepMask = true;

    // x: any shape, in place.
    void forward(Out<T> x, double p, const Pass& pass) { forward(x, x, p, pass); }

    // dst = dropout(src), src and dst of the same shape (they may be the same matrix). With
    // relu set, dst = dropout(max(src, 0)): the feed-forward layer's two passes in one. With
    // bias (a row of src's width), src + bias in place of src: the bias of the product that
    // made src, which left it out (Linear::forward), added as each row is read.
    void forward(In<T> src, Out<T> dst, double p, const Pass& pass, bool relu = false,
                 const T* bias = nullptr)
    {
        apply(src, dst, p, pass, relu, bias, nullptr, nullptr);
    }

    // x = dropout(x) in place and sum = residual + x: a sublayer's output and the residual
    // connection around it (core/SPEC.md §2) in one parallel pass over the rows, while they are
    // in cache, where a second pass (on one thread) read them again. sum may be residual. With
    // bias, x = dropout(x + bias).
    void forwardAdd(Out<T> x, In<T> residual, Out<T> sum, double p, const Pass& pass,
                    const T* bias = nullptr)
    {
        apply(x, x, p, pass, false, bias, &residual, &sum);
    }

    // The kept mask as a matrix: 0 or scale (1 / (1 - p)); empty when none is kept.
    Mat<T> mask() const
    {
        if (!active || !keepMask)
            return Mat<T>();
        Mat<T> m(maskRows, maskCols);
        const Mat<T> ones = Mat<T>::Ones(maskRows, maskCols);
        dropout_detail::applyKept(keptBits.data(), 0, long(m.size()), ones.data(), m.data(), scale);
        return m;
    }

    // dx: same shape as forward's x, in place.
    void backward(Out<T> dx) const { backward(dx, dx); }

    // dx = dy through the mask (a copy when the last forward dropped nothing); dx may be dy.
    void backward(In<T> dy, Out<T> dx) const
    {
        if (active && !keepMask)
            throw std::logic_error("Dropout::backward: this layer's mask was not kept");
        const ProfileScope timed(ProfileCategory::Dropout);
        const long rows = long(dy.rows());
        parallelFor(rows, std::max(1L, 16384 / std::max(1L, long(dy.cols()))),
                    [&](long from, long to) {
                        if (active) {
                            const long cols = long(dy.cols());
                            for (long r = from; r < to; ++r)
                                dropout_detail::applyKept(keptBits.data(), r * cols, cols,
                                                          dy.row(r).data(), dx.row(r).data(), scale);
                        } else if (dx.data() != dy.data()) {
                            dx.middleRows(from, to - from) = dy.middleRows(from, to - from);
                        }
                    });
    }

private:
    // dst = dropout(src + bias) (of max(src + bias, 0) with relu; without bias, of src), and
    // then, if residual is given, sum = residual + dst, range by range.
    void apply(In<T> src, Out<T> dst, double p, const Pass& pass, bool relu, const T* bias,
               const Eigen::Ref<const Mat<T>>* residual, Out<T>* sum)
    {
        const ProfileScope timed(ProfileCategory::Dropout);
        active = pass.train && p > 0.0;
        const long cols = long(src.cols());
        using Row = Eigen::Array<T, 1, Eigen::Dynamic>;
        if (!active) {
            // Nothing dropped: dst = src (+ bias), through relu, and the sum, over rows in
            // parallel.
            parallelFor(long(src.rows()), std::max(1L, 16384 / std::max(1L, cols)),
                        [&](long from, long to) {
                            for (long r = from; r < to; ++r) {
                                auto d = dst.row(r).array();
                                if (bias)
                                    d = src.row(r).array() + Eigen::Map<const Row>(bias, cols);
                                else if (src.data() != dst.data())
                                    d = src.row(r).array();
                                if (relu)
                                    d = d.max(T(0));
                                if (residual)
                                    sum->row(r) = residual->row(r) + dst.row(r);
                            }
                        });
            return;
        }
        const std::uint64_t key = pass.rng->next();
        scale = T(1.0 / (1.0 - p));
        const float pf = float(p);
        const long size = long(src.size());
        const long blocks = (size + kDropoutBlock - 1) / kDropoutBlock;
        // The mask is drawn eight blocks at a time into a per-thread scratch and applied from
        // there; a kept one is packed to bits from it.
        maskRows = long(src.rows());
        maskCols = cols;
        keptBits.resize(keepMask ? std::size_t((size + 63) / 64) : 0);
        // Rows without gaps between them: a run of the mask is one run of src and of dst too.
        // (A bias goes row by row: its entry is the element's column.)
        const bool flat = !bias && long(src.outerStride()) == cols && long(dst.outerStride()) == cols
                          && (!residual
                              || (long(residual->outerStride()) == cols
                                  && long(sum->outerStride()) == cols));
        parallelChunks(blocks, 4, [&](int, long bFrom, long bTo) {
            T* const mk = dropout_detail::threadScratch<T>();
            // Eight blocks at a time (128 KiB of float mask): applied while in L2.
            for (long g = bFrom; g < bTo; g += 8) {
                const long gTo = std::min(bTo, g + 8);
                const long begin = g * kDropoutBlock;
                const long end = std::min(size, gTo * kDropoutBlock);
                // The mask's elements [begin, end), in this thread's scratch (begin is a
                // multiple of 64: its bits start a word).
                dropout_detail::fillBlocks(mk, size, g, gTo, key, pf, scale);
                if (keepMask)
                    dropout_detail::packKept(mk, end - begin, keptBits.data() + begin / 64);
                if (flat) {
                    using Arr = Eigen::Array<T, Eigen::Dynamic, 1>;
                    const Eigen::Map<const Arr> m(mk, end - begin);
                    const Eigen::Map<const Arr> s(src.data() + begin, end - begin);
                    Eigen::Map<Arr> d(dst.data() + begin, end - begin);
                    if (relu)
                        d = s.max(T(0)) * m;
                    else
                        d = s * m;
                    if (residual) {
                        const Eigen::Map<const Arr> r(residual->data() + begin, end - begin);
                        Eigen::Map<Arr>(sum->data() + begin, end - begin) = r + d;
                    }
                    continue;
                }
                // src and dst are row-major with possibly different row strides: go row by row
                // over the rows this range touches.
                for (long r = begin / cols; r * cols < end; ++r) {
                    const long c0 = std::max(begin - r * cols, 0L);
                    const long c1 = std::min(end - r * cols, cols);
                    const Eigen::Map<const Row> m(mk + (r * cols + c0 - begin), c1 - c0);
                    const auto s = src.row(r).segment(c0, c1 - c0).array();
                    auto d = dst.row(r).segment(c0, c1 - c0).array();
                    if (bias) {
                        const Eigen::Map<const Row> b(bias + c0, c1 - c0);
                        if (relu)
                            d = (s + b).max(T(0)) * m;
                        else
                            d = (s + b) * m;
                    } else if (relu) {
                        d = s.max(T(0)) * m;
                    } else {
                        d = s * m;
                    }
                    if (residual)
                        sum->row(r).segment(c0, c1 - c0).array() =
                            residual->row(r).segment(c0, c1 - c0).array() + d;
                }
            }
        });
    }
};

}  // namespace as
