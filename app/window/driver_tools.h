// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the --screenshot and --measure-* modes (screenshot_driver.h) share: waiting in an event
// loop, the training pace seen in the snapshots, the GUI thread's lateness, opening a file.
#include "main_window.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QTimer>

#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <algorithm>
#include <vector>

namespace as::driver {

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

// The process's memory, for long runs (--report-every): resident (the kernel's count), and
// the C library's heap in all its arenas: in use, free but kept (what fragmentation or
// keepFreedMemoryForReuse holds), and mapped blocks (each its own mmap).
struct ProcessMemory {
    double rssMib = 0, heapInUseMib = 0, heapFreeMib = 0, heapMappedMib = 0;
};

inline ProcessMemory processMemory()
{
    ProcessMemory m;
    constexpr double kMib = 1024.0 * 1024.0;
    QFile statm(QStringLiteral("/proc/self/statm"));
    if (statm.open(QIODevice::ReadOnly)) {
        const QList<QByteArray> fields = statm.readAll().split(' ');
        if (fields.size() > 1)
            m.rssMib = fields[1].toDouble() * double(sysconf(_SC_PAGESIZE)) / kMib;
    }
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
    const struct mallinfo2 info = mallinfo2();
    m.heapInUseMib = double(info.uordblks) / kMib;
    m.heapFreeMib = double(info.fordblks) / kMib;
    m.heapMappedMib = double(info.hblkhd) / kMib;
#endif
    return m;
}

inline double percentile(std::vector<double> v, double q)
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

// The size of the window --screenshot draws (--size WxH; 1400 × 900 unless given).
QSize& shotSize();

// Shows the window (shotSize()) and opens `file` in it, a checkpoint or a weight file, waited
// for; false after printing why not.
bool openShown(MainWindow& w, const QString& file);

// --measure-responsiveness and --measure-mutes (measure_driver.cpp): each prints one JSON line.
int measureResponsiveness(MainWindow& w, double seconds, const QString& task, int validEvery,
                          double reportEvery);
int measureMutes(MainWindow& w, const QString& file, const QString& sentence);

}  // namespace as::driver
