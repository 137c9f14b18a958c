// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The feed-forward's nonlinearities (core/SPEC.md §2.3) and their derivatives, on a row of
// values at a time: one definition for training, incremental decoding and the tests.
#include "model/config.h"

#include <cmath>
#include "model/tensor.h"

namespace as {

// GPT-2's GELU ("gelu_new"): 0.5 z (1 + tanh(sqrt(2/π) (z + 0.044715 z³))).
inline constexpr double kGeluTanhScale = 0.7978845608028654;  // sqrt(2 / π)
inline constexpr double kGeluTanhCubic = 0.044715;

// out = act(z), elementwise over n values (out may be z).
template <typename T>
void activate(Activation act, const T* z, T* out, long n)
{
    using A = Eigen::Array<T, 1, Eigen::Dynamic>;
    const Eigen::Map<const A> zv(z, n);
    Eigen::Map<A> ov(out, n);
    switch (act) {
    case Activation::Relu: ov = zv.max(T(0)); break;
    case Activation::GeluTanh: {
        const T c = T(kGeluTanhScale), k = T(kGeluTanhCubic);
        ov = T(0.5) * zv * (T(1) + (c * (zv + k * zv * zv * zv)).tanh());
        break;
    }
    case Activation::Silu: ov = zv / (T(1) + (-zv).exp()); break;
    }
}

// g *= act'(z), elementwise over n values: the gradient through the activation.
template <typename T>
void activationBackward(Activation act, const T* z, T* g, long n)
{
    using A = Eigen::Array<T, 1, Eigen::Dynamic>;
    const Eigen::Map<const A> zv(z, n);
    Eigen::Map<A> gv(g, n);
    switch (act) {
    case Activation::Relu: gv = (zv > T(0)).select(gv, T(0)); break;
    case Activation::GeluTanh: {
        // d/dz = 0.5 (1 + t) + 0.5 z (1 - t²) c (1 + 3k z²), t = tanh(c (z + k z³)).
        const T c = T(kGeluTanhScale), k = T(kGeluTanhCubic);
        const A t = (c * (zv + k * zv * zv * zv)).tanh();
        gv *= T(0.5) * (T(1) + t) + T(0.5) * zv * (T(1) - t * t) * c * (T(1) + T(3) * k * zv * zv);
        break;
    }
    case Activation::Silu: {
        // d/dz z σ(z) = σ(z) (1 + z (1 - σ(z))).
        const A s = T(1) / (T(1) + (-zv).exp());
        gv *= s * (T(1) + zv * (T(1) - s));
        break;
    }
    }
}

}  // namespace as
