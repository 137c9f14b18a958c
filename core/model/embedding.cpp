// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/embedding.h"

#include "model/positional_encoding.h"
#include "train/profile.h"

#include <cmath>

namespace as {

template <typename T>
Embedding<T> Embedding<T>::make(ParamStore<T>& ps, const std::string& name, int vocab, int d)
{
    Embedding e;
    e.ps = &ps;
    e.vocab = vocab;
    e.d = d;
    e.w = ps.addMatrix(name, vocab, d);
    return e;
}

template <typename T>
Embedding<T> Embedding<T>::makeTied(ParamStore<T>& ps, std::size_t weight, int vocab, int d)
{
    Embedding e;
    e.ps = &ps;
    e.vocab = vocab;
    e.d = d;
    e.w = weight;
    return e;
}

template <typename T>
void Embedding<T>::forward(const int* ids, int B, int L, Out<T> x, double p, const Pass& pass)
{
    const ProfileScope timed(ProfileCategory::Embedding);
    if (pe.rows() < L)
        pe = positionalEncoding<T>(std::max(L, 64), d);
    const ConstMatMap<T> table(ps->values() + w, vocab, d);
    const T scale = T(std::sqrt(double(d)));
    for (int b = 0; b < B; ++b)
        for (int t = 0; t < L; ++t) {
            const int r = b * L + t;
            x.row(r) = table.row(ids[r]) * scale + pe.row(t);
        }
    drop.forward(x, p, pass);
}

template <typename T>
void Embedding<T>::backward(const int* ids, In<T> dx)
{
    const ProfileScope timed(ProfileCategory::Embedding);
    g = dx;
    drop.backward(g);
    MatMap<T> dtable(ps->grads() + w, vocab, d);
    const T scale = T(std::sqrt(double(d)));
    for (Eigen::Index r = 0; r < g.rows(); ++r)
        dtable.row(ids[r]) += g.row(r) * scale;
}

template struct Embedding<float>;
template struct Embedding<double>;

}  // namespace as
