// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Central-difference gradient checks in double precision (after ggml's test-backend-ops and
// llm.c's test_gpt2.c): layers reduce their output with a random-weighted sum, and analytic
// gradients of parameters and inputs are compared with (f(x+h) - f(x-h)) / 2h.
#include "model/config.h"
#include "model/params.h"
#include "model/rng.h"

#include <QString>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

namespace as::test {

using D = double;

// One tensor whose gradient is checked: its values (perturbed in place) and the analytic
// gradient computed before any perturbation.
struct Target {
    std::string name;
    D* value;
    std::vector<D> analytic;
};

struct CheckResult {
    double worst = 0.0;  // worst error over every checked coordinate
    std::string where;   // "tensor[index]: analytic a, numeric n"
    int checked = 0;
    int kinks = 0;  // coordinates skipped because the loss is not smooth there (ReLU at 0)
};

// Error of one coordinate: relative, |a - n| / max(|a|, |n|), for gradients of at least 1e-3;
// below that, where the numeric gradient's own rounding (~1e-10 here) would dominate a
// relative error, the absolute error scaled by 1e3. Either way 1e-6 is the bar, so a tiny
// gradient must match to 1e-9 absolute.
inline double gradError(double a, double n)
{
    return std::abs(a - n) / std::max({std::abs(a), std::abs(n), 1e-3});
}

// Checks `samples` coordinates of each target (all of them when the tensor is smaller), drawn
// from rng. loss() must be a pure function of the targets' values.
inline CheckResult checkGradients(const std::function<double()>& loss, std::vector<Target>& targets,
                                  int samples, Rng& rng, double h = 1e-5)
{
    CheckResult r;
    for (Target& t : targets) {
        const std::size_t n = t.analytic.size();
        std::vector<std::size_t> idx;
        if (n <= std::size_t(samples)) {
            for (std::size_t i = 0; i < n; ++i)
                idx.push_back(i);
        } else {
            for (int i = 0; i < samples; ++i)
                idx.push_back(std::size_t(rng.below(n)));
        }
        for (std::size_t i : idx) {
            const D old = t.value[i];
            auto central = [&](double step) {
                t.value[i] = old + step;
                const double fp = loss();
                t.value[i] = old - step;
                const double fm = loss();
                t.value[i] = old;
                return (fp - fm) / (2 * step);
            };
            const double numeric = central(h);
            // Where a ReLU input lies within h of 0 the slope changes inside [x-h, x+h], and
            // the two step sizes disagree; a wrong analytic gradient of a smooth function
            // cannot hide here, since there both steps agree with each other.
            if (gradError(central(h / 4), numeric) > 1e-6) {
                ++r.kinks;
                continue;
            }
            const double e = gradError(t.analytic[i], numeric);
            ++r.checked;
            if (e > r.worst || std::isnan(e)) {
                r.worst = std::isnan(e) ? INFINITY : e;
                r.where = t.name + "[" + std::to_string(i) + "]: analytic "
                          + std::to_string(t.analytic[i]) + ", numeric " + std::to_string(numeric);
            }
        }
    }
    return r;
}

// Every tensor of a parameter store as a target (call after the analytic backward).
inline void addParamTargets(ParamStore<D>& ps, std::vector<Target>& targets)
{
    for (const ParamInfo& p : ps.table())
        targets.push_back({p.name, ps.values() + p.offset,
                           std::vector<D>(ps.grads() + p.offset, ps.grads() + p.offset + p.size)});
}

inline void fillUniform(D* v, std::size_t n, Rng& rng, double lo, double hi)
{
    for (std::size_t i = 0; i < n; ++i)
        v[i] = lo + (hi - lo) * rng.uniform();
}

// The model the double-precision checks run on: vocabularies of 11 and 13, d_model 8, 2 heads,
// d_ff 16, two encoder and two decoder layers.
inline ModelConfig gradCheckConfig(NormPlacement norm, double dropout = 0.1, int maxLen = 20)
{
    ModelConfig c;
    c.src_vocab = 11;
    c.tgt_vocab = 13;
    c.d_model = 8;
    c.heads = 2;
    c.d_ff = 16;
    c.encoder_layers = c.decoder_layers = 2;
    c.dropout = dropout;
    c.label_smoothing = 0.1;
    c.norm = norm;
    c.max_len = maxLen;
    return c;
}

inline QString describe(const CheckResult& r)
{
    return QStringLiteral("worst error %1 over %2 coordinates (%3 skipped at ReLU kinks) at %4")
        .arg(r.worst, 0, 'e', 2)
        .arg(r.checked)
        .arg(r.kinks)
        .arg(QString::fromStdString(r.where));
}

}  // namespace as::test
