#pragma once
// The engine's large matrix products: C = op(A) op(B), or C += op(A) op(B), for row-major
// matrices (op: as is, or transposed). Built with AS_OPENBLAS (the default), they run in
// OpenBLAS, loaded at start-up and single-threaded in the calling thread (the engine's pool
// splits the work); without it, or if the library cannot be loaded, in Eigen. gemmEigen is the
// plain Eigen product, kept as the oracle of tests/core/test_gemm.cpp.
#include "model/tensor.h"

namespace as {

template <typename T>
void gemm(In<T> a, bool transA, In<T> b, bool transB, Out<T> c, bool accumulate);

template <typename T>
void gemmEigen(In<T> a, bool transA, In<T> b, bool transB, Out<T> c, bool accumulate);

// What gemm runs on, for benchmarks' output: "OpenBLAS <core>" (e.g. "OpenBLAS SkylakeX") or
// "Eigen", with the reason when OpenBLAS was wanted but not loaded.
const char* gemmBackend();

}  // namespace as
