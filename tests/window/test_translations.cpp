// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The window in Chinese (zh_CN) and English, issue 26 §1: the .ts holds every tr() string of the
// window's sources, translated (an lupdate run over the sources finds nothing new, vanished or
// unfinished); switching the language at runtime retranslates an open window (a menu title, a
// plot's axis, the status line, in both directions; View > Language remembers the choice); and
// the program follows the system locale (LANG) unless told otherwise.
#include "skip.h"
#include "cli_process.h"
#include "language.h"
#include "heads_view.h"
#include "loss_view.h"
#include "main_window.h"
#include "settings_store.h"
#include "view_set.h"
#include "corpus_actions.h"
#include "head_dynamics_view.h"
#include "lesson_actions.h"
#include "worker_link.h"
#include "file_actions.h"
#include "test_files.h"
#include "io/checkpoint.h"
#include "io/safetensors.h"
#include "run/resume.h"
#include "train/trainer.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLibraryInfo>
#include <QMenu>
#include <QPushButton>
#include <QRegularExpression>
#include <QSet>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

using namespace Qt::StringLiterals;

namespace {

// One <message> of a .ts file.
struct TsMessage {
    QString context, source, type;  // type: "" (finished), unfinished, vanished, obsolete
    QStringList translations;       // the translation, or its numerus forms
    bool numerus = false;
    QString key() const { return context + u" | "_s + source; }
};

std::vector<TsMessage> readTs(const QString& path, QString* error)
{
    std::vector<TsMessage> out;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = path + u": "_s + f.errorString();
        return out;
    }
    QXmlStreamReader xml(&f);
    QString context;
    TsMessage m;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement()) {
            if (xml.name() == "name"_L1)
                context = xml.readElementText();
            else if (xml.name() == "message"_L1)
                m = TsMessage{context, {}, {}, {}, xml.attributes().value("numerus"_L1) == "yes"_L1};
            else if (xml.name() == "source"_L1)
                m.source = xml.readElementText();
            else if (xml.name() == "translation"_L1) {
                m.type = xml.attributes().value("type"_L1).toString();
                if (!m.numerus)
                    m.translations << xml.readElementText();
            } else if (xml.name() == "numerusform"_L1)
                m.translations << xml.readElementText();
        } else if (xml.isEndElement() && xml.name() == "message"_L1) {
            out.push_back(m);
        }
    }
    if (xml.hasError())
        *error = path + u": "_s + xml.errorString();
    return out;
}

QString program()
{
    return QDir(QCoreApplication::applicationDirPath()).filePath(u"attention-studio"_s);
}

}  // namespace

class TestTranslations : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanup();
    void tsCoversEveryTrString();
    void switchingRetranslatesAnOpenWindow();
    void languageMenuSwitchesAndRemembers();
    void qtsOwnDialogsTooWhenInstalled();
    void startupLanguageFollowsLocaleUnlessChosen();
    void programFollowsTheLocale();
    void coreMessagesFollowTheWindowNotTheCommandLine();
    void brokenFilesAreExplainedInTheWindowsLanguage();
};

void TestTranslations::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);  // settings go to a test location
    QSettings().clear();
}

void TestTranslations::cleanup()
{
    as::setLanguage(u"en"_s);
    QSettings().clear();
}

