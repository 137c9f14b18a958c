// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/gemm_replay.h"

#include "model/parallel.h"

#include <algorithm>
#include <chrono>

namespace as {

double replayGemmCalls(const std::vector<std::vector<GemmCall>>& lists, int rounds,
                       std::optional<GemmLibrary> library)
{
    // Each list's own operands, as large as its largest call needs, filled once: what the
    // numbers are does not change the time of a product.
    struct Buffers {
        std::vector<float> a, b, c;
    };
    std::vector<Buffers> buffers(lists.size());
    for (std::size_t i = 0; i < lists.size(); ++i) {
        std::size_t na = 0, nb = 0, nc = 0;
        for (const GemmCall& g : lists[i]) {
            na = std::max(na, std::size_t(g.transA ? g.k : g.m) * std::size_t(g.lda));
            nb = std::max(nb, std::size_t(g.transB ? g.n : g.k) * std::size_t(g.ldb));
            nc = std::max(nc, std::size_t(g.m) * std::size_t(g.ldc));
        }
        buffers[i].a.assign(na, 0.01f);
        buffers[i].b.assign(nb, 0.02f);
        buffers[i].c.assign(nc, 0.0f);
    }
    const auto replay = [&](std::size_t i) {
        Buffers& buf = buffers[i];
        for (const GemmCall& g : lists[i]) {
            const Eigen::Map<const Mat<float>, 0, Eigen::OuterStride<>> a(
                buf.a.data(), g.transA ? g.k : g.m, g.transA ? g.m : g.k, Eigen::OuterStride<>(g.lda));
            const Eigen::Map<const Mat<float>, 0, Eigen::OuterStride<>> b(
                buf.b.data(), g.transB ? g.n : g.k, g.transB ? g.k : g.n, Eigen::OuterStride<>(g.ldb));
            Eigen::Map<Mat<float>, 0, Eigen::OuterStride<>> c(buf.c.data(), g.m, g.n,
                                                               Eigen::OuterStride<>(g.ldc));
            if (library)
                gemmWith<float>(*library, a, g.transA, b, g.transB, c, g.accumulate);
            else
                gemm<float>(a, g.transA, b, g.transB, c, g.accumulate,
                            GemmKind(g.site / kGemmPasses), GemmPass(g.site % kGemmPasses));
        }
    };
    std::vector<double> times;
    for (int r = 0; r <= rounds; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        parallelChunks(long(lists.size()), 1, [&](int, long from, long to) {
            for (long i = from; i < to; ++i)
                replay(std::size_t(i));
        });
        if (r > 0)
            times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    if (times.empty())
        return 0;
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

}  // namespace as
