// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/bf16.h"

#include "model/gemm.h"

#include <QCoreApplication>
#include <QStringList>

#include <array>
#include <cstddef>
#include <memory>
#include <new>
#include <vector>

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#define AS_HAVE_CPUID 1
#define AS_HAVE_VCVTNE 1
#endif

// oneDNN's C API's types (Debian's libdnnl-dev); its functions come from the library the
// products load at run time. Without the headers the build works and refuses bfloat16.
#if __has_include(<oneapi/dnnl/dnnl.h>)
#include <oneapi/dnnl/dnnl.h>
#define AS_DNNL_HEADERS 1
#endif

namespace as {

namespace {

QString bf16Text(const char* s) { return QCoreApplication::translate("as::Bf16", s); }

#ifdef AS_DNNL_HEADERS
// oneDNN's C API, from the library the products loaded (model/gemm.h), by the header's types.
struct DnnlApi {
    decltype(&dnnl_engine_create) engineCreate = nullptr;
    decltype(&dnnl_stream_create) streamCreate = nullptr;
    decltype(&dnnl_stream_destroy) streamDestroy = nullptr;
    decltype(&dnnl_memory_desc_init_by_strides) descByStrides = nullptr;
    decltype(&dnnl_matmul_desc_init) matmulDesc = nullptr;
    decltype(&dnnl_primitive_attr_create) attrCreate = nullptr;
    decltype(&dnnl_primitive_attr_destroy) attrDestroy = nullptr;
    decltype(&dnnl_post_ops_create) postOpsCreate = nullptr;
    decltype(&dnnl_post_ops_destroy) postOpsDestroy = nullptr;
    decltype(&dnnl_post_ops_append_sum) appendSum = nullptr;
    decltype(&dnnl_primitive_attr_set_post_ops) setPostOps = nullptr;
    decltype(&dnnl_primitive_desc_create) pdCreate = nullptr;
    decltype(&dnnl_primitive_desc_destroy) pdDestroy = nullptr;
    decltype(&dnnl_primitive_create) primitiveCreate = nullptr;
    decltype(&dnnl_primitive_destroy) primitiveDestroy = nullptr;
    decltype(&dnnl_memory_create) memoryCreate = nullptr;
    decltype(&dnnl_memory_destroy) memoryDestroy = nullptr;
    decltype(&dnnl_primitive_execute) execute = nullptr;
    decltype(&dnnl_stream_wait) streamWait = nullptr;
    dnnl_engine_t engine = nullptr;
    bool ok = false;
};

template <typename F>
bool resolve(F* f, const char* name)
{
    *f = reinterpret_cast<F>(oneDnnSymbol(name));
    return *f != nullptr;
}

DnnlApi loadApi()
{
    DnnlApi d;
    const bool all = resolve(&d.engineCreate, "dnnl_engine_create") && resolve(&d.streamCreate, "dnnl_stream_create")
                     && resolve(&d.streamDestroy, "dnnl_stream_destroy")
                     && resolve(&d.descByStrides, "dnnl_memory_desc_init_by_strides")
                     && resolve(&d.matmulDesc, "dnnl_matmul_desc_init")
                     && resolve(&d.attrCreate, "dnnl_primitive_attr_create")
                     && resolve(&d.attrDestroy, "dnnl_primitive_attr_destroy")
                     && resolve(&d.postOpsCreate, "dnnl_post_ops_create")
                     && resolve(&d.postOpsDestroy, "dnnl_post_ops_destroy")
                     && resolve(&d.appendSum, "dnnl_post_ops_append_sum")
                     && resolve(&d.setPostOps, "dnnl_primitive_attr_set_post_ops")
                     && resolve(&d.pdCreate, "dnnl_primitive_desc_create")
                     && resolve(&d.pdDestroy, "dnnl_primitive_desc_destroy")
                     && resolve(&d.primitiveCreate, "dnnl_primitive_create")
                     && resolve(&d.primitiveDestroy, "dnnl_primitive_destroy")
                     && resolve(&d.memoryCreate, "dnnl_memory_create")
                     && resolve(&d.memoryDestroy, "dnnl_memory_destroy")
                     && resolve(&d.execute, "dnnl_primitive_execute") && resolve(&d.streamWait, "dnnl_stream_wait");
    // One CPU engine for the program (it is thread-safe); each calling thread its own stream.
    d.ok = all && d.engineCreate(&d.engine, dnnl_cpu, 0) == dnnl_success;
    return d;
}

const DnnlApi& api()
{
    static const DnnlApi d = loadApi();
    return d;
}

// A product's primitive, made once per thread for each way of reading the operands (transposed
// or not) and of writing C (= or +=), its shapes and strides left to run time
// (DNNL_RUNTIME_DIM_VAL): the number of tokens changes from batch to batch, and a primitive per
// shape (what oneDNN's fixed-shape brgemm kernels need) grew without bound in real training:
// 2,150 primitives and +314 MiB in 300 steps of zh-en. A run-time shape costs oneDNN's brgemm
// kernel, used for fixed shapes, about a tenth of the products' speed; it bounds the primitives
// at eight per thread. The memory objects are made at each call with the call's shapes.
struct Made {
    const DnnlApi* d = nullptr;
    dnnl_primitive_t primitive = nullptr;
    Made() = default;
    Made(const Made&) = delete;
    Made& operator=(const Made&) = delete;
    ~Made()
    {
        if (d && primitive)
            d->primitiveDestroy(primitive);
    }
};

std::array<std::unique_ptr<Made>, 8>& threadsPrimitives()
{
    thread_local std::array<std::unique_ptr<Made>, 8> made;
    return made;
}

// A call's three memory objects, released when the call ends.
struct CallMemory {
    const DnnlApi* d = nullptr;
    dnnl_memory_t memory[3] = {nullptr, nullptr, nullptr};  // A, B, C
    CallMemory() = default;
    CallMemory(const CallMemory&) = delete;
    CallMemory& operator=(const CallMemory&) = delete;
    ~CallMemory()
    {
        for (dnnl_memory_t m : memory)
            if (m)
                d->memoryDestroy(m);
    }
};

thread_local long long tRoundedElements = 0;

// The stored matrix (rows × cols, leading dimension ld) rounded to bfloat16, packed.
void rounded(const float* x, int rows, int cols, int ld, std::vector<std::uint16_t>* out)
{
    out->resize(std::size_t(rows) * std::size_t(cols));
    tRoundedElements += (long long)(out->size());
    if (ld == cols) {
        toBfloat16(x, out->data(), out->size());
        return;
    }
    for (int r = 0; r < rows; ++r)
        toBfloat16(x + std::size_t(r) * std::size_t(ld), out->data() + std::size_t(r) * std::size_t(cols),
                   std::size_t(cols));
}
#endif

#ifdef AS_HAVE_VCVTNE
// 32 floats at a time by VCVTNE2PS2BF16, the rest by the masked VCVTNEPS2BF16: round to nearest,
// ties to even, subnormals to zero, NaN quiet (Intel's definition, which toBfloat16 follows).
__attribute__((target("avx512f,avx512bw,avx512vl,avx512bf16"))) void roundVector(const float* x, std::uint16_t* out,
                                                                                    std::size_t n)
{
    std::size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        const __m512 lo = _mm512_loadu_ps(x + i), hi = _mm512_loadu_ps(x + i + 16);
        _mm512_storeu_si512(out + i, __m512i(_mm512_cvtne2ps_pbh(hi, lo)));
    }
    for (; i < n; i += 16) {
        const std::size_t left = n - i < 16 ? n - i : 16;
        const __mmask16 mask = __mmask16((1u << left) - 1u);
        const __m512 v = _mm512_maskz_loadu_ps(mask, x + i);
        _mm256_mask_storeu_epi16(out + i, mask, __m256i(_mm512_cvtneps_pbh(v)));
    }
}
#endif

}  // namespace

