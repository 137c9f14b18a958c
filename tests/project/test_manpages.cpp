// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The manual pages and the bash completion that the build makes from the programs' option
// tables (scripts/make-manpages, `PROGRAM --options-json`, app/option_table.h):
//   - the tables are what the parsers take: every option `COMMAND --help` prints is in the
//     table, and every option of the table is in the help (the help is QCommandLineParser's
//     own text, an independent reading of the same parser);
//   - each page renders with groff without a warning, and names every command and option;
//   - bash, with Debian's bash-completion, completes commands, options, the closed sets of
//     values (task names as core/train/session_data.h and core/text/lm_tasks.h list them,
//     presets, languages) and file
//     names where a file goes.
#include "cli_process.h"
#include "skip.h"
#include "test_files.h"

#include "model/config.h"
#include "text/lm_tasks.h"
#include "train/session_data.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace Qt::StringLiterals;

namespace {

QString program(const QString& name)
{
    return QDir(QCoreApplication::applicationDirPath()).filePath(name);
}

QJsonObject optionsOf(const QString& name)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
    const as::test::ProcessRun r = as::test::runProgram(program(name), {u"--options-json"_s}, env, {}, 60000);
    if (r.exitCode != 0)
        qWarning("%s", qPrintable(as::test::describeRun(name + u" --options-json"_s, r)));
    return QJsonDocument::fromJson(r.out).object();
}

// The long options a --help text lists ("  --task <name>  Built-in task…", "  -h, --help").
QSet<QString> optionsInHelp(const QByteArray& help)
{
    QSet<QString> names;
    static const QRegularExpression line(u"^\\s+(?:-\\w, )?--([a-z0-9-]+)"_s, QRegularExpression::MultilineOption);
    for (auto it = line.globalMatch(QString::fromUtf8(help)); it.hasNext();)
        names.insert(it.next().captured(1));
    return names;
}

QSet<QString> optionsInTable(const QJsonObject& table)
{
    QSet<QString> names;
    for (const QJsonValue& o : table.value("options").toArray())
        for (const QJsonValue& n : o.toObject().value("names").toArray())
            if (n.toString().size() > 1)
                names.insert(n.toString());
    return names;
}

QString manPage(const QString& name)
{
    return QDir(QStringLiteral(AS_MAN_DIR)).filePath(name);
}

using ::as::test::readAll;

}  // namespace

class TestManpages : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void tablesAreWhatTheParsersTake();
    void pagesRender_data();
    void pagesRender();
    void pagesNameEveryOption();
    void completion_data();
    void completion();

private:
    QJsonObject cli_, window_;
    QTemporaryDir files_;
};

void TestManpages::initTestCase()
{
    cli_ = optionsOf(u"attention-studio-cli"_s);
    window_ = optionsOf(u"attention-studio"_s);
    QCOMPARE(cli_.value("program").toString(), u"attention-studio-cli"_s);
    QCOMPARE(window_.value("program").toString(), u"attention-studio"_s);
    QVERIFY(cli_.value("commands").toArray().size() >= 11);
    // Files to complete: two models and a corpus.
    QVERIFY(files_.isValid());
    for (const char* name : {"m1.safetensors", "m2.safetensors", "pairs.tsv"}) {
        QFile f(files_.filePath(QString::fromLatin1(name)));
        QVERIFY(f.open(QIODevice::WriteOnly));
    }
}

