// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
#include "model/dropout.h"
#include "model/params.h"

namespace as {

// x = dropout(E[ids] * sqrt(d_model) + PE[0:len])
template <typename T>
struct Embedding {
    ParamStore<T>* ps = nullptr;
    std::size_t w = 0;  // weight [vocab, d]
    int vocab = 0, d = 0;
    Dropout<T> drop;
    Mat<T> pe;  // [len, d], grown on demand
    Mat<T> g;   // [n, d] backward scratch

    static Embedding make(ParamStore<T>& ps, const std::string& name, int vocab, int d);
    // An embedding reading a table already registered at offset `weight` ([vocab, d]: weight
    // tying); nothing is registered.
    static Embedding makeTied(ParamStore<T>& ps, std::size_t weight, int vocab, int d);

    // ids: [B * L] (row-major batch), all in [0, vocab) -> x: [B * L, d]
    void forward(const int* ids, int B, int L, Out<T> x, double p, const Pass& pass);
    // dx: [B * L, d] gradient of forward's output; scatters into dE rows of ids.
    void backward(const int* ids, In<T> dx);
};

}  // namespace as
