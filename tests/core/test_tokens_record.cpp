// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The Tokens view's record (text/tokens_record.h) against numbers worked out by hand on a small
// corpus: the vocabulary and its counts, tokens per sentence and their histogram, the <unk>
// rate; for BPE the pieces equal SubwordModel::encode and Debian's spm_encode on the same
// model, and every merge joins two earlier pieces (or characters) into its piece.
#include "skip.h"
#include "test_files.h"
#include "text/byte_bpe.h"
#include "text/subword.h"
#include "text/tokens_record.h"

#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>

using namespace as;
using namespace Qt::StringLiterals;

class TestTokensRecord : public QObject {
    Q_OBJECT
private slots:
    void wordByHand();
    void cjkCharByHand();
    void bpePiecesAndMerges();
    void mergesOfHandMadePieces();
    void gpt2PiecesAndMerges();
    void cancelStops();
};

namespace {

// Four sentences, eleven word tokens: the 3, cat 2, dog 2, ran 2, sat 1, a 1.
const QStringList kWords = {u"the cat sat"_s, u"the cat ran"_s, u"a dog ran"_s, u"the dog"_s};

QStringList corpusForBpe()
{
    // Enough repeated words for SentencePiece to learn merges from.
    const QStringList words = {u"lower"_s, u"lowest"_s, u"newer"_s, u"newest"_s, u"wider"_s,
                               u"widest"_s, u"low"_s, u"new"_s, u"wide"_s, u"slow"_s};
    QStringList out;
    for (int i = 0; i < 60; ++i)
        out << words[i % words.size()] + u' ' + words[(i * 7 + 3) % words.size()] + u' '
                   + words[(i * 3 + 1) % words.size()];
    return out;
}

}  // namespace

void TestTokensRecord::wordByHand()
{
    const TokensRecord r = buildTokensRecord(kWords, {Tokenizer(TokenizerKind::Word)}, 2, 0,
                                             u"the cat"_s, u"a dog sat"_s);
    QCOMPARE(r.choices.size(), std::size_t(1));
    const TokenizerTokens& t = r.choices[0];
    QCOMPARE(t.name, u"word"_s);
    QVERIFY(t.error.isEmpty());
    QCOMPARE(t.probe, (QStringList{u"the"_s, u"cat"_s}));
    QCOMPARE(t.typed, (QStringList{u"a"_s, u"dog"_s, u"sat"_s}));
    // Seen at least twice, most frequent first, ties in code-point order.
    const QList<QPair<QString, qint64>> vocab = {{u"the"_s, 3}, {u"cat"_s, 2}, {u"dog"_s, 2}, {u"ran"_s, 2}};
    QCOMPARE(t.vocab, vocab);
    QCOMPARE(t.vocabSize(), 8);
    QCOMPARE(t.sentences, 4);
    QCOMPARE(t.tokens, 11);
    QCOMPARE(t.unknown, 2);  // sat, a
    QCOMPARE(t.unknownRate(), 2.0 / 11.0);
    QCOMPARE(t.tokensPerSentence(), 11.0 / 4.0);
    QCOMPARE(t.lengths, (std::vector<qint64>{0, 0, 1, 3}));
    QVERIFY(t.merges.isEmpty());

    // Every token once is enough with minFreq 1: nothing unknown.
    const TokensRecord all = buildTokensRecord(kWords, {Tokenizer(TokenizerKind::Word)}, 1, 0, {}, {});
    QCOMPARE(all.choices[0].vocab.size(), 6);
    QCOMPARE(all.choices[0].vocab.last(), (QPair<QString, qint64>{u"sat"_s, 1}));
    QCOMPARE(all.choices[0].unknown, 0);
    // A size limit (a user's corpus read with --max-vocab): 4 specials and the 3 most frequent,
    // the ties in code-point order; ran, sat and a become <unk>.
    const TokensRecord limited = buildTokensRecord(kWords, {Tokenizer(TokenizerKind::Word)}, 1, 7, {}, {});
    const QList<QPair<QString, qint64>> top = {{u"the"_s, 3}, {u"cat"_s, 2}, {u"dog"_s, 2}};
    QCOMPARE(limited.choices[0].vocab, top);
    QCOMPARE(limited.choices[0].vocabSize(), 7);
    QCOMPARE(limited.choices[0].unknown, 4);  // ran ran sat a

    TokensRecord retyped = r;
    recutTokens(&retyped, u"a cat"_s, u"dog dog"_s);
    QCOMPARE(retyped.choices[0].probe, (QStringList{u"a"_s, u"cat"_s}));
    QCOMPARE(retyped.choices[0].typed, (QStringList{u"dog"_s, u"dog"_s}));
    QCOMPARE(retyped.probeText, u"a cat"_s);
    QCOMPARE(retyped.typedText, u"dog dog"_s);
    QCOMPARE(retyped.choices[0].vocab, vocab);  // the rest as it was
}

