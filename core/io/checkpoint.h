// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A training checkpoint: everything needed to continue a run exactly, in one file.
//
// Layout (integers little-endian):
//   0      8   magic "\x89ASCKPT\n" (the high byte and the newline catch text-mode transfers)
//   8      4   u32 format version, kCheckpointVersion
//   12     4   u32 section count n, 1 … kCheckpointMaxSections
//   16   64n   section table, per section: name (16 bytes ASCII, NUL-padded), u64 offset,
//              u64 size, BLAKE2b-256 of the section's bytes (32)
//   …     32   BLAKE2b-256 of bytes [0, 16 + 64n): the table itself
//   then the sections back to back in table order, the last one ending at the end of the file.
// Sections, each exactly once:
//   "meta"     UTF-8 JSON object: step counts, training options, random generator states,
//              data position, which data the run trains on, the session's settings
//   "model"    a model file (io/model_file.h): configuration, vocabularies, tokenisers, every
//              parameter under its core/SPEC.md §6.1 name
//   "adam"     Adam's first then second moment: 2 x n f32, in the model's parameter order
//   "history"  loss points, validation points, attention records, the last batch
//              (io/history_codec.h)
// The container (table, digests, atomic writing) is io/checkpoint_container.h, the meta JSON
// io/checkpoint_meta.h, the byte primitives io/bytes.h.
//
// Reading checks the table against the file size before reading the rest, every checksum,
// then every field and count against the bytes that are left before anything is allocated:
// a damaged or hostile file gives std::nullopt and a message naming the section and field,
// never a crash or an allocation larger than the file.
#include "io/checkpoint_container.h"
#include "io/model_file.h"
#include "model/rng.h"
#include "train/history.h"
#include "train/trainer.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace as {

// What the caller knows about a run beyond the trainer: the data stream and the settings.
struct CheckpointRun {
    Rng::State dataRng = Rng().state();  // built-in tasks draw their batches from it
    int epoch = 0;          // Batcher::epoch()
    qint64 position = 0;    // Batcher::position()
    double trainSeconds = 0;
    // Time in the session's step() and validate() over the whole run (TrainingSession::
    // elapsedSeconds): the clock of a planned time and of the averaging points. A file of
    // format 2 or older has none: its training time stands in.
    double busySeconds = 0;
    // Checkpoint averaging (WeightAverage) so far: snapshots taken and their sum. False for a
    // file of format 2 or older, which did not record it: a resumed run averages afresh.
    bool averageKnown = true;
    int averageTaken = 0;
    Eigen::VectorXd averageSum;  // empty when none was taken
    QJsonObject data;     // which data: {"kind": "task", …} or {"kind": "corpus", …}
    QJsonObject session;  // settings of the program that trained (planned steps, probe, …)
};

struct Checkpoint {
    ModelBundle model;  // configuration, vocabularies, tokenisers, weights
    TrainOptions options;
    long step = 0;      // Trainer::stepCount()
    long adamStep = 0;  // Adam::steps()
    Rng::State dropoutRng{};
    Eigen::VectorXf adamM, adamV;
    CheckpointRun run;
    TrainingHistory history;
};

struct CheckpointSaveOptions {
    // Called as bytes are written (every few MB and at the end); returning false abandons the
    // save, which then fails and leaves any previous file as it was.
    std::function<bool(qint64 written, qint64 total)> progress;
};

// Writes atomically (QSaveFile): on failure, or if the process dies midway, the previous file
// at `path` is left as it was. Refuses (with *error) a model whose weights are not finite or
// whose vocabularies do not fit its embeddings.
bool saveCheckpoint(const QString& path, const Trainer& trainer, const Vocab& srcVocab,
                    const Vocab& tgtVocab, Tokenizer srcTok, Tokenizer tgtTok,
                    const CheckpointRun& run, const TrainingHistory& history, QString* error,
                    const CheckpointSaveOptions& options = {});
std::optional<QByteArray> serializeCheckpoint(const Trainer& trainer, const Vocab& srcVocab,
                                              const Vocab& tgtVocab, Tokenizer srcTok,
                                              Tokenizer tgtTok, const CheckpointRun& run,
                                              const TrainingHistory& history, QString* error);

// std::nullopt and *error ("FILE: section 'adam': …") on any problem.
std::optional<Checkpoint> loadCheckpoint(const QString& path, QString* error);
std::optional<Checkpoint> loadCheckpointFromBytes(const QByteArray& bytes, QString* error);

// Rng state as 64 hex digits and back (JSON numbers cannot hold 64-bit integers exactly).
QString rngStateToHex(const Rng::State& s);
std::optional<Rng::State> rngStateFromHex(const QString& hex);

}  // namespace as
