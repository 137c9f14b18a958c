// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the training worker tells the window: immutable values, sent by shared pointer to const.
// The window draws from these alone and never reaches into the model.
#include "eval/trace.h"
#include "model/config.h"
#include "model/tensor.h"
#include "text/tasks.h"
#include "train/history.h"
#include "train/session_data.h"
#include "train/trainer.h"

#include <QStringList>

#include <memory>
#include <vector>

namespace as {

// A/B (the window's second session, trained in alternation with the first): its part of a
// snapshot.
struct ComparisonUpdate {
    QString name;  // what B changes, e.g. "B: warm-up 0"
    long step = 0;
    std::vector<LossPoint> newLoss;  // B's steps since the previous snapshot
    std::vector<EvalPoint> newEval;  // B's validations (loss, accuracy, BLEU) since then
    std::vector<std::shared_ptr<const HealthRecord>> health;  // B's tensors at its steps since then
    std::shared_ptr<const HealthLayout> healthLayout;  // the names of B's tensors (its records' order)
    bool replacesHistory = false;    // a new B: its series start here
    QString fault;  // B stopped at a step whose loss or gradient was not finite (A goes on)
};

struct TrainingSnapshot {
    long step = 0;
    int epoch = -1;  // completed passes over the data; -1 for endless generated data
    long plannedSteps = 0;
    bool running = false;
    double lr = 0;
    double loss = 0;              // of the last step
    // loss and lr are figures of a recorded step: false for a model opened without its
    // history (imported weights), whose status shows "—" for them.
    bool lossRecorded = false;
    double tokensPerSecond = 0;   // over the last few seconds of training
    double secondsPerStep = 0;    // over the same steps
    double elapsedSeconds = 0;    // training time, pauses excluded
    double remainingSeconds = -1; // estimate to plannedSteps; < 0 when unknown
    ModelConfig config;
    TrainOptions options;
    std::vector<LossPoint> newLoss;  // every step since the previous snapshot, in order
    std::vector<EvalPoint> newEval;  // every evaluation since the previous snapshot
    std::shared_ptr<const AttentionRecord> attention;  // latest probe; may be null
    // The probe traced (the Model view), when the window asked for it; may be null.
    std::shared_ptr<const TraceRecord> trace;
    std::shared_ptr<const BatchRecord> batch;          // latest batch; may be null
    std::shared_ptr<const SamplesRecord> samples;      // latest validation samples; may be null
    // A decoder-only model's induction heads at the validation this snapshot brings (core/SPEC.md
    // §13); null when none came since the previous snapshot.
    std::shared_ptr<const InductionRecord> induction;
    HealthUpdate health;  // training health since the previous snapshot (the Health view)
    // After a checkpoint was loaded: the views forget what they show, take the whole
    // recorded history (newLoss, newEval and these attention records, oldest first) and
    // look as they did when it was saved.
    bool replacesHistory = false;
    std::vector<std::shared_ptr<const AttentionRecord>> attentionHistory;
    std::vector<std::shared_ptr<const InductionRecord>> inductionHistory;  // likewise
    std::shared_ptr<const ComparisonUpdate> comparison;  // null: no A/B
};

using SnapshotPtr = std::shared_ptr<const TrainingSnapshot>;

// A copy of the weights at one step, for translating while training goes on. Decoding writes
// the model's activation caches, so one copy serves one decode at a time.
struct ModelCopy {
    long step = 0;
    std::shared_ptr<Transformer<float>> model;
    Vocab srcVocab, tgtVocab;
    Tokenizer srcTokenizer = TokenizerKind::Word, tgtTokenizer = TokenizerKind::Word;
    // The session's data (validation pairs as ids and text, the codec), read only; null for a
    // model opened to look inside without data.
    std::shared_ptr<const SessionData> data;
};
using ModelCopyPtr = std::shared_ptr<const ModelCopy>;

}  // namespace as

Q_DECLARE_METATYPE(as::SnapshotPtr)
Q_DECLARE_METATYPE(as::ModelCopyPtr)
