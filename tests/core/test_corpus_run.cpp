// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// A user's corpus as a run takes it (train/corpus_run.h): the arguments a checkpoint records
// read back to the same run, bad records refused, the build's report against counts made here,
// progress and cancel, the held-out split independent of the run's seed, a changed corpus
// told apart from the recorded one, and A/B's B cutting a side again from the text the corpus
// kept (makeSessionData), which is the run its record names.
#include "skip.h"
#include "run/make_session.h"
#include "train/corpus_run.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace as;
using namespace Qt::StringLiterals;

class TestCorpusRun : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void argsReadBack();
    void badRecordsRefused_data();
    void badRecordsRefused();
    void reportCountsWhatWasLeftOut();
    void progressRisesAndCancelStops();
    void heldOutPairsDoNotDependOnTheSeed();
    void changedCorpusIsToldApart();
    void corpusCutAgainIsTheRunItRecords();

private:
    QString write(const QString& name, const QByteArray& bytes);
    QTemporaryDir dir_;
    QString corpus_;
};

QString TestCorpusRun::write(const QString& name, const QByteArray& bytes)
{
    const QString path = dir_.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

void TestCorpusRun::initTestCase()
{
    QVERIFY(dir_.isValid());
    // 300 pairs "w<i> x<i mod 7>" -> "v<i> y<i mod 5>", a line without TAB at line 5 and an
    // empty target at line 9 (files count lines from 1; the pairs shift by one after each).
    QByteArray bytes;
    int line = 0;
    for (int i = 0; i < 300; ++i) {
        ++line;
        if (line == 5) {
            bytes += "no tab on this line\n";
            ++line;
        }
        if (line == 9) {
            bytes += "source only\t \n";
            ++line;
        }
        bytes += QStringLiteral("w%1 x%2\tv%1 y%3\n").arg(i).arg(i % 7).arg(i % 5).toUtf8();
    }
    corpus_ = write(u"run.tsv"_s, bytes);
}

void TestCorpusRun::argsReadBack()
{
    CorpusRun run;
    run.source.train = corpus_;
    run.source.valid = dir_.filePath(u"valid.tsv"_s);
    run.source.ankiToEnglish = false;
    run.source.strict = true;
    run.source.dataset.src_tok = TokenizerKind::CjkChar;
    run.source.dataset.tgt_min_freq = 3;
    run.source.dataset.src_max_vocab = 5000;
    run.recipe.model.d_model = 64;
    run.recipe.model.heads = 4;
    run.recipe.model.norm = NormPlacement::Post;
    run.recipe.model.dropout = 0.3;
    run.recipe.train.seed = 12345678901ULL;
    run.recipe.train.warmup = 77;
    run.recipe.train.factor = 0.7;
    run.recipe.train.clipNorm = 1.5;
    run.recipe.batchTokens = 999;
    run.recipe.evalEvery = 33;
    run.recipe.averagePoints = 4;
    const QJsonArray args = run.args();
    // The command line's own spelling.
    QVERIFY(args.contains(u"--data"_s) && args.contains(u"--strict"_s));
    QVERIFY(args.contains(u"from-english"_s));
    QVERIFY(args.contains(u"cjk-char"_s));
    QString error;
    const std::optional<CorpusRun> back = CorpusRun::fromArgs(args, &error);
    QVERIFY2(back, qPrintable(error));
    QCOMPARE(back->source.train, corpus_);
    QCOMPARE(back->source.valid, run.source.valid);
    QCOMPARE(back->source.ankiToEnglish, false);
    QCOMPARE(back->source.strict, true);
    QVERIFY(back->source.dataset.src_tok == TokenizerKind::CjkChar);
    QVERIFY(!back->source.dataset.tgt_tok);
    QCOMPARE(back->source.dataset.tgt_min_freq, 3);
    QCOMPARE(back->source.dataset.src_max_vocab, 5000);
    QVERIFY(back->recipe.model == run.recipe.model);
    QCOMPARE(back->recipe.train.seed, run.recipe.train.seed);
    QCOMPARE(back->recipe.train.warmup, 77L);
    QCOMPARE(back->recipe.train.factor, 0.7);
    QCOMPARE(back->recipe.train.clipNorm, 1.5);
    QCOMPARE(back->recipe.batchTokens, 999);
    QCOMPARE(back->recipe.evalEvery, 33);
    QCOMPARE(back->recipe.averagePoints, 4);
    // And again: a fixed point.
    QCOMPARE(back->args(), args);
}

void TestCorpusRun::badRecordsRefused_data()
{
    QTest::addColumn<QJsonArray>("args");
    QTest::addColumn<QString>("why");
    QTest::newRow("unknown option") << QJsonArray{"--data", "a.tsv", "--steps", "5"} << u"--steps"_s;
    QTest::newRow("no value") << QJsonArray{"--data", "a.tsv", "--seed"} << u"no value"_s;
    QTest::newRow("no data") << QJsonArray{"--seed", "3"} << u"no training file"_s;
    QTest::newRow("warmup 0") << QJsonArray{"--data", "a.tsv", "--warmup", "0"} << u"--warmup"_s;
    QTest::newRow("bad config") << QJsonArray{"--data", "a.tsv", "--config", "huge"} << u"huge"_s;
    QTest::newRow("bad tokenizer") << QJsonArray{"--data", "a.tsv", "--src-tok", "bpe"} << u"cjk-char or word"_s;
    QTest::newRow("bad min-freq") << QJsonArray{"--data", "a.tsv", "--min-freq", "2"} << u"source,target"_s;
    QTest::newRow("not a string") << QJsonArray{"--data", 5} << u"no value"_s;
}

void TestCorpusRun::badRecordsRefused()
{
    QFETCH(QJsonArray, args);
    QFETCH(QString, why);
    QString error;
    QVERIFY(!CorpusRun::fromArgs(args, &error));
    QVERIFY2(error.contains(why), qPrintable(error));
}

void TestCorpusRun::reportCountsWhatWasLeftOut()
{
    CorpusRun run;
    run.source.train = corpus_;
    const CorpusBuild b = buildCorpus(run);
    QVERIFY2(b.data, qPrintable(b.error));
    QCOMPARE(b.report.trainRead.lines_read, 302);
    QCOMPARE(b.report.trainRead.pairs_kept, 300);
    // 2 % held out (pairs share no sentence here): 6, the rest trained on.
    QCOMPARE(b.data->validation().size(), std::size_t(6));
    QCOMPARE(b.report.trainStats.pairs, 294);
    // Vocabularies: every source word (w0…w299 minus the held-out ones, x0…x6) and the target
    // words seen twice (y0…y4 only; each v<i> once), plus the four specials.
    QCOMPARE(b.report.tgtVocab, 4 + 5);
    QCOMPARE(b.report.srcVocab, 4 + 294 + 7);
    const QStringList problems = b.report.problems();
    QCOMPARE(problems.size(), 2);
    QVERIFY2(problems[0].endsWith(u"run.tsv:5: no TAB between source and target: \"no tab on this line\""_s),
             qPrintable(problems[0]));
    QVERIFY2(problems[1].endsWith(u"run.tsv:9: empty target"_s), qPrintable(problems[1]));
    // The record a checkpoint keeps names the data by its pairs.
    const QJsonObject record = b.data->record();
    QCOMPARE(record.value("kind").toString(), u"corpus"_s);
    QCOMPARE(record.value("pairs").toDouble(), 294.0);
    QCOMPARE(record.value("args").toArray(), run.args());
    // More problems than shown: the last line says how many more.
    QByteArray bad;
    for (int i = 0; i < 30; ++i)
        bad += "x\ny\tz\n";
    run.source.train = write(u"bad.tsv"_s, bad);
    const CorpusBuild many = buildCorpus(run);
    const QStringList shown = many.report.problems(20);
    QCOMPARE(shown.size(), 21);
    QCOMPARE(shown.last(), u"… and 10 more"_s);
}

void TestCorpusRun::progressRisesAndCancelStops()
{
    // A file of 20,000 lines, so that the reader reports within the file too.
    QByteArray bytes;
    for (int i = 0; i < 20000; ++i)
        bytes += QStringLiteral("a%1 b\tc%1 d\n").arg(i % 900).toUtf8();
    CorpusRun run;
    run.source.train = write(u"big.tsv"_s, bytes);
    std::vector<int> seen;
    const CorpusBuild b = buildCorpus(run, [&](int done, int total) {
        seen.push_back(int(1000.0 * done / total));
        return true;
    });
    QVERIFY2(b.data, qPrintable(b.error));
    QVERIFY(seen.size() >= 5);  // within the file (every 4096 lines) and between the phases
    QVERIFY(std::is_sorted(seen.begin(), seen.end()));
    QCOMPARE(seen.back(), 1000);
    QVERIFY(seen.front() < 450);
    // Cancelled while reading, and between the phases.
    for (int stopAt : {1, 5}) {
        int calls = 0;
        const CorpusBuild c = buildCorpus(run, [&](int, int) { return ++calls < stopAt; });
        QVERIFY(!c.data);
        QVERIFY(c.cancelled);
        QCOMPARE(calls, stopAt);
    }
}

void TestCorpusRun::heldOutPairsDoNotDependOnTheSeed()
{
    CorpusRun a, b;
    a.source.train = b.source.train = corpus_;
    a.recipe.train.seed = 1;
    b.recipe.train.seed = 99;
    const CorpusBuild x = buildCorpus(a), y = buildCorpus(b);
    QVERIFY(x.data && y.data);
    QCOMPARE(x.data->validationText().size(), y.data->validationText().size());
    for (qsizetype i = 0; i < x.data->validationText().size(); ++i)
        QCOMPARE(x.data->validationText()[i].line, y.data->validationText()[i].line);
    QCOMPARE(x.data->record().value("pairs_sha1"), y.data->record().value("pairs_sha1"));
    // But the record differs in the seed, which shapes the batches.
    QVERIFY(x.data->record().value("args") != y.data->record().value("args"));
}

void TestCorpusRun::changedCorpusIsToldApart()
{
    CorpusRun run;
    run.source.train = corpus_;
    const CorpusBuild b = buildCorpus(run);
    QVERIFY(b.data);
    const QJsonObject recorded = b.data->record();
    QVERIFY(checkSameData(*b.data, b.data->srcVocab(), b.data->tgtVocab(), recorded).isEmpty());
    // One source word renamed wherever it occurs.
    QFile f(corpus_);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QByteArray bytes = f.readAll();
    bytes.replace(" x3\t", " x9\t");
    run.source.train = write(u"changed.tsv"_s, bytes);
    const CorpusBuild c = buildCorpus(run);
    QVERIFY(c.data);
    const QString why = checkSameData(*c.data, b.data->srcVocab(), b.data->tgtVocab(), recorded);
    QVERIFY2(why.contains(u"vocabularies"_s) || why.contains(u"training pairs"_s), qPrintable(why));
    // A changed vocabulary is told as such.
    const Vocab other = Vocab::build(std::vector<QStringList>{QStringList{u"zzz"_s}}, 1, 0);
    QVERIFY(checkSameData(*b.data, other, b.data->tgtVocab(), recorded).contains(u"vocabularies"_s));
}

void TestCorpusRun::corpusCutAgainIsTheRunItRecords()
{
    QFile f(corpus_);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    CorpusRun run;
    run.source.train = write(u"cut.tsv"_s, bytes);
    CorpusBuild a = buildCorpus(run);
    QVERIFY2(a.data, qPrintable(a.error));
    SessionSettings s = SessionSettings::defaultsFor(a.data->name());
    s.corpus = std::shared_ptr<const SessionData>(std::move(a.data));
    s.source = run.source;
    s.srcTok = Tokenizer(TokenizerKind::Bpe, 100);
    // B: the source side cut by bpe:100 from the text the corpus kept (the file is gone).
    QVERIFY(QFile::remove(run.source.train));
    QString error;
    const std::unique_ptr<SessionData> b = makeSessionData(s, &error);
    QVERIFY2(b, qPrintable(error));
    QCOMPARE(b->name(), s.corpus->name());
    QCOMPARE(tokenizerName(b->srcTokenizer()), u"bpe:100"_s);
    QVERIFY(b->srcVocab().size() <= 100);
    QVERIFY(b->tgtTokenizer() == s.corpus->tgtTokenizer());
    QCOMPARE(b->tgtVocab().tokens(), s.corpus->tgtVocab().tokens());
    QCOMPARE(b->trainingText().size(), s.corpus->trainingText().size());
    QCOMPARE(b->validationText().size(), s.corpus->validationText().size());
    for (qsizetype i = 0; i < b->validationText().size(); ++i)
        QCOMPARE(b->validationText()[i].line, s.corpus->validationText()[i].line);
    QCOMPARE(b->trainingPairs()->size(), s.corpus->trainingPairs()->size());
    // The file read again with the options B's record names gives B's data: a checkpoint of B
    // is continued on the same pairs.
    write(u"cut.tsv"_s, bytes);
    std::optional<CorpusRun> recorded = CorpusRun::fromArgs(b->record().value("args").toArray(), &error);
    QVERIFY2(recorded, qPrintable(error));
    QCOMPARE(tokenizerName(*recorded->source.dataset.src_tok), u"bpe:100"_s);
    const CorpusBuild c = buildCorpus(*recorded);
    QVERIFY2(c.data, qPrintable(c.error));
    QVERIFY2(checkSameData(*c.data, b->srcVocab(), b->tgtVocab(), b->record()).isEmpty(),
             qPrintable(checkSameData(*c.data, b->srcVocab(), b->tgtVocab(), b->record())));
    // Without a tokeniser named, the corpus as it was cut (restarted, not built again).
    s.srcTok.reset();
    const std::unique_ptr<SessionData> same = makeSessionData(s, &error);
    QVERIFY(same);
    QCOMPARE(same->srcVocab().tokens(), s.corpus->srcVocab().tokens());
    QCOMPARE(same->trainingPairs(), s.corpus->trainingPairs());
}

AS_TEST_GUILESS_MAIN(TestCorpusRun)
#include "test_corpus_run.moc"
