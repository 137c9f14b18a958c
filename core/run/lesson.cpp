// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/lesson.h"

#include "eval/interpret.h"
#include "text/tasks.h"

#include <QCoreApplication>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace as {

namespace {

const QLatin1String kFormat("attention-studio-lesson");
constexpr double kMaxSteps = 1e9;

// The reader's state: the first problem, named by the field's path.
struct Reader {
    QString error;
    bool fail(const QString& field, const QString& why)
    {
        if (error.isEmpty())
            error = QStringLiteral("%1: %2").arg(field, why);
        return false;
    }
};

bool readText(Reader& r, const QJsonValue& v, const QString& field, LessonText* out, bool required)
{
    if (v.isUndefined()) {
        return required ? r.fail(field, QCoreApplication::translate("as::Lesson", "missing")) : true;
    }
    if (v.isString()) {
        out->en = v.toString();
        return true;
    }
    if (!v.isObject())
        return r.fail(field, QCoreApplication::translate("as::Lesson", "must be a text or {\"en\": …, \"zh_CN\": …}"));
    const QJsonObject o = v.toObject();
    for (auto it = o.begin(); it != o.end(); ++it)
        if (it.key() != QLatin1String("en") && it.key() != QLatin1String("zh_CN"))
            return r.fail(field + QLatin1Char('.') + it.key(), QCoreApplication::translate("as::Lesson", "unknown language (en or zh_CN)"));
        else if (!it.value().isString())
            return r.fail(field + QLatin1Char('.') + it.key(), QCoreApplication::translate("as::Lesson", "must be a text"));
    if (!o.value(QLatin1String("en")).isString())
        return r.fail(field + QStringLiteral(".en"), QCoreApplication::translate("as::Lesson", "missing (every text has an English one)"));
    out->en = o.value(QLatin1String("en")).toString();
    out->zh = o.value(QLatin1String("zh_CN")).toString();
    return true;
}

QJsonValue textJson(const LessonText& t)
{
    if (t.zh.isEmpty())
        return t.en;
    return QJsonObject{{"en", t.en}, {"zh_CN", t.zh}};
}

bool readWhole(Reader& r, const QJsonValue& v, const QString& field, double min, double max, double* out)
{
    const double x = v.toDouble(std::nan(""));
    if (!v.isDouble() || !std::isfinite(x) || x != std::floor(x) || x < min || x > max)
        return r.fail(field, QCoreApplication::translate("as::Lesson", "must be a whole number from %1 to %2").arg(qint64(min)).arg(qint64(max)));
    *out = x;
    return true;
}

bool readFocus(Reader& r, const QJsonValue& v, const QString& field, LessonFocus* out)
{
    if (v.isUndefined())
        return true;
    QJsonObject o;
    if (v.isString())
        o.insert(QStringLiteral("view"), v);
    else if (v.isObject())
        o = v.toObject();
    else
        return r.fail(field, QCoreApplication::translate("as::Lesson", "must be a view name or {\"view\": …, \"kind\": …, \"layer\": …, \"head\": …}"));
    for (auto it = o.begin(); it != o.end(); ++it)
        if (!QStringList{"view", "kind", "layer", "head"}.contains(it.key()))
            return r.fail(field + QLatin1Char('.') + it.key(), QCoreApplication::translate("as::Lesson", "unknown field"));
    const QString view = o.value(QLatin1String("view")).toString();
    if (!lessonViewNames().contains(view))
        return r.fail(field + QStringLiteral(".view"),
                      QCoreApplication::translate("as::Lesson", "'%1' is not a view (%2)").arg(view, lessonViewNames().join(QStringLiteral(", "))));
    out->view = view;
    if (o.contains(QLatin1String("kind"))) {
        const QString kind = o.value(QLatin1String("kind")).toString();
        if (!attentionKindFromName(kind))
            return r.fail(field + QStringLiteral(".kind"),
                          QCoreApplication::translate("as::Lesson", "'%1' is not an attention kind (encoder.self, decoder.self, decoder.cross)").arg(kind));
        out->kind = kind;
    }
    double x = 0;
    if (o.contains(QLatin1String("layer"))) {
        if (!readWhole(r, o.value(QLatin1String("layer")), field + QStringLiteral(".layer"), 1, 64, &x))
            return false;
        out->layer = int(x);
    }
    if (o.contains(QLatin1String("head"))) {
        if (!readWhole(r, o.value(QLatin1String("head")), field + QStringLiteral(".head"), 1, 256, &x))
            return false;
        out->head = int(x);
    }
    return true;
}

QJsonValue focusJson(const LessonFocus& f)
{
    if (f.kind.isEmpty() && f.layer == 0 && f.head == 0)
        return f.view;
    QJsonObject o{{"view", f.view}};
    if (!f.kind.isEmpty())
        o.insert("kind", f.kind);
    if (f.layer > 0)
        o.insert("layer", f.layer);
    if (f.head > 0)
        o.insert("head", f.head);
    return o;
}

// A focus's layer and head exist in the lesson's model.
bool checkFocus(Reader& r, const LessonFocus& f, const QString& field, const ModelConfig& m)
{
    const int layers = f.kind == QLatin1String("encoder.self") ? m.encoder_layers
                       : f.kind.isEmpty() ? std::max(m.encoder_layers, m.decoder_layers) : m.decoder_layers;
    if (f.layer > layers)
        return r.fail(field + QStringLiteral(".layer"), QCoreApplication::translate("as::Lesson", "the model has %1 layers").arg(layers));
    if (f.head > m.heads)
        return r.fail(field + QStringLiteral(".head"), QCoreApplication::translate("as::Lesson", "the model has %1 heads").arg(m.heads));
    return true;
}

}  // namespace

