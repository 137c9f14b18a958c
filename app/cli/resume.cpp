// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// train --checkpoint / --resume: what a corpus run records in its checkpoint, and how a run
// is resumed from one.
//
// A checkpoint of a corpus run records the options that shape the run (data, model,
// schedule, batching, vocabularies, averaging), every one with its value in force
// (as::CorpusRun::args, which the window writes too), so that a later version with other
// defaults resumes the same run. --resume parses those again
// with the options the user gives now (how long, where to save, threads, a moved data file),
// so the resumed run is set up by the same code as the first one and then continues from the
// checkpoint's weights, Adam state, generators and data position.
#include "commands.h"
#include "model_input.h"
#include "options.h"

#include "io/checkpoint.h"
#include "run/resume.h"
#include "train/corpus_run.h"
#include "train/session_data.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QTextStream>

namespace as::cli {
namespace {

// Options that define the run: recorded (as::CorpusRun::args), and fixed on --resume; of those,
// the ones a resumed run may change; the ones that name files (may be given again when the files
// moved); and the ones that cannot apply to a resumed corpus run.
const QStringList kRecorded = as::CorpusRun::recordedOptions();
const QStringList kChangeableOnResume = {"clip-norm", "valid-every", "average", "precision"};
const QStringList kFiles = as::CorpusRun::fileOptions();
const QStringList kNotWithResume = {"task", "batch", "model"};

}  // namespace

int runTrainResume(Options& p)
{
    QTextStream err(stderr);
    const QString path = p.value("resume");
    for (const QString& name : kRecorded + kNotWithResume) {
        if (p.isSet(name) && !kChangeableOnResume.contains(name)) {
            err << "train: --" << name << " cannot be given with --resume: the run continues "
                << "with the checkpoint's settings\n";
            return 2;
        }
    }
    std::optional<as::Checkpoint> ck = loadCheckpointFile(path, QStringLiteral("train"), err);
    if (!ck)
        return 1;
    const QJsonObject data = ck->run.data;
    const as::SavedRunKind kind = as::savedRunKind(*ck);
    QStringList args{QStringLiteral("train")};
    if (kind == as::SavedRunKind::Task) {
        // A built-in task (by this command or the window): the settings are the checkpoint's own.
        as::SessionSettings saved;
        as::TokenPair probe;
        QString why;
        if (!as::savedTaskSettings(*ck, &saved, &probe, &why)) {
            err << "train: " << path << ": " << why << "\n";
            return 2;
        }
        args << "--task" << saved.task;
        // A fine-tuning run's model is the checkpoint's own (runTrain reads it from there).
        if (!saved.modelText)
            args << "--config" << saved.model.spec();
        args << "--seed"
             << QString::number(saved.train.seed) << "--warmup" << QString::number(saved.train.warmup)
             << "--factor" << QString::number(saved.train.factor, 'g', 17);
        if (saved.sharedVocab)
            args << "--shared-vocab";
        // A corpus's batches by tokens; a generated task's and a language model's by rows
        // (sentences or windows) — also when a tokeniser is named, as lm-en's may be.
        if (as::isBundledCorpusTask(saved.task))
            args << "--batch-tokens" << QString::number(saved.batchTokens);
        else
            args << "--batch" << QString::number(saved.batchSize);
        if (saved.srcTok)
            args << "--src-tok" << as::tokenizerName(*saved.srcTok);
        if (saved.tgtTok)
            args << "--tgt-tok" << as::tokenizerName(*saved.tgtTok);
        if (!p.isSet("clip-norm"))
            args << "--clip-norm" << QString::number(saved.train.clipNorm, 'g', 17);
        if (!p.isSet("valid-every") && saved.evalEvery > 0)
            args << "--valid-every" << QString::number(saved.evalEvery);
        if (!p.isSet("average"))
            args << "--average" << QString::number(saved.averagePoints);
    } else if (kind == as::SavedRunKind::Corpus) {
        const QJsonArray recorded = data.value("args").toArray();
        for (qsizetype i = 0; i < recorded.size(); ++i) {
            const QString a = recorded[i].toString();
            if (!a.startsWith("--") || !(kRecorded + kFiles).contains(a.mid(2))) {
                err << "train: " << path << ": recorded argument '" << a << "' is not one --resume "
                    << "accepts\n";
                return 1;
            }
            const QString name = a.mid(2);
            const bool flag = name == "strict" || name == "shared-vocab";
            if (!flag && i + 1 >= recorded.size()) {
                err << "train: " << path << ": recorded option --" << name << " has no value\n";
                return 1;
            }
            // Given now: a moved file, or a new clip norm / validation interval.
            if (p.isSet(name)) {
                i += flag ? 0 : 1;
                continue;
            }
            args << a;
            if (!flag)
                args << recorded[++i].toString();
        }
    } else {
        err << "train: " << path << " holds a model opened to look inside, not a training run\n";
        return 2;
    }
    // The options given now (everything but --resume itself).
    for (const QCommandLineOption& o : {QCommandLineOption("steps", "", "N"),
                                        QCommandLineOption("minutes", "", "M"),
                                        QCommandLineOption("out", "", "MODEL"),
                                        QCommandLineOption("checkpoint", "", "CKPT"),
                                        QCommandLineOption("checkpoint-minutes", "", "M"),
                                        QCommandLineOption("threads", "", "N"),
                                        QCommandLineOption("average", "", "K"),
                                        QCommandLineOption("data", "", "F"),
                                        QCommandLineOption("valid", "", "F"),
                                        QCommandLineOption("clip-norm", "", "N"),
                                        QCommandLineOption("precision", "", "P"),
                                        QCommandLineOption("valid-every", "", "N")}) {
        const QString name = o.names().first();
        if (p.isSet(name))
            args << "--" + name << p.value(name);
    }
    // No length given now: the run goes on to the steps it planned (the checkpoint records them).
    const long plannedSteps = as::recordedPlan(*ck).steps;
    if (!p.isSet("steps") && !p.isSet("minutes") && plannedSteps >= 1)
        args << "--steps" << QString::number(plannedSteps);
    if (!p.isSet("checkpoint"))
        args << "--checkpoint" << path;  // go on saving where the run was resumed from
    return runTrain(args, &*ck);
}

}  // namespace as::cli
