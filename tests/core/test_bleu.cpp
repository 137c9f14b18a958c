// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "test_files.h"
#include "eval/bleu.h"
#include "skip.h"
#include "text/bundled_corpus.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace as;
using namespace Qt::StringLiterals;

namespace {

QString show(const QStringList& toks)
{
    return u'[' + toks.join(u"|"_s) + u']';
}

// Deterministic hypotheses that exercise every 13a rule and BLEU branch: exact copies, dropped
// and swapped words, case changes, empty lines, entities, hyphens, decimals and thousands.
QStringList perturb(const QStringList& refs)
{
    QStringList hyps;
    for (qsizetype i = 0; i < refs.size(); ++i) {
        QStringList w = refs[i].split(u' ', Qt::SkipEmptyParts);
        switch (i % 9) {
        case 0: break;
        case 1:
            for (qsizetype j = w.size() - 1; j >= 0; --j)
                if (j % 5 == 4) w.removeAt(j);
            break;
        case 2:
            for (qsizetype j = 0; j + 1 < w.size(); j += 3) w.swapItemsAt(j, j + 1);
            break;
        case 3: w = w.join(u' ').toLower().split(u' '); break;
        case 4: w << u"&amp;"_s << u"3.5"_s << u"-"_s << u"1,000"_s << u"&quot;ok&quot;"_s; break;
        case 5: w = (i % 18 == 5) ? QStringList{} : w.mid(0, 2); break;
        case 6: w.insert(w.size() / 2, u"well-known 2-3 x- ray <skipped> &lt;b&gt;"_s); break;
        case 7: std::reverse(w.begin(), w.end()); break;
        case 8: w << w; break; // longer than the reference
        }
        hyps << w.join(u' ');
    }
    return hyps;
}

// The project's Python reference, tests/reference/bleu.py (standard library only).
struct Python {
    QString exe, bleuPy;
    QString skipReason;
};

Python findPython()
{
    Python p;
    p.bleuPy = ::as::test::testFile("reference/bleu.py");
    p.exe = QStandardPaths::findExecutable(u"python3"_s);
    if (p.exe.isEmpty())
        p.skipReason = u"python3 not found on PATH: install Debian's python3 (apt-get install python3) "
                       "to check BLEU against tests/reference/bleu.py"_s;
    return p;
}

// The English side of the bundled zh-en corpus's test split (1,020 sentences).
QStringList bundledTestEnglish()
{
    QStringList refs;
    if (const auto corpus = loadBundledCorpus(u"zh-en"_s))
        for (const SentencePair& p : corpus->split.test) refs << p.tgt;
    return refs;
}

QByteArray run(const QString& exe, const QStringList& args, QString* error)
{
    QProcess proc;
    proc.start(exe, args);
    if (!proc.waitForFinished(120000) || proc.exitStatus() != QProcess::NormalExit || proc.exitCode() != 0) {
        *error = QString::fromUtf8(proc.readAllStandardError()) + proc.errorString();
        return {};
    }
    return proc.readAllStandardOutput();
}

// One case for tests/reference/bleu.py's "score" command.
QJsonObject bleuCase(const QStringList& hyps, const QList<QStringList>& refStreams)
{
    QJsonArray streams;
    for (const QStringList& s : refStreams) streams.append(QJsonArray::fromStringList(s));
    return QJsonObject{{u"hyps"_s, QJsonArray::fromStringList(hyps)}, {u"refs"_s, streams}};
}

// The reference's scores of the cases, or an empty array with *error set.
QJsonArray referenceScores(const Python& py, const QJsonArray& cases, QString* error)
{
    QTemporaryDir dir;
    QFile in(dir.filePath(u"cases.json"_s));
    if (!dir.isValid() || !in.open(QIODevice::WriteOnly)) {
        *error = u"cannot write a temporary file"_s;
        return {};
    }
    in.write(QJsonDocument(cases).toJson());
    in.close();
    const QByteArray out = run(py.exe, {py.bleuPy, u"score"_s, in.fileName()}, error);
    return error->isEmpty() ? QJsonDocument::fromJson(out).array() : QJsonArray{};
}

} // namespace

