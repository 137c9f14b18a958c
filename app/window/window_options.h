// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// attention-studio's command line: its options, and what is decided before the window exists.
#include "option_table.h"

#include <QCommandLineParser>
#include <QTemporaryDir>

#include <optional>

namespace as {

// The options and positional argument of attention-studio: the table (`attention-studio
// --options-json` prints it), and the parser made from it.
OptionTable windowOptions();
void describeOptions(QCommandLineParser& p);
// The application's name, organisation and version (QSettings and --version use them).
void nameApplication();
// --help and --version print and exit without a display: they need no QApplication, whose
// construction aborts where there is no screen to connect to.
bool asksForHelpOrVersion(int argc, char** argv);
// A scripted run (--screenshot, --measure-*) keeps its remembered settings and autosave in a
// folder of its own (XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_CACHE_HOME pointed into it), removed
// with the returned object, so that the user's are left as they were; nullopt otherwise.
// Call it before anything reads QSettings or QStandardPaths.
std::optional<QTemporaryDir> isolateScriptedRun(const QCommandLineParser& p);

}  // namespace as
