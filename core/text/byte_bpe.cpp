// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "text/byte_bpe.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QMutex>
#include <QMutexLocker>

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <functional>

namespace as {

namespace {

// The pattern's four classes of code point: \s, \p{L}, \p{N} and the rest.
enum ByteBpeClass : unsigned char { kByteBpeSpace, kByteBpeLetter, kByteBpeNumber, kByteBpeOther };

// JavaScript's \s (ECMAScript WhiteSpace and LineTerminator, as Encoder.js's /u pattern has it):
// TAB, LF, VT, FF, CR, U+FEFF, U+2028, U+2029 and the Zs category (space, U+00A0, U+1680,
// U+2000-U+200A, U+202F, U+205F, U+3000). Python's `regex` module, which encoder.py uses,
// differs in two code points: U+0085 is \s there, U+FEFF is not.
bool byteBpeIsSpace(char32_t c)
{
    if (c < 0x80)
        return (c >= 0x09 && c <= 0x0d) || c == 0x20;
    if (c == 0xfeff || c == 0x2028 || c == 0x2029)
        return true;
    return QChar::category(c) == QChar::Separator_Space;
}

// The letters (\p{L}) and numbers (\p{N}) that Unicode 15.0 to 17.0 added, which Qt 6.4's
// tables (Unicode 14.0) lack: node 20's (ICU, Unicode 17.0) and Python `regex`'s (the same)
// minus Qt 6.4's, in code point order (a Qt that knows them says so before this is read).
struct ByteBpeRange {
    char32_t first, last;
    unsigned char cls;
};
constexpr ByteBpeRange kByteBpeLaterLettersAndNumbers[] = {
    {0x88F, 0x88F, kByteBpeLetter}, {0xC5C, 0xC5C, kByteBpeLetter}, {0xCDC, 0xCDC, kByteBpeLetter},
    {0x1C89, 0x1C8A, kByteBpeLetter}, {0xA7CB, 0xA7CF, kByteBpeLetter},
    {0xA7D2, 0xA7D2, kByteBpeLetter}, {0xA7D4, 0xA7D4, kByteBpeLetter},
    {0xA7DA, 0xA7DC, kByteBpeLetter}, {0xA7F1, 0xA7F1, kByteBpeLetter},
    {0x105C0, 0x105F3, kByteBpeLetter}, {0x10940, 0x10959, kByteBpeLetter},
    {0x10D40, 0x10D49, kByteBpeNumber}, {0x10D4A, 0x10D65, kByteBpeLetter},
    {0x10D6F, 0x10D85, kByteBpeLetter}, {0x10EC2, 0x10EC7, kByteBpeLetter},
    {0x1123F, 0x11240, kByteBpeLetter}, {0x11380, 0x11389, kByteBpeLetter},
    {0x1138B, 0x1138B, kByteBpeLetter}, {0x1138E, 0x1138E, kByteBpeLetter},
    {0x11390, 0x113B5, kByteBpeLetter}, {0x113B7, 0x113B7, kByteBpeLetter},
    {0x113D1, 0x113D1, kByteBpeLetter}, {0x113D3, 0x113D3, kByteBpeLetter},
    {0x116D0, 0x116E3, kByteBpeNumber}, {0x11BC0, 0x11BE0, kByteBpeLetter},
    {0x11BF0, 0x11BF9, kByteBpeNumber}, {0x11DB0, 0x11DDB, kByteBpeLetter},
    {0x11DE0, 0x11DE9, kByteBpeNumber}, {0x11F02, 0x11F02, kByteBpeLetter},
    {0x11F04, 0x11F10, kByteBpeLetter}, {0x11F12, 0x11F33, kByteBpeLetter},
    {0x11F50, 0x11F59, kByteBpeNumber}, {0x1342F, 0x1342F, kByteBpeLetter},
    {0x13441, 0x13446, kByteBpeLetter}, {0x13460, 0x143FA, kByteBpeLetter},
    {0x16100, 0x1611D, kByteBpeLetter}, {0x16130, 0x16139, kByteBpeNumber},
    {0x16D40, 0x16D6C, kByteBpeLetter}, {0x16D70, 0x16D79, kByteBpeNumber},
    {0x16EA0, 0x16EB8, kByteBpeLetter}, {0x16EBB, 0x16ED3, kByteBpeLetter},
    {0x16FF2, 0x16FF3, kByteBpeLetter}, {0x16FF4, 0x16FF6, kByteBpeNumber},
    {0x187F8, 0x187FF, kByteBpeLetter}, {0x18CFF, 0x18CFF, kByteBpeLetter},
    {0x18D09, 0x18D1E, kByteBpeLetter}, {0x18D80, 0x18DF2, kByteBpeLetter},
    {0x1B132, 0x1B132, kByteBpeLetter}, {0x1B155, 0x1B155, kByteBpeLetter},
    {0x1CCF0, 0x1CCF9, kByteBpeNumber}, {0x1D2C0, 0x1D2D3, kByteBpeNumber},
    {0x1DF25, 0x1DF2A, kByteBpeLetter}, {0x1E030, 0x1E06D, kByteBpeLetter},
    {0x1E4D0, 0x1E4EB, kByteBpeLetter}, {0x1E4F0, 0x1E4F9, kByteBpeNumber},
    {0x1E5D0, 0x1E5ED, kByteBpeLetter}, {0x1E5F0, 0x1E5F0, kByteBpeLetter},
    {0x1E5F1, 0x1E5FA, kByteBpeNumber}, {0x1E6C0, 0x1E6DE, kByteBpeLetter},
    {0x1E6E0, 0x1E6E2, kByteBpeLetter}, {0x1E6E4, 0x1E6E5, kByteBpeLetter},
    {0x1E6E7, 0x1E6ED, kByteBpeLetter}, {0x1E6F0, 0x1E6F4, kByteBpeLetter},
    {0x1E6FE, 0x1E6FF, kByteBpeLetter}, {0x2B739, 0x2B73F, kByteBpeLetter},
    {0x2CEA2, 0x2CEAD, kByteBpeLetter}, {0x2EBF0, 0x2EE5D, kByteBpeLetter},
    {0x31350, 0x33479, kByteBpeLetter}
};

ByteBpeClass byteBpeClassOf(char32_t c)
{
    if (c < 0x80) {
        if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z')
            return kByteBpeLetter;
        if (c >= '0' && c <= '9')
            return kByteBpeNumber;
        return byteBpeIsSpace(c) ? kByteBpeSpace : kByteBpeOther;
    }
    if (byteBpeIsSpace(c))
        return kByteBpeSpace;
    if (QChar::isLetter(c))
        return kByteBpeLetter;
    if (QChar::isNumber(c))
        return kByteBpeNumber;
    if (c >= kByteBpeLaterLettersAndNumbers[0].first) {
        const auto* end = std::end(kByteBpeLaterLettersAndNumbers);
        const auto* r = std::upper_bound(std::begin(kByteBpeLaterLettersAndNumbers), end, c,
                                         [](char32_t x, const ByteBpeRange& range) { return x < range.first; });
        if (r != std::begin(kByteBpeLaterLettersAndNumbers) && c <= (r - 1)->last)
            return ByteBpeClass((r - 1)->cls);
    }
    return kByteBpeOther;
}

// GPT-2's pattern, by hand over code points: calls piece(begin, end) for each match in order
// (the matches tile the text: every code point is in some alternative's class).
//   's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
template <typename Piece>
void byteBpeSplit(const char32_t* cp, qsizetype n, Piece&& piece)
{
    std::vector<unsigned char> cls(std::size_t(n) + 1, kByteBpeSpace);
    for (qsizetype i = 0; i < n; ++i)
        cls[std::size_t(i)] = byteBpeClassOf(cp[i]);
    qsizetype i = 0;
    while (i < n) {
        const char32_t c = cp[i];
        // The contractions, case-sensitive: "'S" is none.
        if (c == u'\'' && i + 1 < n) {
            const char32_t d = cp[i + 1];
            if (d == u's' || d == u't' || d == u'm' || d == u'd') {
                piece(i, i + 2);
                i += 2;
                continue;
            }
            if (i + 2 < n
                && ((d == u'r' && cp[i + 2] == u'e') || (d == u'v' && cp[i + 2] == u'e')
                    || (d == u'l' && cp[i + 2] == u'l'))) {
                piece(i, i + 3);
                i += 3;
                continue;
            }
        }
        // " ?X+" for the three non-space classes: only U+0020 is the optional space.
        const qsizetype j = (c == u' ' && i + 1 < n) ? i + 1 : i;
        const unsigned char k = cls[std::size_t(j)];
        if (k != kByteBpeSpace) {
            qsizetype end = j + 1;
            while (end < n && cls[std::size_t(end)] == k)
                ++end;
            piece(i, end);
            i = end;
            continue;
        }
        // A run of spaces: to the end of the text, or all but its last space when a non-space
        // follows (\s+(?!\S)), which is then the optional space of the next piece or a piece
        // on its own (\s+) when it is alone.
        qsizetype end = i + 1;
        while (end < n && cls[std::size_t(end)] == kByteBpeSpace)
            ++end;
        if (end < n && end - i >= 2)
            --end;
        piece(i, end);
        i = end;
    }
}

void byteBpeAppendUtf8(QByteArray* out, char32_t c)
{
    if (c < 0x80) {
        out->append(char(c));
    } else if (c < 0x800) {
        out->append(char(0xc0 | (c >> 6)));
        out->append(char(0x80 | (c & 0x3f)));
    } else if (c < 0x10000) {
        out->append(char(0xe0 | (c >> 12)));
        out->append(char(0x80 | ((c >> 6) & 0x3f)));
        out->append(char(0x80 | (c & 0x3f)));
    } else {
        out->append(char(0xf0 | (c >> 18)));
        out->append(char(0x80 | ((c >> 12) & 0x3f)));
        out->append(char(0x80 | ((c >> 6) & 0x3f)));
        out->append(char(0x80 | (c & 0x3f)));
    }
}

// One step of a UTF-8 decoder that replaces as the Unicode Standard recommends (a maximal
// subpart of a valid sequence, or one byte that can start none, is one error): the code point
// at bytes[i] and its length, or -1 and the length of the invalid stretch.
std::pair<qint32, qsizetype> byteBpeUtf8Step(const unsigned char* bytes, qsizetype n, qsizetype i)
{
    const unsigned char b = bytes[i];
    if (b < 0x80)
        return {b, 1};
    int need = 0;
    qint32 cp = 0;
    unsigned char lower = 0x80, upper = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) {
        need = 1;
        cp = b & 0x1f;
    } else if (b >= 0xe0 && b <= 0xef) {
        need = 2;
        cp = b & 0x0f;
        if (b == 0xe0)
            lower = 0xa0;
        if (b == 0xed)
            upper = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
        need = 3;
        cp = b & 0x07;
        if (b == 0xf0)
            lower = 0x90;
        if (b == 0xf4)
            upper = 0x8f;
    } else {
        return {-1, 1};
    }
    qsizetype j = i + 1;
    for (int k = 0; k < need; ++k, ++j) {
        if (j >= n || bytes[j] < lower || bytes[j] > upper)
            return {-1, j - i};
        cp = (cp << 6) | (bytes[j] & 0x3f);
        lower = 0x80;
        upper = 0xbf;
    }
    return {cp, j - i};
}

// GPT-2's bytes_to_unicode(): the printable bytes stand for themselves, the other 68
// (0-32, 127-160, 173) are U+0100 upwards in byte order.
struct ByteBpeSymbols {
    std::array<char32_t, 256> ofByte{};
    ByteBpeSymbols()
    {
        char32_t next = 0x100;
        for (int b = 0; b < 256; ++b) {
            const bool printable = (b >= 33 && b <= 126) || (b >= 161 && b <= 172) || (b >= 174);
            ofByte[std::size_t(b)] = printable ? char32_t(b) : next++;
        }
    }
};
const ByteBpeSymbols kByteBpeSymbols;

quint64 byteBpePairKey(int a, int b) { return (quint64(quint32(a)) << 32) | quint32(b); }

// Python's str.split(): parts between runs of white space.
QStringList byteBpeSplitWhite(QStringView line)
{
    QStringList parts;
    qsizetype i = 0;
    while (i < line.size()) {
        while (i < line.size() && line[i].isSpace())
            ++i;
        const qsizetype begin = i;
        while (i < line.size() && !line[i].isSpace())
            ++i;
        if (i > begin)
            parts.append(line.mid(begin, i - begin).toString());
    }
    return parts;
}

// A piece in a message: quoted, cut short when long.
QString byteBpeQuote(const QString& s)
{
    return u'\'' + (s.size() > 40 ? s.left(40) + u'…' : s) + u'\'';
}

constexpr qsizetype kByteBpeCachedBytes = 256;    // longer pieces are merged every time
constexpr qsizetype kByteBpeCacheEntries = 100000; // the cache starts over past this

}  // namespace

