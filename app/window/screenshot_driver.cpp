#include "screenshot_driver.h"

#include "attention_view.h"
#include "comparison_actions.h"
#include "corpus_actions.h"
#include "embedding_view.h"
#include "file_actions.h"
#include "head_service.h"
#include "heads_controller.h"
#include "heads_view.h"
#include "lr_view.h"
#include "main_window.h"
#include "neuron_view.h"
#include "plot_tools.h"
#include "probe_bar.h"
#include "run_comparer.h"
#include "translate_view.h"
#include "view_set.h"
#include "worker_link.h"

#include "decode/translation_record.h"
#include "io/atomic_file.h"
#include "model/parallel.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTabWidget>
#include <QTimer>
#include <qcustomplot.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <optional>
#include <vector>

namespace {

// Waits until pred() holds or ms pass, in an event loop that sleeps while nothing happens, as
// the application's own does (a loop around processEvents() would keep a core busy and take it
// from the training thread); returns pred().
template <typename Pred>
bool waitFor(Pred pred, int ms)
{
    if (pred())
        return true;
    QElapsedTimer t;
    t.start();
    QEventLoop loop;
    QTimer poll;
    poll.setInterval(5);
    QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
        if (pred() || t.elapsed() >= ms)
            loop.quit();
    });
    poll.start();
    loop.exec();
    return pred();
}

// Training speed as the snapshots show it: steps between the first snapshot after start and
// the last one, over the time between their arrivals. Snapshots leave the worker right after a
// step ends, so this is the worker's own pace, free of the start-up and the final wait that a
// clock around the whole run would add (up to 100 ms, a quarter of a 200-step toy run).
class SnapshotPace {
public:
    explicit SnapshotPace(as::MainWindow& w)
    {
        clock_.start();
        connection_ = QObject::connect(&w, &as::MainWindow::snapshotApplied, &w, [this](long step) {
            if (step <= 0)
                return;
            const double t = double(clock_.nsecsElapsed()) / 1e9;
            if (firstStep_ < 0) {
                firstStep_ = step;
                firstT_ = t;
            }
            lastStep_ = step;
            lastT_ = t;
        });
    }
    ~SnapshotPace() { QObject::disconnect(connection_); }
    SnapshotPace(const SnapshotPace&) = delete;
    SnapshotPace& operator=(const SnapshotPace&) = delete;

    double stepsPerSecond() const
    {
        return lastT_ > firstT_ ? double(lastStep_ - firstStep_) / (lastT_ - firstT_) : 0.0;
    }

private:
    QMetaObject::Connection connection_;
    QElapsedTimer clock_;
    long firstStep_ = -1, lastStep_ = -1;
    double firstT_ = 0, lastT_ = 0;
};

double percentile(std::vector<double> v, double q)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[std::min(v.size() - 1, std::size_t(q * double(v.size())))];
}

// A 1 ms timer on the GUI thread that records how late each tick comes, in ms: how long the GUI
// thread was busy with something else (snapshots arriving, replots, painting). Ticks go to the
// current bucket (the tab shown, say); skip() leaves the interval under way uncounted.
class GuiLateness {
public:
    static constexpr double kTickMs = 1.0;
    explicit GuiLateness(int buckets = 1) : late_(std::size_t(std::max(1, buckets)))
    {
        tick_.setTimerType(Qt::PreciseTimer);
        tick_.setInterval(int(kTickMs));
        QObject::connect(&tick_, &QTimer::timeout, [this] {
            const qint64 now = clock_.nsecsElapsed();
            if (last_ >= 0)
                late_[std::size_t(bucket_)].push_back(std::max(0.0, double(now - last_) / 1e6 - kTickMs));
            last_ = now;
        });
    }
    void start()
    {
        clock_.start();
        last_ = -1;
        tick_.start();
    }
    void stop() { tick_.stop(); }
    void skip() { last_ = -1; }
    void setBucket(int b)
    {
        bucket_ = std::clamp(b, 0, int(late_.size()) - 1);
        last_ = -1;
    }
    std::vector<double>& bucket(int b) { return late_[std::size_t(b)]; }
    double worst(int b) const
    {
        const std::vector<double>& v = late_[std::size_t(b)];
        return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end());
    }

