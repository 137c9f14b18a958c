// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// attention-studio-cli: the list of commands and the dispatch to each (a file per command in
// app/cli/, their options read through options.h).
#include "commands.h"

#include "options.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

#include "train/allocator.h"

namespace as::cli {
namespace {
// The commands, in the order the usage lists them, with their one-line summaries.
struct Command {
    const char* name;
    const char* summary;
};
const Command kCommandList[] = {
    {"train", "train on a built-in task (--task) or a parallel corpus (--data)"},
    {"translate", "translate standard input with a trained model"},
    {"generate", "continue each line of standard input with a decoder-only model (GPT)"},
    {"eval", "NLL, loss, token accuracy and BLEU of a model on a corpus (a decoder-only "
             "model: perplexity)"},
    {"bench", "time training steps of the benchmark configurations (tiny, small, base) (JSON)"},
    {"bleu", "score translations against references (sacreBLEU's default BLEU)"},
    {"export", "write a model's weights as a safetensors weight file (for PyTorch)"},
    {"import", "make a model of a weight file written elsewhere (e.g. PyTorch)"},
    {"heads", "score every attention head on a corpus: importance, ΔNLL, confidence (JSON)"},
    {"attribute", "what each output token rests on: integrated gradients, gradient × input, "
                  "attention or rollout, per line of standard input (JSON lines)"},
    {"trace", "every intermediate of one forward pass (embeddings, Q/K/V, scores, weights, "
              "residuals, logits, logit lens) per line of standard input (JSON lines)"},
    {"vocab", "write a corpus's vocabularies and encoded pairs (for scripts/train_ddp.py)"},
};
const char* kUsageEnd =
    "\n"
    "Layers and heads are numbered from 0 in every command's options and output (JSON,\n"
    "--mask-heads kind:layer:head); the window numbers them from 1.\n"
    "'attention-studio-cli COMMAND --help' describes a command's options; the manual page\n"
    "attention-studio-cli(1) all of them. The sections cited as core/SPEC.md §N are those of\n"
    "the model's specification, installed as " AS_DOC_DIR "/core/SPEC.md\n"
    "(core/SPEC.md in the sources), beside the user guide (docs/).\n";

// The summaries wrapped at 95 columns after an 11-column name.
QString usage()
{
    QString text = QStringLiteral("usage: attention-studio-cli COMMAND [options]\n\ncommands:\n");
    for (const Command& c : kCommandList) {
        QString line = QStringLiteral("  %1 ").arg(QString::fromLatin1(c.name), -9);
        for (const QString& word : QString::fromUtf8(c.summary).split(u' ')) {
            if (line.size() + 1 + word.size() > 95) {
                text += line + u'\n';
                line = QString(12, u' ');
            } else if (!line.endsWith(u' ')) {
                line += u' ';
            }
            line += word;
        }
        text += line + u'\n';
    }
    return text + QString::fromUtf8(kUsageEnd);
}

QStringList commandNames()
{
    QStringList names;
    for (const Command& c : kCommandList)
        names << QString::fromLatin1(c.name);
    return names;
}

int runCommand(const QString& command, const QStringList& args)
{
    QTextStream err(stderr);
    if (command == "train")
        return runTrain(args);
    if (command == "bench")
        return runBench(args);
    if (command == "bleu")
        return runBleu(args);
    if (command == "translate")
        return runTranslate(args);
    if (command == "generate")
        return runGenerate(args);
    if (command == "eval")
        return runEval(args);
    if (command == "export")
        return runExport(args);
    if (command == "import")
        return runImport(args);
    if (command == "heads")
        return runHeads(args);
    if (command == "attribute")
        return runAttribute(args);
    if (command == "trace")
        return runTrace(args);
    if (command == "vocab")
        return runVocab(args);
    err << "attention-studio-cli: unknown command '" << command << "'\n\n" << usage();
    return 2;
}
// Every command's option table, as one JSON document (option_table.h): each command is run
// with an Options that appends its table instead of parsing, and returns before doing anything.
QByteArray optionsJson()
{
    QJsonArray tables;
    Options::describeInto(&tables);
    for (const QString& name : commandNames())
        runCommand(name, {QStringLiteral("attention-studio-cli")});
    Options::describeInto(nullptr);
    QJsonArray commands;
    const QStringList names = commandNames();
    for (qsizetype i = 0; i < tables.size(); ++i) {
        QJsonObject t = tables[i].toObject();
        t.insert("summary", QString::fromUtf8(kCommandList[i].summary));
        if (t.value("name").toString() != names[i])
            qFatal("optionsJson: command %s described itself as %s", qPrintable(names[i]),
                   qPrintable(t.value("name").toString()));
        commands.push_back(t);
    }
    const QJsonObject doc{{"program", "attention-studio-cli"},
                          {"version", QCoreApplication::applicationVersion()},
                          {"usage", usage()},
                          {"commands", commands}};
    return QJsonDocument(doc).toJson(QJsonDocument::Indented);
}
}  // namespace
}  // namespace as::cli

int main(int argc, char** argv)
{
    as::keepFreedMemoryForReuse();
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName("attention-studio-cli");
    QCoreApplication::setApplicationVersion(QStringLiteral(PROJECT_VERSION_STRING));
    QStringList args = QCoreApplication::arguments();
    QTextStream out(stdout), err(stderr);
    if (args.size() < 2 || args[1] == "--help" || args[1] == "-h" || args[1] == "help") {
        (args.size() < 2 ? err : out) << as::cli::usage();
        return args.size() < 2 ? 2 : 0;
    }
    if (args.size() == 2 && args[1] == "--options-json") {
        out << as::cli::optionsJson();
        return 0;
    }
    if (args[1] == "--version" || args[1] == "-v") {
        out << "attention-studio-cli " << QCoreApplication::applicationVersion() << "\n";
        return 0;
    }
    const QString command = args[1];
    args.removeAt(1);  // the command's own parser sees "program --options…"
    const int status = as::cli::runCommand(command, args);
    // 2 is a usage error (an unknown option, a bad number): say where the options are listed.
    if (status == 2 && as::cli::commandNames().contains(command))
        err << "(attention-studio-cli " << command << " --help lists the options)\n";
    return status;
}
