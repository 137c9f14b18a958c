// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/feed_forward.h"

#include <bit>
#include <cstdint>
#include <type_traits>

namespace as {

template <typename T>
FeedForward<T> FeedForward<T>::make(ParamStore<T>& ps, const std::string& prefix, int d, int d_ff)
{
    FeedForward f;
    f.w1 = Linear<T>::make(ps, prefix + ".w1", d, d_ff);
    f.w2 = Linear<T>::make(ps, prefix + ".w2", d_ff, d);
    f.w1.kind = f.w2.kind = ProfileCategory::GemmFeedForward;
    f.drop.keepMask = false;  // backward reads the mask off h (> 0 where kept)
    return f;
}

template <typename T>
void FeedForward<T>::forward(In<T> x, Out<T> y, double p, const Pass& pass, bool withOutputBias)
{
    h.resize(x.rows(), w1.out);
    if (act != Activation::Relu) {
        // z = x w1ᵀ + b1, kept; h = dropout(act(z)), with its mask kept.
        z.resize(x.rows(), w1.out);
        w1.forward(x, z);
        const long cols = long(z.cols());
        parallelFor(long(z.rows()), std::max(1L, 16384 / std::max(1L, cols)), [&](long from, long to) {
            const ProfileScope timed(ProfileCategory::Dropout);  // with the activation
            activate<T>(act, z.row(from).data(), h.row(from).data(), (to - from) * cols);
        });
        drop.forward(h, h, p, pass);
        w2.forward(h, y, withOutputBias);
        return;
    }
    // h = dropout(relu(x w1ᵀ + b1)) in one pass after the product: the bias is added there, as
    // each row is read, instead of written into h before the product.
    w1.forward(x, h, /*withBias=*/false);
    drop.forward(h, h, p, pass, /*relu=*/true, w1.bias().data());
    w2.forward(h, y, withOutputBias);
}

template <typename T>
void FeedForward<T>::backward(In<T> x, In<T> dy, Out<T> dx, bool accumulate)
{
    dh.resize(dy.rows(), w1.out);
    // Through dropout and relu in one pass: relu'(z) = [z > 0], and h holds relu output after
    // dropout, so h > 0 exactly where the unit was positive and kept, where the mask is scale.
    const T keptScale = drop.active ? drop.scale : T(1);
    // A plain loop over restrict pointers, with the scale in a local: the compiler vectorises
    // it (Eigen 3.4's select() runs one element at a time; it took 2.4 % of a base step). It
    // runs on each range of rows of dh as soon as w2's backward has computed it, in the same
    // parallel region.
    const long cols = long(dh.cols());
    const auto reluDropout = [&, keptScale](long from, long to) {
        const ProfileScope timed(ProfileCategory::Dropout);  // with ReLU's backward
        const T s = keptScale;
        using Bits = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
        for (long r = from; r < to; ++r) {
            T* __restrict g = dh.row(r).data();
            const T* __restrict hr = h.row(r).data();
            for (long c = 0; c < cols; ++c) {
                // g[c] * s where the unit was kept, else +0, as a bit mask: written as a choice
                // (hr[c] > 0 ? g[c] * s : 0), GCC vectorises it with AVX-512's masked
                // operations only (to raise no floating-point flag the source does not) and
                // left it scalar for AVX2: Zen 3's build spent 15 ms of `small`'s step here.
                const Bits keep = Bits(0) - Bits(hr[c] > T(0));
                g[c] = std::bit_cast<T>(std::bit_cast<Bits>(g[c] * s) & keep);
            }
        }
    };
    // Any other activation: through the kept mask, then times act'(z).
    const auto otherDropout = [&, keptScale](long from, long to) {
        const ProfileScope timed(ProfileCategory::Dropout);
        for (long r = from; r < to; ++r) {
            if (drop.active)
                dropout_detail::applyKept(drop.keptBits.data(), r * cols, cols, dh.row(r).data(),
                                          dh.row(r).data(), keptScale);
            activationBackward<T>(act, z.row(r).data(), dh.row(r).data(), cols);
        }
    };
    const FunctionRef<void(long, long)> throughDropout =
        act == Activation::Relu ? FunctionRef<void(long, long)>(reluDropout)
                                : FunctionRef<void(long, long)>(otherDropout);
    w2.backward(h, dy, dh, false, &throughDropout);
    w1.backward(x, dh, dx, accumulate);
}

template struct FeedForward<float>;
template struct FeedForward<double>;

}  // namespace as
