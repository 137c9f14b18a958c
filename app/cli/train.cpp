// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// attention-studio-cli train: a built-in task (--task), a corpus (--data) or a saved run
// (--resume), all through one as::TrainingSession; this file only parses, prints and saves.
#include "commands.h"
#include "corpus_input.h"
#include "model_input.h"
#include "options.h"

#include "decode/decode.h"
#include "eval/induction.h"
#include "io/checkpoint.h"
#include "model/bf16.h"
#include "model/parallel.h"
#include "text/bundled_corpus.h"
#include "text/dataset.h"
#include "train/corpus_run.h"
#include "text/lm_tasks.h"
#include "train/recipe.h"
#include "run/make_session.h"
#include "run/resume.h"
#include "train/session.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

#include <atomic>
#include <cmath>
#include <csignal>
#include <unistd.h>

namespace as::cli {
namespace {

// The signal that stopped the run: Ctrl+C (SIGINT), SIGTERM (timeout, kill, systemd, Slurm,
// Kubernetes) or SIGHUP (a closed terminal or ssh session); 0 while none has. The run then
// saves as at its end. The handler gives the signal back its default action: a second one ends
// the program at once.
std::atomic<int> gStopSignal{0};
constexpr int kStopSignals[] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void onStopSignal(int sig)
{
    gStopSignal.store(sig);
    std::signal(sig, SIG_DFL);
}

QString signalName(int sig)
{
    return sig == SIGINT ? QStringLiteral("Ctrl+C") : sig == SIGTERM ? QStringLiteral("SIGTERM")
                                                                     : QStringLiteral("SIGHUP");
}

QString clock(double seconds)
{
    const long s = long(seconds + 0.5);
    return QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QChar('0'));
}

// What the data options resolved to, for the header, the checkpoint and the resume check.
struct CorpusBuild {
    std::unique_ptr<as::SessionData> data;
    int exit = 0;  // when data is null: the exit code (the reason is printed)
};

// --data TRAIN [--valid VALID]: as::buildCorpus reads, holds out, builds the vocabularies;
// this prints the reader's and the encoder's reports.
CorpusBuild readCorpusData(Options& p, const as::TaskRecipe& recipe, const as::ModelText* modelText,
                           QTextStream& out, QTextStream& err)
{
    CorpusBuild r;
    as::CorpusRun run;
    run.recipe = recipe;
    if (!corpusSourceFrom(p, &run.source)) {
        r.exit = 2;
        return r;
    }
    if (modelText)  // a translator being fine-tuned: its own tokenisers and vocabularies
        as::readWithModel(&run.source.dataset, *modelText);
    QElapsedTimer clock;
    clock.start();
    as::CorpusBuild built = as::buildCorpus(run);
    const double readSeconds = double(clock.elapsed()) / 1000.0;
    const as::CorpusBuildReport& report = built.report;
    if (report.srcVocab > 0)  // the files were read and encoded
        out << "train: " << report.trainStats.summary() << "\n"
            << "valid: " << report.validStats.summary() << "\n"
            << "vocabularies: source " << report.srcVocab << " (" << as::tokenizerName(report.srcTok)
            << "), target " << report.tgtVocab << " (" << as::tokenizerName(report.tgtTok) << "); "
            << "read and encoded in " << QString::number(readSeconds, 'f', 2) << " s\n";
    // file:line of each line left out, so that the user can look at (and fix) exactly those.
    printCorpusProblems(report, err);
    if (!built.data) {
        err << "train: " << built.error << "\n";
        r.exit = 1;
        return r;
    }
    r.data = std::move(built.data);
    return r;
}

}  // namespace

