// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// attention-studio's modes that run without the user and exit, for the README's pictures and
// for measurements: --screenshot DIR (train N steps of a task or a corpus, or open FILE, then
// write one PNG per view), --measure-responsiveness and --measure-mutes. main.cpp declares
// the options.
#include <optional>

class QCommandLineParser;

namespace as {
class MainWindow;

// Runs the mode the options ask for in `w` and returns the program's exit code; nullopt when
// they ask for none (the window is shown for the user). More than one FILE is an error (2).
std::optional<int> runDriver(MainWindow& w, const QCommandLineParser& p);

}  // namespace as
