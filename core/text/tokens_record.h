// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Tokens view's numbers (issue 27 §1): how each tokeniser choice cuts one side of a
// corpus's training split — the probe and any typed text, the vocabulary it gives with every
// entry's count, tokens per sentence, the share of tokens that become <unk>, and for BPE the
// merges in the order SentencePiece learnt them. A value record: the window builds it off the
// GUI thread (training a SentencePiece model takes seconds), the view only shows it.
#include "text/tokenizer.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <vector>

namespace as {

enum class CorpusSide { Source, Target };

// One BPE merge: `piece` = left + right, both made by earlier merges or single characters.
struct TokenMerge {
    QString piece, left, right;
};

struct TokenizerTokens {
    Tokenizer tokenizer;  // trained, for bpe:N and unigram:N
    QString name;         // tokenizerName(): "cjk-char", "bpe:8000"
    QString error;        // why SentencePiece refused it (then the rest is empty)
    QStringList probe;    // the probe sentence, as this tokeniser cuts it
    QStringList typed;    // the typed text, likewise
    // The vocabulary of this side without the four specials, with how often each entry occurs
    // in the sentences: most frequent first, ties in code-point order. cjk-char and word:
    // Vocab::build's (tokens seen at least minFreq times, at most maxVocab with the specials);
    // bpe and unigram: the model's pieces; gpt2-bpe: its vocabulary's, <|endoftext|> aside.
    QList<QPair<QString, qint64>> vocab;
    qint64 sentences = 0, tokens = 0;
    qint64 unknown = 0;  // tokens the vocabulary lacks (they become <unk>)
    // lengths[n]: sentences cut into n tokens (n = 0 … the longest).
    std::vector<qint64> lengths;
    // bpe and gpt2-bpe: every merged piece in the model's order (its ids; GPT-2's ranks), with
    // the two it joins.
    QList<TokenMerge> merges;

    double unknownRate() const { return tokens ? double(unknown) / double(tokens) : 0.0; }
    double tokensPerSentence() const { return sentences ? double(tokens) / double(sentences) : 0.0; }
    int vocabSize() const { return int(vocab.size()) + 4; }  // the specials included
};

struct TokensRecord {
    QString corpus;  // the session's task: "zh-en", or a user's "corpus:pairs.tsv"
    CorpusSide side = CorpusSide::Target;
    QString probeText, typedText;
    std::vector<TokenizerTokens> choices;
};

// The merges of a SentencePiece BPE model in id order: each piece of two or more characters
// after the specials, split into the two parts that are both earlier pieces or single
// characters (the leftmost such split when there are several). A piece with no such split is
// left out (SentencePiece BPE pieces always have one).
QList<TokenMerge> bpeMerges(const QStringList& pieces);

// The record of `choices` (each trained on `sentences` when it is a subword one) over those
// sentences; minFreq and maxVocab as DatasetOptions' src_min_freq / tgt_min_freq and
// src_max_vocab / tgt_max_vocab (0: no limit) for cjk-char and word. `progress(done, total)` is
// called after each choice and every few thousand sentences; when it returns false the work
// stops and the record holds the choices done so far.
TokensRecord buildTokensRecord(const QStringList& sentences, const QList<Tokenizer>& choices,
                               int minFreq, int maxVocab, const QString& probe, const QString& typed,
                               const std::function<bool(int, int)>& progress = {});

// The probe and typed text cut again by `record`'s choices, for another probe or other typed
// text (no training: the models are in the record).
void recutTokens(TokensRecord* record, const QString& probe, const QString& typed);

}  // namespace as
