// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A training step's large products run again with nothing else around them, for
// `bench --products-alone`: how fast the step could be if everything but those products cost
// nothing. Apart from model/gemm.cpp, which tests/core/test_gemm.cpp also builds without the
// engine's thread pool.
#include "model/gemm.h"

#include <optional>
#include <vector>

namespace as {

// Runs the recorded lists again, each list on one thread of the engine's pool (all at once,
// no waits between calls), each call on buffers of its recorded shape and strides, `rounds`
// times after one round to warm up; returns the median seconds of one round. Each call by the
// library chosen for its site (gemm), or by `library` when given (gemmWith: the tuning).
double replayGemmCalls(const std::vector<std::vector<GemmCall>>& lists, int rounds,
                       std::optional<GemmLibrary> library = std::nullopt);

}  // namespace as
