// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Adam with PyTorch's semantics (torch.optim.Adam, no weight decay, not amsgrad):
//   m = b1 m + (1 - b1) g;  v = b2 v + (1 - b2) g^2
//   p -= lr / (1 - b1^t) * m / (sqrt(v) / sqrt(1 - b2^t) + eps)
#include "model/params.h"

#include <Eigen/Core>

#include <cstddef>
#include <vector>

namespace as {

struct AdamOptions {
    double beta1 = 0.9, beta2 = 0.98, eps = 1e-9;  // core/SPEC.md §4.5
};

// What a step can measure per tensor in the same pass as the update (Trainer's health): sums
// over the tensor's elements.
struct AdamTensorSums {
    double before2 = 0;   // Σ w_{t−1}²
    double delta2 = 0;    // Σ (w_t − w_{t−1})², the update as applied (float differences)
    double after2 = 0;    // Σ w_t²
    double invDenom = 0;  // Σ 1 / (sqrt(v̂) + ε): the step per unit of learning rate
};

template <typename T>
class Adam {
public:
    explicit Adam(std::size_t n = 0, AdamOptions o = {}) : opt_(o) { reset(n); }
    void reset(std::size_t n)
    {
        m_.setZero(Eigen::Index(n));
        v_.setZero(Eigen::Index(n));
        t_ = 0;
    }
    // One update of params[0..n) with grads[0..n) at learning rate lr.
    void step(T* params, const T* grads, double lr) { update(params, grads, lr, nullptr, nullptr); }
    // The same update, and per tensor of `table` (whose ranges cover params) the sums, in
    // table order. Reading each block while it is in cache costs a fraction of a separate
    // pass over a copy of the weights.
    void step(T* params, const T* grads, double lr, const std::vector<ParamInfo>& table,
              std::vector<AdamTensorSums>& sums)
    {
        update(params, grads, lr, &table, &sums);
    }

    long steps() const { return t_; }
    const AdamOptions& options() const { return opt_; }
    Eigen::Matrix<T, Eigen::Dynamic, 1>& firstMoment() { return m_; }
    Eigen::Matrix<T, Eigen::Dynamic, 1>& secondMoment() { return v_; }
    const Eigen::Matrix<T, Eigen::Dynamic, 1>& firstMoment() const { return m_; }
    const Eigen::Matrix<T, Eigen::Dynamic, 1>& secondMoment() const { return v_; }
    void setSteps(long t) { t_ = t; }

private:
    void update(T* params, const T* grads, double lr, const std::vector<ParamInfo>* table,
                std::vector<AdamTensorSums>* sums);
    // A tensor's part of one block: the sums are taken per piece, then added per tensor in
    // order (whatever the threads did). Kept between steps so that a step does not allocate.
    struct Piece {
        long begin, end;
        int tensor;
    };
    std::vector<Piece> pieces_;
    std::vector<long> blockPieces_;  // [block] -> first piece; one more at the end
    std::vector<AdamTensorSums> pieceSums_;
    AdamOptions opt_;
    Eigen::Matrix<T, Eigen::Dynamic, 1> m_, v_;
    long t_ = 0;
};

}  // namespace as