struct ByteLevelBpe::Tables {
    QStringList pieces;                   // by id
    QHash<QString, int> ids;              // by piece
    std::vector<QByteArray> bytes;        // what each id decodes to
    std::vector<char> special;            // by id
    std::vector<std::pair<QString, int>> specials;  // text and id, in id order
    struct Merge {
        int rank;
        int result;
        bool operator==(const Merge&) const = default;
    };
    QHash<quint64, Merge> merges;         // by the pair of ids
    std::array<int, 256> byteIds{};
    int endOfText = -1;

    const Merge* merge(int a, int b) const
    {
        const auto it = merges.constFind(byteBpePairKey(a, b));
        return it == merges.cend() ? nullptr : &it.value();
    }
};

struct ByteLevelBpe::Cache {
    QMutex mutex;
    QHash<QByteArray, std::vector<int>> words;
};

struct ByteLevelBpe::Source {
    QStringList pieces;  // by id, ids checked
    struct Merge {
        QString a, b;
        int where;  // its line, or its index in the list
    };
    std::vector<Merge> merges;
    QString whereFormat;  // "merges.txt line %1"
    std::vector<std::pair<QString, int>> specials;
};

char32_t ByteLevelBpe::byteToSymbol(unsigned char byte) { return kByteBpeSymbols.ofByte[byte]; }

