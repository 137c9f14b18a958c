// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
#include "model/tensor.h"

namespace as {

// PE[pos, 2i] = sin(pos / 10000^(2i/d)), PE[pos, 2i+1] = cos(pos / 10000^(2i/d)).
// Computed in double and rounded once to T.  -> [len, d]
template <typename T>
Mat<T> positionalEncoding(int len, int d);

}  // namespace as
