// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Other runs beside the current one on the Loss and Learning rate plots: checkpoints of runs
// (View > Compare with run…, read off the GUI thread by RunComparer), and A/B (View > A/B
// session…), a second session B trained in alternation with the current one. B's data is
// built off the GUI and worker threads (a BackgroundJob: a new subword side trains a
// SentencePiece model, seconds on zh-en), with a busy progress dialog whose Cancel drops B and
// leaves A as it is (training, if it was); A and B restart from step 0 only once B is built.
#include "train/run_series.h"
#include "training_worker.h"  // SessionSettings
#include "train/snapshot.h"

#include <QObject>

#include <optional>

class QAction;
class QMenu;

namespace as {
class MainWindow;
class RunComparer;

class ComparisonActions : public QObject {
    Q_OBJECT
public:
    explicit ComparisonActions(MainWindow* window);
    // The texts it shows (actions, menus, tabs) in the language installed, again: from the
    // constructor and at MainWindow's QEvent::LanguageChange.
    void retranslate();

    // Reads a checkpoint and draws its run, at most RunComparer::kMaxRuns; a file that cannot
    // be used gives a message (MainWindow::fileError) and changes nothing.
    void compareWith(const QString& path);
    RunComparer* runComparer() const { return comparer_; }

    // A/B: a second session B with settings `b` — its model and optimisation settings; the
    // data, order, seed and plan stay the current one's — trained in alternation with it, both
    // restarted from step 0 once B's data is built (in the background, MainWindow's
    // SessionBuilder, after a session it builds already); B is drawn on the Loss and Learning rate plots as it grows.
    // keepComparison: B becomes the session; stopComparison: B goes.
    void startComparison(const SessionSettings& b);
    void keepComparison();
    void stopComparison();
    RunSeriesPtr comparison() const { return comparison_; }  // B's run so far; null: no A/B
    // B's settings as asked (startComparison's `b`) while an A/B runs: what a new session
    // (Reset, Settings > Apply) builds B's data for. Empty: no A/B.
    std::optional<SessionSettings> runningComparison() const;
    // B's part of a snapshot (null: no A/B).
    void apply(const ComparisonUpdate* c);
    // B's latest loss for the status line (empty: no A/B).
    QString statusSuffix() const;

    // The View menu's items.
    QAction* compareAction() const { return compare_; }
    QMenu* removeComparedMenu() const { return removeCompared_; }
    QAction* comparisonAction() const { return abStart_; }
    QAction* keepAction() const { return abKeep_; }
    QAction* stopAction() const { return abStop_; }

private:
    void chooseComparison();  // the A/B dialog
    void showComparedRuns();  // the comparer's runs and B, to every plot that draws them
    void listComparedRuns();  // the comparer's runs in the View menu

    MainWindow* window_;
    RunComparer* comparer_ = nullptr;
    QAction* compare_ = nullptr;
    QMenu* removeCompared_ = nullptr;
    QAction *abStart_ = nullptr, *abKeep_ = nullptr, *abStop_ = nullptr;
    RunSeriesPtr comparison_;  // A/B's B as drawn
    std::optional<SessionSettings> asked_;  // the B last sent to the worker
    QString comparisonFault_;
};

}  // namespace as