int ByteLevelBpe::symbolToByte(char32_t symbol)
{
    if (symbol < 0x100) {
        const bool printable = (symbol >= 33 && symbol <= 126) || (symbol >= 161 && symbol <= 172) || symbol >= 174;
        return printable ? int(symbol) : -1;
    }
    if (symbol >= 0x100 + 68)
        return -1;
    // The n-th non-printable byte.
    int n = int(symbol - 0x100);
    for (int b = 0; b < 256; ++b)
        if (kByteBpeSymbols.ofByte[std::size_t(b)] >= 0x100 && n-- == 0)
            return b;
    return -1;
}

ByteLevelBpe::CharClass ByteLevelBpe::charClass(char32_t c)
{
    switch (byteBpeClassOf(c)) {
    case kByteBpeSpace:
        return CharClass::Space;
    case kByteBpeLetter:
        return CharClass::Letter;
    case kByteBpeNumber:
        return CharClass::Number;
    default:
        return CharClass::Other;
    }
}

QStringList ByteLevelBpe::preTokenize(const QString& text)
{
    const QList<uint> cp = text.toUcs4();
    QStringList out;
    byteBpeSplit(reinterpret_cast<const char32_t*>(cp.constData()), cp.size(), [&](qsizetype b, qsizetype e) {
        // Code point by code point: QString::fromUcs4 would drop a leading U+FEFF as a byte order mark.
        QString piece;
        for (qsizetype i = b; i < e; ++i)
            piece.append(QChar::fromUcs4(char32_t(cp[i])));
        out.append(piece);
    });
    return out;
}

