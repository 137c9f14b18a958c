// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "test_files.h"
#include "skip.h"
#include "text/corpus.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>

using namespace as;
using namespace Qt::StringLiterals;

namespace {

// tests/data: excerpts of the Tatoeba download the program ships (tests/data/README.md).
QString fixture(const QString& name)
{
    return ::as::test::testFile(u"data/"_s + name);
}

QString issuesText(const CorpusReport& r)
{
    QStringList out{r.summary()};
    for (const CorpusIssue& i : r.first_issues) out << u"%1:%2: %3"_s.arg(i.file).arg(i.line).arg(i.what);
    return out.join(u"\n  "_s);
}

QList<int> issueLines(const CorpusReport& r)
{
    QList<int> lines;
    for (const CorpusIssue& i : r.first_issues) lines << i.line;
    return lines;
}

} // namespace

class TestCorpus : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

    QString write(const QString& name, const QByteArray& bytes)
    {
        QFile f(dir_.filePath(name));
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size()) qFatal("cannot write %s", qPrintable(f.fileName()));
        return f.fileName();
    }

    // Reads a TSV that must succeed; the report is left in report_.
    QList<SentencePair> readOk(const QString& name, const QByteArray& bytes, CorpusOptions options = {})
    {
        QString error;
        const auto pairs = readCorpus(write(name, bytes), options, report_, &error);
        if (!pairs) qWarning("%s", qPrintable(error));
        return pairs.value_or(QList<SentencePair>{});
    }

    CorpusReport report_;

