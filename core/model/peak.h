// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The CPU's arithmetic peak, measured: how many floating-point operations a second the engine's
// threads can issue when they do nothing else, in float32 fused multiply-adds (VFMADD231PS: 2
// flops a lane, on the widest vectors the CPU has) and in bfloat16 dot products into float32
// (AVX512-BF16's VDPBF16PS: 4 flops for each float32 lane, two products and their two sums),
// twelve independent chains a thread, so that throughput, not latency, bounds them. No product
// of real matrices reaches it (operands must come from memory); it is the ceiling a product's
// rate is read against (`attention-studio-cli bench --gemm`, docs/performance.md).

namespace as {

struct PeakRates {
    double float32 = 0;  // GFLOP/s of float32 FMAs over the engine's threads
    double bf16 = 0;     // GFLOP/s of bfloat16 dot products; 0 where the CPU has no AVX512-BF16
    const char* float32Vectors = "";  // "AVX-512", "AVX2" or "scalar": the vectors the FMAs ran in
};

// Each of the engine's threads runs `rounds` rounds of the twelve chains (the best of `runs`
// timed runs after one to warm up).
PeakRates measurePeakRates(long rounds = 4'000'000, int runs = 3);

// What one thread's float32 chains hold after `rounds` rounds, summed: each of the twelve lanes'
// chain starts at its chain's index i and adds 1 each round (x·1 + 1), so the sum is
// lanes·(0 + 1 + … + 11) + 12·lanes·rounds, exact in float32 while each chain stays below 2^24.
// The kernels return it, so that the test can see they ran every instruction they are timed for.
double peakFloat32Chains(long rounds);
int peakFloat32Lanes();  // 16 (AVX-512), 8 (AVX2) or 1: the lanes of each chain above
// The same for the bfloat16 chains: each VDPBF16PS adds 1·1 + 1·1 = 2 to each float32 lane.
// Returns -1 where the CPU has no AVX512-BF16.
double peakBf16Chains(long rounds);

}  // namespace as
