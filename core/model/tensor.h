// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One matrix type across the engine: row-major [tokens, features], so that a token's features
// are contiguous and a batch of sequences is a stack of rows (row = b * len + t).
#include <Eigen/Core>

#include <vector>

namespace as {

template <typename T>
using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename T>
using RowVec = Eigen::Matrix<T, 1, Eigen::Dynamic>;

// Views into flat buffers (parameters, per-head slices of Q/K/V).
template <typename T>
using MatMap = Eigen::Map<Mat<T>>;
template <typename T>
using ConstMatMap = Eigen::Map<const Mat<T>>;
template <typename T>
using RowVecMap = Eigen::Map<RowVec<T>>;
template <typename T>
using StridedMap = Eigen::Map<Mat<T>, Eigen::Unaligned, Eigen::OuterStride<>>;
template <typename T>
using ConstStridedMap = Eigen::Map<const Mat<T>, Eigen::Unaligned, Eigen::OuterStride<>>;

// Function arguments: accept a Mat, a Map or a contiguous-row block without copying.
template <typename T>
using In = const Eigen::Ref<const Mat<T>>&;
template <typename T>
using Out = Eigen::Ref<Mat<T>>;

}  // namespace as
