// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The "meta" section of a checkpoint (io/checkpoint.h): a UTF-8 JSON object with the step
// counts, the training options, the random generators' states, the data position, which data
// the run trains on and the session's settings.
#include "io/checkpoint.h"

#include <QByteArray>
#include <QString>

namespace as {

QByteArray checkpointMetaBytes(const Trainer& trainer, const CheckpointRun& run);

// Fills c's step counts, options, generator states and run from the JSON; false and *error
// (naming the key and what is wrong) otherwise.
bool parseCheckpointMeta(const QByteArray& json, Checkpoint* c, QString* error);

}  // namespace as