class TestBleu : public QObject {
    Q_OBJECT

private slots:
    void tokenize13a_data()
    {
        QTest::addColumn<QString>("line");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("punctuation") << u"Hello, world!"_s << QStringList{"Hello", ",", "world", "!"};
        QTest::newRow("numbers") << u"It costs $3.50, or 1,000 yen."_s
                                 << QStringList{"It", "costs", "$", "3.50", ",", "or", "1,000", "yen", "."};
        QTest::newRow("hyphens") << u"well-known 3-4"_s << QStringList{"well-known", "3", "-", "4"};
        QTest::newRow("entities") << u"&amp; &lt;b&gt; &quot;x&quot; &amp;lt;"_s
                                  << QStringList{"&", "<", "b", ">", "\"", "x", "\"", "<"};
        QTest::newRow("skipped") << u"foo<skipped>bar"_s << QStringList{"foobar"};
        QTest::newRow("line-break hyphen") << u"line-\nbreak a\nb"_s << QStringList{"linebreak", "a", "b"};
        QTest::newRow("dot between letters") << u"A.B"_s << QStringList{"A", ".", "B"};
        // The rule's ranges {-~ and [-` hold | ~ \ ^ _ ` too, and :-@ holds ; < = > ?.
        QTest::newRow("ranges") << u"x{y|z}~[w\\v]^_`a;b=c?d@e/f"_s
                                << QStringList{"x", "{", "y", "|", "z", "}", "~", "[", "w", "\\", "v", "]", "^",
                                               "_", "`", "a", ";", "b", "=", "c", "?", "d", "@", "e", "/", "f"};
        QTest::newRow("apostrophe kept") << u"don't"_s << QStringList{"don't"};
        QTest::newRow("unicode spaces") << u"a\u3000b\u00a0c\u001fd"_s << QStringList{"a", "b", "c", "d"};
        QTest::newRow("empty") << QString() << QStringList{};
    }

    void tokenize13a()
    {
        QFETCH(QString, line);
        QFETCH(QStringList, expected);
        const QStringList got = as::tokenize13a(line);
        QVERIFY2(got == expected, qPrintable(show(got) + u" != "_s + show(expected)));
    }

    void handComputed()
    {
        const auto bleu = [](const QString& h, const QString& r) { return corpusBleu({h}, {r}); };
        QCOMPARE(bleu(u"the cat sat on the mat ."_s, u"the cat sat on the mat ."_s).score, 100.0);
        QCOMPARE(corpusBleu({u""_s, u""_s}, {u"a b c d"_s, u"e f"_s}).score, 0.0);
        QCOMPARE(corpusBleu({}, {}).score, 0.0);

        // Precisions 5/6, 3/5, 2/4, 1/3, equal lengths: 100 * (1/12)^(1/4) = 53.728...
        BleuResult r = bleu(u"the cat sat on the mat"_s, u"the cat sat on a mat"_s);
        QCOMPARE(r.score, 53.73);
        QVERIFY(qAbs(r.score_unrounded - 100.0 * std::pow(1.0 / 12.0, 0.25)) < 1e-9);
        QCOMPARE(r.hyp_len, 6);
        QCOMPARE(r.bp, 1.0);

        // No 4-gram matches: 'exp' smoothing makes it 1/(2*2): 100 * (0.8*0.5*(1/3)*0.25)^(1/4)
        r = bleu(u"a b c d e"_s, u"a b c x e"_s);
        QCOMPARE(r.precisions[3], 25.0);
        QCOMPARE(r.score, 42.73);

        // All precisions 100, hyp 4 tokens for 6: BP = exp(1 - 6/4) = 0.6065...
        r = bleu(u"a b c d"_s, u"a b c d e f"_s);
        QVERIFY(qAbs(r.bp - std::exp(-0.5)) < 1e-12);
        QCOMPARE(r.score, 60.65);

        // Fewer than 4 tokens in the whole corpus: no 4-grams, sacreBLEU scores 0.
        QCOMPARE(bleu(u"a b"_s, u"a b"_s).score, 0.0);
        // Case-sensitive.
        QVERIFY(bleu(u"The cat sat on the mat"_s, u"the cat sat on the mat"_s).score < 100.0);
    }