void TestTranslations::tsCoversEveryTrString()
{
    QString error;
    const std::vector<TsMessage> committed = readTs(QStringLiteral(AS_TS_FILE), &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY2(committed.size() > 400, qPrintable(u"only %1 messages"_s.arg(committed.size())));
    QSet<QString> keys;
    QStringList problems;
    for (const TsMessage& m : committed) {
        keys.insert(m.key());
        const bool empty = m.translations.isEmpty()
                           || std::any_of(m.translations.begin(), m.translations.end(),
                                          [](const QString& t) { return t.trimmed().isEmpty(); });
        if (!m.type.isEmpty() || empty)
            problems << u"%1 (%2)"_s.arg(m.key(), m.type.isEmpty() ? u"empty"_s : m.type);
    }
    QVERIFY2(problems.isEmpty(), qPrintable(u"not translated in %1:\n"_s.arg(QStringLiteral(AS_TS_FILE))
                                            + problems.join('\n')));

    // lupdate over the sources, into a copy: a tr() string not in the .ts comes back new
    // (unfinished), one whose source is gone comes back vanished.
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString copy = tmp.filePath(u"copy.ts"_s);
    QVERIFY(QFile::copy(QStringLiteral(AS_TS_FILE), copy));
    QProcess lupdate;
    lupdate.setWorkingDirectory(QStringLiteral(AS_SOURCE_DIR));
    const QStringList dirs = QStringLiteral(AS_TRANSLATED_DIRS).split(',');
    lupdate.start(QStringLiteral(AS_LUPDATE), QStringList{u"-locations"_s, u"none"_s} + dirs
                                                  + QStringList{u"-ts"_s, copy});
    QVERIFY2(lupdate.waitForFinished(120000), qPrintable(lupdate.errorString()));
    QVERIFY2(lupdate.exitStatus() == QProcess::NormalExit && lupdate.exitCode() == 0,
             lupdate.readAllStandardError().constData());
    const std::vector<TsMessage> updated = readTs(copy, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QStringList added, vanished;
    QSet<QString> now;
    for (const TsMessage& m : updated) {
        now.insert(m.key());
        if (!keys.contains(m.key()) || m.type == "unfinished"_L1)
            added << m.key();
        else if (m.type == "vanished"_L1 || m.type == "obsolete"_L1)
            vanished << m.key();
    }
    for (const QString& k : keys)
        if (!now.contains(k) && !vanished.contains(k))
            vanished << k;
    const QString fix = u"\nbring the .ts up to date: cmake --build build --target update_translations, "
                        "then translate what it added"_s;
    QVERIFY2(added.isEmpty(), qPrintable(u"tr() strings not in the .ts:\n"_s + added.join('\n') + fix));
    QVERIFY2(vanished.isEmpty(), qPrintable(u"in the .ts, no longer in the sources:\n"_s + vanished.join('\n') + fix));
}

void TestTranslations::switchingRetranslatesAnOpenWindow()
{
    as::MainWindow w;
    w.show();
    w.applySettings(as::SessionSettings::defaultsFor(u"toy"_s));
    w.stepAction()->trigger();
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == 1; }, 20000));
    const auto statusLine = [&w] {
        for (QLabel* l : w.statusBar()->findChildren<QLabel*>())
            if (l->text().contains(u" · "_s))
                return l->text();
        return QString();
    };
    QCustomPlot* loss = w.views()->loss()->plot();
    QCOMPARE(w.fileMenu()->title(), u"&File"_s);
    QCOMPARE(loss->xAxis->label(), u"step"_s);
    QVERIFY2(statusLine().startsWith(u"step 1 / "_s), qPrintable(statusLine()));

    // The language changes under the open window: QEvent::LanguageChange, posted to it.
    QVERIFY(as::setLanguage(u"zh_CN"_s));
    QCOMPARE(as::currentLanguage(), u"zh_CN"_s);
    QTRY_COMPARE(w.fileMenu()->title(), u"文件(&F)"_s);
    QCOMPARE(w.viewMenu()->title(), u"视图(&V)"_s);
    QCOMPARE(loss->xAxis->label(), u"步"_s);
    QCOMPARE(loss->yAxis->label(), u"损失"_s);
    QCOMPARE(w.views()->viewTitle(w.views()->loss()), u"损失(&L)"_s);
    QCOMPARE(w.playAction()->text(), u"播放"_s);
    QVERIFY2(statusLine().startsWith(u"第 1 / "_s), qPrintable(statusLine()));
    QVERIFY2(statusLine().contains(u"损失"_s), qPrintable(statusLine()));
    // A button's new text keeps its shortcut (QAbstractButton::setText resets it).
    const auto scoreShortcut = [&w] {
        for (QPushButton* b : w.views()->heads()->findChildren<QPushButton*>())
            if (b->text() == u"给头打分"_s)
                return b->shortcut();
        return QKeySequence();
    };
    QCOMPARE(scoreShortcut(), QKeySequence(Qt::CTRL | Qt::Key_H));

    // And back.
    QVERIFY(as::setLanguage(u"en"_s));
    QTRY_COMPARE(w.fileMenu()->title(), u"&File"_s);
    QCOMPARE(w.viewMenu()->title(), u"&View"_s);
    QCOMPARE(loss->xAxis->label(), u"step"_s);
    QCOMPARE(loss->yAxis->label(), u"loss"_s);
    QCOMPARE(w.views()->viewTitle(w.views()->loss()), u"&Loss"_s);
    QCOMPARE(w.playAction()->text(), u"Play"_s);
    QVERIFY2(statusLine().startsWith(u"step 1 / "_s), qPrintable(statusLine()));
    w.close();
}