void TestManpages::tablesAreWhatTheParsersTake()
{
    for (const QJsonValue& v : cli_.value("commands").toArray()) {
        const QJsonObject c = v.toObject();
        const QString command = c.value("name").toString();
        const as::test::ProcessRun r = as::test::runProgram(program(u"attention-studio-cli"_s), {command, u"--help"_s});
        QVERIFY2(r.exitCode == 0, qPrintable(as::test::describeRun(command + u" --help"_s, r)));
        QSet<QString> help = optionsInHelp(r.out);
        help.remove(u"help"_s);  // QCommandLineParser's own
        help.remove(u"help-all"_s);
        QCOMPARE(help, optionsInTable(c));
        QVERIFY2(!c.value("summary").toString().isEmpty(), qPrintable(command));
    }
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
    const as::test::ProcessRun r = as::test::runProgram(program(u"attention-studio"_s), {u"--help"_s}, env);
    QCOMPARE(r.exitCode, 0);
    QSet<QString> help = optionsInHelp(r.out);
    help.remove(u"help"_s);
    help.remove(u"help-all"_s);
    help.remove(u"version"_s);
    QCOMPARE(help, optionsInTable(window_));
}

void TestManpages::pagesRender_data()
{
    QTest::addColumn<QString>("page");
    QTest::newRow("attention-studio") << u"attention-studio.1"_s;
    QTest::newRow("attention-studio-cli") << u"attention-studio-cli.1"_s;
}

void TestManpages::pagesRender()
{
    QFETCH(QString, page);
    const QString groff = QStandardPaths::findExecutable(u"groff"_s);
    if (groff.isEmpty())
        AS_SKIP("groff is not installed: install Debian's groff-base (scripts/install-deps.sh)");
    QVERIFY2(QFile::exists(manPage(page)), qPrintable(manPage(page) + u" was not built"_s));
    // -ww: every warning; the page is ASCII (beyond it, groff's \[uXXXX]), so no encoding is assumed.
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"LC_ALL"_s, u"C"_s);
    const as::test::ProcessRun r = as::test::runProgram(groff, {u"-man"_s, u"-Tutf8"_s, u"-ww"_s, manPage(page)}, env);
    QVERIFY2(r.exitCode == 0 && r.err.isEmpty(), qPrintable(as::test::describeRun(u"groff "_s + page, r)));
    const QString text = QString::fromUtf8(r.out).remove(QRegularExpression(u".\b"_s));  // no overstrike
    for (const char* section : {"NAME", "SYNOPSIS", "DESCRIPTION", "SEE ALSO"})
        QVERIFY2(text.contains(QLatin1String(section)), section);
    QVERIFY(readAll(manPage(page)).size() > 2000);
    for (const char c : readAll(manPage(page)))
        QVERIFY2(uchar(c) < 128, "the page is not ASCII");
}

void TestManpages::pagesNameEveryOption()
{
    const QString cliPage = QString::fromUtf8(readAll(manPage(u"attention-studio-cli.1"_s)));
    for (const QJsonValue& v : cli_.value("commands").toArray()) {
        const QJsonObject c = v.toObject();
        const QString command = c.value("name").toString();
        const qsizetype at = cliPage.indexOf(u".SS "_s + command + u'\n');
        QVERIFY2(at >= 0, qPrintable(command));
        const qsizetype end = cliPage.indexOf(u".SS "_s, at + 4);
        const QString section = cliPage.mid(at, end < 0 ? -1 : end - at);
        for (const QString& o : optionsInTable(c))
            QVERIFY2(section.contains(u"\\fB\\-\\-"_s + QString(o).replace(u'-', u"\\-"_s) + u"\\fR"_s),
                     qPrintable(command + u" --"_s + o));
    }
    const QString windowPage = QString::fromUtf8(readAll(manPage(u"attention-studio.1"_s)));
    for (const QString& o : optionsInTable(window_))
        QVERIFY2(windowPage.contains(u"\\fB\\-\\-"_s + QString(o).replace(u'-', u"\\-"_s) + u"\\fR"_s), qPrintable(o));
}

