// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The engine's large matrix products: C = op(A) op(B), or C += op(A) op(B), for row-major
// matrices (op: as is, or transposed), single-threaded in the calling thread (the engine's pool
// splits the work). Each is computed by one of the libraries loaded: OpenBLAS (built with
// AS_OPENBLAS, the default; loaded at start-up), oneDNN's sgemm (Debian's libdnnl, loaded at
// first use when installed; float only) or Eigen's own kernel (always). Which one is chosen per
// site, the kind of layer and the pass that issues the product (setGemmChoice): measured on the
// machine (model/gemm_tuning.h), else OpenBLAS where it is loaded and Eigen otherwise.
// gemmEigen is the plain Eigen product, kept as the oracle of tests/core/test_gemm.cpp.
#include "model/tensor.h"

#include <QString>

#include <cstdint>
#include <memory>
#include <vector>

namespace as {

enum class GemmLibrary : std::uint8_t { OpenBlas, OneDnn, Eigen };
inline constexpr int kGemmLibraries = 3;
// "openblas", "onednn", "eigen"; nullopt-like: an unknown name gives false.
const char* gemmLibraryName(GemmLibrary library);
// The library's own name, as people write it: "OpenBLAS", "oneDNN", "Eigen" (for the window).
const char* gemmLibraryTitle(GemmLibrary library);
bool gemmLibraryFromName(const char* name, GemmLibrary* library);
// Whether it can compute here: Eigen always; the others when built in and loaded.
bool gemmLibraryLoaded(GemmLibrary library);

// Where a product is issued: the kind of layer (Linear's, model/linear.h) and the pass.
enum class GemmKind : std::uint8_t { Projections, FeedForward, Generator, Other };
enum class GemmPass : std::uint8_t { Forward, InputGradient, WeightGradient };
inline constexpr int kGemmKinds = 4, kGemmPasses = 3, kGemmSites = kGemmKinds * kGemmPasses;
inline constexpr int gemmSite(GemmKind kind, GemmPass pass) { return int(kind) * kGemmPasses + int(pass); }
// "projections.forward", "feed_forward.weight_gradient", …
const char* gemmSiteName(int site);

// The library of each site, for every thread from the next call on. Refused (false) for a
// library that is not loaded. The double-precision products (the tests' gradient checks) run
// in OpenBLAS or Eigen whatever the choice: oneDNN's sgemm is single precision only.
bool setGemmChoice(int site, GemmLibrary library);
GemmLibrary gemmChoice(int site);
// Every site back to the default: OpenBLAS where it is loaded, else Eigen.
void resetGemmChoices();

// The precision of the layers' products (core/SPEC.md §2.14): float32, or bfloat16 mixed
// precision — the products of the projections, the feed-forward and the generator (GemmKind
// other than Other), every pass, in model/bf16.h's gemmBf16; the rest stays float32. It is the
// calling thread's, and the engine's pool runs the chunks a thread starts in that thread's
// precision (model/parallel.h): a session's step sets its own (train/session.h) while a
// translation in another thread keeps float32. Refused (false, *why) where bf16Unavailable()
// says why.
enum class GemmPrecision : std::uint8_t { Float32, BFloat16 };
bool setGemmPrecision(GemmPrecision precision, QString* why = nullptr);
GemmPrecision gemmPrecision();
const char* gemmPrecisionName(GemmPrecision precision);  // "float32", "bfloat16"
// "float32" or "bf16": the command line's and a checkpoint's name of it.
const char* gemmPrecisionArgument(GemmPrecision precision);
// Either name (or "bfloat16", "fp32") to the precision; false if none.
bool gemmPrecisionFromName(const QString& name, GemmPrecision* precision);
// Whether this machine runs it (float32 always); *why says why not.
bool gemmPrecisionAvailable(GemmPrecision precision, QString* why);
// The calling thread's precision while it lives, then the one before. Unchecked: whoever chose
// the precision checked it (a bfloat16 product refused later throws, naming why).
class GemmPrecisionScope {
public:
    explicit GemmPrecisionScope(GemmPrecision precision);
    ~GemmPrecisionScope();
    GemmPrecisionScope(const GemmPrecisionScope&) = delete;
    GemmPrecisionScope& operator=(const GemmPrecisionScope&) = delete;

private:
    GemmPrecision before_;
};

// With columnBias (and accumulate false): C = op(A) op(B) + columnBias, one number per column of
// C. Where the product is bfloat16 in the engine's own kernel, the kernel adds it as it writes
// C; otherwise C is filled with it first and the product added (profiled as the bias). The same
// bits either way as the fill and the product added to it.
template <typename T>
void gemm(In<T> a, bool transA, In<T> b, bool transB, Out<T> c, bool accumulate,
          GemmKind kind = GemmKind::Other, GemmPass pass = GemmPass::Forward,
          const T* columnBias = nullptr);
// The same product by a given library (for the tuning and the tests); a library not loaded
// (or oneDNN for double) computes with Eigen.
template <typename T>
void gemmWith(GemmLibrary library, In<T> a, bool transA, In<T> b, bool transB, Out<T> c, bool accumulate);

template <typename T>
void gemmEigen(In<T> a, bool transA, In<T> b, bool transB, Out<T> c, bool accumulate);

// What gemm runs on, for benchmarks' output: "OpenBLAS <core>" (e.g. "OpenBLAS SkylakeX") or
// "Eigen", with the reason when OpenBLAS was wanted but not loaded.
const char* gemmBackend();
// The BLAS library's own description of its build, for the About box and bug reports
// (OpenBLAS's openblas_get_config: "OpenBLAS 0.3.21 DYNAMIC_ARCH NO_AFFINITY SkylakeX
// MAX_THREADS=64"); empty when Eigen computes.
const char* gemmLibraryConfig();

// oneDNN's own description, "oneDNN 2.6.3 (…)"; empty when not loaded.
const char* gemmOneDnnVersion();
// A symbol of the oneDNN library loaded for the products (null: not loaded, or no such
// symbol), for the other primitives the engine takes from it (model/bf16.h).
void* oneDnnSymbol(const char* name);
// oneDNN computes in the calling thread alone (OpenMP's threads: one for each thread that
// calls), as every product of the engine's pool does.
void oneDnnOneThread();

// One call of gemm as it was made: the shapes, strides, flags and site, not the numbers.
struct GemmCall {
    bool transA = false, transB = false, accumulate = false;
    int m = 0, n = 0, k = 0;        // C is m x n, the inner dimension k
    int lda = 0, ldb = 0, ldc = 0;  // row strides, as BLAS was given them
    int site = gemmSite(GemmKind::Other, GemmPass::Forward);
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
