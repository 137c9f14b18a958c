// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "window_options.h"

#include "language.h"
#include "theme.h"
#include "train/session_data.h"

#include <QByteArray>
#include <QFile>

namespace as {

OptionTable windowOptions()
{
    OptionTable p;
    p.name = QStringLiteral("attention-studio");
    p.description = QStringLiteral("Train a Transformer and watch it learn.");
    p.addPositional("file", "A checkpoint to continue, a weight file (.safetensors) "
                                    "to look inside, or a lesson (.json) to run.", "[FILE]");
    p.add({"screenshot", "Train without showing the window, write one PNG per view "
                               "into DIR, then exit. With FILE: the views of that model, "
                               "untrained further.", "DIR"});
    p.add({"size", "With --screenshot: the window's size in pixels (default 1400x900), "
                         "e.g. 1280x800.", "WxH"});
    p.add({"sentence", "With FILE and --screenshot: the sentence to translate and probe.",
                 "text"});
    p.add({"beside", "With FILE, --sentence and --screenshot: translate the sentence beside "
                     "this model too (a model file, checkpoint or Hugging Face folder), as View > "
                     "Translate beside a model… does; Translate shows the two side by side.", "MODEL"});
    p.add({"explain", "With --sentence: what Translate explains the output by: cross "
                            "(default), attention, rollout, gradxinput or ig.", "method", "cross"},
          {"cross", "attention", "rollout", "gradxinput", "ig"});
    p.add({"task", QStringLiteral("Built-in task for --screenshot: %1.")
                             .arg(as::trainingTaskNames().join(", ")),
                 "name", "toy"},
          as::trainingTaskNames());
    p.add({"data", "Instead of --task for --screenshot: a corpus file (source<TAB>target, or "
                         "a manythings.org Anki file), as File > Open corpus… opens it.", "TRAIN.tsv"});
    p.add({"valid", "With --data: the validation file (default: 2% of TRAIN.tsv held "
                    "out).", "VALID.tsv"});
    p.add({"steps", "Steps to train for --screenshot.", "N", "200"});
    p.add({"seed", "Seed for --screenshot (default: the task's).", "S"});
    p.add({"out", "With --screenshot: write the trained model here, as "
                        "`attention-studio-cli train --out` does.", "MODEL"});
    p.add({"threads", "Threads for the maths (0 = every core).", "N", "0"});
    p.add({"valid-every", "Steps between validations for --screenshot and "
                                "--measure-responsiveness (default: the task's).", "N"});
    p.add({"heads", "With --screenshot: then score the heads, draw the pruning curve and mute "
                          "the least important half (the Heads view), printing what it found."});
    p.add({"measure-mutes", "With FILE and --sentence: open the model, translate the "
                                  "sentence, then mute each head in turn (as a click in the Heads "
                                  "view does) and print as JSON how long each took to show the "
                                  "new translation."});
    p.add({"fine-tune", "With a language model's FILE (or Hugging Face folder) and "
                        "--screenshot: fine-tune it on lm-en for --steps steps, as Play on it "
                        "does with its dialog's defaults, before the views (and the dialog) "
                        "are written."});
    p.add({"compare", "With --screenshot: draw the run of this checkpoint beside the "
                            "current one, as View > Compare with run… does (repeatable, up to 4).",
                 "CKPT"});
    p.add({"set", "With --screenshot: settings over the task's recipe, e.g. "
                        "\"norm=post,warmup=4000\" (the model's keys as --config takes them, and "
                        "warmup, factor, clip_norm, precision=bf16).", "SPEC"});
    p.add({"ab", "With --screenshot: train a session B beside the run (View > A/B "
                       "session…) that differs by SPEC (as --set), and print B's figures.", "SPEC"});
    p.add({"language", "The window's language: zh_CN (简体中文) or en (default: the one "
                             "chosen in View > Language, else the system's, LANG). The "
                             "command line stays in English.", "code"},
          availableLanguages());
    p.add({"theme", "The window's colours: system, light or dark (default: the one chosen "
                          "in View > Theme, else system), e.g. for dark screenshots.", "name"},
          availableThemes());
    p.add({"no-restore", "Do not offer to restore a session autosaved before a crash."});
    p.add({"measure-responsiveness", "Train with the window shown for SECONDS, showing "
                                           "each tab in turn, and print as JSON how late a "
                                           "1 ms timer on the GUI thread fired (worst, 99th "
                                           "percentile) and the steps per second.", "SECONDS"});
    p.add({"report-every", "With --measure-responsiveness: also print a JSON line every SECONDS "
                           "(steps per second, the GUI thread's lateness and the process's "
                           "memory over that interval), for long runs (scripts/soak).", "SECONDS"});
    return p;
}

void describeOptions(QCommandLineParser& p)
{
    windowOptions().addTo(p, true);
}

void nameApplication()
{
    QCoreApplication::setApplicationName("Attention Studio");
    QCoreApplication::setOrganizationName("attention-studio");
    QCoreApplication::setApplicationVersion(QStringLiteral(PROJECT_VERSION_STRING));
}

bool asksForHelpOrVersion(int argc, char** argv)
{
    for (int i = 1; i < argc; ++i) {
        const QByteArray a(argv[i]);
        if (a == "--")
            break;
        if (a == "-h" || a == "--help" || a == "--help-all" || a == "-v" || a == "--version")
            return true;
    }
    return false;
}


std::optional<QTemporaryDir> isolateScriptedRun(const QCommandLineParser& p)
{
    if (!p.isSet("screenshot") && !p.isSet("measure-mutes") && !p.isSet("measure-responsiveness"))
        return std::nullopt;
    std::optional<QTemporaryDir> scratch(std::in_place);
    for (const char* var : {"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"})
        qputenv(var, QFile::encodeName(scratch->filePath(QString::fromLatin1(var))));
    return scratch;
}

}  // namespace as