QString LessonText::in(const QString& language) const
{
    return language.startsWith(QLatin1String("zh")) && !zh.isEmpty() ? zh : en;
}

QStringList lessonViewNames()
{
    return {"loss", "learning-rate", "positional-encoding", "attention", "translate", "samples",
            "masks", "heads", "head-dynamics", "health", "embeddings", "model", "decoding",
            "induction-heads"};
}

std::optional<Lesson> parseLesson(const QByteArray& json, QString* error)
{
    Reader r;
    auto done = [&]() -> std::optional<Lesson> {
        *error = r.error;
        return std::nullopt;
    };
    if (json.size() > kMaxLessonBytes) {
        r.fail(QStringLiteral("file"), QCoreApplication::translate("as::Lesson", "%1 bytes; a lesson is at most %2").arg(json.size()).arg(kMaxLessonBytes));
        return done();
    }
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
    if (pe.error != QJsonParseError::NoError) {
        r.fail(QStringLiteral("file"), QCoreApplication::translate("as::Lesson", "not JSON (%1 at byte %2)").arg(pe.errorString()).arg(pe.offset));
        return done();
    }
    if (!doc.isObject()) {
        r.fail(QStringLiteral("file"), QCoreApplication::translate("as::Lesson", "not a JSON object"));
        return done();
    }
    const QJsonObject o = doc.object();
    static const QStringList known = {"format", "version", "title", "notes", "task", "settings", "seed",
                                      "steps", "probe", "reference", "view", "ab", "stops"};
    for (auto it = o.begin(); it != o.end(); ++it)
        if (!known.contains(it.key())) {
            r.fail(it.key(), QCoreApplication::translate("as::Lesson", "unknown field"));
            return done();
        }
    if (o.value(QLatin1String("format")).toString() != kFormat) {
        r.fail(QStringLiteral("format"), QCoreApplication::translate("as::Lesson", "must be \"%1\"").arg(kFormat));
        return done();
    }
    double x = 0;
    if (!readWhole(r, o.value(QLatin1String("version")), QStringLiteral("version"), 1, 1e6, &x))
        return done();
    if (x > kLessonVersion) {
        r.fail(QStringLiteral("version"),
               QCoreApplication::translate("as::Lesson", "%1 is newer than this program reads (%2): update Attention Studio").arg(x).arg(kLessonVersion));
        return done();
    }
    Lesson l;
    if (!readText(r, o.value(QLatin1String("title")), QStringLiteral("title"), &l.title, true)
        || !readText(r, o.value(QLatin1String("notes")), QStringLiteral("notes"), &l.notes, false))
        return done();
    l.task = o.value(QLatin1String("task")).toString();
    if (!isTrainingTask(l.task)) {
        r.fail(QStringLiteral("task"), QCoreApplication::translate("as::Lesson", "'%1' is not a built-in task (%2)")
                                           .arg(l.task, trainingTaskNames().join(QStringLiteral(", "))));
        return done();
    }
    for (const char* key : {"settings", "probe", "reference", "ab"}) {
        const QJsonValue v = o.value(QLatin1String(key));
        if (!v.isUndefined() && !v.isString()) {
            r.fail(QLatin1String(key), QCoreApplication::translate("as::Lesson", "must be a text"));
            return done();
        }
    }
    l.settings = o.value(QLatin1String("settings")).toString();
    l.probe = o.value(QLatin1String("probe")).toString();
    l.ab = o.value(QLatin1String("ab")).toString();
    l.reference = o.value(QLatin1String("reference")).toString();
    if (!l.reference.isEmpty() && l.probe.isEmpty()) {
        r.fail(QStringLiteral("reference"), QCoreApplication::translate("as::Lesson", "a reference goes with a probe"));
        return done();
    }
    if (o.contains(QLatin1String("seed"))) {
        if (!readWhole(r, o.value(QLatin1String("seed")), QStringLiteral("seed"), 0, 9007199254740991.0, &x))
            return done();
        l.seed = quint64(x);
    }
    if (o.contains(QLatin1String("steps"))) {
        if (!readWhole(r, o.value(QLatin1String("steps")), QStringLiteral("steps"), 1, kMaxSteps, &x))
            return done();
        l.steps = long(x);
    }
    if (!readFocus(r, o.value(QLatin1String("view")), QStringLiteral("view"), &l.focus))
        return done();
    const QJsonValue stops = o.value(QLatin1String("stops"));
    if (!stops.isUndefined() && !stops.isArray()) {
        r.fail(QStringLiteral("stops"), QCoreApplication::translate("as::Lesson", "must be a list"));
        return done();
    }
    const QJsonArray a = stops.toArray();
    for (int i = 0; i < a.size(); ++i) {
        const QString field = QStringLiteral("stops[%1]").arg(i);
        if (!a[i].isObject()) {
            r.fail(field, QCoreApplication::translate("as::Lesson", "must be {\"step\": …, \"view\": …, \"text\": …}"));
            return done();
        }
        const QJsonObject so = a[i].toObject();
        for (auto it = so.begin(); it != so.end(); ++it)
            if (!QStringList{"step", "view", "text"}.contains(it.key())) {
                r.fail(field + QLatin1Char('.') + it.key(), QCoreApplication::translate("as::Lesson", "unknown field"));
                return done();
            }
        LessonStop s;
        if (!readWhole(r, so.value(QLatin1String("step")), field + QStringLiteral(".step"), 1, kMaxSteps, &x))
            return done();
        s.step = long(x);
        if (!readFocus(r, so.value(QLatin1String("view")), field + QStringLiteral(".view"), &s.focus)
            || !readText(r, so.value(QLatin1String("text")), field + QStringLiteral(".text"), &s.text, true))
            return done();
        if (!l.stops.empty() && s.step <= l.stops.back().step) {
            r.fail(field + QStringLiteral(".step"), QCoreApplication::translate("as::Lesson", "%1 is not after the stop before it (%2)").arg(s.step).arg(l.stops.back().step));
            return done();
        }
        l.stops.push_back(s);
    }
    // The run itself: the settings apply to the task's model, the views' layers and heads exist,
    // and every stop comes within the plan.
    QString why;
    const std::optional<SessionSettings> s = lessonSettings(l, &why);
    if (!s) {
        r.fail(QStringLiteral("settings"), why);
        return done();
    }
    if (!l.ab.isEmpty() && !lessonComparison(l, &why)) {
        r.fail(QStringLiteral("ab"), why);
        return done();
    }
    if (!checkFocus(r, l.focus, QStringLiteral("view"), s->model))
        return done();
    for (std::size_t i = 0; i < l.stops.size(); ++i) {
        const QString field = QStringLiteral("stops[%1]").arg(i);
        if (!checkFocus(r, l.stops[i].focus, field + QStringLiteral(".view"), s->model))
            return done();
        if (l.stops[i].step > s->plannedSteps) {
            r.fail(field + QStringLiteral(".step"),
                   QCoreApplication::translate("as::Lesson", "%1 is past the lesson's %2 planned steps").arg(l.stops[i].step).arg(s->plannedSteps));
            return done();
        }
    }
    return l;
}

