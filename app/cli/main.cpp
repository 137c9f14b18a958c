// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// attention-studio-cli: the list of commands and the dispatch to each (a file per command in
// app/cli/, their options read through options.h).
#include "commands.h"

#include <QCoreApplication>
#include <QTextStream>

#include "train/allocator.h"

namespace as::cli {
namespace {
const char* kUsage =
    "usage: attention-studio-cli COMMAND [options]\n"
    "\n"
    "commands:\n"
    "  train      train on a built-in task (--task) or a parallel corpus (--data)\n"
    "  translate  translate standard input with a trained model\n"
    "  eval       NLL, loss, token accuracy and BLEU of a model on a corpus\n"
    "  bench      time training steps of the configurations of core/SPEC.md §7.3 (JSON)\n"
    "  bleu       score translations against references (sacreBLEU's default BLEU)\n"
    "  export     write a model's weights as a weight file, core/SPEC.md §8 (for PyTorch)\n"
    "  import     make a model of a weight file written elsewhere (e.g. PyTorch)\n"
    "  heads      score every attention head on a corpus: importance, ΔNLL, confidence (JSON)\n"
    "  attribute  what each output token rests on: integrated gradients, gradient × input,\n"
    "             attention or rollout, per line of standard input (JSON lines)\n"
    "  trace      every intermediate of one forward pass (embeddings, Q/K/V, scores, weights,\n"
    "             residuals, logits, logit lens) per line of standard input (JSON lines)\n"
    "  vocab      write a corpus's vocabularies and encoded pairs (for scripts/train_ddp.py)\n"
    "\n"
    "Layers and heads are numbered from 0 in every command's options and output (JSON,\n"
    "--mask-heads kind:layer:head); the window numbers them from 1.\n"
    "'attention-studio-cli COMMAND --help' describes a command's options.\n";
const QStringList kCommands = {"train", "translate", "eval",      "bench", "bleu",
                               "export", "import",  "heads", "attribute", "trace",
                               "vocab"};

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
    err << "attention-studio-cli: unknown command '" << command << "'\n\n" << kUsage;
    return 2;
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
        (args.size() < 2 ? err : out) << as::cli::kUsage;
        return args.size() < 2 ? 2 : 0;
    }
    if (args[1] == "--version" || args[1] == "-v") {
        out << "attention-studio-cli " << QCoreApplication::applicationVersion() << "\n";
        return 0;
    }
    const QString command = args[1];
    args.removeAt(1);  // the command's own parser sees "program --options…"
    const int status = as::cli::runCommand(command, args);
    // 2 is a usage error (an unknown option, a bad number): say where the options are listed.
    if (status == 2 && as::cli::kCommands.contains(command))
        err << "(attention-studio-cli " << command << " --help lists the options)\n";
    return status;
}