int runTrain(const QStringList& args, as::Checkpoint* resume)
{
    QTextStream out(stdout), err(stderr);
    const as::TaskRecipe corpus = as::corpusRecipe();
    const QString corpusConfig = QStringLiteral("small,encoder_layers=%1,decoder_layers=%2,dropout=%3")
                                     .arg(corpus.model.encoder_layers)
                                     .arg(corpus.model.decoder_layers)
                                     .arg(corpus.model.dropout);
    Options p(
        QStringLiteral("train"),
        "Train a Transformer. With --task: a built-in task (the generated toy, copy, reverse and "
        "sort, or the bundled Tatoeba corpus zh-en), then its examples' greedy translations. With "
        "--data: a parallel corpus (source<TAB>target, or manythings' Anki format). --out saves "
        "the model at the end and on Ctrl+C.",
        err);
    p.add({"task", QStringLiteral("Built-in task: %1; a language model's (with --config "
                                  "…,arch=decoder-only; the recipe's config has it): %2. A "
                                  "translation task (or --data) with arch=decoder-only trains "
                                  "on its target side. text:FILE: a text file's lines, as "
                                  "a language model's task (every 50th held out).")
                       .arg(as::translationTaskNames().join(", "), as::languageModelTaskNames().join(", ")),
           "name", "toy"},
          as::trainingTaskNames());
    p.add({"steps", "Training steps (default: the task's unless --minutes is given; with "
                    "--data, give --steps or --minutes).", "N"});
    p.add({"seed", "Random seed.", "S", "1"});
    p.add({"batch", "Sentences per batch (generated tasks).", "N"});
    p.add({"warmup", QStringLiteral("Noam warmup steps (corpus default %1).").arg(corpus.train.warmup), "N"});
    p.add({"factor", "Noam factor.", "F"});
    p.add({"config", QStringLiteral("Model: tiny, small, base and/or key=value overrides, e.g. "
                                    "small,dropout=0.3 or d_model=128,heads=8,norm=post "
                                    "(corpus default %1; a preset replaces it whole).")
                               .arg(corpusConfig), "spec"},
          as::ModelConfig::presetNames());
    p.addThreads(QString(), "Threads for the maths (0 = all cores; default 1 for the generated "
                            "tasks, whose small models gain nothing from more, else 0).");
    p.add({"tie", "Weight tying (core/SPEC.md §2.6): none, tgt (the generator is the target "
                  "embedding) or all (the source embedding too; needs --shared-vocab). As "
                  "--config tie=…", "how"},
          {"none", "tgt", "all"});
    p.add({"log-every", "Also print progress every N steps.", "N"});
    p.add({"model", "Fine-tune the model in PATH (a model file, or a Hugging Face Hub folder "
                    "such as GPT-2's or opus-mt's): a language model on --task lm-en, lm-zh or "
                    "text:FILE, a translator on --task zh-en or the pairs of --data, the text cut "
                    "with its own tokenisers and vocabularies: its weights are the start, Adam's "
                    "moments fresh; 8 windows (a translator: 1000 target tokens) a batch, 300 "
                    "steps, warm-up 100 to a peak rate of 1e-4 unless given.", "PATH"});
    addCorpusSourceOptions(p);
    p.add({"out", "Where to save the model (.safetensors).", "MODEL"});
    p.add({"checkpoint", "Where to save a checkpoint: every --checkpoint-minutes, at the "
                         "end and on Ctrl+C; --resume continues from it exactly.", "CKPT"});
    p.add({"checkpoint-minutes", "Minutes between checkpoint saves.", "M", "5"});
    p.add({"resume", "Continue the run saved in CKPT (by this command or the window): its "
                     "data, model and settings; --steps counts from its start; the "
                     "checkpoint is updated in place unless --checkpoint names another "
                     "file.", "CKPT"});
    p.add({"clip-norm", "Scale gradients down to this global L2 norm when above it (0 = "
                        "no clipping).", "N", "0"});
    p.add({"precision", "The layers' products in float32, or bf16: bfloat16 mixed precision "
                        "(bfloat16 inputs, float32 sums; weights, Adam and the loss float32), "
                        "where the CPU has AVX512-BF16 or AMX (core/SPEC.md §2.14). With "
                        "--resume: the checkpoint's unless given.", "P", "float32"});
    p.add({"minutes", "Train for this much time (alone: no step limit; with --steps: "
                      "whichever comes first).", "M"});
    p.add({"batch-tokens", "Token budget of a batch (corpora).", "N",
           QString::number(corpus.batchTokens)});
    p.add({"average", "Save the mean of the weights at K points, 5% of the budget apart, "
                      "the last at the end (checkpoint averaging; 1 = off; corpus default "
                      "5).", "K"});
    p.add({"valid-every", "Steps between validations (default: the task's; --data 500).", "N"});
    p.add({"log", "Write one JSON line per step (step, loss, lr, tokens, grad_norm and per "
                  "tensor grad_norm, weight_norm, update_ratio, effective_step) and one per "
                  "validation (valid_loss, valid_accuracy) to this file, for any plotting "
                  "tool.", "FILE.jsonl"});
    if (const std::optional<int> done = p.parse(args))
        return *done;
    if (p.isSet("resume") && !resume)
        return runTrainResume(p);

    // The recipe: the task's, or the corpus recipe for --data; options override it.
    const bool fromFile = p.isSet("data");
    // text:FILE by its absolute path: what a checkpoint records, for --resume from elsewhere.
    const QString taskName = as::isTextTaskName(p.value("task"))
                                 ? QStringLiteral("text:") + QFileInfo(p.value("task").mid(5)).absoluteFilePath()
                                 : p.value("task");
    // Fine-tuning (--model, or a resumed fine-tuning run): the model's own weights, vocabulary,
    // tokeniser and configuration.
    std::optional<as::ModelBundle> base;
    std::shared_ptr<const as::ModelText> modelText = resume ? as::savedModelText(*resume) : nullptr;
    if (p.isSet("model")) {
        for (const char* name : {"config", "tie", "src-tok", "tgt-tok", "shared-vocab", "min-freq", "max-vocab"}) {
            if (p.isSet(name)) {
                p.refuse(QStringLiteral("--%1 cannot be given with --model: the model has its own")
                             .arg(QLatin1String(name)));
                return 2;
            }
        }
        base = loadModelFile(p.value("model"), QStringLiteral("train"), err, ModelUse::Any);
        if (!base)
            return 1;
        // A language model reads text (lm-en, lm-zh, text:FILE); a translator, sentence pairs
        // (a bundled corpus: zh-en).
        if (base->config.decoderOnly() && !as::isCorpusLanguageModelTask(taskName) && !as::isTextTaskName(taskName)) {
            p.refuse(QStringLiteral("--model fine-tunes a language model on --task lm-en, lm-zh or "
                                    "text:FILE, not %1")
                         .arg(taskName));
            return 2;
        }
        if (base->config.decoderOnly() && fromFile) {
            p.refuse(QStringLiteral("--data gives sentence pairs, which a language model is not fine-tuned "
                                    "on: give its text as --task text:FILE"));
            return 2;
        }
        if (!base->config.decoderOnly() && !fromFile && !as::isBundledCorpusTask(taskName)) {
            p.refuse(QStringLiteral("--model fine-tunes a translator on the sentence pairs of --task %1 "
                                    "or of a corpus file (--data), not %2")
                         .arg(as::bundledCorpusNames().join(QStringLiteral(", ")), taskName));
            return 2;
        }
        modelText = as::modelTextOf(*base);
    }
    const QStringList tasks = as::trainingTaskNames();
    if (!fromFile && !as::isTrainingTask(taskName)) {
        p.refuse(QStringLiteral("unknown task '%1' (built-in: %2)").arg(taskName, tasks.join(", ")));
        return 2;
    }
    // A language model's task reads the bundled corpus as lm-en and lm-zh (threads, tokenisers
    // and the log as a corpus's); lm-brackets is generated.
    const bool languageModel = !fromFile && as::isLanguageModelTask(taskName);
    const bool generated = !fromFile && !as::isBundledCorpusTask(taskName)
                           && !(languageModel && (as::isCorpusLanguageModelTask(taskName)
                                                  || as::isTextTaskName(taskName)));
    as::TaskRecipe r = base       ? as::fineTuneRecipe(base->config)
                       : fromFile ? corpus
                                  : as::recipeFor(taskName);
    if (fromFile && !base)
        r.evalEvery = 500;
    constexpr qint64 kBillion = 1000000000;
    as::SessionPlan plan;
    // The plan is whichever limit the user gave; the recipe's step count only when neither:
    // `--minutes 20` alone trains 20 minutes, not the recipe's steps (as::plannedLimits, which
    // the window's settings panel follows too).
    const as::PlannedLimits limits = as::plannedLimits(
        long(p.intOption("steps", 1, kBillion, 0)), p.doubleOption("minutes", 0.01, 1e6, 0),
        fromFile ? 0 : r.steps);
    plan.steps = limits.steps;
    const double minutes = limits.minutes;
    plan.seconds = 60.0 * minutes;
    plan.validEvery = int(p.intOption("valid-every", 1, kBillion, r.evalEvery));
    plan.averagePoints = int(p.intOption("average", 1, 20, r.averagePoints));
    as::DataOptions dataOptions;
    dataOptions.seed = quint64(p.intOption("seed", 0, kBillion * kBillion, 1));
    dataOptions.batchSize = int(p.intOption("batch", 1, 1000000, r.batchSize));
    dataOptions.batchTokens = int(p.intOption("batch-tokens", 16, 10000000, r.batchTokens));
    r.train.seed = dataOptions.seed;
    r.train.warmup = long(p.intOption("warmup", 1, kBillion, r.train.warmup));
    r.train.factor = p.doubleOption("factor", 1e-6, 1e6, r.train.factor);
    r.train.clipNorm = p.doubleOption("clip-norm", 0, 1e9, 0);
    if (p.isSet("precision")) {
        QString why;
        if (!as::gemmPrecisionFromName(p.value("precision"), &r.train.precision))
            p.refuse(QStringLiteral("--precision must be float32 or bf16"));
        else if (!as::gemmPrecisionAvailable(r.train.precision, &why))
            p.refuse(QStringLiteral("--precision bf16: %1").arg(why));
    }
    const int threads = p.threads(generated ? 1 : 0);
    const long logEvery = long(p.intOption("log-every", 1, kBillion, generated ? 25 : 0));
    const double checkpointMinutes = p.doubleOption("checkpoint-minutes", 0.01, 1e6, 5);
    if (!p.ok())
        return 2;
    if (fromFile && !p.isSet("out") && !p.isSet("checkpoint")) {
        p.refuse(QStringLiteral("--out MODEL or --checkpoint CKPT is required with --data"));
        return 2;
    }
    if (plan.steps == 0 && plan.seconds == 0) {
        p.refuse(QStringLiteral("give --steps N or --minutes M"));
        return 2;
    }
    p.configOption("config", &r.model);
    if (modelText && resume)
        r.model = resume->model.config;  // a resumed fine-tuning run: the checkpoint's model
    if (p.isSet("tie")) {
        if (const std::optional<as::Tie> tie = as::tieFromName(p.value("tie")))
            r.model.tie = *tie;
        else
            p.refuse(QStringLiteral("--tie must be none, tgt or all"));
    }
    // A decoder-only model on translation data (a task or --data) learns its target side, the
    // same batches without their sources (core/SPEC.md §2.10): the window's A/B beside a
    // translator, from the command line.
    const bool decoderOnly = r.model.decoderOnly();
    if (!r.model.decoderOnly() && languageModel)
        p.refuse(QStringLiteral("--task %1 trains a language model: its --config needs "
                                "arch=decoder-only (core/SPEC.md §2.10), e.g. --config "
                                "small,arch=decoder-only")
                     .arg(taskName));
    if (!p.ok())
        return 2;
    setMathThreads(threads);
    QString error;
    // The run as the window holds it too (core/run): its checkpoint records it, and a session
    // is made from it the same way.
    as::SessionSettings run;
    run.task = fromFile ? QStringLiteral("corpus") : taskName;
    run.model = r.model;
    run.train = r.train;
    run.batchSize = dataOptions.batchSize;
    run.batchTokens = dataOptions.batchTokens;
    run.plannedSteps = plan.steps;
    run.plannedMinutes = minutes;
    run.sharedVocab = !fromFile && p.isSet("shared-vocab");  // --data: in the corpus source
    run.evalEvery = plan.validEvery;
    run.averagePoints = plan.averagePoints;
    run.modelText = modelText;
    // Where a fine-tuning run's weights came from, as its checkpoint records it (the window's
    // Reset starts from them again).
    run.baseModel = base ? QFileInfo(p.value("model")).absoluteFilePath()
                  : resume && modelText ? resume->run.session.value("base_model").toString()
                                        : QString();
    // A bundled corpus takes --src-tok / --tgt-tok too (a resumed run: the checkpoint's models).
    if (!fromFile && !generated) {
        for (auto [name, tok] : {std::pair{"src-tok", &run.srcTok}, std::pair{"tgt-tok", &run.tgtTok}}) {
            if (!p.isSet(name))
                continue;
            *tok = as::tokenizerFromName(p.value(name));
            if (!*tok) {
                p.refuse(QStringLiteral("--%1 must be cjk-char or word, or a subword model bpe:N or "
                                        "unigram:N (N from %2 to %3)")
                             .arg(QLatin1String(name))
                             .arg(as::kMinSubwordVocab)
                             .arg(as::kMaxSubwordVocab));
                return 2;
            }
            if (!resume)
                continue;
            const as::Tokenizer& saved = name == QLatin1String("src-tok") ? resume->model.srcTok
                                                                         : resume->model.tgtTok;
            if (as::tokenizerName(saved) == as::tokenizerName(**tok))
                *tok = saved;
        }
    }

    std::unique_ptr<as::SessionData> data;
    if (fromFile) {
        as::TaskRecipe inForce = r;
        inForce.evalEvery = plan.validEvery;
        inForce.averagePoints = plan.averagePoints;
        inForce.batchTokens = dataOptions.batchTokens;
        CorpusBuild built = readCorpusData(p, inForce, modelText.get(), out, err);
        if (!built.data)
            return built.exit;
        data = decoderOnly ? as::targetSideData(std::move(built.data)) : std::move(built.data);
    } else {
        data = as::makeSessionData(run, &error);
        if (!data) {
            err << "train: " << error << "\n";
            return 1;
        }
        out << "task " << taskName << " (" << data->description().description << ")";
        if (!data->validation().empty())
            out << ", " << data->validation().size()
                << (decoderOnly ? " validation sentences" : " validation pairs");
        if (decoderOnly && !languageModel)
            out << "; a decoder-only model: the corpus's target side, without its sources";
        out << "\n";
    }
    if (error = as::fitModelToData(*data, &run.model); !error.isEmpty()) {
        err << "train: " << error << "\n";
        return 2;
    }

    std::unique_ptr<as::TrainingSession> session;
    if (resume) {
        QString why = as::checkSavedRunData(*data, *resume);
        if (why.isEmpty() && !(resume->model.config == run.model))
            why = QStringLiteral("the recorded --config gives another model than the checkpoint's");
        if (!why.isEmpty()) {
            err << "train: cannot resume " << p.value("checkpoint") << ": " << why << "\n";
            return 1;
        }
        QString note;
        session = as::resumeSession(std::move(data), *resume, run.plan(), &error, &note);
        if (session && !note.isEmpty())
            err << "train: note: " << note << "\n";
        if (!session) {
            err << "train: cannot resume: " << error << "\n";
            return 1;
        }
        session->trainer().setClipNorm(r.train.clipNorm);  // settings a resumed run may change
        if (p.isSet("precision"))  // else the checkpoint's (resumeSession says if it cannot run here)
            session->trainer().setPrecision(r.train.precision);
        out << "resumed at step " << session->stepCount() << " (epoch " << session->epoch() << ")\n";
    } else {
        session = base ? as::makeFineTuneSession(std::move(data), std::move(base->model), &run, &error)
                       : as::makeSession(std::move(data), &run, &error);
        if (!session) {
            err << "train: " << error << "\n";
            return 2;
        }
    }
    as::TrainingSession& s = *session;
    out << "model " << QJsonDocument(run.model.toJson()).toJson(QJsonDocument::Compact) << ", "
        << s.model().params().size() << " parameters; ";
    if (const int perEpoch = s.data().description().batchesPerEpoch; perEpoch > 0 && languageModel)
        out << perEpoch << " batches of " << dataOptions.batchSize << " windows of "
            << (run.modelText ? run.modelText->context : as::kLmContext) << " tokens per epoch; ";
    else if (perEpoch > 0 && !generated)
        out << perEpoch << " batches of ≤ " << dataOptions.batchTokens << " tokens per epoch; ";
    out << as::engineThreads() << " thread" << (as::engineThreads() == 1 ? "" : "s");
    if (s.trainer().options().precision == as::GemmPrecision::BFloat16)
        out << "; bfloat16 products (" << (as::bf16Kernel() == as::Bf16Kernel::Packed ? "own kernel" : "oneDNN")
            << ", " << as::bf16ProductUnits() << ")";
    out << "\n";
    out.flush();

    // What the window records too, so that it can open and continue this run.
    const QJsonObject settings = as::sessionRecord(run);
    QElapsedTimer sinceCheckpoint;
    sinceCheckpoint.start();
    auto saveCheckpoint = [&]() {
        if (!p.isSet("checkpoint"))
            return true;
        QString e;
        QElapsedTimer t;
        t.start();
        if (!s.saveCheckpoint(p.value("checkpoint"), settings, &e)) {
            err << "\ntrain: " << e << "\n";
            return false;
        }
        sinceCheckpoint.restart();
        err << (isatty(STDERR_FILENO) ? "\r\x1b[K" : "") << "checkpoint " << p.value("checkpoint")
            << " at step " << s.stepCount() << " (" << t.elapsed() << " ms)\n";
        return true;
    };

    // --log: a JSON line per step and per validation, each written whole and flushed.
    QFile log;
    if (p.isSet("log")) {
        log.setFileName(p.value("log"));
        if (!log.open(QIODevice::WriteOnly | QIODevice::Truncate | QIODevice::Text)) {
            err << "train: cannot write " << p.value("log") << ": " << log.errorString() << "\n";
            return 1;
        }
        s.trainer().setRecordHealth(true);
    }
    // A line that cannot be written (a full disk) stops the run at once, saved as at its end.
    QString logError;
    auto logLine = [&](const QJsonObject& o) {
        if (!log.isOpen() || !logError.isEmpty())
            return;
        const QByteArray line = QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
        if (log.write(line) != line.size() || !log.flush())
            logError = log.errorString();
    };

    gStopSignal.store(0);
    for (int sig : kStopSignals)
        std::signal(sig, onStopSignal);
    const bool tty = isatty(STDOUT_FILENO);
    QElapsedTimer wall;
    wall.start();
    double lossSum = 0;
    long lossN = 0, tokens = 0, stepsHere = 0;
    double lastValid = NAN, lastAcc = NAN, lastPerplexity = NAN;
    std::optional<long> phaseStep;
    double phaseSeconds = 0;
    std::shared_ptr<const as::InductionRecord> lastInduction;
    bool faulted = false;
    QElapsedTimer sinceLine;
    sinceLine.start();
    while (!s.finished() && gStopSignal.load() == 0 && logError.isEmpty()) {
        const as::SessionStep st = s.step();
        if (!st.stats.applied) {
            err << "\ntrain: " << st.stats.fault << "; the weights of the step before are kept. "
                << "Try a smaller --factor, a longer --warmup or --clip-norm"
                << (p.isSet("checkpoint") ? ", then --resume" : "") << ".\n";
            faulted = true;
            break;
        }
        ++stepsHere;
        if (st.stats.health) {
            QJsonObject tensors;
            const std::vector<as::ParamInfo>& table = s.model().params().table();
            for (std::size_t i = 0; i < table.size(); ++i) {
                const as::TensorHealth& h = (*st.stats.health)[i];
                tensors.insert(QString::fromStdString(table[i].name),
                               QJsonObject{{"grad_norm", h.gradNorm},
                                           {"weight_norm", h.weightNorm},
                                           {"update_ratio", h.updateRatio},
                                           {"effective_step", h.effectiveStep}});
            }
            logLine(QJsonObject{{"step", double(st.stats.step)},
                                {"loss", st.stats.loss.loss()},
                                {"lr", st.stats.lr},
                                {"tokens", double(st.stats.loss.ntokens)},
                                {"grad_norm", st.stats.gradNorm},
                                {"tensors", tensors}});
        }
        lossSum += st.stats.loss.loss();
        ++lossN;
        tokens += st.stats.loss.ntokens;
        if (st.validationDue) {
            const as::Validation done = s.validate();
            const as::EvalPoint& v = done.point;
            lastValid = v.loss;
            lastAcc = v.accuracy;
            QJsonObject o{{"step", double(v.step)}, {"valid_loss", v.loss}, {"valid_accuracy", v.accuracy},
                          {"train_seconds", s.trainSeconds()}};
            if (std::isfinite(v.bleu))
                o.insert("valid_bleu", v.bleu);
            if (decoderOnly) {
                // A language model is judged by its perplexity on held-out text.
                lastPerplexity = v.perplexity();
                o.insert("valid_nll", v.nll);
                o.insert("valid_perplexity", lastPerplexity);
            }
            if (done.induction) {
                o.insert("induction", as::inductionJson(*done.induction));
                const std::optional<long> phase = as::phaseChangeStep(s.history().induction);
                if (phase && !phaseStep) {
                    phaseStep = phase;
                    phaseSeconds = s.trainSeconds();
                    out << (tty ? "\r\x1b[K" : "") << "phase change: induction heads at step " << *phase
                        << " (" << clock(phaseSeconds) << " of training; "
                        << as::inductionSummary(*done.induction) << ")\n";
                }
                if (phaseStep) {
                    o.insert("phase_change_step", double(*phaseStep));
                    o.insert("phase_change_seconds", phaseSeconds);
                }
                lastInduction = done.induction;
            }
            logLine(o);
        }
        if (sinceCheckpoint.elapsed() >= qint64(checkpointMinutes * 60000))
            saveCheckpoint();
        const bool byStep = logEvery > 0 && (st.stats.step % logEvery == 0 || s.finished());
        const bool byTime = sinceLine.elapsed() >= (tty ? 500 : 30000);
        if (st.validationDue || byStep || byTime) {
            const double secs = wall.elapsed() / 1000.0;
            const double remaining = s.remainingSeconds();
            const int epoch = s.epoch();
            const QString line =
                QStringLiteral("step %1%2 · %3loss %4 · valid %5 (acc %6%11) · lr %7 · %8 tok/s · %9 elapsed · %10 left")
                    .arg(st.stats.step)
                    .arg(plan.steps > 0 ? QStringLiteral("/%1").arg(plan.steps) : QString())
                    .arg(epoch >= 0 ? QStringLiteral("epoch %1 · ").arg(epoch) : QString())
                    .arg(lossSum / double(std::max(1L, lossN)), 0, 'f', 4)
                    .arg(std::isnan(lastValid) ? QStringLiteral("—") : QString::number(lastValid, 'f', 3))
                    .arg(std::isnan(lastAcc) ? QStringLiteral("—") : QString::number(lastAcc, 'f', 3))
                    .arg(st.stats.lr, 0, 'e', 2)
                    .arg(s.tokensPerSecond(), 0, 'f', 0)
                    .arg(clock(secs))
                    .arg(remaining >= 0 ? clock(remaining) : QStringLiteral("?"))
                    .arg(std::isnan(lastPerplexity)
                             ? QString()
                             : QStringLiteral(", perplexity %1").arg(lastPerplexity, 0, 'f', 2));
            // On a terminal the line is rewritten in place, and kept at validations and at
            // the --log-every steps.
            const bool keep = !tty || st.validationDue || byStep;
            out << (tty ? "\r" : "") << line << (tty ? "\x1b[K" : "") << (keep ? "\n" : "");
            out.flush();
            sinceLine.restart();
            lossSum = 0;
            lossN = 0;
        }
    }
    const int stopSignal = gStopSignal.load();
    if (!logError.isEmpty())
        err << "train: cannot write the log " << p.value("log") << ": " << logError
            << "; the run stops at step " << s.stepCount() << " and is saved\n";
    const double secs = wall.elapsed() / 1000.0;
    out << (tty ? "\r\x1b[K" : "")
        << (stopSignal != 0 ? QStringLiteral("stopped by %1: ").arg(signalName(stopSignal)) : QString())
        << "trained "
        << stepsHere << " steps in " << QString::number(secs, 'f', 2) << " s ("
        << QString::number(double(stepsHere) / std::max(secs, 1e-9), 'f', 2) << " steps/s), "
        << QString::number(double(tokens) / std::max(secs, 1e-9), 'f', 0) << " target tok/s; step "
        << s.stepCount() << "\n";
    if (lastInduction) {
        out << "induction heads: " << as::inductionSummary(*lastInduction) << "; phase change "
            << (phaseStep ? QStringLiteral("at step %1 (%2 of training)").arg(*phaseStep).arg(clock(phaseSeconds))
                          : QStringLiteral("not detected (core/SPEC.md §13.5)"))
            << "\n";
    }
    const bool checkpointed = saveCheckpoint();
    if (const int points = s.averagedPoints(); points > 0)
        out << "the saved model averages the weights of " << points << " points (the last at step "
            << s.stepCount() << ")\n";
    bool saved = true;
    if (p.isSet("out")) {
        QString e;
        saved = s.saveModel(p.value("out"), &e);
        if (saved)
            out << "saved " << p.value("out") << " at step " << s.stepCount() << "\n";
        else
            err << "train: " << e << "\n";
    }

    // The examples' greedy translations, with the weights a finished run hands out.
    const std::vector<as::TokenPair>& examples = s.data().examples();
    if (!examples.empty() && !faulted && decoderOnly) {
        // A language model's examples are prompts: what it makes of each (greedy).
        std::unique_ptr<as::Transformer<float>> model = s.model().clone();
        model->params().valueVector() = s.finalWeights();
        out << "\ngreedy continuations:\n";
        const as::ParallelData codec = s.data().codec();
        for (const as::TokenPair& ex : examples) {
            std::vector<int> text = s.data().tgtVocab().encode(ex.tgt);
            const as::DecodeResult d = as::greedyDecode(*model, text, model->config().max_len);
            const QString prompt = as::detokenize(s.data().tgtTokenizer(), ex.tgt);
            text.insert(text.end(), d.nbest[0].tokens.begin(), d.nbest[0].tokens.end());
            out << "  " << prompt << "  →  " << codec.decodeTarget(text)
                << (d.nbest[0].finished ? "" : " …") << "\n";
        }
    } else if (!examples.empty() && !faulted) {
        std::unique_ptr<as::Transformer<float>> model = s.model().clone();
        model->params().valueVector() = s.finalWeights();
        out << "\ngreedy translations:\n";
        int exact = 0;
        for (const as::TokenPair& ex : examples) {
            // At most 2n + 10 tokens, as translate gives (core/SPEC.md §5.1): a model that has
            // not learned to stop yet (a Hub translator's random twin) prints no page of
            // repeats.
            const as::DecodeResult d = as::greedyDecode(*model, s.data().srcVocab().encode(ex.src));
            const QStringList hyp = s.data().tgtVocab().decode(d.nbest[0].tokens);
            const bool same = hyp == ex.tgt;
            exact += same;
            const QString src = as::detokenize(s.data().srcTokenizer(), ex.src);
            out << "  " << src << "  →  " << as::detokenize(s.data().tgtTokenizer(), hyp)
                << (same ? QStringLiteral("   ✓")
                         : QStringLiteral("   ✗ (reference: %1)")
                               .arg(as::detokenize(s.data().tgtTokenizer(), ex.tgt)))
                << "\n";
        }
        out << exact << " of " << examples.size() << " exactly right\n";
    }
    // The signals' default action again (the handler restored the one that came).
    for (int sig : kStopSignals)
        std::signal(sig, SIG_DFL);
    if (!(saved && checkpointed && !faulted && logError.isEmpty()))
        return 1;
    // Stopped by SIGTERM or SIGHUP, with everything saved: 128 + the signal's number, the
    // convention of a program that signal ended. Ctrl+C is the user's own stop: 0.
    return stopSignal == SIGTERM || stopSignal == SIGHUP ? 128 + stopSignal : 0;
}

}  // namespace as::cli