void toBfloat16(const float* x, std::uint16_t* out, std::size_t n)
{
#ifdef AS_HAVE_VCVTNE
    static const bool vector = cpuBf16Units().avx512bf16 && __builtin_cpu_supports("avx512bw")
                               && __builtin_cpu_supports("avx512vl");
    if (vector) {
        roundVector(x, out, n);
        return;
    }
#endif
    for (std::size_t i = 0; i < n; ++i)
        out[i] = toBfloat16(x[i]);
}

QString Bf16Units::names() const
{
    QStringList n;
    if (avx512bf16)
        n << QStringLiteral("AVX512-BF16");
    if (amxbf16)
        n << QStringLiteral("AMX-BF16");
    return n.join(QStringLiteral(", "));
}

Bf16Units cpuBf16Units()
{
    Bf16Units u;
#ifdef AS_HAVE_CPUID
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (__get_cpuid_max(0, nullptr) >= 7) {
        __cpuid_count(7, 0, eax, ebx, ecx, edx);
        u.amxbf16 = (edx >> 22) & 1u;
        const unsigned subleaves = eax;
        if (subleaves >= 1) {
            __cpuid_count(7, 1, eax, ebx, ecx, edx);
            u.avx512bf16 = (eax >> 5) & 1u;
        }
    }
#endif
    return u;
}

