// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/bf16.h"

#include "model/gemm.h"

#include <QCoreApplication>
#include <QStringList>

#include <array>
#include <map>
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
    decltype(&dnnl_memory_set_data_handle) setHandle = nullptr;
    decltype(&dnnl_primitive_execute) execute = nullptr;
    decltype(&dnnl_stream_wait) streamWait = nullptr;
    decltype(&dnnl_primitive_attr_set_scratchpad_mode) setScratchpadMode = nullptr;
    decltype(&dnnl_primitive_desc_query_md) queryMd = nullptr;
    decltype(&dnnl_memory_desc_get_size) descSize = nullptr;
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
                     && resolve(&d.setHandle, "dnnl_memory_set_data_handle")
                     && resolve(&d.execute, "dnnl_primitive_execute") && resolve(&d.streamWait, "dnnl_stream_wait")
                     && resolve(&d.setScratchpadMode, "dnnl_primitive_attr_set_scratchpad_mode")
                     && resolve(&d.queryMd, "dnnl_primitive_desc_query_md")
                     && resolve(&d.descSize, "dnnl_memory_desc_get_size");
    // One CPU engine for the program (it is thread-safe); each calling thread its own stream.
    d.ok = all && d.engineCreate(&d.engine, dnnl_cpu, 0) == dnnl_success;
    return d;
}

const DnnlApi& api()
{
    static const DnnlApi d = loadApi();
    return d;
}

// A product's primitive and its memory objects, made once per shape and thread (oneDNN's
// primitive descriptor costs more than a small product): a training step issues the same few
// shapes again and again. Released with the thread. Each primitive's scratchpad (where oneDNN
// packs the operands) is the thread's one buffer, not one per primitive: with a primitive per
// shape, oneDNN's own would keep tens of megabytes that are never in use at once.
struct Made {
    const DnnlApi* d = nullptr;
    dnnl_primitive_t primitive = nullptr;
    dnnl_memory_t memory[4] = {nullptr, nullptr, nullptr, nullptr};  // A, B, C, scratchpad
    std::size_t scratchpadBytes = 0;
    Made() = default;
    Made(const Made&) = delete;
    Made& operator=(const Made&) = delete;
    ~Made()
    {
        if (!d)
            return;
        for (dnnl_memory_t m : memory)
            if (m)
                d->memoryDestroy(m);
        if (primitive)
            d->primitiveDestroy(primitive);
    }
};
using MadeKey = std::array<long long, 7>;  // m, n, k, transA, transB, ldc, accumulate

