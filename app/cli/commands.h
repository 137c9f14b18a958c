// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
#include <vector>
// The commands of attention-studio-cli, one file each (train.cpp, translate.cpp, …). Each parses
// its own arguments (args[0] is the command's name) and returns the process exit code: 0
// success, 1 a failure while running, 2 bad usage.
#include <QStringList>

class QTextStream;

namespace as {
struct Checkpoint;
}

namespace as::cli {

class Options;

// resume: a loaded checkpoint to continue from (train --resume), or null.
int runTrain(const QStringList& args, as::Checkpoint* resume = nullptr);
// train --resume CKPT (resume.cpp): checks the options, loads the checkpoint and runs train
// again with the recorded options and the ones given now.
int runTrainResume(Options& options);
int runBench(const QStringList& args);
// bench --heads MODEL --data D (bench_heads.cpp), with runBench's parsed options.
int benchHeads(Options& options, QTextStream& out, QTextStream& err);
int benchInduction(Options& options, QTextStream& out, QTextStream& err);
int benchModel(Options& options, QTextStream& out, QTextStream& err);
// The median of a benchmark's timings (the upper one of an even count; 0 for none).
double medianOf(std::vector<double> v);
int runBleu(const QStringList& args);
int runTranslate(const QStringList& args);
int runGenerate(const QStringList& args);
int runEval(const QStringList& args);
int runExport(const QStringList& args);
int runImport(const QStringList& args);
int runHeads(const QStringList& args);
int runAttribute(const QStringList& args);
int runTrace(const QStringList& args);
int runVocab(const QStringList& args);

}  // namespace as::cli
