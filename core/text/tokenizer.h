// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Sentence tokenisers for the model's source and target side, and their inverse for display
// and BLEU (core/SPEC.md §10.1). cjk-char and word work on grapheme clusters after NFKC, so a
// surrogate pair, an emoji sequence or a letter with a combining mark is never cut apart;
// bpe:N and unigram:N are SentencePiece models (text/subword.h) trained on the training pairs.
#include <QByteArray>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>

namespace as {

class SubwordModel;
class ByteLevelBpe;

enum class TokenizerKind {
    CjkChar, // one token per Han/kana/Hangul character; other-script words kept whole
    Word,    // words (any script, with 's / n't style contractions) and single symbols
    Bpe,     // SentencePiece BPE of at most N pieces, trained on the training pairs
    Unigram, // SentencePiece unigram model of at most N pieces, likewise
    // GPT-2's byte-level BPE (text/byte_bpe.h), from a Hub model's files: never trained here.
    // Its tokens are the vocabulary's pieces ("Ġthe"); <|endoftext|> is </s> (core/SPEC.md §8.6).
    ByteLevel,
    // Marian's (OPUS-MT) two SentencePiece models, from a Hub folder's source.spm and
    // target.spm: never trained here. Their tokens are SentencePiece's pieces, looked up in the
    // model's vocab.json (a piece it lacks is <unk>); the source side ends each sentence with
    // </s>, as MarianTokenizer does (core/SPEC.md §10.9).
    MarianSource,
    MarianTarget,
};

// A tokeniser: a kind, and for bpe/unigram the size asked for and (once trained, or read from
// a model file) the SentencePiece model. Cheap to copy (the model is shared, immutable).
class Tokenizer {
public:
    // cjk-char or word; or a subword tokeniser of `vocabSize` pieces not yet trained.
    Tokenizer(TokenizerKind kind = TokenizerKind::Word, int vocabSize = 0); // implicit: a kind is a tokeniser

    // A subword tokeniser trained on `sentences` (one side of the training pairs); any other
    // kind is returned as it is. nullopt and *error when SentencePiece refuses.
    std::optional<Tokenizer> trained(const QStringList& sentences, QString* error) const;
    // This subword tokeniser with the model `proto` (a serialized SentencePiece model, as a
    // model file carries it); nullopt and *error when it is not a usable one.
    std::optional<Tokenizer> withModel(const QByteArray& proto, QString* error) const;
    // GPT-2's tokeniser with its tables (kind ByteLevel).
    explicit Tokenizer(std::shared_ptr<const ByteLevelBpe> byteLevel);
    // A Marian side (MarianSource or MarianTarget) with its SentencePiece model: any model,
    // whatever its special ids (SentencePiece's own: <unk> 0, <s> 1, </s> 2). nullopt and
    // *error when `proto` is not a usable one.
    static std::optional<Tokenizer> marian(TokenizerKind side, const QByteArray& proto, QString* error);

    TokenizerKind kind() const { return kind_; }
    bool isSubword() const { return kind_ == TokenizerKind::Bpe || kind_ == TokenizerKind::Unigram; }
    bool isMarian() const { return kind_ == TokenizerKind::MarianSource || kind_ == TokenizerKind::MarianTarget; }
    // N of bpe:N / unigram:N (the most pieces, specials included); 0 for the others.
    int vocabSize() const { return vocabSize_; }
    // False for a subword tokeniser without its model: it cuts nothing until trained().
    bool ready() const
    {
        return kind_ == TokenizerKind::ByteLevel ? byteLevel_ != nullptr
                                                 : !(isSubword() || isMarian()) || model_ != nullptr;
    }
    const SubwordModel* model() const { return model_.get(); }
    // GPT-2's tables; null for the other kinds.
    const ByteLevelBpe* byteLevel() const { return byteLevel_.get(); }
    std::shared_ptr<const ByteLevelBpe> byteLevelShared() const { return byteLevel_; }
    // The serialized SentencePiece model; empty without one.
    QByteArray modelProto() const;
    // The model's pieces, index = id (the vocabulary of that side); empty without a model.
    QStringList pieces() const;

    // Same kind, size and model.
    friend bool operator==(const Tokenizer& a, const Tokenizer& b);
    friend bool operator!=(const Tokenizer& a, const Tokenizer& b) { return !(a == b); }

private:
    TokenizerKind kind_ = TokenizerKind::Word;
    int vocabSize_ = 0;
    std::shared_ptr<const SubwordModel> model_;
    std::shared_ptr<const ByteLevelBpe> byteLevel_;
};

// The smallest and largest N of bpe:N / unigram:N.
inline constexpr int kMinSubwordVocab = 8, kMaxSubwordVocab = 1000000;

// "cjk-char", "word", "bpe:8000", "unigram:8000", "gpt2-bpe", "marian-source", "marian-target"
QString tokenizerName(const Tokenizer& tokenizer);
// Case-insensitive; a subword name gives a tokeniser still to be trained (or given its model).
std::optional<Tokenizer> tokenizerFromName(const QString& name);

// Why one vocabulary for both sides (core/SPEC.md §10.3) cannot be built with these sides'
// tokenisers (nullopt: guessed), naming both; empty when it can: neither side is a subword one
// (the vocabulary is built from both sides' tokens), or both are the same kind and size
// (bpe:N and bpe:N; one SentencePiece model trained on both sides, its pieces the vocabulary).
// English unless a translation is installed (context "as::Tokenizer"; the window's).
QString sharedVocabularyProblem(const std::optional<Tokenizer>& src,
                                const std::optional<Tokenizer>& tgt);

// Subword tokenisers: SentencePiece's pieces ("▁friend", "s"); nothing without a model.
QStringList tokenize(const Tokenizer& tokenizer, const QString& text);

// Word: bleu.py's detok_en (no space before . , ! ? ; : % ) ] nor after ( [ $).
// CjkChar: no spaces, except one between two adjacent non-CJK letter/digit tokens.
// Subword: SentencePiece's decoding (▁ is a space; <unk> shows as " ⁇ ").
// ByteLevel: the pieces' bytes read as UTF-8 (an invalid sequence as U+FFFD); a special token
// that is not </s> as it is written; </s> as <|endoftext|>.
// Marian: SentencePiece's decoding of the pieces by the model (a piece it lacks as it is),
// then every ▁ a space and the ends trimmed, as MarianTokenizer's decode does.
QString detokenize(const Tokenizer& tokenizer, const QStringList& tokens);

// CjkChar when more than 30% of the letters are Han, kana, Hangul or Bopomofo.
TokenizerKind guessTokenizer(const QStringList& sampleSentences);

// True for the characters CjkChar puts in a token of their own: Han (all extensions),
// Hiragana, Katakana, Hangul, Bopomofo and the CJK symbols/punctuation block.
bool isCjk(char32_t ucs4);

} // namespace as
