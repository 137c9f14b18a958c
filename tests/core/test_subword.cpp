// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The subword tokenisers bpe:N and unigram:N (core/SPEC.md §10.1): SentencePiece models
// trained in memory on the bundled corpus's training split.
//  - Training is deterministic (the same bytes twice) and puts the specials at the ids of
//    core/SPEC.md §1.1; the side's vocabulary is the model's pieces (§1.2).
//  - Segmentation equals Debian's spm_encode (package sentencepiece) on the same model file,
//    piece by piece, for every sentence of the bundled test split, both sides, both kinds,
//    and both sides of one shared model (--shared-vocab, core/SPEC.md §10.3).
//  - A shared vocabulary with subword sides is one model trained on both sides' sentences,
//    the vocabulary of both; mixed kinds or sizes are refused naming both, before training.
//  - The model travels in the model file (§8.2) with a shared vocabulary too; the other
//    files' round trips and refusals are test_subword_files'.
// The PyTorch reference reading such a file is in test_torch_parity (subwordText).
#include "test_files.h"
#include "subword_training.h"
#include "io/model_file.h"
#include "io/safetensors.h"
#include "skip.h"
#include "text/dataset.h"
#include "text/subword.h"
#include "train/trainer.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace as;
using namespace as::test;
using namespace Qt::StringLiterals;

class TestSubword : public QObject {
    Q_OBJECT
    QList<SentencePair> train_, test_;
    QTemporaryDir tmp_;
    // The test split under the guessed tokenisers (cjk-char, word), for comparison in the log.
    DatasetStats guessedTest_;

    // The bundled training split with --shared-vocab and bpe:8000 on both sides, made on
    // first use.
    std::optional<ParallelData> shared_;
    const ParallelData& sharedData();

private slots:
    void initTestCase();
    void names();
    void deterministic();
    void matchesSpmEncode_data();
    void matchesSpmEncode();
    void vocabularyIsThePieces();
    void sharedModel();
    void tooSmallSaysTheSmallestSize();
};

void TestSubword::initTestCase()
{
    train_ = bundledZhEn().split.train;
    test_ = bundledZhEn().split.test;
    QCOMPARE(test_.size(), 1020);
    QVERIFY(tmp_.isValid());
    guessedTest_ = ParallelData::build(train_).encode(test_).stats;
    qInfo("guessed tokenisers on the test split: %s", qPrintable(guessedTest_.summary()));
}

void TestSubword::names()
{
    for (const QString& name : {u"bpe:8000"_s, u"unigram:8"_s, u"BPE:1000000"_s}) {
        const std::optional<Tokenizer> t = tokenizerFromName(name);
        QVERIFY2(t, qPrintable(name));
        QVERIFY(t->isSubword());
        QVERIFY(!t->ready());
        QCOMPARE(tokenizerName(*t), name.toLower());
        QVERIFY(tokenize(*t, u"untrained"_s).isEmpty());
    }
    for (const QString& name : {u"bpe"_s, u"bpe:"_s, u"bpe:7"_s, u"bpe:+800"_s, u"bpe:1000001"_s,
                                u"unigram:8k"_s, u"sentencepiece:800"_s})
        QVERIFY2(!tokenizerFromName(name), qPrintable(name));
    QCOMPARE(tokenizerFromName(u"word"_s)->kind(), TokenizerKind::Word);
}

