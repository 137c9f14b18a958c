#pragma once
// The engine's large matrix products: C = op(A) op(B), or C += op(A) op(B), for row-major
// matrices (op: as is, or transposed). Built with AS_OPENBLAS (the default), they run in
// OpenBLAS, single-threaded in the calling thread (the engine's pool splits the work); without
// it, in Eigen. gemmEigen is the plain Eigen product, kept as the oracle of tests/test_gemm.cpp.
#include "model/tensor.h"

namespace as {

template <typename T>
void gemm(In<T> a, bool transA, In<T> b, bool transB, Out<T> c, bool accumulate);

template <typename T>
void gemmEigen(In<T> a, bool transA, In<T> b, bool transB, Out<T> c, bool accumulate);

// "OpenBLAS" or "Eigen": what gemm runs on, for benchmarks' output.
const char* gemmBackend();

}  // namespace as