QString ByteLevelBpe::utf8Replacing(const QByteArray& bytes)
{
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.constData());
    const qsizetype n = bytes.size();
    QString out;
    out.reserve(n);
    for (qsizetype i = 0; i < n;) {
        const auto [cp, len] = byteBpeUtf8Step(p, n, i);
        if (cp < 0)
            out.append(QChar::ReplacementCharacter);
        else if (cp < 0x10000)
            out.append(QChar(char16_t(cp)));
        else
            out.append(QChar::fromUcs4(char32_t(cp)));
        i += len;
    }
    return out;
}

std::optional<ByteLevelBpe> ByteLevelBpe::build(Source source, QString* error)
{
    const auto fail = [error](const QString& message) -> std::optional<ByteLevelBpe> {
        if (error)
            *error = message;
        return std::nullopt;
    };
    auto t = std::make_shared<Tables>();
    t->pieces = std::move(source.pieces);
    const int n = int(t->pieces.size());
    t->ids.reserve(n);
    for (int id = 0; id < n; ++id)
        t->ids.insert(t->pieces[id], id);
    for (int b = 0; b < 256; ++b) {
        const QString symbol = QString::fromUcs4(&kByteBpeSymbols.ofByte[std::size_t(b)], 1);
        const int id = t->ids.value(symbol, -1);
        if (id < 0)
            return fail(QCoreApplication::translate(
                            "as::ByteLevelBpe",
                            "the vocabulary lacks the symbol of byte 0x%1, '%2': a byte-level BPE "
                            "vocabulary has all 256")
                            .arg(b, 2, 16, QChar(u'0'))
                            .arg(symbol));
        t->byteIds[std::size_t(b)] = id;
    }
    t->merges.reserve(qsizetype(source.merges.size()));
    for (std::size_t rank = 0; rank < source.merges.size(); ++rank) {
        const Source::Merge& m = source.merges[rank];
        const auto where = [&] { return source.whereFormat.arg(m.where); };
        const int a = t->ids.value(m.a, -1), b = t->ids.value(m.b, -1);
        if (a < 0 || b < 0)
            return fail(QCoreApplication::translate("as::ByteLevelBpe", "%1: %2 is not in the vocabulary")
                            .arg(where(), byteBpeQuote(a < 0 ? m.a : m.b)));
        const int result = t->ids.value(m.a + m.b, -1);
        if (result < 0)
            return fail(QCoreApplication::translate("as::ByteLevelBpe",
                                                    "%1: the merge of %2 and %3, %4, is not in the vocabulary")
                            .arg(where(), byteBpeQuote(m.a), byteBpeQuote(m.b), byteBpeQuote(m.a + m.b)));
        // A pair given twice keeps its last rank, as encoder.py's dict(zip(merges, ranks)) does.
        t->merges.insert(byteBpePairKey(a, b), Tables::Merge{int(rank), result});
    }
    t->special.assign(std::size_t(n), 0);
    std::sort(source.specials.begin(), source.specials.end(),
              [](const auto& x, const auto& y) { return x.second < y.second; });
    for (const auto& [text, id] : source.specials) {
        if (text.isEmpty())
            return fail(QCoreApplication::translate("as::ByteLevelBpe", "a special token is empty (id %1)").arg(id));
        if (t->special[std::size_t(id)])
            continue;
        t->special[std::size_t(id)] = 1;
        t->specials.emplace_back(text, id);
    }
    t->endOfText = t->ids.value(QStringLiteral("<|endoftext|>"), -1);
    t->bytes.resize(std::size_t(n));
    for (int id = 0; id < n; ++id) {
        const QString& piece = t->pieces[id];
        if (t->special[std::size_t(id)]) {
            t->bytes[std::size_t(id)] = piece.toUtf8();
            continue;
        }
        QByteArray& out = t->bytes[std::size_t(id)];
        for (const char32_t c : QStringView(piece).toUcs4()) {
            const int b = symbolToByte(c);
            if (b >= 0)
                out.append(char(b));
            else
                byteBpeAppendUtf8(&out, c);  // not a byte symbol: the character itself
        }
    }
    ByteLevelBpe bpe;
    bpe.t_ = std::move(t);
    bpe.cache_ = std::make_shared<Cache>();
    return bpe;
}

