#pragma once
// Sentence tokenisers for the model's source and target side, and their inverse for display
// and BLEU. Both work on grapheme clusters after NFKC, so a surrogate pair, an emoji sequence
// or a letter with a combining mark is never cut apart.
#include <QString>
#include <QStringList>
#include <optional>

namespace as {

enum class TokenizerKind {
    CjkChar, // one token per Han/kana/Hangul character; other-script words kept whole
    Word,    // words (any script, with 's / n't style contractions) and single symbols
};

QString tokenizerName(TokenizerKind kind);                     // "cjk-char", "word"
std::optional<TokenizerKind> tokenizerFromName(const QString& name); // case-insensitive

QStringList tokenize(TokenizerKind kind, const QString& text);

// Word: bleu.py's detok_en (no space before . , ! ? ; : % ) ] nor after ( [ $).
// CjkChar: no spaces, except one between two adjacent non-CJK letter/digit tokens.
QString detokenize(TokenizerKind kind, const QStringList& tokens);

// CjkChar when more than 30% of the letters are Han, kana, Hangul or Bopomofo.
TokenizerKind guessTokenizer(const QStringList& sampleSentences);

// True for the characters CjkChar puts in a token of their own: Han (all extensions),
// Hiragana, Katakana, Hangul, Bopomofo and the CJK symbols/punctuation block.
bool isCjk(char32_t ucs4);

} // namespace as
