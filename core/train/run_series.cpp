// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "train/run_series.h"

#include <cmath>

namespace as {

namespace {

bool same(const LossPoint& a, const LossPoint& b)
{
    return a.step == b.step && a.seconds == b.seconds && a.loss == b.loss && a.lr == b.lr
        && a.tokens == b.tokens;
}

bool same(const EvalPoint& a, const EvalPoint& b)
{
    // BLEU and the NLL may be NaN (not computed or not recorded): equal when both are.
    const auto equal = [](double x, double y) { return x == y || (std::isnan(x) && std::isnan(y)); };
    return a.step == b.step && a.seconds == b.seconds && a.loss == b.loss
        && a.accuracy == b.accuracy && equal(a.bleu, b.bleu) && equal(a.nll, b.nll);
}

template <typename Point>
bool extends(const std::vector<Point>& before, const std::vector<Point>& after)
{
    if (after.size() < before.size())
        return false;
    if (before.empty())
        return true;
    return same(before.front(), after.front()) && same(before.back(), after[before.size() - 1]);
}

}  // namespace

bool extendsSeries(const RunSeries& before, const RunSeries& after)
{
    return before.name == after.name && extends(before.loss, after.loss) && extends(before.eval, after.eval);
}

}  // namespace as
