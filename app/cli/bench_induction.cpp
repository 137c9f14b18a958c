// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// attention-studio-cli bench --induction: what measuring induction heads costs a training run
// (issue 61, core/SPEC.md §13). The repeat task's recipe model (train/recipe.h), its training
// step on the task's batches, against the probe a validation runs (makeInductionProbe and
// measureInduction, as validateModel does), at the recipe's validation cadence. Medians of
// --runs runs: each --steps training steps, then one probe.
#include "commands.h"
#include "model_input.h"
#include "options.h"

#include "eval/induction.h"
#include "model/parallel.h"
#include "text/lm_tasks.h"
#include "train/recipe.h"
#include "train/trainer.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <chrono>
#include <vector>

namespace as::cli {
namespace {

template <class F>
double millisOf(F&& f)
{
    const auto t0 = std::chrono::steady_clock::now();
    f();
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int benchInduction(Options& p, QTextStream& out, QTextStream& err)
{
    const int runs = int(p.intOption("runs", 1, 1000, 5));
    const int steps = int(p.intOption("steps", 1, 100000));
    const int threads = p.threads();
    if (!p.ok())
        return 2;
    setMathThreads(threads, false);
    QString error;
    const QString task = QStringLiteral("repeat");
    as::TaskRecipe recipe = as::recipeFor(task);
    const as::Task t = as::makeLanguageModelTask(task, recipe.batchSize, std::nullopt, &error);
    if (t.name.isEmpty()) {
        err << "bench: " << error << "\n";
        return 1;
    }
    recipe.model.src_vocab = recipe.model.tgt_vocab = t.tgtVocab.size();
    as::Trainer trainer(recipe.model, recipe.train);
    as::Rng data(1);
    // A model some way into training, so that the probe's softmaxes are not uniform.
    for (int i = 0; i < 200; ++i)
        trainer.step(t.nextBatch(data));
    as::Transformer<float>& model = trainer.model();
    std::vector<double> step, probe;
    for (int r = 0; r < runs; ++r) {
        std::vector<as::Batch> batches;
        for (int i = 0; i < steps; ++i)
            batches.push_back(t.nextBatch(data));
        step.push_back(millisOf([&] {
                           for (const as::Batch& b : batches)
                               trainer.step(b);
                       })
                       / steps);
        probe.push_back(millisOf([&] {
            const as::InductionRecord rec = as::measureInduction(model, as::makeInductionProbe(recipe.model.tgt_vocab));
            if (rec.induction.empty())
                err << "bench: no heads measured\n";
        }));
    }
    const double every = recipe.evalEvery;
    const double stepMs = medianOf(step), probeMs = medianOf(probe);
    const QJsonObject o{{"impl", "attention-studio"},
                        {"bench", "induction"},
                        {"task", task},
                        {"config", recipe.model.spec()},
                        {"threads", threads},
                        {"runs", runs},
                        {"steps", steps},
                        {"step_ms", stepMs},
                        {"probe_ms", probeMs},
                        {"valid_every", every},
                        // The probe's time against the training between two validations.
                        {"probe_share", probeMs / (every * stepMs)}};
    out << QJsonDocument(o).toJson(QJsonDocument::Compact) << "\n";
    return 0;
}

}  // namespace as::cli
