#pragma once
#include "text/corpus.h"

#include <QStringList>
#include <QTextStream>

#include <optional>

class QCommandLineParser;
namespace as {
struct CorpusBuildReport;
struct CorpusSource;
template <typename T>
class Transformer;
struct Checkpoint;
struct ModelConfig;
struct ModelBundle;
class ParallelData;
}

// Each command parses its own arguments (args[0] is the command's name) and returns the
// process exit code: 0 success, 1 a failure while running, 2 bad usage.
// resume: a loaded checkpoint to continue from (train --resume), or null.
int runTrain(const QStringList& args, as::Checkpoint* resume = nullptr);
int runBench(const QStringList& args);
// bench --heads MODEL --data D (cli_bench_heads.cpp), with runBench's parsed options.
int benchHeads(const QCommandLineParser& parser, QTextStream& out, QTextStream& err);
int runBleu(const QStringList& args);
int runTranslate(const QStringList& args);
int runEval(const QStringList& args);
int runExport(const QStringList& args);
int runImport(const QStringList& args);
int runHeads(const QStringList& args);
int runAttribute(const QStringList& args);
int runVocab(const QStringList& args);  // cli_vocab.cpp
// Reads a corpus file (TSV, or manythings' Anki format, guessed), printing the reader's report
// (skipped lines with file:line) to err. toEnglish: for Anki files, translate the other
// language into English (true) or English into it (false). strict: refuse the file at its
// first bad line.
std::optional<QList<as::SentencePair>> readPairs(const QString& path, QTextStream& err,
                                                 bool toEnglish = true, bool strict = false);
// The options that say which corpus and how to read it (train --data, vocab): --data, --valid,
// --anki-direction, --min-freq, --max-vocab, --strict, --src-tok, --tgt-tok.
void addCorpusSourceOptions(QCommandLineParser& parser);
// Those options (given, or their defaults) into *source; false after printing why
// ("command: …").
bool corpusSourceFrom(const QCommandLineParser& parser, as::CorpusSource* source,
                      const QString& command, QTextStream& err);
// The readers' summaries when they left something out, then each line or pair left out by
// file:line (the first 20).
void printCorpusProblems(const as::CorpusBuildReport& report, QTextStream& err);
// The --config spec of a configuration, every key written out.
QString configSpec(const as::ModelConfig& config);
// "small", "small,dropout=0.2" or "d_model=256,heads=8,…" applied over *config.
bool parseConfig(const QString& spec, as::ModelConfig* config, QString* error);

// --mask-heads SPEC: masks those heads of the model (cli_interpret.cpp); false after saying why.
bool applyMaskHeads(const QCommandLineParser& parser, as::Transformer<float>& model, QTextStream& err);
// A model file (io/model_file.h), or nullopt after printing "command: why" to err.
std::optional<as::ModelBundle> loadModelFile(const QString& path, const QString& command,
                                             QTextStream& err);
// The model's vocabularies and tokenisers as a codec; sources cut at the model's max_len.
as::ParallelData codecOf(const as::ModelBundle& bundle);
// Sets the number of threads of the maths (Eigen's GEMMs); 0 = every core.
void setMathThreads(int threads);