    // Published expected scores from sacreBLEU's own tests, for both the Python reference and
    // corpusBleu (which takes one reference per hypothesis, so multi-reference cases run on the
    // reference alone). Sources, in github.com/mjpost/sacrebleu:
    //   [T] test/test_bleu.py (commit 785d26bb42ff5cc738c8aa06efb288cf407fc4fd):
    //       test_corpus_bleu_cases, test_raw_bleu_cases, test_case_statistics
    //   [S] test/test_sentence_bleu.py (commit ad62c9b5a4c1381598c0774c8ea1dc3597638ac0):
    //       test_cases ('exp', None, False, '13a') and test_cases_zero_bleu (#141)
    // A sentence BLEU equals the corpus BLEU of that one sentence when the hypothesis has
    // n-grams of every order (sacreBLEU's effective order then changes nothing), as in [S].
    void sacreBleuPublishedCases_data()
    {
        QTest::addColumn<QStringList>("hyps");
        QTest::addColumn<QList<QStringList>>("refs");
        QTest::addColumn<double>("expected");
        QTest::addColumn<double>("tolerance");
        const QStringList readmeRefs1{u"The dog bit the man."_s, u"It was not unexpected."_s,
                                      u"The man bit him first."_s};
        const QStringList readmeRefs2{u"The dog had bit the man."_s, u"No one was surprised."_s,
                                      u"The man had bitten the dog."_s};
        const QStringList readmeHyps{u"The dog bit the man."_s, u"It wasn't surprising."_s,
                                     u"The man had just bitten him."_s};
        // [T] test_corpus_bleu_cases: default settings, two reference streams; EPSILON 1e-8.
        QTest::newRow("[T] README example, 2 references") << readmeHyps << QList<QStringList>{readmeRefs1, readmeRefs2}
                                                          << 48.530827 << 1e-6;
        // [T] test_corpus_bleu_cases: "ensure that empty hypotheses are not removed".
        QTest::newRow("[T] empty hypotheses") << QStringList{u""_s, u""_s, u""_s}
                                              << QList<QStringList>{readmeRefs1, readmeRefs2} << 0.0 << 1e-8;
        QTest::newRow("[T] empty hypotheses, 1 reference") << QStringList{u""_s, u""_s, u""_s}
                                                           << QList<QStringList>{readmeRefs1} << 0.0 << 1e-8;
        // [T] test_raw_bleu_cases: an exact match scores 100 under any tokeniser or smoothing;
        // no match at all scores 0 ("This now returns 0.0 score (#141)").
        QTest::newRow("[T] exact match") << QStringList{u"this is a test"_s}
                                         << QList<QStringList>{QStringList{u"this is a test"_s}} << 100.0 << 1e-8;
        QTest::newRow("[T] nothing matches (#141)") << QStringList{u"this is a test"_s, u"another test"_s}
                                                    << QList<QStringList>{QStringList{u"ref1"_s, u"ref2"_s}} << 0.0 << 1e-8;
        // [S] REF / SYS ("Example taken from #98"), 'exp', 13a: 8.493 with EPSILON 1e-3.
        QTest::newRow("[S] #98, exp smoothing")
            << QStringList{u"Producția de zahăr primă va fi exprimată în ceea ce privește zahărul alb;"_s}
            << QList<QStringList>{QStringList{u"producţia de zahăr brut se exprimă în zahăr alb;"_s}} << 8.493 << 1e-3;
        // [S] REF_0 / SYS_0 ("Example taken from #141"): no n-gram matches, so 0, not a smoothed
        // score.
        QTest::newRow("[S] #141, no match") << QStringList{u"this is a cat"_s}
                                            << QList<QStringList>{QStringList{u"okay thanks"_s}} << 0.0 << 1e-3;
        // [T] test_case_statistics: counts [4, 2, 1, 0] of totals [6, 5, 4, 3], 6 tokens for 8;
        // with 'exp' smoothing the 4-gram precision is 1/(2*3):
        // BLEU = exp(1 - 8/6) * 100 * (4/6 * 2/5 * 1/4 * 1/6)^(1/4).
        QTest::newRow("[T] statistics") << QStringList{u"am I am a character sequence"_s}
                                        << QList<QStringList>{QStringList{u"I am a symbol string sequence a a"_s}}
                                        << std::exp(1.0 - 8.0 / 6.0) * 100.0
                                               * std::pow(4.0 / 6 * 2.0 / 5 * 1.0 / 4 * 1.0 / 6, 0.25)
                                        << 1e-9;
    }

