// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/embedding.h"

#include "model/positional_encoding.h"
#include "train/profile.h"

#include <cmath>
#include <stdexcept>
#include <string>

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
void Embedding<T>::addLearnedPositions(ParamStore<T>& ps, const std::string& name, int len)
{
    learned = true;
    maxLen = len;
    pos = ps.addMatrix(name, len, d);
}

template <typename T>
T Embedding<T>::scale() const
{
    return learned ? T(1) : T(std::sqrt(double(d)));
}

template <typename T>
Mat<T> Embedding<T>::positions(int len)
{
    if (learned) {
        checkLength(len);
        return ConstMatMap<T>(ps->values() + pos, maxLen, d).topRows(len);
    }
    if (pe.rows() < len)
        pe = positionalEncoding<T>(std::max(len, 64), d, halves);
    return pe.topRows(len);
}

template <typename T>
void Embedding<T>::checkLength(int len) const
{
    if (learned && len > maxLen)
        throw std::out_of_range("a sequence of " + std::to_string(len)
                                + " positions, over the " + std::to_string(maxLen)
                                + " learned positions (max_len)");
}

template <typename T>
void Embedding<T>::forward(const int* ids, int B, int L, Out<T> x, double p, const Pass& pass)
{
    const ProfileScope timed(ProfileCategory::Embedding);
    const ConstMatMap<T> table(ps->values() + w, vocab, d);
    const T k = scale();
    lastLength_ = L;
    if (learned) {
        checkLength(L);
        const ConstMatMap<T> P(ps->values() + pos, maxLen, d);
        for (int b = 0; b < B; ++b)
            for (int t = 0; t < L; ++t) {
                const int r = b * L + t;
                x.row(r) = table.row(ids[r]) + P.row(t);
            }
    } else {
        if (pe.rows() < L)
            pe = positionalEncoding<T>(std::max(L, 64), d, halves);
        for (int b = 0; b < B; ++b)
            for (int t = 0; t < L; ++t) {
                const int r = b * L + t;
                x.row(r) = table.row(ids[r]) * k + pe.row(t);
            }
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
    if (learned) {
        // Row r is position r mod L of its sequence (forward's batch layout).
        MatMap<T> dP(ps->grads() + pos, maxLen, d);
        const Eigen::Index L = lastLength_;
        for (Eigen::Index r = 0; r < g.rows(); ++r) {
            dtable.row(ids[r]) += g.row(r);
            dP.row(r % L) += g.row(r);
        }
        return;
    }
    const T k = scale();
    for (Eigen::Index r = 0; r < g.rows(); ++r)
        dtable.row(ids[r]) += g.row(r) * k;
}

template struct Embedding<float>;
template struct Embedding<double>;

}  // namespace as
