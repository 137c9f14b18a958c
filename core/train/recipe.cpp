// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "train/recipe.h"

#include "text/lm_tasks.h"
#include "text/repeat_task.h"
#include "train/schedule.h"
#include "train/session_data.h"

#include <algorithm>

namespace as {

TaskRecipe corpusRecipe()
{
    TaskRecipe r;
    // small's width with 2 + 2 layers instead of 3 + 3: 40 % more steps in the same minutes,
    // which learned more than the third layer does (README, "What 20 minutes buy"); dropout
    // small's own 0.1 (0.2 before those runs).
    r.model = *ModelConfig::preset(QStringLiteral("small"));
    r.model.encoder_layers = r.model.decoder_layers = 2;
    r.model.dropout = 0.1;
    r.train.seed = 1;
    r.train.warmup = 800;
    r.batchTokens = 1500;
    r.averagePoints = 5;
    // The plan when neither --steps nor --minutes is given: about 20 minutes of 3 + 3 layers on
    // two cores of a 2-vCPU AMD EPYC (Zen 3), about 16 of 2 + 2.
    r.steps = 1500;
    r.evalEvery = 250;
    return r;
}

// A language-model task's (text/lm_tasks.h): a decoder-only model (core/SPEC.md §2.10).
TaskRecipe languageModelRecipe(const QString& task)
{
    TaskRecipe r;
    r.model.arch = Arch::DecoderOnly;
    r.model.encoder_layers = 0;
    r.model.dropout = 0.1;
    // None, as GPT: a language model is sampled, and smoothing's mass on every other token
    // would be drawn (0.1 of it at each step of a sample at temperature 1).
    r.model.label_smoothing = 0.0;
    r.train.seed = 1;
    if (isRepeatTaskName(task)) {
        // Where induction heads form (text/repeat_task.h, core/SPEC.md §13): two layers, the
        // fewest in which a previous-token head can feed an induction head; attention-only with
        // learned positions, as Elhage et al.'s two-layer models (§2.11, §2.12): with the
        // feed-forward layers, or with the paper's sinusoids beside embeddings scaled by
        // sqrt(d), no classic head formed in 5,000 steps (docs/user-guide/induction-heads.md
        // gives the runs). A rate near 1e-3 from step 1,000 (factor 0.35, warm-up 1,000): at
        // factor 1 the later copies were learned without one, by another route. No dropout
        // and no smoothing, so that the later copies' loss can fall to 0.
        r.model.d_model = 64;
        r.model.heads = 4;
        r.model.d_ff = 0;
        r.model.position = Position::Learned;
        r.model.decoder_layers = 2;
        r.model.dropout = 0.0;
        r.model.max_len = kLmContext;
        r.train.warmup = 1000;
        r.train.factor = 0.35;
        r.steps = 6000;
        r.batchSize = 32;
        r.evalEvery = 50;
        return r;
    }
    if (task == QLatin1String("lm-brackets")) {
        // Four layers: which bracket closes next needs the stack of the open ones; two layers
        // of this width drew about 80 balanced strings of 100 at temperature 1 after 1500
        // steps, four about 90 (tests/core/test_lm_tasks.cpp).
        r.model.d_model = 64;
        r.model.heads = 4;
        r.model.d_ff = 128;
        r.model.decoder_layers = 4;
        r.model.max_len = 40;
        r.train.warmup = 200;
        r.steps = 1500;
        r.batchSize = 32;
        r.evalEvery = 100;
        return r;
    }
    // The bundled corpus's sides: the translator's width (small), its four layers in one stack
    // (the corpus recipe's 2 + 2), windows of kLmContext tokens, about its batch's tokens.
    // Dropout 0.3: one side of Tatoeba is 250k tokens, and at 0.1 lm-en's validation
    // perplexity was lowest after 5 minutes (49.6) and 88 after 20; at 0.3 it was 48.1 after 7
    // and 56 after 20, and the same after 5 (test split 47.1 against 47.0; 2-vCPU Xeon,
    // docs/command-line.md).
    r.model.dropout = 0.3;
    r.model.d_model = 256;
    r.model.heads = 8;
    r.model.d_ff = 1024;
    r.model.decoder_layers = 4;
    r.model.max_len = 128;
    r.train.warmup = 800;
    r.steps = 1500;
    r.batchSize = 24;
    r.evalEvery = 250;
    return r;
}

TaskRecipe recipeFor(const QString& task)
{
    if (isBundledCorpusTask(task))
        return corpusRecipe();
    if (isLanguageModelTask(task))
        return languageModelRecipe(task);
    TaskRecipe r;
    r.model.d_model = 64;
    r.model.heads = 4;
    r.model.d_ff = 128;
    r.model.encoder_layers = r.model.decoder_layers = 2;
    r.model.dropout = 0.1;
    r.model.label_smoothing = 0.1;
    r.model.max_len = 32;
    r.train.seed = 1;
    if (task == "copy" || task == "reverse" || task == "sort") {
        r.train.warmup = 200;
        r.steps = 1200;
        r.batchSize = 32;
        r.evalEvery = 50;
    } else {  // toy: three pairs, every batch holds all of them
        r.train.warmup = 50;
        r.steps = 200;
        r.batchSize = 3;
        r.evalEvery = 10;
    }
    return r;
}

TaskRecipe fineTuneRecipe(const ModelConfig& model)
{
    TaskRecipe r;
    r.model = model;
    r.batchSize = 8;
    // A translator's batches are sentence pairs up to a token budget: a thousand target tokens,
    // a few seconds a step for a 77 M-parameter Marian on two cores.
    if (!model.decoderOnly())
        r.batchTokens = 1000;
    r.train.warmup = 100;
    r.train.factor = noamFactorForPeak(kFineTunePeakRate, model.d_model, r.train.warmup);
    r.steps = 300;
    r.evalEvery = 100;
    return r;
}

PlannedLimits plannedLimits(long givenSteps, double givenMinutes, long recipeSteps)
{
    givenSteps = std::max(0L, givenSteps);
    givenMinutes = std::max(0.0, givenMinutes);
    if (givenSteps == 0 && givenMinutes == 0)
        return {std::max(0L, recipeSteps), 0.0};
    return {givenSteps, givenMinutes};
}

}  // namespace as
