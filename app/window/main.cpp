// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// attention-studio: the window. With FILE it opens a checkpoint, a weight file or a lesson; the
// --screenshot and --measure-* modes (screenshot_driver.h) run without the user and exit.
#include "io/hub_model.h"
#include "file_actions.h"
#include "language.h"
#include "theme.h"
#include "main_window.h"
#include "lesson_actions.h"
#include "termination_watch.h"
#include "window_options.h"
#include "screenshot_driver.h"
#include "first_use.h"

#include "model/gemm_tuning.h"
#include "model/parallel.h"
#include "train/allocator.h"
#include "training_worker.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QTimer>

#include <cstdio>
#include <optional>


int main(int argc, char** argv)
{
    // The option table as JSON, for the manual page and the completion (option_table.h).
    if (as::asksForOptionsJson(argc, argv)) {
        QCoreApplication core(argc, argv);
        as::nameApplication();
        QJsonObject doc = as::windowOptions().toJson();
        doc.insert("program", QStringLiteral("attention-studio"));
        doc.insert("version", QCoreApplication::applicationVersion());
        std::fputs(QJsonDocument(doc).toJson(QJsonDocument::Indented).constData(), stdout);
        return 0;
    }
    if (as::asksForHelpOrVersion(argc, argv)) {
        QCoreApplication core(argc, argv);
        as::nameApplication();
        QCommandLineParser p;
        as::describeOptions(p);
        p.process(core);  // prints and exits
        return 0;
    }
    as::keepFreedMemoryForReuse();
    // ... and what was kept goes back to the system twice a minute (train/allocator.h).
    const as::FreedMemoryReturner returner(std::chrono::seconds(30));
    QApplication app(argc, argv);
    as::nameApplication();
    QApplication::setDesktopFileName("attention-studio");

    QCommandLineParser p;
    as::describeOptions(p);
    p.process(app);

    bool threadsOk = false;
    const int threads = p.value("threads").toInt(&threadsOk);
    if (!threadsOk || threads < 0) {
        std::fprintf(stderr, "attention-studio: --threads must be a whole number >= 0\n");
        return 2;
    }
    as::setEngineThreads(threads);
    // The products' libraries as measured on this CPU (model/gemm_tuning.h), as the command line
    // takes them: the same choice trains the same weights in either. Read before a scripted run
    // moves the cache folder aside.
    {
        QString error;
        as::applyStoredGemmTuning(as::engineThreads(), &error);
        if (!error.isEmpty())
            std::fprintf(stderr, "attention-studio: %s (ignored: OpenBLAS computes)\n", qPrintable(error));
    }

    // A scripted run (--screenshot, --measure-*) leaves the user's settings and autosave alone.
    const std::optional<QTemporaryDir> scratch = as::isolateScriptedRun(p);

    // --language, else View > Language's remembered choice, else the system locale.
    if (p.isSet("language") && as::normalizedLanguage(p.value("language")).isEmpty()) {
        std::fprintf(stderr, "attention-studio: --language must be one of: %s\n",
                     qPrintable(as::availableLanguages().join(", ")));
        return 2;
    }
    {
        QSettings store;
        as::setLanguage(as::startupLanguage(p.value("language"), store));
    }
    // --theme, else View > Theme's remembered choice, else the desktop's.
    if (p.isSet("theme") && as::normalizedTheme(p.value("theme")).isEmpty()) {
        std::fprintf(stderr, "attention-studio: --theme must be one of: %s\n",
                     qPrintable(as::availableThemes().join(", ")));
        return 2;
    }
    {
        QSettings store;
        as::setTheme(as::startupTheme(p.value("theme"), store));
    }

    as::MainWindow w;
    // A mode that runs without the user; or, with more than one FILE, the error.
    if (const std::optional<int> rc = as::runDriver(w, p))
        return *rc;
    const as::TerminationWatch watch(&w);  // SIGTERM, SIGHUP: closed as by the user
    const QStringList files = p.positionalArguments();
    w.show();
    std::function<void()> next;
    if (!files.isEmpty())
        next = [&w, f = files.first()] {
            // A lesson (.json), or a checkpoint or weight file.
            if (f.endsWith(QLatin1String(".json"), Qt::CaseInsensitive) && !as::isHubModelPath(f))
                w.lessons()->openLessonFile(f);
            else
                w.files()->openFile(f);
        };
    else if (!p.isSet("no-restore"))
        next = [&w] { w.files()->offerAutosaveRestore(); };
    // On a CPU met for the first time, the products' libraries measured first (a few seconds).
    QTimer::singleShot(0, &w, [&w, next] { as::measureProductsAtFirstUse(&w, next); });
    return watch.exitStatus(app.exec());
}