private:
    QTimer tick_;
    QElapsedTimer clock_;
    qint64 last_ = -1;
    int bucket_ = 0;
    std::vector<std::vector<double>> late_;
};

// --measure-responsiveness: trains (Play) with the window shown while a 1 ms timer on the GUI
// thread records how late each tick comes: the longest time the GUI thread was busy with
// something else (snapshots arriving, replots, painting). Every tab is shown for an equal share
// of the time, so every view draws live. Prints one JSON line.
int measureResponsiveness(as::MainWindow& w, double seconds, const QString& task, int validEvery)
{
    w.resize(1400, 900);
    w.show();
    as::SessionSettings s = as::SessionSettings::defaultsFor(task);
    if (validEvery > 0)
        s.evalEvery = validEvery;
    // Play pauses at the planned count: plan more steps than the run can take.
    s.plannedSteps = std::max(s.plannedSteps, long(seconds * 2000));
    w.applySettings(s);
    if (!waitFor([&] { return w.currentStep() == 0 && w.examplesShown() > 0; }, 120000))
        return 1;
    QTabWidget* tabs = w.views()->tabs();
    const int nTabs = tabs->count();
    GuiLateness lateness(nTabs);
    std::vector<double> switches;
    tabs->setCurrentIndex(0);
    QCoreApplication::processEvents();

    QElapsedTimer clock;
    int tab = 0;
    QTimer switcher;
    switcher.setInterval(std::max(1, int(seconds * 1000 / nTabs)));
    QObject::connect(&switcher, &QTimer::timeout, [&] {
        if (tab + 1 >= nTabs)
            return;
        // Showing a tab lays it out, replots the plots that went stale while it was hidden and
        // paints it: a cost of the user's click, not of training, so it is reported on its own
        // (the replots run here at once rather than one per pass of the event loop after it).
        const qint64 t0 = clock.nsecsElapsed();
        tabs->setCurrentIndex(++tab);
        as::ui::replotQueuedNow();
        switches.push_back(double(clock.nsecsElapsed() - t0) / 1e6);
        lateness.setBucket(tab);
    });

    // The time each tab's plots spend in replot() (QCustomPlot draws into its buffer there,
    // shown or not): where a stall comes from.
    struct Cost {
        QElapsedTimer timer;
        double totalMs = 0, worstMs = 0;
        long count = 0;
    };
    std::vector<Cost> replots(static_cast<std::size_t>(nTabs) + 1);  // the last: outside tabs
    for (QCustomPlot* plot : w.findChildren<QCustomPlot*>()) {
        int owner = nTabs;
        for (int i = 0; i < nTabs; ++i)
            if (tabs->widget(i)->isAncestorOf(plot))
                owner = i;
        Cost* c = &replots[std::size_t(owner)];
        QObject::connect(plot, &QCustomPlot::beforeReplot, plot, [c] { c->timer.start(); });
        QObject::connect(plot, &QCustomPlot::afterReplot, plot, [c] {
            const double ms = double(c->timer.nsecsElapsed()) / 1e6;
            c->totalMs += ms;
            c->worstMs = std::max(c->worstMs, ms);
            ++c->count;
        });
    }

    // The same timer with training paused: what the machine itself adds (other processes).
    clock.start();
    lateness.start();
    waitFor([&] { return clock.elapsed() >= 2000; }, 3000);
    std::vector<double> idle;
    idle.swap(lateness.bucket(0));
    lateness.skip();

    const long step0 = w.currentStep();
    SnapshotPace pace(w);
    timespec cpu0{}, cpu1{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu0);
    w.link()->play();
    clock.start();
    switcher.start();
    waitFor([&] { return clock.elapsed() >= qint64(seconds * 1000); }, int(seconds * 1000) + 5000);
    lateness.stop();
    switcher.stop();
    const double elapsed = double(clock.nsecsElapsed()) / 1e9;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu1);
    const double guiCpu = double(cpu1.tv_sec - cpu0.tv_sec) + double(cpu1.tv_nsec - cpu0.tv_nsec) / 1e9;
    const long steps = w.currentStep() - step0;  // as of the last snapshot (<= 100 ms old)
    w.link()->pause();
    waitFor([&] { return !w.isRunning(); }, 10000);

    std::vector<double> all;
    QJsonObject perTab;
    for (int i = 0; i < nTabs; ++i) {
        const std::vector<double>& v = lateness.bucket(i);
        all.insert(all.end(), v.begin(), v.end());
        const Cost& c = replots[std::size_t(i)];
        perTab.insert(tabs->tabText(i).remove('&'),
                      QJsonObject{{"ticks", double(v.size())},
                                  {"late_ms_worst", lateness.worst(i)},
                                  {"late_ms_p99", percentile(v, 0.99)},
                                  {"replots", double(c.count)},
                                  {"replot_ms_total", c.totalMs},
                                  {"replot_ms_worst", c.worstMs}});
    }
    const QJsonObject o{
        {"platform", QGuiApplication::platformName()},
        {"task", task},
        {"seconds", elapsed},
        {"engine_threads", as::engineThreads()},
        {"steps", double(steps)},
        {"steps_per_s", pace.stepsPerSecond()},
        {"tick_ms", GuiLateness::kTickMs},
        {"ticks", double(all.size())},
        {"late_ms_worst", all.empty() ? 0.0 : *std::max_element(all.begin(), all.end())},
        {"late_ms_p99", percentile(all, 0.99)},
        {"late_ms_p50", percentile(all, 0.5)},
        {"gui_thread_cpu_fraction", guiCpu / elapsed},
        {"idle_late_ms_worst", idle.empty() ? 0.0 : *std::max_element(idle.begin(), idle.end())},
        {"idle_late_ms_p99", percentile(idle, 0.99)},
        {"tab_switch_ms_worst",
         switches.empty() ? 0.0 : *std::max_element(switches.begin(), switches.end())},
        {"per_tab", perTab}};
    std::printf("%s\n", QJsonDocument(o).toJson(QJsonDocument::Compact).constData());
    return 0;
}

