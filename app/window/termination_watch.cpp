// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "termination_watch.h"

#include <QSocketNotifier>
#include <QWidget>

#include <csignal>
#include <utility>
#include <fcntl.h>
#include <unistd.h>

namespace as {

namespace {

int gPipe[2] = {-1, -1};  // the handler writes, the notifier reads

extern "C" void onTerminationSignal(int sig)
{
    const char c = char(sig);
    [[maybe_unused]] const ssize_t n = ::write(gPipe[1], &c, 1);
}

}  // namespace

TerminationWatch::TerminationWatch(QWidget* window) : window_(window)
{
    if (::pipe2(gPipe, O_CLOEXEC | O_NONBLOCK) != 0)
        return;  // no watch: the signals keep their default action
    notifier_ = new QSocketNotifier(gPipe[0], QSocketNotifier::Read, this);
    connect(notifier_, &QSocketNotifier::activated, this, &TerminationWatch::onSignal);
    struct sigaction sa = {};
    sa.sa_handler = onTerminationSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    ::sigaction(SIGTERM, &sa, nullptr);
    ::sigaction(SIGHUP, &sa, nullptr);
}

TerminationWatch::~TerminationWatch()
{
    std::signal(SIGTERM, SIG_DFL);
    std::signal(SIGHUP, SIG_DFL);
    for (int& fd : gPipe)
        if (fd >= 0)
            ::close(std::exchange(fd, -1));
}

void TerminationWatch::onSignal()
{
    char c = 0;
    if (::read(gPipe[0], &c, 1) != 1 || signal_ != 0)
        return;
    signal_ = int(c);
    // A second signal ends the program at once.
    std::signal(SIGTERM, SIG_DFL);
    std::signal(SIGHUP, SIG_DFL);
    emit terminated(signal_);
    window_->close();  // as the user's close: the autosave, the worker's shutdown
}

}  // namespace as
