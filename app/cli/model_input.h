// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What several commands read from a model (model_input.cpp): the model file or checkpoint, its
// codec, the heads to mask and the output length limit.
#include "model/head_id.h"

#include "decode/sampling.h"

#include <QString>

#include <functional>
#include <optional>
#include <vector>

class QTextStream;
namespace as {
template <typename T>
class Transformer;
struct Checkpoint;
struct ModelConfig;
struct ModelBundle;
class ParallelData;
}

namespace as::cli {

class Options;

// --beam takes 1 to this many.
inline constexpr int kMaxBeam = 1000;

// The one check before a command opens a model file or a checkpoint: a folder, a pipe (FIFO),
// a device or a socket is refused (opening a pipe would wait for a writer for ever, a device
// could be endless). False after printing "command: why"; a missing file passes, for the
// loader to say so.
bool usableModelPath(const QString& path, const QString& command, QTextStream& err);
// Which kind of model a command works with (core/SPEC.md §2.10): a translator
// (encoder–decoder), a language model (decoder-only), or either.
enum class ModelUse { Translator, LanguageModel, Any };

// A model file (io/model_file.h) or checkpoint, or nullopt after printing "command: why"; a
// model of a kind the command cannot use is refused by name, with the command that can.
std::optional<as::ModelBundle> loadModelFile(const QString& path, const QString& command,
                                             QTextStream& err, ModelUse use = ModelUse::Translator);
// A training checkpoint (train --resume), likewise.
std::optional<as::Checkpoint> loadCheckpointFile(const QString& path, const QString& command,
                                                 QTextStream& err);
// The model's vocabularies and tokenisers as a codec; sources cut at the model's max_len.
as::ParallelData codecOf(const as::ModelBundle& bundle);

// --max-len N (translate, eval): the option, and its value (0 when not given).
void addOutputLimitOption(Options& options);
int outputLimitOption(Options& options);
// The limit for DecodeOptions::maxLen: the one asked for, at most the model's max_len (with a
// note when it was more); 0 (not given) stays 0, DecodeOptions' default.
int outputLimit(int asked, const as::ModelConfig& config, const QString& command, QTextStream& err);

// --mask-heads SPEC: the heads it names (none when not given), or nullopt after refusing it.
std::optional<std::vector<as::HeadId>> maskedHeads(Options& options, const as::ModelConfig& config);
// Masks them in the model; false after refusing the option.
bool applyMaskHeads(Options& options, as::Transformer<float>& model);

// "N parameters in M tensors (d_model …)", for export and import.
QString modelSummary(const as::ModelBundle& bundle);
// Sets the number of threads of the maths; 0 = every core. Then the libraries of the products
// as measured for this CPU and thread count (model/gemm_tuning.h, `bench --retune`), if stored:
// true then. With none stored, and measureAtFirstUse, it measures them first (a few seconds,
// said on standard error; train/product_tuning.h), as the window does at its first start;
// bench does not, so that it times what it is asked to. A damaged tuning file is said on
// standard error and replaced.
bool setMathThreads(int threads, bool measureAtFirstUse = true);

// The model a command works on, opened as every command opens it: the maths' threads set, the
// file loaded (loadModelFile, its notes printed) and, with maskHeads, --mask-heads applied.
// std::nullopt and *exitCode (1: the file cannot be used, 2: a bad --mask-heads) otherwise.
std::optional<as::ModelBundle> openModel(Options& p, const QString& path, int threads,
                                         QTextStream& err, int* exitCode, bool maskHeads = true,
                                         ModelUse use = ModelUse::Translator);

// --temperature, --top-k, --top-p, --seed (translate, generate; core/SPEC.md §5.6).
void addSamplingOptions(Options& options);
// Whether any of them was given (then an output is drawn, not searched), and their values;
// after refusing a bad one, p.ok() is false.
// searching: what the command was also asked to search with (e.g. "--beam"), empty when
// nothing: sampling draws one output, so both together are refused.
bool samplingAsked(Options& options);
as::SamplingOptions samplingOptions(Options& options, const QString& searching = {});
// Line n of the input draws with seed S + n - 1: each line a sample of its own, each repeatable.
inline as::SamplingOptions lineSampling(as::SamplingOptions s, long lineNo)
{
    s.seed += std::uint64_t(lineNo - 1);
    return s;
}

// Each line of `in` (translate, generate): longer than 2000 characters, cut
// there and said on err; fn(line, lineNo) for each.
void forEachInputLine(QTextStream& in, QTextStream& err, const QString& command,
                      const std::function<void(const QString& line, long lineNo)>& fn);

}  // namespace as::cli