void TestManpages::completion_data()
{
    QTest::addColumn<QString>("program");
    QTest::addColumn<QStringList>("words");  // the command line, the last word being completed
    QTest::addColumn<QStringList>("expected");
    const QString cli = u"attention-studio-cli"_s, window = u"attention-studio"_s;
    QTest::newRow("commands") << cli << QStringList{cli, u"tr"_s}
                              << QStringList{u"trace"_s, u"train"_s, u"translate"_s};
    QTest::newRow("an option") << cli << QStringList{cli, u"train"_s, u"--ta"_s} << QStringList{u"--task"_s};
    QStringList tasks = as::trainingTaskNames();
    tasks.sort();
    QTest::newRow("task names") << cli << QStringList{cli, u"train"_s, u"--task"_s, QString()}
                                << tasks;
    QTest::newRow("--task=") << cli << QStringList{cli, u"train"_s, u"--task=z"_s}
                             << QStringList{u"zh-en"_s};
    QTest::newRow("presets") << cli << QStringList{cli, u"bench"_s, u"--config"_s, QString()}
                             << as::ModelConfig::presetNames();
    QTest::newRow("a model file") << cli << QStringList{cli, u"translate"_s, u"--model"_s, u"m"_s}
                                  << QStringList{u"m1.safetensors"_s, u"m2.safetensors"_s};
    QTest::newRow("a corpus file") << cli << QStringList{cli, u"train"_s, u"--data"_s, u"p"_s}
                                   << QStringList{u"pairs.tsv"_s};
    QTest::newRow("a number: nothing") << cli << QStringList{cli, u"train"_s, u"--steps"_s, QString()}
                                       << QStringList{};
    QTest::newRow("window option") << window << QStringList{window, u"--lang"_s} << QStringList{u"--language"_s};
    QTest::newRow("window languages") << window << QStringList{window, u"--language"_s, QString()}
                                      << QStringList{u"en"_s, u"zh_CN"_s};
    QTest::newRow("window file") << window << QStringList{window, u"m"_s}
                                 << QStringList{u"m1.safetensors"_s, u"m2.safetensors"_s};
}

void TestManpages::completion()
{
    QFETCH(QString, program);
    QFETCH(QStringList, words);
    QFETCH(QStringList, expected);
    const QString framework = u"/usr/share/bash-completion/bash_completion"_s;
    if (!QFile::exists(framework))
        AS_SKIP("bash-completion is not installed: install Debian's bash-completion (scripts/install-deps.sh)");
    const QString script = QDir(QStringLiteral(AS_MAN_DIR)).filePath(u"completion/"_s + program);
    QVERIFY2(QFile::exists(script), qPrintable(script + u" was not built"_s));
    // As bash calls a completion function: COMP_WORDS, COMP_CWORD, COMP_LINE and COMP_POINT.
    QStringList quoted;
    for (const QString& w : words)
        quoted << u'\'' + w + u'\'';
    const QString function = program == u"attention-studio"_s ? u"_attention_studio"_s : u"_attention_studio_cli"_s;
    const QString bash = QStringLiteral(
        "source %1; source %2; COMP_WORDS=(%3); COMP_CWORD=%4; COMP_LINE=\"${COMP_WORDS[*]}\"; "
        "COMP_POINT=${#COMP_LINE}; %5; printf '%s\\n' \"${COMPREPLY[@]}\"")
        .arg(framework, script, quoted.join(u' '))
        .arg(words.size() - 1)
        .arg(function);
    QProcess p;
    p.setWorkingDirectory(files_.path());
    p.start(u"bash"_s, {u"--norc"_s, u"-c"_s, bash});
    QVERIFY(p.waitForFinished(30000));
    QCOMPARE(p.exitCode(), 0);
    QStringList got = QString::fromUtf8(p.readAllStandardOutput()).split(u'\n', Qt::SkipEmptyParts);
    got.sort();
    expected.sort();
    QVERIFY2(got == expected, qPrintable(u"got: "_s + got.join(u' ') + u"\nexpected: "_s + expected.join(u' ')
                                         + u"\n"_s + QString::fromUtf8(p.readAllStandardError())));
}

AS_TEST_GUILESS_MAIN(TestManpages)
#include "test_manpages.moc"
