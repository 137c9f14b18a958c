// attention-studio-cli train --task toy|copy: trains, printing progress, then shows the greedy
// translations of the task's examples.
#include "cli_defaults.h"
#include "cli.h"
#include "cli_checkpoint.h"

#include "decode/decode.h"
#include "text/tasks.h"
#include "train/recipe.h"
#include "train/trainer.h"

#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QTextStream>

namespace {

}  // namespace

int runTrain(const QStringList& args, as::Checkpoint* resume)
{
    QTextStream out(stdout), err(stderr);
    QCommandLineParser p;
    p.setApplicationDescription(
        "Train a Transformer. With --task: a built-in task, then the greedy translations of its "
        "examples. With --data: a parallel corpus (source<TAB>target, or manythings' Anki "
        "format), saved to --out at the end and on Ctrl+C.");
    p.addHelpOption();
    p.addOption({"task", "Built-in task: toy, copy, reverse or sort.", "name", "toy"});
    p.addOption({"steps", "Training steps (default: the task's).", "N"});
    p.addOption({"seed", "Random seed.", "S", "1"});
    p.addOption({"batch", "Sentences per batch (copy task).", "N"});
    p.addOption({"warmup", QStringLiteral("Noam warmup steps (--data default %1).").arg(cli_defaults::kWarmup), "N"});
    p.addOption({"factor", "Noam factor.", "F"});
    p.addOption({"config", QStringLiteral("Model: tiny, small, base and/or key=value overrides, e.g. "
                                          "small,dropout=0.3 or d_model=128,heads=8,norm=post "
                                          "(--data default %1; a preset replaces it whole).")
                               .arg(cli_defaults::kCorpusConfig), "spec"});
    p.addOption({"threads", "Threads for the maths (0 = all cores; --task default 1: its "
                            "small models gain nothing from more).", "N"});
    p.addOption({"log-every", "Print progress every N steps (--task).", "N", "25"});
    p.addOption({"data", "Training corpus.", "TRAIN.tsv"});
    p.addOption({"valid", "Validation corpus (default: 2% held out of --data).", "V.tsv"});
    p.addOption({"out", "Where to save the model (.safetensors).", "MODEL"});
    p.addOption({"checkpoint", "Where to save a checkpoint (--data): every --checkpoint-minutes, "
                               "at the end and on Ctrl+C; --resume continues from it exactly.",
                 "CKPT"});
    p.addOption({"checkpoint-minutes", "Minutes between checkpoint saves (--data).", "M", "5"});
    p.addOption({"resume", "Continue the corpus run saved in CKPT: its data, model and settings; "
                           "--steps counts from its start; the checkpoint is updated in place "
                           "unless --checkpoint names another file.", "CKPT"});
    p.addOption({"clip-norm", "Scale gradients down to this global L2 norm when above it (0 = "
                              "no clipping).", "N", "0"});
    p.addOption({"minutes", "Train for this much wall-clock time (--data).", "M"});
    p.addOption({"batch-tokens", "Token budget of a batch (--data).", "N",
                 QString::number(cli_defaults::kBatchTokens)});
    p.addOption({"average", "Save the mean of the weights at K points, 5% of the budget apart, "
                            "the last at the end (checkpoint averaging; 1 = off; --data).", "K",
                 QString::number(cli_defaults::kAveragePoints)});
    p.addOption({"valid-every", "Steps between validations (--data).", "N", "500"});
    p.addOption({"anki-direction", "For manythings' Anki files (English<TAB>other<TAB>"
                                   "attribution): to-english or from-english.", "dir", "to-english"});
    p.addOption({"min-freq", "Minimum count of a token to enter the vocabulary, source,target "
                             "(default 1,2).", "S,T", "1,2"});
    p.addOption({"max-vocab", "Largest vocabulary, source,target, specials included (0 = no "
                              "limit).", "S,T", "0,0"});
    p.addOption({"strict", "Refuse a corpus with any bad line (no TAB, an empty side, invalid "
                           "UTF-8) instead of skipping and counting it (--data)."});
    p.addOption({"src-tok", "Source tokeniser: cjk-char or word (default: guessed).", "name"});
    p.addOption({"tgt-tok", "Target tokeniser: cjk-char or word (default: guessed).", "name"});
    if (!p.parse(args)) {
        err << p.errorText() << "\n\n" << p.helpText();
        return 2;
    }
    if (p.isSet("help")) {
        out << p.helpText();
        return 0;
    }
    if (p.isSet("resume") && !resume)
        return runTrainResume(p);
    if (p.isSet("data"))
        return runTrainCorpus(p, resume);
    auto number = [&](const char* name, double fallback, double lo, double hi, bool* ok) {
        if (!p.isSet(name))
            return fallback;
        bool good = false;
        const double v = p.value(name).toDouble(&good);
        if (!good || v < lo || v > hi) {
            err << "train: --" << name << " must be a number in [" << lo << ", " << hi << "]\n";
            *ok = false;
        }
        return v;
    };

    const QString taskName = p.value("task");
    if (!as::builtinTaskNames().contains(taskName)) {
        err << "train: unknown task '" << taskName << "' (built-in: "
            << as::builtinTaskNames().join(", ") << ")\n";
        return 2;
    }
    as::TaskRecipe def = as::recipeFor(taskName);
    bool ok = true;
    const long steps = long(number("steps", double(def.steps), 1, 1e9, &ok));
    const auto seed = quint64(number("seed", 1, 0, 1e18, &ok));
    const int batch = int(number("batch", def.batchSize, 1, 1e6, &ok));
    def.train.warmup = long(number("warmup", double(def.train.warmup), 1, 1e9, &ok));
    def.train.factor = number("factor", def.train.factor, 0, 1e6, &ok);
    const int threads = int(number("threads", 1, 0, 1024, &ok));  // the task models are tiny
    const long logEvery = long(number("log-every", 25, 1, 1e9, &ok));
    def.train.clipNorm = number("clip-norm", 0, 0, 1e9, &ok);
    if (!ok)
        return 2;
    QString error;
    if (p.isSet("config") && !parseConfig(p.value("config"), &def.model, &error)) {
        err << "train: " << error << "\n";
        return 2;
    }
    setMathThreads(threads);

    as::Task task = as::makeBuiltinTask(taskName, batch);
    def.model.src_vocab = task.srcVocab.size();
    def.model.tgt_vocab = task.tgtVocab.size();
    if (error = def.model.validate(); !error.isEmpty()) {
        err << "train: " << error << "\n";
        return 2;
    }
    def.train.seed = seed;
    as::Trainer trainer(def.model, def.train);
    as::Rng dataRng(seed * 0x9e3779b97f4a7c15ULL + 7);

    out << "task " << task.name << " (" << task.description << "), "
        << trainer.model().params().size() << " parameters, config "
        << QJsonDocument(def.model.toJson()).toJson(QJsonDocument::Compact) << "\n";
    out.flush();
    QElapsedTimer clock;
    clock.start();
    long tokens = 0;
    double lossSum = 0;
    long lossCount = 0;
    for (long s = 1; s <= steps; ++s) {
        const as::Batch b = task.nextBatch(dataRng);
        const as::StepStats st = trainer.step(b);
        tokens += st.loss.ntokens;
        lossSum += st.loss.loss();
        ++lossCount;
        if (s % logEvery == 0 || s == steps) {
            const double secs = clock.elapsed() / 1000.0;
            out << QStringLiteral("step %1/%2  loss %3  lr %4  tok/s %5  %6 s\n")
                       .arg(s)
                       .arg(steps)
                       .arg(lossSum / double(lossCount), 0, 'f', 4)
                       .arg(st.lr, 0, 'e', 3)
                       .arg(secs > 0 ? double(tokens) / secs : 0.0, 0, 'f', 0)
                       .arg(secs, 0, 'f', 1);
            out.flush();
            lossSum = 0;
            lossCount = 0;
        }
        if (!st.applied) {
            err << "train: " << st.fault << "; stopping (try a smaller --factor, a longer "
                << "--warmup or --clip-norm)\n";
            return 1;
        }
    }

    const double trainSeconds = clock.elapsed() / 1000.0;
    out << "\ngreedy translations:\n";
    int exact = 0;
    for (const as::TokenPair& ex : task.examples) {
        const as::DecodeResult r = as::greedyDecode(trainer.model(), task.srcVocab.encode(ex.src),
                                                    def.model.max_len);
        const QStringList hyp = task.tgtVocab.decode(r.nbest[0].tokens);
        const bool same = hyp == ex.tgt;
        exact += same;
        out << "  " << ex.src.join(' ') << "  →  " << hyp.join(' ')
            << (same ? "   ✓" : QStringLiteral("   ✗ (expected: %1)").arg(ex.tgt.join(' '))) << "\n";
    }
    out << exact << " of " << task.examples.size() << " exactly right\n";
    out << QStringLiteral("trained %1 steps in %2 s (%3 steps/s)\n")
               .arg(steps)
               .arg(trainSeconds, 0, 'f', 2)
               .arg(double(steps) / std::max(trainSeconds, 1e-9), 0, 'f', 1);
    return 0;
}
