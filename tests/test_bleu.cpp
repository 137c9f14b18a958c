#include "eval/bleu.h"

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

bool writeLines(const QString& path, const QStringList& lines)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return false;
    QByteArray out;
    for (const QString& l : lines) out += l.toUtf8() + '\n';
    return f.write(out) == out.size();
}

struct Python {
    QString exe, bleuPy;
    QString skipReason;
};

Python findPython()
{
    Python p;
    p.bleuPy = QStringLiteral(AS_SHARED_REFERENCE "/bleu.py");
    p.exe = QStandardPaths::findExecutable(u"python3"_s);
    if (!QFile::exists(p.bleuPy)) p.skipReason = u"reference absent: " AS_SHARED_REFERENCE "/bleu.py"_s;
    else if (p.exe.isEmpty()) p.skipReason = u"python3 not found on PATH"_s;
    return p;
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

        // Fewer than 4 tokens in the whole corpus: no 4-grams, bleu.py returns 0.
        QCOMPARE(bleu(u"a b"_s, u"a b"_s).score, 0.0);
        // Case-sensitive.
        QVERIFY(bleu(u"The cat sat on the mat"_s, u"the cat sat on the mat"_s).score < 100.0);
    }

    // Agreement with /work/shared/reference/bleu.py on zh-en/test.tsv's English column.
    void agreesWithBleuPy()
    {
        const Python py = findPython();
        if (!py.skipReason.isEmpty()) QSKIP(qPrintable(py.skipReason));
        QFile tsv(QStringLiteral(AS_SHARED_DATA "/zh-en/test.tsv"));
        if (!tsv.open(QIODevice::ReadOnly)) QSKIP("shared data absent: " AS_SHARED_DATA "/zh-en/test.tsv");
        QStringList refs;
        for (const QByteArray& line : tsv.readAll().split('\n')) {
            const QStringList cols = QString::fromUtf8(line).split(u'\t');
            if (cols.size() >= 2) refs << cols[1];
        }
        QCOMPARE(refs.size(), 1009);

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
        const QList<Variant> variants{
            {u"perturbed"_s, perturb(refs), refs},
            {u"identical"_s, refs, refs},
            {u"lowercased"_s, lowercase, refs},
            {u"shifted by one line"_s, shifted, refs},
            {u"3 lines reversed"_s, reversed, longRefs},
            {u"all empty"_s, QStringList(refs.size(), QString()), refs},
        };

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString refPath = dir.filePath(u"ref.tsv"_s), hypPath = dir.filePath(u"hyp.txt"_s);
        const QString unroundedScript = u"import sys; sys.path.insert(0, sys.argv[1]); import bleu\n"
                                        "bleu.round = lambda x, n=None: x  # module global shadows the builtin\n"
                                        "h = [l.rstrip('\\n') for l in open(sys.argv[2], encoding='utf-8')]\n"
                                        "r = [l.rstrip('\\n').split('\\t')[1] for l in open(sys.argv[3], encoding='utf-8')]\n"
                                        "print(repr(bleu.corpus_bleu(h, r)))\n"_s;
        for (const auto& [name, hyps, vrefs] : variants) {
            QStringList refTsv;
            for (const QString& r : vrefs) refTsv << u"src\t"_s + r;
            QVERIFY(writeLines(refPath, refTsv));
            QVERIFY(writeLines(hypPath, hyps));
            QString error;
            const QByteArray rounded = run(py.exe, {py.bleuPy, hypPath, refPath}, &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            const QByteArray exact = run(py.exe, {u"-c"_s, unroundedScript, QStringLiteral(AS_SHARED_REFERENCE),
                                                  hypPath, refPath}, &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));

            const BleuResult ours = corpusBleu(hyps, vrefs);
            const double pyScore = rounded.trimmed().toDouble(), pyExact = exact.trimmed().toDouble();
            qInfo("%-20s bleu.py %.2f (%.12f)  ours %.2f (%.12f)", qPrintable(name), pyScore, pyExact,
                  ours.score, ours.score_unrounded);
            QVERIFY2(qAbs(ours.score - pyScore) <= 0.01 + 1e-9,
                     qPrintable(u"%1: ours %2, bleu.py %3"_s.arg(name).arg(ours.score).arg(pyScore)));
            if (name == u"3 lines reversed"_s) QVERIFY2(ours.score > 0 && ours.precisions[3] < 10, "not smoothed");
            QVERIFY2(qAbs(ours.score_unrounded - pyExact) <= 1e-9 * qMax(1.0, pyExact),
                     qPrintable(u"%1: unrounded ours %2, bleu.py %3"_s.arg(name).arg(ours.score_unrounded, 0, 'g', 17)
                                    .arg(pyExact, 0, 'g', 17)));
        }
    }

    // Token for token against bleu.py's tokenize_13a on the perturbed lines and edge cases.
    void tokenize13aAgreesWithBleuPy()
    {
        const Python py = findPython();
        if (!py.skipReason.isEmpty()) QSKIP(qPrintable(py.skipReason));
        QStringList lines{u"a.b,c 1.5 1,5 .5 5. ,x x, -1 1- a-b 1-2-3"_s, u"&amp;amp; &Amp; & &gt"_s,
                          u"{|}~[\\]^_`!\"#$%&()*+:;<=>?@/ '"_s, u"\u00e9t\u00e9. 2\u00b3. \u3000x\u2028y"_s,
                          u"<skipped><skipped>x"_s, u"x-\nray a\nb\n"_s, u"..."_s, u"1..2,,3"_s, u"😀.😀"_s};
        QFile tsv(QStringLiteral(AS_SHARED_DATA "/zh-en/test.tsv"));
        if (tsv.open(QIODevice::ReadOnly)) {
            QStringList refs;
            for (const QByteArray& line : tsv.readAll().split('\n'))
                if (line.contains('\t')) refs << QString::fromUtf8(line).section(u'\t', 1, 1);
            lines << perturb(refs);
        }
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QJsonArray json; // JSON keeps the "-\n" and "\n" cases intact on the way to Python
        for (const QString& l : lines) json.append(l);
        QFile in(dir.filePath(u"in.json"_s));
        QVERIFY(in.open(QIODevice::WriteOnly));
        in.write(QJsonDocument(json).toJson());
        in.close();
        QString error;
        const QByteArray out = run(py.exe, {u"-c"_s,
            u"import sys, json; sys.path.insert(0, sys.argv[1]); import bleu\n"
            "print(json.dumps([bleu.tokenize_13a(l) for l in json.load(open(sys.argv[2], encoding='utf-8'))]))\n"_s,
            QStringLiteral(AS_SHARED_REFERENCE), in.fileName()}, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QJsonArray expected = QJsonDocument::fromJson(out).array();
        QCOMPARE(expected.size(), lines.size());
        for (qsizetype i = 0; i < lines.size(); ++i) {
            const QStringList want = expected.at(i).toVariant().toStringList();
            const QStringList got = as::tokenize13a(lines[i]);
            QVERIFY2(got == want, qPrintable(u"line %1 \"%2\": %3 but bleu.py %4"_s.arg(i).arg(lines[i], show(got), show(want))));
        }
    }
};

QTEST_GUILESS_MAIN(TestBleu)
#include "test_bleu.moc"
