// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparison_actions.h"

#include "file_actions.h"
#include "loss_view.h"
#include "main_window.h"
#include "run_comparer.h"
#include "session_builder.h"
#include "settings_panel.h"
#include "view_set.h"
#include "worker_link.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QStatusBar>
#include <QVBoxLayout>

namespace as {
ComparisonActions::ComparisonActions(MainWindow* window) : QObject(window), window_(window)
{
    comparer_ = new RunComparer(window);
    connect(comparer_, &RunComparer::runsChanged, this, [this] {
        showComparedRuns();
        listComparedRuns();
    });
    connect(comparer_, &RunComparer::added, this, [this](const QString& name) {
        window_->statusBar()->showMessage(tr("Comparing with %1").arg(name), 5000);
    });
    connect(comparer_, &RunComparer::failed, this, [this](const QString& m) { window_->showFileError(m); });
    compare_ = new QAction(window);
    compare_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    connect(compare_, &QAction::triggered, this, [this] {
        const QString current = window_->files()->currentFile();
        const QString dir = current.isEmpty() ? QString() : QFileInfo(current).path();
        const QString path = QFileDialog::getOpenFileName(
            window_, tr("Compare with run"), dir,
            tr("Attention Studio checkpoints (*.%1);;All files (*)").arg(kCheckpointSuffix));
        if (!path.isEmpty())
            compareWith(path);
    });
    removeCompared_ = new QMenu(window);
    abStart_ = new QAction(window);
    abStart_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
    connect(abStart_, &QAction::triggered, this, &ComparisonActions::chooseComparison);
    abKeep_ = new QAction(window);
    connect(abKeep_, &QAction::triggered, this, &ComparisonActions::keepComparison);
    abStop_ = new QAction(window);
    connect(abStop_, &QAction::triggered, this, &ComparisonActions::stopComparison);
    abKeep_->setEnabled(false);
    abStop_->setEnabled(false);
    connect(window_->link(), &WorkerLink::comparisonFailed, this,
            [this](const QString& m) { window_->showFileError(tr("A/B: %1").arg(m)); });
    showComparedRuns();
    retranslate();
}

void ComparisonActions::retranslate()
{
    compare_->setText(tr("&Compare with run…"));
    compare_->setToolTip(tr("Draw another run's loss, learning rate and validation beside this "
                            "one's, from its checkpoint (up to %1 runs; Ctrl+Shift+C)")
                             .arg(RunComparer::kMaxRuns));
    removeCompared_->setTitle(tr("&Remove compared run"));
    abStart_->setText(tr("A/&B session…"));
    abStart_->setToolTip(tr("Train a second session B beside this one — other model or "
                            "optimisation settings, the same data, order and seed — in "
                            "alternation, both from step 0, every plot showing both (Ctrl+B)"));
    abKeep_->setText(tr("&Keep B as the session"));
    abKeep_->setToolTip(tr("B becomes the session (paused, with its history) and A is dropped: "
                           "to go on training, save or export it"));
    abStop_->setText(tr("&Stop A/B"));
    abStop_->setToolTip(tr("Drop B; A goes on alone"));
    listComparedRuns();  // its "Remove all"
}

void ComparisonActions::chooseComparison()
{
    const SessionSettings& settings = window_->settings();
    if (settings.inspecting()) {
        window_->showFileError(tr("A/B needs a session that trains: apply a task or open a corpus first."));
        return;
    }
    const long step = window_->currentStep();
    QDialog dialog(window_);
    dialog.setWindowTitle(tr("A/B session"));
    auto* layout = new QVBoxLayout(&dialog);
    auto* text = new QLabel(tr("Session B trains beside the current one (A) on the same data, "
                               "in the same order, with the same seed: change what B should do "
                               "differently. Both start again from step 0%1.")
                                .arg(step > 0 ? tr(" — A's %1 steps so far are not kept (save "
                                                   "them first if you want them)").arg(step)
                                              : QString()),
                            &dialog);
    text->setWordWrap(true);
    layout->addWidget(text);
    auto* panel = new SettingsPanel(&dialog);
    if (settings.userCorpus())
        panel->setUserCorpus(settings.corpus, settings.source);
    panel->setSettings(settings);
    panel->setComparisonMode(true);
    layout->addWidget(panel);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Start A/B"));
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    if (dialog.exec() != QDialog::Accepted)
        return;
    if (const QString problem = panel->problem(); !problem.isEmpty()) {
        window_->showFileError(tr("B cannot be built: %1").arg(problem));
        return;
    }
    startComparison(panel->settings());
}

void ComparisonActions::startComparison(const SessionSettings& b)
{
    // After a session being built (a lesson's settings, then its A/B): B is of that session.
    window_->sessionBuilder()->whenIdle([this, b] {
        comparisonFault_.clear();
        auto prepared = std::make_shared<PreparedSession>();
        prepared->asked = b;
        prepared->a = window_->settings();
        const SessionSettings settings = comparisonOf(prepared->a, b);
        const auto send = [this](const PreparedSessionPtr& p) {
            asked_ = p->asked;
            window_->link()->startComparison(p);
        };
        if (!trainsTokenizer(settings)) {
            // Nothing to train (an inspected model's refused there), or B's data is made in a
            // moment: the worker builds it, after the commands sent before.
            send(prepared);
            return;
        }
        // B's data on A's settings, off the GUI and worker threads; A trains meanwhile, and goes
        // on as it was if B is cancelled.
        window_->sessionBuilder()->build(
            prepared, false, true, tr("A/B session"),
            tr("Building session B (%1) on the current session's data…")
                .arg(settingsDifferences(prepared->a, settings)),
            send, [this](const QString& error) { window_->showFileError(tr("A/B: %1").arg(error)); },
            [this] {
                window_->statusBar()->showMessage(
                    tr("A/B cancelled: B was not built, the session goes on as it was"), 8000);
            });
    });
}

std::optional<SessionSettings> ComparisonActions::runningComparison() const
{
    return abStop_->isEnabled() ? asked_ : std::nullopt;
}

void ComparisonActions::stopComparison()
{
    window_->link()->stopComparison();
}

void ComparisonActions::keepComparison()
{
    window_->link()->keepComparison();
}

void ComparisonActions::apply(const ComparisonUpdate* c)
{
    if (!c) {
        if (comparison_) {
            comparison_.reset();
            showComparedRuns();
        }
        abKeep_->setEnabled(false);
        abStop_->setEnabled(false);
        return;
    }
    abKeep_->setEnabled(true);
    abStop_->setEnabled(true);
    if (!c->fault.isEmpty() && comparisonFault_.isEmpty()) {
        comparisonFault_ = c->fault;
        window_->statusBar()->showMessage(tr("B stopped at step %1: %2. A goes on.").arg(c->step + 1).arg(c->fault), 30000);
    }
    if (!c->replacesHistory && c->newLoss.empty() && c->newEval.empty() && comparison_)
        return;
    // A value handed to the views is never changed: B's series grows by a new copy (the views
    // draw only its new points).
    auto next = std::make_shared<RunSeries>();
    if (comparison_ && !c->replacesHistory)
        *next = *comparison_;
    next->name = c->name;
    next->loss.insert(next->loss.end(), c->newLoss.begin(), c->newLoss.end());
    next->eval.insert(next->eval.end(), c->newEval.begin(), c->newEval.end());
    comparison_ = std::move(next);
    showComparedRuns();
}

QString ComparisonActions::statusSuffix() const
{
    if (!comparison_ || comparison_->loss.empty())
        return {};
    return tr(" · B loss %1%2")
        .arg(comparison_->loss.back().loss, 0, 'f', 4)
        .arg(comparisonFault_.isEmpty() ? QString() : tr(" (stopped)"));
}

void ComparisonActions::compareWith(const QString& path)
{
    // A checkpoint of the zh-en recipe's model (107 MB) takes 0.7 s to read and check.
    window_->statusBar()->showMessage(tr("Reading %1 to compare…").arg(QFileInfo(path).fileName()), 10000);
    comparer_->add(path);
}

void ComparisonActions::showComparedRuns()
{
    // Every run beside the current one goes through here, in one list: the compared files,
    // then A/B's B, handed in again as it grows (the views only draw its new points).
    RunSeriesList runs = comparer_->runs();
    if (comparison_)
        runs.push_back(comparison_);
    window_->views()->setComparedRuns(runs);
}

void ComparisonActions::listComparedRuns()
{
    // One item per compared file, in its colour, and one for all (B has its own menu items).
    const RunSeriesList& runs = comparer_->runs();
    removeCompared_->clear();
    for (int i = 0; i < int(runs.size()); ++i) {
        QPixmap swatch(12, 12);
        swatch.fill(window_->views()->loss()->comparedRun(i).colour);
        QAction* a = removeCompared_->addAction(QIcon(swatch), runs[std::size_t(i)]->name);
        a->setToolTip(comparer_->paths().value(i));
        connect(a, &QAction::triggered, this, [this, i] { comparer_->remove(i); });
    }
    if (!runs.empty()) {
        removeCompared_->addSeparator();
        connect(removeCompared_->addAction(tr("Remove &all")), &QAction::triggered, comparer_,
                &RunComparer::removeAll);
    }
    removeCompared_->setEnabled(!runs.empty());
}

}  // namespace as
