// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The bridge to PyTorch and other tools: weight files (core/SPEC.md §8) in and out.
//
// Export writes a model (any file loadModel reads) as a weight file (core/SPEC.md §8): every
// parameter under its name (core/SPEC.md §6.1), with the configuration, vocabularies and
// tokenisers in "__metadata__".
// Import reads a weight file written elsewhere, which may carry only part of that metadata
// (plain Python from the reference model writes the tensors and perhaps a "config"):
//   - the configuration comes from what the tensor shapes show (d_model, d_ff, the layer
//     counts, pre- or post-norm, the vocabulary sizes), overridden by the file's "config" and
//     then by the caller; the number of heads cannot be read from weights and must be in the
//     file's "config" or given by the caller;
//   - the vocabularies come from the caller, else from the file, else, only when asked for,
//     placeholders "tok4", "tok5", … (enough to look inside the model; text is then ids);
//   - the tokenisers come from the caller, else from the file, else "word".
// Then the file goes through loadModel's checks (every name, shape and value) as a whole.
// torch_ref.py's own quirks are refused with the fix named: its registered "pe" buffer (the
// sinusoid table, computed here, not a parameter) and its "layers" config key (weight files
// have "encoder_layers" and "decoder_layers", core/SPEC.md §7.1). scripts/torch_parity.py
// writes files that fit.
#include "io/model_file.h"

#include <QStringList>

#include <optional>

namespace as {

// Reads the model at modelPath and writes its weights, configuration, vocabularies and
// tokenisers, and its provenance (step, run), to outPath as a weight file (core/SPEC.md §8),
// atomically. false and *error otherwise.
bool exportWeights(const QString& modelPath, const QString& outPath, QString* error);

// The configuration a weight file describes, before the caller's changes.
struct WeightFileInfo {
    ModelConfig config;          // heads is 0 when the file does not say
    bool hasConfig = false;      // the file has a "config" in its metadata
    bool hasVocab = false;       // … both "src_vocab" and "tgt_vocab"
    bool hasTokenizer = false;   // … a "tokenizer"
    qsizetype tensors = 0;
};
std::optional<WeightFileInfo> inspectWeights(const SafetensorsFile& file, QString* error);
std::optional<WeightFileInfo> inspectWeights(const QString& path, QString* error);

struct ImportOptions {
    // The whole configuration (usually inspectWeights' with the caller's changes); its
    // vocabulary sizes are taken from the embeddings.
    ModelConfig config;
    // Tokens, index = id, starting with <pad>, <s>, </s>, <unk>: override the file's.
    std::optional<QStringList> srcVocab, tgtVocab;
    // Without a vocabulary from the caller or the file: placeholders (true) or an error.
    bool placeholderVocab = false;
    std::optional<Tokenizer> srcTok, tgtTok;
};

// The model of a weight file, checked as loadModel checks; std::nullopt and *error (naming
// the file and the tensor or field) otherwise. *notes (if given) says what was filled in.
std::optional<ModelBundle> importWeights(const QString& path, const ImportOptions& options,
                                         QStringList* notes, QString* error);
std::optional<ModelBundle> importWeightsFromBytes(const QByteArray& bytes,
                                                  const ImportOptions& options,
                                                  QStringList* notes, QString* error);

// "<pad>", "<s>", "</s>", "<unk>", "tok4", "tok5", … up to size tokens.
QStringList placeholderVocab(int size);
// A vocabulary file: one token per line (UTF-8), line i = id i, the first four lines the
// specials. std::nullopt and *error (with the line) when it is not one.
std::optional<QStringList> readVocabFile(const QString& path, QString* error);

}  // namespace as
