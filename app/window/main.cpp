// attention-studio: the window. With FILE it opens a checkpoint or a weight file; the
// --screenshot and --measure-* modes (screenshot_driver.h) run without the user and exit.
#include "file_actions.h"
#include "main_window.h"
#include "termination_watch.h"
#include "screenshot_driver.h"

#include "model/parallel.h"
#include "train/allocator.h"
#include "training_worker.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

#include <cstdio>

int main(int argc, char** argv)
{
    as::keepFreedMemoryForReuse();
    QApplication app(argc, argv);
    QApplication::setApplicationName("Attention Studio");
    QApplication::setOrganizationName("attention-studio");
    QApplication::setApplicationVersion(QStringLiteral(PROJECT_VERSION_STRING));
    QApplication::setDesktopFileName("attention-studio");

    QCommandLineParser p;
    p.setApplicationDescription("Train a Transformer and watch it learn.");
    p.addHelpOption();
    p.addVersionOption();
    p.addPositionalArgument("file", "A checkpoint to continue, or a weight file (.safetensors) "
                                    "to look inside.", "[FILE]");
    p.addOption({"screenshot", "Train without showing the window, write one PNG per view "
                               "into DIR, then exit. With FILE: the views of that model, "
                               "untrained further.", "DIR"});
    p.addOption({"sentence", "With FILE and --screenshot: the sentence to translate and probe.",
                 "text"});
    p.addOption({"explain", "With --sentence: what Translate explains the output by: cross "
                            "(default), attention, rollout, gradxinput or ig.", "method", "cross"});
    p.addOption({"task", QStringLiteral("Built-in task for --screenshot: %1.")
                             .arg(as::trainingTaskNames().join(", ")),
                 "name", "toy"});
    p.addOption({"data", "Instead of --task for --screenshot: a corpus file (source<TAB>target, or "
                         "a manythings.org Anki file), as File > Open corpus… opens it.", "TRAIN"});
    p.addOption({"valid", "With --data: the validation file (default: 2% of TRAIN held out).",
                 "VALID"});
    p.addOption({"steps", "Steps to train for --screenshot.", "N", "200"});
    p.addOption({"seed", "Seed for --screenshot (default: the task's).", "S"});
    p.addOption({"out", "With --screenshot: write the trained model here, as "
                        "`attention-studio-cli train --out` does.", "MODEL"});
    p.addOption({"threads", "Threads for the maths (0 = every core).", "N", "0"});
    p.addOption({"valid-every", "Steps between validations for --screenshot and "
                                "--measure-responsiveness (default: the task's).", "N"});
    p.addOption({"heads", "With --screenshot: then score the heads, draw the pruning curve and mute "
                          "the least important half (the Heads view), printing what it found."});
    p.addOption({"measure-mutes", "With FILE and --sentence: open the model, translate the "
                                  "sentence, then mute each head in turn (as a click in the Heads "
                                  "view does) and print as JSON how long each took to show the "
                                  "new translation."});
    p.addOption({"compare", "With --screenshot: draw the run of this checkpoint beside the "
                            "current one, as View > Compare with run… does (repeatable, up to 4).",
                 "CKPT"});
    p.addOption({"set", "With --screenshot: settings over the task's recipe, e.g. "
                        "\"norm=post,warmup=4000\" (the model's keys as --config takes them, and "
                        "warmup, factor, clip_norm).", "SPEC"});
    p.addOption({"ab", "With --screenshot: train a session B beside the run (View > A/B "
                       "session…) that differs by SPEC (as --set), and print B's figures.", "SPEC"});
    p.addOption({"no-restore", "Do not offer to restore a session autosaved before a crash."});
    p.addOption({"measure-responsiveness", "Train with the window shown for SECONDS, showing "
                                           "each tab in turn, and print as JSON how late a "
                                           "1 ms timer on the GUI thread fired (worst, 99th "
                                           "percentile) and the steps per second.", "SECONDS"});
    p.process(app);

    bool threadsOk = false;
    const int threads = p.value("threads").toInt(&threadsOk);
    if (!threadsOk || threads < 0) {
        std::fprintf(stderr, "attention-studio: --threads must be a whole number >= 0\n");
        return 2;
    }
    as::setEngineThreads(threads);

    as::MainWindow w;
    // A mode that runs without the user; or, with more than one FILE, the error.
    if (const std::optional<int> rc = as::runDriver(w, p))
        return *rc;
    const as::TerminationWatch watch(&w);  // SIGTERM, SIGHUP: closed as by the user
    const QStringList files = p.positionalArguments();
    w.show();
    if (!files.isEmpty())
        QTimer::singleShot(0, &w, [&w, f = files.first()] { w.files()->openFile(f); });
    else if (!p.isSet("no-restore"))
        QTimer::singleShot(0, &w, [&w] { w.files()->offerAutosaveRestore(); });
    return watch.exitStatus(app.exec());
}
