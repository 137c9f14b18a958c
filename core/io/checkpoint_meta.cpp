// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/checkpoint_meta.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace as {

namespace {

// Largest integer a JSON number holds exactly.
constexpr double kMaxJsonInt = 9007199254740992.0;

struct MetaParser {
    QJsonObject o;
    QString error;

    bool fail(const QString& what)
    {
        error = what;
        return false;
    }
    bool number(const QJsonObject& obj, const char* key, double lo, double hi, double* out,
                const char* where = "")
    {
        const QJsonValue v = obj.value(QLatin1String(key));
        if (!v.isDouble())
            return fail(QCoreApplication::translate("as::Checkpoint", "'%1%2' is missing or not a number").arg(QLatin1String(where), QLatin1String(key)));
        const double d = v.toDouble();
        if (!(d >= lo && d <= hi))
            return fail(QCoreApplication::translate("as::Checkpoint", "'%1%2' is %3, not in [%4, %5]")
                            .arg(QLatin1String(where), QLatin1String(key))
                            .arg(d)
                            .arg(lo)
                            .arg(hi));
        *out = d;
        return true;
    }
    bool whole(const QJsonObject& obj, const char* key, double hi, double* out, const char* where = "")
    {
        if (!number(obj, key, 0, hi, out, where))
            return false;
        if (*out != std::floor(*out))
            return fail(QCoreApplication::translate("as::Checkpoint", "'%1%2' is %3, not a whole number").arg(QLatin1String(where), QLatin1String(key)).arg(*out));
        return true;
    }
    bool rng(const QJsonObject& obj, const char* key, Rng::State* out)
    {
        const std::optional<Rng::State> s = rngStateFromHex(obj.value(QLatin1String(key)).toString());
        if (!s)
            return fail(QCoreApplication::translate("as::Checkpoint", "'rng.%1' must be 64 hex digits, not all zero").arg(QLatin1String(key)));
        *out = *s;
        return true;
    }

    bool parse(Checkpoint* c)
    {
        if (o.value("format").toString() != QLatin1String("attention-studio-checkpoint"))
            return fail(QCoreApplication::translate("as::Checkpoint", "'format' is not \"attention-studio-checkpoint\""));
        double step, adamStep, epoch, position;
        if (!whole(o, "step", kMaxJsonInt, &step) || !whole(o, "adam_step", kMaxJsonInt, &adamStep)
            || !whole(o, "epoch", 2147483647.0, &epoch) || !whole(o, "position", kMaxJsonInt, &position)
            || !number(o, "train_seconds", 0, 1e12, &c->run.trainSeconds))
            return false;
        // Format 3 on: the busy time and the averaging snapshots taken (the sum is a section).
        c->run.busySeconds = c->run.trainSeconds;
        c->run.averageKnown = o.contains("average_taken");
        if (o.contains("busy_seconds") && !number(o, "busy_seconds", 0, 1e12, &c->run.busySeconds))
            return false;
        double taken = 0;
        if (c->run.averageKnown && !whole(o, "average_taken", 1000, &taken))
            return false;
        c->run.averageTaken = int(taken);
        c->step = long(step);
        c->adamStep = long(adamStep);
        c->run.epoch = int(epoch);
        c->run.position = qint64(position);

        if (!o.value("options").isObject())
            return fail(QCoreApplication::translate("as::Checkpoint", "'options' is missing or not an object"));
        const QJsonObject opt = o.value("options").toObject();
        double warmup;
        if (!number(opt, "factor", 1e-12, 1e12, &c->options.factor, "options.")
            || !whole(opt, "warmup", 1e15, &warmup, "options.")
            || !number(opt, "clip_norm", 0, 1e30, &c->options.clipNorm, "options."))
            return false;
        if (warmup < 1)
            return fail(QCoreApplication::translate("as::Checkpoint", "'options.warmup' is 0; it must be at least 1"));
        c->options.warmup = long(warmup);
        // Since the precision setting: absent in earlier checkpoints, which trained in float32.
        if (opt.contains("precision")
            && !gemmPrecisionFromName(opt.value("precision").toString(), &c->options.precision))
            return fail(QCoreApplication::translate("as::Checkpoint", "'options.precision' must be \"float32\" or \"bf16\""));
        bool ok = false;
        c->options.seed = opt.value("seed").toString().toULongLong(&ok);
        if (!ok)
            return fail(QCoreApplication::translate("as::Checkpoint", "'options.seed' must be a decimal string of a 64-bit seed"));

        if (!o.value("rng").isObject())
            return fail(QCoreApplication::translate("as::Checkpoint", "'rng' is missing or not an object"));
        const QJsonObject rngs = o.value("rng").toObject();
        if (!rng(rngs, "dropout", &c->dropoutRng) || !rng(rngs, "data", &c->run.dataRng))
            return false;
        for (const char* key : {"data", "session"})
            if (!o.value(QLatin1String(key)).isObject())
                return fail(QCoreApplication::translate("as::Checkpoint", "'%1' is missing or not an object").arg(QLatin1String(key)));
        c->run.data = o.value("data").toObject();
        c->run.session = o.value("session").toObject();
        return true;
    }
};

}  // namespace

