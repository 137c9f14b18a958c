// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/peak.h"

#include "model/bf16.h"
#include "model/parallel.h"

#include <algorithm>
#include <chrono>
#include <limits>
#include <vector>

#if (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define AS_PEAK_X86 1
#endif

namespace as {

namespace {

// The multiplier and addend, 1, read from memory the compiler cannot see through: a constant 1
// would let it turn each FMA into an addition, and the timing would be of something else.
volatile float gPeakOne = 1.0f;
volatile unsigned short gPeakOneBf16 = 0x3f80;  // 1.0 in bfloat16

// A kernel: twelve chains, named so that each stays in a register of its own, started at
// INIT(0) … INIT(11), each round a = STEP(a), the lanes summed by SUM at the end (in double).
// SETUP declares what STEP multiplies and adds: a 1 the compiler cannot see.
#define AS_PEAK_KERNEL(NAME, ATTRIBUTES, SETUP, INIT, STEP, SUM)                                          \
    ATTRIBUTES double NAME(long rounds)                                                                  \
    {                                                                                                    \
        SETUP;                                                                                           \
        auto a0 = INIT(0), a1 = INIT(1), a2 = INIT(2), a3 = INIT(3), a4 = INIT(4), a5 = INIT(5);         \
        auto a6 = INIT(6), a7 = INIT(7), a8 = INIT(8), a9 = INIT(9), a10 = INIT(10), a11 = INIT(11);     \
        for (long r = 0; r < rounds; ++r) {                                                              \
            a0 = STEP(a0), a1 = STEP(a1), a2 = STEP(a2), a3 = STEP(a3), a4 = STEP(a4), a5 = STEP(a5);    \
            a6 = STEP(a6), a7 = STEP(a7), a8 = STEP(a8), a9 = STEP(a9), a10 = STEP(a10), a11 = STEP(a11); \
        }                                                                                                \
        return SUM(a0) + SUM(a1) + SUM(a2) + SUM(a3) + SUM(a4) + SUM(a5) + SUM(a6) + SUM(a7) + SUM(a8)   \
               + SUM(a9) + SUM(a10) + SUM(a11);                                                          \
    }

#ifdef AS_PEAK_X86
__attribute__((target("avx2"))) double peakSum256(__m256 v)
{
    alignas(32) float lanes[8];
    _mm256_store_ps(lanes, v);
    double sum = 0;
    for (float x : lanes)
        sum += double(x);
    return sum;
}

#define AS_SET512(i) _mm512_set1_ps(float(i))
#define AS_SUM512(x) double(_mm512_reduce_add_ps(x))
#define AS_FMA512(x) _mm512_fmadd_ps(x, one, one)
#define AS_DOT512(x) _mm512_dpbf16_ps(x, one, one)
#define AS_SET256(i) _mm256_set1_ps(float(i))
#define AS_FMA256(x) _mm256_fmadd_ps(x, one, one)
AS_PEAK_KERNEL(peakFma512, __attribute__((target("avx512f"))), const __m512 one = _mm512_set1_ps(gPeakOne),
               AS_SET512, AS_FMA512, AS_SUM512)
AS_PEAK_KERNEL(peakDpbf16, __attribute__((target("avx512f,avx512bf16"))),
               const __m512bh one = (__m512bh)_mm512_set1_epi16(short(gPeakOneBf16)), AS_SET512, AS_DOT512, AS_SUM512)
AS_PEAK_KERNEL(peakFma256, __attribute__((target("avx2,fma"))), const __m256 one = _mm256_set1_ps(gPeakOne),
               AS_SET256, AS_FMA256, peakSum256)
#undef AS_SET512
#undef AS_SUM512
#undef AS_FMA512
#undef AS_DOT512
#undef AS_SET256
#undef AS_FMA256
#endif

#define AS_SET1(i) float(i)
#define AS_FMA1(x) (x * one + one)
#define AS_SUM1(x) double(x)
AS_PEAK_KERNEL(peakFmaScalar, , const float one = gPeakOne, AS_SET1, AS_FMA1, AS_SUM1)
#undef AS_SET1
#undef AS_FMA1
#undef AS_SUM1
#undef AS_PEAK_KERNEL

enum class PeakVectors { Avx512, Avx2, Scalar };

PeakVectors peakVectors()
{
#ifdef AS_PEAK_X86
    if (__builtin_cpu_supports("avx512f"))
        return PeakVectors::Avx512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return PeakVectors::Avx2;
#endif
    return PeakVectors::Scalar;
}

int peakLanesOf(PeakVectors v)
{
    return v == PeakVectors::Avx512 ? 16 : v == PeakVectors::Avx2 ? 8 : 1;
}

double peakFloat32Kernel(long rounds)
{
    switch (peakVectors()) {
#ifdef AS_PEAK_X86
    case PeakVectors::Avx512: return peakFma512(rounds);
    case PeakVectors::Avx2: return peakFma256(rounds);
#endif
    default: return peakFmaScalar(rounds);
    }
}

bool peakHasBf16Dot()
{
#ifdef AS_PEAK_X86
    return cpuBf16Units().avx512bf16;
#else
    return false;
#endif
}

// The best of `runs` timed runs (after one to warm up) of every engine thread running
// kernel(rounds) at once, in GFLOP/s; flopsPerRound: one thread's in one round.
template <typename Kernel>
double peakRate(Kernel kernel, long rounds, int runs, double flopsPerRound)
{
    const int threads = engineThreads();
    std::vector<double> sink(std::size_t(threads), 0.0);
    double best = std::numeric_limits<double>::infinity();
    for (int run = 0; run <= runs; ++run) {
        const auto t0 = std::chrono::steady_clock::now();
        parallelChunks(threads, 1, [&](int, long b, long e) {
            for (long t = b; t < e; ++t)
                sink[std::size_t(t)] = kernel(rounds);
        });
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (run > 0)
            best = std::min(best, s);
    }
    return flopsPerRound * double(rounds) * threads / best / 1e9;
}

}  // namespace

PeakRates measurePeakRates(long rounds, int runs)
{
    PeakRates p;
    const PeakVectors v = peakVectors();
    p.float32Vectors = v == PeakVectors::Avx512 ? "AVX-512" : v == PeakVectors::Avx2 ? "AVX2" : "scalar";
    // Twelve chains a round, each lane an FMA: 2 flops.
    p.float32 = peakRate(peakFloat32Kernel, rounds, runs, 12.0 * peakLanesOf(v) * 2.0);
#ifdef AS_PEAK_X86
    // Each float32 lane of a VDPBF16PS: two products and two sums.
    if (peakHasBf16Dot())
        p.bf16 = peakRate(peakDpbf16, rounds, runs, 12.0 * 16 * 4.0);
#endif
    return p;
}

double peakFloat32Chains(long rounds)
{
    return peakFloat32Kernel(rounds);
}

int peakFloat32Lanes()
{
    return peakLanesOf(peakVectors());
}

double peakBf16Chains(long rounds)
{
#ifdef AS_PEAK_X86
    if (peakHasBf16Dot())
        return peakDpbf16(rounds);
#endif
    (void)rounds;
    return -1;
}

}  // namespace as
