// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// SIGTERM (what a logout, systemd or `kill` sends) and SIGHUP (a closed terminal) end the window
// as closing it does: the session's unsaved steps go to the autosave, the worker stops between
// two steps, and the program exits with 128 + the signal's number. The signal handler only
// writes the signal's number to a pipe (all a handler may safely do); a QSocketNotifier reads
// it in the GUI thread, which closes the window.
#include <QObject>

class QSocketNotifier;
class QWidget;

namespace as {

class TerminationWatch : public QObject {
    Q_OBJECT
public:
    // Watches for the signals from now on, for `window`; one watch per process.
    explicit TerminationWatch(QWidget* window);
    ~TerminationWatch() override;

    // The signal that closed the window, 0 while none has.
    int signal() const { return signal_; }
    // The exit status for `status` from the event loop: 128 + the signal after one.
    int exitStatus(int status) const { return signal_ != 0 ? 128 + signal_ : status; }

signals:
    void terminated(int signal);

private:
    void onSignal();

    QWidget* window_;
    QSocketNotifier* notifier_ = nullptr;
    int signal_ = 0;
};

}  // namespace as
