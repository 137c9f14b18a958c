// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "train/product_tuning.h"

#include "model/parallel.h"
#include "model/rng.h"
#include "train/batch.h"
#include "train/trainer.h"

#include <vector>

namespace as {

bool productTuningNeeded(int threads)
{
    if (!gemmTuningEnabled())
        return false;
    int loaded = 0;
    for (int l = 0; l < kGemmLibraries; ++l)
        loaded += gemmLibraryLoaded(GemmLibrary(l)) ? 1 : 0;
    if (loaded < 2)
        return false;
    QString error;
    const std::optional<GemmTuning> stored = loadGemmTuning(threads, &error);
    if (!stored)
        return true;
    // A tuning that names a library no longer installed (oneDNN removed) is measured again.
    for (int s = 0; s < kGemmSites; ++s)
        if (stored->measured[std::size_t(s)] && !gemmLibraryLoaded(stored->choice[std::size_t(s)]))
            return true;
    return false;
}

std::optional<GemmTuning> measureProductTuning(const ModelConfig& config, int rounds,
                                               const Progress& progress, QString* error)
{
    const int batch = 64, srcLen = 12, tgtLen = 12;
    ModelConfig cfg = config;
    cfg.tgt_vocab = 5000;
    cfg.src_vocab = cfg.decoderOnly() ? cfg.tgt_vocab : 3000;
    Trainer trainer(cfg, TrainOptions{1.0, 400, 0});
    const Batch b = randomBenchBatch(cfg, batch, srcLen, tgtLen, 1);
    trainer.step(b);  // the buffers made and the pool's threads started before the recorded step
    if (progress && !progress(0, 1))
        return std::nullopt;
    std::vector<std::vector<GemmCall>> lists;
    {
        const GemmRecorder recorder;
        trainer.step(b);
        lists = recorder.calls();
    }
    bool cancelled = false;
    GemmTuning tuning = tuneGemm(lists, engineThreads(), rounds, [&](int done, int total) {
        cancelled = progress && !progress(done, total);
        return !cancelled;
    });
    if (cancelled)
        return std::nullopt;
    QString why;
    if (!saveGemmTuning(tuning, &why) && error)
        *error = QStringLiteral("the measurement could not be stored: %1").arg(why);
    tuning.apply();
    return tuning;
}

std::optional<GemmTuning> measureProductTuningAtFirstUse(const Progress& progress, QString* error)
{
    return measureProductTuning(*ModelConfig::preset("small"), 5, progress, error);
}

}  // namespace as
