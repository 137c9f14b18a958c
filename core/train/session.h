// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One training run, whoever drives it: `attention-studio-cli train --task`, `train --data`,
// `train --resume` and the window's worker all step this object, so that the same recipe,
// seed and thread count give the same weights bit for bit everywhere.
//
// A session owns the trainer (model, Adam, schedule, dropout generator), the data it learns
// from (train/session_data.h), the history (every step's loss, the validations, the attention
// records), the validation cadence, checkpoint averaging and the handling of a step whose loss
// or gradient is not finite (the update is skipped and the step reported; nothing recorded).
// What remains to its drivers is printing, options and wiring.
#include "eval/evaluate.h"
#include "eval/trace.h"
#include "io/checkpoint.h"
#include "train/history.h"
#include "train/session_data.h"
#include "train/trainer.h"
#include "train/weight_average.h"

#include <QElapsedTimer>
#include <QJsonObject>

#include <limits>
#include <optional>
#include <memory>
#include <optional>

namespace as {

struct SessionPlan {
    long steps = 0;         // the run ends after this step (0: no step limit)
    double seconds = 0;     // … or after this much time in step() and validate() (0: none)
    int validEvery = 0;     // steps between validations (0: never)
    int averagePoints = 1;  // checkpoint averaging (WeightAverage, 5 % apart; 1: off)
};

struct SessionStep {
    StepStats stats;             // stats.applied false: nothing changed, nothing recorded
    bool validationDue = false;  // the cadence asks for a validation at this step
};

// How a run ended, on the weights it hands out (finalWeights()): the figures of
// `attention-studio --screenshot`'s summary.json.
struct RunSummary {
    long steps = 0;
    double trainLoss = 0;  // mean label-smoothed loss of the last (up to) 50 steps
    double validLoss = 0, validAccuracy = 0;  // teacher-forced, dropout off
    double validBleu = 0;  // greedy translations of every validation pair, corpusBleu; NaN for a language model
    double validNll = 0;   // per target token, without label smoothing: perplexity exp(validNll)
    std::vector<TranslationSample> samples;  // the data's examples (SessionData::exampleText)
    // A decoder-only model's induction heads (core/SPEC.md §13): the final weights' record, and
    // the phase change the run's validations detected (§13.5); null and none otherwise.
    std::shared_ptr<const InductionRecord> induction;
    std::optional<long> phaseChangeStep;
};

// What a validation computes. Loss and accuracy always (teacher-forced, dropout off).
struct ValidationOptions {
    bool bleu = false;     // greedy translations of every validation pair, corpusBleu
    bool samples = false;  // the data's examples translated (SamplesRecord)
};

struct Validation {
    EvalPoint point;                                // bleu NaN unless asked for
    std::shared_ptr<const SamplesRecord> samples;   // null unless asked for
    // A decoder-only model's induction heads on the probe (eval/induction.h); null otherwise.
    std::shared_ptr<const InductionRecord> induction;
    bool cancelled = false;                         // progress said stop: point incomplete
};

// A validation of `model` (the session's weights, or a copy of them taken at `step` for a
// validation in the background) on `data`. progress counts sentences translated for BLEU.
Validation validateModel(Transformer<float>& model, const SessionData& data, long step,
                         double trainSeconds, const ValidationOptions& options,
                         const Progress& progress = {});

// The data's examples translated greedily (dropout off), as a record at `step`; a decoder-only
// model's: each example's prompt continued greedily (SamplesRecord::generated).
std::shared_ptr<const SamplesRecord> translateExamples(Transformer<float>& model,
                                                       const SessionData& data, long step);

class TrainingSession {
public:
    // A run from the trainer's current state (a fresh model, or one taken from a checkpoint)
    // on `data`. History empty.
    TrainingSession(std::unique_ptr<SessionData> data, std::unique_ptr<Trainer> trainer,
                    const SessionPlan& plan);

    // The busy time and the averaging snapshots of the run this session continues, as its
    // checkpoint recorded them (run/resume.h's resumeSession does this), so that the planned
    // time and the averaging go on where they stopped. False when the averaging starts afresh:
    // the file did not record it (format 2 or older), or its snapshots do not fit this plan.
    bool restoreProgress(const CheckpointRun& run);
    // The recorded history and training time of the run this session continues
    // (run/resume.h's resumeSession does this; a model opened to look inside shows its history too).
    void restoreRecord(TrainingHistory history, double trainSeconds);