// The Attention tab shown, with the neuron view of the probe filled in (the worker answers).
void showNeuronView(as::MainWindow& w)
{
    w.views()->tabs()->setCurrentIndex(w.views()->tabs()->indexOf(w.views()->attentionPage()));
    w.views()->neuron()->refresh();
    waitFor([&] { return w.views()->neuron()->record() && w.views()->neuron()->record()->step == w.currentStep(); }, 10000);
}

// --compare FILE…: each run drawn beside the current one, as View > Compare with run… does,
// waited for. False (with the message printed) when one is refused.
bool compareForScreenshot(as::MainWindow& w, const QStringList& files)
{
    QString failed;
    const auto connection = QObject::connect(w.comparisons()->runComparer(), &as::RunComparer::failed, &w,
                                             [&](const QString& m) { failed = m; });
    for (const QString& f : files)
        w.comparisons()->compareWith(f);
    waitFor([&] { return !failed.isEmpty() || !w.comparisons()->runComparer()->busy(); }, 120000);
    QObject::disconnect(connection);
    if (!failed.isEmpty() || w.comparisons()->runComparer()->busy()) {
        std::fprintf(stderr, "attention-studio: %s\n", qPrintable(failed.isEmpty() ? QStringLiteral("--compare timed out") : failed));
        return false;
    }
    for (const as::RunSeriesPtr& r : w.comparisons()->runComparer()->runs())
        std::printf("attention-studio: compared with %s (%zu steps, %zu validations)\n",
                    qPrintable(r->name), r->loss.size(), r->eval.size());
    return true;
}

