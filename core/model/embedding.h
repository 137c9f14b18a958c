// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
#include "model/dropout.h"
#include "model/params.h"

namespace as {

// Sinusoidal positions (core/SPEC.md §2.1): x = dropout(E[ids] * sqrt(d_model) + PE[0:len]).
// Learned positions (§2.11, GPT-2's):        x = dropout(E[ids] + P[0:len]), P a parameter
// of max_len rows.
template <typename T>
struct Embedding {
    ParamStore<T>* ps = nullptr;
    std::size_t w = 0;  // weight [vocab, d]
    int vocab = 0, d = 0;
    bool learned = false;  // positions from the parameter P at `pos` (else the sinusoids)
    bool halves = false;   // sinusoids laid out in halves (core/SPEC.md §2.13), not interleaved
    std::size_t pos = 0;   // P [maxLen, d]
    int maxLen = 0;
    Dropout<T> drop;
    Mat<T> pe;  // [len, d], grown on demand (sinusoidal)
    Mat<T> g;   // [n, d] backward scratch

    static Embedding make(ParamStore<T>& ps, const std::string& name, int vocab, int d);
    // An embedding reading a table already registered at offset `weight` ([vocab, d]: weight
    // tying); nothing is registered.
    static Embedding makeTied(ParamStore<T>& ps, std::size_t weight, int vocab, int d);
    // Gives the embedding learned positions: registers `name` [maxLen, d].
    void addLearnedPositions(ParamStore<T>& ps, const std::string& name, int maxLen);

    // The factor of E's rows: sqrt(d) with sinusoids, 1 with learned positions.
    T scale() const;
    // The positional rows of positions 0..len-1 ([len, d]). Learned positions end at maxLen:
    // a longer sequence throws std::out_of_range.
    Mat<T> positions(int len);

    // ids: [B * L] (row-major batch), all in [0, vocab) -> x: [B * L, d]
    void forward(const int* ids, int B, int L, Out<T> x, double p, const Pass& pass);
    // dx: [B * L, d] gradient of forward's output; scatters into dE rows of ids.
    void backward(const int* ids, In<T> dx);

private:
    void checkLength(int len) const;
    int lastLength_ = 1;  // forward's L, for backward's positions
};

}  // namespace as
