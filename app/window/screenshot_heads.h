// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What --screenshot (screenshot_driver.h) prints of the heads: the Heads view's scores, pruning
// curve and mutes (--heads), and the Head dynamics view's records of the probe.
#include <vector>

namespace as {
class MainWindow;
}  // namespace as

namespace as::driver {

// --screenshot --heads: Score heads, the pruning curve, then the least important half muted
// (as clicks do), each waited for; prints what it found.
bool scoreHeadsForScreenshot(MainWindow& w);

// The Head dynamics view's first and last records of the probe, and those at the steps of
// `stops` (a lesson's stops, whose claims are checked on them), in step order: for each kind, the head with
// the largest diagonal score, the one with the largest confidence, the one with the largest
// punctuation mass as a multiple of the punctuation share, and the one with the largest
// alignment (layers and heads from 1, as the window numbers them), e.g. "attention-studio:
// heads at step 0: encoder.self diagonal 0.412 (1,3) confidence 0.301 (2,1) punctuation
// 1.210x (1,2) alignment 0.310 (2,2); …".
void printHeadDynamics(MainWindow& w, const std::vector<long>& stops);

}  // namespace as::driver