void TestTranslations::languageMenuSwitchesAndRemembers()
{
    as::MainWindow w;
    w.show();
    const auto action = [&w](const QString& code) -> QAction* {
        for (QAction* a : w.languageMenu()->actions())
            if (a->data().toString() == code)
                return a;
        return nullptr;
    };
    QVERIFY(action(u"en"_s) && action(u"zh_CN"_s));
    QCOMPARE(action(u"zh_CN"_s)->text(), u"简体中文"_s);  // each named in itself
    QVERIFY(action(u"en"_s)->isChecked());
    action(u"zh_CN"_s)->trigger();
    QCOMPARE(as::currentLanguage(), u"zh_CN"_s);
    QTRY_COMPARE(w.languageMenu()->title(), u"语言(&L)"_s);
    QVERIFY(action(u"zh_CN"_s)->isChecked());
    QSettings store;
    QCOMPARE(as::rememberedLanguage(store), u"zh_CN"_s);
    action(u"en"_s)->trigger();
    QTRY_COMPARE(w.languageMenu()->title(), u"&Language"_s);
    QCOMPARE(as::rememberedLanguage(store), u"en"_s);
    w.close();
}

void TestTranslations::qtsOwnDialogsTooWhenInstalled()
{
    // Message boxes' and file dialogs' buttons: Qt's own translation, from Debian's
    // qt6-translations-l10n (scripts/install-deps.sh).
    const QString dir = QLibraryInfo::path(QLibraryInfo::TranslationsPath);
    if (!QFile::exists(QDir(dir).filePath(u"qtbase_zh_CN.qm"_s)))
        AS_SKIP(u"no qtbase_zh_CN.qm in %1: install Debian's qt6-translations-l10n "
                "(bash scripts/install-deps.sh)"_s.arg(dir));
    QVERIFY(as::setLanguage(u"zh_CN"_s));
    QCOMPARE(QCoreApplication::translate("QPlatformTheme", "OK"), u"确定"_s);
    QVERIFY(as::setLanguage(u"en"_s));
    QCOMPARE(QCoreApplication::translate("QPlatformTheme", "OK"), u"OK"_s);
}

void TestTranslations::startupLanguageFollowsLocaleUnlessChosen()
{
    QCOMPARE(as::normalizedLanguage(u"zh_CN.UTF-8"_s), u"zh_CN"_s);
    QCOMPARE(as::normalizedLanguage(u"zh-CN"_s), u"zh_CN"_s);
    QCOMPARE(as::normalizedLanguage(u"en_GB"_s), u"en"_s);
    QCOMPARE(as::normalizedLanguage(u"fr"_s), QString());
    QTemporaryDir tmp;
    QSettings store(tmp.filePath(u"s.ini"_s), QSettings::IniFormat);
    // Nothing chosen: the locale's.
    QCOMPARE(as::startupLanguage({}, store), as::languageOfLocale());
    // View > Language's choice beats the locale, --language beats both.
    as::rememberLanguage(store, u"zh_CN"_s);
    QCOMPARE(as::startupLanguage({}, store), u"zh_CN"_s);
    QCOMPARE(as::startupLanguage(u"en"_s, store), u"en"_s);
    QVERIFY(!as::setLanguage(u"fr"_s));  // unknown: the language stays
    QCOMPARE(as::currentLanguage(), u"en"_s);
}

