// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The docs stay honest (README.md and every page of docs/):
//   - every relative link and picture resolves to a file of the project;
//   - the README links every page of docs/, and stays short;
//   - the user guide's pages (docs/user-guide/, English and zh_CN) link only to what the window
//     bundles for its Help (docs/, core/SPEC.md, resources/screenshots/), and every page has its
//     twin in the other language;
//   - every command line shown in a fenced block names a command of the programs and only
//     options it accepts (their option tables: `PROGRAM --options-json`, app/option_table.h),
//     with values from the closed sets where an option has one; a script it runs exists.
// That every view has its page is test_window_help's (it knows the views).
#include "cli_process.h"
#include "markdown_links.h"
#include "skip.h"
#include "test_files.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QtTest>

using namespace Qt::StringLiterals;

namespace {

QString root()
{
    return QDir(as::test::testFile(u"."_s) + u"/.."_s).canonicalPath();
}

QString readText(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

// README.md and docs/**/*.md, relative to the root.
QStringList pages()
{
    QStringList out{u"README.md"_s};
    for (QDirIterator it(root() + u"/docs"_s, {u"*.md"_s}, QDir::Files, QDirIterator::Subdirectories); it.hasNext();)
        out << QDir(root()).relativeFilePath(it.next());
    out.sort();
    return out;
}

using Link = as::test::MarkdownLink;
using as::test::externalLink;
using as::test::markdownLinks;

// The lines of fenced blocks, a line ending in a backslash joined with the next.
QList<Link> fencedLines(const QString& text)
{
    QList<Link> out;
    bool fenced = false;
    QString pending;
    int start = 0;
    const QStringList lines = text.split(u'\n');
    for (int i = 0; i < lines.size(); ++i) {
        const QString& line = lines[i];
        if (line.trimmed().startsWith(u"```"_s)) {
            fenced = !fenced;
            continue;
        }
        // Indented blocks (four spaces) are code too, in the README.
        const bool indented = !fenced && line.startsWith(u"    "_s) && !line.trimmed().startsWith(u'-')
            && !line.trimmed().startsWith(u'|');
        if (!fenced && !indented)
            continue;
        if (pending.isEmpty())
            start = i + 1;
        if (line.endsWith(u'\\')) {
            pending += line.chopped(1) + u' ';
            continue;
        }
        out.push_back({pending + line, start});
        pending.clear();
    }
    return out;
}

struct Program {
    QJsonObject table;  // the window's, or one command's
    QSet<QString> flags;                    // options without a value
    QMap<QString, QJsonObject> withValue;   // options that take one
};

Program programOf(const QJsonObject& table)
{
    Program p;
    p.table = table;
    for (const QJsonValue& v : table.value("options").toArray()) {
        const QJsonObject o = v.toObject();
        for (const QJsonValue& n : o.value("names").toArray()) {
            if (o.contains("value_name"))
                p.withValue.insert(n.toString(), o);
            else
                p.flags.insert(n.toString());
        }
    }
    p.flags << u"help"_s << u"h"_s << u"help-all"_s;
    return p;
}

}  // namespace

class TestDocs : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void linksResolve();
    void readmeLinksEveryPage();
    void readmeIsShort();
    void userGuideLinksStayInTheBundle();
    void userGuideInBothLanguages();
    void commandLinesAreReal();

private:
    // Checks one command line (its words); appends problems; counts the commands checked.
    void checkCommand(const QStringList& words, const QString& where, QStringList* problems);
    QMap<QString, Program> cli_;  // per command
    Program window_;
    int checked_ = 0;
};

void TestDocs::initTestCase()
{
    QVERIFY(QFile::exists(root() + u"/README.md"_s));
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
    const QString bin = QCoreApplication::applicationDirPath();
    const as::test::ProcessRun cli = as::test::runProgram(bin + u"/attention-studio-cli"_s, {u"--options-json"_s}, env);
    const as::test::ProcessRun window = as::test::runProgram(bin + u"/attention-studio"_s, {u"--options-json"_s}, env);
    QVERIFY2(cli.exitCode == 0, qPrintable(as::test::describeRun(u"attention-studio-cli --options-json"_s, cli)));
    QVERIFY2(window.exitCode == 0, qPrintable(as::test::describeRun(u"attention-studio --options-json"_s, window)));
    for (const QJsonValue& c : QJsonDocument::fromJson(cli.out).object().value("commands").toArray())
        cli_.insert(c.toObject().value("name").toString(), programOf(c.toObject()));
    window_ = programOf(QJsonDocument::fromJson(window.out).object());
    QVERIFY(cli_.contains(u"train"_s));
    QVERIFY(window_.withValue.contains(u"screenshot"_s));
}

