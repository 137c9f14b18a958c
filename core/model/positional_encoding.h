// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
#include "model/tensor.h"

namespace as {

// PE[pos, 2i] = sin(pos / 10000^(2i/d)), PE[pos, 2i+1] = cos(pos / 10000^(2i/d)) (core/SPEC.md
// §2.1). With `halves` (§2.13, Marian's layout): the same sines in columns 0 … ⌈d/2⌉-1 and the
// cosines after them, PE[pos, i] = sin(pos / 10000^(2i/d)), PE[pos, ⌈d/2⌉ + i] = cos(…).
// Computed in double and rounded once to T.  -> [len, d]
template <typename T>
Mat<T> positionalEncoding(int len, int d, bool halves = false);

}  // namespace as
