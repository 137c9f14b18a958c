// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// What several commands read from a model: the model file (or checkpoint) itself, its codec,
// the heads to mask and the output length limit.
#include "model_input.h"

#include "io/hub_model.h"

#include "options.h"

#include "eval/interpret.h"
#include "io/checkpoint.h"
#include "io/file_open.h"
#include "io/model_file.h"
#include "model/gemm_tuning.h"
#include "train/product_tuning.h"
#include "model/parallel.h"

#include <QFileInfo>
#include <QTextStream>

#include <limits>

#include <algorithm>

namespace as::cli {

bool usableModelPath(const QString& path, const QString& command, QTextStream& err)
{
    // A model folder from the Hugging Face Hub (core/SPEC.md §8.6) is a folder.
    if (as::isHubModelPath(path))
        return true;
    // A pipe would block the command for ever (core/io/file_open.h).
    const QString why = as::notARegularFile(path);
    if (why.isEmpty())
        return true;
    err << command << ": '" << path << "' " << why << "\n";
    return false;
}

std::optional<as::ModelBundle> loadModelFile(const QString& path, const QString& command,
                                             QTextStream& err, ModelUse use)
{
    if (!usableModelPath(path, command, err))
        return std::nullopt;
    QString error;
    auto bundle = as::loadModel(path, &error);
    if (!bundle) {
        err << command << ": " << error << "\n";
        return bundle;
    }
    const bool only = bundle->config.decoderOnly();
    if (use == ModelUse::Translator && only) {
        err << command << ": '" << path << "' is a decoder-only model (a language model, "
            << "core/SPEC.md §2.10); " << command << " needs a translator (encoder-decoder). "
            << "Continue text with it: attention-studio-cli generate --model " << path << "\n";
        return std::nullopt;
    }
    if (use == ModelUse::LanguageModel && !only) {
        err << command << ": '" << path << "' is a translator (encoder-decoder); " << command
            << " continues text with a decoder-only model (arch=decoder-only, core/SPEC.md "
            << "§2.10). Translate with it: attention-studio-cli translate --model " << path << "\n";
        return std::nullopt;
    }
    for (const QString& note : bundle->notes)
        err << command << ": note: " << note << "\n";
    return bundle;
}

std::optional<as::Checkpoint> loadCheckpointFile(const QString& path, const QString& command,
                                                 QTextStream& err)
{
    if (!usableModelPath(path, command, err))
        return std::nullopt;
    QString error;
    std::optional<as::Checkpoint> ck = as::loadCheckpoint(path, &error);
    if (!ck)
        err << command << ": " << error << "\n";
    return ck;
}

as::ParallelData codecOf(const as::ModelBundle& b)
{
    return as::ParallelData::fromVocabularies(b.srcVocab, b.tgtVocab, b.srcTok, b.tgtTok,
                                              b.config.max_len);
}

void addOutputLimitOption(Options& p)
{
    p.add({"max-len", "Longest output in tokens (default: 2 x source length + 10; at most the "
                      "model's max_len).", "N"});
}

int outputLimitOption(Options& p)
{
    return int(p.intOption(QStringLiteral("max-len"), 1, 1000000000, 0));
}

int outputLimit(int asked, const as::ModelConfig& config, const QString& command, QTextStream& err)
{
    if (asked > config.max_len) {
        err << command << ": --max-len " << asked << " is more than the model's max_len; outputs "
            << "stop at " << config.max_len << " tokens\n";
        err.flush();
    }
    return std::min(asked, config.max_len);
}

std::optional<std::vector<as::HeadId>> maskedHeads(Options& p, const as::ModelConfig& config)
{
    if (!p.isSet(QStringLiteral("mask-heads")))
        return std::vector<as::HeadId>{};
    QString error;
    auto heads = as::parseHeadSpec(p.value(QStringLiteral("mask-heads")), config, &error);
    if (!heads)
        p.refuse(QStringLiteral("--mask-heads: ") + error);
    return heads;
}

bool applyMaskHeads(Options& p, as::Transformer<float>& model)
{
    const std::optional<std::vector<as::HeadId>> heads = maskedHeads(p, model.config());
    if (heads && !heads->empty())
        as::maskHeads(model, *heads);
    return heads.has_value();
}

namespace {

QString configText(const as::ModelConfig& c)
{
    return QStringLiteral("d_model %1, heads %2, d_ff %3, %4 + %5 layers, %6-norm, vocabularies "
                          "%7 → %8")
        .arg(c.d_model)
        .arg(c.heads)
        .arg(c.d_ff)
        .arg(c.encoder_layers)
        .arg(c.decoder_layers)
        .arg(c.norm == as::NormPlacement::Pre ? "pre" : "post")
        .arg(c.src_vocab)
        .arg(c.tgt_vocab);
}

}  // namespace

QString modelSummary(const as::ModelBundle& b)
{
    return QStringLiteral("%1 parameters in %2 tensors (%3)")
        .arg(b.model->params().size())
        .arg(b.model->params().table().size())
        .arg(configText(b.config));
}

bool setMathThreads(int threads, bool measureAtFirstUse)
{
    as::setEngineThreads(threads);
    QTextStream err(stderr);
    if (measureAtFirstUse && as::productTuningNeeded(as::engineThreads())) {
        err << "attention-studio-cli: first use on this CPU: measuring which library computes its "
               "matrix products fastest (a few seconds, once; `attention-studio-cli bench --retune` "
               "measures again)\n";
        err.flush();
        QString error;
        const std::optional<as::GemmTuning> t = as::measureProductTuningAtFirstUse({}, &error);
        if (!error.isEmpty())
            err << "attention-studio-cli: " << error << "\n";
        if (t) {
            err << "attention-studio-cli: products chosen: " << as::gemmChoiceSummary() << "\n";
            return true;
        }
    }
    QString error;
    const bool tuned = as::applyStoredGemmTuning(as::engineThreads(), &error);
    if (!error.isEmpty())
        err << "attention-studio-cli: " << error << " (ignored: OpenBLAS computes)\n";
    return tuned;
}

std::optional<as::ModelBundle> openModel(Options& p, const QString& path, int threads,
                                         QTextStream& err, int* exitCode, bool maskHeads,
                                         ModelUse use)
{
    setMathThreads(threads);
    std::optional<as::ModelBundle> bundle = loadModelFile(path, p.command(), err, use);
    if (!bundle) {
        *exitCode = 1;
        return std::nullopt;
    }
    if (maskHeads && !applyMaskHeads(p, *bundle->model)) {
        *exitCode = 2;
        return std::nullopt;
    }
    return bundle;
}

void addSamplingOptions(Options& p)
{
    p.add({"temperature", "Draw each token instead of searching (core/SPEC.md §5.6): the "
                          "log-probabilities divided by T before softmax (0 = greedy; default 1 "
                          "when sampling).", "T"});
    p.add({"top-k", "Sample among the K most probable tokens only (0 = all).", "K"});
    p.add({"top-p", "Sample within the fewest most probable tokens whose mass reaches P "
                    "(nucleus; 1 = all).", "P"});
    p.add({"seed", "The sampling generator's seed: the same seed draws the same output.", "S",
           "1"});
}

bool samplingAsked(Options& p)
{
    return p.isSet("temperature") || p.isSet("top-k") || p.isSet("top-p");
}

as::SamplingOptions samplingOptions(Options& p, const QString& searching)
{
    if (samplingAsked(p) && !searching.isEmpty())
        p.refuse(QStringLiteral("sampling (--temperature, --top-k, --top-p) draws one output: "
                                "%1 for search")
                     .arg(searching));
    as::SamplingOptions s;
    s.temperature = p.doubleOption("temperature", 0, 1e6, 1.0);
    s.topK = int(p.intOption("top-k", 0, 100000000, 0));
    s.topP = p.doubleOption("top-p", 0, 1, 1.0);
    s.seed = std::uint64_t(p.intOption("seed", 0, std::numeric_limits<qint64>::max()));
    if (p.ok() && p.isSet("top-p") && s.topP <= 0)
        p.refuse(QStringLiteral("--top-p must be above 0 (1 keeps every token)"));
    return s;
}

void forEachInputLine(QTextStream& in, QTextStream& err, const QString& command,
                      const std::function<void(const QString& line, long lineNo)>& fn)
{
    // A pasted book must not stall the run: longer lines are cut, and said so.
    constexpr qsizetype kMaxLineChars = 2000;
    // readLineInto, not atEnd(): on stdin atEnd() is false before anything is read, and empty
    // input was answered with one empty line.
    QString line;
    for (long lineNo = 1; in.readLineInto(&line); ++lineNo) {
        if (line.size() > kMaxLineChars) {
            const qsizetype cut = line.at(kMaxLineChars - 1).isHighSurrogate() ? kMaxLineChars - 1
                                                                                 : kMaxLineChars;
            err << command << ": line " << lineNo << " has " << line.size()
                << " characters; only the first " << cut << " are read\n";
            err.flush();
            line.truncate(cut);
        }
        fn(line, lineNo);
    }
}

}  // namespace as::cli
