// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the window does at its first start on a CPU (and with a thread count) it has not met:
// it measures which library computes the engine's matrix products fastest here (core/train/
// product_tuning.h: a few seconds), with progress and Cancel over the window, before anything
// trains, so that every step of a run takes the same choice. The command line does the same at
// its first use; both then read what was stored.
#include <functional>

class QMainWindow;

namespace as {

class BackgroundJob;

// Starts the measuring if it is needed (productTuningNeeded) and returns its job (null when
// nothing is to be measured). `then` runs after it, measured or cancelled (at once when
// nothing is measured): what the start-up does next (opening a file, offering the autosave).
// Cancelled, the window computes with the default libraries and asks again at the next start.
// The status bar says what was chosen.
BackgroundJob* measureProductsAtFirstUse(QMainWindow* window, std::function<void()> then);

}  // namespace as
