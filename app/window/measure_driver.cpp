// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// attention-studio --measure-responsiveness and --measure-mutes: how the window keeps up
// while it trains, and how long a mute in the Heads view takes to show (screenshot_driver.h).
#include "driver_tools.h"

#include "translate_view.h"
#include "view_set.h"
#include "heads_controller.h"
#include "worker_link.h"
#include "model/parallel.h"
#include "plot_tools.h"

#include <QGuiApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTabWidget>
#include <qcustomplot.h>

#include <cstdio>
#include <ctime>

namespace as::driver {

// --measure-responsiveness: trains (Play) with the window shown while a 1 ms timer on the GUI
// thread records how late each tick comes: the longest time the GUI thread was busy with
// something else (snapshots arriving, replots, painting). Every tab is shown for an equal share
// of the time, so every view draws live. Prints one JSON line at the end. With reportEvery > 0
// (--report-every, scripts/soak), a long run: one JSON line every reportEvery seconds too (the
// steps per second, the lateness and the memory of that interval), one tab a report, round and
// round, as a learner goes back to the views; each report's ticks are summarised and dropped
// (the measurement's own memory stays flat over hours), and the final line's percentiles are
// the worst report's.
int measureResponsiveness(as::MainWindow& w, double seconds, const QString& task, int validEvery,
                          double reportEvery)
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
    const QList<QWidget*> pages = w.views()->viewPages();
    const int nTabs = int(pages.size());
    GuiLateness lateness(nTabs);
    std::vector<double> switches;
    w.views()->showView(pages[0]);
    QCoreApplication::processEvents();

    QElapsedTimer clock;
    int tab = 0;
    QTimer switcher;
    // Each tab once, an equal share of the run; in a long run (reportEvery > 0) one tab a
    // report, round and round, as a learner goes back to the views.
    switcher.setInterval(std::max(1, int((reportEvery > 0 ? reportEvery : seconds / nTabs) * 1000)));
    QObject::connect(&switcher, &QTimer::timeout, [&] {
        if (tab + 1 >= nTabs && reportEvery <= 0)
            return;
        // Showing a tab lays it out, replots the plots that went stale while it was hidden and
        // paints it: a cost of the user's click, not of training, so it is reported on its own
        // (the replots run here at once rather than one per pass of the event loop after it).
        const qint64 t0 = clock.nsecsElapsed();
        tab = (tab + 1) % nTabs;
        w.views()->showView(pages[tab]);
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
            if (pages[i]->isAncestorOf(plot))
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

    // --report-every: per tab, the ticks, the worst, and the worst report's 99th percentile.
    struct TickSummary {
        double ticks = 0, worst = 0, p99 = 0;
    };
    std::vector<TickSummary> summaries(static_cast<std::size_t>(nTabs));
    std::vector<double> reportP50s;
    double reportP99Worst = 0;
    long reportStep = 0;
    double reportT = 0;
    QTimer reporter;
    reporter.setInterval(std::max(1, int(reportEvery * 1000)));
    const auto report = [&] {
        std::vector<double> ticks;
        for (int i = 0; i < nTabs; ++i) {
            std::vector<double>& v = lateness.bucket(i);
            TickSummary& s = summaries[std::size_t(i)];
            s.ticks += double(v.size());
            if (!v.empty()) {
                s.worst = std::max(s.worst, *std::max_element(v.begin(), v.end()));
                s.p99 = std::max(s.p99, percentile(v, 0.99));
            }
            ticks.insert(ticks.end(), v.begin(), v.end());
            v.clear();
            v.shrink_to_fit();
        }
        const double t = double(clock.nsecsElapsed()) / 1e9;
        const long step = w.currentStep();
        const ProcessMemory m = processMemory();
        reportP99Worst = std::max(reportP99Worst, percentile(ticks, 0.99));
        reportP50s.push_back(percentile(ticks, 0.5));
        const QJsonObject o{{"t", t},
                            {"step", double(step)},
                            {"steps_per_s", t > reportT ? double(step - reportStep) / (t - reportT) : 0.0},
                            {"tab", w.views()->viewTitle(pages[tab]).remove('&')},
                            {"late_ms_p99", percentile(ticks, 0.99)},
                            {"late_ms_worst", ticks.empty() ? 0.0 : *std::max_element(ticks.begin(), ticks.end())},
                            {"rss_mib", m.rssMib},
                            {"heap_in_use_mib", m.heapInUseMib},
                            {"heap_free_mib", m.heapFreeMib},
                            {"heap_mapped_mib", m.heapMappedMib}};
        std::printf("%s\n", QJsonDocument(o).toJson(QJsonDocument::Compact).constData());
        std::fflush(stdout);
        reportStep = step;
        reportT = t;
    };
    QObject::connect(&reporter, &QTimer::timeout, report);

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
    reportStep = step0;
    if (reportEvery > 0)
        reporter.start();
    waitFor([&] { return clock.elapsed() >= qint64(seconds * 1000); }, int(seconds * 1000) + 5000);
    lateness.stop();
    switcher.stop();
    if (reportEvery > 0) {
        reporter.stop();
        report();  // the last interval's ticks too
    }
    const double elapsed = double(clock.nsecsElapsed()) / 1e9;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu1);
    const double guiCpu = double(cpu1.tv_sec - cpu0.tv_sec) + double(cpu1.tv_nsec - cpu0.tv_nsec) / 1e9;
    const long steps = w.currentStep() - step0;  // as of the last snapshot (<= 100 ms old)
    w.link()->pause();
    waitFor([&] { return !w.isRunning(); }, 10000);

    std::vector<double> all;
    QJsonObject perTab;
    double allTicks = 0, allWorst = 0;
    for (int i = 0; i < nTabs; ++i) {
        const std::vector<double>& v = lateness.bucket(i);
        all.insert(all.end(), v.begin(), v.end());
        const TickSummary& s = summaries[std::size_t(i)];
        const double ticks = reportEvery > 0 ? s.ticks : double(v.size());
        const double worst = reportEvery > 0 ? s.worst : lateness.worst(i);
        allTicks += ticks;
        allWorst = std::max(allWorst, worst);
        const Cost& c = replots[std::size_t(i)];
        perTab.insert(w.views()->viewTitle(pages[i]).remove('&'),
                      QJsonObject{{"ticks", ticks},
                                  {"late_ms_worst", worst},
                                  {"late_ms_p99", reportEvery > 0 ? s.p99 : percentile(v, 0.99)},
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
        {"ticks", allTicks},
        {"late_ms_worst", allWorst},
        {"late_ms_p99", reportEvery > 0 ? reportP99Worst : percentile(all, 0.99)},
        {"late_ms_p50", reportEvery > 0 ? percentile(reportP50s, 0.5) : percentile(all, 0.5)},
        {"percentiles_of", reportEvery > 0 ? "the worst report (p99), the reports' median (p50)" : "every tick"},
        {"gui_thread_cpu_fraction", guiCpu / elapsed},
        {"idle_late_ms_worst", idle.empty() ? 0.0 : *std::max_element(idle.begin(), idle.end())},
        {"idle_late_ms_p99", percentile(idle, 0.99)},
        {"tab_switch_ms_worst",
         switches.empty() ? 0.0 : *std::max_element(switches.begin(), switches.end())},
        {"per_tab", perTab}};
    std::printf("%s\n", QJsonDocument(o).toJson(QJsonDocument::Compact).constData());
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
    w.views()->showView(view);
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

}  // namespace as::driver
