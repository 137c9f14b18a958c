#include "model/row_products.h"

#include <cstring>

// The kernel behind combineRows (row_products.h): one element of A broadcast against a
// contiguous vector of a row of B (one register: 64 bytes with AVX-512, row_products.h), 4 rows of C by 2 vectors
// accumulating in registers over the whole depth. Attention's products with keys along the rows
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

// R <= 4 rows of C by NV <= 2 whole vectors of columns, the accumulators in named variables:
// GCC keeps an array of them in memory too, storing every one at every step. (Vectors go
// through memcpy, never by value through a function: that would change the ABI of the
// portable build, which has no 64-byte registers.)
template <typename T, int R, int NV>
void combineRowBlock(int depth, const T* A, long ars, long acs, const T* B, long ldb, T* C,
                     long ldc, T alpha)
{
    static_assert(R >= 1 && R <= 4 && NV >= 1 && NV <= 2);
    using V = typename Simd<T>::V;
    constexpr int W = kLanes<T>;
    const V zero = {};
    V c00 = zero, c01 = zero, c10 = zero, c11 = zero, c20 = zero, c21 = zero, c30 = zero,
      c31 = zero;
    for (int t = 0; t < depth; ++t) {
        const T* bt = B + long(t) * ldb;
        const T* at = A + long(t) * acs;
        V b0, b1 = zero;
        std::memcpy(&b0, bt, sizeof b0);
        if constexpr (NV == 2)
            std::memcpy(&b1, bt + W, sizeof b1);
        const T a0 = at[0];
        c00 += a0 * b0;
        if constexpr (NV == 2)
            c01 += a0 * b1;
        if constexpr (R > 1) {
            const T a1 = at[ars];
            c10 += a1 * b0;
            if constexpr (NV == 2)
                c11 += a1 * b1;
        }
        if constexpr (R > 2) {
            const T a2 = at[2 * ars];
            c20 += a2 * b0;
            if constexpr (NV == 2)
                c21 += a2 * b1;
        }
        if constexpr (R > 3) {
            const T a3 = at[3 * ars];
            c30 += a3 * b0;
            if constexpr (NV == 2)
                c31 += a3 * b1;
        }
    }
    const auto put = [&](const V& c, int r, int v) {
        const V scaled = c * alpha;
        std::memcpy(C + r * ldc + v * W, &scaled, sizeof scaled);
    };
    // Row r's one or two vectors.
    const auto putRow = [&](const V& c0, const V& c1, int r) {
        put(c0, r, 0);
        if constexpr (NV == 2)
            put(c1, r, 1);
    };
    putRow(c00, c01, 0);
    if constexpr (R > 1)
        putRow(c10, c11, 1);
    if constexpr (R > 2)
        putRow(c20, c21, 2);
    if constexpr (R > 3)
        putRow(c30, c31, 3);
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

// R rows of C, all w columns.
template <typename T, int R>
void combineRowsOf(int depth, int w, const T* A, long ars, long acs, const T* B, long ldb, T* C,
                   long ldc, T alpha)
{
    constexpr int W = kLanes<T>;
    int c = 0;
    for (; c + 2 * W <= w; c += 2 * W)
        combineRowBlock<T, R, 2>(depth, A, ars, acs, B + c, ldb, C + c, ldc, alpha);
    if (c + W <= w) {
        combineRowBlock<T, R, 1>(depth, A, ars, acs, B + c, ldb, C + c, ldc, alpha);
        c += W;
    }
    if (c < w)
        for (int r = 0; r < R; ++r)
            combineRowTail<T>(depth, w - c, A + r * ars, acs, B + c, ldb, C + r * ldc + c, alpha);
}

}  // namespace

template <typename T>
void combineRows(int m, int depth, int w, const T* A, long ars, long acs, const T* B, long ldb,
                 T* C, long ldc, T alpha)
{
    int i = 0;
    for (; i + 4 <= m; i += 4)
        combineRowsOf<T, 4>(depth, w, A + i * ars, ars, acs, B, ldb, C + i * ldc, ldc, alpha);
    if (i + 2 <= m) {
        combineRowsOf<T, 2>(depth, w, A + i * ars, ars, acs, B, ldb, C + i * ldc, ldc, alpha);
        i += 2;
    }
    if (i < m)
        combineRowsOf<T, 1>(depth, w, A + i * ars, ars, acs, B, ldb, C + i * ldc, ldc, alpha);
}

template void combineRows<float>(int, int, int, const float*, long, long, const float*, long,
                                float*, long, float);
template void combineRows<double>(int, int, int, const double*, long, long, const double*, long,
                                 double*, long, double);

}  // namespace as
