// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A user's corpus as a training run takes it: the files, how to read them, and the settings
// that shape the run; built into a session's data with a report of what was read and what was
// left out. `attention-studio-cli train --data`, the window's "Open corpus…" and the
// continuation of either's checkpoints all go through here. A checkpoint records the run as
// the command line's own arguments (CorpusRun::args()), so that each program continues the
// other's runs: `train --resume` splices them into its options, the window reads them back
// with CorpusRun::fromArgs().
#include "eval/evaluate.h"
#include "text/corpus.h"
#include "text/dataset.h"
#include "train/recipe.h"
#include "train/session_data.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>

#include <memory>
#include <optional>

namespace as {

// Without a validation file, kHeldOutFraction of the training pairs are held out by
// heldOutSplit() with kHeldOutSeed: a fixed rule, whatever the run's seed, so that runs with
// other seeds (or a window session reset with another seed) are scored on the same pairs and
// train on the same ones.
inline constexpr double kHeldOutFraction = 0.02;
inline constexpr quint64 kHeldOutSeed = 1;

struct CorpusSource {
    QString train;             // the training file
    QString valid;             // the validation file; empty: held out of train (kHeldOutSeed)
    bool ankiToEnglish = true; // manythings' Anki files: the other language into English
    bool strict = false;       // refuse a file with any bad line instead of skipping it
    DatasetOptions dataset;    // tokenisers (nullopt: guessed), minimum counts, vocabulary sizes

    bool heldOut() const { return valid.isEmpty(); }
};

struct CorpusRun {
    CorpusSource source;
    // The model, the optimiser's options (seed, warmup, factor, clipping), the token budget
    // of a batch, the validation interval and checkpoint averaging. corpusRecipe() unless set.
    TaskRecipe recipe = corpusRecipe();

    // The command line's options for this run, every one written out (files absolute), as a
    // checkpoint records them: "--data", "/abs/train.tsv", "--config", "d_model=256,…", …
    QJsonArray args() const;
    // The part of args() that says which pairs the run reads (files, readers' and
    // vocabularies' options), without the training recipe's.
    QJsonArray sourceArgs() const;
    // The run such a list describes (options absent keep corpusRecipe()'s values); nullopt and
    // *error for an option it does not know or a value out of range.
    static std::optional<CorpusRun> fromArgs(const QJsonArray& args, QString* error);
    // The options args() writes: the ones `train --resume` takes from a checkpoint.
    static QStringList recordedOptions();
    static QStringList fileOptions();  // of those, the ones that name files
};

// --anki-direction, --src-tok / --tgt-tok, --min-freq, --max-vocab, --strict and --shared-vocab
// (flags: any value) as the command
// line takes them, into *source; false and *error for a bad value.
bool parseSourceOption(const QString& name, const QString& value, CorpusSource* source,
                       QString* error);

// What reading a corpus found: the readers' reports, what the encoder left out, the
// vocabularies. Shown by the command line and by the window's "Open corpus…".
struct CorpusBuildReport {
    QString trainFile, validFile;  // validFile empty: held out of trainFile
    CorpusReport trainRead, validRead;
    DatasetStats trainStats, validStats;
    int srcVocab = 0, tgtVocab = 0;
    Tokenizer srcTok = TokenizerKind::Word, tgtTok = TokenizerKind::Word;

    // One line each for the training pairs, the validation pairs and the vocabularies.
    QStringList summary() const;
    // "file:line: what" for each line or pair left out, in file order, at most `max` (and a
    // last line saying how many more).
    QStringList problems(int max = 20) const;
};

struct CorpusBuild {
    std::unique_ptr<SessionData> data;  // null: see error (or cancelled)
    CorpusBuildReport report;           // as far as the reading went
    QString error;
    bool cancelled = false;
};

// Reads the files, holds out the validation pairs if there is no validation file, builds the
// vocabularies and encodes both parts: about a second for Tatoeba's 29,000 pairs, so call it
// off the GUI thread. progress (done, total: per mille of the work) may return false to
// cancel. The data's record() is corpusRunRecord(run, its training pairs).
CorpusBuild buildCorpus(const CorpusRun& run, const Progress& progress = {});

// buildCorpus's second half, from the pairs as text (the training pairs read, the validation
// pairs read or held out): the vocabularies and tokenisers built from `train` with `dataset`,
// both parts encoded, the data's record corpusRunRecord(run, its training pairs); into *b (its
// data, or its error; its report's statistics and vocabularies). Also how A/B's B cuts a user's
// corpus another way (makeSessionData): from the text the corpus kept (SessionData::
// trainingText, validationText), never reading the file again. progress as buildCorpus's
// (from 500 per mille on).
void buildCorpusFromText(const CorpusRun& run, const DatasetOptions& dataset,
                         QList<SentencePair> train, QList<SentencePair> valid, CorpusBuild* b,
                         const Progress& progress = {});

// The "data" object of a corpus run's checkpoint: {"kind": "corpus", "args": run.args(),
// "train": the training file, "pairs": how many, "pairs_sha1": pairsDigest()}.
QJsonObject corpusRunRecord(const CorpusRun& run, const std::vector<EncodedPair>& pairs);

// Empty when `data` (rebuilt from a checkpoint's record) is the data the checkpoint was
// trained on: the same vocabularies and the same encoded training pairs; else why not.
QString checkSameData(const SessionData& data, const Vocab& srcVocab, const Vocab& tgtVocab,
                      const QJsonObject& recorded);

}  // namespace as
