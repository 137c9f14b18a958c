// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Models from the Hugging Face Hub, in the files the Hub has them (core/SPEC.md §8.6): a folder
// with config.json and the weights in model.safetensors or pytorch_model.bin (read by
// io/torch_file.h, which runs nothing). GPT-2 (model_type "gpt2") becomes the engine's
// decoder-only model with GPT-2's options (learned positions, the tanh GELU, its LayerNorm ε,
// a tied head without bias); its ids are mapped onto the engine's, whose specials come first
// (§1.1): <|endoftext|> is </s>, and <s> reads its embedding too.
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
    ModelConfig config;   // the engine's (tgt_vocab = vocab + 3: see Gpt2IdMap)
    QStringList notes;    // what was read but differs (e.g. the dropout rates), for the user
};
std::optional<Gpt2HubConfig> gpt2HubConfig(const QJsonObject& configJson, QString* error);

// The Hub's ids and the engine's (core/SPEC.md §8.6): the engine keeps <pad> <s> </s> <unk> at
// 0…3; the Hub's id k is 4 + k below <|endoftext|>, 3 + k above it, and <|endoftext|> is </s>.
struct Gpt2IdMap {
    int vocab = 0, endOfText = 0;
    int toEngine(int hubId) const
    {
        return hubId == endOfText ? 2 : hubId < endOfText ? hubId + 4 : hubId + 3;
    }
    // -1 for <pad>, <unk> (no counterpart); <s> and </s> are <|endoftext|>.
    int toHub(int engineId) const
    {
        if (engineId == 1 || engineId == 2)
            return endOfText;
        if (engineId < 4)
            return -1;
        return engineId - 4 < endOfText ? engineId - 4 : engineId - 3;
    }
};

// A Hub model read into the engine's parameters.
struct HubModel {
    QString family;             // "gpt2"
    QString weightsFile;        // the file the weights came from
    ModelConfig config;
    Gpt2IdMap ids;
    std::unique_ptr<Transformer<float>> model;  // with the weights read
    QStringList notes;
};

// The folder (or a file in it: config.json, model.safetensors, pytorch_model.bin) read:
// config.json, then model.safetensors if there is one, else pytorch_model.bin. Every tensor
// the model needs must be there with its shape; lm_head.weight, when present, must equal
// wte.weight (GPT-2's head is tied); the attention-mask buffers (attn.bias, attn.masked_bias)
// are skipped; any other tensor is refused by name. The size is checked against the
// machine's memory before the weights are read.
std::optional<HubModel> readHubModel(const QString& path, QString* error);

// The Hub model as the program's models are held (io/model_file.h): readHubModel's weights
// in the engine's model, and GPT-2's tokeniser from the folder (vocab.json and merges.txt, or
// tokenizer.json; text/byte_bpe.h) with its pieces as the vocabulary in the engine's ids. The
// tokeniser must have config.json's vocab_size entries and <|endoftext|> at its eos_token_id.
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
