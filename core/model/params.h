// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// All parameters of a model live in one flat buffer, and their gradients in another of the
// same layout, described by a table of (name, shape, offset). The optimiser is then one loop,
// and checkpoints and weight export are one walk over the table.
#include "model/tensor.h"

#include <cstddef>
#include <string>
#include <vector>

namespace as {

struct ParamInfo {
    std::string name;       // core/SPEC.md §6.1, e.g. "encoder.layers.0.self_attn.q.weight"
    std::vector<int> shape; // [rows, cols] for matrices, [n] for vectors
    std::size_t offset = 0;
    std::size_t size = 0;
    int rows() const { return shape[0]; }
    int cols() const { return shape.size() > 1 ? shape[1] : 1; }
};

template <typename T>
class ParamStore {
public:
    // Registers a tensor; returns its offset. Tensors registered one after another are
    // contiguous (no padding), which lets q, k and v weights act as one [3d, d] matrix.
    std::size_t addMatrix(const std::string& name, int rows, int cols);
    std::size_t addVector(const std::string& name, int n);
    // Sizes the values' buffer once every layer has registered; values start at 0. The
    // gradients' buffer is made at the first ensureGrads() (or zeroGrads()): a model that is
    // only looked inside (GPT-2 opened: 500 MB) never holds one.
    void allocate();
    // The gradients' buffer, zero, if it is not there yet. Call it from one thread, before a
    // backward pass (Transformer's forwardBackward and logProbBackward do).
    void ensureGrads();
    bool hasGrads() const { return grads_.size() == values_.size() && values_.size() > 0; }

    std::size_t size() const { return size_; }
    const std::vector<ParamInfo>& table() const { return table_; }
    const ParamInfo* find(const std::string& name) const;

    T* values() { return values_.data(); }
    const T* values() const { return values_.data(); }
    // Null until ensureGrads(): a backward pass's layers, several threads at once, must not be
    // the ones to make it (Transformer's forwardBackward and logProbBackward make it first).
    T* grads() { return grads_.data(); }
    const T* grads() const { return grads_.data(); }
    Eigen::Matrix<T, Eigen::Dynamic, 1>& valueVector() { return values_; }
    const Eigen::Matrix<T, Eigen::Dynamic, 1>& valueVector() const { return values_; }
    Eigen::Matrix<T, Eigen::Dynamic, 1>& gradVector() { return grads_; }
    const Eigen::Matrix<T, Eigen::Dynamic, 1>& gradVector() const { return grads_; }

    // Split over the engine's threads: at 50 M parameters (base) this is 200 MB of writes.
    // Makes the buffer first if there is none (ensureGrads).
    void zeroGrads();

private:
    std::vector<ParamInfo> table_;
    std::size_t size_ = 0;
    Eigen::Matrix<T, Eigen::Dynamic, 1> values_, grads_;
};

}  // namespace as