namespace {

// A vocabulary's pieces by id from an object of id by piece, checked: ids 0..N-1, each once
// (N counts `extra` too: added tokens that are not in the object, by id).
bool byteBpeVocab(const QJsonObject& vocab, const QString& name, const QHash<int, QString>& extra,
                  QStringList* pieces, QString* error)
{
    const qsizetype n = vocab.size() + extra.size();
    QStringList byId(n);
    std::vector<char> seen(std::size_t(n), 0);
    const auto place = [&](const QString& piece, int id) {
        if (id < 0 || id >= n) {
            *error = QCoreApplication::translate(
                         "as::ByteLevelBpe", "%1: %2 has id %3, outside 0..%4 (the ids must be 0 to N-1, each once)")
                         .arg(name, byteBpeQuote(piece))
                         .arg(id)
                         .arg(n - 1);
            return false;
        }
        if (seen[std::size_t(id)]) {
            *error = QCoreApplication::translate("as::ByteLevelBpe", "%1: id %2 is given twice (%3 and %4)")
                         .arg(name)
                         .arg(id)
                         .arg(byteBpeQuote(byId[id]), byteBpeQuote(piece));
            return false;
        }
        seen[std::size_t(id)] = 1;
        byId[id] = piece;
        return true;
    };
    for (auto it = vocab.constBegin(); it != vocab.constEnd(); ++it) {
        const double v = it.value().toDouble(std::nan(""));
        if (!it.value().isDouble() || v != std::floor(v) || v < INT_MIN || v > INT_MAX) {
            *error = QCoreApplication::translate("as::ByteLevelBpe", "%1: the id of %2 is not a whole number")
                         .arg(name, byteBpeQuote(it.key()));
            return false;
        }
        if (!place(it.key(), int(v)))
            return false;
    }
    for (auto it = extra.constBegin(); it != extra.constEnd(); ++it)
        if (!place(it.value(), it.key()))
            return false;
    *pieces = std::move(byId);
    return true;
}

std::optional<QJsonDocument> byteBpeParse(const QByteArray& json, const QString& name, QString* error)
{
    QJsonParseError e;
    QJsonDocument doc = QJsonDocument::fromJson(json, &e);
    if (e.error != QJsonParseError::NoError) {
        if (error)
            *error = QCoreApplication::translate("as::ByteLevelBpe", "%1 is not valid JSON: %2 (at byte %3)")
                         .arg(name, e.errorString())
                         .arg(e.offset);
        return std::nullopt;
    }
    if (!doc.isObject()) {
        if (error)
            *error = QCoreApplication::translate("as::ByteLevelBpe", "%1 is not a JSON object").arg(name);
        return std::nullopt;
    }
    return doc;
}

}  // namespace

std::optional<ByteLevelBpe> ByteLevelBpe::fromFiles(const QByteArray& vocabJson, const QByteArray& mergesTxt,
                                                    QString* error)
{
    QString localError;
    QString* err = error ? error : &localError;
    const QString vocabName = QStringLiteral("vocab.json");
    const std::optional<QJsonDocument> doc = byteBpeParse(vocabJson, vocabName, err);
    if (!doc)
        return std::nullopt;
    Source source;
    if (!byteBpeVocab(doc->object(), vocabName, {}, &source.pieces, err))
        return std::nullopt;

    QString text = QString::fromUtf8(mergesTxt);
    if (text.startsWith(QChar::ByteOrderMark))
        text.remove(0, 1);
    const QList<QStringView> lines = QStringView(text).split(u'\n');
    qsizetype last = lines.size();  // blank lines at the end are allowed
    while (last > 0 && lines[last - 1].trimmed().isEmpty())
        --last;
    source.merges.reserve(std::size_t(last));
    source.whereFormat = QCoreApplication::translate("as::ByteLevelBpe", "merges.txt line %1");
    for (qsizetype i = 0; i < last; ++i) {
        QStringView line = lines[i];
        if (line.endsWith(u'\r'))
            line.chop(1);
        if (i == 0 && line.startsWith(u"#version"))
            continue;
        QStringList parts = byteBpeSplitWhite(line);
        if (parts.size() != 2) {
            *err = QCoreApplication::translate("as::ByteLevelBpe",
                                               "%1: a merge is two pieces and a space, not '%2'")
                       .arg(source.whereFormat.arg(i + 1), line.left(80).toString());
            return std::nullopt;
        }
        source.merges.push_back({std::move(parts[0]), std::move(parts[1]), int(i + 1)});
    }
    if (const qsizetype eot = source.pieces.indexOf(QStringLiteral("<|endoftext|>")); eot >= 0)
        source.specials.emplace_back(QStringLiteral("<|endoftext|>"), int(eot));
    return build(std::move(source), err);
}

