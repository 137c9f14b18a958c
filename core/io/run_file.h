// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The run a file records, to draw beside the current one (View > Compare with run…).
#include "train/run_series.h"

#include <QString>

#include <optional>

namespace as {

// Reads a checkpoint (io/checkpoint.h) in full, with all its checks, and returns its loss and
// validation history, named after the file (its name without the last suffix). Anything else
// gives std::nullopt and *error naming the file: a model file (io/model_file.h) holds weights
// and provenance but no history, and is refused as such; so is a checkpoint of no steps.
// Reads the whole file: call it off the GUI thread.
std::optional<RunSeries> readRunSeries(const QString& path, QString* error);

}  // namespace as
