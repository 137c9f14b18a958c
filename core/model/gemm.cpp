// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/gemm.h"
#include "model/bf16.h"
#include "train/profile.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <type_traits>
#include <utility>
#include <stdexcept>
#include <string>

#include <array>
#include <dlfcn.h>

namespace as {

namespace {

// Eigen packs all the columns of the right-hand side a product uses into one buffer (kc x n);
// up to 1024 of them it stays under EIGEN_STACK_ALLOCATION_LIMIT and on the stack, where a
// generator over a 5,000-word vocabulary would take megabytes from the heap at every step
// (tests/core/test_no_alloc.cpp).
constexpr Eigen::Index kMaxColsPerProduct = 1024;

template <typename T>
void check(In<T> a, bool transA, In<T> b, bool transB, Out<T> c)
{
    const Eigen::Index m = transA ? a.cols() : a.rows(), k = transA ? a.rows() : a.cols();
    const Eigen::Index kb = transB ? b.cols() : b.rows(), n = transB ? b.rows() : b.cols();
    if (m != c.rows() || n != c.cols() || k != kb)
        throw std::invalid_argument("gemm: shapes do not match");
}

// The leading dimension BLAS requires: a row-major matrix's row stride, at least its width
// (Eigen may report any stride for a matrix of one row).
template <typename M>
int leading(const M& x)
{
    return int(x.rows() <= 1 ? std::max<Eigen::Index>(1, x.cols())
                             : std::max<Eigen::Index>(x.outerStride(), x.cols()));
}

#ifdef AS_OPENBLAS
constexpr int kRowMajor = 101, kNoTrans = 111, kTrans = 112;

// OpenBLAS's CBLAS entry points (the enums are ints in the C ABI).
using SgemmFn = void (*)(int order, int transA, int transB, int m, int n, int k, float alpha,
                         const float* a, int lda, const float* b, int ldb, float beta, float* c,
                         int ldc);
using DgemmFn = void (*)(int order, int transA, int transB, int m, int n, int k, double alpha,
                         const double* a, int lda, const double* b, int ldb, double beta,
                         double* c, int ldc);

struct OpenBlas {
    SgemmFn sgemm = nullptr;  // both null: OpenBLAS could not be loaded, Eigen computes
    DgemmFn dgemm = nullptr;
    std::string backend = "Eigen";
    std::string config;  // openblas_get_config(), when loaded
};

// The kernels of OpenBLAS's SkylakeX core need AVX-512 F, BW, DQ and VL.
bool cpuHasSkylakeXAvx512()
{
#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")
        && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
#else
    return false;
#endif
}

// OpenBLAS picks its kernels once, when the library is loaded (its constructor reads
// OPENBLAS_CORETYPE, else its CPUID tables). Debian 12's 0.3.21 does not know AMD's AVX-512
// CPUs (Zen 4, Zen 5) and gives them its AVX2 "Haswell" kernels, which is also what the
// machines here name in OPENBLAS_CORETYPE for every program. On the Zen 5 machine here
// `bench --config base` took 1.03 s/step with those and 0.63 with the AVX-512 "SkylakeX" ones
// (Cooperlake's: 0.69). A linked library's constructor runs before any code of ours could
// choose, so the library is loaded here instead: with AS_OPENBLAS_CORETYPE's core if that is
// set, else SkylakeX on CPUs with its AVX-512, else as OpenBLAS itself would (the environment's
// OPENBLAS_CORETYPE or CPUID). The process's environment is restored afterwards. OpenBLAS then
// runs single-threaded in whichever thread calls it: the engine's pool (model/parallel.cpp) is
// the one threading layer. Without the library, Eigen computes.
OpenBlas loadOpenBlas()
{
    OpenBlas blas;
    const char* ours = std::getenv("AS_OPENBLAS_CORETYPE");
    const std::string core = ours && *ours ? ours : cpuHasSkylakeXAvx512() ? "SkylakeX" : "";
    const char* before = std::getenv("OPENBLAS_CORETYPE");
    const std::string saved = before ? before : "";
    if (!core.empty())
        setenv("OPENBLAS_CORETYPE", core.c_str(), 1);
    void* lib = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!lib)  // the library CMake found, if the runtime name is not on the loader's path
        lib = dlopen(AS_OPENBLAS_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (!core.empty()) {
        if (before)
            setenv("OPENBLAS_CORETYPE", saved.c_str(), 1);
        else
            unsetenv("OPENBLAS_CORETYPE");
    }
    if (!lib) {
        blas.backend = "Eigen (OpenBLAS not loaded)";
        return blas;
    }
    const auto sgemm = reinterpret_cast<SgemmFn>(dlsym(lib, "cblas_sgemm"));
    const auto dgemm = reinterpret_cast<DgemmFn>(dlsym(lib, "cblas_dgemm"));
    const auto setThreads = reinterpret_cast<void (*)(int)>(dlsym(lib, "openblas_set_num_threads"));
    const auto coreName = reinterpret_cast<char* (*)()>(dlsym(lib, "openblas_get_corename"));
    const auto config = reinterpret_cast<char* (*)()>(dlsym(lib, "openblas_get_config"));
    if (!sgemm || !dgemm || !setThreads) {
        blas.backend = "Eigen (the OpenBLAS found lacks cblas_sgemm)";
        return blas;
    }
    setThreads(1);
    blas.sgemm = sgemm;
    blas.dgemm = dgemm;
    blas.backend = std::string("OpenBLAS ") + (coreName ? coreName() : "");
    blas.config = config ? config() : "";
    return blas;
}

const OpenBlas& openBlas()
{
    static const OpenBlas blas = loadOpenBlas();
    return blas;
}

// Loaded before main(), while the process has one thread: setenv is not safe beside threads.
const bool kOpenBlasLoaded = (openBlas(), true);

inline void blas(int ta, int tb, int m, int n, int k, const float* a, int lda, const float* b,
                 int ldb, float beta, float* c, int ldc)
{
    openBlas().sgemm(kRowMajor, ta, tb, m, n, k, 1.0f, a, lda, b, ldb, beta, c, ldc);
}
inline void blas(int ta, int tb, int m, int n, int k, const double* a, int lda, const double* b,
                 int ldb, double beta, double* c, int ldc)
{
    openBlas().dgemm(kRowMajor, ta, tb, m, n, k, 1.0, a, lda, b, ldb, beta, c, ldc);
}
#endif

// oneDNN's sgemm (Debian's libdnnl), loaded at its first use: row-major like CBLAS, its
// dimensions 64-bit. Its threads are OpenMP's: each calling thread asks for one
// (omp_set_num_threads, per thread), as OpenBLAS runs single-threaded in the engine's pool.
using DnnlSgemmFn = int (*)(char transA, char transB, std::int64_t m, std::int64_t n, std::int64_t k,
                            float alpha, const float* a, std::int64_t lda, const float* b,
                            std::int64_t ldb, float beta, float* c, std::int64_t ldc);
struct DnnlVersion {
    int major, minor, patch;
    const char* hash;
    unsigned cpuRuntime, gpuRuntime;
};

struct OneDnn {
    void* lib = nullptr;          // the library's handle (null: not installed)
    DnnlSgemmFn sgemm = nullptr;  // null: not installed
    void (*ompSetNumThreads)(int) = nullptr;
    std::string version;
};

OneDnn loadOneDnn()
{
    OneDnn d;
    void* lib = nullptr;
    for (const char* name : {"libdnnl.so.3", "libdnnl.so.2"})
        if ((lib = dlopen(name, RTLD_NOW | RTLD_LOCAL)))
            break;
    if (!lib)
        return d;
    const auto sgemm = reinterpret_cast<DnnlSgemmFn>(dlsym(lib, "dnnl_sgemm"));
    const auto version = reinterpret_cast<const DnnlVersion* (*)()>(dlsym(lib, "dnnl_version"));
    if (!sgemm)
        return d;
    d.lib = lib;
    d.sgemm = sgemm;
    // libgomp, which libdnnl needs, is found through it.
    d.ompSetNumThreads = reinterpret_cast<void (*)(int)>(dlsym(lib, "omp_set_num_threads"));
    if (const DnnlVersion* v = version ? version() : nullptr)
        d.version = "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." +
                    std::to_string(v->patch);
    return d;
}

const OneDnn& oneDnn()
{
    static const OneDnn dnnl = loadOneDnn();
    return dnnl;
}

void dnnlSgemm(bool transA, bool transB, int m, int n, int k, const float* a, int lda, const float* b,
               int ldb, float beta, float* c, int ldc)
{
    const OneDnn& d = oneDnn();
    oneDnnOneThread();
    d.sgemm(transA ? 'T' : 'N', transB ? 'T' : 'N', m, n, k, 1.0f, a, lda, b, ldb, beta, c, ldc);
}

// The library of each site, plus one; 0: the default, OpenBLAS where loaded, else Eigen.
std::array<std::atomic<std::uint8_t>, kGemmSites> gChoice{};
thread_local GemmPrecision tPrecision = GemmPrecision::Float32;

GemmLibrary defaultLibrary()
{
#ifdef AS_OPENBLAS
    if (openBlas().sgemm)
        return GemmLibrary::OpenBlas;
#endif
    return GemmLibrary::Eigen;
}

std::atomic<GemmRecorder*> gRecorder{nullptr};

}  // namespace

namespace {
// Each library's id (command lines, JSON, the tuning file) and its own name, in GemmLibrary's order.
struct LibraryNames {
    const char* id;
    const char* title;
};
constexpr LibraryNames kLibraryNames[kGemmLibraries] = {
    {"openblas", "OpenBLAS"}, {"onednn", "oneDNN"}, {"eigen", "Eigen"}};
}  // namespace

const char* gemmLibraryName(GemmLibrary library)
{
    return int(library) < kGemmLibraries ? kLibraryNames[int(library)].id : "?";
}

const char* gemmLibraryTitle(GemmLibrary library)
{
    return int(library) < kGemmLibraries ? kLibraryNames[int(library)].title : "?";
}

bool gemmLibraryFromName(const char* name, GemmLibrary* library)
{
    for (int i = 0; i < kGemmLibraries; ++i)
        if (std::string(name) == gemmLibraryName(GemmLibrary(i))) {
            *library = GemmLibrary(i);
            return true;
        }
    return false;
}

bool gemmLibraryLoaded(GemmLibrary library)
{
    switch (library) {
    case GemmLibrary::OpenBlas:
#ifdef AS_OPENBLAS
        return openBlas().sgemm != nullptr;
#else
        return false;
#endif
    case GemmLibrary::OneDnn: return oneDnn().sgemm != nullptr;
    case GemmLibrary::Eigen: return true;
    }
    return false;
}

const char* gemmSiteName(int site)
{
    static const char* const names[kGemmSites] = {
        "projections.forward",  "projections.input_gradient",  "projections.weight_gradient",
        "feed_forward.forward", "feed_forward.input_gradient", "feed_forward.weight_gradient",
        "generator.forward",    "generator.input_gradient",    "generator.weight_gradient",
        "other.forward",        "other.input_gradient",        "other.weight_gradient"};
    return site >= 0 && site < kGemmSites ? names[site] : "?";
}

bool setGemmChoice(int site, GemmLibrary library)
{
    if (site < 0 || site >= kGemmSites || !gemmLibraryLoaded(library))
        return false;
    gChoice[std::size_t(site)].store(std::uint8_t(int(library) + 1), std::memory_order_relaxed);
    return true;
}

GemmLibrary gemmChoice(int site)
{
    const std::uint8_t c = gChoice[std::size_t(site)].load(std::memory_order_relaxed);
    return c == 0 ? defaultLibrary() : GemmLibrary(c - 1);
}

void resetGemmChoices()
{
    for (auto& c : gChoice)
        c.store(0, std::memory_order_relaxed);
}

const char* gemmOneDnnVersion()
{
    return oneDnn().version.c_str();
}

void* oneDnnSymbol(const char* name)
{
    return oneDnn().lib ? dlsym(oneDnn().lib, name) : nullptr;
}

void oneDnnOneThread()
{
    const OneDnn& d = oneDnn();
    thread_local const bool oneThread = (d.ompSetNumThreads ? d.ompSetNumThreads(1) : void(), true);
    (void)oneThread;
}

struct GemmRecorder::State {
    mutable std::mutex lock;
    std::vector<std::pair<std::thread::id, std::vector<GemmCall>>> lists;
};

GemmRecorder::GemmRecorder() : state_(std::make_unique<State>())
{
    GemmRecorder* none = nullptr;
    if (!gRecorder.compare_exchange_strong(none, this))
        throw std::logic_error("GemmRecorder: another one is recording");
}

GemmRecorder::~GemmRecorder()
{
    gRecorder.store(nullptr);
}

void GemmRecorder::add(const GemmCall& c)
{
    const std::thread::id me = std::this_thread::get_id();
    const std::lock_guard<std::mutex> locked(state_->lock);
    for (auto& [id, list] : state_->lists)
        if (id == me) {
            list.push_back(c);
            return;
        }
    state_->lists.push_back({me, {c}});
}

std::vector<std::vector<GemmCall>> GemmRecorder::calls() const
{
    const std::lock_guard<std::mutex> locked(state_->lock);
    std::vector<std::vector<GemmCall>> out;
    for (const auto& [id, list] : state_->lists)
        out.push_back(list);
    return out;
}

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
void gemmWith(GemmLibrary library, In<T> a, bool transA, In<T> b, bool transB, Out<T> c, bool accumulate)
{
    if (library == GemmLibrary::OneDnn && (!std::is_same_v<T, float> || !oneDnn().sgemm))
        library = defaultLibrary();  // oneDNN's sgemm is single precision only
#ifdef AS_OPENBLAS
    if (library == GemmLibrary::OpenBlas && !openBlas().sgemm)
        library = GemmLibrary::Eigen;
#else
    if (library == GemmLibrary::OpenBlas)
        library = GemmLibrary::Eigen;
#endif
    if (library == GemmLibrary::Eigen) {
        gemmEigen<T>(a, transA, b, transB, c, accumulate);
        return;
    }
    check<T>(a, transA, b, transB, c);
    const Eigen::Index k = transA ? a.rows() : a.cols();
    if (c.rows() == 0 || c.cols() == 0)
        return;
    if (k == 0) {  // a library would be asked for a zero-width leading dimension
        if (!accumulate)
            c.setZero();
        return;
    }
    if constexpr (std::is_same_v<T, float>)
        if (library == GemmLibrary::OneDnn) {
            dnnlSgemm(transA, transB, int(c.rows()), int(c.cols()), int(k), a.data(), leading(a), b.data(),
                      leading(b), accumulate ? 1.0f : 0.0f, c.data(), leading(c));
            return;
        }
#ifdef AS_OPENBLAS
    blas(transA ? kTrans : kNoTrans, transB ? kTrans : kNoTrans, int(c.rows()), int(c.cols()),
         int(k), a.data(), leading(a), b.data(), leading(b), accumulate ? T(1) : T(0), c.data(),
         leading(c));
#endif
}

template <typename T>
void gemm(In<T> a, bool transA, In<T> b, bool transB, Out<T> c, bool accumulate, GemmKind kind,
          GemmPass pass, const T* columnBias)
{
    if (columnBias && accumulate)
        throw std::logic_error("gemm: a bias is added to a product written over C, not to one added to it");
    const int site = gemmSite(kind, pass);
    if constexpr (std::is_same_v<T, float>) {
        if (GemmRecorder* r = gRecorder.load(std::memory_order_relaxed))
            r->add({transA, transB, accumulate || columnBias, int(c.rows()), int(c.cols()),
                    int(transA ? a.rows() : a.cols()), leading(a), leading(b), leading(c), site});
        const Eigen::Index k = transA ? a.rows() : a.cols();
        if (kind != GemmKind::Other && tPrecision == GemmPrecision::BFloat16
            && c.rows() > 0 && c.cols() > 0 && k > 0) {
            check<T>(a, transA, b, transB, c);
            QString error;
            if (!gemmBf16(transA, transB, int(c.rows()), int(c.cols()), int(k), a.data(), leading(a), b.data(),
                          leading(b), accumulate ? 1.0f : 0.0f, c.data(), leading(c), &error, columnBias))
                throw std::runtime_error("bfloat16 product: " + error.toStdString());
            return;
        }
    }
    if (columnBias) {
        // C = the bias (every row), then C += the product: BLAS clears C for beta = 0 and adds
        // to it with beta = 1, so the product adds to the bias instead of writing zeros that a
        // pass after it would add the bias to (the generator's logits of `tiny` are 16 MB: that
        // pass was a read and a write of them).
        const ProfileScope timed(ProfileCategory::Bias);
        for (Eigen::Index r = 0; r < c.rows(); ++r)
            std::copy(columnBias, columnBias + c.cols(), c.data() + r * leading(c));
        accumulate = true;
    }
    gemmWith<T>(gemmChoice(site), a, transA, b, transB, c, accumulate);
}

bool gemmPrecisionAvailable(GemmPrecision precision, QString* why)
{
    if (precision == GemmPrecision::BFloat16) {
        if (const QString no = bf16Unavailable(); !no.isEmpty()) {
            if (why)
                *why = no;
            return false;
        }
    }
    return true;
}

bool setGemmPrecision(GemmPrecision precision, QString* why)
{
    if (!gemmPrecisionAvailable(precision, why))
        return false;
    tPrecision = precision;
    return true;
}

GemmPrecision gemmPrecision()
{
    return tPrecision;
}

const char* gemmPrecisionName(GemmPrecision precision)
{
    return precision == GemmPrecision::BFloat16 ? "bfloat16" : "float32";
}

const char* gemmPrecisionArgument(GemmPrecision precision)
{
    return precision == GemmPrecision::BFloat16 ? "bf16" : "float32";
}

bool gemmPrecisionFromName(const QString& name, GemmPrecision* precision)
{
    if (name == QLatin1String("float32") || name == QLatin1String("fp32") || name == QLatin1String("f32"))
        *precision = GemmPrecision::Float32;
    else if (name == QLatin1String("bf16") || name == QLatin1String("bfloat16"))
        *precision = GemmPrecision::BFloat16;
    else
        return false;
    return true;
}

GemmPrecisionScope::GemmPrecisionScope(GemmPrecision precision) : before_(tPrecision)
{
    tPrecision = precision;
}

GemmPrecisionScope::~GemmPrecisionScope()
{
    tPrecision = before_;
}

const char* gemmBackend()
{
#ifdef AS_OPENBLAS
    return openBlas().backend.c_str();
#else
    return "Eigen";
#endif
}

const char* gemmLibraryConfig()
{
#ifdef AS_OPENBLAS
    return openBlas().config.c_str();
#else
    return "";
#endif
}

template void gemm<float>(In<float>, bool, In<float>, bool, Out<float>, bool, GemmKind, GemmPass,
                          const float*);
template void gemm<double>(In<double>, bool, In<double>, bool, Out<double>, bool, GemmKind, GemmPass,
                           const double*);
template void gemmWith<float>(GemmLibrary, In<float>, bool, In<float>, bool, Out<float>, bool);
template void gemmWith<double>(GemmLibrary, In<double>, bool, In<double>, bool, Out<double>, bool);
template void gemmEigen<float>(In<float>, bool, In<float>, bool, Out<float>, bool);
template void gemmEigen<double>(In<double>, bool, In<double>, bool, Out<double>, bool);

}  // namespace as