void TestTokensRecord::cjkCharByHand()
{
    // 我爱猫 / 我爱狗 / 猫 OK: 我 2, 爱 2, 猫 2, 狗 1, OK 1 — nine tokens.
    const QStringList zh = {u"我爱猫"_s, u"我爱狗"_s, u"猫 OK"_s};
    const TokensRecord r = buildTokensRecord(zh, {Tokenizer(TokenizerKind::CjkChar), Tokenizer(TokenizerKind::Word)},
                                             1, 0, u"我爱"_s, {});
    QCOMPARE(r.choices.size(), std::size_t(2));
    const TokenizerTokens& c = r.choices[0];
    QCOMPARE(c.probe, (QStringList{u"我"_s, u"爱"_s}));
    QCOMPARE(c.tokens, 8);
    QCOMPARE(c.vocab.size(), 5);
    QCOMPARE(c.vocab.first().second, 2);
    QCOMPARE(c.vocab.last(), (QPair<QString, qint64>{u"狗"_s, 1}));
    QCOMPARE(c.lengths, (std::vector<qint64>{0, 0, 1, 2}));
    QCOMPARE(c.unknown, 0);
    // word keeps a run of Han characters together: 我爱猫, 我爱狗, 猫, OK.
    const TokenizerTokens& w = r.choices[1];
    QCOMPARE(w.tokens, 4);
    QCOMPARE(w.lengths, (std::vector<qint64>{0, 2, 1}));
}