namespace {
const char* const kBf16Off = QT_TRANSLATE_NOOP("as::Bf16", "bfloat16 products are turned off here (AS_BF16=off)");
const char* const kNoBf16Units =
    QT_TRANSLATE_NOOP("as::Bf16", "this CPU has no bfloat16 units (AVX512-BF16 or AMX-BF16)");

// Why not oneDNN's product, as the English source of its message; nullptr: it can run.
const char* whyNoOneDnnBf16()
{
    // As on a CPU without the units, whatever this one has: what the tests of the refusals run
    // under everywhere (.ci/run), and a way to compare a machine with itself.
    if (qEnvironmentVariable("AS_BF16") == QLatin1String("off"))
        return kBf16Off;
    if (!cpuBf16Units().any())
        return kNoBf16Units;
#ifndef AS_DNNL_HEADERS
    return QT_TRANSLATE_NOOP("as::Bf16", "this build has no oneDNN headers (Debian's libdnnl-dev) for its "
                                         "bfloat16 products");
#else
    if (!oneDnnSymbol("dnnl_version"))
        return QT_TRANSLATE_NOOP("as::Bf16", "oneDNN, which computes the bfloat16 products, is not installed "
                                             "(Debian's libdnnl2)");
    if (!api().ok)
        return QT_TRANSLATE_NOOP("as::Bf16", "the oneDNN installed lacks the matmul primitive");
    return nullptr;
#endif
}

// CPUID traps to the hypervisor in a virtual machine: asked once, not at every product, and
// translated at each call (the window's language can change).
const char* oneDnnWhy()
{
    static const char* const why = whyNoOneDnnBf16();
    return why;
}

// Whether oneDNN's products may compute in AMX's tiles here (its GEMM asks the same,
// mayiuse(avx512_core_amx)): the CPU's units as far as the library may use them. Asked once.
// Without AMX-BF16 in the CPU, no: asked without loading oneDNN, which the engine's own kernel
// then computes without (loading it to ask kept 2.5 MiB of it resident in every bfloat16 run).
bool oneDnnAmx()
{
#ifdef AS_DNNL_HEADERS
    static const bool amx = [] {
        if (!cpuBf16Units().amxbf16 || oneDnnWhy())
            return false;
        using EffectiveIsa = dnnl_cpu_isa_t (*)();
        const auto isa = reinterpret_cast<EffectiveIsa>(oneDnnSymbol("dnnl_get_effective_cpu_isa"));
        return isa && (isa() & dnnl_cpu_isa_avx512_core_amx) == dnnl_cpu_isa_avx512_core_amx;
    }();
    return amx;
#else
    return false;
#endif
}
}  // namespace

QString bf16OneDnnUnavailable()
{
    const char* why = oneDnnWhy();
    return why ? bf16Text(why) : QString();
}

Bf16Kernel bf16Kernel()
{
    static const Bf16Kernel kernel = [] {
        const QString want = qEnvironmentVariable("AS_BF16_KERNEL");
        if (want == QLatin1String("onednn") && !oneDnnWhy())
            return Bf16Kernel::OneDnn;
        if (!gemmBf16PackedAvailable())
            return Bf16Kernel::OneDnn;
        if (want == QLatin1String("own"))
            return Bf16Kernel::Packed;
        return oneDnnAmx() ? Bf16Kernel::OneDnn : Bf16Kernel::Packed;
    }();
    return kernel;
}

const char* bf16KernelName(Bf16Kernel kernel)
{
    return kernel == Bf16Kernel::Packed ? "own" : "onednn";
}

