// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The small model several tests decode with, over the toy task's vocabularies.
#include "text/tasks.h"
#include "train/trainer.h"

#include <memory>

namespace as::test {

// Two encoder and two decoder layers of width 32 (4 heads, d_ff 64), outputs up to 20 tokens.
inline ModelConfig toyModelConfig(const Task& task)
{
    ModelConfig c;
    c.src_vocab = task.srcVocab.size();
    c.tgt_vocab = task.tgtVocab.size();
    c.d_model = 32;
    c.heads = 4;
    c.d_ff = 64;
    c.encoder_layers = c.decoder_layers = 2;
    c.max_len = 20;
    return c;
}

// That model trained 200 steps on the task (Noam factor 1, warmup 50, seed 3, batches drawn
// from a generator seeded 3): on the toy task it translates the three sentences right.
inline std::unique_ptr<Trainer> trainedToyModel(const Task& task)
{
    auto trainer = std::make_unique<Trainer>(toyModelConfig(task), TrainOptions{1.0, 50, 3});
    Rng data(3);
    for (int s = 0; s < 200; ++s)
        trainer->step(task.nextBatch(data));
    return trainer;
}

}  // namespace as::test