    // The next batch, one training step. When applied: a loss point in the history, an
    // averaging snapshot when one is due, and validationDue when the cadence asks for one
    // (the caller runs validate() then, or computes the same elsewhere and addValidation()s).
    SessionStep step();
    // validateModel() of the current weights, recorded in the history. No validation pairs:
    // loss and accuracy 0.
    Validation validate(const ValidationOptions& options = {});
    // A validation computed elsewhere (a background copy), recorded in the history: its
    // point and its induction record.
    void addValidation(const Validation& v);
    void addValidation(const EvalPoint& point);
    // The attention of every head for the probe pair (dropout off), recorded in the history.
    std::shared_ptr<const AttentionRecord> recordAttention(const TokenPair& probe);
    // The probe pair traced through the current weights (eval/trace.h: every intermediate but
    // the logit lens, dropout off), teacher-forced on its target; null for an empty source.
    std::shared_ptr<const TraceRecord> recordTrace(const TokenPair& probe);
    // The batch of the last step, for the masks view (also the history's lastBatch).
    void recordBatch(const Batch& batch);

    // The plan is reached (steps or time); the caller stops stepping.
    bool finished() const;
    // max(step / planned steps, time / planned time): where the averaging points fall.
    double progress() const;

    // The weights a finished run hands out: the mean of the averaging snapshots with the
    // current weights as the last point, or the current weights when averaging is off or took
    // no snapshot yet. Training itself always continues from the current weights.
    Eigen::VectorXf finalWeights() const;
    int averagedPoints() const;  // snapshots that finalWeights() averages (0: none)
    // Validation loss, accuracy and BLEU of finalWeights() (on a copy: training can go on).
    RunSummary summarize(int samples = kSamplePairs, const Progress& progress = {}) const;
    // Writes finalWeights() as a model file (io/model_file.h), atomically.
    bool saveModel(const QString& path, QString* error) const;
    // Writes a checkpoint of the current state; `settings` is the driver's own record
    // (CheckpointRun::session).
    bool saveCheckpoint(const QString& path, const QJsonObject& settings, QString* error,
                        const CheckpointSaveOptions& options = {}) const;
    CheckpointRun checkpointRun(const QJsonObject& settings) const;

    Trainer& trainer() { return *trainer_; }
    const Trainer& trainer() const { return *trainer_; }
    Transformer<float>& model() { return trainer_->model(); }
    const SessionData& data() const { return *data_; }
    // The data, kept alive by whoever holds it (a validation in the background).
    std::shared_ptr<const SessionData> sharedData() const { return data_; }
    const TrainingHistory& history() const { return history_; }
    const SessionPlan& plan() const { return plan_; }
    void setPlan(const SessionPlan& plan);
    long stepCount() const { return trainer_->stepCount(); }
    int epoch() const { return data_->epoch(trainer_->stepCount()); }
    double trainSeconds() const { return trainSeconds_; }  // the run's training time, all sessions
    double elapsedSeconds() const;  // time in step() and validate() since this object began
    // Target tokens per second of training time over the last `window` seconds of this
    // object's steps (at least its last two steps; 0 before them).
    double tokensPerSecond(double window = 3.0) const;
    // Training seconds a step took, over the same steps (0 before two steps of this object).
    double secondsPerStep(double window = 3.0) const;
    // Time left to the plan: the steps left at this run's pace so far (training time per
    // step), or the planned time left, whichever ends first; 0 when finished(), < 0 when
    // there is nothing to estimate from (no step yet, and no planned time).
    double remainingSeconds() const;
    const Batch& lastBatch() const { return lastBatch_; }

private:
    struct RecentSteps {
        long tokens = 0;
        long steps = 0;
        double seconds = 0;
    };
    // The steps of the last `window` seconds of training time (tokensPerSecond).
    RecentSteps recentSteps(double window) const;

    std::shared_ptr<SessionData> data_;
    std::unique_ptr<Trainer> trainer_;
    SessionPlan plan_;
    TrainingHistory history_;
    WeightAverage average_;
    double trainSeconds_ = 0;
    double busySeconds_ = 0;
    std::size_t lossAtStart_ = 0;  // history points before this object's first step
    Batch lastBatch_;
};

}  // namespace as