QByteArray lessonToJson(const Lesson& l)
{
    QJsonObject o{{"format", QString(kFormat)}, {"version", kLessonVersion}, {"title", textJson(l.title)},
                  {"task", l.task}};
    if (!l.notes.en.isEmpty() || !l.notes.zh.isEmpty())
        o.insert("notes", textJson(l.notes));
    if (!l.settings.isEmpty())
        o.insert("settings", l.settings);
    if (l.seed)
        o.insert("seed", double(*l.seed));
    if (l.steps > 0)
        o.insert("steps", double(l.steps));
    if (!l.probe.isEmpty())
        o.insert("probe", l.probe);
    if (!l.reference.isEmpty())
        o.insert("reference", l.reference);
    if (!l.focus.view.isEmpty())
        o.insert("view", focusJson(l.focus));
    if (!l.ab.isEmpty())
        o.insert("ab", l.ab);
    if (!l.stops.empty()) {
        QJsonArray a;
        for (const LessonStop& s : l.stops) {
            QJsonObject so{{"step", double(s.step)}, {"text", textJson(s.text)}};
            if (!s.focus.view.isEmpty())
                so.insert("view", focusJson(s.focus));
            a.append(so);
        }
        o.insert("stops", a);
    }
    return QJsonDocument(o).toJson(QJsonDocument::Indented);
}