namespace {
// Why bfloat16 products cannot run here, as the English source of its message; nullptr: they
// can. Worked out once, as oneDnnWhy: gemmBf16 asks at every product, and the CPUID instructions
// behind cpuBf16Units trap to the hypervisor in a virtual machine (about 200 products a step of
// `small`; `perf record` put 0.6 % of the bfloat16 step's samples in cpuBf16Units).
const char* bf16Why()
{
    static const char* const why = []() -> const char* {
        if (qEnvironmentVariable("AS_BF16") == QLatin1String("off"))
            return kBf16Off;
        if (!cpuBf16Units().any())
            return kNoBf16Units;
        return bf16Kernel() == Bf16Kernel::Packed ? nullptr : oneDnnWhy();
    }();
    return why;
}
}  // namespace

QString bf16Unavailable()
{
    const char* why = bf16Why();
    return why ? bf16Text(why) : QString();
}

QString bf16ProductUnits()
{
    if (!bf16Unavailable().isEmpty())
        return {};
    return bf16Kernel() == Bf16Kernel::OneDnn && oneDnnAmx() ? QStringLiteral("AMX-BF16")
                                                              : QStringLiteral("AVX512-BF16");
}

#ifdef AS_DNNL_HEADERS
namespace {
// One block of a product (gemmBf16OneDnn cuts the large ones), its operands already rounded and packed:
// A is m × k (stored k × m where transA), B k × n (stored n × k where transB); their
// descriptors say which way they are read.
bool gemmBf16Block(bool transA, bool transB, int m, int n, int k, const std::uint16_t* aBf,
                   const std::uint16_t* bBf, float beta, float* c, int ldc, QString* error)
{
    const DnnlApi& d = api();
    oneDnnOneThread();
    auto failed = [&](const char* what, dnnl_status_t status) {
        *error = bf16Text(QT_TRANSLATE_NOOP("as::Bf16", "oneDNN's bfloat16 matmul failed (%1: status %2)"))
                     .arg(QLatin1String(what))
                     .arg(int(status));
        return false;
    };
    // The primitive's descriptors: every dimension and stride known only at run time.
    constexpr dnnl_dim_t R = DNNL_RUNTIME_DIM_VAL;
    const dnnl_dims_t runtime{R, R}, runtimeRowMajor{R, 1}, runtimeColumnMajor{1, R};
    std::array<std::unique_ptr<Made>, 8>& madeFor = threadsPrimitives();
    std::unique_ptr<Made>& slot = madeFor[(transA ? 4 : 0) + (transB ? 2 : 0) + (beta != 0.0f ? 1 : 0)];
    if (!slot) {
        auto made = std::make_unique<Made>();
        made->d = &d;
        dnnl_memory_desc_t aDesc, bDesc, cDesc;
        dnnl_matmul_desc_t desc;
        dnnl_status_t st = d.descByStrides(&aDesc, 2, runtime, dnnl_bf16, transA ? runtimeColumnMajor : runtimeRowMajor);
        if (st == dnnl_success)
            st = d.descByStrides(&bDesc, 2, runtime, dnnl_bf16, transB ? runtimeColumnMajor : runtimeRowMajor);
        if (st == dnnl_success)
            st = d.descByStrides(&cDesc, 2, runtime, dnnl_f32, runtimeRowMajor);
        if (st != dnnl_success)
            return failed("memory descriptor", st);
        if ((st = d.matmulDesc(&desc, &aDesc, &bDesc, nullptr, &cDesc)) != dnnl_success)
            return failed("matmul descriptor", st);
        dnnl_primitive_attr_t attr = nullptr;
        dnnl_post_ops_t postOps = nullptr;
        dnnl_primitive_desc_t pd = nullptr;
        st = d.attrCreate(&attr);
        if (st == dnnl_success && beta != 0.0f) {
            // C += A B: oneDNN's sum post-op adds what C held, scaled.
            if ((st = d.postOpsCreate(&postOps)) == dnnl_success && (st = d.appendSum(postOps, beta)) == dnnl_success)
                st = d.setPostOps(attr, postOps);
        }
        if (st == dnnl_success)
            st = d.pdCreate(&pd, &desc, attr, d.engine, nullptr);
        if (st == dnnl_success)
            st = d.primitiveCreate(&made->primitive, pd);
        if (pd)
            d.pdDestroy(pd);
        if (postOps)
            d.postOpsDestroy(postOps);
        if (attr)
            d.attrDestroy(attr);
        if (st != dnnl_success)
            return failed("primitive", st);
        slot = std::move(made);
    }
    const Made& made = *slot;
    // This call's memory: the rounded operands packed (A is m × k, or k × m read transposed; B
    // k × n, or n × k), C as the caller stores it.
    const dnnl_dims_t aDims{m, k}, bDims{k, n}, cDims{m, n};
    const dnnl_dims_t aStrides{transA ? 1 : k, transA ? m : 1};
    const dnnl_dims_t bStrides{transB ? 1 : n, transB ? k : 1};
    const dnnl_dims_t cStrides{ldc, 1};
    dnnl_memory_desc_t aDesc, bDesc, cDesc;
    CallMemory memory;
    memory.d = &d;
    dnnl_status_t st = d.descByStrides(&aDesc, 2, aDims, dnnl_bf16, aStrides);
    if (st == dnnl_success)
        st = d.descByStrides(&bDesc, 2, bDims, dnnl_bf16, bStrides);
    if (st == dnnl_success)
        st = d.descByStrides(&cDesc, 2, cDims, dnnl_f32, cStrides);
    if (st == dnnl_success)
        st = d.memoryCreate(&memory.memory[0], &aDesc, d.engine, const_cast<std::uint16_t*>(aBf));
    if (st == dnnl_success)
        st = d.memoryCreate(&memory.memory[1], &bDesc, d.engine, const_cast<std::uint16_t*>(bBf));
    if (st == dnnl_success)
        st = d.memoryCreate(&memory.memory[2], &cDesc, d.engine, c);
    if (st != dnnl_success)
        return failed("memory", st);
    // The thread's stream, released with the thread (a pool's threads live as long as the
    // program; others come and go).
    struct ThreadStream {
        const DnnlApi* d = nullptr;
        dnnl_stream_t stream = nullptr;
        ~ThreadStream()
        {
            if (stream)
                d->streamDestroy(stream);
        }
    };
    thread_local ThreadStream own;
    if (!own.stream) {
        own.d = &d;
        if ((st = d.streamCreate(&own.stream, d.engine, dnnl_stream_default_flags)) != dnnl_success) {
            own.stream = nullptr;
            return failed("stream", st);
        }
    }
    dnnl_stream_t stream = own.stream;
    const dnnl_exec_arg_t args[3] = {{DNNL_ARG_SRC, memory.memory[0]},
                                     {DNNL_ARG_WEIGHTS, memory.memory[1]},
                                     {DNNL_ARG_DST, memory.memory[2]}};
    if ((st = d.execute(made.primitive, stream, 3, args)) != dnnl_success || (st = d.streamWait(stream)) != dnnl_success)
        return failed("execute", st);
    return true;
}

// The most elements a block's rounded operand holds: 2^18 (512 KiB in bfloat16), the operands of
// a small layer whole. A larger product (the generator's, with a vocabulary's rows or its inner
// dimension) is cut into blocks: the rounded copies stay this size, not the operands' (13 MiB on
// `small`'s two threads, above the float32 step's whole peak).
constexpr long long kMaxRoundedElements = 1LL << 18;

// How a product is cut: blocks of kb of the inner dimension, mb of C's rows, nb of its columns.
// Each element of A and B is rounded once where one operand's block can be held whole while the
// other's are walked (every product of the engine's layers); only where both C's rows and its
// columns must be cut (both above 4096 with the inner dimension cut to 64) are B's blocks
// rounded again for each block of rows. Cutting the rows or columns leaves each element of C the
// same sum; cutting the inner dimension adds its blocks' sums in float32, as oneDNN's own
// kernels add theirs.
struct Blocks {
    int mb, nb, kb;
};

int fit64(long long elements, int other, int count)  // at most count, a multiple of 64, ≥ 64
{
    const long long fit = std::max<long long>(64, elements / std::max(other, 1) / 64 * 64);
    return int(std::min<long long>(count, fit));
}

Blocks blocksOf(int m, int n, int k)
{
    const long long L = kMaxRoundedElements;
    Blocks b{m, n, k};
    if (1LL * m * k > L && 1LL * k * n > L)  // neither operand whole: cut the inner dimension
        b.kb = fit64(L, std::max(m, n), k);
    if (1LL * m * b.kb > L)
        b.mb = fit64(L, b.kb, m);
    if (1LL * b.kb * n > L)
        b.nb = fit64(L, b.kb, n);
    return b;
}
}  // namespace
#endif