void TestTokensRecord::bpePiecesAndMerges()
{
    const QStringList corpus = corpusForBpe();
    const QString probe = u"lowest newer"_s, typed = u"slower widest"_s;
    std::optional<Tokenizer> bpe = tokenizerFromName(u"bpe:40"_s);
    QVERIFY(bpe);
    int calls = 0;
    const TokensRecord r = buildTokensRecord(corpus, {*bpe}, 2, 0, probe, typed, [&](int done, int total) {
        ++calls;
        return done <= total;
    });
    QVERIFY(calls >= 2);
    QCOMPARE(r.choices.size(), std::size_t(1));
    const TokenizerTokens& t = r.choices[0];
    QVERIFY2(t.error.isEmpty(), qPrintable(t.error));
    const SubwordModel* model = t.tokenizer.model();
    QVERIFY(model);
    QCOMPARE(t.probe, model->encode(probe));
    QCOMPARE(t.typed, model->encode(typed));

    // The vocabulary is the model's pieces (no specials), counted by hand over the corpus.
    QHash<QString, qint64> counts;
    qint64 tokens = 0, unknown = 0;
    std::vector<qint64> lengths;
    const QStringList pieces = model->pieces();
    for (const QString& s : corpus) {
        const QStringList cut = model->encode(s);
        tokens += cut.size();
        for (const QString& p : cut) {
            ++counts[p];
            unknown += !pieces.contains(p);
        }
        if (lengths.size() <= std::size_t(cut.size()))
            lengths.resize(std::size_t(cut.size()) + 1, 0);
        ++lengths[std::size_t(cut.size())];
    }
    QCOMPARE(t.vocab.size(), pieces.size() - 4);
    for (qsizetype i = 0; i < t.vocab.size(); ++i) {
        QCOMPARE(t.vocab[i].second, counts.value(t.vocab[i].first));
        if (i > 0)
            QVERIFY(t.vocab[i - 1].second >= t.vocab[i].second);
    }
    QCOMPARE(t.tokens, tokens);
    QCOMPARE(t.unknown, unknown);
    QCOMPARE(t.lengths, lengths);

    // Every merge joins two earlier merges' pieces or single characters.
    QVERIFY(!t.merges.isEmpty());
    QSet<QString> earlier;
    for (const TokenMerge& m : t.merges) {
        QCOMPARE(m.left + m.right, m.piece);
        for (const QString& part : {m.left, m.right})
            QVERIFY2(earlier.contains(part) || part.toUcs4().size() == 1, qPrintable(m.piece + u" ← "_s + part));
        earlier.insert(m.piece);
    }
    // In the model's order: the ids of the merged pieces rise.
    for (qsizetype i = 1; i < t.merges.size(); ++i)
        QVERIFY(pieces.indexOf(t.merges[i - 1].piece) < pieces.indexOf(t.merges[i].piece));

    // The same pieces as Debian's spm_encode on the same model.
    const QString spm = QStandardPaths::findExecutable(u"spm_encode"_s);
    QVERIFY2(!spm.isEmpty(), "spm_encode not found: install Debian's sentencepiece (scripts/install-deps.sh)");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QFile f(dir.filePath(u"bpe.model"_s));
    QVERIFY(f.open(QIODevice::WriteOnly));
    QCOMPARE(f.write(t.tokenizer.modelProto()), t.tokenizer.modelProto().size());
    f.close();
    QProcess p;
    p.start(spm, {u"--model="_s + f.fileName(), u"--output_format=piece"_s});
    QVERIFY(p.waitForStarted());
    p.write((probe + u'\n' + typed + u'\n').toUtf8());
    p.closeWriteChannel();
    QVERIFY(p.waitForFinished(60'000));
    const QStringList out = QString::fromUtf8(p.readAllStandardOutput()).split(u'\n');
    QVERIFY(out.size() >= 2);
    QCOMPARE(t.probe, out[0].split(u' ', Qt::SkipEmptyParts));
    QCOMPARE(t.typed, out[1].split(u' ', Qt::SkipEmptyParts));
}

void TestTokensRecord::mergesOfHandMadePieces()
{
    const QStringList pieces = {u"<pad>"_s, u"<s>"_s, u"</s>"_s, u"<unk>"_s, u"▁l"_s, u"ow"_s,
                                u"▁low"_s, u"er"_s, u"▁lower"_s, u"xyz"_s, u"l"_s, u"o"_s};
    const QList<TokenMerge> m = bpeMerges(pieces);
    // ▁l, ow, ▁low, er, ▁lower; xyz has no split into known parts, and a single character is
    // no merge.
    QCOMPARE(m.size(), 5);
    QCOMPARE(m[0].piece, u"▁l"_s);
    QCOMPARE(m[0].left, u"▁"_s);
    QCOMPARE(m[0].right, u"l"_s);
    QCOMPARE(m[2].piece, u"▁low"_s);
    QCOMPARE(m[2].left, u"▁l"_s);
    QCOMPARE(m[2].right, u"ow"_s);
    QCOMPARE(m[4].piece, u"▁lower"_s);
    QCOMPARE(m[4].left, u"▁low"_s);
    QCOMPARE(m[4].right, u"er"_s);
}

// GPT-2's tokenizer (its real files, tests/data/gpt2-tokenizer): its whole vocabulary with the
// counts of the pieces the sentences were cut into (counted here by hand), no <unk>, and its
// 50,000 merges in merges.txt's order.
void TestTokensRecord::gpt2PiecesAndMerges()
{
    const QString dir = test::testFile("data/gpt2-tokenizer");
    QVERIFY2(!dir.isEmpty(), "tests/data/gpt2-tokenizer is missing");
    QString error;
    std::optional<ByteLevelBpe> bpe = ByteLevelBpe::fromFiles(test::readAll(dir + u"/encoder.json"_s),
                                                              test::readAll(dir + u"/vocab.bpe"_s), &error);
    QVERIFY2(bpe, qPrintable(error));
    const Tokenizer gpt2(std::make_shared<const ByteLevelBpe>(*bpe));
    // "Hello world" is GPT-2's Hello Ġworld (15496 995); "Hello there" Hello Ġthere.
    const TokensRecord r = buildTokensRecord({u"Hello world"_s, u"Hello there"_s, u"world"_s}, {gpt2}, 2, 0,
                                             u"Hello world"_s, u"你好"_s);
    QCOMPARE(r.choices.size(), std::size_t(1));
    const TokenizerTokens& t = r.choices[0];
    QCOMPARE(t.name, u"gpt2-bpe"_s);
    QCOMPARE(t.tokens, qint64(5));
    QCOMPARE(t.sentences, qint64(3));
    QCOMPARE(t.unknown, qint64(0));  // minFreq 2 would have made Ġworld and Ġthere <unk>
    QCOMPARE(t.vocab.size(), 50256);  // <|endoftext|> aside
    QCOMPARE(t.vocab[0], (QPair<QString, qint64>(u"Hello"_s, 2)));
    QHash<QString, qint64> counts;
    for (const auto& [piece, count] : t.vocab)
        counts.insert(piece, count);
    QCOMPARE(counts.value(u"Ġworld"_s), qint64(1));
    QCOMPARE(counts.value(u"world"_s), qint64(1));
    QCOMPARE(counts.value(u"Ġthere"_s), qint64(1));
    QCOMPARE(counts.value(u"Ġthe"_s, -1), qint64(0));
    QCOMPARE(t.probe, QStringList({u"Hello"_s, u"Ġworld"_s}));
    QCOMPARE(t.typed, bpe->pieces(u"你好"_s));
    QCOMPARE(t.lengths, std::vector<qint64>({0, 1, 2}));
    QCOMPARE(t.merges.size(), 50000);
    QCOMPARE(t.merges[0].piece, u"Ġt"_s);
    QCOMPARE(t.merges[0].left, u"Ġ"_s);
    QCOMPARE(t.merges[0].right, u"t"_s);
    QCOMPARE(t.merges[6].piece, u"Ġthe"_s);  // "Ġt he", the seventh line
    QCOMPARE(t.merges[6].left, u"Ġt"_s);
    QCOMPARE(t.merges[6].right, u"he"_s);
}

void TestTokensRecord::cancelStops()
{
    const TokensRecord r = buildTokensRecord(kWords, {Tokenizer(TokenizerKind::Word), Tokenizer(TokenizerKind::CjkChar)},
                                             1, 0, {}, {}, [](int done, int) { return done < 100; });
    QCOMPARE(r.choices.size(), std::size_t(1));
}

AS_TEST_GUILESS_MAIN(TestTokensRecord)
#include "test_tokens_record.moc"
