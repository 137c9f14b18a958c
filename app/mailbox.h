// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Work handed to the thread of a QObject, with every hand-over visible to ThreadSanitizer.
//
// A queued signal copies its arguments in the sender's thread and reads them in the
// receiver's; the order between the two comes from the posted-event queue's lock, a futex
// inside Qt. Debian's Qt is not built with TSan, so TSan cannot see that lock and reports each
// snapshot, settings object or path that crosses threads as a race. Here a closure, with
// everything it captured, passes through a std::mutex, which TSan sees; Qt only delivers a
// wake-up without arguments (an invokeMethod by name: no data of ours in Qt's event).
// The window and the training worker talk only through two of these.
#include <QObject>

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>

// For a hand-over through a Qt facility that has no mailbox (QThreadPool::start): the sender
// calls AS_TSAN_RELEASE(key) after building what it hands over, the receiver AS_TSAN_ACQUIRE(key)
// before reading it. No-ops unless built with -fsanitize=thread.
#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#define AS_TSAN_RELEASE(key) __tsan_release(key)
#define AS_TSAN_ACQUIRE(key) __tsan_acquire(key)
#else
#define AS_TSAN_RELEASE(key) ((void)(key))
#define AS_TSAN_ACQUIRE(key) ((void)(key))
#endif

namespace as {

class Mailbox : public QObject {
    Q_OBJECT
public:
    explicit Mailbox(QObject* parent = nullptr) : QObject(parent) {}
    // Takes the lock once more: the destruction comes after the last post, as TSan sees it.
    ~Mailbox() override;

    // Runs f in this object's thread, after everything posted before it (from any thread).
    void post(std::function<void()> f);
    // Runs f in this object's thread and returns when it has run (directly when called there).
    void call(const std::function<void()>& f);

private slots:
    void runOne();

private:
    std::mutex mutex_;
    std::deque<std::function<void()>> queue_;
};

}  // namespace as
