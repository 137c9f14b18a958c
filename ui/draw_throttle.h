// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The one policy for a view fed records faster than it can draw them (Head dynamics,
// Induction heads): what arrives is drawn together at most every `intervalMs`, not at all while
// the view is hidden, and at once when it is shown again. The view's draw() calls clean().
#include <QTimer>
#include <QWidget>

#include <functional>
#include <utility>

namespace as::ui {

class DrawThrottle {
public:
    DrawThrottle(QWidget* view, int intervalMs, std::function<void()> draw)
        : view_(view), draw_(std::move(draw)), timer_(new QTimer(view))
    {
        timer_->setSingleShot(true);
        timer_->setInterval(intervalMs);
        QObject::connect(timer_, &QTimer::timeout, view, [this] {
            if (dirty_)
                draw_();
        });
    }
    DrawThrottle(const DrawThrottle&) = delete;
    DrawThrottle& operator=(const DrawThrottle&) = delete;

    // Something arrived: drawn within the interval if the view is shown, else when it is.
    void schedule()
    {
        dirty_ = true;
        if (view_->isVisible() && !timer_->isActive())
            timer_->start();
    }
    // Drawn now, whatever is pending.
    void drawNow()
    {
        timer_->stop();
        draw_();
    }
    // From the view's showEvent: what arrived while it was hidden.
    void shown()
    {
        if (dirty_)
            drawNow();
    }
    bool dirty() const { return dirty_; }
    void clean() { dirty_ = false; }

private:
    QWidget* view_;
    std::function<void()> draw_;
    QTimer* timer_;
    bool dirty_ = false;
};

}  // namespace as::ui