QString rngStateToHex(const Rng::State& s)
{
    QString out;
    for (std::uint64_t w : s)
        out += QStringLiteral("%1").arg(quint64(w), 16, 16, QChar('0'));
    return out;
}

std::optional<Rng::State> rngStateFromHex(const QString& hex)
{
    if (hex.size() != 64)
        return std::nullopt;
    Rng::State s{};
    for (int i = 0; i < 4; ++i) {
        bool ok = false;
        const QString word = hex.mid(i * 16, 16);
        for (QChar ch : word)
            if (!ch.isDigit() && !(ch.toLower() >= QChar('a') && ch.toLower() <= QChar('f')))
                return std::nullopt;
        s[std::size_t(i)] = word.toULongLong(&ok, 16);
        if (!ok)
            return std::nullopt;
    }
    if (s == Rng::State{})  // xoshiro's one invalid state: it would only ever return 0
        return std::nullopt;
    return s;
}

QByteArray checkpointMetaBytes(const Trainer& t, const CheckpointRun& run)
{
    const TrainOptions& o = t.options();
    QJsonObject options{{"factor", o.factor},
                        {"warmup", double(o.warmup)},
                        {"seed", QString::number(o.seed)},
                        {"clip_norm", o.clipNorm},
                        {"precision", QLatin1String(gemmPrecisionArgument(o.precision))}};
    QJsonObject rng{{"dropout", rngStateToHex(t.dropoutRngState())},
                    {"data", rngStateToHex(run.dataRng)}};
    QJsonObject meta{{"format", "attention-studio-checkpoint"},
                     {"step", double(t.stepCount())},
                     {"adam_step", double(t.adam().steps())},
                     {"options", options},
                     {"rng", rng},
                     {"epoch", run.epoch},
                     {"position", double(run.position)},
                     {"train_seconds", run.trainSeconds},
                     {"busy_seconds", run.busySeconds},
                     {"average_taken", run.averageTaken},
                     {"data", run.data},
                     {"session", run.session},
                     {"saved_at", QDateTime::currentDateTimeUtc().toString(Qt::ISODate)}};
    return QJsonDocument(meta).toJson(QJsonDocument::Indented);
}

bool parseCheckpointMeta(const QByteArray& json, Checkpoint* c, QString* error)
{
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
        if (error)
            *error = QCoreApplication::translate("as::Checkpoint", "not a JSON object (%1)").arg(pe.errorString());
        return false;
    }
    MetaParser mp{doc.object(), {}};
    if (mp.parse(c))
        return true;
    if (error)
        *error = mp.error;
    return false;
}

}  // namespace as