void TestTranslations::programFollowsTheLocale()
{
    // The program as started from a shell: LANG decides, --language overrides. summary.json
    // records the language the pictures were taken in.
    const auto languageOf = [](const QString& lang, const QStringList& extra) -> QString {
        QTemporaryDir shots;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
        for (const QString& var : {u"LC_ALL"_s, u"LC_MESSAGES"_s, u"LANGUAGE"_s})
            env.remove(var);
        env.insert(u"LANG"_s, lang);
        const as::test::ProcessRun r = as::test::runProgram(
            program(), QStringList{u"--screenshot"_s, shots.path(), u"--task"_s, u"toy"_s,
                                   u"--steps"_s, u"2"_s, u"--threads"_s, u"1"_s} + extra, env);
        if (!r.finished || r.exitCode != 0) {
            qWarning().noquote() << as::test::describeRun(u"attention-studio"_s, r);
            return u"(failed)"_s;
        }
        QFile f(QDir(shots.path()).filePath(u"summary.json"_s));
        if (!f.open(QIODevice::ReadOnly))
            return u"(no summary.json)"_s;
        return QJsonDocument::fromJson(f.readAll()).object().value("language"_L1).toString();
    };
    QCOMPARE(languageOf(u"zh_CN.UTF-8"_s, {}), u"zh_CN"_s);
    QCOMPARE(languageOf(u"C.UTF-8"_s, {}), u"en"_s);
    QCOMPARE(languageOf(u"zh_CN.UTF-8"_s, {u"--language"_s, u"en"_s}), u"en"_s);
    QCOMPARE(languageOf(u"C.UTF-8"_s, {u"--language"_s, u"zh_CN"_s}), u"zh_CN"_s);
}

