// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/resume.h"

#include "run/make_session.h"
#include "text/lm_tasks.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QStringList>

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
                       {"probe_tgt", QJsonArray::fromStringList(probe.tgt)},
                       {"base_model", s.baseModel}};
}

SessionPlan recordedPlan(const Checkpoint& ck)
{
    const QJsonObject session = ck.run.session;
    SessionPlan p;
    p.steps = std::max(0L, long(session.value("planned_steps").toDouble(0)));
    p.seconds = std::max(0.0, session.value("planned_minutes").toDouble(0)) * 60.0;
    p.validEvery = std::max(0, session.value("eval_every").toInt(0));
    p.averagePoints = std::clamp(session.value("average").toInt(1), 1, 20);
    return p;
}

void readSessionRecord(const Checkpoint& ck, SessionSettings* s, TokenPair* probe)
{
    const QJsonObject session = ck.run.session;
    s->model = ck.model.config;
    s->train = ck.options;
    if (!gemmPrecisionAvailable(s->train.precision, nullptr))
        s->train.precision = GemmPrecision::Float32;  // as resumeSession continues it here
    s->plannedMinutes = std::max(0.0, session.value("planned_minutes").toDouble(0));
    // A run planned in minutes alone has no step limit (plannedLimits): 0 stays 0.
    const long steps = long(session.value("planned_steps").toDouble(double(ck.step)));
    s->plannedSteps = steps < 1 && s->plannedMinutes > 0 ? 0 : std::max(1L, steps);
    s->evalEvery = std::max(0, session.value("eval_every").toInt(s->evalEvery));
    s->averagePoints = std::clamp(session.value("average").toInt(s->averagePoints), 1, 20);
    s->probe = std::max(0, session.value("probe").toInt(0));
    s->baseModel = session.value("base_model").toString();
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
    if (!isTrainingTask(task) || size < 1
        || size > 1000000) {
        *error = QCoreApplication::translate("as::Resume", "it names no built-in task (task '%1', %2 %3)")
                     .arg(task, sizeKey, data.value(sizeKey).toVariant().toString());
        return false;
    }
    (corpus ? s->batchTokens : s->batchSize) = size;
    s->sharedVocab = data.value("shared_vocab").toBool(false);
    // The tokenisers the run chose, with the models it trained (in the checkpoint's model).
    if (data.contains("src_tok"))
        s->srcTok = ck.model.srcTok;
    if (data.contains("tgt_tok"))
        s->tgtTok = ck.model.tgtTok;
    s->modelText = savedModelText(ck);
    return true;
}

std::shared_ptr<const ModelText> savedModelText(const Checkpoint& ck)
{
    // A fine-tuning run: the text read with the model's vocabulary and tokeniser, as saved.
    const QJsonObject data = ck.run.data;
    if (!data.value("model_text").toBool(false))
        return nullptr;
    return modelTextOf(ck.model.config, ck.model.tgtVocab, ck.model.tgtTok, ck.model.srcVocab, ck.model.srcTok);
}

SessionSettings savedCorpusSettings(const Checkpoint& ck, std::shared_ptr<const SessionData> corpus,
                                    const CorpusSource& source, TokenPair* probe)
{
    SessionSettings s = SessionSettings::defaultsFor(corpus->name());
    s.task = corpus->name();
    s.corpus = std::move(corpus);
    s.source = source;
    readSessionRecord(ck, &s, probe);
    s.modelText = savedModelText(ck);  // a fine-tuning run on a corpus file
    s.batchTokens = ck.run.data.value("batch_tokens").toInt(s.batchTokens);
    if (std::optional<CorpusRun> run = CorpusRun::fromArgs(ck.run.data.value("args").toArray(), nullptr)) {
        s.batchTokens = run->recipe.batchTokens;
        if (!ck.run.session.contains("eval_every"))
            s.evalEvery = run->recipe.evalEvery;
    }
    return s;
}

