// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "mailbox.h"

#include <QThread>

namespace as {

Mailbox::~Mailbox()
{
    const std::lock_guard lock(mutex_);
    queue_.clear();
}

void Mailbox::post(std::function<void()> f)
{
    // The wake-up is posted under the lock too: it reads this object, which the destructor
    // (taking the lock) must be seen to follow.
    const std::lock_guard lock(mutex_);
    queue_.push_back(std::move(f));
    // One wake-up per item, like a queued signal: the items run in order, and an event loop
    // that an item opens (a modal dialog) goes on running the ones after it.
    QMetaObject::invokeMethod(this, "runOne", Qt::QueuedConnection);
}

void Mailbox::runOne()
{
    std::function<void()> f;
    {
        const std::lock_guard lock(mutex_);
        if (queue_.empty())
            return;
        f = std::move(queue_.front());
        queue_.pop_front();
    }
    f();
}

void Mailbox::call(const std::function<void()>& f)
{
    if (QThread::currentThread() == thread()) {
        f();
        return;
    }
    std::mutex m;
    std::condition_variable cv;
    bool done = false;
    post([&] {
        f();
        const std::lock_guard lock(m);
        done = true;
        cv.notify_one();
    });
    std::unique_lock lock(m);
    cv.wait(lock, [&] { return done; });
}

}  // namespace as
