// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Making a session from settings, for the window's worker (a new run, Reset, Apply, A/B's B)
// and `attention-studio-cli train` alike.
#include "io/model_file.h"
#include "run/settings.h"
#include "train/session.h"

#include <memory>

namespace as {

// The data a run of `s` trains on: the built-in task made by name, or the user's corpus
// (s.corpus) restarted from its first batch with these settings in its record, or, when
// s.srcTok or s.tgtTok names a tokeniser for it (A/B's B), built again from the training and
// validation text it kept with that side cut another way (buildCorpusFromText; a subword
// tokeniser is trained: seconds). A decoder-only s.model on translation data gets its target
// side (targetSideData). Null and *error (the reason alone) when it cannot be made.
std::unique_ptr<SessionData> makeSessionData(const SessionSettings& s, QString* error);

// The data's vocabulary sizes written into *model, which is then checked: empty, or
// ModelConfig::validate's reason, or that tie=all has no shared vocabulary.
QString fitModelToData(const SessionData& data, ModelConfig* model);

// A fresh session of `s` on `data` (step 0), s->model fitted to the data (fitModelToData); when
// s fine-tunes (s->baseModel), from that model's weights, read again (makeFineTuneSession).
// Null and *error (ModelConfig::validate's reason, or why the base model cannot be read) when
// the model cannot be built.
std::unique_ptr<TrainingSession> makeSession(std::unique_ptr<SessionData> data, SessionSettings* s,
                                             QString* error);

// How `model` reads the text it is fine-tuned on (text/lm_tasks.h): its target vocabulary and
// tokeniser; no <s> in the stream when it cannot predict <s> (masked, as GPT-2's is). A
// translator (an encoder-decoder) reads sentence pairs, its sources with srcVocab and srcTok.
std::shared_ptr<const ModelText> modelTextOf(const ModelConfig& config, const Vocab& vocab,
                                             const Tokenizer& tokenizer, const Vocab& srcVocab = {},
                                             const Tokenizer& srcTok = TokenizerKind::Word);
std::shared_ptr<const ModelText> modelTextOf(const ModelBundle& model);

// Fine-tuning: a session of `s` on `data` (made with s->modelText) whose trainer starts from
// `model`'s weights, with Adam's moments fresh and the step at 0; s->model becomes the model's
// configuration. Null and *error when the data's vocabulary is not the model's.
std::unique_ptr<TrainingSession> makeFineTuneSession(std::unique_ptr<SessionData> data,
                                                     std::unique_ptr<Transformer<float>> model,
                                                     SessionSettings* s, QString* error);

// A session to look inside a model (imported weights, or a saved run without its data): the
// vocabularies, tokenisers and configuration `described` names, the trainer's weights (its own
// model may be gone), the recorded history and training time, no data to train on. *s gets
// its settings ("task" `name`, the trainer's options and step, no validations).
std::unique_ptr<TrainingSession> makeInspectionSession(const ModelBundle& described,
                                                       std::unique_ptr<Trainer> trainer,
                                                       TrainingHistory history,
                                                       double trainSeconds, const QString& name,
                                                       SessionSettings* s);

}  // namespace as
