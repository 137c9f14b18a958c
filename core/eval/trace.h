// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One sentence pair followed through the model (issue 25 §1, core/SPEC.md §2.9): one forward
// pass, dropout off,
// head masks (MultiHeadAttention::gate) honoured, with every intermediate of core/SPEC.md §2
// recorded under a name. The numbers are the model's own: the pass is the model's forward
// (Transformer::forwardLoss), and the record is read from the activations its layers keep.
//
// Names (layers and heads 0-based; S source length, T decoder input length, H heads,
// d_k = d_model / H, V target vocabulary):
//   encoder.embed, decoder.embed         S×d, T×d   embedding rows × √d_model (× 1 beside
//                                                  learned positions)
//   encoder.input, decoder.input         S×d, T×d   + positional encoding
//   {stack}.{l}.{block}.q, .k, .v        H×n×d_k    the head projections of the sublayer's
//                                                   input (LayerNorm(x) in pre-norm, x in
//                                                   post-norm; cross: k and v of the memory)
//   {stack}.{l}.{block}.scores           H×Tq×Tk    QKᵀ/√d_k before softmax, masked entries
//                                                   flagged (TraceTensor::masked)
//   {stack}.{l}.{block}.weights          H×Tq×Tk    softmax of the scores
//   {stack}.{l}.{block}.context          Tq×d       the heads' weights·V, concatenated (each
//                                                   times its gate), before W_O
//   {stack}.{l}.{block}.out              Tq×d       after W_O
//   {stack}.{l}.{block}.residual         Tq×d       the sublayer connection's output
//   {stack}.{l}.ff.hidden, .ff.out       n×d_ff, n×d (none in attention-only layers)
//   {stack}.{l}.out                      n×d        the layer's output
//   encoder.out, decoder.out             S×d, T×d   after the final LayerNorm in pre-norm
//   logits, log_probs                    T×V
//   lens.{l}                             T×V        log-softmax of the generator applied to
//                                                   decoder.{l}.out (through the final
//                                                   LayerNorm in pre-norm)
// where block is self for the encoder and self, cross for the decoder.
#include "model/transformer.h"

#include <QStringList>

#include <cstdint>
#include <string>
#include <vector>

namespace as {

struct TraceTensor {
    std::string name;
    std::vector<int> shape;
    std::vector<double> data;          // row-major
    std::vector<std::uint8_t> masked;  // empty, or one per value: 1 = a masked score (no number)
};

struct ForwardTrace {
    std::vector<int> source;           // the source's ids
    std::vector<int> decoderInput;     // kBos, then the target's ids
    std::vector<int> output;           // the generator's argmax at each decoder position
    std::vector<TraceTensor> tensors;  // in the order of traceTensorNames()
    const TraceTensor* find(const std::string& name) const;
};

// One traced pass of the window's probe sentence, for the Model view (issue 25 §2): the trace
// without the logit lens (the Decoding view's), the tokens as text, and for the generator's
// output (logits, log_probs: T×V, too wide to draw) the few target tokens worth a column.
struct TraceRecord {
    long step = 0;
    ModelConfig config;
    QStringList srcTokens;    // encoder positions as the model sees them (<unk> for unknown)
    QStringList tgtTokens;    // decoder input: "<s>", y1, …
    QStringList outTokens;    // the generator's argmax at each decoder position
    ForwardTrace trace;
    std::vector<int> topTokens;  // target ids: each position's argmax, then the most probable others
    QStringList topLabels;       // their text
};

// The k target ids the record's generator columns show: every position's argmax first (in
// position order, once each), then the ids whose highest log-probability over the positions
// is largest, until k (ties: the smaller id).
std::vector<int> topTraceTokens(const TraceTensor& logProbs, int k);

// Every name a trace of a model of this configuration holds, in order.
std::vector<std::string> traceTensorNames(const ModelConfig& config);
// Every name but the logit lens's (lens.*): what the Model view shows.
std::vector<std::string> traceNamesWithoutLens(const ModelConfig& config);
// Whether `selection` picks `name`: an entry equal to it, or a prefix of it ending where one
// of its dot-separated parts ends ("encoder.0" picks "encoder.0.self.q", not "encoder.01…").
// An empty selection picks every name.
bool traceNameSelected(const std::string& name, const std::vector<std::string>& selection);

// The traced pass of source → target teacher-forced (the decoder's input is kBos + target). A
// decoder-only model (core/SPEC.md §2.10) takes no source (empty) and traces its text, the
// target: no encoder.* and no .cross tensors.
// Only the tensors `only` selects are recorded (traceNameSelected); the output tokens always.
// Throws std::invalid_argument for an empty source, std::out_of_range for an id outside the
// vocabularies.
template <typename T>
ForwardTrace traceForward(Transformer<T>& model, const std::vector<int>& source,
                          const std::vector<int>& target,
                          const std::vector<std::string>& only = {});

}  // namespace as
