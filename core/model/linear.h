// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
#include "model/parallel.h"
#include "model/params.h"
#include "train/profile.h"

#include <string>

namespace as {

// y = x W^T + b, W: [out, in] (PyTorch's layout). A Linear is a view on the parameter store:
// several Linears registered back to back (q, k, v) can also be viewed as one wider Linear.
template <typename T>
struct Linear {
    ParamStore<T>* ps = nullptr;
    static constexpr std::size_t kNoBias = std::size_t(-1);
    std::size_t w = 0, b = 0;  // offsets of weight [out, in] and bias [out] (kNoBias: none)
    int in = 0, out = 0;
    // Where its products are counted (train/profile.h); the owner says what it is.
    ProfileCategory kind = ProfileCategory::Other;

    static Linear make(ParamStore<T>& ps, const std::string& prefix, int in, int out,
                       bool withBias = true);
    // A Linear whose weight is a matrix already registered at offset `weight` ([out, in], e.g.
    // an embedding table: weight tying); only its bias is registered (if it has one). Its
    // backward accumulates into that matrix's gradient like any other use of it.
    static Linear makeTied(ParamStore<T>& ps, const std::string& prefix, std::size_t weight,
                           int in, int out, bool withBias = true);

    // False for a Linear made without a bias (GPT-2's head): bias() and biasGrad() must not be
    // called, and forward and backward act as if withBias were false.
    bool hasBias() const { return b != kNoBias; }

    ConstMatMap<T> weight() const { return {ps->values() + w, out, in}; }
    MatMap<T> weight() { return {ps->values() + w, out, in}; }
    RowVecMap<T> bias() const { return {ps->values() + b, out}; }
    MatMap<T> weightGrad() const { return {ps->grads() + w, out, in}; }
    RowVecMap<T> biasGrad() const { return {ps->grads() + b, out}; }

    // x: [n, in] -> y: [n, out]. Without the bias, y = x W^T only: for a caller that adds b
    // itself while it reads each row of y (the loss, for the generator), which spares a pass
    // that writes b into every row of y before the product.
    void forward(In<T> x, Out<T> y, bool withBias = true) const;
    // Accumulates dW += dy^T x and db += column sums of dy.  x: [n, in], dy: [n, out]
    void backwardParams(In<T> x, In<T> dy) const;
    // dx = dy W (or dx += dy W).  dy: [n, out] -> dx: [n, in]
    void backwardInput(In<T> dy, Out<T> dx, bool accumulate) const;
    // Both, in one parallel region: dW += dy^T x, db += column sums of dy, dx (+)= dy W. Then,
    // if given, rowsDone(begin, end) on each range of rows of dx as soon as it is computed (in
    // the same region, while those rows are in cache). With biasGradTaken, db is left alone:
    // the caller has added dy's column sums to it already (the loss does, for the generator).
    void backward(In<T> x, In<T> dy, Out<T> dx, bool accumulate,
                  const FunctionRef<void(long, long)>* rowsDone = nullptr,
                  bool biasGradTaken = false) const;

private:
    void paramsPart(In<T> x, In<T> dy, long begin, long end, bool withBias = true) const;
    void inputPart(In<T> dy, Out<T> dx, bool accumulate, long begin, long end) const;
};

}  // namespace as
