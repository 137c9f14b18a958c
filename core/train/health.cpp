// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "train/health.h"

#include <Eigen/Core>

#include <algorithm>
#include <cmath>

namespace as {

namespace {
// log(|x|) * this − kHistogramLowDecade * kHistogramBinsPerDecade is the bin, before flooring.
constexpr float kBinsPerLn = float(kHistogramBinsPerDecade / 2.302585092994045684);
constexpr float kBinOffset = float(-kHistogramLowDecade * kHistogramBinsPerDecade);
}  // namespace

void addToHistogram(const float* x, std::size_t n, std::uint32_t* counts, std::uint32_t* nonFinite)
{
    // Eigen's vectorised log over chunks, then one pass to count: at `small` (60 M values of
    // weights and gradients) the scalar std::log would cost several steps' worth of time.
    constexpr std::size_t kChunk = 1024;
    alignas(32) float buf[kChunk];
    for (std::size_t from = 0; from < n; from += kChunk) {
        const Eigen::Index m = Eigen::Index(std::min(kChunk, n - from));
        const Eigen::Map<const Eigen::ArrayXf> a(x + from, m);
        Eigen::Map<Eigen::ArrayXf> b(buf, m);
        // max() keeps zeros off log's −Inf; they land in bin 0 like every tiny value.
        b = (a.abs().max(1e-30f).log() * kBinsPerLn + kBinOffset).floor();
        for (Eigen::Index i = 0; i < m; ++i) {
            if (!std::isfinite(x[from + std::size_t(i)])) {
                ++*nonFinite;
                continue;
            }
            ++counts[int(std::clamp(buf[i], 0.f, float(kHistogramBins - 1)))];
        }
    }
}

QString tensorGroup(const std::string& name)
{
    auto layer = [&](const char* prefix, const char* label) -> QString {
        const std::size_t from = std::string(prefix).size();
        const std::size_t dot = name.find('.', from);
        return QStringLiteral("%1 %2").arg(QLatin1String(label),
                                           QString::fromStdString(name.substr(from, dot - from)));
    };
    if (name.starts_with("encoder.layers."))
        return layer("encoder.layers.", "encoder");
    if (name.starts_with("decoder.layers."))
        return layer("decoder.layers.", "decoder");
    if (name.starts_with("encoder.norm"))
        return QStringLiteral("encoder norm");
    if (name.starts_with("decoder.norm"))
        return QStringLiteral("decoder norm");
    return QString::fromStdString(name.substr(0, name.find('.')));
}

}  // namespace as
