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

// The number of elements of one SIMD vector of the kernel (16 floats, 8 doubles): a width that is
// a multiple of it runs in whole vectors.
template <typename T>
constexpr int rowProductLanes()
{
    return int(64 / sizeof(T));
}

// w rounded up to whole vectors.
template <typename T>
int paddedWidth(int w)
{
    return (w + rowProductLanes<T>() - 1) / rowProductLanes<T>() * rowProductLanes<T>();
}

}  // namespace as
