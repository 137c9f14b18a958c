// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "text/tokenizer.h"

#include "text/byte_bpe.h"
#include "text/subword.h"

#include <QCoreApplication>
#include <QTextBoundaryFinder>

#include <stdexcept>
#include <vector>

// Relation to bleu.py's tok_zh / tok_en (the tokenisers of the PyTorch reference run).
// On text whose letters and digits are ASCII or CJK the token lists are identical (the tests
// check every line of zh-en/train.tsv). Deliberate differences, all outside that case:
//  - letters/digits of any script form words ("Björk", "café"), where tok_zh/tok_en glue only
//    ASCII and cut "Björk" into "Bj", "ö", "rk";
//  - control and format characters (e.g. the U+200B that cmn.txt holds) are dropped like
//    spaces, where Python emits each as an invisible token of its own;
//  - the unit is the grapheme cluster, so "👍🏽", "🇨🇳" or a letter with a combining mark
//    that NFKC cannot compose stays one piece;
//  - Word also accepts U+2019 as the apostrophe of a contraction ("don’t").

namespace as {
namespace {

// A grapheme cluster of the text being cut: a view into it (no copy per character).
struct Cluster {
    QStringView text;
    char32_t first = 0; // first code point after leading control/format characters
    bool skip = false;  // whitespace, or nothing but control/format characters
};

char32_t codePointAt(QStringView s, qsizetype i)
{
    if (s[i].isHighSurrogate() && i + 1 < s.size() && s[i + 1].isLowSurrogate())
        return QChar::surrogateToUcs4(s[i], s[i + 1]);
    return s[i].unicode();
}

bool isInvisible(char32_t c)
{
    const auto cat = QChar::category(c);
    return cat == QChar::Other_Control || cat == QChar::Other_Format;
}

bool isRegionalIndicator(char32_t c)
{
    return c >= 0x1F1E6 && c <= 0x1F1FF;
}

bool onlyRegionalIndicators(QStringView text)
{
    if (text.isEmpty())
        return false;
    for (qsizetype i = 0; i < text.size(); i += 2)
        if (i + 1 >= text.size() || !isRegionalIndicator(codePointAt(text, i)))
            return false;
    return true;
}

// Qt 6.4 groups regional indicators wrongly ("🇨🇳🇯🇵" as 🇨|🇳🇯|🇵); a flag is a pair of them
// counted from the start of the run (UAX #29 GB12/GB13), so regroup each run. A run's clusters
// are adjacent in the text, so the pairs are views into it too.
std::vector<Cluster> pairRegionalIndicators(std::vector<Cluster> in)
{
    std::vector<Cluster> out;
    out.reserve(in.size());
    std::size_t i = 0;
    while (i < in.size()) {
        if (!isRegionalIndicator(in[i].first) || !onlyRegionalIndicators(in[i].text)) {
            out.push_back(in[i++]);
            continue;
        }
        // The run: clusters of indicators only, back to back.
        const QChar* begin = in[i].text.data();
        const QChar* end = begin;
        while (i < in.size() && isRegionalIndicator(in[i].first) && onlyRegionalIndicators(in[i].text)
               && in[i].text.data() == end) {
            end = in[i].text.data() + in[i].text.size();
            ++i;
        }
        const QStringView run(begin, end - begin);
        for (qsizetype k = 0; k < run.size(); k += 4) {
            Cluster c;
            c.text = run.mid(k, std::min<qsizetype>(4, run.size() - k));
            c.first = codePointAt(c.text, 0);
            out.push_back(c);
        }
    }
    return out;
}

std::vector<Cluster> clusters(const QString& text)
{
    std::vector<Cluster> out;
    out.reserve(std::size_t(text.size()));
    QTextBoundaryFinder finder(QTextBoundaryFinder::Grapheme, text);
    qsizetype start = 0;
    bool indicators = false;
    for (qsizetype end = finder.toNextBoundary(); end != -1; end = finder.toNextBoundary()) {
        if (end <= start) continue;
        Cluster c;
        c.text = QStringView(text).mid(start, end - start);
        c.skip = true;
        for (qsizetype i = start; i < end; i += QChar::requiresSurrogates(c.first) ? 2 : 1) {
            c.first = codePointAt(text, i);
            if (!isInvisible(c.first)) {
                c.skip = QChar::isSpace(c.first);
                break;
            }
        }
        indicators = indicators || isRegionalIndicator(c.first);
        out.push_back(c);
        start = end;
    }
    return indicators ? pairRegionalIndicators(std::move(out)) : out;
}

bool isApostrophe(const Cluster& c)
{
    return c.text == u"'" || c.text == u"\u2019";
}

QStringList tokenizeCjkChar(const QString& text)
{
    QStringList out;
    QString word;
    auto flush = [&] {
        if (!word.isEmpty()) out << word;
        word.clear();
    };
    for (const Cluster& c : clusters(text)) {
        if (c.skip) {
            flush();
        } else if (!isCjk(c.first) && QChar::isLetterOrNumber(c.first)) {
            word += c.text;
        } else {
            flush();
            out << c.text.toString();
        }
    }
    flush();
    return out;
}

QStringList tokenizeWord(const QString& text)
{
    const std::vector<Cluster> cs = clusters(text);
    const auto n = cs.size();
    auto alnum = [&](std::size_t i) { return i < n && !cs[i].skip && QChar::isLetterOrNumber(cs[i].first); };
    auto letter = [&](std::size_t i) { return i < n && !cs[i].skip && QChar::isLetter(cs[i].first); };

    QStringList out;
    for (std::size_t i = 0; i < n;) {
        if (cs[i].skip) { ++i; continue; }
        if (!alnum(i)) { out << cs[i++].text.toString(); continue; }
        QString word;
        while (alnum(i)) word += cs[i++].text;
        // One contraction suffix of letters only, as tok_en's [A-Za-z0-9]+(?:'[A-Za-z]+)?,
        // so "rock'n'roll" gives rock'n ' roll in both.
        if (i + 1 < n && isApostrophe(cs[i]) && letter(i + 1)) {
            word += cs[i++].text;
            while (letter(i)) word += cs[i++].text;
        }
        out << word;
    }
    return out;
}

// Replays a Python re.sub whose pattern is two single characters: leftmost, non-overlapping.
template <typename First, typename Second, typename Append>
QString subPairs(QStringView s, First first, Second second, Append append)
{
    QString out;
    out.reserve(s.size() + s.size() / 4);
    for (qsizetype i = 0; i < s.size();) {
        if (i + 1 < s.size() && first(s[i]) && second(s[i + 1])) {
            append(out, s[i], s[i + 1]);
            i += 2;
        } else {
            out += s[i++];
        }
    }
    return out;
}

QString detokenizeWord(const QStringList& tokens)
{
    const auto isSpace = [](QChar c) { return c == u' '; };
    const auto closes = [](QChar c) { return QStringView(u".,!?;:%)]").contains(c); };
    const auto opens = [](QChar c) { return QStringView(u"([$").contains(c); };
    QString s = subPairs(tokens.join(u' '), isSpace, closes, [](QString& o, QChar, QChar b) { o += b; });
    return subPairs(s, opens, isSpace, [](QString& o, QChar a, QChar) { o += a; });
}

// A letter, a digit, or a combining mark (which belongs to the letter before it: the last code
// point of "नमस्ते" is the vowel sign U+0947), outside CJK.
bool isWordChar(char32_t c)
{
    const auto cat = QChar::category(c);
    const bool mark = cat == QChar::Mark_NonSpacing || cat == QChar::Mark_SpacingCombining
                      || cat == QChar::Mark_Enclosing;
    return !isCjk(c) && (QChar::isLetterOrNumber(c) || mark);
}

char32_t lastCodePoint(const QString& s)
{
    const qsizetype n = s.size();
    if (n >= 2 && s[n - 1].isLowSurrogate() && s[n - 2].isHighSurrogate())
        return QChar::surrogateToUcs4(s[n - 2], s[n - 1]);
    return s[n - 1].unicode();
}

QString detokenizeCjkChar(const QStringList& tokens)
{
    QString out;
    const QString* prev = nullptr;
    for (const QString& t : tokens) {
        if (t.isEmpty()) continue;
        if (prev && isWordChar(lastCodePoint(*prev)) && isWordChar(codePointAt(t, 0)))
            out += u' ';
        out += t;
        prev = &t;
    }
    return out;
}

} // namespace

bool isCjk(char32_t c)
{
    switch (QChar::script(c)) {
    case QChar::Script_Han:
    case QChar::Script_Hiragana:
    case QChar::Script_Katakana:
    case QChar::Script_Hangul:
    case QChar::Script_Bopomofo:
        return true;
    default:
        break;
    }
    // Ranges too, so that ideographs newer than Qt's Unicode tables still count, and the
    // punctuation and kana marks that Unicode files under the Common script (。、「」ー).
    return (c >= 0x3000 && c <= 0x30FF) || (c >= 0x3400 && c <= 0x4DBF)
        || (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xF900 && c <= 0xFAFF)
        || (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0xFF61 && c <= 0xFF9F)
        || (c >= 0x20000 && c <= 0x3FFFF);
}

Tokenizer::Tokenizer(TokenizerKind kind, int vocabSize)
    : kind_(kind), vocabSize_(isSubword() ? vocabSize : 0)
{
}

Tokenizer::Tokenizer(std::shared_ptr<const ByteLevelBpe> byteLevel)
    : kind_(TokenizerKind::ByteLevel), byteLevel_(std::move(byteLevel))
{
}

std::optional<Tokenizer> Tokenizer::marian(TokenizerKind side, const QByteArray& proto, QString* error)
{
    Tokenizer t(side);
    if (!t.isMarian())
        throw std::invalid_argument("Tokenizer::marian: not a Marian side");
    t.model_ = SubwordModel::fromProto(proto, error, /*engineIds=*/false);
    if (!t.model_)
        return std::nullopt;
    return t;
}

std::optional<Tokenizer> Tokenizer::trained(const QStringList& sentences, QString* error) const
{
    if (!isSubword())
        return *this;
    Tokenizer t = *this;
    t.model_ = SubwordModel::train(kind_ == TokenizerKind::Bpe ? SubwordModel::Type::Bpe
                                                               : SubwordModel::Type::Unigram,
                                   vocabSize_, sentences, error);
    if (!t.model_)
        return std::nullopt;
    return t;
}

std::optional<Tokenizer> Tokenizer::withModel(const QByteArray& proto, QString* error) const
{
    if (isMarian())
        return marian(kind_, proto, error);
    Tokenizer t = *this;
    t.model_ = SubwordModel::fromProto(proto, error);
    if (!t.model_)
        return std::nullopt;
    const bool bpe = t.model_->type() == SubwordModel::Type::Bpe;
    if (bpe != (kind_ == TokenizerKind::Bpe)) {
        if (error)
            *error = QCoreApplication::translate("as::Tokenizer", "named %1 but it is a %2 model")
                         .arg(tokenizerName(*this), bpe ? QStringLiteral("BPE") : QStringLiteral("unigram"));
        return std::nullopt;
    }
    if (t.model_->pieces().size() > vocabSize_) {
        if (error)
            *error = QCoreApplication::translate("as::Tokenizer", "the SentencePiece model of %1 has %2 pieces, over %3")
                         .arg(tokenizerName(*this))
                         .arg(t.model_->pieces().size())
                         .arg(vocabSize_);
        return std::nullopt;
    }
    return t;
}

QByteArray Tokenizer::modelProto() const
{
    return model_ ? model_->proto() : QByteArray();
}

QStringList Tokenizer::pieces() const
{
    return model_ ? model_->pieces() : QStringList();
}

bool operator==(const Tokenizer& a, const Tokenizer& b)
{
    if (a.kind_ == TokenizerKind::ByteLevel || b.kind_ == TokenizerKind::ByteLevel)
        return a.kind_ == b.kind_
               && (a.byteLevel_ == b.byteLevel_
                   || (a.byteLevel_ && b.byteLevel_ && *a.byteLevel_ == *b.byteLevel_));
    return a.kind_ == b.kind_ && a.vocabSize_ == b.vocabSize_
           && (a.model_ == b.model_ || a.modelProto() == b.modelProto());
}

QString tokenizerName(const Tokenizer& t)
{
    switch (t.kind()) {
    case TokenizerKind::CjkChar: return QStringLiteral("cjk-char");
    case TokenizerKind::Word: return QStringLiteral("word");
    case TokenizerKind::Bpe: return QStringLiteral("bpe:%1").arg(t.vocabSize());
    case TokenizerKind::Unigram: return QStringLiteral("unigram:%1").arg(t.vocabSize());
    case TokenizerKind::ByteLevel: return QStringLiteral("gpt2-bpe");
    case TokenizerKind::MarianSource: return QStringLiteral("marian-source");
    case TokenizerKind::MarianTarget: return QStringLiteral("marian-target");
    }
    return {};
}

std::optional<Tokenizer> tokenizerFromName(const QString& name)
{
    const QString n = name.trimmed().toLower();
    for (TokenizerKind k : {TokenizerKind::CjkChar, TokenizerKind::Word})
        if (n == tokenizerName(k))
            return Tokenizer(k);
    // Its tables come with the model (a Hub folder, or a model file's): not ready() until then.
    if (n == u"gpt2-bpe")
        return Tokenizer(TokenizerKind::ByteLevel);
    for (TokenizerKind k : {TokenizerKind::MarianSource, TokenizerKind::MarianTarget})
        if (n == tokenizerName(k))
            return Tokenizer(k);
    for (auto [kind, prefix] : {std::pair{TokenizerKind::Bpe, QStringLiteral("bpe:")},
                                std::pair{TokenizerKind::Unigram, QStringLiteral("unigram:")}}) {
        if (!n.startsWith(prefix))
            continue;
        bool ok = false;
        const QString digits = n.mid(prefix.size());
        const int size = digits.toInt(&ok);
        // Digits only: no sign, no spaces, as the name is written back.
        if (!ok || digits != QString::number(size) || size < kMinSubwordVocab || size > kMaxSubwordVocab)
            return std::nullopt;
        return Tokenizer(kind, size);
    }
    return std::nullopt;
}

QString sharedVocabularyProblem(const std::optional<Tokenizer>& src,
                                const std::optional<Tokenizer>& tgt)
{
    const auto subword = [](const std::optional<Tokenizer>& t) { return t && t->isSubword(); };
    if (!subword(src) && !subword(tgt))
        return {};
    if (subword(src) && subword(tgt) && src->kind() == tgt->kind()
        && src->vocabSize() == tgt->vocabSize())
        return {};
    const auto text = [](const char* s) { return QCoreApplication::translate("as::Tokenizer", s); };
    const auto name = [&](const std::optional<Tokenizer>& t) {
        return t ? tokenizerName(*t) : text(QT_TRANSLATE_NOOP("as::Tokenizer", "guessed"));
    };
    return text(QT_TRANSLATE_NOOP("as::Tokenizer",
                                  "a shared vocabulary with a BPE or unigram side is one "
                                  "SentencePiece model trained on both sides: both need the same "
                                  "kind and size (e.g. bpe:8000 and bpe:8000), here source %1 "
                                  "and target %2"))
        .arg(name(src), name(tgt));
}

QStringList tokenize(const Tokenizer& tokenizer, const QString& text)
{
    switch (tokenizer.kind()) {
    case TokenizerKind::CjkChar:
        return tokenizeCjkChar(text.normalized(QString::NormalizationForm_KC));
    case TokenizerKind::Word:
        return tokenizeWord(text.normalized(QString::NormalizationForm_KC));
    case TokenizerKind::Bpe:
    case TokenizerKind::Unigram:
        // SentencePiece normalises (NFKC) itself, as spm_encode does.
        return tokenizer.model() ? tokenizer.model()->encode(text) : QStringList();
    case TokenizerKind::ByteLevel: {
        if (!tokenizer.byteLevel())
            return {};
        QStringList pieces = tokenizer.byteLevel()->pieces(text);
        const QString eot = tokenizer.byteLevel()->piece(tokenizer.byteLevel()->endOfText());
        for (QString& p : pieces)
            if (!eot.isEmpty() && p == eot)
                p = QStringLiteral("</s>");
        return pieces;
    }
    case TokenizerKind::MarianSource:
    case TokenizerKind::MarianTarget: {
        if (!tokenizer.model())
            return {};
        // MarianTokenizer: a leading ">>xx<<" language code is a token of its own.
        QStringList out;
        QString rest = text;
        if (rest.startsWith(u">>")) {
            if (const qsizetype end = rest.indexOf(u"<<"); end >= 0) {
                out << rest.left(end + 2);
                rest = rest.mid(end + 2);
            }
        }
        out += tokenizer.model()->encode(rest);
        if (tokenizer.kind() == TokenizerKind::MarianSource)
            out << QStringLiteral("</s>");
        return out;
    }
    }
    return {};
}

QString detokenize(const Tokenizer& tokenizer, const QStringList& tokens)
{
    switch (tokenizer.kind()) {
    case TokenizerKind::CjkChar: return detokenizeCjkChar(tokens);
    case TokenizerKind::Word: return detokenizeWord(tokens);
    case TokenizerKind::Bpe:
    case TokenizerKind::Unigram:
        return tokenizer.model() ? tokenizer.model()->decode(tokens) : tokens.join(QString());
    case TokenizerKind::ByteLevel: {
        // Each piece's symbols back to bytes; anything else (a special) as its text.
        QByteArray bytes;
        for (const QString& t : tokens) {
            const QString text = t == u"</s>" && tokenizer.byteLevel()
                                     ? tokenizer.byteLevel()->piece(tokenizer.byteLevel()->endOfText())
                                     : t;
            QByteArray own;
            bool symbols = true;
            for (char32_t c : text.toUcs4()) {
                const int b = ByteLevelBpe::symbolToByte(c);
                if (b < 0) {
                    symbols = false;
                    break;
                }
                own.append(char(b));
            }
            bytes += symbols ? own : text.toUtf8();
        }
        return ByteLevelBpe::utf8Replacing(bytes);
    }
    case TokenizerKind::MarianSource:
    case TokenizerKind::MarianTarget: {
        const QString text = tokenizer.model() ? tokenizer.model()->decode(tokens) : tokens.join(QString());
        return QString(text).replace(QChar(0x2581), QLatin1Char(' ')).trimmed();
    }
    }
    return {};
}

TokenizerKind guessTokenizer(const QStringList& sampleSentences)
{
    qint64 letters = 0, cjk = 0;
    for (const QString& s : sampleSentences) {
        for (char32_t c : s.toUcs4()) {
            if (!QChar::isLetter(c)) continue;
            ++letters;
            if (isCjk(c)) ++cjk;
        }
    }
    return cjk * 10 > letters * 3 ? TokenizerKind::CjkChar : TokenizerKind::Word;
}

} // namespace as
