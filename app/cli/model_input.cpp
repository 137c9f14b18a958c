// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// What several commands read from a model: the model file (or checkpoint) itself, its codec,
// the heads to mask and the output length limit.
#include "model_input.h"

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

#include <algorithm>

namespace as::cli {

bool usableModelPath(const QString& path, const QString& command, QTextStream& err)
{
    // A pipe would block the command for ever (core/io/file_open.h).
    const QString why = as::notARegularFile(path);
    if (why.isEmpty())
        return true;
    err << command << ": '" << path << "' " << why << "\n";
    return false;
}

std::optional<as::ModelBundle> loadModelFile(const QString& path, const QString& command,
                                             QTextStream& err)
{
    if (!usableModelPath(path, command, err))
        return std::nullopt;
    QString error;
    auto bundle = as::loadModel(path, &error);
    if (!bundle)
        err << command << ": " << error << "\n";
    else
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
                                         QTextStream& err, int* exitCode, bool maskHeads)
{
    setMathThreads(threads);
    std::optional<as::ModelBundle> bundle = loadModelFile(path, p.command(), err);
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

}  // namespace as::cli
