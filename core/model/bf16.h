// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// bfloat16 mixed precision's matrix product (core/SPEC.md §2.14): the inputs rounded to
// bfloat16 (8 significant bits, float32's exponent), the products accumulated and written in
// float32, as PyTorch's CPU autocast computes a Linear. Two kernels compute it: the engine's own
// (model/bf16_gemm.cpp: AVX512-BF16's dot products on operands rounded while they are packed),
// and oneDNN's matmul primitive with bfloat16 inputs and a float32 output (Debian's libdnnl,
// loaded with the engine's other products, model/gemm.h), which also runs AMX-BF16's tiles.
// Offered only where the CPU has bfloat16 units: AVX512-BF16 (AMD Zen 4 and later, Intel Cooper
// Lake) or AMX-BF16 (Intel Sapphire Rapids and later). Elsewhere bf16Unavailable() says why,
// and nothing is computed.
#include <QString>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace as {

// float32 to bfloat16 by rounding to the nearest, ties to even, as the CPU's own conversion
// (AVX512-BF16's VCVTNEPS2BF16, which oneDNN uses) does: a NaN stays a NaN (quiet), infinities
// stay, and a subnormal float32 (below 2^-126 in magnitude) becomes a zero of its sign.
inline std::uint16_t toBfloat16(float x)
{
    std::uint32_t u;
    std::memcpy(&u, &x, sizeof u);
    if ((u & 0x7fffffffu) > 0x7f800000u)  // NaN: keep it one, whatever its payload's top bits
        return std::uint16_t((u >> 16) | 0x0040u);
    if ((u & 0x7f800000u) == 0)  // zero or subnormal: a zero of its sign
        return std::uint16_t((u >> 16) & 0x8000u);
    const std::uint32_t lsb = (u >> 16) & 1u;
    return std::uint16_t((u + 0x7fffu + lsb) >> 16);
}

inline float fromBfloat16(std::uint16_t b)
{
    const std::uint32_t u = std::uint32_t(b) << 16;
    float x;
    std::memcpy(&x, &u, sizeof x);
    return x;
}

// x[0, n) rounded as toBfloat16 rounds each, into out: with the CPU's conversion where it has
// AVX512-BF16, else one by one. The two give the same bits (tests/core/test_bf16.cpp).
void toBfloat16(const float* x, std::uint16_t* out, std::size_t n);

// The CPU's bfloat16 units, read from CPUID.
struct Bf16Units {
    bool avx512bf16 = false;  // AVX512_BF16: leaf 7 subleaf 1, EAX bit 5
    bool amxbf16 = false;     // AMX-BF16: leaf 7 subleaf 0, EDX bit 22
    bool any() const { return avx512bf16 || amxbf16; }
    QString names() const;    // "AVX512-BF16, AMX-BF16"; empty: none
};
Bf16Units cpuBf16Units();

// Why bfloat16 products cannot run here: no bfloat16 units in the CPU; or, where the engine's
// own kernel cannot run (a CPU with AMX-BF16 but not AVX512-BF16), why oneDNN's cannot: not
// installed, built without its headers, or its matmul refused them; or AS_BF16=off in the
// environment (as if the CPU had no units: the tests of the refusals run so everywhere). Empty:
// they can. Worked out once.
QString bf16Unavailable();
// Why oneDNN's bfloat16 product cannot run here (the reasons above, for it alone); empty: it can.
QString bf16OneDnnUnavailable();

// The kernel that computes gemmBf16's products here: oneDNN's where the CPU has AMX-BF16 and
// oneDNN may use it (its tiles; the engine's kernel has none), else the engine's own where the
// CPU has AVX512-BF16, else oneDNN's. AS_BF16_KERNEL=own or =onednn in the environment chooses
// (where that one can run), to compare them on one machine.
enum class Bf16Kernel : std::uint8_t { Packed, OneDnn };
Bf16Kernel bf16Kernel();
const char* bf16KernelName(Bf16Kernel kernel);  // "own", "onednn": the environment's and JSON's names

// The units the bfloat16 products run in here, for the user to see which kernels ran:
// "AMX-BF16" where oneDNN computes them and may use AMX (the CPU has it and ONEDNN_MAX_CPU_ISA
// does not forbid it: its GEMM, which the products' run-time shapes take, then computes in AMX
// tiles), else "AVX512-BF16"; empty where bfloat16 products cannot run (bf16Unavailable()).
QString bf16ProductUnits();

// C = op(A) op(B) (beta 0) or C += op(A) op(B) (beta 1), row-major with leading dimensions as
// CBLAS takes them; A and B rounded to bfloat16 first (toBfloat16), C in float32, by
// bf16Kernel()'s kernel. Runs in the calling thread. False, with *error, where bf16Unavailable()
// is not empty or oneDNN fails.
// columnBias (beta 0 only): C = op(A) op(B) + columnBias (one number per column of C), the bias
// added to each element's sum as C's old value would be with beta 1: the same bits as C filled
// with the bias and the product added (the own kernel adds it as it writes C, which spares a
// pass that writes the bias into C and the read of it; oneDNN's fills C first).
bool gemmBf16(bool transA, bool transB, int m, int n, int k, const float* a, int lda, const float* b, int ldb,
              float beta, float* c, int ldc, QString* error, const float* columnBias = nullptr);
// The same by oneDNN's kernel, whichever bf16Kernel() is: false, with *error, where
// bf16OneDnnUnavailable() is not empty or oneDNN fails.
bool gemmBf16OneDnn(bool transA, bool transB, int m, int n, int k, const float* a, int lda, const float* b,
                    int ldb, float beta, float* c, int ldc, QString* error);

// The oneDNN primitives the calling thread holds for gemmBf16OneDnn: one for each way of reading
// the operands and writing C that it has met (at most 8), whatever the shapes: the shapes are
// given at each call.
int gemmBf16Primitives();

// The elements of A and B the calling thread's oneDNN products have rounded to bfloat16 so far
// (each product rounds each once, but for the cut stated at gemmBf16OneDnn's blocks in
// model/bf16.cpp).
long long gemmBf16RoundedElements();

// The engine's own bfloat16 product (model/bf16_gemm.cpp), gemmBf16's contract without its
// refusals: AVX512-BF16's dot products on A and B rounded while they are packed for its kernel
// (one pass over each operand; oneDNN's product needs two); columnBias as gemmBf16 takes it. False,
// computing nothing, where the CPU lacks AVX512-BF16 (or AVX-512's BW, DQ and VL, which its
// packing uses), under AS_BF16=off, or for a bias with beta 1.
bool gemmBf16PackedAvailable();
bool gemmBf16Packed(bool transA, bool transB, int m, int n, int k, const float* a, int lda, const float* b, int ldb,
                    float beta, float* c, int ldc, const float* columnBias = nullptr);
// The elements of A and B the calling thread's packed products have rounded so far: each of B's
// once, each of A's once for each block of 1024 of C's columns (m·k·⌈n/1024⌉ + k·n).
long long gemmBf16PackedRoundedElements();

}  // namespace as
