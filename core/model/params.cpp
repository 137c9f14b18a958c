// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/params.h"

#include "model/parallel.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include <algorithm>
#include <cstdint>
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

namespace {

// A large buffer backed by 2 MiB pages where the kernel gives them on request (transparent huge
// pages in "madvise" mode, Debian's default): the first touch of a 500 MB model's weights was
// 120,000 page faults of 4 KiB, most of opening GPT-2's time on a VM; the products also see
// fewer TLB misses. Nothing happens elsewhere or for small buffers.
void adviseHugePages(void* data, std::size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr std::uintptr_t kHuge = std::uintptr_t(2) << 20;
    if (bytes < 4 * kHuge)
        return;
    const auto begin = (reinterpret_cast<std::uintptr_t>(data) + kHuge - 1) & ~(kHuge - 1);
    const auto end = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(kHuge - 1);
    if (end > begin)
        madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
    (void)data;
    (void)bytes;
#endif
}

}  // namespace

template <typename T>
void ParamStore<T>::allocate()
{
    values_.resize(Eigen::Index(size_));
    adviseHugePages(values_.data(), size_ * sizeof(T));
    values_.setZero();
}

template <typename T>
void ParamStore<T>::ensureGrads()
{
    if (hasGrads() || size_ == 0)
        return;
    grads_.resize(Eigen::Index(size_));
    adviseHugePages(grads_.data(), size_ * sizeof(T));
    grads_.setZero();
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
    if (!hasGrads()) {
        ensureGrads();  // zero already
        return;
    }
    T* g = grads_.data();
    parallelFor(long(grads_.size()), 1 << 16,
                [g](long from, long to) { std::fill(g + from, g + to, T(0)); });
}

template class ParamStore<float>;
template class ParamStore<double>;

}  // namespace as