// Issue 26 §1: what core/ says (a bad corpus file, a bad lesson file) the window shows in its
// language, with the field or file named as before; the head dynamics' titles name the kinds
// in it ("编码器自注意力", not encoder.self); the command line, which installs no translator, says
// the same in English whatever LANG is.
void TestTranslations::coreMessagesFollowTheWindowNotTheCommandLine()
{
    QVERIFY(as::setLanguage(u"zh_CN"_s));
    QTemporaryDir dir;
    as::MainWindow w;
    w.show();
    w.applySettings(as::SessionSettings::defaultsFor(u"toy"_s));
    QVERIFY(QTest::qWaitFor([&] { return w.examplesShown() > 0; }, 20000));
    // A lesson whose stop names no view.
    const QString lesson = dir.filePath(u"bad.json"_s);
    QFile f(lesson);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"({"format": "attention-studio-lesson", "version": 1, "title": "T", "task": "toy",
                "stops": [{"step": 5, "view": "charts", "text": "x"}]})");
    f.close();
    QVERIFY(!w.lessons()->openLessonFile(lesson));
    QVERIFY2(w.lastFileError().contains(u"stops[0].view.view"_s) && w.lastFileError().contains(u"“charts”不是视图"_s),
             qPrintable(w.lastFileError()));
    // A corpus file that is not there.
    QSignalSpy failed(w.corpus(), &as::CorpusActions::corpusFailed);
    as::CorpusSource source;
    source.train = dir.filePath(u"absent.tsv"_s);
    w.corpus()->openCorpus(source);
    QVERIFY(failed.wait(60000));
    const QString message = failed.first().first().toString();
    QVERIFY2(message.contains(u"absent.tsv：找不到文件"_s), qPrintable(message));
    // The head dynamics of a few steps: each plot titled by its kind in Chinese.
    w.views()->showView(w.views()->dynamics());
    w.link()->step(3);
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() >= 3 && !w.isRunning(); }, 30000));
    QStringList titles;
    QVERIFY2(QTest::qWaitFor([&] {
        titles.clear();
        for (const char* name : {"dynamics_encoder.self_0", "dynamics_decoder.self_0", "dynamics_decoder.cross_0"})
            if (auto* plot = w.views()->dynamics()->findChild<QCustomPlot*>(QString::fromLatin1(name)))
                for (int i = 0; i < plot->plotLayout()->elementCount(); ++i)
                    if (auto* t = qobject_cast<QCPTextElement*>(plot->plotLayout()->elementAt(i)))
                        titles << t->text();
        return titles.size() == 3;
    }, 20000), qPrintable(titles.join(u" | "_s)));
    QCOMPARE(titles, (QStringList{u"编码器自注意力 · 第 1 层"_s, u"解码器自注意力 · 第 1 层"_s, u"解码器交叉注意力 · 第 1 层"_s}));
    w.close();
    // The command line under a Chinese locale: English.
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"LANG"_s, u"zh_CN.UTF-8"_s);
    env.insert(u"LC_ALL"_s, u"zh_CN.UTF-8"_s);
    const as::test::ProcessRun r = as::test::runProgram(
        as::test::cliProgram(), {u"train"_s, u"--data"_s, source.train, u"--steps"_s, u"1"_s, u"--out"_s, dir.filePath(u"m.safetensors"_s)}, env);
    QVERIFY2(r.finished && r.exitCode != 0 && QString::fromUtf8(r.err).contains(u"absent.tsv: file not found"_s),
             qPrintable(as::test::describeRun(u"attention-studio-cli"_s, r)));
}

