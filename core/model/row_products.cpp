// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/row_products.h"

#include <cstring>
#include <type_traits>

// The kernel behind combineRows (row_products.h): one element of A broadcast against a
// contiguous vector of a row of B (one register: 64 bytes with AVX-512, row_products.h), 8 rows
// of C by 1 vector or 4 rows by 2 accumulating in registers over the whole depth. Attention's products with keys along the rows
// of C (Q Kᵀ, dC Vᵀ) read a transposed copy of K or V, its width padded to whole vectors.

namespace as {

namespace {
typedef float VecF __attribute__((vector_size(kRowProductVectorBytes)));
typedef double VecD __attribute__((vector_size(kRowProductVectorBytes)));
template <typename T>
struct Simd;
template <>
struct Simd<float> {
    using V = VecF;
};
template <>
struct Simd<double> {
    using V = VecD;
};
template <typename T>
constexpr int kLanes = rowProductLanes<T>();
static_assert(sizeof(VecF) == kRowProductVectorBytes && sizeof(VecD) == kRowProductVectorBytes);
static_assert(kLanes<float> * int(sizeof(float)) == kRowProductVectorBytes);

// R rows of C by NV whole vectors of columns, R * NV <= 8: up to eight accumulators in named
// variables (GCC keeps an array of them in memory too, storing every one at every step), c_k
// the row k / NV's vector k % NV. Eight, because each accumulator's next fused multiply-add
// waits for its last (4 cycles) while two can start every cycle. With one vector of columns (16
// floats with AVX-512: tiny's keys) blocks were 4 rows, half of that; 8 rows took `tiny`'s
// scores (13 x 32 x 16) from 118 to 98 ns (scratch benchmark, this Zen 5). Each element of C
// still sums its terms in the same order: the products are the same, bit for bit. (Vectors go
// through memcpy, never by value through a function: that would change the ABI of the
// portable build, which has no 64-byte registers.)
template <typename T, int R, int NV>
void combineRowBlock(int depth, const T* A, long ars, long acs, const T* B, long ldb, T* C,
                     long ldc, T alpha)
{
    static_assert(R >= 1 && (NV == 1 || NV == 2) && R * NV <= 8);
    using V = typename Simd<T>::V;
    constexpr int W = kLanes<T>;
    constexpr int K = R * NV;
    const V zero = {};
    V c0 = zero, c1 = zero, c2 = zero, c3 = zero, c4 = zero, c5 = zero, c6 = zero, c7 = zero;
    for (int t = 0; t < depth; ++t) {
        const T* bt = B + long(t) * ldb;
        const T* at = A + long(t) * acs;
        V b0, b1 = zero;
        std::memcpy(&b0, bt, sizeof b0);
        if constexpr (NV == 2)
            std::memcpy(&b1, bt + W, sizeof b1);
        // accumulator k: row k / NV times vector k % NV
        const auto term = [&](auto k) {
            return at[(decltype(k)::value / NV) * ars] * (decltype(k)::value % NV ? b1 : b0);
        };
        c0 += term(std::integral_constant<int, 0>{});
        if constexpr (K > 1) c1 += term(std::integral_constant<int, 1>{});
        if constexpr (K > 2) c2 += term(std::integral_constant<int, 2>{});
        if constexpr (K > 3) c3 += term(std::integral_constant<int, 3>{});
        if constexpr (K > 4) c4 += term(std::integral_constant<int, 4>{});
        if constexpr (K > 5) c5 += term(std::integral_constant<int, 5>{});
        if constexpr (K > 6) c6 += term(std::integral_constant<int, 6>{});
        if constexpr (K > 7) c7 += term(std::integral_constant<int, 7>{});
    }
    const auto put = [&](const V& c, int k) {
        const V scaled = c * alpha;
        std::memcpy(C + (k / NV) * ldc + (k % NV) * W, &scaled, sizeof scaled);
    };
    put(c0, 0);
    if constexpr (K > 1) put(c1, 1);
    if constexpr (K > 2) put(c2, 2);
    if constexpr (K > 3) put(c3, 3);
    if constexpr (K > 4) put(c4, 4);
    if constexpr (K > 5) put(c5, 5);
    if constexpr (K > 6) put(c6, 6);
    if constexpr (K > 7) put(c7, 7);
}

// One row of C by the last n < one vector of columns (a width that is not a whole number of
// vectors): through a buffer a vector wide.
template <typename T>
void combineRowTail(int depth, int n, const T* A, long acs, const T* B, long ldb, T* C, T alpha)
{
    using V = typename Simd<T>::V;
    const std::size_t bytes = std::size_t(n) * sizeof(T);
    V acc = {};
    for (int t = 0; t < depth; ++t) {
        V b = {};
        std::memcpy(&b, B + long(t) * ldb, bytes);
        acc += A[t * acs] * b;
    }
    const V scaled = acc * alpha;
    std::memcpy(C, &scaled, bytes);
}

// All m rows of C by NV vectors of columns: 8 / NV rows at a time, then halves of that.
template <typename T, int NV>
void combineColumns(int m, int depth, const T* A, long ars, long acs, const T* B, long ldb,
                    T* C, long ldc, T alpha)
{
    constexpr int R = 8 / NV;
    int i = 0;
    for (; i + R <= m; i += R)
        combineRowBlock<T, R, NV>(depth, A + i * ars, ars, acs, B, ldb, C + i * ldc, ldc, alpha);
    if constexpr (R > 4)
        if (i + 4 <= m) {
            combineRowBlock<T, 4, NV>(depth, A + i * ars, ars, acs, B, ldb, C + i * ldc, ldc, alpha);
            i += 4;
        }
    if (i + 2 <= m) {
        combineRowBlock<T, 2, NV>(depth, A + i * ars, ars, acs, B, ldb, C + i * ldc, ldc, alpha);
        i += 2;
    }
    if (i < m)
        combineRowBlock<T, 1, NV>(depth, A + i * ars, ars, acs, B, ldb, C + i * ldc, ldc, alpha);
}

}  // namespace

template <typename T>
void combineRows(int m, int depth, int w, const T* A, long ars, long acs, const T* B, long ldb,
                 T* C, long ldc, T alpha)
{
    constexpr int W = kLanes<T>;
    int c = 0;
    for (; c + 2 * W <= w; c += 2 * W)
        combineColumns<T, 2>(m, depth, A, ars, acs, B + c, ldb, C + c, ldc, alpha);
    if (c + W <= w) {
        combineColumns<T, 1>(m, depth, A, ars, acs, B + c, ldb, C + c, ldc, alpha);
        c += W;
    }
    if (c < w)
        for (int i = 0; i < m; ++i)
            combineRowTail<T>(depth, w - c, A + i * ars, acs, B + c, ldb, C + i * ldc + c, alpha);
}

template void combineRows<float>(int, int, int, const float*, long, long, const float*, long,
                                float*, long, float);
template void combineRows<double>(int, int, int, const double*, long, long, const double*, long,
                                 double*, long, double);

}  // namespace as
