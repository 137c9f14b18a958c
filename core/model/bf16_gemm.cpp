// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The engine's own bfloat16 product (model/bf16.h, gemmBf16Packed): AVX512-BF16's dot products
// (VDPBF16PS) on operands rounded to bfloat16 while they are packed for the kernel. oneDNN's
// product needs them rounded first, into a copy, then packs that copy again: two passes over
// each operand where this takes one. The blocking is the one of Goto's and BLIS's GEMMs:
//
//   for each block of B's columns (kNc)            B's block, packed: kKc × kNc, in L2
//     for each block of the inner dimension (kKc)
//       pack B's block
//       for each block of A's rows (kMc)           A's block, packed: kMc × kKc, in L1/L2
//         pack A's block
//         for each panel of kNr of B's columns     B's panel: kKc × kNr, in L1
//           for each panel of kMr of A's rows      the micro-kernel: a kMr × kNr tile of C
//
// Both operands are packed as pairs of the inner dimension: VDPBF16PS multiplies, in each 32-bit
// lane, the two bfloat16 numbers of one operand by the two of the other and adds both products
// to the lane's float32 sum. A's panel holds, for each pair p, its kMr rows' pairs (each a 32-bit
// word the kernel broadcasts); B's panel, for each pair, its kNr columns' pairs (two vectors).
// An odd inner dimension, and rows or columns past the matrix, are packed as zeros; the kernel
// writes only C's elements that exist.
#include "model/bf16.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>

#include <QtGlobal>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define AS_BF16_OWN_KERNEL 1
#endif

