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
const QStringList kChangeableOnResume = {"clip-norm", "valid-every", "average"};
const QStringList kFiles = as::CorpusRun::fileOptions();
const QStringList kNotWithResume = {"task", "batch"};

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
    const QString kind = data.value("kind").toString();
    QStringList args{QStringLiteral("train")};
    if (kind == "task") {
        // A built-in task (by this command or the window): the settings are the checkpoint's own.
        const QString task = data.value("task").toString();
        if (!as::trainingTaskNames().contains(task)) {
            err << "train: " << path << " was trained on the task '" << task << "', which this "
                << "version does not have\n";
            return 2;
        }
        const QJsonObject session = ck->run.session;
        args << "--task" << task << "--config" << ck->model.config.spec() << "--seed"
             << QString::number(ck->options.seed) << "--warmup" << QString::number(ck->options.warmup)
             << "--factor" << QString::number(ck->options.factor, 'g', 17);
        if (data.contains("batch_size"))
            args << "--batch" << QString::number(data.value("batch_size").toInt());
        if (data.contains("batch_tokens"))
            args << "--batch-tokens" << QString::number(data.value("batch_tokens").toInt());
        if (!p.isSet("clip-norm"))
            args << "--clip-norm" << QString::number(ck->options.clipNorm, 'g', 17);
        if (!p.isSet("valid-every") && session.value("eval_every").toInt() > 0)
            args << "--valid-every" << QString::number(session.value("eval_every").toInt());
        if (!p.isSet("average") && session.contains("average"))
            args << "--average" << QString::number(session.value("average").toInt());
    } else if (kind == "corpus") {
        const QJsonArray recorded = data.value("args").toArray();
        for (qsizetype i = 0; i < recorded.size(); ++i) {
            const QString a = recorded[i].toString();
            if (!a.startsWith("--") || !(kRecorded + kFiles).contains(a.mid(2))) {
                err << "train: " << path << ": recorded argument '" << a << "' is not one --resume "
                    << "accepts\n";
                return 1;
            }
            const QString name = a.mid(2);
            const bool flag = name == "strict";
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
                                        QCommandLineOption("valid-every", "", "N")}) {
        const QString name = o.names().first();
        if (p.isSet(name))
            args << "--" + name << p.value(name);
    }
    if (!p.isSet("checkpoint"))
        args << "--checkpoint" << path;  // go on saving where the run was resumed from
    return runTrain(args, &*ck);
}

}  // namespace as::cli
