// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// GPT-2's byte-level BPE tokenizer, cutting text exactly as OpenAI's encoder.py and Hugging
// Face's GPT2Tokenizer do (held to the npm package gpt-3-encoder's Encoder.js, a port of
// encoder.py, on the bundled corpus and hand-made hard cases: tests/core/test_byte_bpe.cpp).
//
// The contract:
//  - The text is first split on the special tokens (GPT-2's "<|endoftext|>", or a
//    tokenizer.json's added_tokens), leftmost first and the longest at one position: each one
//    is its own id wherever it stands, and the parts between them are encoded on their own.
//  - Each part is cut by GPT-2's pattern 's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+|
//    ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+ (case-sensitive: "'S" is no contraction), over code
//    points, with \s as JavaScript's (Encoder.js): U+FEFF counts as a space, U+0085 does not.
//    (Python's `regex`, which encoder.py uses, has it the other way round; no other code point
//    differs.) \p{L} and \p{N} are Unicode 17.0's letters and numbers, as in node 20 and
//    Python's `regex` (Qt's categories, and those that came after Qt 6.4's Unicode 14.0).
//  - Each piece's UTF-8 bytes become symbols (bytes 33-126, 161-172 and 174-255 are their own
//    code points, the 68 others U+0100 upwards in order: space is "Ġ", newline "Ċ"), which are
//    merged as encoder.py's bpe() does: the adjacent pair of lowest rank (its line in
//    merges.txt) first, every occurrence of it left to right, until no pair has a rank.
//  - encode adds no start or end token. decode gives the bytes back read as UTF-8, each
//    invalid sequence replaced by U+FFFD as Python's errors="replace" (and WHATWG) do: ids
//    out of range are skipped.
// Copies share their (immutable) tables and one cache of encoded pieces; every const member
// is safe to call from several threads at once.
#include <QByteArray>
#include <QString>
#include <QStringList>
#include <QStringView>

#include <memory>
#include <optional>
#include <vector>

namespace as {

class ByteLevelBpe {
public:
    // vocab.json (an object, id by piece) and merges.txt (an optional "#version" first line,
    // then one "a b" merge a line, rank = order, blank lines allowed at the end only), as GPT-2
    // ships them (encoder.json and vocab.bpe). "<|endoftext|>", when in the vocabulary, is the
    // one special token. nullopt with *error naming the problem when: the JSON is malformed,
    // ids are not 0..N-1 each once, a byte symbol is missing, a merge line has not exactly two
    // parts, or a merge's parts or result are not in the vocabulary.
    static std::optional<ByteLevelBpe> fromFiles(const QByteArray& vocabJson, const QByteArray& mergesTxt,
                                                 QString* error);
    // The Hub's tokenizer.json: model.type "BPE" with model.vocab and model.merges ("a b"
    // strings or [a, b] pairs); every added_tokens entry is a special token (its id either its
    // piece's in model.vocab or a new one, the ids together 0..N-1). Refused, by name: a model
    // other than BPE, a pre_tokenizer other than ByteLevel (or with add_prefix_space or
    // without use_regex), a normalizer, and BPE options GPT-2 does not use (dropout,
    // continuing_subword_prefix, end_of_word_suffix, byte_fallback, ignore_merges).
    static std::optional<ByteLevelBpe> fromTokenizerJson(const QByteArray& tokenizerJson, QString* error);
    // vocab.json + merges.txt in the folder when both are there, else its tokenizer.json.
    static std::optional<ByteLevelBpe> fromFolder(const QString& dir, QString* error);

    std::vector<int> encode(const QString& text) const;
    // The pieces of encode(text), as the vocabulary spells them: "Ġhello".
    QStringList pieces(const QString& text) const;
    QByteArray decodeBytes(const std::vector<int>& ids) const;
    QString decode(const std::vector<int>& ids) const;

    int size() const;
    // The piece of an id ("Ġthe"), empty out of range.
    QString piece(int id) const;
    // The id of a piece, -1 when absent.
    int id(const QString& piece) const;
    // The id of "<|endoftext|>", -1 when the vocabulary has none.
    int endOfText() const;
    // The special tokens (their text), in id order.
    QStringList specialTokens() const;
    // A piece for people: its bytes as text ("Ġthe" -> " the"), a special token as it is, and
    // each byte that is not part of a whole UTF-8 character, or is a control character (a
    // newline, a tab), as <0xE4>. Empty out of range.
    QString displayPiece(int id) const;

    // The same tables: pieces by id, merges by rank, special tokens (whatever files they came
    // from), so that both cut every text alike. A copy is equal at no cost.
    friend bool operator==(const ByteLevelBpe& a, const ByteLevelBpe& b);

    // The merges as merges.txt has them ("#version: 0.2", then "a b" a line in rank order):
    // with the pieces, what fromFiles() reads back into these tables.
    QByteArray mergesText() const;

    // The byte-to-symbol map of GPT-2 and its inverse (-1 for a code point that is no byte's).
    static char32_t byteToSymbol(unsigned char byte);
    static int symbolToByte(char32_t symbol);
    // The pattern's pieces of a text (no special tokens, no merges), for tests and views.
    static QStringList preTokenize(const QString& text);
    // The pattern's class of a code point: \s, \p{L}, \p{N} or none of them.
    enum class CharClass { Space, Letter, Number, Other };
    static CharClass charClass(char32_t c);
    // UTF-8 to text with each invalid sequence replaced by one U+FFFD per maximal subpart (the
    // Unicode Standard's recommended practice, Python's and WHATWG's decoders).
    static QString utf8Replacing(const QByteArray& bytes);

private:
    struct Tables;
    struct Cache;
    struct Source;  // what a file gave, before build()'s checks
    static std::optional<ByteLevelBpe> build(Source source, QString* error);
    void encodePart(QStringView text, std::vector<int>* out) const;
    void encodeWord(const QByteArray& bytes, std::vector<int>* out) const;

    std::shared_ptr<const Tables> t_;
    std::shared_ptr<Cache> cache_;
};

}  // namespace as