// The Embeddings tab with the current weights, the most frequent word's neighbours listed;
// the tab shown before is shown again.
void showEmbeddings(as::MainWindow& w)
{
    as::ui::EmbeddingView* v = w.views()->embedding();
    const int shown = w.views()->tabs()->currentIndex();
    w.views()->tabs()->setCurrentWidget(v);
    v->refresh();
    waitFor([&] { return v->record() && v->record()->step == w.currentStep(); }, 10000);
    if (v->record() && v->record()->vocabSize > as::Vocab::kSpecials) {
        v->selectToken(as::Vocab::kSpecials);
        waitFor([&] { return v->neighbours() && v->neighbours()->id == as::Vocab::kSpecials; }, 10000);
    }
    w.views()->tabs()->setCurrentIndex(shown);
}

// Shows the window (1400 × 900) and opens `file` in it, a checkpoint or a weight file, waited
// for; false after printing why not.
bool openShown(as::MainWindow& w, const QString& file)
{
    w.resize(1400, 900);
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

// Writes the views of the model in `file` (a checkpoint or a weight file) as it is, with
// `sentence` (if given) as the probe and in Translate.
int screenshotsOfFile(as::MainWindow& w, const QString& dir, const QString& file,
                      const QString& sentence, int explain, const QStringList& compare)
{
    w.setAttribute(Qt::WA_DontShowOnScreen);
    if (!openShown(w, file))
        return 1;
    showEmbeddings(w);
    if (!sentence.isEmpty()) {
        bool done = false;
        QObject::connect(w.views()->translate(), &as::ui::TranslateView::translationFinished, &w,
                         [&] { done = true; });
        w.views()->translate()->setExplanation(explain);
        w.views()->translate()->translate(sentence);
        waitFor([&] {
            const as::TranslationRecordPtr r = w.views()->translate()->lastRecord();
            return done && r && (explain == 0 || r->options.attribution) && !w.views()->translate()->isBusy();
        }, 60000);
        w.views()->probes()->setText(sentence);
        QCoreApplication::processEvents();
        waitFor([&] { return false; }, 500);  // the probe's snapshot
        showNeuronView(w);
    }
    if (!compareForScreenshot(w, compare))
        return 1;
    QString error;
    if (!w.files()->saveViewPngs(dir, &error)) {
        std::fprintf(stderr, "attention-studio: %s\n", qPrintable(error));
        return 1;
    }
    std::printf("attention-studio: wrote the views of %s into %s\n", qPrintable(file), qPrintable(dir));
    return 0;
}

// --measure-mutes FILE --sentence S: the window's latency of a click in the Heads view, from
// the mute to the re-translated sentence shown in Translate (copy of the weights, decode,
// attention record, drawing), for each head of the model in turn; and how late a 1 ms timer on
// the GUI thread fired meanwhile. One JSON line.
int measureMutes(as::MainWindow& w, const QString& file, const QString& sentence)
{
    if (!openShown(w, file))
        return 1;
    as::ui::TranslateView* view = w.views()->translate();
    w.views()->tabs()->setCurrentWidget(view);
    long finished = 0;
    QObject::connect(view, &as::ui::TranslateView::translationFinished, &w, [&] { ++finished; });
    view->translate(sentence);
    if (!waitFor([&] { return finished > 0 && !view->isBusy(); }, 60000)) {
        std::fprintf(stderr, "attention-studio: the sentence was not translated\n");
        return 1;
    }
    QElapsedTimer clock;
    clock.start();
    std::vector<double> latency;
    GuiLateness lateness;
    lateness.start();
    const as::ModelConfig& c = w.settings().model;
    for (as::AttentionKind kind : {as::AttentionKind::EncoderSelf, as::AttentionKind::DecoderSelf,
                                   as::AttentionKind::Cross}) {
        const int layers = kind == as::AttentionKind::EncoderSelf ? c.encoder_layers : c.decoder_layers;
        for (int l = 0; l < layers; ++l)
            for (int h = 0; h < c.heads; ++h) {
                const long before = finished;
                const qint64 t0 = clock.nsecsElapsed();
                w.heads()->setMutedHeads({as::HeadId{kind, l, h}});
                if (!waitFor([&] { return finished > before && !view->isBusy(); }, 60000))
                    return 1;
                latency.push_back(double(clock.nsecsElapsed() - t0) / 1e6);
            }
    }
    lateness.stop();
    QJsonObject o{{"measure", "mutes"}, {"heads", int(latency.size())},
                  {"source", sentence}, {"threads", as::engineThreads()},
                  {"mute_to_translation_ms_median", percentile(latency, 0.5)},
                  {"mute_to_translation_ms_p90", percentile(latency, 0.9)},
                  {"mute_to_translation_ms_worst", percentile(latency, 1.0)},
                  {"gui_late_ms_p99", percentile(lateness.bucket(0), 0.99)},
                  {"gui_late_ms_worst", lateness.worst(0)}};
    std::printf("%s\n", QJsonDocument(o).toJson(QJsonDocument::Compact).constData());
    return 0;
}

// --screenshot --heads: Score heads, the pruning curve, then the least important half muted
// (as clicks do), each waited for; prints what it found.
bool scoreHeadsForScreenshot(as::MainWindow& w)
{
    as::ui::HeadsView* v = w.views()->heads();
    bool scored = false, pruned = false, figures = false;
    QString refused;
    QObject::connect(w.heads()->service(), &as::HeadService::refused, &w, [&](const QString& m) { refused = m; });
    QObject::connect(w.heads()->service(), &as::HeadService::scored, &w, [&](const as::HeadsRecordPtr& r) {
        (r->scored ? scored : figures) = true;
    });
    QObject::connect(w.heads()->service(), &as::HeadService::pruned, &w, [&](const as::PruningRecordPtr& r) {
        pruned = pruned || r->finished;
    });
    emit v->scoreRequested();
    if (!waitFor([&] { return scored || !refused.isEmpty(); }, 3600000) || !scored) {
        std::fprintf(stderr, "attention-studio: heads not scored: %s\n", qPrintable(refused));
        return false;
    }
    const as::HeadsRecordPtr r = v->record();
    const std::vector<as::HeadId> order = as::headsByImportance(r->report);
    QStringList most, least;
    for (std::size_t i = 0; i < 5 && i < order.size(); ++i) {
        least << as::headSpec({order[i]});
        most << as::headSpec({order[order.size() - 1 - i]});
    }
    std::printf("attention-studio: NLL %.4f; most important heads %s; least important %s\n",
                r->report.nll, qPrintable(most.join(' ')), qPrintable(least.join(' ')));
    // The pruning curve runs in the head service's thread: how long it takes, and how late the
    // GUI thread's timer fires meanwhile (the curve grows point by point in the view).
    QElapsedTimer pruningClock;
    pruningClock.start();
    GuiLateness lateness;
    lateness.start();
    emit v->pruningRequested();
    if (!waitFor([&] { return pruned; }, 3600000))
        return false;
    lateness.stop();
    std::printf("attention-studio: pruning curve in %.1f s; GUI timer late by %.1f ms at the 99th "
                "percentile, %.1f ms at worst\n",
                double(pruningClock.elapsed()) / 1000.0, percentile(lateness.bucket(0), 0.99),
                lateness.worst(0));
    w.heads()->setMutedHeads(std::vector<as::HeadId>(order.begin(), order.begin() + long(order.size() / 2)));
    if (!waitFor([&] { return figures; }, 3600000))
        return false;
    std::printf("attention-studio: %s\n", qPrintable(v->summary()));
    w.views()->tabs()->setCurrentWidget(v);
    return true;
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
                        {"valid_bleu", r.validBleu},
                        {"samples", samples}};
    return as::writeFileAtomically(path, QJsonDocument(o).toJson(QJsonDocument::Indented), error);
}

