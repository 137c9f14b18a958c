// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// GPT-2's byte-level BPE tokenizer (text/byte_bpe.h) on arbitrary files and text. The first
// byte chooses what the rest is (parts separated by NUL bytes):
//   mode % 3 == 0: vocab.json NUL merges.txt NUL text (fromFiles)
//   mode % 3 == 1: tokenizer.json NUL text (fromTokenizerJson)
//   mode % 3 == 2: merge pairs NUL text: a vocabulary of the 256 byte symbols grown by the
//                  merges those byte pairs pick, always valid, so that the merging itself is
//                  fuzzed (a random vocab.json is rarely one)
// and bit 0x80 whether the text is UTF-8 (with its invalid bytes replaced) or raw UTF-16 with
// unpaired surrogates. Whatever reads, any text must encode to ids in range whose bytes are
// the text's UTF-8 (for text that came from UTF-8), and any ids must decode.
#include "text/byte_bpe.h"

#include <QByteArrayList>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

namespace {

void exercise(const as::ByteLevelBpe& bpe, const QString& text, bool utf8, const QByteArray& raw)
{
    const std::vector<int> ids = bpe.encode(text);
    for (const int id : ids)
        if (id < 0 || id >= bpe.size())
            std::abort();
    if (utf8 && bpe.decodeBytes(ids) != text.toUtf8())
        std::abort();  // the byte-level round trip
    if (utf8 && bpe.decode(ids) != text)
        std::abort();
    if (bpe.pieces(text).size() != qsizetype(ids.size()))
        std::abort();
    for (const int id : ids)
        (void)bpe.displayPiece(id);
    // Any ids, in range or not, decode (to replaced bytes when they cut a character).
    std::vector<int> any;
    for (qsizetype i = 0; i + 1 < raw.size() && any.size() < 64; i += 2)
        any.push_back(int(quint8(raw[i])) << 8 | quint8(raw[i + 1]));
    (void)bpe.decode(any);
    (void)as::ByteLevelBpe::utf8Replacing(raw);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < 1)
        return 0;
    const std::uint8_t mode = data[0];
    const QByteArray rest(reinterpret_cast<const char*>(data + 1), qsizetype(size - 1));
    const QByteArrayList parts = rest.split('\0');
    const bool utf8 = !(mode & 0x80);
    const auto textOf = [&](const QByteArray& bytes) {
        return utf8 ? QString::fromUtf8(bytes)
                    : QString::fromUtf16(reinterpret_cast<const char16_t*>(bytes.constData()), bytes.size() / 2);
    };
    QString error;
    std::optional<as::ByteLevelBpe> bpe;
    QByteArray text;
    switch (mode % 3) {
    case 0:
        bpe = as::ByteLevelBpe::fromFiles(parts.value(0), parts.value(1), &error);
        text = parts.value(2);
        break;
    case 1:
        bpe = as::ByteLevelBpe::fromTokenizerJson(parts.value(0), &error);
        text = parts.value(1);
        break;
    default: {
        QStringList pieces;
        QJsonObject vocab;
        for (int b = 0; b < 256; ++b) {
            const char32_t s = as::ByteLevelBpe::byteToSymbol((unsigned char)b);
            pieces.append(QString::fromUcs4(&s, 1));
            vocab.insert(pieces.back(), b);
        }
        QByteArray merges = "#version: 0.2\n";
        const QByteArray& pairs = parts.value(0);
        for (qsizetype i = 0; i + 1 < pairs.size() && i < 600; i += 2) {
            const QString a = pieces[quint8(pairs[i]) % pieces.size()];  // copies: append may move them
            const QString b = pieces[quint8(pairs[i + 1]) % pieces.size()];
            if (!vocab.contains(a + b)) {
                vocab.insert(a + b, int(pieces.size()));
                pieces.append(a + b);
            }
            merges += (a + u' ' + b + u'\n').toUtf8();
        }
        bpe = as::ByteLevelBpe::fromFiles(QJsonDocument(vocab).toJson(QJsonDocument::Compact), merges, &error);
        if (!bpe)
            std::abort();  // a vocabulary made to be valid
        text = parts.value(1);
        break;
    }
    }
    if (!bpe) {
        if (error.isEmpty())
            std::abort();  // a refusal always says why
        // The pattern alone, on the same text.
        const QStringList pieces = as::ByteLevelBpe::preTokenize(textOf(rest));
        if (utf8 && pieces.join(QString()) != textOf(rest))
            std::abort();
        return 0;
    }
    exercise(*bpe, textOf(text), utf8, rest);
    return 0;
}