QString checkSavedRunData(const SessionData& data, const Checkpoint& ck)
{
    if (savedRunKind(ck) == SavedRunKind::Task) {
        const QString task = ck.run.data.value("task").toString();
        if (isTextTaskName(task) && data.record().value("pairs_sha1") != ck.run.data.value("pairs_sha1"))
            return QCoreApplication::translate("as::Resume", "%1 is not the text the run was trained on: it changed since")
                .arg(task.mid(5));
        if (data.srcVocab().tokens() != ck.model.srcVocab.tokens()
            || data.tgtVocab().tokens() != ck.model.tgtVocab.tokens()
            || data.record().value("pairs_sha1") != ck.run.data.value("pairs_sha1"))
            return QCoreApplication::translate("as::Resume", "its data is not that of the built-in task '%1' in this version")
                .arg(task);
        return {};
    }
    if (QString why = checkSameData(data, ck.model.srcVocab, ck.model.tgtVocab, ck.run.data);
        !why.isEmpty())
        return why;
    if (ck.model.config.src_vocab != data.srcVocab().size()
        || ck.model.config.tgt_vocab != data.tgtVocab().size())
        return QCoreApplication::translate("as::Resume", "the corpus gives another vocabulary size");
    return {};
}

std::unique_ptr<Trainer> trainerFromCheckpoint(Checkpoint& ck)
{
    auto t = std::make_unique<Trainer>(std::move(ck.model.model), ck.options);
    t->adam().firstMoment() = std::move(ck.adamM);
    t->adam().secondMoment() = std::move(ck.adamV);
    t->adam().setSteps(ck.adamStep);
    t->restoreState(ck.step, ck.dropoutRng);
    return t;
}

std::unique_ptr<TrainingSession> resumeSession(std::unique_ptr<SessionData> data, Checkpoint& ck,
                                               const SessionPlan& plan, QString* error,
                                               QString* note)
{
    if (QString why = data->restorePosition(ck.run); !why.isEmpty()) {
        *error = QCoreApplication::translate("as::Resume", "the position in the data cannot be restored: %1").arg(why);
        return nullptr;
    }
    // The averaging snapshots belong to the plan they were taken for: resumed with another
    // (more steps, other minutes, another --average) the run averages afresh.
    const SessionPlan recorded = recordedPlan(ck);
    const bool samePlan = recorded.steps == plan.steps && recorded.seconds == plan.seconds
                          && recorded.averagePoints == plan.averagePoints;
    CheckpointRun progress = ck.run;
    if (!samePlan) {
        progress.averageTaken = 0;
        progress.averageSum = Eigen::VectorXd();
    }
    // A run trained in bfloat16 goes on in float32 on a machine without bfloat16 units, saying
    // so: its weights are float32 either way (core/SPEC.md §2.14).
    QStringList notes;
    if (QString why; !gemmPrecisionAvailable(ck.options.precision, &why)) {
        ck.options.precision = GemmPrecision::Float32;
        notes << QCoreApplication::translate("as::Resume", "the run trained in bfloat16, which cannot run here (%1): it "
                                                           "continues in float32")
                     .arg(why);
    }
    auto s = std::make_unique<TrainingSession>(std::move(data), trainerFromCheckpoint(ck), plan);
    s->restoreRecord(std::move(ck.history), ck.run.trainSeconds);
    const bool restored = s->restoreProgress(progress);
    if (note && plan.averagePoints > 1) {
        if (!ck.run.averageKnown)
            notes << QCoreApplication::translate("as::Resume", "the checkpoint was written before the averaging state was "
                                   "recorded: the averaging starts afresh");
        else if (!restored || (!samePlan && ck.run.averageTaken > 0))
            notes << QCoreApplication::translate("as::Resume", "the checkpoint's %n averaging snapshots were taken for "
                                   "another plan: the averaging starts afresh",
                                   nullptr, ck.run.averageTaken);
    }
    if (note)
        *note = notes.join(QStringLiteral("; "));
    return s;
}

}  // namespace as
