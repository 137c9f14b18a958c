// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Language-model tasks (core/SPEC.md §10.7): text for a decoder-only model (§2.10).
//   lm-en, lm-zh   one side of the bundled zh-en corpus (English, Chinese): its training split
//                  as one token stream (<s> sentence </s> after another, in file order), each
//                  batch `batchSize` windows of kLmContext + 1 tokens at offsets drawn from the
//                  run's generator (packed, as nanoGPT's get_batch); validation: the sentences
//                  of its validation split, each <s> sentence </s> (as `eval --task lm-en
//                  --split valid` reads them).
//   lm-brackets    a generated language whose rule a learner can check: balanced strings of
//                  ( ) [ ] { }, one sentence a row.
//   repeat[:V…]    random tokens in which a segment recurs (text/repeat_task.h): where
//                  induction heads form.
//   text:FILE      a user's UTF-8 text file, one sentence (or paragraph) a line, as lm-en
//                  reads its side: every 50th non-empty line held out for validation. What a
//                  model is fine-tuned on when lm-en is not the text the user wants.
#include "text/dataset.h"
#include "text/tasks.h"

#include <optional>

namespace as {

inline constexpr int kLmContext = 64;  // tokens a packed window feeds the model

QStringList languageModelTaskNames();  // {"lm-en", "lm-zh", "lm-brackets", "repeat"}
// One of those, or a repeat task with its parameters ("repeat:64:8:30").
bool isLanguageModelTask(const QString& name);
// lm-en and lm-zh: a side of the bundled corpus, which a tokeniser may cut (subwords trained).
bool isCorpusLanguageModelTask(const QString& name);
// "text:FILE" (a path after the colon).
bool isTextTaskName(const QString& name);
// The largest text file a text:FILE task reads.
inline constexpr qint64 kMaxTextFileBytes = 64LL << 20;

// How a model being fine-tuned reads text (core/SPEC.md §10.7): its own vocabulary and
// tokeniser, none built from the text; a sentence cut into more than kLmContext - 1 tokens is
// left out, a piece the vocabulary lacks is <unk>. sentenceStart false: the packed stream has
// no <s>, sentences are separated by </s> alone, for a model that cannot predict <s> (masked,
// ModelConfig::masked_specials) — GPT-2's texts are separated by <|endoftext|>, our </s>.
// A translator being fine-tuned (translator true, an encoder-decoder: a Marian folder) reads
// sentence pairs (a bundled corpus) with both its sides: srcVocab and srcTokenizer for the
// sources, vocab and tokenizer for the targets (core/SPEC.md §10.3).
struct ModelText {
    Vocab vocab;
    Tokenizer tokenizer = TokenizerKind::Word;
    bool sentenceStart = true;
    int context = kLmContext;  // tokens a window feeds the model: at most its max_len
    bool translator = false;
    Vocab srcVocab;
    Tokenizer srcTokenizer = TokenizerKind::Word;
};

// Sentence pairs read as a translator being fine-tuned reads them (core/SPEC.md §10.7): both
// sides cut with its tokenisers and looked up in its vocabularies, nothing built. The bundled
// corpus's and a corpus file's pairs alike.
void readWithModel(DatasetOptions* dataset, const ModelText& text);

// The task, or a Task with an empty name and *error. tok: lm-en's or lm-zh's tokeniser (word
// and cjk-char when not given; bpe:N / unigram:N trained on the side's training split).
// model: lm-en, lm-zh or text:FILE read by a model being fine-tuned (then tok must not be
// given).
Task makeLanguageModelTask(const QString& name, int batchSize, std::optional<Tokenizer> tok,
                           QString* error, const ModelText* model = nullptr);

// lm-brackets' rule: every bracket closed by its own kind, in order.
bool balancedBrackets(const QStringList& tokens);

}  // namespace as
