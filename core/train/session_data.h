// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a training session learns from, behind one interface: a built-in task that generates
// its batches from a seed, or a parallel corpus (the one that ships with the program, or a
// user's) served by a Batcher; or nothing at all, for a model opened only to look inside.
//
// Each source knows its vocabularies and tokenisers, a few sentence pairs to show (probes,
// samples), its validation pairs, the next batch, and how to record and restore its position
// in a checkpoint, so that a resumed run draws exactly the batches it would have drawn.
#include "text/dataset.h"
#include "text/lm_tasks.h"
#include "text/tasks.h"
#include "train/batch.h"

#include <QJsonObject>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

namespace as {

struct CheckpointRun;
struct DataOptions;

class SessionData {
public:
    virtual ~SessionData() = default;

    // "toy", "zh-en", "corpus:train.tsv", "model:file.safetensors"
    virtual QString name() const = 0;
    // False for a model opened to look inside: next() must not be called.
    virtual bool trainable() const { return true; }
    // The most positions a sequence of its batches holds (0: not known), which a model with
    // learned positions must have (fitModelToData).
    virtual int longestSequence() const { return description_.longestSequence; }
    virtual Batch next() = 0;
    // Completed passes over the data after `steps` batches; -1 for endless generated data.
    virtual int epoch(long steps) const = 0;
    // Which data this is, as a checkpoint records it (CheckpointRun::data).
    virtual QJsonObject record() const = 0;
    // The position in the data (generator state, or epoch and batch), into / from a checkpoint.
    virtual void storePosition(CheckpointRun* run) const = 0;
    // Empty on success, else why the position cannot be restored (nothing changed then).
    virtual QString restorePosition(const CheckpointRun& run) = 0;
    // The same data from its first batch with other options (seed, token budget) and another
    // record(), for data that cannot be made again by name (a user's corpus, read once);
    // nullptr for the rest (makeTaskData() makes those).
    virtual std::unique_ptr<SessionData> restart(const DataOptions&, QJsonObject) const
    {
        return nullptr;
    }
    // A corpus's encoded training pairs in file order (those record()'s pairs_sha1 digests);
    // nullptr for generated data.
    virtual const std::vector<EncodedPair>* trainingPairs() const { return nullptr; }
    // A corpus's training split as text, as it was read (also the pairs the encoder left out):
    // the sentences the window's Tokens view cuts with other tokenisers (issue 27 §1), and
    // with validationText() what A/B's B cuts another way (makeSessionData), kept so that a
    // user's corpus, read once, need not be read again. Empty for generated data and for a
    // model opened to look inside.
    const QList<SentencePair>& trainingText() const { return trainingText_; }

