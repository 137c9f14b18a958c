// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/settings.h"

#include "text/lm_tasks.h"

#include <QCoreApplication>
#include <cmath>

namespace as {

namespace {

// The settings of a run of `task` with recipe `r` (train/recipe.h).
SessionSettings settingsOf(const QString& task, const TaskRecipe& r)
{
    SessionSettings s;
    s.task = task;
    s.model = r.model;
    s.train = r.train;
    s.batchSize = r.batchSize;
    s.batchTokens = r.batchTokens;
    s.plannedSteps = r.steps;
    s.evalEvery = r.evalEvery;
    s.averagePoints = r.averagePoints;
    return s;
}

}  // namespace

SessionSettings SessionSettings::defaultsFor(const QString& task)
{
    return settingsOf(task, task.startsWith(u"corpus:") ? corpusRecipe() : recipeFor(task));
}

SessionSettings SessionSettings::fineTuning(const QString& task, const ModelConfig& model,
                                            std::shared_ptr<const ModelText> text,
                                            const QString& basePath)
{
    SessionSettings s = settingsOf(task, fineTuneRecipe(model));
    s.train.seed = 1;  // as `train --model` without --seed
    s.modelText = std::move(text);
    s.baseModel = basePath;
    return s;
}

QString SessionSettings::taskForArch(const QString& task, Arch arch)
{
    const bool languageModel = isLanguageModelTask(task);
    if (languageModel == (arch == Arch::DecoderOnly))
        return task;
    if (languageModel)
        return isCorpusLanguageModelTask(task) ? QStringLiteral("zh-en") : QStringLiteral("toy");
    return isBundledCorpusTask(task) ? QStringLiteral("lm-en") : QStringLiteral("lm-brackets");
}

QString SessionSettings::recordedTask() const
{
    // "zh-en", "zh-en, the mean of 5 checkpoints", "corpus:train.tsv train.tsv": the run's
    // data name comes first (TrainingSession::saveModel).
    QString first = recordedRun.section(u' ', 0, 0);
    if (first.endsWith(u','))
        first.chop(1);
    return isTrainingTask(first) ? first : QString();
}

CorpusRun SessionSettings::corpusRun() const
{
    CorpusRun run;
    run.source = source;
    // A user's corpus cut again with other tokenisers (A/B's B, makeSessionData): those, as a
    // checkpoint of that run records them, so that it is continued on the same pairs.
    if (userCorpus()) {
        if (srcTok)
            run.source.dataset.src_tok = srcTok;
        if (tgtTok)
            run.source.dataset.tgt_tok = tgtTok;
    }
    run.recipe.model = model;
    run.recipe.train = train;
    run.recipe.batchTokens = batchTokens;
    run.recipe.evalEvery = evalEvery;
    run.recipe.averagePoints = averagePoints;
    return run;
}

SessionPlan SessionSettings::plan() const
{
    SessionPlan p;
    p.steps = plannedSteps;
    p.seconds = plannedMinutes * 60.0;
    p.validEvery = evalEvery;
    p.averagePoints = averagePoints;
    return p;
}

DataOptions SessionSettings::dataOptions() const
{
    return {batchSize, batchTokens, train.seed, sharedVocab, srcTok, tgtTok, modelText};
}

SessionSettings comparisonOf(const SessionSettings& a, SessionSettings b)
{
    b.task = a.task;
    b.corpus = a.corpus;
    b.source = a.source;
    b.corpusRecord = a.corpusRecord;
    b.batchSize = a.batchSize;
    b.batchTokens = a.batchTokens;
    b.sharedVocab = a.sharedVocab;
    // A corpus's pairs can be cut another way for B (the Tokens view's A/B of cjk-char/word
    // against BPE): a bundled corpus (or lm-en's and lm-zh's side of it) with B's tokenisers;
    // a user's corpus with those B names, a side B leaves unnamed cut as A cuts it (as read, or
    // as A cut it again). A generated task's are A's.
    if (a.userCorpus()) {
        if (!b.srcTok)
            b.srcTok = a.srcTok;
        if (!b.tgtTok)
            b.tgtTok = a.tgtTok;
    } else if (!isBundledCorpusTask(a.task) && !isCorpusLanguageModelTask(a.task)) {
        b.srcTok = a.srcTok;
        b.tgtTok = a.tgtTok;
    }
    b.train.seed = a.train.seed;
    b.plannedSteps = a.plannedSteps;
    b.plannedMinutes = a.plannedMinutes;
    b.evalEvery = a.evalEvery;
    b.averagePoints = a.averagePoints;
    b.probe = a.probe;
    b.model.src_vocab = a.model.src_vocab;
    b.model.tgt_vocab = a.model.tgt_vocab;
    return b;
}

bool applySettingsSpec(const QString& spec, SessionSettings* s, QString* error)
{
    QStringList model;
    for (const QString& item : spec.split(u',', Qt::SkipEmptyParts)) {
        const QString key = item.section(u'=', 0, 0).trimmed();
        const QString value = item.section(u'=', 1).trimmed();
        bool ok = false;
        const double v = value.toDouble(&ok);
        if (key == QLatin1String("precision")) {
            GemmPrecision p;
            if (!gemmPrecisionFromName(value, &p)) {
                *error = QCoreApplication::translate("as::Settings", "'%1' is not a precision (float32 or bf16)").arg(value);
                return false;
            }
            s->train.precision = p;  // whether this machine runs it: makeSession says
        } else if (key == QLatin1String("warmup") || key == QLatin1String("factor")
            || key == QLatin1String("clip_norm")) {
            if (!ok || !std::isfinite(v) || !(v >= 0) || (key == QLatin1String("warmup") && (v < 1 || v != std::floor(v)))
                || (key == QLatin1String("factor") && v <= 0)) {
                *error = QCoreApplication::translate("as::Settings", "'%1' is not a valid %2").arg(value, key);
                return false;
            }
            if (key == QLatin1String("warmup"))
                s->train.warmup = long(v);
            else if (key == QLatin1String("factor"))
                s->train.factor = v;
            else
                s->train.clipNorm = v;
        } else {
            model << item;
        }
    }
    if (!model.isEmpty()) {
        const ModelConfig base = s->model;
        std::optional<ModelConfig> c = ModelConfig::fromSpec(model.join(u','), error, base);
        if (!c)
            return false;
        c->src_vocab = base.src_vocab;
        c->tgt_vocab = base.tgt_vocab;
        s->model = *c;
    }
    return true;
}

QString settingsSpecOver(const SessionSettings& s, const SessionSettings& base)
{
    QStringList parts;
    const QStringList mine = s.model.spec().split(u','), theirs = base.model.spec().split(u',');
    for (qsizetype i = 0; i < mine.size(); ++i)
        if (i >= theirs.size() || mine[i] != theirs[i])
            parts << mine[i];
    if (s.train.warmup != base.train.warmup)
        parts << QStringLiteral("warmup=%1").arg(s.train.warmup);
    if (s.train.factor != base.train.factor)
        parts << QStringLiteral("factor=%1").arg(s.train.factor, 0, 'g', 17);
    if (s.train.clipNorm != base.train.clipNorm)
        parts << QStringLiteral("clip_norm=%1").arg(s.train.clipNorm, 0, 'g', 17);
    if (s.train.precision != base.train.precision)
        parts << QStringLiteral("precision=%1").arg(QLatin1String(gemmPrecisionArgument(s.train.precision)));
    return parts.join(u',');
}

QString settingsDifferences(const SessionSettings& a, const SessionSettings& b)
{
    QStringList d;
    const ModelConfig &x = a.model, &y = b.model;
    // The architecture first; a decoder-only model's layers are its decoder's.
    if (x.arch != y.arch)
        d << (y.decoderOnly() ? QCoreApplication::translate("as::Settings", "decoder-only")
                              : QCoreApplication::translate("as::Settings", "encoder-decoder"));
    if (x.norm != y.norm)
        d << (y.norm == NormPlacement::Pre ? QCoreApplication::translate("as::Settings", "pre-norm") : QCoreApplication::translate("as::Settings", "post-norm"));
    if (a.train.warmup != b.train.warmup)
        d << QCoreApplication::translate("as::Settings", "warm-up %1").arg(b.train.warmup);
    if (a.train.factor != b.train.factor)
        d << QCoreApplication::translate("as::Settings", "factor %1").arg(b.train.factor);
    if (x.label_smoothing != y.label_smoothing)
        d << QCoreApplication::translate("as::Settings", "smoothing %1").arg(y.label_smoothing);
    if (x.dropout != y.dropout)
        d << QCoreApplication::translate("as::Settings", "dropout %1").arg(y.dropout);
    if (a.train.clipNorm != b.train.clipNorm)
        d << QCoreApplication::translate("as::Settings", "clip %1").arg(b.train.clipNorm);
    if (a.train.precision != b.train.precision)
        d << QString::fromLatin1(gemmPrecisionName(b.train.precision));
    if (x.d_model != y.d_model || x.heads != y.heads || x.d_ff != y.d_ff
        || (x.decoder_layers != y.decoder_layers)
        || (x.arch == y.arch && x.encoder_layers != y.encoder_layers))
        d << (y.decoderOnly()
                  ? QCoreApplication::translate("as::Settings", "d_model %1, %2 heads, d_ff %3, %4 layers")
                        .arg(y.d_model).arg(y.heads).arg(y.d_ff).arg(y.decoder_layers)
                  : QCoreApplication::translate("as::Settings", "d_model %1, %2 heads, d_ff %3, %4+%5 layers")
                        .arg(y.d_model).arg(y.heads).arg(y.d_ff).arg(y.encoder_layers).arg(y.decoder_layers));
    if (x.max_len != y.max_len)
        d << QCoreApplication::translate("as::Settings", "max_len %1").arg(y.max_len);
    if (x.tie != y.tie)
        d << QCoreApplication::translate("as::Settings", "tie %1").arg(tieName(y.tie));
    if (x.position != y.position)
        d << QCoreApplication::translate("as::Settings", "%1 positions").arg(positionName(y.position));
    const auto named = [](const std::optional<Tokenizer>& t) {
        return t ? tokenizerName(*t) : QCoreApplication::translate("as::Settings", "guessed");
    };
    if (named(a.srcTok) != named(b.srcTok))
        d << QCoreApplication::translate("as::Settings", "source %1").arg(named(b.srcTok));
    if (named(a.tgtTok) != named(b.tgtTok))
        d << QCoreApplication::translate("as::Settings", "target %1").arg(named(b.tgtTok));
    return d.isEmpty() ? QCoreApplication::translate("as::Settings", "the same settings") : d.join(QStringLiteral(", "));
}

}  // namespace as
