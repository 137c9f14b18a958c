// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The repeat task (core/SPEC.md §10.8): random tokens in which one segment recurs at a random
// later place, the later copy predictable only by looking back — the text on which a
// decoder-only model forms induction heads (Olsson et al. 2022). Its name carries its
// parameters: "repeat", "repeat:V", "repeat:V:L" (segments of L tokens) or
// "repeat:V:LMIN:LMAX".
#include "model/rng.h"

#include <QString>

#include <optional>
#include <vector>

namespace as {

struct Task;

struct RepeatOptions {
    int symbols = 64;      // V: the task's own tokens, "0" … "V-1"
    int minSegment = 8;    // the repeated segment's length, uniform in [min, max]
    int maxSegment = 30;
    int length = 63;       // tokens in a row (with <s> and </s>, one window of kLmContext + 1)
    bool operator==(const RepeatOptions&) const = default;
};

// One row: `length` symbols (0 … V-1), uniform and independent, then the segment of `segment`
// symbols at `first` copied over the symbols at `second` (first + segment ≤ second; both
// 0-based in the row, without <s>).
struct RepeatRow {
    std::vector<int> symbols;
    int first = 0, second = 0, segment = 0;
};

// Draws one row from rng: the segment's length, then `first` uniform in [0, length − 2·segment],
// `second` uniform in [first + segment, length − segment], then the symbols.
RepeatRow randomRepeatRow(Rng& rng, const RepeatOptions& o);

bool isRepeatTaskName(const QString& name);
// The options a name gives (defaults for the parts it leaves out), or nullopt and *error.
std::optional<RepeatOptions> repeatOptionsFromName(const QString& name, QString* error);
// The name with every part written out: "repeat:64:8:30".
QString repeatTaskName(const RepeatOptions& o);

// The task (text/tasks.h): a language model's (decoder-only); every row <s> row </s>;
// validation: 64 rows drawn from a fixed seed; examples (prompts): 5 rows cut two tokens into
// their later copy.
Task makeRepeatTask(const RepeatOptions& o, int batchSize);

}  // namespace as