namespace as {

#ifdef AS_BF16_OWN_KERNEL
namespace {

#define AS_BF16_KERNEL_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512bf16")))

// The tile of C the micro-kernel computes: 12 rows × 32 columns, 24 float32 vectors held in
// registers (of 32), beside B's two vectors of the pair; A's pairs are broadcast from memory.
constexpr int kOwnMr = 12, kOwnNr = 32;
// The blocks: the inner dimension 256 at a time (B's panel 16 KiB, A's 6 KiB: both in L1);
// A's rows 96 at a time (48 KiB); B's columns 1024 (512 KiB: L2).
constexpr int kOwnKc = 256, kOwnMc = 96, kOwnNc = 1024;
static_assert(kOwnKc % 32 == 0 && kOwnMc % kOwnMr == 0 && kOwnNc % kOwnNr == 0);
constexpr int kOwnPairs = kOwnKc / 2;

thread_local long long tOwnRoundedElements = 0;

// The packed blocks of the calling thread, made at its first product (fixed sizes: 48 KiB and
// 512 KiB), 64-byte aligned for the kernel's loads.
struct OwnPacks {
    std::uint32_t* a = nullptr;
    std::uint32_t* b = nullptr;
    OwnPacks()
    {
        a = static_cast<std::uint32_t*>(std::aligned_alloc(64, sizeof(std::uint32_t) * kOwnMc * kOwnPairs));
        b = static_cast<std::uint32_t*>(std::aligned_alloc(64, sizeof(std::uint32_t) * kOwnNc * kOwnPairs));
        if (!a || !b) {
            std::free(a);
            std::free(b);
            throw std::bad_alloc();
        }
    }
    ~OwnPacks()
    {
        std::free(a);
        std::free(b);
    }
    OwnPacks(const OwnPacks&) = delete;
    OwnPacks& operator=(const OwnPacks&) = delete;
};

AS_BF16_KERNEL_TARGET inline __mmask16 firstLanes(int count)
{
    return count >= 16 ? __mmask16(0xffff) : count <= 0 ? __mmask16(0) : __mmask16((1u << count) - 1u);
}

// Two rows of 16 float32 numbers (x, y: the inner dimension's elements 2p and 2p + 1 for 16
// rows of A or columns of B), rounded, as 16 pairs: lane j holds x[j] in its low half, y[j] in
// its high half.
AS_BF16_KERNEL_TARGET inline __m512i pairsOf(__m512 x, __m512 y)
{
    const __m512i both = __m512i(_mm512_cvtne2ps_pbh(y, x));  // x's 16 in the low half, y's in the high
    const __m512i interleave = _mm512_set_epi16(31, 15, 30, 14, 29, 13, 28, 12, 27, 11, 26, 10, 25, 9, 24, 8, 23, 7,
                                                22, 6, 21, 5, 20, 4, 19, 3, 18, 2, 17, 1, 16, 0);
    return _mm512_permutexvar_epi16(interleave, both);
}

// 32 consecutive float32 numbers of a row (count of them there, the rest zeros), rounded: the
// 16 pairs of the inner dimension they make, in order.
AS_BF16_KERNEL_TARGET inline __m512i pairsAlong(const float* x, int count)
{
    const __m512 lo = _mm512_maskz_loadu_ps(firstLanes(count), x);
    const __m512 hi = _mm512_maskz_loadu_ps(firstLanes(count - 16), x + 16);
    return __m512i(_mm512_cvtne2ps_pbh(hi, lo));
}

// r[i]'s 32-bit word j to r[j]'s word i.
AS_BF16_KERNEL_TARGET inline void transpose16(__m512i r[16])
{
    __m512i t[16];
    for (int i = 0; i < 16; i += 2) {
        t[i] = _mm512_unpacklo_epi32(r[i], r[i + 1]);
        t[i + 1] = _mm512_unpackhi_epi32(r[i], r[i + 1]);
    }
    for (int i = 0; i < 16; i += 4) {
        r[i] = _mm512_unpacklo_epi64(t[i], t[i + 2]);
        r[i + 1] = _mm512_unpackhi_epi64(t[i], t[i + 2]);
        r[i + 2] = _mm512_unpacklo_epi64(t[i + 1], t[i + 3]);
        r[i + 3] = _mm512_unpackhi_epi64(t[i + 1], t[i + 3]);
    }
    for (int h = 0; h < 16; h += 8)
        for (int i = 0; i < 4; ++i) {
            t[h + i] = _mm512_shuffle_i32x4(r[h + i], r[h + i + 4], 0x88);
            t[h + i + 4] = _mm512_shuffle_i32x4(r[h + i], r[h + i + 4], 0xdd);
        }
    for (int i = 0; i < 8; ++i) {
        r[i] = _mm512_shuffle_i32x4(t[i], t[i + 8], 0x88);
        r[i + 8] = _mm512_shuffle_i32x4(t[i], t[i + 8], 0xdd);
    }
}

// `lines` (at most 16) runs of the inner dimension, each along its own stored row (line l at
// x + l·ld, elements [0, depth)), packed as pairs: the pair p of line l to out[p·stride + l],
// for p below (depth + 1) / 2. A's rows where A is stored as is, B's columns where B is stored
// transposed.
AS_BF16_KERNEL_TARGET void packAlongRows(const float* x, std::size_t ld, int lines, int depth, std::uint32_t* out,
                                         int stride, int width)
{
    const int pairs = (depth + 1) / 2;
    const __mmask16 store = firstLanes(width);
    for (int p0 = 0; p0 < pairs; p0 += 16) {
        __m512i r[16];
        for (int l = 0; l < 16; ++l)
            r[l] = l < lines ? pairsAlong(x + std::size_t(l) * ld + 2 * p0, depth - 2 * p0) : _mm512_setzero_si512();
        transpose16(r);
        for (int p = 0; p < 16 && p0 + p < pairs; ++p)
            _mm512_mask_storeu_epi32(out + std::size_t(p0 + p) * std::size_t(stride), store, r[p]);
    }
}

// The inner dimension running down the stored rows (row q at x + q·ld, q in [0, depth)), `lines`
// consecutive elements of each (A's rows where A is stored transposed, B's columns where B is
// stored as is), packed into panels of `width` lines, panelStride apart: the pair of rows p of
// line l to out[(l / width)·panelStride + p·width + l % width]; the last panel's lines past
// `lines` zeros. Each pair of rows is read once, along the rows, for all the panels (walking
// down a panel's 64 bytes of each row at a time was twice as slow: 0.7 cycles an element).
AS_BF16_KERNEL_TARGET void packDownRows(const float* x, std::size_t ld, int lines, int depth, std::uint32_t* out,
                                        int width, std::size_t panelStride)
{
    for (int q = 0; q < depth; q += 2) {
        const float* even = x + std::size_t(q) * ld;
        const float* odd = q + 1 < depth ? even + ld : nullptr;
        std::uint32_t* pair = out + std::size_t(q / 2) * std::size_t(width);
        for (int l0 = 0; l0 < lines; l0 += width, pair += panelStride)
            for (int h = 0; h < width; h += 16) {
                const __mmask16 load = firstLanes(lines - l0 - h);
                const __m512 e = _mm512_maskz_loadu_ps(load, even + l0 + h);
                const __m512 o = odd ? _mm512_maskz_loadu_ps(load, odd + l0 + h) : _mm512_setzero_ps();
                if (q + 5 < depth) {  // the rows two pairs on: the prefetcher misses the stride
                    _mm_prefetch(reinterpret_cast<const char*>(even + 4 * ld + l0 + h), _MM_HINT_T0);
                    _mm_prefetch(reinterpret_cast<const char*>(even + 5 * ld + l0 + h), _MM_HINT_T0);
                }
                _mm512_mask_storeu_epi32(pair + h, firstLanes(width - h), pairsOf(e, o));
            }
    }
}

// C's tile (rows × the columns masks m0, m1 allow; ldc apart) = or += A's panel times B's; where
// not added to C and given the tile's columns' bias, = A's panel times B's + the bias.
AS_BF16_KERNEL_TARGET void ownMicroKernel(int pairs, const std::uint32_t* ap, const std::uint32_t* bp, float* c,
                                          std::size_t ldc, int rows, __mmask16 m0, __mmask16 m1, bool add,
                                          const float* bias)
{
    __m512 acc[kOwnMr][2];
#pragma GCC unroll 12
    for (int i = 0; i < kOwnMr; ++i) {
        acc[i][0] = acc[i][1] = _mm512_setzero_ps();
        if (i < rows) {  // C's tile, wanted at the end: in L1 by then
            _mm_prefetch(reinterpret_cast<const char*>(c + std::size_t(i) * ldc), _MM_HINT_T0);
            _mm_prefetch(reinterpret_cast<const char*>(c + std::size_t(i) * ldc + 16), _MM_HINT_T0);
        }
    }
    for (int p = 0; p < pairs; ++p) {
        const __m512bh b0 = __m512bh(_mm512_load_si512(bp)), b1 = __m512bh(_mm512_load_si512(bp + 16));
#pragma GCC unroll 12
        for (int i = 0; i < kOwnMr; ++i) {
            const __m512bh a = __m512bh(_mm512_set1_epi32(int(ap[i])));
            acc[i][0] = _mm512_dpbf16_ps(acc[i][0], a, b0);
            acc[i][1] = _mm512_dpbf16_ps(acc[i][1], a, b1);
        }
        ap += kOwnMr;
        bp += kOwnNr;
    }
    const __m512 bias0 = bias && !add ? _mm512_maskz_loadu_ps(m0, bias) : _mm512_setzero_ps();
    const __m512 bias1 = bias && !add ? _mm512_maskz_loadu_ps(m1, bias + 16) : _mm512_setzero_ps();
#pragma GCC unroll 12
    for (int i = 0; i < kOwnMr; ++i) {
        if (i >= rows)
            break;
        float* ci = c + std::size_t(i) * ldc;
        if (add) {
            acc[i][0] = _mm512_add_ps(acc[i][0], _mm512_maskz_loadu_ps(m0, ci));
            acc[i][1] = _mm512_add_ps(acc[i][1], _mm512_maskz_loadu_ps(m1, ci + 16));
        } else if (bias) {  // the sum + the bias, as the sum + C filled with it would be
            acc[i][0] = _mm512_add_ps(acc[i][0], bias0);
            acc[i][1] = _mm512_add_ps(acc[i][1], bias1);
        }
        _mm512_mask_storeu_ps(ci, m0, acc[i][0]);
        _mm512_mask_storeu_ps(ci + 16, m1, acc[i][1]);
    }
}

AS_BF16_KERNEL_TARGET void ownGemm(bool transA, bool transB, int m, int n, int k, const float* a, std::size_t lda,
                                   const float* b, std::size_t ldb, float beta, float* c, std::size_t ldc,
                                   const float* bias)
{
    thread_local OwnPacks packs;
    for (int jc = 0; jc < n; jc += kOwnNc) {
        const int nc = std::min(kOwnNc, n - jc);
        // The inner dimension in equal blocks (even, at most kOwnKc): 832 as 4 × 208, not
        // 3 × 256 and a block of 64 that would read and write C again for little work.
        const int kBlocks = (k + kOwnKc - 1) / kOwnKc, kStep = ((k + kBlocks - 1) / kBlocks + 1) / 2 * 2;
        for (int pc = 0; pc < k; pc += kStep) {
            const int kc = std::min(kStep, k - pc), kp = (kc + 1) / 2;
            const bool add = pc > 0 || beta != 0.0f;
            // B's block: panels of kNr columns, each kp pairs × kNr.
            if (transB) {  // column c of B is stored row c: the inner dimension along it
                for (int j = 0; j < nc; j += kOwnNr) {
                    std::uint32_t* panel = packs.b + std::size_t(j) * std::size_t(kp);
                    for (int h = 0; h < kOwnNr; h += 16)
                        packAlongRows(b + std::size_t(jc + j + h) * ldb + std::size_t(pc), ldb,
                                      std::clamp(nc - j - h, 0, 16), kc, panel + h, kOwnNr, 16);
                }
            } else {
                packDownRows(b + std::size_t(pc) * ldb + std::size_t(jc), ldb, nc, kc, packs.b, kOwnNr,
                             std::size_t(kp) * kOwnNr);
            }
            tOwnRoundedElements += (long long)(kc) * nc;
            for (int ic = 0; ic < m; ic += kOwnMc) {
                const int mc = std::min(kOwnMc, m - ic);
                if (transA)  // row r of A is stored column r: the inner dimension down the rows
                    packDownRows(a + std::size_t(pc) * lda + std::size_t(ic), lda, mc, kc, packs.a, kOwnMr,
                                 std::size_t(kp) * kOwnMr);
                else
                    for (int i = 0; i < mc; i += kOwnMr)
                        packAlongRows(a + std::size_t(ic + i) * lda + std::size_t(pc), lda, std::min(kOwnMr, mc - i),
                                      kc, packs.a + std::size_t(i) * std::size_t(kp), kOwnMr, kOwnMr);
                tOwnRoundedElements += (long long)(kc) * mc;
                for (int j = 0; j < nc; j += kOwnNr) {
                    const __mmask16 m0 = firstLanes(nc - j), m1 = firstLanes(nc - j - 16);
                    const std::uint32_t* bPanel = packs.b + std::size_t(j) * std::size_t(kp);
                    for (int i = 0; i < mc; i += kOwnMr)
                        ownMicroKernel(kp, packs.a + std::size_t(i) * std::size_t(kp), bPanel,
                                       c + std::size_t(ic + i) * ldc + std::size_t(jc + j), ldc,
                                       std::min(kOwnMr, mc - i), m0, m1, add, bias ? bias + jc + j : nullptr);
                }
            }
        }
    }
}

}  // namespace
#endif

bool gemmBf16PackedAvailable()
{
#ifdef AS_BF16_OWN_KERNEL
    static const bool available = qEnvironmentVariable("AS_BF16") != QLatin1String("off")
                                  && cpuBf16Units().avx512bf16 && __builtin_cpu_supports("avx512bw")
                                  && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
    return available;
#else
    return false;
#endif
}

bool gemmBf16Packed(bool transA, bool transB, int m, int n, int k, const float* a, int lda, const float* b, int ldb,
                    float beta, float* c, int ldc, const float* columnBias)
{
    if (!gemmBf16PackedAvailable())
        return false;
#ifdef AS_BF16_OWN_KERNEL
    if (columnBias && beta != 0.0f)  // it belongs to a product written over C, not added to it
        return false;
    ownGemm(transA, transB, m, n, k, a, std::size_t(lda), b, std::size_t(ldb), beta, c, std::size_t(ldc),
            columnBias);
    return true;
#else
    (void)transA, (void)transB, (void)m, (void)n, (void)k, (void)a, (void)lda, (void)b, (void)ldb, (void)beta,
        (void)c, (void)ldc, (void)columnBias;
    return false;
#endif
}

long long gemmBf16PackedRoundedElements()
{
#ifdef AS_BF16_OWN_KERNEL
    return tOwnRoundedElements;
#else
    return 0;
#endif
}

}  // namespace as