void TestDocs::linksResolve()
{
    QStringList problems;
    int links = 0;
    for (const QString& page : pages()) {
        const QDir dir = QFileInfo(root() + u'/' + page).absoluteDir();
        for (const Link& l : markdownLinks(readText(root() + u'/' + page))) {
            if (externalLink(l.target) || l.target.isEmpty())
                continue;
            ++links;
            const QFileInfo target(dir.filePath(QUrl::fromPercentEncoding(l.target.toUtf8())));
            if (!target.exists() || !target.canonicalFilePath().startsWith(root() + u'/'))
                problems << u"%1:%2: %3 does not resolve"_s.arg(page).arg(l.line).arg(l.target);
        }
    }
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
    QVERIFY2(links > 200, qPrintable(u"only %1 relative links found"_s.arg(links)));
}

void TestDocs::readmeLinksEveryPage()
{
    QSet<QString> linked;
    for (const Link& l : markdownLinks(readText(root() + u"/README.md"_s)))
        if (!externalLink(l.target))
            linked.insert(QDir::cleanPath(l.target));
    QStringList missing;
    for (const QString& page : pages())
        if (page != u"README.md"_s && !linked.contains(page))
            missing << page;
    QVERIFY2(missing.isEmpty(), qPrintable(u"README.md does not link: "_s + missing.join(u", "_s)));
}

void TestDocs::readmeIsShort()
{
    const qsizetype lines = readText(root() + u"/README.md"_s).count(u'\n');
    QVERIFY2(lines <= 260, qPrintable(u"README.md has %1 lines: move the detail into docs/"_s.arg(lines)));
}

void TestDocs::userGuideLinksStayInTheBundle()
{
    // What app/CMakeLists.txt's as_bundle_docs compiles into the window.
    const auto bundled = [](const QString& relative) {
        return (relative.startsWith(u"docs/"_s) && relative.endsWith(u".md"_s)) || relative == u"core/SPEC.md"_s
            || (relative.startsWith(u"resources/screenshots/"_s) && relative.endsWith(u".png"_s));
    };
    QStringList problems;
    for (const QString& page : pages()) {
        if (!page.startsWith(u"docs/user-guide/"_s))
            continue;
        const QDir dir = QFileInfo(root() + u'/' + page).absoluteDir();
        for (const Link& l : markdownLinks(readText(root() + u'/' + page))) {
            if (externalLink(l.target) || l.target.isEmpty())
                continue;
            const QString relative = QDir(root()).relativeFilePath(QDir::cleanPath(dir.filePath(l.target)));
            if (!bundled(relative))
                problems << u"%1:%2: %3 is not in the window's help (docs/, core/SPEC.md, resources/screenshots/)"_s
                                .arg(page).arg(l.line).arg(l.target);
        }
    }
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
}

void TestDocs::userGuideInBothLanguages()
{
    const QDir en(root() + u"/docs/user-guide"_s), zh(root() + u"/docs/user-guide/zh_CN"_s);
    const QStringList english = en.entryList({u"*.md"_s}, QDir::Files, QDir::Name);
    const QStringList chinese = zh.entryList({u"*.md"_s}, QDir::Files, QDir::Name);
    QVERIFY(english.contains(u"index.md"_s));
    QCOMPARE(chinese, english);
    // A Chinese page is Chinese: most of its letters are CJK.
    for (const QString& name : chinese) {
        const QString text = readText(zh.filePath(name));
        qsizetype cjk = 0, latin = 0;
        for (const QChar c : text) {
            if (c.unicode() >= 0x4E00 && c.unicode() <= 0x9FFF)
                ++cjk;
            else if (c.isLetter() && c.unicode() < 0x80)
                ++latin;
        }
        QVERIFY2(cjk > 200 && cjk * 3 > latin, qPrintable(name + u": %1 CJK, %2 Latin letters"_s.arg(cjk).arg(latin)));
    }
}

