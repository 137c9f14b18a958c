// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Built-in tasks, generated from a seed: enough to prove the engine learns without any file.
#include "model/rng.h"
#include "text/tokenizer.h"
#include "text/vocab.h"
#include "train/batch.h"

#include <functional>
#include <vector>

namespace as {

struct TokenPair {
    QStringList src, tgt;
};

struct Task {
    QString name;
    QString description;
    Vocab srcVocab, tgtVocab;
    // How a sentence the user types becomes tokens, and output tokens become text.
    Tokenizer srcTokenizer = TokenizerKind::Word, tgtTokenizer = TokenizerKind::Word;
    std::vector<TokenPair> examples;    // shown after training and used as probe sentences
    std::vector<TokenPair> validation;  // evaluated at intervals during training
    // A language model's text (text/lm_tasks.h, core/SPEC.md §10.7): pairs have no source,
    // batches none either (makeLmBatch), and it trains a decoder-only model (§2.10).
    bool languageModel = false;
    // Batches in one pass over the data; 0 for a task that generates endless fresh data.
    int batchesPerEpoch = 0;
    // Read from a file (a text:FILE task): the SHA-1 of its bytes, which a checkpoint records so
    // that a resumed run finds the same text; empty otherwise.
    QString sourceDigest;
    // The most positions a batch's sequence holds (a language model's window), which a model
    // with learned positions must have; 0 when the task does not say.
    int longestSequence = 0;
    // The next training batch; draws from rng when the task generates its data.
    std::function<Batch(Rng& rng)> nextBatch;
};

// "toy": the three sentence pairs of The Annotated Transformer's seed 001; every batch
// holds all three.
Task makeToyTask();
// "copy": The Annotated Transformer's copy task: random sequences of the symbols 1–10 of
// length `length` (the first symbol fixed to 1); the target is the source. examples: 5
// sequences drawn from exampleSeed.
Task makeCopyTask(int batchSize = 32, int length = 10, std::uint64_t exampleSeed = 12345);
// One random copy sequence (as tokens), drawn from rng.
QStringList randomCopySequence(Rng& rng, int length);

// "reverse": the target is the source backwards; "sort": the source's symbols in ascending
// order. Random sequences of the symbols 1–10 of lengths 3 … maxLength.
Task makeReverseTask(int batchSize = 32, int maxLength = 10, std::uint64_t exampleSeed = 12345);
Task makeSortTask(int batchSize = 32, int maxLength = 10, std::uint64_t exampleSeed = 12345);

QStringList builtinTaskNames();
// A task with an empty name when `name` is not a built-in task.
Task makeBuiltinTask(const QString& name, int batchSize);

// Encodes token pairs with the task's vocabularies into one batch (a language model's: each
// pair's target as one window <s> … </s>).
Batch encodePairs(const Task& task, const std::vector<TokenPair>& pairs);

}  // namespace as