int gemmBf16Primitives()
{
#ifdef AS_DNNL_HEADERS
    const auto& made = threadsPrimitives();
    return int(std::count_if(made.begin(), made.end(), [](const auto& p) { return p != nullptr; }));
#else
    return 0;
#endif
}

long long gemmBf16RoundedElements()
{
#ifdef AS_DNNL_HEADERS
    return tRoundedElements;
#else
    return 0;
#endif
}

bool gemmBf16(bool transA, bool transB, int m, int n, int k, const float* a, int lda, const float* b, int ldb,
              float beta, float* c, int ldc, QString* error, const float* columnBias)
{
    if (const char* why = bf16Why()) {
        *error = bf16Text(why);
        return false;
    }
    if (columnBias && beta != 0.0f) {
        *error = QStringLiteral("a bias is added to a product written over C, not to one added to it");
        return false;
    }
    if (bf16Kernel() == Bf16Kernel::Packed
        && gemmBf16Packed(transA, transB, m, n, k, a, lda, b, ldb, beta, c, ldc, columnBias))
        return true;
    if (columnBias) {  // oneDNN's kernel: C filled with the bias, the product added to it
        for (int i = 0; i < m; ++i)
            std::copy(columnBias, columnBias + n, c + std::size_t(i) * std::size_t(ldc));
        beta = 1.0f;
    }
    return gemmBf16OneDnn(transA, transB, m, n, k, a, lda, b, ldb, beta, c, ldc, error);
}

