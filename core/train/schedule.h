// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
#include <algorithm>
#include <cmath>

namespace as {

// Noam rate: factor * d_model^-0.5 * min(step^-0.5, step * warmup^-1.5), step counted from 1
// (a step below 1 is taken as 1, as the reference does).
inline double noamRate(long step, int dModel, double factor, long warmup)
{
    const double s = double(std::max(step, 1L));
    return factor * std::pow(double(dModel), -0.5)
           * std::min(std::pow(s, -0.5), s * std::pow(double(warmup), -1.5));
}

// The Noam factor whose rate peaks at `peak`, at the end of the warm-up: noamRate(warmup, …) =
// factor / sqrt(dModel * warmup).
inline double noamFactorForPeak(double peak, int dModel, long warmup)
{
    return peak * std::sqrt(double(dModel) * double(std::max(warmup, 1L)));
}

}  // namespace as
