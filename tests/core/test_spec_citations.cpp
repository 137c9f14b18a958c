// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Citations of the specification: every file of core/, app/, ui/, tests/, fuzz/, scripts/ and
// docs/ (and README.md) that cites a SPEC file must name one that is in the project, and every
// section number it gives ("core/SPEC.md §2.2", "core/SPEC.md §3, §4") must be a heading of
// core/SPEC.md. A clone holds the project alone: a contract cited from outside it cannot be
// opened. The sections of core/SPEC.md itself are checked too: numbered, unique, each
// subsection under its section, and every § it mentions one of its own headings.
//
// The source tree is AS_SOURCE_DIR (set by tests/CMakeLists.txt for this test only); the
// environment variable of the same name overrides it, to check another tree.
#include "skip.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

#include <algorithm>

namespace {

// The name cited, kept out of this file's own text so that the scan does not find it here.
const QString kSpecName = QStringLiteral("SPEC") + QStringLiteral(".md");
const QString kSpecPath = QStringLiteral("core/") + kSpecName;

QString sourceDir()
{
    const QString env = qEnvironmentVariable("AS_SOURCE_DIR");
    return env.isEmpty() ? QStringLiteral(AS_SOURCE_DIR) : env;
}

struct Citation {
    QString path;              // as written, e.g. "core/…" or a bare file name
    QStringList sections;      // the § numbers that follow it, e.g. {"2.2", "6.1"}
    int line = 0;              // 1-based
};

// Every citation of a SPEC file in text: a path ending in the file name, then the section
// numbers right after it. Between the name and a number there may be spaces, line breaks and
// what continues a comment or a string across lines (//, #, *, quotes) or an opening
// parenthesis; between two numbers also a comma, "and", "or", "to" or a dash.
QList<Citation> citationsIn(const QString& text)
{
    static const QRegularExpression name(QStringLiteral("([A-Za-z0-9_./-]*)SPEC\\.md"));
    static const QRegularExpression first(
        QStringLiteral("(?:\\s|//|#|\\*|\"|\\()*§(\\d+(?:\\.\\d+)*)"));
    static const QRegularExpression next(
        QStringLiteral("(?:\\s|//|#|\\*|\"|,|;|\\band\\b|\\bor\\b|\\bto\\b|–|-)*§(\\d+(?:\\.\\d+)*)"));
    QList<Citation> out;
    for (auto it = name.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        Citation c;
        c.path = m.captured(0);
        c.line = int(text.left(m.capturedStart()).count(u'\n')) + 1;
        qsizetype at = m.capturedEnd();
        for (const QRegularExpression* re = &first;; re = &next) {
            const QRegularExpressionMatch s =
                re->match(text, at, QRegularExpression::NormalMatch,
                          QRegularExpression::AnchorAtOffsetMatchOption);
            if (!s.hasMatch())
                break;
            c.sections << s.captured(1);
            at = s.capturedEnd();
        }
        out << c;
    }
    return out;
}

// The section numbers of core/SPEC.md's headings ("## §2 …", "### §2.2 …"), in order.
QStringList headingsOf(const QString& spec)
{
    static const QRegularExpression heading(
        QStringLiteral("^#{2,6}[ \\t]+§(\\d+(?:\\.\\d+)*)[ \\t]"),
        QRegularExpression::MultilineOption);
    QStringList out;
    for (auto it = heading.globalMatch(spec); it.hasNext();)
        out << it.next().captured(1);
    return out;
}

QString readText(const QString& path, bool* ok)
{
    QFile f(path);
    *ok = f.open(QIODevice::ReadOnly);
    const QByteArray bytes = *ok ? f.readAll() : QByteArray();
    *ok = *ok && !bytes.left(8192).contains('\0');  // text files only
    return QString::fromUtf8(bytes);
}

}  // namespace

class TestSpecCitations : public QObject {
    Q_OBJECT
private slots:
    void matcher_data();
    void matcher();
    void specSections();
    void citationsResolve();
};

// The matcher on the forms the project writes ('@' stands for the file name).
void TestSpecCitations::matcher_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("path");
    QTest::addColumn<QStringList>("sections");
    QTest::newRow("bare") << "the model of @'s weight files" << "@" << QStringList();
    QTest::newRow("section") << "// core/@ §2.2: masked_fill" << "core/@" << QStringList{"2.2"};
    QTest::newRow("two") << "(core/@ §2, §3): forward" << "core/@" << QStringList{"2", "3"};
    QTest::newRow("and, dash") << "core/@ §3 and §4.5–§4.6." << "core/@"
                               << QStringList{"3", "4.5", "4.6"};
    QTest::newRow("range") << "The model of core/@ §1 to §6 in PyTorch" << "core/@"
                           << QStringList{"1", "6"};
    QTest::newRow("possessive") << "core/@ §7.2's small model" << "core/@" << QStringList{"7.2"};
    QTest::newRow("end of sentence") << "formula of core/@ §3.1." << "core/@" << QStringList{"3.1"};
    QTest::newRow("comment break") << "config key (core/@\n    // §7.1 has" << "core/@"
                                   << QStringList{"7.1"};
    QTest::newRow("string break") << "\"names of core/@ \"\n        \"§6.1; e.g." << "core/@"
                                  << QStringList{"6.1"};
    QTest::newRow("python comment") << "# ---- safetensors, core/@ §8.1 ----" << "core/@"
                                    << QStringList{"8.1"};
    QTest::newRow("parenthesis") << "core/@ (§5)" << "core/@" << QStringList{"5"};
    QTest::newRow("not a number") << "cite it as `core/@ §N`" << "core/@" << QStringList();
    QTest::newRow("another path") << "see ../shared/@ §9" << "../shared/@" << QStringList{"9"};
    QTest::newRow("separate §") << "core/@ §8 (the paper's §6.1)" << "core/@" << QStringList{"8"};
}

