// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// attention-studio --screenshot: trains a task or a corpus (or opens a file) in the window
// without showing it, then writes one PNG per view; and the choice of mode (runDriver). What it
// does with each view is screenshot_views.h's, what it prints of the heads screenshot_heads.h's.
#include "screenshot_driver.h"

#include "eval/induction.h"

#include "model_view.h"
#include "lesson_actions.h"
#include "run/lesson.h"

#include "driver_tools.h"
#include "language.h"
#include "screenshot_heads.h"
#include "screenshot_views.h"
#include "theme.h"

#include "comparison_actions.h"
#include "corpus_actions.h"
#include "file_actions.h"
#include "loss_view.h"
#include "lr_view.h"
#include "main_window.h"
#include "probe_bar.h"
#include "run_comparer.h"
#include "translate_view.h"
#include "beside_translator.h"
#include "cross_attention_panel.h"
#include "view_set.h"
#include "worker_link.h"

#include "decode/translation_record.h"
#include "io/atomic_file.h"
#include "model/parallel.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTabWidget>
#include <QTimer>
#include <qcustomplot.h>

#include <cmath>
#include <cstdio>
#include <ctime>
#include <optional>
#include <vector>

namespace as::driver {

QSize& shotSize()
{
    static QSize size(1400, 900);
    return size;
}

bool openShown(as::MainWindow& w, const QString& file)
{
    w.resize(shotSize());
    w.show();
    bool opened = false, failed = false;
    QObject::connect(&w, &as::MainWindow::sessionRestored, &w, [&] { opened = true; });
    QObject::connect(&w, &as::MainWindow::fileError, &w, [&](const QString& m) {
        std::fprintf(stderr, "attention-studio: %s\n", qPrintable(m));
        failed = true;
    });
    w.files()->openFile(file);
    if (!waitFor([&] { return opened || failed; }, 120000) || failed)
        return false;
    return true;
}

}  // namespace as::driver

