// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What --screenshot (screenshot_driver.h) does with the views: each shown and filled in with
// the current weights (the worker's answers waited for) before the pictures of all views are
// taken, and the pictures of one view in a state of its own (beam-tree.png, model-replay.png,
// health-time.png) after them.
#include <QString>
#include <QStringList>

namespace as {
class MainWindow;
}  // namespace as

namespace as::driver {

// The Attention tab shown, with the neuron view of the probe filled in (the worker answers).
void showNeuronView(MainWindow& w);

// --compare FILE…: each run drawn beside the current one, as View > Compare with run… does,
// waited for. False (with the message printed) when one is refused.
bool compareForScreenshot(MainWindow& w, const QStringList& files);

// The Embeddings tab with the current weights, the most frequent word's neighbours listed;
// the tab shown before is shown again.
void showEmbeddings(MainWindow& w);

// The Model tab with the probe traced through the current weights, the first decoder layer's
// cross-attention selected (the block the README shows); the tab shown before is shown again.
void showModelView(MainWindow& w);

// The Decoding tab with the probe's record of the current weights, at the step where the
// free-running and teacher-forced runs part (the last step when they do not); the tab shown
// before is shown again.
void showDecoding(MainWindow& w);

// The Tokens tab with its record of the session's corpus, with a sentence typed (a session of
// no corpus shows why there is none); the tab shown before is shown again.
void showTokens(MainWindow& w);

// Writes DIR/beam-tree.png: the Translate tab with `sentence` translated by beam search of width
// 3 (n-best 3) and its tree shown, the best hypothesis's last node selected (its prefix's
// cross-attention below). After the views' pictures: the Translate tab is left as it is then.
bool saveBeamTreePng(MainWindow& w, const QString& dir, const QString& sentence, QString* error);

// Writes DIR/model-replay.png: the Attention view's replay slider moved to the middle of the
// training run, and the Model tab following it (the first decoder layer's cross-attention);
// then both live again. Needs the traces of the run (the Model tab shown while training).
bool saveModelReplayPng(MainWindow& w, const QString& dir, QString* error);

// Writes DIR/health-time.png: the Health view with its "Time per step" tab, where the run's
// training steps spent their time.
bool saveHealthTimePng(MainWindow& w, const QString& dir, QString* error);

}  // namespace as::driver