    void sacreBleuPublishedCases()
    {
        QFETCH(QStringList, hyps);
        QFETCH(QList<QStringList>, refs);
        QFETCH(double, expected);
        QFETCH(double, tolerance);
        if (refs.size() == 1) {
            const BleuResult ours = corpusBleu(hyps, refs.first());
            QVERIFY2(qAbs(ours.score_unrounded - expected) <= tolerance,
                     qPrintable(u"corpusBleu %1, sacreBLEU's test expects %2"_s.arg(ours.score_unrounded, 0, 'g', 12)
                                    .arg(expected, 0, 'g', 12)));
        }
        const Python py = findPython();
        if (!py.skipReason.isEmpty()) AS_SKIP(py.skipReason);
        QVERIFY2(!py.bleuPy.isEmpty(), "tests/reference/bleu.py not found beside this test");
        QString error;
        const QJsonArray got = referenceScores(py, {bleuCase(hyps, refs)}, &error);
        QVERIFY2(error.isEmpty() && got.size() == 1, qPrintable(error));
        const double score = got.at(0)[u"score"_s].toDouble(-1);
        QVERIFY2(qAbs(score - expected) <= tolerance,
                 qPrintable(u"tests/reference/bleu.py %1, sacreBLEU's test expects %2"_s.arg(score, 0, 'g', 12)
                                .arg(expected, 0, 'g', 12)));
    }

    // The n-gram statistics of [T] test_case_statistics, as corpusBleu reports them.
    void sacreBleuPublishedStatistics()
    {
        const BleuResult r = corpusBleu({u"am I am a character sequence"_s}, {u"I am a symbol string sequence a a"_s});
        QCOMPARE(r.hyp_len, 6);
        QCOMPARE(r.ref_len, 8);
        QCOMPARE(r.precisions[0], 100.0 * 4 / 6);
        QCOMPARE(r.precisions[1], 100.0 * 2 / 5);
        QCOMPARE(r.precisions[2], 100.0 * 1 / 4);
        QCOMPARE(r.precisions[3], 100.0 / (2 * 3)); // 'exp': no 4-gram matches, 1/2 of a match
        QCOMPARE(r.bp, std::exp(1.0 - 8.0 / 6.0));
    }