namespace {

using namespace as::driver;

// Writes the views of the model in `file` (a checkpoint or a weight file) as it is, with
// `sentence` (if given) as the probe and in Translate.
int screenshotsOfFile(as::MainWindow& w, const QString& dir, const QString& file,
                      const QString& sentence, int explain, const QStringList& compare,
                      int fineTuneSteps, const QString& beside)
{
    w.setAttribute(Qt::WA_DontShowOnScreen);
    if (!openShown(w, file))
        return 1;
    if (fineTuneSteps > 0) {
        // The dialog Play shows, then the run it starts with its defaults.
        std::unique_ptr<as::FineTuneDialog> dialog = w.fineTuneDialog();
        if (!dialog) {
            std::fprintf(stderr, "attention-studio: %s cannot be fine-tuned (a language model's file or folder can)\n",
                         qPrintable(file));
            return 1;
        }
        dialog->setAttribute(Qt::WA_DontShowOnScreen);
        dialog->show();
        QCoreApplication::processEvents();
        if (!dialog->grab().save(QDir(dir).filePath(QStringLiteral("fine-tune-dialog.png")))) {
            std::fprintf(stderr, "attention-studio: cannot write into %s\n", qPrintable(dir));
            return 1;
        }
        as::FineTuneChoice choice = dialog->choice();
        dialog.reset();
        choice.steps = fineTuneSteps;
        QElapsedTimer clock;
        clock.start();
        w.fineTune(choice);
        waitFor([&] { return w.currentStep() >= fineTuneSteps && !w.isRunning(); }, 24 * 3600 * 1000);
        std::printf("attention-studio: fine-tuned %s for %ld steps in %.1f s\n", qPrintable(file),
                    w.currentStep(), double(clock.elapsed()) / 1000.0);
    }
    showEmbeddings(w);
    if (!sentence.isEmpty()) {
        bool done = false;
        const QMetaObject::Connection c = QObject::connect(
            w.views()->translate(), &as::ui::TranslateView::translationFinished, &w, [&] { done = true; });
        w.views()->translate()->setExplanation(explain);
        w.views()->translate()->translate(sentence);
        waitFor([&] {
            const as::TranslationRecordPtr r = w.views()->translate()->lastRecord();
            return done && r && (explain == 0 || r->options.attribution) && !w.views()->translate()->isBusy();
        }, 60000);
        QObject::disconnect(c);
        if (!beside.isEmpty()) {
            // The same sentence by the model beside, then the side-by-side tab.
            bool failed = false;
            const QMetaObject::Connection f = QObject::connect(
                &w, &as::MainWindow::fileError, &w, [&](const QString& message) {
                    std::fprintf(stderr, "attention-studio: %s\n", qPrintable(message));
                    failed = true;
                });
            w.beside()->open(beside);
            as::ui::TranslateView* view = w.views()->translate();
            waitFor([&] { return failed || view->sideB()->record() != nullptr; }, 600000);
            QObject::disconnect(f);
            if (!view->sideB()->record()) {
                std::fprintf(stderr, "attention-studio: %s did not translate beside: %s\n", qPrintable(beside),
                             qPrintable(view->sideB()->message()));
                return 1;
            }
            view->showSideBySide();
            w.views()->showView(view);
        }
        w.views()->probes()->setText(sentence);
        QCoreApplication::processEvents();
        waitFor([&] { return false; }, 500);  // the probe's snapshot
        showNeuronView(w);
    }
    showModelView(w);  // of the probe sentence
    showDecoding(w);
    showTokens(w);
    if (!compareForScreenshot(w, compare))
        return 1;
    QString error;
    if (!w.files()->saveViewPngs(dir, &error)
        || (!sentence.isEmpty() && !saveBeamTreePng(w, dir, sentence, &error))) {
        std::fprintf(stderr, "attention-studio: %s\n", qPrintable(error));
        return 1;
    }
    std::printf("attention-studio: wrote the views of %s into %s\n", qPrintable(file), qPrintable(dir));
    return 0;
}

// What --screenshot trains: a built-in task with its recipe, a seed, and where to put the model.
struct ScreenshotRun {
    QString task;
    as::CorpusSource corpus;  // --data TRAIN [--valid VALID]: instead of the task
    int steps = 200;
    std::optional<quint64> seed;
    QString out;  // the model file, as `attention-studio-cli train --out` writes it
    int validEvery = 0;  // 0: the task's
    bool heads = false;  // score the heads, mute the least important half, the pruning curve
    QStringList compare;  // checkpoints of runs drawn beside this one
    QString set;  // settings over the recipe (applySettingsSpec)
    QString ab;   // A/B: what B changes (applySettingsSpec over the run's settings); empty: no B
    std::optional<as::Lesson> lesson;  // a lesson run as File > Open lesson… runs it (task, set, seed, steps, ab are its)
};

bool writeSummary(const QString& path, const as::RunSummary& r, QString* error)
{
    QJsonArray samples;
    for (const as::TranslationSample& t : r.samples)
        samples.append(QJsonObject{{"source", t.source}, {"reference", t.reference},
                                   {"hypothesis", t.hypothesis}});
    const QJsonObject o{{"steps", double(r.steps)},
                        {"train_loss", r.trainLoss},
                        {"valid_loss", r.validLoss},
                        {"valid_accuracy", r.validAccuracy},
                        {"valid_bleu", r.validBleu},  // null for a language model
                        {"valid_nll", r.validNll},    // per token, without label smoothing
                        {"valid_perplexity", std::exp(r.validNll)},
                        {"samples", samples},
                        // A decoder-only model's induction heads (core/SPEC.md §13): null
                        // when not measured or when no phase change was detected.
                        {"induction", r.induction ? QJsonValue(as::inductionJson(*r.induction)) : QJsonValue()},
                        {"phase_change_step", r.phaseChangeStep ? QJsonValue(double(*r.phaseChangeStep)) : QJsonValue()},
                        // The language the pictures show (--language, else the locale).
                        {"language", as::currentLanguage()},
                        // Their colours (--theme, else system).
                        {"theme", as::currentTheme()}};
    return as::writeFileAtomically(path, QJsonDocument(o).toJson(QJsonDocument::Indented), error);
}

int screenshots(as::MainWindow& w, const QString& dir, const ScreenshotRun& run)
{
    if (!QDir().mkpath(dir)) {
        std::fprintf(stderr, "attention-studio: cannot make the folder %s\n", qPrintable(dir));
        return 1;
    }
    w.setAttribute(Qt::WA_DontShowOnScreen);
    w.resize(shotSize());
    w.show();
    as::SessionSettings s = as::SessionSettings::defaultsFor(run.task);
    if (!run.corpus.train.isEmpty()) {
        // As File > Open corpus… does, then the run's own settings over the corpus recipe.
        bool opened = false;
        QString failed;
        QObject::connect(w.corpus(), &as::CorpusActions::corpusOpened, &w, [&](const QStringList& report) {
            for (const QString& line : report)
                std::printf("attention-studio: %s\n", qPrintable(line));
            opened = true;
        });
        QObject::connect(w.corpus(), &as::CorpusActions::corpusFailed, &w, [&](const QString& m) { failed = m; });
        w.corpus()->openCorpus(run.corpus);
        if (!waitFor([&] { return opened || !failed.isEmpty(); }, 600000) || !opened) {
            std::fprintf(stderr, "attention-studio: %s\n", qPrintable(failed));
            return 1;
        }
        s = w.settings();
    }
    if (run.seed)
        s.train.seed = *run.seed;
    if (run.validEvery > 0)
        s.evalEvery = run.validEvery;
    // The plan is the run's length, as `train --steps N` makes it: the averaging points and
    // the schedule plot depend on it.
    if (run.steps > 0)
        s.plannedSteps = run.steps;
    QString specError;
    if (!as::applySettingsSpec(run.set, &s, &specError)) {
        std::fprintf(stderr, "attention-studio: --set: %s\n", qPrintable(specError));
        return 2;
    }
    as::SessionSettings b = s;
    if (!as::applySettingsSpec(run.ab, &b, &specError)) {
        std::fprintf(stderr, "attention-studio: --ab: %s\n", qPrintable(specError));
        return 2;
    }
    if (run.lesson)
        w.lessons()->startLesson(*run.lesson);  // its settings (the same as s), probe, B and panel
    else
        w.applySettings(s);
    QString failure;
    QObject::connect(&w, &as::MainWindow::fileError, &w, [&](const QString& m) { failure = m; });
    if (!waitFor([&] { return w.currentStep() == 0 && w.examplesShown() > 0; }, 120000)) {
        std::fprintf(stderr, "attention-studio: the task '%s' did not start\n", qPrintable(s.task));
        return 1;
    }
    if (!run.ab.isEmpty()) {
        // Schedules that A/B compares (a warm-up against none) differ by orders of magnitude.
        w.views()->lr()->setLogScale(true);
        if (!run.lesson)
            w.comparisons()->startComparison(b);
        if (!waitFor([&] { return w.comparisons()->comparison() != nullptr || !failure.isEmpty(); }, 120000)
            || !w.comparisons()->comparison()) {
            std::fprintf(stderr, "attention-studio: B did not start: %s\n", qPrintable(failure));
            // A lesson goes on with A alone, as in the window (a bfloat16 B on a CPU without
            // bfloat16 units); --ab asked for B itself.
            if (!run.lesson)
                return 1;
        }
    }
    QElapsedTimer trainClock;
    trainClock.start();
    SnapshotPace pace(w);
    // The Model tab while training: the probe traced at every snapshot, for its replay.
    QWidget* const shownBefore = w.views()->currentView();
    w.views()->showView(w.views()->model());
    // A lesson's stops are legs of their own, as Play makes them in the window: the worker's
    // snapshot at the end of a leg carries the probe's record at exactly that step, which the
    // heads printed at the stops (printHeadDynamics) are read from. Trained straight through,
    // a record fell on a stop only if a snapshot happened to (CI once had none at step 300).
    std::vector<long> legs;
    if (run.lesson)
        for (const as::LessonStop& stop : run.lesson->stops)
            if (stop.step > 0 && stop.step < run.steps && (legs.empty() || stop.step > legs.back()))
                legs.push_back(stop.step);
    legs.push_back(run.steps);
    for (const long to : legs) {
        if (to > w.currentStep())
            w.link()->step(int(to - w.currentStep()));
        if (!waitFor([&] { return w.currentStep() >= to; }, 3600000)) {
            std::fprintf(stderr, "attention-studio: training did not reach step %ld\n", to);
            return 1;
        }
    }
    w.views()->showView(shownBefore);
    const double seconds = trainClock.elapsed() / 1000.0;
    std::printf("attention-studio: trained %d steps of '%s' in %.2f s (%.1f steps/s, first to "
                "last snapshot), window updating throughout\n",
                run.steps, qPrintable(s.task), seconds, pace.stepsPerSecond());
    if (!run.out.isEmpty()) {
        bool exported = false;
        QObject::connect(w.files(), &as::FileActions::weightsExported, &w, [&] { exported = true; });
        w.files()->exportWeightsTo(run.out);
        if (!waitFor([&] { return exported || !failure.isEmpty(); }, 120000) || !exported) {
            std::fprintf(stderr, "attention-studio: %s\n", qPrintable(failure));
            return 1;
        }
    }
    std::shared_ptr<const as::RunSummary> summary;
    QObject::connect(w.link(), &as::WorkerLink::summaryReady, &w,
                     [&](const as::SummaryPtr& r) { summary = r; });
    w.link()->requestSummary();
    if (!waitFor([&] { return summary != nullptr; }, 3600000)) {
        std::fprintf(stderr, "attention-studio: no summary\n");
        return 1;
    }
    if (const as::RunSeriesPtr b = w.comparisons()->comparison()) {
        // B's figures beside A's (summary.json has A's): the mean loss of its last 50 steps and
        // its last validation. B's validations run in the background as A's do: the summary
        // waited for them all, and B's last one is at A's last one's step once drawn.
        const auto validated = [&] {
            const as::ui::LossView* loss = w.views()->loss();
            const auto& eval = w.comparisons()->comparison()->eval;
            return loss->validPointCount() == 0
                   || (!eval.empty() && eval.back().step >= loss->validPoint(loss->validPointCount() - 1).step);
        };
        waitFor([&] { return (long(w.comparisons()->comparison()->loss.size()) >= run.steps && validated())
                             || !w.isRunning(); }, 60000);
        const as::RunSeriesPtr last = w.comparisons()->comparison();
        double sum = 0;
        int n = 0;
        for (auto it = last->loss.rbegin(); it != last->loss.rend() && n < 50; ++it, ++n)
            sum += it->loss;
        std::printf("attention-studio: %s: %zu steps, train loss (last 50) %.4f, valid loss %s\n",
                    qPrintable(last->name), last->loss.size(), n ? sum / n : 0.0,
                    last->eval.empty() ? "—" : qPrintable(QString::number(last->eval.back().loss, 'f', 4)));
    }
    // A translation of the toy task's first sentence in the Translate view; a language model's
    // continuation of a prompt of its text in Generate.
    const QString prompt = run.task == "lm-en"         ? QStringLiteral("I'd like")
                           : run.task == "lm-zh"       ? QStringLiteral("我想")
                           : run.task == "lm-brackets" ? QStringLiteral("( [")
                                                       : QString();
    if (run.corpus.train.isEmpty() && (run.task == "toy" || run.task == "zh-en" || !prompt.isEmpty())) {
        bool done = false;
        // Disconnected at the end of this block: `done` goes with it (the beam tree's
        // translation comes later).
        const QMetaObject::Connection c = QObject::connect(
            w.views()->translate(), &as::ui::TranslateView::translationFinished, &w, [&] { done = true; });
        w.views()->translate()->translate(prompt.isEmpty() ? QStringLiteral("我有一个好朋友") : prompt);
        waitFor([&] { return done; }, 20000);
        // And "why that word and not the runner-up?" at the output's third token.
        const as::TranslationRecordPtr r = w.views()->translate()->lastRecord();
        if (r && r->ok() && !r->generated && r->topFive.size() > 2 && r->topFive[2].size() > 1) {
            done = false;
            w.views()->translate()->explainContrast(2, r->topFive[2][1].first);
            waitFor([&] { return done; }, 20000);
        }
        QObject::disconnect(c);
    }
    if (run.heads && !scoreHeadsForScreenshot(w))
        return 1;
    if (!compareForScreenshot(w, run.compare))
        return 1;
    std::vector<long> stops;
    if (run.lesson)
        for (const as::LessonStop& stop : run.lesson->stops)
            stops.push_back(stop.step);
    printHeadDynamics(w, stops);
    showEmbeddings(w);
    showModelView(w);
    showDecoding(w);
    showTokens(w);
    // The window's picture shows the attention of the probe sentence, and its neuron view.
    showNeuronView(w);
    QString error;
    if (!writeSummary(QDir(dir).filePath("summary.json"), *summary, &error)
        || !w.files()->saveViewPngs(dir, &error)
        || (run.corpus.train.isEmpty() && (run.task == "toy" || run.task == "zh-en")
            && !saveBeamTreePng(w, dir, QStringLiteral("我有一个好朋友"), &error))
        || !saveModelReplayPng(w, dir, &error) || !saveHealthTimePng(w, dir, &error)) {
        std::fprintf(stderr, "attention-studio: %s\n", qPrintable(error));
        return 1;
    }
    // A translator's BLEU; a language model (no BLEU) its perplexity.
    const QByteArray measure = std::isnan(summary->validBleu)
                                   ? QByteArray("perplexity ") + QByteArray::number(std::exp(summary->validNll), 'f', 2)
                                   : QByteArray("BLEU ") + QByteArray::number(summary->validBleu, 'f', 2);
    std::printf("attention-studio: wrote the views at step %ld and summary.json (valid loss %.4f, "
                "accuracy %.4f, %s) into %s\n",
                w.currentStep(), summary->validLoss, summary->validAccuracy, measure.constData(),
                qPrintable(dir));
    return 0;
}

}  // namespace

