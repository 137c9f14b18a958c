// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The worker's file jobs (training_worker.h): checkpoints saved, opened and continued (a task's
// run, a corpus run on the corpus the window found), weight files imported and exported; a file
// that is not trained on further is opened for inspection.
#include "training_worker.h"

#include "eval/induction.h"
#include "io/hub_model.h"
#include "run/make_session.h"
#include "run/resume.h"

#include <QFileInfo>

namespace as {

bool TrainingWorker::resumeOn(SessionSettings s, std::unique_ptr<SessionData> data, Checkpoint& ck,
                              TokenPair probe, const QString& path, bool autosave)
{
    const int examples = int(data->examples().size());
    s.probe = std::clamp(s.probe, 0, std::max(0, examples - 1));
    if (probe.src.isEmpty() && examples > 0)
        probe = data->examples().at(std::size_t(s.probe));
    QString error;
    std::unique_ptr<TrainingSession> resumed =
        resumeSession(std::move(data), ck, s.plan(), &error);
    if (!resumed) {
        emit checkpointFailed(tr("%1 was not opened: %2").arg(QFileInfo(path).fileName(), error));
        return false;
    }
    // Commit: from here on the session is the checkpoint's.
    const bool wasRunning = adoptSession(s, std::move(resumed), probe);
    if (wasRunning)
        emit runningChanged(false);
    emit sessionLoaded(settings_, std::make_shared<const Task>(session_->data().description()),
                       path, session_->stepCount(), autosave);
    emitSnapshot();
    return true;
}

void TrainingWorker::resumeCorpus(std::shared_ptr<const SessionData> corpus, const CorpusSource& source,
                                  std::shared_ptr<Checkpoint> ck, const QString& path, bool autosave)
{
    TokenPair probe;
    const SessionSettings s = savedCorpusSettings(*ck, std::move(corpus), source, &probe);
    QString error;
    std::unique_ptr<SessionData> data = makeSessionData(s, &error);
    if (!data) {
        emit checkpointFailed(tr("%1 was not opened: %2").arg(QFileInfo(path).fileName(), error));
        return;
    }
    resumeOn(s, std::move(data), *ck, probe, path, autosave);
}

void TrainingWorker::saveCheckpoint(const QString& path, bool autosave)
{
    if (!session_) {
        emit checkpointFailed(tr("There is no model to save."));
        return;
    }
    validations_->finish();
    QString error;
    if (!session_->saveCheckpoint(path, sessionRecord(settings_, probe_), &error)) {
        emit checkpointFailed(error);
        return;
    }
    emit checkpointSaved(path, session_->stepCount(), autosave);
}

void TrainingWorker::loadCheckpoint(const QString& path, bool autosave)
{
    // Everything is read and checked before anything of the running session changes.
    QString error;
    std::optional<Checkpoint> ck = as::loadCheckpoint(path, &error);
    auto fail = [&](const QString& why) {
        emit checkpointFailed(tr("%1 was not opened: %2").arg(QFileInfo(path).fileName(), why));
    };
    if (!ck) {
        fail(error);
        return;
    }
    const QJsonObject data = ck->run.data;
    const SavedRunKind kind = savedRunKind(*ck);
    if (kind != SavedRunKind::Task) {
        // A corpus run (the command line's or the window's) or a saved inspection: shown as it
        // is, history and all. For a corpus run the window then looks for its corpus and, if
        // it finds it, continues it (resumeCorpus).
        SessionSettings ignored;
        TokenPair probe;
        readSessionRecord(*ck, &ignored, &probe);
        if (probe.src.isEmpty() && !ck->history.attention.empty()) {
            const AttentionRecord& last = *ck->history.attention.back();
            probe = {last.srcTokens, last.tgtTokens.mid(1)};  // without "<s>"
        }
        const double seconds = ck->run.trainSeconds;
        TrainingHistory history = std::move(ck->history);
        std::unique_ptr<Trainer> trainer = trainerFromCheckpoint(*ck);
        beginInspection(ck->model, std::move(trainer), probe, std::move(history), seconds, path,
                        autosave, kind == SavedRunKind::Corpus ? data : QJsonObject{});
        return;
    }
    SessionSettings s;
    TokenPair probe;
    if (!savedTaskSettings(*ck, &s, &probe, &error)) {
        fail(error);
        return;
    }
    std::unique_ptr<SessionData> taskData = makeSessionData(s, &error);
    if (!taskData) {
        fail(error);
        return;
    }
    if (QString why = checkSavedRunData(*taskData, *ck); !why.isEmpty()) {
        fail(why);
        return;
    }
    resumeOn(s, std::move(taskData), *ck, probe, path, autosave);
}

void TrainingWorker::importWeights(const QString& path, const ImportOptions& options)
{
    QString error;
    QStringList notes;
    std::optional<ModelBundle> b = as::importWeights(path, options, &notes, &error);
    if (!b) {
        emit checkpointFailed(tr("%1 was not imported: %2").arg(QFileInfo(path).fileName(), error));
        return;
    }
    auto trainer = std::make_unique<Trainer>(std::move(b->model), TrainOptions{});
    if (b->provenance.step > 0)  // the step its metadata records (the views show it)
        trainer->restoreState(b->provenance.step, trainer->dropoutRngState());
    beginInspection(*b, std::move(trainer), {}, {}, 0, path, true);
}

void TrainingWorker::openHubModel(const QString& path)
{
    QString error;
    std::optional<ModelBundle> b = loadHubModel(path, &error);
    if (!b) {
        emit checkpointFailed(tr("%1 was not opened: %2").arg(QFileInfo(path).fileName(), error));
        return;
    }
    // Its induction heads (core/SPEC.md §13), measured once: an opened model has no
    // validations to measure them at.
    TrainingHistory history;
    if (b->config.decoderOnly() && b->config.tgt_vocab >= kInductionMinVocab) {
        auto r = std::make_shared<InductionRecord>(
            measureInduction(*b->model, makeInductionProbe(b->config.tgt_vocab)));
        r->step = 0;
        history.induction.push_back(std::move(r));
    }
    auto trainer = std::make_unique<Trainer>(std::move(b->model), TrainOptions{});
    // The probe: for a language model a sentence interpretability reads GPT-2 on (Wang et al.
    // 2022's indirect object), its names repeated, so that induction and name-mover heads have
    // something to do; for a translator (Marian) the sentence the manual translates, when its
    // vocabulary knows it (a zh-en one), else the most frequent tokens (defaultProbe).
    TokenPair probe;
    if (b->config.decoderOnly()) {
        probe.tgt = tokenize(b->tgtTok, QStringLiteral("When Mary and John went to the store, John gave a drink to"));
    } else {
        const QStringList src = tokenize(b->srcTok, QStringLiteral("我有一个好朋友。"));
        int unknown = 0;
        b->srcVocab.encode(src, &unknown);
        if (unknown == 0)
            probe.src = src;
    }
    beginInspection(*b, std::move(trainer), probe, std::move(history), 0, path, true);
}

void TrainingWorker::beginInspection(const ModelBundle& described, std::unique_ptr<Trainer> trainer,
                                     TokenPair probe, TrainingHistory history,
                                     double trainSeconds, const QString& path, bool untitled,
                                     const QJsonObject& corpusRecord)
{
    SessionSettings s;
    s.corpusRecord = corpusRecord;
    s.recordedRun = described.provenance.run;
    s.decodingBeams = described.numBeams;
    std::unique_ptr<TrainingSession> session =
        makeInspectionSession(described, std::move(trainer), std::move(history), trainSeconds,
                              QStringLiteral("model:") + QFileInfo(path).fileName(), &s);

    const bool wasRunning = adoptSession(s, std::move(session), probe);
    if (!hasProbe())  // none given (a decoder-only model's probe is its text, tgt)
        probe_ = defaultProbe();
    completeProbe();
    if (wasRunning)
        emit runningChanged(false);
    emit sessionLoaded(settings_, std::make_shared<const Task>(session_->data().description()),
                       path, session_->stepCount(), untitled);
    emitSnapshot();
}

TokenPair TrainingWorker::defaultProbe() const
{
    // After <pad> <s> </s> <unk>: the most frequent tokens, as a source, or as a decoder-only
    // model's text (its probe is the target side).
    if (session_->model().config().decoderOnly())
        return {{}, session_->data().tgtVocab().tokens().mid(4, 6)};
    const QStringList tokens = session_->data().srcVocab().tokens();
    return {tokens.mid(4, 6), {}};
}

void TrainingWorker::exportWeights(const QString& path)
{
    QString error;
    if (!session_)
        error = tr("there is no model");
    else if (session_->saveModel(path, &error)) {
        emit weightsExported(path);
        return;
    }
    emit checkpointFailed(tr("The weights were not exported: %1").arg(error));
}

}  // namespace as