std::optional<SessionSettings> lessonSettings(const Lesson& l, QString* error)
{
    if (!isTrainingTask(l.task)) {
        *error = QCoreApplication::translate("as::Lesson", "'%1' is not a built-in task").arg(l.task);
        return std::nullopt;
    }
    SessionSettings s = SessionSettings::defaultsFor(l.task);
    if (!applySettingsSpec(l.settings, &s, error))
        return std::nullopt;
    if (l.seed)
        s.train.seed = *l.seed;
    if (l.steps > 0)
        s.plannedSteps = l.steps;
    return s;
}

std::optional<SessionSettings> lessonComparison(const Lesson& l, QString* error)
{
    std::optional<SessionSettings> a = lessonSettings(l, error);
    if (!a)
        return std::nullopt;
    SessionSettings b = *a;
    if (!applySettingsSpec(l.ab, &b, error))
        return std::nullopt;
    return comparisonOf(*a, b);
}

std::optional<Lesson> lessonOfSession(const SessionSettings& s, QString* error)
{
    if (!isTrainingTask(s.task) || s.userCorpus()) {
        *error = QCoreApplication::translate("as::Lesson", "a lesson trains one of the built-in tasks (%1); this session is not one of them")
                     .arg(trainingTaskNames().join(QStringLiteral(", ")));
        return std::nullopt;
    }
    Lesson l;
    l.task = s.task;
    l.settings = settingsSpecOver(s, SessionSettings::defaultsFor(s.task));
    l.seed = s.train.seed;
    l.steps = s.plannedSteps;
    return l;
}

QStringList bundledLessonPaths()
{
    QStringList out;
    const QDir dir(QStringLiteral(":/lessons"));
    for (const QString& f : dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
        out << dir.filePath(f);
    return out;
}

}  // namespace as
