// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Settings that learn each built-in task: the command line and the window both start from
// these. The generated tasks learn in seconds; a corpus (the bundled zh-en, or a user's with
// `train --data`) uses the recipe that learned best in 20 minutes of CPU on Tatoeba zh→en
// (README, "What 20 minutes buy"): core/SPEC.md §7.2's small model with its dropout 0.1, batches of
// 1,500 tokens, warmup 800, and the mean of the weights at 80, 85, 90, 95 and 100 % of the
// budget (the paper's §6.1). Dropout was 0.2 until the 20-minute runs with this engine and this
// averaging: on both cores 0.1 scores 2.4 more validation BLEU and 1.5 more test BLEU (its
// validation NLL 0.025 higher); at one thread it was better by both measures, and 0.3 far worse.
#include "model/config.h"
#include "train/trainer.h"

#include <QString>

namespace as {

struct TaskRecipe {
    ModelConfig model;  // vocabulary sizes come from the task
    TrainOptions train;
    int batchSize = 32;       // sentences per batch (generated tasks)
    int batchTokens = 1500;   // token budget of a batch (corpora)
    long steps = 300;
    int evalEvery = 25;       // steps between validations
    int averagePoints = 1;    // checkpoint averaging: points 5 % of the budget apart (1 = off)
};

// The recipe of a built-in task (toy for an unknown name).
TaskRecipe recipeFor(const QString& task);
// The recipe of a corpus run: recipeFor("zh-en").
TaskRecipe corpusRecipe();
// Fine-tuning `model` (its configuration as it is) on a language model's text (lm-en, lm-zh):
// small batches (8 windows), 100 warm-up steps to a peak rate of 1e-4 (the Noam factor that
// gives it at this d_model), 300 steps, a validation every 100. A pretrained model forgets
// what it knew at a rate fit for training from scratch (lm-en's recipe peaks at 1.4e-3). A
// translator (an encoder-decoder: Marian) on sentence pairs: batches of 1,000 target tokens.
TaskRecipe fineTuneRecipe(const ModelConfig& model);
inline constexpr double kFineTunePeakRate = 1e-4;

// How long a run plans to train (core/SPEC.md §7.4), from the limits the user gave (0: not
// given): whichever the user gave — steps, minutes, or both, the first reached ending the run;
// the recipe's steps only when the user gave neither (recipeSteps 0: the run has none, e.g.
// `train --data`, and then neither limit is set). `train` and the window's settings panel.
struct PlannedLimits {
    long steps = 0;      // 0: no step limit
    double minutes = 0;  // 0: no time limit
};
PlannedLimits plannedLimits(long givenSteps, double givenMinutes, long recipeSteps);

}  // namespace as
