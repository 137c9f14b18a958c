// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The per-head products of attention (core/model/attention.cpp) are small: a sentence's queries
// by its keys by d_k, 13 x 14 x 32 in `tiny`. Eigen's general product packs both sides for each
// and ran them at 25-28 GFLOP/s. combineRows writes every one of them as rows of C combining
// rows of B:
//
//   C[i, 0:w] = alpha * sum_{t < depth} A(i, t) * B[t, 0:w]   for i < m,
//   A(i, t) = A[i * ars + t * acs],
//
// A read as it is (acs = 1, ars its row stride) or transposed (ars = 1, acs its row stride); B
// and C are row-major with row strides ldb and ldc. C's columns from w on, and B's, are neither
// read nor written. C is overwritten, not added to. Tested against Eigen products in double over
// shapes and layouts in tests/core/test_row_products.cpp.

namespace as {

template <typename T>
void combineRows(int m, int depth, int w, const T* A, long ars, long acs, const T* B, long ldb,
                 T* C, long ldc, T alpha);

// The kernel's vector: the widest this build's target has. Its 8 accumulators (4 rows by 2
// vectors, or 8 rows by 1) and the 2 vectors of B must fit the 16 (AVX2, SSE) or 32 (AVX-512)
// registers: with 64-byte vectors built for AVX2, each one two registers, they did not, and the
// spills made these products 8-10x slower than with 32-byte ones (bench --profile, Zen 3's build
// on an AVX-512 machine: `small`'s per-head products 22 ms a step each against 2-3 with
// AVX-512).
#if defined(__AVX512F__)
inline constexpr int kRowProductVectorBytes = 64;
#elif defined(__AVX__)
inline constexpr int kRowProductVectorBytes = 32;
#else
inline constexpr int kRowProductVectorBytes = 16;
#endif

// The number of elements of one SIMD vector of the kernel (with AVX-512 16 floats, 8 doubles):
// a width that is a multiple of it runs in whole vectors.
template <typename T>
constexpr int rowProductLanes()
{
    return int(kRowProductVectorBytes / sizeof(T));
}

// w rounded up to whole vectors.
template <typename T>
int paddedWidth(int w)
{
    return (w + rowProductLanes<T>() - 1) / rowProductLanes<T>() * rowProductLanes<T>();
}

}  // namespace as