private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void plainTsv()
    {
        const auto pairs = readOk(u"plain.tsv"_s, "你好。\tHello.\n再见。\tBye.\textra column\n");
        QCOMPARE(pairs.size(), 2);
        QCOMPARE(pairs[0].src, u"你好。"_s);
        QCOMPARE(pairs[0].tgt, u"Hello."_s);
        QCOMPARE(pairs[1].tgt, u"Bye."_s);
        QCOMPARE(pairs[1].line, 2);
        QCOMPARE(report_.lines_read, 2);
        QCOMPARE(report_.pairs_kept, 2);
        QCOMPARE(report_.skipped(), 0);
        QVERIFY(report_.first_issues.isEmpty());
        QVERIFY(!report_.had_bom && !report_.had_crlf);
    }

    void noTab()
    {
        const auto pairs = readOk(u"notab.tsv"_s, "a\tb\nWe try. 我们来试试。\nc\td\n");
        QCOMPARE(pairs.size(), 2);
        QCOMPARE(report_.no_tab, 1);
        QCOMPARE(issueLines(report_), QList<int>{2});
        QVERIFY2(report_.first_issues[0].what.contains(u"TAB"_s), qPrintable(issuesText(report_)));
        QCOMPARE(pairs[1].line, 3); // line numbers stay those of the file
    }

    void emptySide()
    {
        readOk(u"empty.tsv"_s, "\tb\na\t\n  \t x\n\t\nc\td\n");
        QCOMPARE(report_.empty_side, 4);
        QCOMPARE(report_.pairs_kept, 1);
        QCOMPARE(issueLines(report_), (QList<int>{1, 2, 3, 4}));
        QCOMPARE(report_.first_issues[0].what, u"empty source"_s);
        QCOMPARE(report_.first_issues[1].what, u"empty target"_s);
        QCOMPARE(report_.first_issues[3].what, u"both sides empty"_s);
    }

    void invalidUtf8()
    {
        // Bad byte mid-line, a sequence cut at the line end, a UTF-8-encoded surrogate.
        const auto pairs = readOk(u"bad.tsv"_s, "ca\xff" "f\tb\nok\tfine\nx\ty\xc3\nz\t\xed\xa0\x80\n");
        QCOMPARE(report_.invalid_utf8, 3);
        QCOMPARE(issueLines(report_), (QList<int>{1, 3, 4}));
        QCOMPARE(pairs.size(), 1);
        QCOMPARE(pairs[0].src, u"ok"_s);
    }

    void crlfAndBom()
    {
        const auto pairs = readOk(u"crlf.tsv"_s, "\xEF\xBB\xBF" "a\tb\r\nc\td\r\n");
        QCOMPARE(pairs.size(), 2);
        QVERIFY(report_.had_bom);
        QVERIFY(report_.had_crlf);
        QCOMPARE(pairs[0].src, u"a"_s); // no U+FEFF glued to the first sentence
        QCOMPARE(pairs[0].tgt, u"b"_s); // no '\r' left on the target
        QCOMPARE(report_.lines_read, 2);
        QVERIFY2(report_.summary().contains(u"BOM"_s) && report_.summary().contains(u"CRLF"_s),
                 qPrintable(report_.summary()));
    }

    void trailingAndBlankLines()
    {
        readOk(u"nofinal.tsv"_s, "a\tb\nc\td");
        QCOMPARE(report_.lines_read, 2);
        QCOMPARE(report_.pairs_kept, 2);
        readOk(u"blank.tsv"_s, "a\tb\n\n   \nc\td\n\n");
        QCOMPARE(report_.lines_read, 5);
        QCOMPARE(report_.blank_lines, 3);
        QCOMPARE(report_.pairs_kept, 2);
        QCOMPARE(report_.skipped(), 0);
    }

    void tooLong()
    {
        CorpusOptions o;
        o.max_chars = 5;
        // Five Extension-B characters are ten UTF-16 units but five characters: kept.
        const auto pairs = readOk(u"long.tsv"_s, "abcdef\tx\n\xF0\xA0\x80\x80\xF0\xA0\x80\x80\xF0\xA0\x80\x80"
                                                 "\xF0\xA0\x80\x80\xF0\xA0\x80\x80\tok\nx\ttoo long\n", o);
        QCOMPARE(report_.too_long, 2);
        QCOMPARE(issueLines(report_), (QList<int>{1, 3}));
        QCOMPARE(pairs.size(), 1);
        QCOMPARE(pairs[0].line, 2);
    }

    void refusedFiles()
    {
        CorpusReport report;
        QString error;
        QVERIFY(!readCorpus(write(u"empty.txt"_s, {}), {}, report, &error));
        QVERIFY2(error.contains(u"empty"_s), qPrintable(error));
        QVERIFY(!readCorpus(write(u"blank.txt"_s, "\n\r\n\n"), {}, report, &error));
        QVERIFY2(error.contains(u"no text"_s), qPrintable(error));
        QVERIFY(!readCorpus(dir_.filePath(u"missing.tsv"_s), {}, report, &error));
        QVERIFY2(error.contains(u"not found"_s) && error.contains(u"missing.tsv"_s), qPrintable(error));
        QVERIFY(!readCorpus(dir_.path(), {}, report, &error));
        QVERIFY2(error.contains(u"folder"_s), qPrintable(error));
        QVERIFY(!readCorpus(write(u"utf16.tsv"_s, QByteArray("\xFF\xFE" "a\0\t\0b\0", 8)), {}, report, &error));
        QVERIFY2(error.contains(u"UTF-16"_s), qPrintable(error));
        QVERIFY(!readCorpus(write(u"allbad.tsv"_s, "no tab here\nnor here\n"), {}, report, &error));
        QVERIFY2(error.contains(u"no usable sentence pair"_s), qPrintable(error));
        QCOMPARE(report.no_tab, 2);
        QVERIFY(!readCorpus(dir_.filePath(u"missing.tsv"_s), {}, report)); // error pointer optional
    }

    void strictRefusesWithFileAndLine()
    {
        const QString path = write(u"strict.tsv"_s, "a\tb\nc\td\nno tab\ne\t\n");
        CorpusOptions o;
        o.strict = true;
        CorpusReport report;
        QString error;
        QVERIFY(!readCorpus(path, o, report, &error));
        QVERIFY2(error.startsWith(path + u":3: no TAB"_s), qPrintable(error));
        QCOMPARE(report.no_tab, 1);
        QCOMPARE(report.empty_side, 0); // stopped at the first bad line

        o.strict = false;
        const auto pairs = readCorpus(path, o, report, &error);
        QVERIFY(pairs);
        QCOMPARE(pairs->size(), 2);
        QCOMPARE(report.skipped(), 2);
    }

    // Strict mode refuses the file at the first bad line of every kind, naming file and line;
    // the lenient read of the same bytes keeps the good pairs.
    void strictRefusesEveryKind_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<int>("maxChars");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no TAB") << QByteArray("a\tb\nno tab\n") << 0 << u":2: no TAB"_s;
        QTest::newRow("empty side") << QByteArray("a\tb\nc\td\n \tx\n") << 0 << u":3: empty source"_s;
        QTest::newRow("invalid UTF-8") << QByteArray("ca\xff\tb\nc\td\n") << 0 << u":1: invalid UTF-8"_s;
        QTest::newRow("too long") << QByteArray("a\tb\nabcdef\tx\n") << 5 << u":2: 6 characters"_s;
    }

    void strictRefusesEveryKind()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(int, maxChars);
        QFETCH(QString, expected);
        const QString path = write(u"strict-kind.tsv"_s, bytes);
        CorpusOptions o;
        o.strict = true;
        o.max_chars = maxChars;
        CorpusReport report;
        QString error;
        QVERIFY(!readCorpus(path, o, report, &error));
        QVERIFY2(error.startsWith(path + expected), qPrintable(error));
        QCOMPARE(report.skipped(), 1);
        o.strict = false;
        QVERIFY(readCorpus(path, o, report, &error));
        QCOMPARE(report.skipped(), 1);
    }

    // A BOM, CRLF line ends and blank lines are not bad lines: strict mode reads such a file.
    void strictAcceptsBomCrlfAndBlankLines()
    {
        CorpusOptions o;
        o.strict = true;
        const auto pairs = readOk(u"strict-ok.tsv"_s, "\xEF\xBB\xBF" "a\tb\r\n\r\nc\td\r\n", o);
        QCOMPARE(pairs.size(), 2);
        QVERIFY(report_.had_bom && report_.had_crlf);
        QCOMPARE(report_.blank_lines, 1);
    }

    // A file that exists but cannot be read gives a clear error, not an empty corpus.
    void unreadableFile()
    {
        CorpusReport report;
        QString error;
        const QString locked = write(u"locked.tsv"_s, "a\tb\n");
        QVERIFY(QFile::setPermissions(locked, QFileDevice::Permissions{}));
        QFile probe(locked);
        if (!probe.open(QIODevice::ReadOnly)) {  // root reads it anyway
            QVERIFY(!readCorpus(locked, {}, report, &error));
            QVERIFY2(error.contains(u"cannot open"_s) && error.contains(u"locked.tsv"_s), qPrintable(error));
        }
        // Opens, but every read fails (EIO), for root too.
        if (QFileInfo(u"/proc/self/mem"_s).isFile()) {
            QVERIFY(!readCorpus(u"/proc/self/mem"_s, {}, report, &error));
            QVERIFY2(error.contains(u"cannot read"_s), qPrintable(error));
        } else if (probe.isOpen()) {
            AS_SKIP("running as root without /proc (mount procfs): no way to make a file unreadable");
        }
    }

    // A FIFO without a writer would block the reader for ever and a device can be endless.
    void pipesAndDevicesAreRefused()
    {
        const QString fifo = dir_.filePath(u"corpus.fifo"_s);
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        CorpusReport report;
        QString error;
        QElapsedTimer clock;
        clock.start();
        QCOMPARE(guessFormat(fifo), CorpusFormat::Tsv);
        QVERIFY(!readCorpus(fifo, {}, report, &error));
        QVERIFY2(error.contains(u"not a regular file"_s), qPrintable(error));
        QVERIFY(!readCorpus(u"/dev/zero"_s, {}, report, &error));
        QVERIFY2(error.contains(u"not a regular file"_s), qPrintable(error));
        QVERIFY(clock.elapsed() < 5000);
    }

    void issuesAreCapped()
    {
        QByteArray bytes;
        for (int i = 0; i < 30; ++i) bytes += "bad line\ngood\tline\n";
        readOk(u"many.tsv"_s, bytes);
        QCOMPARE(report_.no_tab, 30);
        QCOMPARE(report_.first_issues.size(), 20);  // the window shows the first 20
        QCOMPARE(report_.first_issues.last().line, 39);
        QVERIFY2(report_.summary().contains(u"30 without the TAB"_s), qPrintable(report_.summary()));
    }

    void ankiFormat()
    {
        const QByteArray bytes = "Hi.\t嗨。\tCC-BY 2.0 (France) Attribution: tatoeba.org #538123 (CM)\n"
                                 "We try. 我们来试试。\tCC-BY 2.0 (France) Attribution: tatoeba.org #247763 (CK)\n"
                                 "Run.\t你用跑的。\n";
        const QString path = write(u"mini-cmn.txt"_s, bytes);
        QCOMPARE(guessFormat(path), CorpusFormat::Anki);
        CorpusOptions o;
        o.format = CorpusFormat::Anki;
        CorpusReport report;
        auto pairs = readCorpus(path, o, report, nullptr);
        QVERIFY(pairs);
        QCOMPARE(pairs->size(), 2);
        QCOMPARE(pairs->at(0).src, u"嗨。"_s);
        QCOMPARE(pairs->at(0).tgt, u"Hi."_s);
        QCOMPARE(pairs->at(1).src, u"你用跑的。"_s); // two columns without attribution are fine
        QCOMPARE(report.no_tab, 1);
        QCOMPARE(issueLines(report), QList<int>{2});

        o.anki_english_is_target = false;
        pairs = readCorpus(path, o, report, nullptr);
        QVERIFY(pairs);
        QCOMPARE(pairs->at(0).src, u"Hi."_s);

        QCOMPARE(guessFormat(write(u"plain2.tsv"_s, "a\tb\nc\td\n")), CorpusFormat::Tsv);
        QCOMPARE(guessFormat(dir_.filePath(u"missing.txt"_s)), CorpusFormat::Tsv);
    }

    // manythings.org's download as a user has it: tests/data/cmn-excerpt.txt holds its first
    // 40 lines, with the two where spaces were typed for the TAB (29 and 31), and 58 more.
    void realAnkiDownload()
    {
        const QString path = fixture(u"cmn-excerpt.txt"_s);
        QVERIFY2(!path.isEmpty(), "tests/data/cmn-excerpt.txt not found beside this test");
        QCOMPARE(guessFormat(path), CorpusFormat::Anki);
        CorpusOptions o;
        o.format = CorpusFormat::Anki;
        CorpusReport report;
        QString error;
        const auto pairs = readCorpus(path, o, report, &error);
        QVERIFY2(pairs, qPrintable(error));
        QCOMPARE(report.lines_read, 98);
        QCOMPARE(report.no_tab, 2);
        QCOMPARE(issueLines(report), (QList<int>{29, 31}));
        QVERIFY2(report.first_issues[0].what.contains(u"We try."_s), qPrintable(issuesText(report)));
        QCOMPARE(report.skipped(), 2);
        QCOMPARE(report.pairs_kept, 96);
        QCOMPARE(pairs->size(), 96);
        QVERIFY(!report.had_bom && !report.had_crlf);
        QCOMPARE(pairs->first().src, u"嗨。"_s);
        QCOMPARE(pairs->first().tgt, u"Hi."_s);
        QCOMPARE(pairs->first().line, 1);
        // Neither side holds the attribution column, nor a TAB.
        for (const SentencePair& p : *pairs)
            for (const QString& side : {p.src, p.tgt})
                QVERIFY2(!side.contains(u"CC-BY"_s) && !side.contains(u'\t'), qPrintable(side));
        QCOMPARE(pairs->last().line, 98);
        QCOMPARE(pairs->last().src, u"我以为我们发现了绝妙的藏身之处，但警察找到了我们。"_s);
        QCOMPARE(pairs->last().tgt, u"I thought we had found the perfect hiding place, but the police found us."_s);

        o.strict = true;
        QVERIFY(!readCorpus(path, o, report, &error));
        QVERIFY2(error.endsWith(u"cmn-excerpt.txt:29: no TAB between the English and the translation: \"We try. 我们来试试。\""_s),
                 qPrintable(error));
    }

    // The plain TSV format on real sentences: tests/data/zh-en-excerpt.tsv, Chinese<TAB>English.
    void realZhEn()
    {
        const QString path = fixture(u"zh-en-excerpt.tsv"_s);
        QVERIFY2(!path.isEmpty(), "tests/data/zh-en-excerpt.tsv not found beside this test");
        QCOMPARE(guessFormat(path), CorpusFormat::Tsv);
        CorpusReport report;
        QString error;
        CorpusOptions o;
        o.strict = true;
        const auto read = readCorpus(path, o, report, &error);
        QVERIFY2(read, qPrintable(error));
        QCOMPARE(read->size(), 291);
        QCOMPARE(report.lines_read, 291);
        QVERIFY(!report.had_bom && !report.had_crlf);
        QCOMPARE(read->first().line, 1);
        QCOMPARE(read->first().src, u"我累死了。"_s);
        QCOMPARE(read->first().tgt, u"I'm exhausted."_s);
        QCOMPARE(read->last().line, 291);
        QCOMPARE(read->last().tgt, u"If we were supposed to talk more than listen, we would have been given two mouths and one ear."_s);
    }

    void splitIsDeterministicAndDisjoint()
    {
        QList<SentencePair> pairs;
        for (int i = 0; i < 1000; ++i) // every 7th English sentence also has a second translation
            pairs.append({u"src %1"_s.arg(i), u"tgt %1"_s.arg(i % 7 == 0 ? i + 1 : i), i + 1});
        const Split a = heldOutSplit(pairs, 0.05, 0.10, 42), b = heldOutSplit(pairs, 0.05, 0.10, 42);
        const Split c = heldOutSplit(pairs, 0.05, 0.10, 43);
        auto lines = [](const QList<SentencePair>& part) {
            QList<int> out;
            for (const auto& p : part) out << p.line;
            return out;
        };
        QCOMPARE(lines(a.test), lines(b.test));
        QCOMPARE(lines(a.valid), lines(b.valid));
        QVERIFY(lines(a.test) != lines(c.test));
        QCOMPARE(a.train.size() + a.valid.size() + a.test.size(), pairs.size());
        QVERIFY2(a.test.size() >= 95 && a.test.size() <= 100, qPrintable(QString::number(a.test.size())));
        QVERIFY2(a.valid.size() >= 45 && a.valid.size() <= 50, qPrintable(QString::number(a.valid.size())));

        QSet<QString> trainText;
        for (const auto& p : a.train) trainText << p.src << p.tgt;
        for (const auto* part : {&a.valid, &a.test})
            for (const auto& p : *part)
                QVERIFY2(!trainText.contains(p.src) && !trainText.contains(p.tgt), qPrintable(p.tgt));
        QVERIFY(std::is_sorted(a.train.begin(), a.train.end(),
                               [](const auto& x, const auto& y) { return x.line < y.line; }));

        // Pins the algorithm: a split must not change with the Qt version or platform. The
        // expected lines come from an independent Python re-implementation of the splitmix64
        // shuffle, not from this code's own output.
        const Split small = heldOutSplit(pairs.mid(0, 20), 0.1, 0.2, 7);
        QCOMPARE(lines(small.test), (QList<int>{7, 10, 14, 17}));
        QCOMPARE(lines(small.valid), (QList<int>{6, 20}));

        const Split none = heldOutSplit(pairs, 0, 0, 1);
        QCOMPARE(none.train.size(), pairs.size());
        QVERIFY(heldOutSplit({}, 0.1, 0.1, 1).train.isEmpty());
    }
};

AS_TEST_GUILESS_MAIN(TestCorpus)
#include "test_corpus.moc"
