// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What several commands read from a corpus (corpus_input.cpp).
#include "text/corpus.h"

#include <QList>
#include <QString>

#include <optional>
#include <vector>

class QTextStream;
namespace as {
struct CorpusBuildReport;
struct CorpusSource;
struct EncodedPair;
class ParallelData;
}

namespace as::cli {

class Options;

// Reads a corpus file (TSV, or manythings' Anki format, guessed), printing the reader's report
// (skipped lines with file:line) to err. toEnglish: for Anki files, translate the other
// language into English (true) or English into it (false). strict: refuse the file at its
// first bad line.
std::optional<QList<as::SentencePair>> readPairs(const QString& path, QTextStream& err,
                                                 bool toEnglish = true, bool strict = false);
// The options that say which corpus and how to read it (train --data, vocab): --data, --valid,
// --anki-direction, --min-freq, --max-vocab, --strict, --shared-vocab, --src-tok, --tgt-tok.
void addCorpusSourceOptions(Options& options);
// Those options (given, or their defaults) into *source; false after refusing one.
bool corpusSourceFrom(Options& options, as::CorpusSource* source);
// A decoder-only model's text (core/SPEC.md §2.10): the sentences of the bundled corpus's
// English side (task lm-en) or Chinese side (lm-zh) in its split "test" or "valid", or, with
// an empty task, the lines of dataPath (one sentence per line). nullopt after printing
// "command: why" (an unknown task, a file that cannot be read).
std::optional<QStringList> languageModelSentences(const QString& command, const QString& task,
                                                  const QString& split, const QString& dataPath,
                                                  QTextStream& err);
// Each sentence as a decoder-only model reads it, <s> sentence </s> teacher-forced: its
// tokens, a pair without a source. Sentences without a token, or longer than the model's
// context (maxLen, with its <s>), are left out and counted in *skipped.
std::vector<as::EncodedPair> encodeLanguageModelText(const as::ParallelData& codec, int maxLen,
                                                     const QStringList& sentences, int* skipped);
// The readers' summaries when they left something out, then each line or pair left out by
// file:line (the first 20).
void printCorpusProblems(const as::CorpusBuildReport& report, QTextStream& err);

}  // namespace as::cli