void TestSpecCitations::matcher()
{
    QFETCH(QString, text);
    QFETCH(QString, path);
    QFETCH(QStringList, sections);
    const QList<Citation> found = citationsIn(QString(text).replace(u'@', kSpecName));
    QCOMPARE(found.size(), 1);
    QCOMPARE(found[0].path, QString(path).replace(u'@', kSpecName));
    QCOMPARE(found[0].sections, sections);
    QCOMPARE(found[0].line, 1);
}

// core/SPEC.md: §1 … §10 at least, each number once, each subsection under an existing
// section, and every § it mentions one of its headings.
void TestSpecCitations::specSections()
{
    bool ok = false;
    const QString spec = readText(QDir(sourceDir()).filePath(kSpecPath), &ok);
    QVERIFY2(ok, qPrintable(kSpecPath + QStringLiteral(" cannot be read in ") + sourceDir()));
    const QStringList headings = headingsOf(spec);
    const QSet<QString> unique(headings.begin(), headings.end());
    QCOMPARE(unique.size(), headings.size());
    for (int n = 1; n <= 10; ++n)
        QVERIFY2(unique.contains(QString::number(n)), qPrintable(QStringLiteral("no §%1").arg(n)));
    for (const QString& h : headings)
        if (h.contains(u'.'))
            QVERIFY2(unique.contains(h.left(h.lastIndexOf(u'.'))),
                     qPrintable(QStringLiteral("§%1 has no parent section").arg(h)));
    static const QRegularExpression mention(QStringLiteral("§(\\d+(?:\\.\\d+)*)"));
    QStringList unknown;
    int mentions = 0;
    for (auto it = mention.globalMatch(spec); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        ++mentions;
        if (!unique.contains(m.captured(1)))
            unknown << QStringLiteral("line %1: §%2")
                           .arg(spec.left(m.capturedStart()).count(u'\n') + 1)
                           .arg(m.captured(1));
    }
    QVERIFY(mentions > headings.size());  // the cross-references, beyond the headings
    QVERIFY2(unknown.isEmpty(), qPrintable(unknown.join(u'\n')));
}

// Every citation in the project names a file that is in it, and sections that are headings.
void TestSpecCitations::citationsResolve()
{
    const QDir root(sourceDir());
    bool ok = false;
    const QString spec = readText(root.filePath(kSpecPath), &ok);
    const QStringList headingList = headingsOf(spec);
    const QSet<QString> headings(headingList.begin(), headingList.end());

    QStringList files{root.filePath(QStringLiteral("README.md"))};
    for (const char* dir : {"core", "app", "ui", "tests", "fuzz", "scripts", "docs"})
        for (QDirIterator it(root.filePath(QLatin1String(dir)), QDir::Files,
                             QDirIterator::Subdirectories);
             it.hasNext();)
            files << it.next();
    std::sort(files.begin(), files.end());

    QStringList problems;
    int citations = 0, sections = 0;
    for (const QString& file : files) {
        const QString text = readText(file, &ok);
        if (!ok)
            continue;
        const QString where = root.relativeFilePath(file);
        for (const Citation& c : citationsIn(text)) {
            ++citations;
            // A path from the root ("core/…"), or relative to the page that cites it (the
            // docs' links: "../../core/…").
            QFileInfo cited(root.filePath(c.path));
            if (!cited.isFile())
                cited = QFileInfo(QFileInfo(file).absoluteDir().filePath(c.path));
            // After a variable that holds the root: ${PROJECT_SOURCE_DIR}/core/…, AS_DOC_DIR "/core/…".
            if (!cited.isFile() && c.path.startsWith(u'/'))
                cited = QFileInfo(root.filePath(c.path.mid(1)));
            if (!cited.isFile() || !cited.canonicalFilePath().startsWith(root.canonicalPath())) {
                problems << QStringLiteral("%1:%2: cites %3, which is not a file of the project")
                                .arg(where)
                                .arg(c.line)
                                .arg(c.path);
                continue;
            }
            const bool isSpec = cited.canonicalFilePath()
                                == QFileInfo(root.filePath(kSpecPath)).canonicalFilePath();
            for (const QString& s : c.sections) {
                ++sections;
                if (!isSpec || !headings.contains(s))
                    problems << QStringLiteral("%1:%2: cites %3 §%4, which is not a heading of %5")
                                    .arg(where)
                                    .arg(c.line)
                                    .arg(c.path, s, kSpecPath);
            }
        }
    }
    QVERIFY2(problems.isEmpty(), qPrintable(QStringLiteral("%1 of %2 citations are wrong:\n")
                                                 .arg(problems.size())
                                                 .arg(citations)
                                            + problems.join(u'\n')));
    // The scan found what the project holds (some fifty citations, most with a section).
    QVERIFY2(citations >= 40, qPrintable(QStringLiteral("only %1 citations found").arg(citations)));
    QVERIFY2(sections >= 30, qPrintable(QStringLiteral("only %1 sections cited").arg(sections)));
}

AS_TEST_GUILESS_MAIN(TestSpecCitations)
#include "test_spec_citations.moc"
