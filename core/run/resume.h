// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Continuing a saved run, as both programs do it: what kind of run a checkpoint holds, the
// session record it stores (the plan and the probe), the check that the data found now is the
// data it trained on, and the session that continues it.
#include "io/checkpoint.h"
#include "run/settings.h"
#include "train/session.h"

#include <QJsonObject>

#include <memory>

namespace as {

enum class SavedRunKind {
    Task,        // a built-in task: continued by name
    Corpus,      // a user's corpus: continued once the corpus is found again
    Inspection,  // a model opened to look inside, saved: shown, never trained on
};
SavedRunKind savedRunKind(const Checkpoint& ck);

// What a checkpoint records of the driver's settings (CheckpointRun::session): the plan
// (steps, minutes, validation interval, averaging) and the probe.
QJsonObject sessionRecord(const SessionSettings& s, const TokenPair& probe = {});
// The plan the saved run recorded (steps 0 and seconds 0 where it recorded none; validation
// interval and averaging as readSessionRecord reads them).
SessionPlan recordedPlan(const Checkpoint& ck);
// The saved run's settings over *s: its model and training options, and its session record
// (missing keys keep *s's values); the recorded probe sentence, if any, into *probe.
void readSessionRecord(const Checkpoint& ck, SessionSettings* s, TokenPair* probe);
// The settings of a saved built-in-task run (savedRunKind Task): the task, its batch size,
// and readSessionRecord. False and *error when the checkpoint names no task this version has.
bool savedTaskSettings(const Checkpoint& ck, SessionSettings* s, TokenPair* probe, QString* error);

// How a saved fine-tuning run read its text (SessionSettings::modelText): the checkpoint's
// vocabulary and tokeniser; null for any other run.
std::shared_ptr<const ModelText> savedModelText(const Checkpoint& ck);

// The settings of a saved corpus run (savedRunKind Corpus) continued on `corpus`, read again
// from `source`: the corpus recipe, the options the run recorded (batch tokens, validation
// interval) and readSessionRecord.
SessionSettings savedCorpusSettings(const Checkpoint& ck, std::shared_ptr<const SessionData> corpus,
                                    const CorpusSource& source, TokenPair* probe);

// Empty when `data` is the data the saved run trained on — the built-in task of this version,
// or the same corpus file (vocabularies, pairs and their digest) — else the reason.
QString checkSavedRunData(const SessionData& data, const Checkpoint& ck);

// A trainer that continues exactly where the saved one stopped (weights, Adam's moments and
// step, the dropout generator). Takes the model and the moments out of ck: call once.
std::unique_ptr<Trainer> trainerFromCheckpoint(Checkpoint& ck);

// Continues the run of ck on `data` (which checkSavedRunData accepted) with `plan`: its
// trainer, history, training and busy time, averaging snapshots and position in the data.
// Null and *error when the position cannot be restored. *note (if given) says so when the
// averaging starts afresh (a checkpoint from before it was recorded) and when a run trained in
// bfloat16 continues in float32 (no bfloat16 units here), else is empty.
std::unique_ptr<TrainingSession> resumeSession(std::unique_ptr<SessionData> data, Checkpoint& ck,
                                               const SessionPlan& plan, QString* error,
                                               QString* note = nullptr);

}  // namespace as
