// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Models from the Hugging Face Hub, in the files the Hub has them (core/SPEC.md §8.6, §8.7): a
// folder with config.json and the weights in model.safetensors or pytorch_model.bin (read by
// io/torch_file.h, which runs nothing).
//  - GPT-2 (model_type "gpt2") becomes the engine's decoder-only model with GPT-2's options
//    (learned positions, the tanh GELU, its LayerNorm ε, a tied head without bias).
//  - Marian (model_type "marian", the OPUS-MT translators) becomes the engine's encoder-decoder
//    with Marian's options (post-norm, sinusoids in halves, SiLU, one shared embedding, the
//    final_logits_bias as the generator's bias).
// Their ids are mapped onto the engine's, whose specials come first (§1.1): GPT-2's
// <|endoftext|> is </s>, and <s> reads its embedding too; Marian's </s>, <unk> and <pad> are
// the engine's, and <s> reads the row of its decoder_start_token_id (the pad token).
#include "io/model_file.h"
#include "model/config.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <vector>

namespace as {

// What a Hub GPT-2 config.json says, read and checked (refusing by name what the engine cannot
// compute), and the engine's configuration for it.
struct Gpt2HubConfig {
    int vocab = 0;        // vocab_size: the Hub's ids 0 … vocab-1
    int endOfText = 0;    // eos_token_id: <|endoftext|>
    ModelConfig config;   // the engine's (tgt_vocab = vocab + 3: see HubIdMap)
    QStringList notes;    // what was read but differs (e.g. the dropout rates), for the user
};
std::optional<Gpt2HubConfig> gpt2HubConfig(const QJsonObject& configJson, QString* error);

// The Hub's ids and the engine's (core/SPEC.md §8.6, §8.7): the engine keeps <pad> <s> </s>
// <unk> at 0…3, the Hub's specials among them, and then the Hub's other ids in their order. For
// GPT-2 (no <pad>, no <unk>) the Hub's id k is 4 + k below <|endoftext|>, 3 + k above it.
struct HubIdMap {
    int vocab = 0;
    int endOfText = 0;  // the Hub's </s>: GPT-2's <|endoftext|>, Marian's eos_token_id
    int unknown = -1;   // the Hub's <unk>; -1: none (GPT-2)
    int pad = -1;       // the Hub's <pad>; -1: none (GPT-2)
    int start = -1;     // the Hub's id whose row <s> reads (Marian's decoder_start_token_id); -1: endOfText's
    int toEngine(int hubId) const;
    // The Hub's id of an engine id; -1 for a special the Hub has not (GPT-2's <pad>, <unk>).
    int toHub(int engineId) const;
    // The engine's vocabulary size: the Hub's, its specials counted once, plus the four.
    int engineVocab() const;
};

// What a Hub Marian config.json says (core/SPEC.md §8.7), read and checked, with the engine's
// configuration for it; the <unk> id is vocab.json's, not the config's.
struct MarianHubConfig {
    HubIdMap ids;         // vocab, eos_token_id, pad_token_id, decoder_start_token_id (unknown: -1)
    ModelConfig config;   // the engine's, vocabulary sizes set once the <unk> id is known
    int numBeams = 0;     // num_beams: the beam the model's makers decode with (0: none said)
    QStringList notes;
};
std::optional<MarianHubConfig> marianHubConfig(const QJsonObject& configJson, QString* error);

// A Hub model read into the engine's parameters.
struct HubModel {
    QString family;             // "gpt2" or "marian"
    QString weightsFile;        // the file the weights came from
    ModelConfig config;
    HubIdMap ids;
    int numBeams = 0;           // Marian's num_beams (0: none said)
    std::unique_ptr<Transformer<float>> model;  // with the weights read
    QStringList notes;
};

// The folder (or a file in it: config.json, model.safetensors, pytorch_model.bin) read:
// config.json, then model.safetensors if there is one, else pytorch_model.bin (Marian: and
// vocab.json, whose <unk> is the engine's). Every tensor the model needs must be there with
// its shape; any other tensor is refused by name. GPT-2: lm_head.weight, when present, must
// equal wte.weight (GPT-2's head is tied); the attention-mask buffers (attn.bias,
// attn.masked_bias) are skipped. Marian: the embed_tokens and lm_head weights, when present,
// must equal model.shared.weight; embed_positions, when present, must be the sinusoids the
// engine computes (§2.13). The size is checked against the machine's memory before the
// weights are read.
std::optional<HubModel> readHubModel(const QString& path, QString* error);

// The Hub model as the program's models are held (io/model_file.h): readHubModel's weights
// in the engine's model and the tokeniser from the folder, its pieces as the vocabulary in the
// engine's ids. GPT-2: vocab.json and merges.txt, or tokenizer.json (text/byte_bpe.h), which
// must have config.json's vocab_size entries and <|endoftext|> at its eos_token_id. Marian:
// source.spm and target.spm (text/tokenizer.h's marian-source and marian-target) and
// vocab.json, whose ids must be 0 … vocab_size-1 each once.
std::optional<ModelBundle> loadHubModel(const QString& path, QString* error);

// The model written back in the Hub's layout (core/SPEC.md §8.6) into `dir`, which must not
// exist or be empty: config.json, model.safetensors (GPT2LMHeadModel's keys, "transformer."
// and no lm_head.weight, as transformers saves a tied head), vocab.json and merges.txt. Only a
// model GPT-2's layout can hold is written: decoder-only, pre-norm, learned positions, the
// tanh GELU, the head tied without bias, <pad> <s> <unk> masked, the gpt2-bpe tokenizer.
// Written into a sibling folder first, renamed into place when whole. *note (if given) says
// what the layout could not keep (the <s> row, once fine-tuning moved it from </s>'s).
bool writeHubModel(const ModelBundle& bundle, const QString& dir, QString* error,
                   QString* note = nullptr);

// True when `path` is a folder (or a file in one) with a Hub config.json: what the program's
// open dialogs and --model tell apart from its own files.
bool isHubModelPath(const QString& path);

}  // namespace as