namespace as {

std::optional<int> runDriver(MainWindow& w, const QCommandLineParser& p)
{
    if (p.isSet("measure-responsiveness")) {
        bool ok = false;
        const double seconds = p.value("measure-responsiveness").toDouble(&ok);
        if (!ok || seconds <= 0 || !as::isTrainingTask(p.value("task"))) {
            std::fprintf(stderr, "attention-studio: --measure-responsiveness needs SECONDS > 0 "
                                 "and --task one of: %s\n",
                         qPrintable(as::trainingTaskNames().join(", ")));
            return 2;
        }
        bool reportOk = true;
        const double reportEvery = p.isSet("report-every") ? p.value("report-every").toDouble(&reportOk) : 0.0;
        if (!reportOk || reportEvery < 0 || (p.isSet("report-every") && reportEvery <= 0)) {
            std::fprintf(stderr, "attention-studio: --report-every needs SECONDS > 0\n");
            return 2;
        }
        const int rc = measureResponsiveness(w, seconds, p.value("task"), p.value("valid-every").toInt(),
                                             reportEvery);
        w.close();
        return rc;
    }
    if (p.isSet("size")) {
        // WxH, e.g. 1280x800: the window as a screen of that size shows it (the frame aside).
        const QStringList wh = p.value("size").split(QLatin1Char('x'));
        bool okW = false, okH = false;
        const int width = wh.size() == 2 ? wh[0].toInt(&okW) : 0;
        const int height = wh.size() == 2 ? wh[1].toInt(&okH) : 0;
        if (!okW || !okH || width < 200 || height < 200 || width > 10000 || height > 10000) {
            std::fprintf(stderr, "attention-studio: --size must be WIDTHxHEIGHT in pixels, e.g. 1280x800\n");
            return 2;
        }
        shotSize() = QSize(width, height);
    }
    const QStringList files = p.positionalArguments();
    if (files.size() > 1) {
        std::fprintf(stderr, "attention-studio: one file at a time\n");
        return 2;
    }
    if (p.isSet("measure-mutes")) {
        if (files.size() != 1 || p.value("sentence").trimmed().isEmpty()) {
            std::fprintf(stderr, "attention-studio: --measure-mutes needs a model FILE and --sentence\n");
            return 2;
        }
        const int rc = measureMutes(w, files.first(), p.value("sentence"));
        w.close();
        return rc;
    }
    if (p.isSet("screenshot") && !files.isEmpty() && files.first().endsWith(QLatin1String(".json"), Qt::CaseInsensitive)) {
        // A lesson: trained to its planned steps as its settings say, its panel beside the views.
        QFile f(files.first());
        QString error;
        std::optional<Lesson> lesson;
        if (!f.open(QIODevice::ReadOnly))
            error = f.errorString();
        else
            lesson = parseLesson(f.read(kMaxLessonBytes + 1), &error);
        std::optional<SessionSettings> s = lesson ? lessonSettings(*lesson, &error) : std::nullopt;
        if (!s) {
            std::fprintf(stderr, "attention-studio: %s: %s\n", qPrintable(files.first()), qPrintable(error));
            return 2;
        }
        ScreenshotRun run;
        run.task = lesson->task;
        run.steps = int(s->plannedSteps);
        run.seed = s->train.seed;
        run.set = lesson->settings;
        run.ab = lesson->ab;
        run.lesson = lesson;
        const int rc = screenshots(w, p.value("screenshot"), run);
        w.close();
        return rc;
    }
    if (p.isSet("screenshot") && !files.isEmpty()) {
        const int explain = int(QStringList{"cross", "attention", "rollout", "gradxinput", "ig"}.indexOf(p.value("explain")));
        if (explain < 0) {
            std::fprintf(stderr, "attention-studio: --explain must be cross, attention, rollout, gradxinput or ig\n");
            return 2;
        }
        const int rc = screenshotsOfFile(w, p.value("screenshot"), files.first(), p.value("sentence"),
                                         explain, p.values("compare"),
                                         p.isSet("fine-tune") ? std::max(1, p.value("steps").toInt()) : 0,
                                         p.value("beside"));
        w.close();
        return rc;
    }
    if (p.isSet("screenshot")) {
        ScreenshotRun run;
        bool ok = false, seedOk = true;
        run.task = p.value("task");
        run.steps = p.value("steps").toInt(&ok);
        if (p.isSet("seed"))
            run.seed = p.value("seed").toULongLong(&seedOk);
        run.out = p.value("out");
        run.validEvery = p.value("valid-every").toInt();
        run.heads = p.isSet("heads");
        run.compare = p.values("compare");
        run.set = p.value("set");
        run.ab = p.value("ab");
        run.corpus.train = p.value("data");
        run.corpus.valid = p.value("valid");
        if (run.corpus.train.isEmpty() && !run.corpus.valid.isEmpty()) {
            std::fprintf(stderr, "attention-studio: --valid goes with --data\n");
            return 2;
        }
        if (!ok || !seedOk || run.steps < 0 || !as::isTrainingTask(run.task)) {
            std::fprintf(stderr, "attention-studio: --steps must be a whole number >= 0, --seed "
                                 "one >= 0, and --task one of: %s\n",
                         qPrintable(as::trainingTaskNames().join(", ")));
            return 2;
        }
        const int rc = screenshots(w, p.value("screenshot"), run);
        w.close();
        return rc;
    }
    return std::nullopt;
}

}  // namespace as