// The stored matrix (rows × cols, leading dimension ld) rounded to bfloat16, packed.
void rounded(const float* x, int rows, int cols, int ld, std::vector<std::uint16_t>* out)
{
    out->resize(std::size_t(rows) * std::size_t(cols));
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
// Why not, as the English source of its message; nullptr: bfloat16 products can run.
const char* whyNoBf16()
{
    // As on a CPU without the units, whatever this one has: what the tests of the refusals run
    // under everywhere (.ci/run), and a way to compare a machine with itself.
    if (qEnvironmentVariable("AS_BF16") == QLatin1String("off"))
        return QT_TRANSLATE_NOOP("as::Bf16", "bfloat16 products are turned off here (AS_BF16=off)");
    const Bf16Units units = cpuBf16Units();
    if (!units.any())
        return QT_TRANSLATE_NOOP("as::Bf16", "this CPU has no bfloat16 units (AVX512-BF16 or AMX-BF16)");
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
}  // namespace

QString bf16Unavailable()
{
    // CPUID traps to the hypervisor in a virtual machine: asked once, not at every product, and
    // translated at each call (the window's language can change).
    static const char* const why = whyNoBf16();
    return why ? bf16Text(why) : QString();
}

bool gemmBf16(bool transA, bool transB, int m, int n, int k, const float* a, int lda, const float* b, int ldb,
              float beta, float* c, int ldc, QString* error)
{
    if (const QString why = bf16Unavailable(); !why.isEmpty()) {
        *error = why;
        return false;
    }
#ifndef AS_DNNL_HEADERS
    (void)transA, (void)transB, (void)m, (void)n, (void)k, (void)a, (void)lda, (void)b, (void)ldb, (void)beta,
        (void)c, (void)ldc;
    return false;
#else
    const DnnlApi& d = api();
    oneDnnOneThread();
    // The operands as stored, rounded and packed: A is m × k (k × m transposed), B k × n
    // (n × k); their descriptors say which way they are read.
    thread_local std::vector<std::uint16_t> aBf, bBf;
    rounded(a, transA ? k : m, transA ? m : k, lda, &aBf);
    rounded(b, transB ? n : k, transB ? k : n, ldb, &bBf);
    const dnnl_dims_t aDims{m, k}, bDims{k, n}, cDims{m, n};
    const dnnl_dims_t aStrides{transA ? 1 : k, transA ? m : 1};
    const dnnl_dims_t bStrides{transB ? 1 : n, transB ? k : 1};
    const dnnl_dims_t cStrides{ldc, 1};
    auto failed = [&](const char* what, dnnl_status_t status) {
        *error = bf16Text(QT_TRANSLATE_NOOP("as::Bf16", "oneDNN's bfloat16 matmul failed (%1: status %2)"))
                     .arg(QLatin1String(what))
                     .arg(int(status));
        return false;
    };
    thread_local std::map<MadeKey, std::unique_ptr<Made>> madeFor;
    const MadeKey key{m, n, k, transA, transB, ldc, beta != 0.0f};
    auto found = madeFor.find(key);
    if (found == madeFor.end()) {
        auto made = std::make_unique<Made>();
        made->d = &d;
        dnnl_memory_desc_t aDesc, bDesc, cDesc;
        dnnl_matmul_desc_t desc;
        dnnl_status_t st = d.descByStrides(&aDesc, 2, aDims, dnnl_bf16, aStrides);
        if (st == dnnl_success)
            st = d.descByStrides(&bDesc, 2, bDims, dnnl_bf16, bStrides);
        if (st == dnnl_success)
            st = d.descByStrides(&cDesc, 2, cDims, dnnl_f32, cStrides);
        if (st != dnnl_success)
            return failed("memory descriptor", st);
        if ((st = d.matmulDesc(&desc, &aDesc, &bDesc, nullptr, &cDesc)) != dnnl_success)
            return failed("matmul descriptor", st);
        dnnl_primitive_attr_t attr = nullptr;
        dnnl_post_ops_t postOps = nullptr;
        dnnl_primitive_desc_t pd = nullptr;
        if ((st = d.attrCreate(&attr)) == dnnl_success)
            st = d.setScratchpadMode(attr, dnnl_scratchpad_mode_user);
        if (st == dnnl_success && beta != 0.0f) {
            // C += A B: oneDNN's sum post-op adds what C held, scaled.
            if ((st = d.postOpsCreate(&postOps)) == dnnl_success && (st = d.appendSum(postOps, beta)) == dnnl_success)
                st = d.setPostOps(attr, postOps);
        }
        if (st == dnnl_success)
            st = d.pdCreate(&pd, &desc, attr, d.engine, nullptr);
        if (st == dnnl_success)
            st = d.primitiveCreate(&made->primitive, pd);
        if (st == dnnl_success)
            if (const dnnl_memory_desc_t* scratch = d.queryMd(pd, dnnl_query_scratchpad_md, 0)) {
                made->scratchpadBytes = d.descSize(scratch);
                if (made->scratchpadBytes > 0)
                    st = d.memoryCreate(&made->memory[3], scratch, d.engine, DNNL_MEMORY_NONE);
            }
        if (pd)
            d.pdDestroy(pd);
        if (postOps)
            d.postOpsDestroy(postOps);
        if (attr)
            d.attrDestroy(attr);
        if (st != dnnl_success)
            return failed("primitive", st);
        if ((st = d.memoryCreate(&made->memory[0], &aDesc, d.engine, DNNL_MEMORY_NONE)) != dnnl_success
            || (st = d.memoryCreate(&made->memory[1], &bDesc, d.engine, DNNL_MEMORY_NONE)) != dnnl_success
            || (st = d.memoryCreate(&made->memory[2], &cDesc, d.engine, DNNL_MEMORY_NONE)) != dnnl_success)
            return failed("memory", st);
        found = madeFor.emplace(key, std::move(made)).first;
    }
    Made& made = *found->second;
    dnnl_status_t st = d.setHandle(made.memory[0], aBf.data());
    if (st == dnnl_success)
        st = d.setHandle(made.memory[1], bBf.data());
    if (st == dnnl_success)
        st = d.setHandle(made.memory[2], c);
    struct AlignedFree {
        void operator()(std::byte* p) const { ::operator delete[](p, std::align_val_t(64)); }
    };
    thread_local std::unique_ptr<std::byte[], AlignedFree> scratchpad;
    thread_local std::size_t scratchpadBytes = 0;
    if (st == dnnl_success && made.scratchpadBytes > 0) {
        if (scratchpadBytes < made.scratchpadBytes) {
            scratchpad.reset(new (std::align_val_t(64)) std::byte[made.scratchpadBytes]);
            scratchpadBytes = made.scratchpadBytes;
        }
        st = d.setHandle(made.memory[3], scratchpad.get());
    }
    if (st != dnnl_success)
        return failed("memory", st);
    thread_local dnnl_stream_t stream = nullptr;
    if (!stream && (st = d.streamCreate(&stream, d.engine, dnnl_stream_default_flags)) != dnnl_success) {
        stream = nullptr;
        return failed("stream", st);
    }
    const dnnl_exec_arg_t args[4] = {{DNNL_ARG_SRC, made.memory[0]},
                                     {DNNL_ARG_WEIGHTS, made.memory[1]},
                                     {DNNL_ARG_DST, made.memory[2]},
                                     {DNNL_ARG_SCRATCHPAD, made.memory[3]}};
    if ((st = d.execute(made.primitive, stream, made.memory[3] ? 4 : 3, args)) != dnnl_success || (st = d.streamWait(stream)) != dnnl_success)
        return failed("execute", st);
    return true;
#endif
}

}  // namespace as
