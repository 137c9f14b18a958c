// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A small matrix written out row by row in a test, e.g. an attention map worked by hand:
// as::test::rows({{0.5f, 0.5f}, {1.f, 0.f}}).
#include "model/tensor.h"

#include <initializer_list>

namespace as::test {

inline Mat<float> rows(std::initializer_list<std::initializer_list<float>> values)
{
    const int r = int(values.size()), c = int(values.begin()->size());
    Mat<float> m(r, c);
    int i = 0;
    for (const auto& row : values) {
        int j = 0;
        for (float v : row)
            m(i, j++) = v;
        ++i;
    }
    return m;
}

}  // namespace as::test