namespace {

QByteArray readBytes(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeBytes(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// An English sentence left in a message: three English words in a row (file names, tensor
// names and JSON keys are single tokens).
bool hasEnglishSentence(const QString& message)
{
    static const QRegularExpression words(u"\\b[A-Za-z]{2,} [A-Za-z]{2,} [A-Za-z]{2,}\\b"_s);
    return message.contains(words);
}

}  // namespace

// Issue 26 §1: the errors of a broken file the window opens (a truncated model file, a model
// file whose weights were damaged, a damaged checkpoint) and a refused resume (a checkpoint of
// a task this version does not have) are explained in the window's language: in Chinese, with
// the terms of the glossary and no English sentence left; in English, as before. The command
// line, under a Chinese locale, says the same in English.
void TestTranslations::brokenFilesAreExplainedInTheWindowsLanguage()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // A model file cut in half: its header names data that is not there.
    const QByteArray model = readBytes(as::test::testFile(u"data/toy-trained.safetensors"_s));
    QVERIFY(model.size() > 1000);
    const QString truncated = dir.filePath(u"truncated.safetensors"_s);
    QVERIFY(writeBytes(truncated, model.left(model.size() / 2)));
    // The same file with one bit of its first weight flipped: only its checksum tells.
    QString error;
    const std::optional<as::SafetensorsFile> parsed = as::SafetensorsFile::read(
        as::test::testFile(u"data/toy-trained.safetensors"_s), &error);
    QVERIFY2(parsed, qPrintable(error));
    QByteArray flipped = model;
    const qsizetype at = qsizetype(8 + parsed->headerSize());
    flipped[at] = char(flipped[at] ^ 1);
    const QString damaged = dir.filePath(u"damaged.safetensors"_s);
    QVERIFY(writeBytes(damaged, flipped));
    // A checkpoint with a byte changed in its last section.
    const QString plain = as::test::testFile(u"data/v0.1/plain.ckpt"_s);
    QByteArray ckpt = readBytes(plain);
    QVERIFY(ckpt.size() > 1000);
    ckpt[ckpt.size() - 10] = char(ckpt[ckpt.size() - 10] ^ 0x55);
    const QString corrupt = dir.filePath(u"corrupt.ckpt"_s);
    QVERIFY(writeBytes(corrupt, ckpt));
    // A sound checkpoint of a built-in task this version does not have.
    std::optional<as::Checkpoint> ck = as::loadCheckpoint(plain, &error);
    QVERIFY2(ck, qPrintable(error));
    as::CheckpointRun run = ck->run;
    run.data.insert(u"kind"_s, u"task"_s);
    run.data.insert(u"task"_s, u"no-such-task"_s);
    const std::unique_ptr<as::Trainer> trainer = as::trainerFromCheckpoint(*ck);
    const QString unknown = dir.filePath(u"unknown-task.ckpt"_s);
    QVERIFY2(as::saveCheckpoint(unknown, *trainer, ck->model.srcVocab, ck->model.tgtVocab,
                                ck->model.srcTok, ck->model.tgtTok, run, ck->history, &error),
             qPrintable(error));

    // What the window says for each, in one language.
    auto messages = [&](const QString& language) {
        as::setLanguage(language);
        QStringList out;
        as::MainWindow w;
        w.show();
        QSignalSpy errors(&w, &as::MainWindow::fileError);
        for (const QString& path : {truncated, damaged, corrupt, unknown}) {
            errors.clear();
            w.files()->openFile(path);
            if (errors.isEmpty() && !errors.wait(60000))
                return out;
            out << errors.first().first().toString();
        }
        return out;
    };

    const QStringList zh = messages(u"zh_CN"_s);
    QCOMPARE(zh.size(), 4);
    const QList<QStringList> expected = {
        {u"未导入 truncated.safetensors"_s, u"张量“"_s, u"超出了数据末尾"_s},
        {u"未导入 damaged.safetensors"_s, u"权重与其校验和不匹配"_s, u"文件已损坏"_s},
        {u"未打开 corrupt.ckpt"_s, u"校验和不匹配（文件已损坏）"_s},
        {u"未打开 unknown-task.ckpt"_s, u"它没有指定内置任务（任务“no-such-task”"_s},
    };
    for (int i = 0; i < 4; ++i) {
        for (const QString& part : expected[i])
            QVERIFY2(zh[i].contains(part), qPrintable(zh[i] + u" lacks "_s + part));
        QVERIFY2(!hasEnglishSentence(zh[i]), qPrintable(u"English left in: "_s + zh[i]));
    }

    const QStringList en = messages(u"en"_s);
    QCOMPARE(en.size(), 4);
    const QList<QStringList> english = {
        {u"truncated.safetensors was not imported"_s, u"past the end of the data"_s},
        {u"damaged.safetensors was not imported"_s, u"the weights do not match their checksum"_s},
        {u"corrupt.ckpt was not opened"_s, u"checksum mismatch (the file is damaged)"_s},
        {u"unknown-task.ckpt was not opened"_s, u"it names no built-in task (task 'no-such-task'"_s},
    };
    for (int i = 0; i < 4; ++i)
        for (const QString& part : english[i])
            QVERIFY2(en[i].contains(part), qPrintable(en[i] + u" lacks "_s + part));

    // The command line under a Chinese locale: English.
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"LANG"_s, u"zh_CN.UTF-8"_s);
    env.insert(u"LC_ALL"_s, u"zh_CN.UTF-8"_s);
    const as::test::ProcessRun r = as::test::runProgram(
        as::test::cliProgram(), {u"translate"_s, u"--threads"_s, u"1"_s, u"--model"_s, damaged}, env,
        "1 2 3\n", 60000);
    QVERIFY2(r.finished && r.exitCode != 0
                 && QString::fromUtf8(r.err).contains(u"damaged.safetensors: the weights do not match their checksum"_s),
             qPrintable(as::test::describeRun(u"attention-studio-cli"_s, r)));
}

AS_TEST_MAIN(TestTranslations)
#include "test_translations.moc"
