// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Lesson files (core/run/lesson.h): a lesson written and read back is the same lesson; a bad
// file is refused with the field named; the lessons that come with the program read, in both
// languages. What each lesson tells the student happens is test_lesson_claims.
#include "skip.h"
#include "run/lesson.h"
#include "run/make_session.h"
#include "model/parallel.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace as;

class TestLesson : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { setEngineThreads(1); }
    void roundTrip();
    void badFilesNameTheField_data();
    void badFilesNameTheField();
    void textInALanguage();
    void lessonOfASession();
    void bundledLessonsRead();
};

namespace {

QByteArray minimal(const QJsonObject& extra = {})
{
    QJsonObject o{{"format", "attention-studio-lesson"}, {"version", 1}, {"title", "T"}, {"task", "toy"}};
    for (auto it = extra.begin(); it != extra.end(); ++it)
        o.insert(it.key(), it.value());
    return QJsonDocument(o).toJson();
}

}  // namespace

void TestLesson::roundTrip()
{
    Lesson l;
    l.title = {QStringLiteral("Heads"), QStringLiteral("注意力头")};
    l.notes = {QStringLiteral("# Notes\n\n*Look*"), {}};
    l.task = QStringLiteral("reverse");
    l.settings = QStringLiteral("norm=post,warmup=400");
    l.seed = 12345678901ULL;
    l.steps = 250;
    l.probe = QStringLiteral("w1 w2 w3");
    l.reference = QStringLiteral("w3 w2 w1");
    l.focus = {QStringLiteral("attention"), QStringLiteral("decoder.cross"), 2, 3};
    l.ab = QStringLiteral("warmup=1");
    l.stops = {{10, {QStringLiteral("loss"), {}, 0, 0}, {QStringLiteral("ten"), QStringLiteral("十")}},
               {250, {QStringLiteral("model"), {}, 1, 0}, {QStringLiteral("end"), {}}}};
    QString error;
    const std::optional<Lesson> back = parseLesson(lessonToJson(l), &error);
    QVERIFY2(back, qPrintable(error));
    QVERIFY(*back == l);
    // What it trains: the task's recipe with the spec, seed and steps over it.
    const std::optional<SessionSettings> s = lessonSettings(l, &error);
    QVERIFY2(s, qPrintable(error));
    const SessionSettings recipe = SessionSettings::defaultsFor(QStringLiteral("reverse"));
    QCOMPARE(s->task, QStringLiteral("reverse"));
    QVERIFY(s->model.norm == NormPlacement::Post);
    QCOMPARE(s->train.warmup, 400L);
    QCOMPARE(s->train.factor, recipe.train.factor);
    QCOMPARE(s->train.seed, quint64(12345678901ULL));
    QCOMPARE(s->plannedSteps, 250L);
    QCOMPARE(s->model.d_model, recipe.model.d_model);
    const std::optional<SessionSettings> b = lessonComparison(l, &error);
    QVERIFY2(b, qPrintable(error));
    QCOMPARE(b->train.warmup, 1L);
    QVERIFY(b->model.norm == NormPlacement::Post);
    QCOMPARE(b->train.seed, s->train.seed);
    QCOMPARE(b->plannedSteps, s->plannedSteps);
    // The smallest lesson: the recipe as it is.
    const std::optional<Lesson> m = parseLesson(minimal(), &error);
    QVERIFY2(m, qPrintable(error));
    QCOMPARE(lessonSettings(*m, &error)->plannedSteps, SessionSettings::defaultsFor(QStringLiteral("toy")).plannedSteps);
    QVERIFY(!m->seed);
    QVERIFY(m->stops.empty());
}

void TestLesson::badFilesNameTheField_data()
{
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("why");
    auto row = [](const char* name, const QByteArray& json, const char* field, const char* why) {
        QTest::newRow(name) << json << QString::fromUtf8(field) << QString::fromUtf8(why);
    };
    row("not json", "{\"format\": ", "file", "not JSON");
    row("a list", "[1, 2]", "file", "not a JSON object");
    row("too big", QByteArray(kMaxLessonBytes + 1, ' '), "file", "at most");
    QJsonObject noFormat = QJsonDocument::fromJson(minimal()).object();
    noFormat.remove("format");
    row("no format", QJsonDocument(noFormat).toJson(), "format", "attention-studio-lesson");
    row("newer", minimal({{"version", 2}}), "version", "newer");
    row("version text", minimal({{"version", "1"}}), "version", "whole number");
    QJsonObject noTitle = QJsonDocument::fromJson(minimal()).object();
    noTitle.remove("title");
    row("no title", QJsonDocument(noTitle).toJson(), "title", "missing");
    row("title without English", minimal({{"title", QJsonObject{{"zh_CN", "标题"}}}}), "title.en", "missing");
    row("title in French", minimal({{"title", QJsonObject{{"en", "T"}, {"fr", "T"}}}}), "title.fr", "unknown language");
    row("unknown field", minimal({{"colour", "red"}}), "colour", "unknown field");
    row("unknown task", minimal({{"task", "chess"}}), "task", "not a built-in task");
    row("bad settings", minimal({{"settings", "norm=sideways"}}), "settings", "norm");
    row("bad warm-up", minimal({{"settings", "warmup=0"}}), "settings", "warmup");
    row("bad A/B", minimal({{"ab", "factor=-1"}}), "ab", "factor");
    row("settings a number", minimal({{"settings", 3}}), "settings", "must be a text");
    row("seed negative", minimal({{"seed", -1}}), "seed", "whole number");
    row("steps fraction", minimal({{"steps", 1.5}}), "steps", "whole number");
    row("steps zero", minimal({{"steps", 0}}), "steps", "whole number");
    row("unknown view", minimal({{"view", "charts"}}), "view.view", "not a view");
    row("unknown kind", minimal({{"view", QJsonObject{{"view", "attention"}, {"kind", "encoder.cross"}}}}), "view.kind",
        "not an attention kind");
    row("layer 0", minimal({{"view", QJsonObject{{"view", "attention"}, {"layer", 0}}}}), "view.layer", "whole number");
    row("layer past the model", minimal({{"view", QJsonObject{{"view", "attention"}, {"kind", "encoder.self"}, {"layer", 9}}}}),
        "view.layer", "the model has");
    row("head past the model", minimal({{"view", QJsonObject{{"view", "attention"}, {"head", 99}}}}), "view.head",
        "the model has");
    row("reference without a probe", minimal({{"reference", "I have"}}), "reference", "goes with a probe");
    row("stops not a list", minimal({{"stops", "later"}}), "stops", "must be a list");
    row("stop without text", minimal({{"stops", QJsonArray{QJsonObject{{"step", 5}}}}}), "stops[0].text", "missing");
    row("stops out of order",
        minimal({{"stops", QJsonArray{QJsonObject{{"step", 20}, {"text", "a"}}, QJsonObject{{"step", 20}, {"text", "b"}}}}}),
        "stops[1].step", "not after");
    row("stop past the plan", minimal({{"steps", 50}, {"stops", QJsonArray{QJsonObject{{"step", 60}, {"text", "a"}}}}}),
        "stops[0].step", "past the lesson's 50 planned steps");
    row("stop's unknown field", minimal({{"stops", QJsonArray{QJsonObject{{"step", 5}, {"text", "a"}, {"when", 1}}}}}),
        "stops[0].when", "unknown field");
}