std::optional<ByteLevelBpe> ByteLevelBpe::fromTokenizerJson(const QByteArray& tokenizerJson, QString* error)
{
    QString localError;
    QString* err = error ? error : &localError;
    const auto fail = [err](const QString& message) -> std::optional<ByteLevelBpe> {
        *err = message;
        return std::nullopt;
    };
    const QString name = QStringLiteral("tokenizer.json");
    const std::optional<QJsonDocument> doc = byteBpeParse(tokenizerJson, name, err);
    if (!doc)
        return std::nullopt;
    const QJsonObject root = doc->object();
    const QJsonObject model = root.value(u"model").toObject();
    if (model.isEmpty())
        return fail(QCoreApplication::translate("as::ByteLevelBpe", "tokenizer.json has no model"));
    const QString type = model.value(u"type").toString();
    if (type != u"BPE")
        return fail(QCoreApplication::translate("as::ByteLevelBpe",
                                                "tokenizer.json's model is '%1', not BPE: only GPT-2's "
                                                "byte-level BPE is read")
                        .arg(type));
    const QJsonValue pre = root.value(u"pre_tokenizer");
    const QString preType = pre.toObject().value(u"type").toString();
    if (preType != u"ByteLevel")
        return fail(QCoreApplication::translate("as::ByteLevelBpe",
                                                "tokenizer.json's pre_tokenizer is '%1', not ByteLevel: only "
                                                "GPT-2's byte-level BPE is read")
                        .arg(pre.isObject() ? preType : QStringLiteral("null")));
    if (pre.toObject().value(u"add_prefix_space").toBool())
        return fail(QCoreApplication::translate("as::ByteLevelBpe",
                                                "tokenizer.json's ByteLevel pre_tokenizer has add_prefix_space, "
                                                "which GPT-2's has not"));
    if (!pre.toObject().value(u"use_regex").toBool(true))
        return fail(QCoreApplication::translate("as::ByteLevelBpe",
                                                "tokenizer.json's ByteLevel pre_tokenizer has use_regex false: "
                                                "GPT-2's splits the text by its pattern"));
    const QJsonValue normalizer = root.value(u"normalizer");
    if (!normalizer.isNull() && !normalizer.isUndefined())
        return fail(QCoreApplication::translate("as::ByteLevelBpe",
                                                "tokenizer.json has a normalizer ('%1'), which GPT-2's has not")
                        .arg(normalizer.toObject().value(u"type").toString()));
    if (model.value(u"dropout").toDouble(0) != 0)
        return fail(QCoreApplication::translate("as::ByteLevelBpe", "tokenizer.json's BPE has dropout: "
                                                                    "GPT-2's merges always"));
    for (const char16_t* option : {u"continuing_subword_prefix", u"end_of_word_suffix"})
        if (!model.value(option).toString().isEmpty())
            return fail(QCoreApplication::translate("as::ByteLevelBpe",
                                                    "tokenizer.json's BPE has a %1, which GPT-2's has not")
                            .arg(QString::fromUtf16(option)));
    for (const char16_t* option : {u"byte_fallback", u"ignore_merges"})
        if (model.value(option).toBool())
            return fail(QCoreApplication::translate("as::ByteLevelBpe",
                                                    "tokenizer.json's BPE has %1 on, which GPT-2's has not")
                            .arg(QString::fromUtf16(option)));

    const QJsonValue vocabValue = model.value(u"vocab");
    if (!vocabValue.isObject())
        return fail(QCoreApplication::translate("as::ByteLevelBpe", "tokenizer.json's model has no vocab object"));
    const QJsonObject vocab = vocabValue.toObject();
    Source source;
    // The added tokens: special wherever they stand; ids of their own when not in the vocabulary.
    QHash<int, QString> extra;
    const QJsonArray added = root.value(u"added_tokens").toArray();
    for (qsizetype i = 0; i < added.size(); ++i) {
        const QJsonObject a = added[i].toObject();
        const QString content = a.value(u"content").toString();
        const QJsonValue idValue = a.value(u"id");
        const double idNumber = idValue.toDouble(-1);
        if (content.isEmpty() || !idValue.isDouble() || idNumber != std::floor(idNumber) || idNumber < 0
            || idNumber > INT_MAX)
            return fail(QCoreApplication::translate("as::ByteLevelBpe",
                                                    "tokenizer.json's added_tokens[%1] has no content or no id")
                            .arg(i));
        const int id = int(idNumber);
        const QJsonValue inVocab = vocab.value(content);
        if (!inVocab.isUndefined()) {
            if (inVocab.toDouble(-1) != idNumber)
                return fail(QCoreApplication::translate("as::ByteLevelBpe",
                                                        "tokenizer.json's added token %1 has id %2, but the "
                                                        "vocabulary gives it %3")
                                .arg(byteBpeQuote(content))
                                .arg(id)
                                .arg(inVocab.toVariant().toString()));
        } else if (extra.contains(id) && extra.value(id) != content) {
            return fail(QCoreApplication::translate("as::ByteLevelBpe", "%1: id %2 is given twice (%3 and %4)")
                            .arg(name)
                            .arg(id)
                            .arg(byteBpeQuote(extra.value(id)), byteBpeQuote(content)));
        } else {
            extra.insert(id, content);
        }
        source.specials.emplace_back(content, id);
    }
    if (!byteBpeVocab(vocab, name, extra, &source.pieces, err))
        return std::nullopt;

    const QJsonValue mergesValue = model.value(u"merges");
    if (!mergesValue.isArray())
        return fail(QCoreApplication::translate("as::ByteLevelBpe", "tokenizer.json's model has no merges list"));
    const QJsonArray merges = mergesValue.toArray();
    source.merges.reserve(std::size_t(merges.size()));
    source.whereFormat = QCoreApplication::translate("as::ByteLevelBpe", "tokenizer.json's merges[%1]");
    for (qsizetype i = 0; i < merges.size(); ++i) {
        const QJsonValue m = merges[i];
        QStringList parts;
        if (m.isString()) {
            parts = byteBpeSplitWhite(m.toString());
        } else if (m.isArray()) {
            for (const QJsonValue& p : m.toArray())
                parts.append(p.isString() ? p.toString() : QString());
            if (parts.contains(QString()))
                parts.clear();
        }
        if (parts.size() != 2)
            return fail(QCoreApplication::translate("as::ByteLevelBpe",
                                                    "%1: a merge is two pieces (\"a b\" or [\"a\", \"b\"]), not %2")
                            .arg(source.whereFormat.arg(i),
                                 QString::fromUtf8(QJsonDocument(QJsonArray{m}).toJson(QJsonDocument::Compact))
                                     .mid(1)
                                     .chopped(1)
                                     .left(80)));
        source.merges.push_back({std::move(parts[0]), std::move(parts[1]), int(i)});
    }
    return build(std::move(source), err);
}

