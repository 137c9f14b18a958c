// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A trained model as one .safetensors file (core/SPEC.md §8): every parameter under its
// name (core/SPEC.md §6.1) as F32, and "__metadata__" with the format tag, the configuration, both
// vocabularies and both tokenisers, so that the file alone is enough to translate with.
#include "io/safetensors.h"
#include "model/config.h"
#include "model/transformer.h"
#include "text/tokenizer.h"
#include "text/vocab.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace as {

inline constexpr char kModelFormat[] = "attention-studio/1";
// A decoder-only model's files (core/SPEC.md §2.10, §8.2) have a tag of their own, so that a
// program from before decoder-only models refuses one by its format instead of misreading it.
inline constexpr char kDecoderOnlyModelFormat[] = "attention-studio/decoder-only/1";
inline const char* modelFormat(const ModelConfig& c)
{
    return c.decoderOnly() ? kDecoderOnlyModelFormat : kModelFormat;
}
// The "__metadata__" key of the CRC-32C (io/bytes.h) of the data region, 8 hex digits: written
// into every model file, verified on loading when present.
inline constexpr char kModelChecksumKey[] = "data_crc32c";
// The "__metadata__" keys of a subword side's SentencePiece model (core/SPEC.md §8.2): the
// serialized model, base64; present exactly when that side's tokenizer is bpe:N or unigram:N.
inline constexpr char kSrcSentencePieceKey[] = "src_sentencepiece";
inline constexpr char kTgtSentencePieceKey[] = "tgt_sentencepiece";
// And of a gpt2-bpe side (GPT-2's byte-level BPE, §8.6): its merges and where <|endoftext|>
// stands among its ids; present exactly when that side's tokenizer is gpt2-bpe.
inline constexpr char kSrcByteBpeKey[] = "src_byte_bpe";
inline constexpr char kTgtByteBpeKey[] = "tgt_byte_bpe";

// Everything a model file holds. config.src_vocab / tgt_vocab equal the vocabulary sizes.
// Where a model comes from, in its metadata ("step", "run"): optional, so that files written
// before, or by other tools, still load.
struct ModelProvenance {
    long step = -1;  // training steps that made these weights; -1: not recorded
    QString run;     // what it was trained on, e.g. "zh-en" or "corpus train.tsv"
};

struct ModelBundle {
    ModelConfig config;
    ModelProvenance provenance;
    Vocab srcVocab, tgtVocab;
    Tokenizer srcTok = TokenizerKind::Word, tgtTok = TokenizerKind::Word;
    std::unique_ptr<Transformer<float>> model;
    // The beam width the model's makers decode with (a Hub config's num_beams, §8.7): what
    // the window's Translate view starts from. 0: none said (greedy).
    int numBeams = 0;
    // What the user should know about the file, e.g. that it carries no checksum.
    QStringList notes;
};

// Writes atomically (the previous file survives any failure). Refuses, with *error, a model
// whose vocabularies do not fit its embeddings or whose weights are not all finite: such a
// file could not be loaded again.
bool saveModel(const QString& path, const Transformer<float>& model, const Vocab& src,
               const Vocab& tgt, Tokenizer srcTok, Tokenizer tgtTok, QString* error,
               const ModelProvenance& provenance = {});
// The same file as bytes.
std::optional<QByteArray> serializeModel(const Transformer<float>& model, const Vocab& src,
                                         const Vocab& tgt, Tokenizer srcTok,
                                         Tokenizer tgtTok, QString* error);

// Reads and checks the whole file before building the model: the container, the format tag,
// configuration, vocabularies and tokenisers, every expected parameter present with its exact
// shape and nothing else, every value finite. std::nullopt and *error (naming the file and
// the tensor or field) on any problem; nothing partly loaded is returned. The weights must match
// their checksum (kModelChecksumKey) when the file has one; without one, bundle.notes says so.
// The metadata is
// required: a bare weight file (e.g. from safetensors.torch.save_file) is not a model file.
// loadModel and loadModelFromBytes also take a training checkpoint (io/checkpoint.h, told
// apart by its magic number) and return the model it holds.
std::optional<ModelBundle> loadModel(const QString& path, QString* error);
std::optional<ModelBundle> loadModelFromBytes(QByteArray bytes, QString* error);
std::optional<ModelBundle> loadModelFrom(const SafetensorsFile& file, QString* error);

}  // namespace as