void TestDocs::checkCommand(const QStringList& words, const QString& where, QStringList* problems)
{
    const QString name = QFileInfo(words[0]).fileName();
    const Program* program = nullptr;
    int at = 1;
    if (name == u"attention-studio-cli"_s) {
        if (words.size() < 2) {
            return;
        }
        if (words[1] == u"--help"_s || words[1] == u"--version"_s)
            return void(++checked_);
        if (!cli_.contains(words[1]))
            return void(*problems << u"%1: no command '%2'"_s.arg(where, words[1]));
        program = &cli_[words[1]];
        at = 2;
    } else if (name == u"attention-studio"_s) {
        program = &window_;
        if (words.contains(u"--version"_s))
            return void(++checked_);
    } else {
        return;
    }
    ++checked_;
    for (int i = at; i < words.size(); ++i) {
        const QString& w = words[i];
        if (w == u"<"_s || w == u">"_s || w == u">>"_s || w == u"2>"_s || w == u"2>&1"_s || w.startsWith(u'>'))
            break;  // a redirection: the rest is the shell's
        if (!w.startsWith(u'-') || w == u"-"_s)
            continue;  // a positional argument
        const QString option = w.mid(w.startsWith(u"--"_s) ? 2 : 1).section(u'=', 0, 0);
        const bool inline_ = w.contains(u'=');
        if (program->flags.contains(option)) {
            if (inline_)
                *problems << u"%1: --%2 takes no value"_s.arg(where, option);
            continue;
        }
        if (!program->withValue.contains(option)) {
            *problems << u"%1: %2 has no option --%3"_s.arg(where, words.mid(0, at).join(u' '), option);
            continue;
        }
        QString value = inline_ ? w.section(u'=', 1) : (i + 1 < words.size() ? words[++i] : QString());
        const QJsonArray choices = program->withValue[option].value("choices").toArray();
        static const QRegularExpression plain(u"^[A-Za-z0-9_-]+$"_s);
        if (!choices.isEmpty() && plain.match(value).hasMatch() && !choices.contains(QJsonValue(value)))
            *problems << u"%1: --%2 %3 is not one of its values"_s.arg(where, option, value);
    }
}

void TestDocs::commandLinesAreReal()
{
    QStringList problems;
    int scripts = 0;
    for (const QString& page : pages()) {
        for (const Link& l : fencedLines(readText(root() + u'/' + page))) {
            QString line = l.target.trimmed();
            if (line.startsWith(u"$ "_s))
                line = line.mid(2);
            const QString where = u"%1:%2"_s.arg(page).arg(l.line);
            // Commands joined by the shell: each on its own.
            for (QString part : line.split(QRegularExpression(u"\\s*(?:&&|\\|\\||\\||;)\\s*"_s))) {
                QStringList words = QProcess::splitCommand(part);
                while (!words.isEmpty() && QRegularExpression(u"^[A-Z_][A-Z0-9_]*=.*"_s).match(words[0]).hasMatch())
                    words.removeFirst();  // VAR=value before the command
                for (const QString& wrapper : {u"sudo"_s, u"time"_s, u"xvfb-run"_s, u"env"_s})
                    if (!words.isEmpty() && words[0] == wrapper)
                        words.removeFirst();
                if (words.isEmpty())
                    continue;
                if (words[0].endsWith(u'/'))
                    continue;  // a folder in a listing of the tree, not a command
                if (words[0].startsWith(u"scripts/"_s) || words[0].startsWith(u"tests/data/"_s)) {
                    ++scripts;
                    if (!QFileInfo(root() + u'/' + words[0]).isFile())
                        problems << u"%1: %2 is not a file of the project"_s.arg(where, words[0]);
                    continue;
                }
                checkCommand(words, where, &problems);
            }
        }
    }
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(u'\n')));
    QVERIFY2(checked_ >= 40, qPrintable(u"only %1 command lines checked"_s.arg(checked_)));
    QVERIFY(scripts >= 3);
}

AS_TEST_GUILESS_MAIN(TestDocs)
#include "test_docs.moc"