std::optional<ByteLevelBpe> ByteLevelBpe::fromFolder(const QString& dir, QString* error)
{
    QString localError;
    QString* err = error ? error : &localError;
    const QDir d(dir);
    const auto read = [&](const QString& file, QByteArray* out) {
        QFile f(d.filePath(file));
        if (!f.open(QIODevice::ReadOnly)) {
            *err = QCoreApplication::translate("as::ByteLevelBpe", "cannot read %1: %2")
                       .arg(QDir::toNativeSeparators(f.fileName()), f.errorString());
            return false;
        }
        *out = f.readAll();
        return true;
    };
    const bool vocab = QFileInfo::exists(d.filePath(QStringLiteral("vocab.json")));
    const bool merges = QFileInfo::exists(d.filePath(QStringLiteral("merges.txt")));
    if (vocab && merges) {
        QByteArray v, m;
        if (!read(QStringLiteral("vocab.json"), &v) || !read(QStringLiteral("merges.txt"), &m))
            return std::nullopt;
        return fromFiles(v, m, err);
    }
    if (QFileInfo::exists(d.filePath(QStringLiteral("tokenizer.json")))) {
        QByteArray t;
        if (!read(QStringLiteral("tokenizer.json"), &t))
            return std::nullopt;
        return fromTokenizerJson(t, err);
    }
    if (vocab || merges)
        *err = QCoreApplication::translate("as::ByteLevelBpe", "%1 has %2 but no %3 (and no tokenizer.json)")
                   .arg(QDir::toNativeSeparators(dir), vocab ? QStringLiteral("vocab.json") : QStringLiteral("merges.txt"),
                        vocab ? QStringLiteral("merges.txt") : QStringLiteral("vocab.json"));
    else
        *err = QCoreApplication::translate("as::ByteLevelBpe",
                                           "%1 has neither vocab.json and merges.txt nor tokenizer.json")
                   .arg(QDir::toNativeSeparators(dir));
    return std::nullopt;
}

void ByteLevelBpe::encodeWord(const QByteArray& bytes, std::vector<int>* out) const
{
    const qsizetype n = bytes.size();
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.constData());
    if (n == 1) {
        out->push_back(t_->byteIds[p[0]]);
        return;
    }
    const bool cached = n <= kByteBpeCachedBytes;
    if (cached) {
        const QMutexLocker lock(&cache_->mutex);
        const auto it = cache_->words.constFind(bytes);
        if (it != cache_->words.cend()) {
            out->insert(out->end(), it->begin(), it->end());
            return;
        }
    }
    // encoder.py's bpe(): while some adjacent pair has a rank, the pair of lowest rank is
    // merged at every place it stands, left to right without overlap. The pairs wait in a heap
    // by (rank, place); all places of one rank are taken together in place order, so that a
    // pair the merges make (of any rank) waits for the next round, as in encoder.py. A place is
    // the index of its first byte; symbols are linked by next/prev, sym -1 once merged away.
    const auto count = std::size_t(n);
    std::vector<int> sym(count), next(count), prev(count);
    for (qsizetype i = 0; i < n; ++i) {
        sym[std::size_t(i)] = t_->byteIds[p[i]];
        next[std::size_t(i)] = i + 1 < n ? int(i + 1) : -1;
        prev[std::size_t(i)] = int(i) - 1;
    }
    std::vector<quint64> heap;
    const auto push = [&](int place) {
        const int q = next[std::size_t(place)];
        if (q < 0)
            return;
        if (const Tables::Merge* m = t_->merge(sym[std::size_t(place)], sym[std::size_t(q)])) {
            heap.push_back((quint64(quint32(m->rank)) << 32) | quint32(place));
            std::push_heap(heap.begin(), heap.end(), std::greater<>());
        }
    };
    for (qsizetype i = 0; i + 1 < n; ++i)
        push(int(i));
    // The merge of the pair at `place` when it is still of this rank, its result, or nullptr.
    const auto current = [&](int place, int rank) -> const Tables::Merge* {
        if (sym[std::size_t(place)] < 0 || next[std::size_t(place)] < 0)
            return nullptr;
        const Tables::Merge* m = t_->merge(sym[std::size_t(place)], sym[std::size_t(next[std::size_t(place)])]);
        return m && m->rank == rank ? m : nullptr;
    };
    std::vector<int> places;
    while (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), std::greater<>());
        const int rank = int(heap.back() >> 32);
        const int first = int(quint32(heap.back()));
        heap.pop_back();
        if (!current(first, rank))
            continue;  // stale
        places.assign(1, first);
        while (!heap.empty() && int(heap.front() >> 32) == rank) {
            std::pop_heap(heap.begin(), heap.end(), std::greater<>());
            places.push_back(int(quint32(heap.back())));
            heap.pop_back();
        }
        std::sort(places.begin(), places.end());
        for (const int place : places) {
            const Tables::Merge* m = current(place, rank);
            if (!m)
                continue;  // merged away by the place before it, or stale
            const int q = next[std::size_t(place)];
            sym[std::size_t(place)] = m->result;
            sym[std::size_t(q)] = -1;
            next[std::size_t(place)] = next[std::size_t(q)];
            if (next[std::size_t(q)] >= 0)
                prev[std::size_t(next[std::size_t(q)])] = place;
            // The new pairs on both sides (never of this rank: a merge's result is longer than
            // either of its parts).
            if (prev[std::size_t(place)] >= 0)
                push(prev[std::size_t(place)]);
            push(place);
        }
    }
    const std::size_t start = out->size();
    for (int i = 0; i >= 0; i = next[std::size_t(i)])
        out->push_back(sym[std::size_t(i)]);
    if (cached) {
        std::vector<int> word(out->begin() + std::ptrdiff_t(start), out->end());
        const QMutexLocker lock(&cache_->mutex);
        if (cache_->words.size() >= kByteBpeCacheEntries)
            cache_->words.clear();
        cache_->words.insert(bytes, std::move(word));
    }
}

