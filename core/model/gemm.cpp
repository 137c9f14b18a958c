#include "model/gemm.h"

#include <algorithm>
#include <stdexcept>

#ifdef AS_OPENBLAS
// OpenBLAS's CBLAS entry points, declared here rather than through <cblas.h>, whose folder
// differs between Debian's OpenBLAS flavours. The enums are ints in the C ABI.
extern "C" {
void cblas_sgemm(int order, int transA, int transB, int m, int n, int k, float alpha,
                 const float* a, int lda, const float* b, int ldb, float beta, float* c, int ldc);
void cblas_dgemm(int order, int transA, int transB, int m, int n, int k, double alpha,
                 const double* a, int lda, const double* b, int ldb, double beta, double* c,
                 int ldc);
}
#endif

namespace as {

namespace {

// Eigen packs all the columns of the right-hand side a product uses into one buffer (kc x n);
// up to 1024 of them it stays under EIGEN_STACK_ALLOCATION_LIMIT and on the stack, where a
// generator over a 5,000-word vocabulary would take megabytes from the heap at every step
// (tests/test_no_alloc.cpp).
constexpr Eigen::Index kMaxColsPerProduct = 1024;

template <typename T>
void check(In<T> a, bool transA, In<T> b, bool transB, Out<T> c)
{
    const Eigen::Index m = transA ? a.cols() : a.rows(), k = transA ? a.rows() : a.cols();
    const Eigen::Index kb = transB ? b.cols() : b.rows(), n = transB ? b.rows() : b.cols();
    if (m != c.rows() || n != c.cols() || k != kb)
        throw std::invalid_argument("gemm: shapes do not match");
}

#ifdef AS_OPENBLAS
constexpr int kRowMajor = 101, kNoTrans = 111, kTrans = 112;

// The leading dimension BLAS requires: a row-major matrix's row stride, at least its width
// (Eigen may report any stride for a matrix of one row).
template <typename M>
int leading(const M& x)
{
    return int(x.rows() <= 1 ? std::max<Eigen::Index>(1, x.cols())
                             : std::max<Eigen::Index>(x.outerStride(), x.cols()));
}

inline void blas(int ta, int tb, int m, int n, int k, const float* a, int lda, const float* b,
                 int ldb, float beta, float* c, int ldc)
{
    cblas_sgemm(kRowMajor, ta, tb, m, n, k, 1.0f, a, lda, b, ldb, beta, c, ldc);
}
inline void blas(int ta, int tb, int m, int n, int k, const double* a, int lda, const double* b,
                 int ldb, double beta, double* c, int ldc)
{
    cblas_dgemm(kRowMajor, ta, tb, m, n, k, 1.0, a, lda, b, ldb, beta, c, ldc);
}
#endif

}  // namespace

template <typename T>
void gemmEigen(In<T> a, bool transA, In<T> b, bool transB, Out<T> c, bool accumulate)
{
    check<T>(a, transA, b, transB, c);
    for (Eigen::Index j = 0; j < c.cols(); j += kMaxColsPerProduct) {
        const Eigen::Index w = std::min(kMaxColsPerProduct, c.cols() - j);
        auto cj = c.middleCols(j, w);
        if (!accumulate)
            cj.setZero();
        // The four cases spelled out: Eigen picks its kernel from the expression's type.
        if (!transA && !transB)
            cj.noalias() += a * b.middleCols(j, w);
        else if (!transA && transB)
            cj.noalias() += a * b.middleRows(j, w).transpose();
        else if (transA && !transB)
            cj.noalias() += a.transpose() * b.middleCols(j, w);
        else
            cj.noalias() += a.transpose() * b.middleRows(j, w).transpose();
    }
}

template <typename T>
void gemm(In<T> a, bool transA, In<T> b, bool transB, Out<T> c, bool accumulate)
{
#ifdef AS_OPENBLAS
    check<T>(a, transA, b, transB, c);
    const Eigen::Index k = transA ? a.rows() : a.cols();
    if (c.rows() == 0 || c.cols() == 0)
        return;
    if (k == 0) {  // BLAS would be asked for a zero-width leading dimension
        if (!accumulate)
            c.setZero();
        return;
    }
    blas(transA ? kTrans : kNoTrans, transB ? kTrans : kNoTrans, int(c.rows()), int(c.cols()),
         int(k), a.data(), leading(a), b.data(), leading(b), accumulate ? T(1) : T(0), c.data(),
         leading(c));
#else
    gemmEigen<T>(a, transA, b, transB, c, accumulate);
#endif
}

const char* gemmBackend()
{
#ifdef AS_OPENBLAS
    return "OpenBLAS";
#else
    return "Eigen";
#endif
}

template void gemm<float>(In<float>, bool, In<float>, bool, Out<float>, bool);
template void gemm<double>(In<double>, bool, In<double>, bool, Out<double>, bool);
template void gemmEigen<float>(In<float>, bool, In<float>, bool, Out<float>, bool);
template void gemmEigen<double>(In<double>, bool, In<double>, bool, Out<double>, bool);

}  // namespace as
