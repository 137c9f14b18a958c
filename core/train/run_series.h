// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A run drawn beside the current one on the Loss and Learning rate plots (View > Compare with
// run…, and a second session trained alongside): its name and the loss, rate and validation
// points its history records. The plots take it as shared_ptr<const RunSeries>, a value that
// is never changed once handed out; a run that grows is handed out again, longer.
#include "train/history.h"

#include <QString>

#include <memory>
#include <vector>

namespace as {

struct RunSeries {
    QString name;
    std::vector<LossPoint> loss;  // one per step, in step order; .lr is the rate applied
    std::vector<EvalPoint> eval;  // one per validation, in step order
};
using RunSeriesPtr = std::shared_ptr<const RunSeries>;
using RunSeriesList = std::vector<RunSeriesPtr>;

// True when `after` is `before` with points appended (the same run, grown): as long, or
// longer, in both series, and equal where they overlap. A view that has drawn `before` then
// only has to draw the new points. Compares the first and last shared points of each series,
// which tells a grown run from another run (or a restarted one) without reading all of it.
bool extendsSeries(const RunSeries& before, const RunSeries& after);

}  // namespace as
