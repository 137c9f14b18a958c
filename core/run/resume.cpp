#include "run/resume.h"

#include <QJsonArray>

#include <algorithm>

namespace as {

SavedRunKind savedRunKind(const Checkpoint& ck)
{
    const QString kind = ck.run.data.value("kind").toString();
    if (kind == QLatin1String("task"))
        return SavedRunKind::Task;
    if (kind == QLatin1String("corpus"))
        return SavedRunKind::Corpus;
    return SavedRunKind::Inspection;
}

QJsonObject sessionRecord(const SessionSettings& s, const TokenPair& probe)
{
    return QJsonObject{{"planned_steps", double(s.plannedSteps)},
                       {"planned_minutes", s.plannedMinutes},
                       {"eval_every", s.evalEvery},
                       {"average", s.averagePoints},
                       {"probe", s.probe},
                       {"probe_src", QJsonArray::fromStringList(probe.src)},
                       {"probe_tgt", QJsonArray::fromStringList(probe.tgt)}};
}

void readSessionRecord(const Checkpoint& ck, SessionSettings* s, TokenPair* probe)
{
    const QJsonObject session = ck.run.session;
    s->model = ck.model.config;
    s->train = ck.options;
    s->plannedSteps = std::max(1L, long(session.value("planned_steps").toDouble(double(ck.step))));
    s->plannedMinutes = std::max(0.0, session.value("planned_minutes").toDouble(0));
    s->evalEvery = std::max(0, session.value("eval_every").toInt(s->evalEvery));
    s->averagePoints = std::clamp(session.value("average").toInt(s->averagePoints), 1, 20);
    s->probe = std::max(0, session.value("probe").toInt(0));
    for (const QJsonValue& v : session.value("probe_src").toArray())
        probe->src << v.toString();
    for (const QJsonValue& v : session.value("probe_tgt").toArray())
        probe->tgt << v.toString();
}

bool savedTaskSettings(const Checkpoint& ck, SessionSettings* s, TokenPair* probe, QString* error)
{
    const QJsonObject data = ck.run.data;
    const QString task = data.value("task").toString();
    *s = SessionSettings::defaultsFor(task);
    s->task = task;
    readSessionRecord(ck, s, probe);
    const bool corpus = isBundledCorpusTask(task);
    const QString sizeKey = corpus ? QStringLiteral("batch_tokens") : QStringLiteral("batch_size");
    const int size = data.value(sizeKey).toInt(0);
    if (!trainingTaskNames().contains(task) || size < 1 || size > 1000000) {
        *error = QStringLiteral("it names no built-in task (task '%1', %2 %3)")
                     .arg(task, sizeKey, data.value(sizeKey).toVariant().toString());
        return false;
    }
    (corpus ? s->batchTokens : s->batchSize) = size;
    return true;
}

QString checkSavedRunData(const SessionData& data, const Checkpoint& ck)
{
    if (savedRunKind(ck) == SavedRunKind::Task) {
        const QString task = ck.run.data.value("task").toString();
        if (data.srcVocab().tokens() != ck.model.srcVocab.tokens()
            || data.tgtVocab().tokens() != ck.model.tgtVocab.tokens()
            || data.record().value("pairs_sha1") != ck.run.data.value("pairs_sha1"))
            return QStringLiteral("its data is not that of the built-in task '%1' in this version")
                .arg(task);
        return {};
    }
    if (QString why = checkSameData(data, ck.model.srcVocab, ck.model.tgtVocab, ck.run.data);
        !why.isEmpty())
        return why;
    if (ck.model.config.src_vocab != data.srcVocab().size()
        || ck.model.config.tgt_vocab != data.tgtVocab().size())
        return QStringLiteral("the corpus gives another vocabulary size");
    return {};
}

std::unique_ptr<Trainer> trainerFromCheckpoint(Checkpoint& ck)
{
    return ck.takeTrainer();
}

std::unique_ptr<TrainingSession> resumeSession(std::unique_ptr<SessionData> data, Checkpoint& ck,
                                               const SessionPlan& plan, QString* error)
{
    if (QString why = data->restorePosition(ck.run); !why.isEmpty()) {
        *error = QStringLiteral("the position in the data cannot be restored: %1").arg(why);
        return nullptr;
    }
    auto s = std::make_unique<TrainingSession>(std::move(data), trainerFromCheckpoint(ck), plan);
    s->restoreRecord(std::move(ck.history), ck.run.trainSeconds);
    return s;
}

}  // namespace as