void TestSubword::deterministic()
{
    const QStringList en = side(train_, false);
    QElapsedTimer clock;
    clock.start();
    const Tokenizer a = trainedTokenizer(u"bpe:2000"_s, en);
    const qint64 ms = clock.elapsed();
    const Tokenizer b = trainedTokenizer(u"bpe:2000"_s, en);
    QVERIFY(!a.modelProto().isEmpty());
    QVERIFY(a.modelProto() == b.modelProto());
    QVERIFY(a == b);
    QCOMPARE(a.pieces().size(), 2000);
    QCOMPARE(a.pieces().mid(0, 4), (QStringList{u"<pad>"_s, u"<s>"_s, u"</s>"_s, u"<unk>"_s}));
    QVERIFY(a.pieces().contains(u"▁friend"_s));
    // Unigram on this corpus stops short of a large N (hard_vocab_limit false), never over it.
    const Tokenizer u = trainedTokenizer(u"unigram:8000"_s, en);
    QVERIFY(u.pieces().size() <= 8000);
    QVERIFY(u.pieces().size() > 4000);
    QVERIFY(u != a);
    // What a learner sees: the pieces as they are, ▁ included, and the sentence back.
    const QStringList pieces = tokenize(a, u"My friends are friendly."_s);
    QCOMPARE(pieces.join(QString()).replace(u"▁"_s, u" "_s).trimmed(), u"My friends are friendly."_s);
    QCOMPARE(detokenize(a, pieces), u"My friends are friendly."_s);
    qInfo("bpe:2000 on %d English sentences: %lld ms; unigram:8000 gave %d pieces",
          int(en.size()), ms, int(u.pieces().size()));
    // A size SentencePiece cannot reach is an error naming it, not a crash (its words and
    // the size that works: tooSmallSaysTheSmallestSize).
    QString error;
    QVERIFY(!tokenizerFromName(u"bpe:8"_s)->trained(side(train_, true), &error));
    QVERIFY2(error.startsWith(u"bpe:8 is too small for this text"_s), qPrintable(error));
}

void TestSubword::matchesSpmEncode_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("source");
    QTest::addColumn<bool>("shared");
    QTest::newRow("en bpe:8000") << u"bpe:8000"_s << false << false;
    QTest::newRow("en unigram:8000") << u"unigram:8000"_s << false << false;
    QTest::newRow("en unigram:4000") << u"unigram:4000"_s << false << false;
    QTest::newRow("zh bpe:4000") << u"bpe:4000"_s << true << false;
    QTest::newRow("zh unigram:6000") << u"unigram:6000"_s << true << false;
    // One model for both sides (sharedData()): each side cut as spm_encode cuts it.
    QTest::newRow("zh shared bpe:8000") << u"bpe:8000"_s << true << true;
    QTest::newRow("en shared bpe:8000") << u"bpe:8000"_s << false << true;
}

const ParallelData& TestSubword::sharedData()
{
    if (!shared_) {
        DatasetOptions o;
        o.src_tok = o.tgt_tok = tokenizerFromName(u"bpe:8000"_s);
        o.shared_vocab = true;
        QString error;
        shared_ = ParallelData::build(train_, o, &error);
        if (!error.isEmpty())
            qFatal("shared bpe:8000: %s", qPrintable(error));
    }
    return *shared_;
}