void ByteLevelBpe::encodePart(QStringView text, std::vector<int>* out) const
{
    if (text.isEmpty())
        return;
    const QList<uint> cp = text.toUcs4();
    const auto* c = reinterpret_cast<const char32_t*>(cp.constData());
    QByteArray word;
    byteBpeSplit(c, cp.size(), [&](qsizetype b, qsizetype e) {
        word.clear();
        for (qsizetype i = b; i < e; ++i)
            byteBpeAppendUtf8(&word, c[i]);
        encodeWord(word, out);
    });
}

std::vector<int> ByteLevelBpe::encode(const QString& text) const
{
    std::vector<int> out;
    if (!t_)
        return out;
    out.reserve(std::size_t(text.size() / 3 + 1));
    // The special tokens first: the earliest, the longest of those that start there.
    const auto& specials = t_->specials;
    std::vector<qsizetype> at(specials.size());
    for (std::size_t s = 0; s < specials.size(); ++s)
        at[s] = text.indexOf(specials[s].first);
    qsizetype pos = 0;
    while (true) {
        std::size_t best = specials.size();
        for (std::size_t s = 0; s < specials.size(); ++s) {
            if (at[s] >= 0 && at[s] < pos)
                at[s] = text.indexOf(specials[s].first, pos);
            if (at[s] < 0)
                continue;
            if (best == specials.size() || at[s] < at[best]
                || (at[s] == at[best] && specials[s].first.size() > specials[best].first.size()))
                best = s;
        }
        if (best == specials.size()) {
            encodePart(QStringView(text).mid(pos), &out);
            return out;
        }
        encodePart(QStringView(text).mid(pos, at[best] - pos), &out);
        out.push_back(specials[best].second);
        pos = at[best] + specials[best].first.size();
    }
}

QStringList ByteLevelBpe::pieces(const QString& text) const
{
    QStringList out;
    for (const int id : encode(text))
        out.append(piece(id));
    return out;
}

QByteArray ByteLevelBpe::decodeBytes(const std::vector<int>& ids) const
{
    QByteArray out;
    if (!t_)
        return out;
    for (const int id : ids)
        if (id >= 0 && id < size())
            out.append(t_->bytes[std::size_t(id)]);
    return out;
}

QString ByteLevelBpe::decode(const std::vector<int>& ids) const { return utf8Replacing(decodeBytes(ids)); }

int ByteLevelBpe::size() const { return t_ ? int(t_->pieces.size()) : 0; }

QString ByteLevelBpe::piece(int id) const { return id >= 0 && id < size() ? t_->pieces[id] : QString(); }

int ByteLevelBpe::id(const QString& piece) const { return t_ ? t_->ids.value(piece, -1) : -1; }

int ByteLevelBpe::endOfText() const { return t_ ? t_->endOfText : -1; }

QByteArray ByteLevelBpe::mergesText() const
{
    std::vector<std::pair<int, quint64>> byRank;
    byRank.reserve(std::size_t(t_->merges.size()));
    for (auto it = t_->merges.cbegin(); it != t_->merges.cend(); ++it)
        byRank.emplace_back(it.value().rank, it.key());
    std::sort(byRank.begin(), byRank.end());
    QByteArray out = "#version: 0.2\n";
    for (const auto& [rank, key] : byRank) {
        out += t_->pieces[qsizetype(key >> 32)].toUtf8();
        out += ' ';
        out += t_->pieces[qsizetype(key & 0xffffffffu)].toUtf8();
        out += '\n';
    }
    return out;
}

bool operator==(const ByteLevelBpe& a, const ByteLevelBpe& b)
{
    if (a.t_ == b.t_)
        return true;
    return a.t_ && b.t_ && a.t_->pieces == b.t_->pieces && a.t_->specials == b.t_->specials
           && a.t_->merges == b.t_->merges;
}

QStringList ByteLevelBpe::specialTokens() const
{
    QStringList out;
    if (t_)
        for (const auto& s : t_->specials)
            out.append(s.first);
    return out;
}

QString ByteLevelBpe::displayPiece(int id) const
{
    if (id < 0 || id >= size())
        return {};
    if (t_->special[std::size_t(id)])
        return t_->pieces[id];
    const QByteArray& bytes = t_->bytes[std::size_t(id)];
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.constData());
    const qsizetype n = bytes.size();
    QString out;
    for (qsizetype i = 0; i < n;) {
        const auto [cp, len] = byteBpeUtf8Step(p, n, i);
        const bool control = cp >= 0 && (cp < 0x20 || (cp >= 0x7f && cp < 0xa0));
        if (cp < 0 || control) {
            for (qsizetype k = i; k < i + len; ++k)
                out += QString::asprintf("<0x%02X>", unsigned(p[k]));
        } else {
            out.append(QChar::fromUcs4(char32_t(cp)));
        }
        i += len;
    }
    return out;
}

}  // namespace as