int screenshots(as::MainWindow& w, const QString& dir, const ScreenshotRun& run)
{
    if (!QDir().mkpath(dir)) {
        std::fprintf(stderr, "attention-studio: cannot make the folder %s\n", qPrintable(dir));
        return 1;
    }
    w.setAttribute(Qt::WA_DontShowOnScreen);
    w.resize(1400, 900);
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
        w.comparisons()->startComparison(b);
        if (!waitFor([&] { return w.comparisons()->comparison() != nullptr || !failure.isEmpty(); }, 120000)
            || !w.comparisons()->comparison()) {
            std::fprintf(stderr, "attention-studio: B did not start: %s\n", qPrintable(failure));
            return 1;
        }
    }
    QElapsedTimer trainClock;
    trainClock.start();
    SnapshotPace pace(w);
    w.link()->step(run.steps);
    if (!waitFor([&] { return w.currentStep() >= run.steps; }, 3600000)) {
        std::fprintf(stderr, "attention-studio: training did not reach step %d\n", run.steps);
        return 1;
    }
    if (const as::RunSeriesPtr b = w.comparisons()->comparison()) {
        // B's figures beside A's (summary.json has A's): the mean loss of its last 50 steps and
        // its last validation.
        waitFor([&] { return long(w.comparisons()->comparison()->loss.size()) >= run.steps || !w.isRunning(); }, 60000);
        const as::RunSeriesPtr last = w.comparisons()->comparison();
        double sum = 0;
        int n = 0;
        for (auto it = last->loss.rbegin(); it != last->loss.rend() && n < 50; ++it, ++n)
            sum += it->loss;
        std::printf("attention-studio: %s: %zu steps, train loss (last 50) %.4f, valid loss %s\n",
                    qPrintable(last->name), last->loss.size(), n ? sum / n : 0.0,
                    last->eval.empty() ? "—" : qPrintable(QString::number(last->eval.back().loss, 'f', 4)));
    }
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
    // A translation of the toy task's first sentence in the Translate view.
    if (run.corpus.train.isEmpty() && (run.task == "toy" || run.task == "zh-en")) {
        bool done = false;
        QObject::connect(w.views()->translate(), &as::ui::TranslateView::translationFinished, &w,
                         [&] { done = true; });
        w.views()->translate()->translate(QStringLiteral("我有一个好朋友"));
        waitFor([&] { return done; }, 20000);
    }
    if (run.heads && !scoreHeadsForScreenshot(w))
        return 1;
    if (!compareForScreenshot(w, run.compare))
        return 1;
    showEmbeddings(w);
    // The window's picture shows the attention of the probe sentence, and its neuron view.
    showNeuronView(w);
    QString error;
    if (!writeSummary(QDir(dir).filePath("summary.json"), *summary, &error)
        || !w.files()->saveViewPngs(dir, &error)) {
        std::fprintf(stderr, "attention-studio: %s\n", qPrintable(error));
        return 1;
    }
    std::printf("attention-studio: wrote the views at step %ld and summary.json (valid loss %.4f, "
                "accuracy %.4f, BLEU %.2f) into %s\n",
                w.currentStep(), summary->validLoss, summary->validAccuracy, summary->validBleu,
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
        if (!ok || seconds <= 0 || !as::trainingTaskNames().contains(p.value("task"))) {
            std::fprintf(stderr, "attention-studio: --measure-responsiveness needs SECONDS > 0 "
                                 "and --task one of: %s\n",
                         qPrintable(as::trainingTaskNames().join(", ")));
            return 2;
        }
        const int rc = measureResponsiveness(w, seconds, p.value("task"), p.value("valid-every").toInt());
        w.close();
        return rc;
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
    if (p.isSet("screenshot") && !files.isEmpty()) {
        const int explain = int(QStringList{"cross", "attention", "rollout", "gradxinput", "ig"}.indexOf(p.value("explain")));
        if (explain < 0) {
            std::fprintf(stderr, "attention-studio: --explain must be cross, attention, rollout, gradxinput or ig\n");
            return 2;
        }
        const int rc = screenshotsOfFile(w, p.value("screenshot"), files.first(), p.value("sentence"),
                                         explain, p.values("compare"));
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
        if (!ok || !seedOk || run.steps < 0 || !as::trainingTaskNames().contains(run.task)) {
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