    // The session's vocabularies, tokenisers and example pairs (as tokens), as the window
    // needs them: a Task without a batch generator.
    const Task& description() const { return description_; }
    const Vocab& srcVocab() const { return description_.srcVocab; }
    const Vocab& tgtVocab() const { return description_.tgtVocab; }
    Tokenizer srcTokenizer() const { return description_.srcTokenizer; }
    Tokenizer tgtTokenizer() const { return description_.tgtTokenizer; }
    const std::vector<TokenPair>& examples() const { return description_.examples; }
    // The same pairs as text (for a corpus, as the file has them): the samples translated at
    // each validation.
    const QList<SentencePair>& exampleText() const { return exampleText_; }
    // Held-out pairs, evaluated at the validation interval.
    const std::vector<EncodedPair>& validation() const { return validation_; }
    // The same pairs as text (every one the file held, also those too long to encode): the
    // sources to translate and the references to score BLEU against.
    const QList<SentencePair>& validationText() const { return validationText_; }
    // Text to ids and back with the session's vocabularies and tokenisers.
    ParallelData codec() const;

protected:
    Task description_;  // nextBatch left empty
    std::vector<EncodedPair> validation_;
    QList<SentencePair> validationText_;
    QList<SentencePair> exampleText_;
    QList<SentencePair> trainingText_;
};

// A translation task's or corpus's data as a decoder-only model reads it (core/SPEC.md §2.10):
// the same batches in the same order without their sources, the same validation targets, the
// target's vocabulary as its one (TargetSideData in session_data.cpp). Null for null.
std::unique_ptr<SessionData> targetSideData(std::unique_ptr<SessionData> pairs);

// The translation tasks: the generated ones (toy, copy, reverse, sort; tasks.h) and the corpora
// that ship with the program (zh-en; text/bundled_corpus.h). An encoder-decoder trains on them.
QStringList translationTaskNames();
// Every built-in task a run trains on: the translation tasks, then the language models'
// (lm-en, lm-zh, lm-brackets; text/lm_tasks.h), which a decoder-only model trains on.
QStringList trainingTaskNames();
// One of those, or a task named with its parameters ("repeat:64:8:30", text/repeat_task.h).
bool isTrainingTask(const QString& name);
bool isBundledCorpusTask(const QString& name);

// Validation pairs shown as probes and samples for a corpus.
inline constexpr int kSamplePairs = 8;

struct DataOptions {
    int batchSize = 32;      // sentences per batch (generated tasks)
    int batchTokens = 1500;  // token budget of a batch (corpora)
    quint64 seed = 1;        // the order of the batches
    // A bundled corpus: one vocabulary for both sides (DatasetOptions::shared_vocab). The
    // generated tasks refuse it (copy, reverse and sort have one already).
    bool sharedVocab = false;
    // A bundled corpus's tokenisers (bpe:N / unigram:N trained on its training split);
    // nullopt: guessed, as before (zh-en: cjk-char, word).
    std::optional<Tokenizer> srcTok, tgtTok;
    // Fine-tuning a model (lm-en, lm-zh): the text read with the model's own vocabulary and
    // tokeniser (text/lm_tasks.h); srcTok and tgtTok are not given then.
    std::shared_ptr<const ModelText> modelText;
};

// A built-in task by name, or nullptr and *error. For a bundled corpus this reads, splits and
// encodes it (about a second): call it off the GUI thread.
std::unique_ptr<SessionData> makeTaskData(const QString& name, const DataOptions& options,
                                          QString* error);

// A corpus: its vocabularies and encoded training pairs, the training pairs as text (`data` was
// built from them: trainingText()), the validation split encoded with them, and `record` for
// checkpoints. `examples`: pairs shown as probes and samples (their
// sources and targets as the tokenisers cut them), `exampleText` the same as text. Throws std::invalid_argument when there is
// no training pair or the budget is under 1 (Batcher).
std::unique_ptr<SessionData> makeCorpusData(ParallelData data, QList<SentencePair> trainText,
                                            std::vector<EncodedPair> valid,
                                            QList<SentencePair> validText,
                                            std::vector<TokenPair> examples,
                                            QList<SentencePair> exampleText,
                                            const DataOptions& options, QJsonObject record,
                                            QString name);

// Vocabularies and tokenisers only: a model to look inside. languageModel: a decoder-only
// model's (its probes are the target side alone, Task::languageModel).
std::unique_ptr<SessionData> makeInspectionData(QString name, Vocab src, Vocab tgt,
                                                Tokenizer srcTok, Tokenizer tgtTok,
                                                bool languageModel = false);

// Where the k-th of `count` samples of n items is taken: (k + 1) / (count + 1) of the way, so that
// samples spread over a corpus file (often sorted by length, as Tatoeba's is).
qsizetype sampleIndex(qsizetype n, int k, int count);

// `count` pairs at sampleIndex() of `pairs` (or the next one with tokens on both sides), for
// probes and samples: as tokens, and (if text is given) as they were.
std::vector<TokenPair> tokenPairs(const ParallelData& data, const QList<SentencePair>& pairs,
                                  int count, QList<SentencePair>* text = nullptr);

}  // namespace as