bool gemmBf16OneDnn(bool transA, bool transB, int m, int n, int k, const float* a, int lda, const float* b,
                    int ldb, float beta, float* c, int ldc, QString* error)
{
    if (const char* why = oneDnnWhy()) {
        *error = bf16Text(why);
        return false;
    }
#ifndef AS_DNNL_HEADERS
    (void)transA, (void)transB, (void)m, (void)n, (void)k, (void)a, (void)lda, (void)b, (void)ldb, (void)beta,
        (void)c, (void)ldc;
    return false;
#else
    const Blocks cut = blocksOf(m, n, k);
    // The thread's rounded blocks of A and B.
    thread_local std::vector<std::uint16_t> aBf, bBf;
    // A's block (rows i, inner p) as stored: m × k, or k × m where transposed.
    auto roundA = [&](int i, int rows, int p, int depth) {
        if (transA)
            rounded(a + std::size_t(p) * std::size_t(lda) + std::size_t(i), depth, rows, lda, &aBf);
        else
            rounded(a + std::size_t(i) * std::size_t(lda) + std::size_t(p), rows, depth, lda, &aBf);
    };
    auto roundB = [&](int j, int cols, int p, int depth) {
        if (transB)
            rounded(b + std::size_t(j) * std::size_t(ldb) + std::size_t(p), cols, depth, ldb, &bBf);
        else
            rounded(b + std::size_t(p) * std::size_t(ldb) + std::size_t(j), depth, cols, ldb, &bBf);
    };
    for (int p = 0; p < k; p += cut.kb) {
        const int depth = std::min(cut.kb, k - p);
        const float betaHere = p == 0 ? beta : 1.0f;  // later inner blocks add to the first's sums
        const bool bWhole = cut.nb == n;  // B's block for these inner rows, rounded once for all of A's
        if (bWhole)
            roundB(0, n, p, depth);
        for (int i = 0; i < m; i += cut.mb) {
            const int rows = std::min(cut.mb, m - i);
            roundA(i, rows, p, depth);
            for (int j = 0; j < n; j += cut.nb) {
                const int cols = std::min(cut.nb, n - j);
                if (!bWhole)
                    roundB(j, cols, p, depth);
                if (!gemmBf16Block(transA, transB, rows, cols, depth, aBf.data(), bBf.data(), betaHere,
                                   c + std::size_t(i) * std::size_t(ldc) + std::size_t(j), ldc, error))
                    return false;
            }
        }
    }
    return true;
#endif
}

}  // namespace as
