// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/positional_encoding.h"

#include <cmath>

namespace as {

template <typename T>
Mat<T> positionalEncoding(int len, int d, bool halves)
{
    Mat<T> pe(len, d);
    const int sines = (d + 1) / 2;
    for (int pos = 0; pos < len; ++pos) {
        for (int i = 0; 2 * i < d; ++i) {
            const double angle = pos / std::pow(10000.0, 2.0 * i / d);
            pe(pos, halves ? i : 2 * i) = T(std::sin(angle));
            if (2 * i + 1 < d)
                pe(pos, halves ? sines + i : 2 * i + 1) = T(std::cos(angle));
        }
    }
    return pe;
}

template Mat<float> positionalEncoding<float>(int, int, bool);
template Mat<double> positionalEncoding<double>(int, int, bool);

}  // namespace as
