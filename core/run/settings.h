// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A run's settings as both programs hold them: the window's settings panel and worker, and
// `attention-studio-cli train` (whose options fill the same record). A checkpoint records them
// (run/resume.h); a session is made from them (run/make_session.h).
#include "train/corpus_run.h"
#include "train/recipe.h"
#include "train/session.h"
#include "train/session_data.h"

#include <QJsonObject>
#include <QMetaType>
#include <QString>

#include <memory>

namespace as {

struct SessionSettings {
    // A built-in task (trainingTaskNames()), a user's corpus ("corpus:FILE", with `corpus`
    // set), or a model opened to look inside ("model:FILE").
    QString task = QStringLiteral("toy");
    ModelConfig model;                      // vocabulary sizes come from the task
    TrainOptions train;
    int batchSize = 32;     // sentences per batch (generated tasks)
    int batchTokens = 1500; // token budget of a batch (corpora)
    long plannedSteps = 300;
    int evalEvery = 25;     // steps between validation evaluations (0 = never)
    int averagePoints = 1;  // checkpoint averaging (1 = off)
    int probe = 0;          // index of the task example whose attention is recorded
    double plannedMinutes = 0;  // the run also ends after this much training time (0: no limit)
    // A bundled corpus with one vocabulary for both sides (DataOptions::sharedVocab; a user's
    // corpus has it in source.dataset), which model.tie == Tie::All needs.
    bool sharedVocab = false;
    // A bundled corpus's tokenisers (DataOptions::srcTok). A user's corpus has its own in
    // source.dataset: here nullopt (the pairs as they were cut when read), or, for A/B's B
    // (the Tokens view's A/B against BPE), a side cut again with this one from the text the
    // corpus kept (makeSessionData).
    std::optional<Tokenizer> srcTok, tgtTok;
    // Fine-tuning (lm-en, lm-zh): the text read with the model's own vocabulary and tokeniser
    // (DataOptions::modelText); the run starts from that model's weights (makeFineTuneSession).
    std::shared_ptr<const ModelText> modelText;
    // Fine-tuning: the model file or Hugging Face Hub folder whose weights the run starts from
    // (and Reset starts from again); empty for a run from random weights.
    QString baseModel;
    // A user's corpus, read once (buildCorpus): each session trains on a restart() of it.
    std::shared_ptr<const SessionData> corpus;
    CorpusSource source;  // where it was read from, as a checkpoint records it
    // A model opened from a checkpoint of a corpus run: that run's record ("kind": "corpus"),
    // so that the window can find the corpus and continue it.
    QJsonObject corpusRecord;
    // A model opened to look inside: what its file says it was trained on (ModelProvenance::run,
    // e.g. "zh-en" or "zh-en, the mean of 5 checkpoints"); empty when not recorded.
    QString recordedRun;
    // An opened model's decoding: the beam width its files ask for (ModelBundle::numBeams;
    // 0: greedy), the Translate view's starting choice.
    int decodingBeams = 0;

    // The built-in task recordedRun names (its first word), or empty: a model of another
    // task, a corpus run's or one that does not say.
    QString recordedTask() const;

    // The task's recipe (train/recipe.h), as the command line uses it.
    static SessionSettings defaultsFor(const QString& task);
    // Fine-tuning the model `model` in `basePath`, which reads text as `text` says, on `task`
    // (lm-en, lm-zh): fineTuneRecipe's settings.
    static SessionSettings fineTuning(const QString& task, const ModelConfig& model,
                                      std::shared_ptr<const ModelText> text, const QString& basePath);
    bool fineTunes() const { return !baseModel.isEmpty(); }
    // A built-in task an `arch` model trains on: `task` when it fits (a translation task for an
    // encoder-decoder, a language model's for decoder-only), else the one nearest it — zh-en's
    // English side lm-en and back, lm-zh to zh-en, the generated lm-brackets and toy.
    static QString taskForArch(const QString& task, Arch arch);
    // Not a built-in task: a model opened to look inside (imported weights, or a checkpoint
    // of a corpus run), with its vocabularies but no training data.
    bool inspecting() const { return !corpus && !isTrainingTask(task); }
    bool userCorpus() const { return corpus != nullptr; }
    // A user's corpus run with these settings: what its checkpoint records (srcTok and tgtTok,
    // when set, as its tokenisers).
    CorpusRun corpusRun() const;
    // The session's plan (steps, time, validation interval, averaging) and its data's options.
    SessionPlan plan() const;
    DataOptions dataOptions() const;
};

// A/B: B's settings as trained beside A — B's model and optimisation settings, A's data, its
// order and seed, and A's plan — so that the two runs differ only where the user changed them.
// On a corpus B keeps the tokenisers it names (the same pairs, cut another way): on a user's
// corpus a side it leaves unnamed is A's.
SessionSettings comparisonOf(const SessionSettings& a, SessionSettings b);
// "norm=post,warmup=1,factor=2": the model's keys as --config takes them (ModelConfig::fromSpec)
// the schedule's warmup, factor and clip_norm, and the products' precision (precision=bf16),
// applied over *s; false and *error if a key or value is not one of them (NaN and infinity
// included). bfloat16 is accepted anywhere: makeSession refuses it where it cannot run.
bool applySettingsSpec(const QString& spec, SessionSettings* s, QString* error);
// The spec that applySettingsSpec turns `base` into `s` with (the model's keys and the
// schedule's warmup, factor, clip_norm and precision that differ; empty when none do).
QString settingsSpecOver(const SessionSettings& s, const SessionSettings& base);
// What B changes, as a legend says it: "warm-up 0, post-norm" ("the same settings" if nothing).
QString settingsDifferences(const SessionSettings& a, const SessionSettings& b);

}  // namespace as

Q_DECLARE_METATYPE(as::SessionSettings)
