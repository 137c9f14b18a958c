// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "decode/sampling.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace as {

QString SamplingOptions::validate() const
{
    const auto text = [](const char* s) { return QCoreApplication::translate("as::Sampling", s); };
    if (!(temperature >= 0.0 && std::isfinite(temperature)))
        return text(QT_TRANSLATE_NOOP("as::Sampling", "the temperature must be 0 (greedy) or more"));
    if (topK < 0)
        return text(QT_TRANSLATE_NOOP("as::Sampling", "top-k must be 0 (all tokens) or more"));
    if (!(topP > 0.0 && topP <= 1.0))
        return text(QT_TRANSLATE_NOOP("as::Sampling", "top-p must be in (0, 1]"));
    return {};
}

std::vector<double> softmaxOf(const std::vector<double>& logp)
{
    std::vector<double> p(logp.size(), 0.0);
    double top = -std::numeric_limits<double>::infinity();
    for (double x : logp)
        top = std::max(top, x);
    if (!std::isfinite(top))
        throw std::invalid_argument("sampling: no token may be drawn");
    double sum = 0.0;
    for (std::size_t i = 0; i < logp.size(); ++i)
        sum += p[i] = std::isfinite(logp[i]) ? std::exp(logp[i] - top) : 0.0;
    for (double& x : p)
        x /= sum;
    return p;
}

std::vector<double> samplingDistribution(const std::vector<double>& logp,
                                         const SamplingOptions& o)
{
    if (const QString bad = o.validate(); !bad.isEmpty())
        throw std::invalid_argument(bad.toStdString());
    const std::size_t V = logp.size();
    if (o.greedy()) {
        std::vector<double> p(V, 0.0);
        const auto best = std::max_element(logp.begin(), logp.end());  // the first maximum
        if (best == logp.end() || !std::isfinite(*best))
            throw std::invalid_argument("sampling: no token may be drawn");
        p[std::size_t(best - logp.begin())] = 1.0;
        return p;
    }
    std::vector<double> scaled(V);
    for (std::size_t i = 0; i < V; ++i)
        scaled[i] = logp[i] / o.temperature;  // -inf stays -inf
    std::vector<double> p = softmaxOf(scaled);
    // The most probable first; ties to the lower id (a stable order, so a seed repeats).
    std::vector<std::size_t> order(V);
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return p[a] > p[b]; });
    std::size_t keep = std::size_t(std::count_if(p.begin(), p.end(), [](double x) { return x > 0; }));
    if (o.topK > 0)
        keep = std::min(keep, std::size_t(o.topK));
    if (o.topP < 1.0) {
        // The fewest tokens whose mass (within the top-k, renormalised) reaches p.
        double kept = 0.0;
        for (std::size_t i = 0; i < keep; ++i)
            kept += p[order[i]];
        double mass = 0.0;
        std::size_t n = 0;
        while (n < keep) {
            mass += p[order[n++]] / kept;
            if (mass >= o.topP)
                break;
        }
        keep = n;
    }
    keep = std::max<std::size_t>(keep, 1);
    std::vector<double> out(V, 0.0);
    double sum = 0.0;
    for (std::size_t i = 0; i < keep; ++i)
        sum += p[order[i]];
    for (std::size_t i = 0; i < keep; ++i)
        out[order[i]] = p[order[i]] / sum;
    return out;
}

int drawToken(const std::vector<double>& p, Rng& rng)
{
    const double u = rng.uniform();
    double c = 0.0;
    int last = -1;
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (p[i] <= 0.0)
            continue;
        c += p[i];
        last = int(i);
        if (u < c)
            return last;
    }
    if (last < 0)
        throw std::invalid_argument("sampling: no token may be drawn");
    return last;  // u above a sum rounded below 1: the last token that may be drawn
}

}  // namespace as