void TestLesson::badFilesNameTheField()
{
    QFETCH(QByteArray, json);
    QFETCH(QString, field);
    QFETCH(QString, why);
    QString error;
    QVERIFY(!parseLesson(json, &error));
    QVERIFY2(error.startsWith(field + QStringLiteral(": ")), qPrintable(error));
    QVERIFY2(error.contains(why), qPrintable(error));
}

void TestLesson::textInALanguage()
{
    const LessonText both{QStringLiteral("Loss"), QStringLiteral("损失")}, english{QStringLiteral("Loss"), {}};
    QCOMPARE(both.in(QStringLiteral("zh_CN")), QStringLiteral("损失"));
    QCOMPARE(both.in(QStringLiteral("zh")), QStringLiteral("损失"));
    QCOMPARE(both.in(QStringLiteral("en")), QStringLiteral("Loss"));
    QCOMPARE(both.in(QStringLiteral("de_DE")), QStringLiteral("Loss"));
    QCOMPARE(english.in(QStringLiteral("zh_CN")), QStringLiteral("Loss"));
}

// Save as lesson: the lesson trains what the session trains (model, schedule, seed, plan).
void TestLesson::lessonOfASession()
{
    SessionSettings s = SessionSettings::defaultsFor(QStringLiteral("reverse"));
    QString error;
    QVERIFY(applySettingsSpec(QStringLiteral("norm=post,d_ff=48,dropout=0.25,warmup=77,factor=1.5,clip_norm=0.5"), &s, &error));
    s.train.seed = 99;
    s.plannedSteps = 123;
    const std::optional<Lesson> l = lessonOfSession(s, &error);
    QVERIFY2(l, qPrintable(error));
    // Only what differs from the recipe is written.
    QCOMPARE(l->settings, QStringLiteral("d_ff=48,dropout=0.25,norm=post,warmup=77,factor=1.5,clip_norm=0.5"));
    const std::optional<Lesson> back = parseLesson(lessonToJson(*l), &error);
    QVERIFY2(back, qPrintable(error));
    const std::optional<SessionSettings> t = lessonSettings(*back, &error);
    QVERIFY2(t, qPrintable(error));
    QVERIFY(t->model == s.model);
    QCOMPARE(t->train.warmup, s.train.warmup);
    QCOMPARE(t->train.factor, s.train.factor);
    QCOMPARE(t->train.clipNorm, s.train.clipNorm);
    QCOMPARE(t->train.seed, s.train.seed);
    QCOMPARE(t->plannedSteps, s.plannedSteps);
    // The recipe as it is: no settings at all.
    QCOMPARE(lessonOfSession(SessionSettings::defaultsFor(QStringLiteral("toy")), &error)->settings, QString());
    // A session that is no built-in task cannot be a lesson.
    SessionSettings opened = s;
    opened.task = QStringLiteral("model:/tmp/x.safetensors");
    QVERIFY(!lessonOfSession(opened, &error));
    QVERIFY2(error.contains(QStringLiteral("built-in tasks")), qPrintable(error));
}

void TestLesson::bundledLessonsRead()
{
    const QStringList paths = bundledLessonPaths();
    QVERIFY2(paths.size() >= 3, qPrintable(paths.join(' ')));
    for (const QString& p : paths) {
        QFile f(p);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QString error;
        const std::optional<Lesson> l = parseLesson(f.readAll(), &error);
        QVERIFY2(l, qPrintable(p + QStringLiteral(": ") + error));
        // In English and Chinese, everything the student reads.
        QVERIFY2(!l->title.zh.isEmpty() && !l->notes.zh.isEmpty() && !l->notes.en.isEmpty(), qPrintable(p));
        for (const LessonStop& s : l->stops)
            QVERIFY2(!s.text.zh.isEmpty() && !s.text.en.isEmpty(), qPrintable(p));
    }
}

AS_TEST_GUILESS_MAIN(TestLesson)
#include "test_lesson.moc"
