// attention-studio: the window. With --screenshot DIR it trains N steps without showing the
// window, writes one PNG per view into DIR and exits.
#include "main_window.h"
#include "translate_view.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QEventLoop>
#include <QTimer>

#include "model/parallel.h"

#include <cstdio>

namespace {

// Waits until pred() holds or ms pass; returns pred().
template <typename Pred>
bool waitFor(Pred pred, int ms)
{
    QElapsedTimer t;
    t.start();
    while (!pred() && t.elapsed() < ms)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    return pred();
}

int screenshots(as::MainWindow& w, const QString& dir, const QString& task, int steps)
{
    w.setAttribute(Qt::WA_DontShowOnScreen);
    w.resize(1400, 900);
    w.show();
    as::SessionSettings s = as::SessionSettings::defaultsFor(task);
    w.applySettings(s);
    if (!waitFor([&] { return w.currentStep() == 0; }, 10000))
        return 1;
    QElapsedTimer trainClock;
    trainClock.start();
    emit w.stepRequested(steps);
    if (!waitFor([&] { return w.currentStep() >= steps; }, 600000)) {
        std::fprintf(stderr, "attention-studio: training did not reach step %d\n", steps);
        return 1;
    }
    const double seconds = trainClock.elapsed() / 1000.0;
    std::printf("attention-studio: trained %d steps of '%s' in %.2f s (%.1f steps/s), window "
                "updating throughout\n",
                steps, qPrintable(task), seconds, steps / std::max(seconds, 1e-9));
    // Show a translation of the first example in the translate view.
    if (task == "toy") {
        bool done = false;
        QObject::connect(w.translateView(), &as::ui::TranslateView::translationFinished, &w,
                         [&] { done = true; });
        w.translateView()->translate(QStringLiteral("我有一个好朋友"));
        waitFor([&] { return done; }, 20000);
    }
    QString error;
    if (!w.saveViewPngs(dir, &error)) {
        std::fprintf(stderr, "attention-studio: %s\n", qPrintable(error));
        return 1;
    }
    std::printf("attention-studio: wrote the views at step %ld into %s\n", w.currentStep(),
                qPrintable(dir));
    return 0;
}

}  // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName("Attention Studio");
    QApplication::setOrganizationName("attention-studio");
    QApplication::setApplicationVersion(QStringLiteral(PROJECT_VERSION_STRING));
    QApplication::setDesktopFileName("attention-studio");
    as::setEngineThreads(1);  // the built-in tasks' models are too small to gain from more

    QCommandLineParser p;
    p.setApplicationDescription("Train a Transformer and watch it learn.");
    p.addHelpOption();
    p.addVersionOption();
    p.addOption({"screenshot", "Train without showing the window, write one PNG per view "
                               "into DIR, then exit.", "DIR"});
    p.addOption({"task", "Built-in task for --screenshot: toy, copy, reverse or sort.", "name", "toy"});
    p.addOption({"steps", "Steps to train for --screenshot.", "N", "200"});
    p.process(app);

    as::MainWindow w;
    if (p.isSet("screenshot")) {
        bool ok = false;
        const int steps = p.value("steps").toInt(&ok);
        if (!ok || steps < 0 || !as::builtinTaskNames().contains(p.value("task"))) {
            std::fprintf(stderr, "attention-studio: --steps must be a whole number >= 0 and "
                                 "--task one of: %s\n",
                         qPrintable(as::builtinTaskNames().join(", ")));
            return 2;
        }
        const int rc = screenshots(w, p.value("screenshot"), p.value("task"), steps);
        w.close();
        return rc;
    }
    w.show();
    return app.exec();
}
