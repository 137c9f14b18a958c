// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/params.h"

#include "model/parallel.h"

#include <algorithm>
#include <stdexcept>

namespace as {

template <typename T>
std::size_t ParamStore<T>::addMatrix(const std::string& name, int rows, int cols)
{
    if (values_.size() != 0)
        throw std::logic_error("ParamStore: cannot add '" + name + "' after allocate()");
    ParamInfo info{name, {rows, cols}, size_, std::size_t(rows) * std::size_t(cols)};
    size_ += info.size;
    table_.push_back(std::move(info));
    return table_.back().offset;
}

template <typename T>
std::size_t ParamStore<T>::addVector(const std::string& name, int n)
{
    if (values_.size() != 0)
        throw std::logic_error("ParamStore: cannot add '" + name + "' after allocate()");
    ParamInfo info{name, {n}, size_, std::size_t(n)};
    size_ += info.size;
    table_.push_back(std::move(info));
    return table_.back().offset;
}

template <typename T>
void ParamStore<T>::allocate()
{
    values_.setZero(Eigen::Index(size_));
    grads_.setZero(Eigen::Index(size_));
}

template <typename T>
const ParamInfo* ParamStore<T>::find(const std::string& name) const
{
    for (const auto& p : table_)
        if (p.name == name)
            return &p;
    return nullptr;
}

template <typename T>
void ParamStore<T>::zeroGrads()
{
    T* g = grads_.data();
    parallelFor(long(grads_.size()), 1 << 16,
                [g](long from, long to) { std::fill(g + from, g + to, T(0)); });
}

template class ParamStore<float>;
template class ParamStore<double>;

}  // namespace as