void TestSubword::matchesSpmEncode()
{
    QFETCH(QString, name);
    QFETCH(bool, source);
    QFETCH(bool, shared);
    const QString spm = QStandardPaths::findExecutable(u"spm_encode"_s);
    QVERIFY2(!spm.isEmpty(), "spm_encode not found: install Debian's sentencepiece "
                             "(scripts/install-deps.sh)");
    QElapsedTimer clock;
    clock.start();
    const Tokenizer t = shared ? (source ? sharedData().srcTokenizer() : sharedData().tgtTokenizer())
                               : trainedTokenizer(name, side(train_, source));
    const qint64 trainMs = clock.elapsed();
    QCOMPARE(tokenizerName(t), name);
    const QString modelPath = tmp_.filePath(name.replace(u':', u'-') + (source ? u"-zh"_s : u"-en"_s)
                                            + (shared ? u"-shared"_s : QString()) + u".model"_s);
    QFile f(modelPath);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QCOMPARE(f.write(t.modelProto()), t.modelProto().size());
    f.close();

    const QStringList lines = side(test_, source);
    QProcess p;
    p.start(spm, {u"--model="_s + modelPath, u"--output_format=piece"_s});
    QVERIFY(p.waitForStarted());
    p.write((lines.join(u'\n') + u'\n').toUtf8());
    p.closeWriteChannel();
    QVERIFY(p.waitForFinished(120'000));
    QCOMPARE(p.exitCode(), 0);
    const QStringList out = QString::fromUtf8(p.readAllStandardOutput()).split(u'\n');
    QCOMPARE(out.size(), lines.size() + 1);  // the last newline
    qsizetype pieces = 0, unknown = 0;
    const Vocab vocab = [&] {
        Vocab v;
        Vocab::fromTokens(t.pieces(), &v, nullptr);
        return v;
    }();
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QStringList ours = tokenize(t, lines[i]);
        const QStringList theirs = out[i].split(u' ', Qt::SkipEmptyParts);
        if (ours != theirs)
            QFAIL(qPrintable(u"line %1 '%2': ours %3, spm_encode %4"_s.arg(i).arg(lines[i],
                                                                             ours.join(u' '),
                                                                             theirs.join(u' '))));
        pieces += ours.size();
        for (const QString& s : ours)
            unknown += !vocab.contains(s);
    }
    const qint64 guessedTokens = source ? guessedTest_.src_tokens : guessedTest_.tgt_tokens;
    const qint64 guessedUnknown = source ? guessedTest_.src_unknown : guessedTest_.tgt_unknown;
    qInfo("%s%s on the %s side (%d pieces, trained in %lld ms): %lld test sentences identical, "
          "%.2f pieces per sentence, %.3f%% <unk>; %s: %.2f tokens per sentence, %.3f%% <unk>",
          qPrintable(tokenizerName(t)), shared ? " (shared)" : "", source ? "zh" : "en",
          int(t.pieces().size()), trainMs,
          qlonglong(lines.size()), double(pieces) / double(lines.size()),
          100.0 * double(unknown) / double(pieces), source ? "cjk-char" : "word",
          double(guessedTokens) / double(guessedTest_.pairs),
          100.0 * double(guessedUnknown) / double(guessedTokens));
}

void TestSubword::vocabularyIsThePieces()
{
    DatasetOptions o;
    o.src_tok = tokenizerFromName(u"unigram:2000"_s);
    o.tgt_tok = tokenizerFromName(u"bpe:1000"_s);
    QString error;
    const ParallelData d = ParallelData::build(train_.mid(0, 5000), o, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY(d.srcTokenizer().ready() && d.tgtTokenizer().ready());
    QCOMPARE(d.srcVocab().tokens(), d.srcTokenizer().pieces());
    QCOMPARE(d.tgtVocab().tokens(), d.tgtTokenizer().pieces());
    QCOMPARE(d.tgtVocab().size(), 1000);
    // Trained on these sentences: only the rarest characters are unknown (character_coverage
    // 0.9995 leaves 0.05% of them out); the ids are the pieces' own.
    QVERIFY(d.train().stats.tgt_unknown > 0);
    QVERIFY(d.train().stats.tgt_unknown * 1000 < d.train().stats.tgt_tokens);
    const EncodedSentence e = d.encodeTarget(u"I have a good friend."_s);
    QCOMPARE(e.tokens, tokenize(d.tgtTokenizer(), u"I have a good friend."_s));
    for (std::size_t i = 0; i < e.ids.size(); ++i)
        QCOMPARE(d.tgtTokenizer().pieces()[e.ids[i]], e.tokens[qsizetype(i)]);
    QCOMPARE(d.decodeTarget(e.ids), u"I have a good friend."_s);
    // A character the model never saw is <unk>, counted.
    const EncodedSentence z = d.encodeSource(u"我有一个好朋友𠀀"_s);
    QCOMPARE(z.unknown.size(), 1);
    QCOMPARE(z.ids[std::size_t(z.unknown.front())], Vocab::kUnk);
    // A tokeniser given with its model is used as it is, not trained again.
    DatasetOptions again;
    again.src_tok = d.srcTokenizer();
    again.tgt_tok = d.tgtTokenizer();
    const ParallelData same = ParallelData::build(train_.mid(0, 100), again, &error);
    QVERIFY(same.srcTokenizer() == d.srcTokenizer());
    QCOMPARE(same.tgtVocab().tokens(), d.tgtVocab().tokens());
}

void TestSubword::sharedModel()
{
    // One model, trained on every training pair's source then every target (core/SPEC.md
    // §10.1), byte for byte; both sides' tokeniser and vocabulary, its pieces.
    const ParallelData& d = sharedData();
    QVERIFY(d.srcTokenizer().ready());
    QVERIFY(d.srcTokenizer() == d.tgtTokenizer());
    QCOMPARE(d.srcTokenizer().model(), d.tgtTokenizer().model());
    QVERIFY(d.srcTokenizer().modelProto()
            == trainedTokenizer(u"bpe:8000"_s, side(train_, true) + side(train_, false)).modelProto());
    QCOMPARE(d.srcVocab().tokens(), d.srcTokenizer().pieces());
    QCOMPARE(d.tgtVocab().tokens(), d.srcVocab().tokens());
    QCOMPARE(d.srcVocab().size(), 8000);
    // Chinese and English pieces in the one vocabulary; each side's sentences cut by it.
    QVERIFY(d.srcVocab().contains(u"▁friend"_s));
    const EncodedSentence zh = d.encodeSource(u"我有一个好朋友。"_s);
    const EncodedSentence en = d.encodeTarget(u"I have a good friend."_s);
    QVERIFY(zh.unknown.empty() && en.unknown.empty());
    QCOMPARE(d.decodeSource(zh.ids), u"我有一个好朋友。"_s);
    QCOMPARE(d.decodeTarget(en.ids), u"I have a good friend."_s);
    // The same id means the same piece on both sides (what tie=all shares).
    const EncodedSentence mixed = d.encodeSource(u"I have a good friend."_s);
    QCOMPARE(mixed.ids, en.ids);
    qInfo("shared bpe:8000: %s", qPrintable(d.train().stats.summary()));

    // Given with its model on both sides (a resumed run's file), used as it is.
    DatasetOptions again;
    again.src_tok = again.tgt_tok = d.srcTokenizer();
    again.shared_vocab = true;
    QString error;
    const ParallelData same = ParallelData::build(train_.mid(0, 100), again, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY(same.srcTokenizer() == d.srcTokenizer() && same.tgtTokenizer() == d.srcTokenizer());
    QCOMPARE(same.tgtVocab().tokens(), d.srcVocab().tokens());

    // In a model file (core/SPEC.md §8.2): the same model under both keys, one again on load.
    const auto m = tinySubwordModel(d.srcVocab().size(), d.tgtVocab().size());
    const QString path = tmp_.filePath(u"shared.safetensors"_s);
    QVERIFY2(saveModel(path, *m, d.srcVocab(), d.tgtVocab(), d.srcTokenizer(), d.tgtTokenizer(),
                       &error),
             qPrintable(error));
    const std::optional<SafetensorsFile> file = SafetensorsFile::read(path, &error);
    QVERIFY2(file, qPrintable(error));
    QVERIFY(!file->metadata().value(u"src_sentencepiece"_s).isEmpty());
    QCOMPARE(file->metadata().value(u"src_sentencepiece"_s),
             file->metadata().value(u"tgt_sentencepiece"_s));
    const std::optional<ModelBundle> loaded = loadModel(path, &error);
    QVERIFY2(loaded, qPrintable(error));
    QVERIFY(loaded->srcTok == d.srcTokenizer() && loaded->tgtTok == d.srcTokenizer());
    QCOMPARE(loaded->srcVocab.tokens(), loaded->tgtVocab.tokens());

    // Mixed kinds or sizes, or a subword side beside another tokeniser: refused naming both,
    // before any model is trained.
    struct Mixed {
        std::optional<Tokenizer> src, tgt;
        QString src_name, tgt_name;
    };
    const std::optional<Tokenizer> none;
    for (const Mixed& m : {Mixed{tokenizerFromName(u"bpe:8000"_s), tokenizerFromName(u"unigram:8000"_s),
                                 u"bpe:8000"_s, u"unigram:8000"_s},
                           Mixed{tokenizerFromName(u"bpe:8000"_s), tokenizerFromName(u"bpe:4000"_s),
                                 u"bpe:8000"_s, u"bpe:4000"_s},
                           Mixed{none, tokenizerFromName(u"unigram:2000"_s), u"guessed"_s,
                                 u"unigram:2000"_s},
                           Mixed{tokenizerFromName(u"bpe:1000"_s), Tokenizer(TokenizerKind::Word),
                                 u"bpe:1000"_s, u"word"_s}}) {
        DatasetOptions o;
        o.src_tok = m.src;
        o.tgt_tok = m.tgt;
        o.shared_vocab = true;
        QElapsedTimer clock;
        clock.start();
        QString why;
        ParallelData::build(train_, o, &why);
        QVERIFY2(why.contains(u"source %1 and target %2"_s.arg(m.src_name, m.tgt_name)), qPrintable(why));
        QCOMPARE(why, sharedVocabularyProblem(m.src, m.tgt));
        QVERIFY2(clock.elapsed() < 1000, "refused before training");
    }
    QVERIFY(sharedVocabularyProblem(tokenizerFromName(u"unigram:300"_s),
                                    tokenizerFromName(u"UNIGRAM:300"_s)).isEmpty());
    QVERIFY(sharedVocabularyProblem(Tokenizer(TokenizerKind::CjkChar), none).isEmpty());
    // Two different models of the same name on the two sides are not one.
    DatasetOptions two;
    two.src_tok = trainedTokenizer(u"bpe:300"_s, side(train_.mid(0, 2000), false));
    two.tgt_tok = trainedTokenizer(u"bpe:300"_s, side(train_.mid(2000, 2000), false));
    two.shared_vocab = true;
    QString why;
    ParallelData::build(train_.mid(0, 100), two, &why);
    QVERIFY2(why.contains(u"models differ"_s), qPrintable(why));
}

// A size below what the text's characters need (bpe:1000 on the Chinese side, whose
// characters are some 3,400): the program's own words, with the smallest size that trains,
// and that size, trained, does train while one less does not (SentencePiece decides).
void TestSubword::tooSmallSaysTheSmallestSize()
{
    const QStringList chinese = side(train_, true);
    for (const QString& kind : {u"bpe"_s, u"unigram"_s}) {
        QString error;
        const std::optional<Tokenizer> small = tokenizerFromName(kind + u":1000"_s)->trained(chinese, &error);
        QVERIFY(!small);
        static const QRegularExpression said(u"^(\\w+):1000 is too small for this text: .* \\((\\d+) characters\\) and 4 "
                                             "special pieces, (\\d+) pieces at least; choose (\\w+):(\\d+) or more, or cjk-char$"_s);
        const QRegularExpressionMatch m = said.match(error);
        QVERIFY2(m.hasMatch(), qPrintable(error));
        QCOMPARE(m.captured(1), kind);
        QCOMPARE(m.captured(4), kind);
        QVERIFY2(!error.contains(u"character_coverage"_s) && !error.contains(u"trainer_interface"_s), qPrintable(error));
        const int smallest = m.captured(5).toInt();
        QCOMPARE(m.captured(3).toInt(), smallest);
        QCOMPARE(m.captured(2).toInt(), smallest - 4);
        QVERIFY2(smallest > 3000 && smallest < 4000, qPrintable(error));
        // The distinct characters of the text bound it from above: coverage keeps most of them.
        QSet<uint> distinct;
        for (const QString& s : chinese)
            for (const uint c : s.normalized(QString::NormalizationForm_KC).toUcs4())
                if (!QChar::isSpace(c))
                    distinct.insert(c);
        QVERIFY2(smallest - 4 <= distinct.size(), qPrintable(u"%1 > %2"_s.arg(smallest - 4).arg(distinct.size())));
        if (kind == u"bpe"_s) {  // one kind is enough for the two trainings (seconds each)
            QString none;
            QVERIFY2(tokenizerFromName(kind + u':' + QString::number(smallest))->trained(chinese, &none), qPrintable(none));
            QString below;
            QVERIFY(!tokenizerFromName(kind + u':' + QString::number(smallest - 1))->trained(chinese, &below));
            QVERIFY2(below.contains(u"choose bpe:%1 or more"_s.arg(smallest)), qPrintable(below));
        }
    }
}

AS_TEST_GUILESS_MAIN(TestSubword)
#include "test_subword.moc"
