// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The engine's large matrix products: C = op(A) op(B), or C += op(A) op(B), for row-major
// matrices (op: as is, or transposed). Built with AS_OPENBLAS (the default), they run in
// OpenBLAS, loaded at start-up and single-threaded in the calling thread (the engine's pool
// splits the work); without it, or if the library cannot be loaded, in Eigen. gemmEigen is the
// plain Eigen product, kept as the oracle of tests/core/test_gemm.cpp.
#include "model/tensor.h"

#include <memory>
#include <vector>

namespace as {

template <typename T>
void gemm(In<T> a, bool transA, In<T> b, bool transB, Out<T> c, bool accumulate);

template <typename T>
void gemmEigen(In<T> a, bool transA, In<T> b, bool transB, Out<T> c, bool accumulate);

// What gemm runs on, for benchmarks' output: "OpenBLAS <core>" (e.g. "OpenBLAS SkylakeX") or
// "Eigen", with the reason when OpenBLAS was wanted but not loaded.
const char* gemmBackend();
// The BLAS library's own description of its build, for the About box and bug reports
// (OpenBLAS's openblas_get_config: "OpenBLAS 0.3.21 DYNAMIC_ARCH NO_AFFINITY SkylakeX
// MAX_THREADS=64"); empty when Eigen computes.
const char* gemmLibraryConfig();

// One call of gemm as it was made: the shapes, strides and flags, not the numbers.
struct GemmCall {
    bool transA = false, transB = false, accumulate = false;
    int m = 0, n = 0, k = 0;        // C is m x n, the inner dimension k
    int lda = 0, ldb = 0, ldc = 0;  // row strides, as BLAS was given them
    double flop() const { return 2.0 * m * n * k; }
};

// While one lives, every gemm<float> call is appended to the list of the thread that made it
// (one list per thread, in call order): `bench --products-alone` records a training step's
// products and replays them with nothing else around them (model/gemm_replay.h). One at a time; it takes a lock per
// call, so it is for benchmarks, not for training.
class GemmRecorder {
public:
    GemmRecorder();
    ~GemmRecorder();
    GemmRecorder(const GemmRecorder&) = delete;
    GemmRecorder& operator=(const GemmRecorder&) = delete;
    // The calls of each thread that made any, in the order threads first called.
    std::vector<std::vector<GemmCall>> calls() const;
    void add(const GemmCall& c);

private:
    struct State;
    std::unique_ptr<State> state_;
};

}  // namespace as