    // Agreement with tests/reference/bleu.py on the English of the bundled corpus's test split,
    // and variants of it that take every branch: rounded to 2 decimals and unrounded.
    void agreesWithReference()
    {
        const Python py = findPython();
        if (!py.skipReason.isEmpty()) AS_SKIP(py.skipReason);
        QVERIFY2(!py.bleuPy.isEmpty(), "tests/reference/bleu.py not found beside this test");
        const QStringList refs = bundledTestEnglish();
        QCOMPARE(refs.size(), 1020);

        struct Variant {
            QString name;
            QStringList hyps, refs;
        };
        QStringList lowercase, shifted = refs.mid(1), reversed;
        for (const QString& r : refs) lowercase << r.toLower();
        shifted << refs.first();
        QStringList longRefs; // reversed, they match unigrams but no 4-gram: the smoothing path
        for (const QString& r : refs)
            if (r.count(u' ') >= 7 && longRefs.size() < 3) longRefs << r;
        for (const QString& r : longRefs) {
            QStringList w = r.split(u' ');
            std::reverse(w.begin(), w.end());
            reversed << w.join(u' ');
        }
        QCOMPARE(longRefs.size(), 3);
        const QList<Variant> variants{
            {u"perturbed"_s, perturb(refs), refs},
            {u"identical"_s, refs, refs},
            {u"lowercased"_s, lowercase, refs},
            {u"shifted by one line"_s, shifted, refs},
            {u"3 lines reversed"_s, reversed, longRefs},
            {u"all empty"_s, QStringList(refs.size(), QString()), refs},
            {u"nothing matches"_s, QStringList(refs.size(), u"xyzzy plugh frobozz zorkmid"_s), refs},
        };
        QJsonArray cases;
        for (const auto& v : variants) cases.append(bleuCase(v.hyps, {v.refs}));
        QString error;
        const QJsonArray scores = referenceScores(py, cases, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(scores.size(), variants.size());

        for (qsizetype i = 0; i < variants.size(); ++i) {
            const auto& [name, hyps, vrefs] = variants[i];
            const QJsonObject ref = scores.at(i).toObject();
            const double pyScore = ref[u"score_2dp"_s].toDouble(-1), pyExact = ref[u"score"_s].toDouble(-1);
            const BleuResult ours = corpusBleu(hyps, vrefs);
            qInfo("%-20s reference %.2f (%.12f)  ours %.2f (%.12f)", qPrintable(name), pyScore, pyExact,
                  ours.score, ours.score_unrounded);
            QCOMPARE(ours.hyp_len, ref[u"sys_len"_s].toInteger(-1));
            QCOMPARE(ours.ref_len, ref[u"ref_len"_s].toInteger(-1));
            QVERIFY2(ours.score == pyScore,
                     qPrintable(u"%1: ours %2, reference %3"_s.arg(name).arg(ours.score).arg(pyScore)));
            if (name == u"3 lines reversed"_s) QVERIFY2(ours.score > 0 && ours.precisions[3] < 10, "not smoothed");
            QVERIFY2(qAbs(ours.score_unrounded - pyExact) <= 1e-9 * qMax(1.0, pyExact),
                     qPrintable(u"%1: unrounded ours %2, reference %3"_s.arg(name).arg(ours.score_unrounded, 0, 'g', 17)
                                    .arg(pyExact, 0, 'g', 17)));
        }
    }

    // Token for token against the reference's tokenize_13a on edge cases and the perturbed
    // English of the bundled test split.
    void tokenize13aAgreesWithReference()
    {
        const Python py = findPython();
        if (!py.skipReason.isEmpty()) AS_SKIP(py.skipReason);
        QVERIFY2(!py.bleuPy.isEmpty(), "tests/reference/bleu.py not found beside this test");
        QStringList lines{u"a.b,c 1.5 1,5 .5 5. ,x x, -1 1- a-b 1-2-3"_s, u"&amp;amp; &Amp; & &gt"_s,
                          u"{|}~[\\]^_`!\"#$%&()*+:;<=>?@/ '"_s, u"\u00e9t\u00e9. 2\u00b3. \u3000x\u2028y"_s,
                          u"<skipped><skipped>x"_s, u"x-\nray a\nb\n"_s, u"..."_s, u"1..2,,3"_s, u"😀.😀"_s};
        const QStringList refs = bundledTestEnglish();
        QCOMPARE(refs.size(), 1020);
        lines << perturb(refs);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QJsonArray json; // JSON keeps the "-\n" and "\n" cases intact on the way to Python
        for (const QString& l : lines) json.append(l);
        QFile in(dir.filePath(u"in.json"_s));
        QVERIFY(in.open(QIODevice::WriteOnly));
        in.write(QJsonDocument(json).toJson());
        in.close();
        QString error;
        const QByteArray out = run(py.exe, {py.bleuPy, u"tokenize"_s, in.fileName()}, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QJsonArray expected = QJsonDocument::fromJson(out).array();
        QCOMPARE(expected.size(), lines.size());
        for (qsizetype i = 0; i < lines.size(); ++i) {
            const QStringList want = expected.at(i).toVariant().toStringList();
            const QStringList got = as::tokenize13a(lines[i]);
            QVERIFY2(got == want, qPrintable(u"line %1 \"%2\": %3 but the reference %4"_s.arg(i).arg(lines[i], show(got), show(want))));
        }
    }
};

AS_TEST_GUILESS_MAIN(TestBleu)
#include "test_bleu.moc"
