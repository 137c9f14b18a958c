// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The window: its layout (the views' tabs, the settings dock, the toolbar, the status line),
// its menus, title and close. Its parts do the work: the link to the training worker in its
// own thread (worker_link.h), the views (view_set.h), the files (file_actions.h), corpora
// (corpus_actions.h), compared runs and A/B (comparison_actions.h), the Heads view's work
// (heads_controller.h) and the Tokens view's (tokens_controller.h). Views receive snapshots; none touches the model.
#include "training_worker.h"
#include "fine_tune.h"

#include <QMainWindow>

class QAction;
class QActionGroup;
class QComboBox;
class QDockWidget;
class QLabel;
class QMenu;
class QSpinBox;
class QToolBar;

namespace as {
class BesideTranslator;
class ComparisonActions;
class SessionBuilder;
class CorpusActions;
class FileActions;
class HeadsController;
class HelpActions;
class TokensController;
class LessonActions;
class SettingsPanel;
class ViewSet;
class WorkerLink;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Builds a fresh model with these settings (as the settings panel's Apply does), and B
    // beside it if an A/B runs. Where that trains a SentencePiece model (seconds on zh-en), the
    // data is built in the background first (sessionBuilder(): a progress dialog whose Cancel
    // leaves the session as it was, still training), and the session changes once it is.
    void applySettings(const SessionSettings& s);
    // A user's corpus just read: offered in the settings panel, then applied.
    void applyCorpusSettings(const SessionSettings& s);

    // Fine-tuning the model opened to look inside (fine_tune.h): a decoder-only model read from
    // a file or folder loadModel reads. Space, Step and Step N on it ask how (offerFineTune).
    bool canFineTune() const;
    void offerFineTune();
    // The dialog offerFineTune shows (null when the model cannot be fine-tuned).
    std::unique_ptr<FineTuneDialog> fineTuneDialog();
    // Starts fine-tuning it as `choice` says, training at once.
    void fineTune(const FineTuneChoice& choice);
    // Starts the fine-tuning run `s` (fineTuneSettings; a corpus file's with its data read)
    // and plays it.
    void startFineTune(const SessionSettings& s);

    long currentStep() const { return step_; }
    bool isRunning() const { return running_; }
    const SessionSettings& settings() const { return settings_; }
    // The session is a model opened to look inside, not a built-in task.
    bool isInspecting() const { return settings_.inspecting(); }
    // The session's example pairs (probes) the window has received from the worker: 0 until
    // the worker has built the data of the settings applied last.
    int examplesShown() const;

    // The window's parts.
    WorkerLink* link() const { return link_; }
    ViewSet* views() const { return views_; }
    FileActions* files() const { return files_; }
    CorpusActions* corpus() const { return corpus_; }
    ComparisonActions* comparisons() const { return comparisons_; }
    BesideTranslator* beside() const { return beside_; }  // View > Translate beside a model…
    SessionBuilder* sessionBuilder() const { return sessionBuilder_; }
    HeadsController* heads() const { return heads_; }
    TokensController* tokens() const { return tokens_; }
    LessonActions* lessons() const { return lessons_; }
    HelpActions* help() const { return help_; }
    QAction* playAction() const { return play_; }
    QAction* stepAction() const { return step1_; }
    QAction* resetAction() const { return reset_; }
    QMenu* fileMenu() const { return fileMenu_; }
    QMenu* viewMenu() const { return viewMenu_; }
    // View > Language: one checkable action per language (its data the code, language.h).
    QMenu* languageMenu() const { return languageMenu_; }
    // View > Theme: one checkable action per theme (its data the code, theme.h).
    QMenu* themeMenu() const { return themeMenu_; }
    // The status line's permanent text: step, loss, rate, time (the last snapshot's).
    QString statusText() const;

    // A message in the status line and a box that does not wait (the session goes on); the
    // parts report what failed through here.
    void showFileError(const QString& message, const QString& details = {});
    QString lastFileError() const { return lastFileError_; }
    // "name[*] — Attention Studio" for the current file.
    void updateTitle();

signals:
    void fileError(QString message);
    void sessionRestored(QString path, long step);
    // After a snapshot has reached every view (tests and --screenshot wait on it).
    void snapshotApplied(long step);

protected:
    void closeEvent(QCloseEvent* event) override;
    // QEvent::LanguageChange (View > Language, language.h): every text again, in the new one.
    void changeEvent(QEvent* event) override;

private:
    void buildMenus();
    void buildToolBar();
    // The window's texts, and its parts' (menus, toolbar, status line, views' tabs), in the
    // language installed: from the constructor and at every language change.
    void retranslate();
    void showStatus();
    void labelPlay();  // Play, or Pause while training runs
    void endLessonLeg();  // the steps to a lesson's stop are done (or paused, or failed)
    void checkTheme();  // View > Theme's check on the theme applied (theme.h)
    void onSnapshot(const SnapshotPtr& s);
    void onSessionLoaded(const SessionSettings& s, const TaskPtr& task, const QString& path,
                         long step, bool untitled);
    void updateTransport();
    // applySettings once the data that takes long is built (`prepared`; null: none).
    void startSession(const SessionSettings& s, const PreparedSessionPtr& prepared);

    SessionSettings settings_;
    // The model opened to look inside: where it was read from and its vocabularies and
    // tokenisers (what fine-tuning it reads again and cuts its text with); empty otherwise.
    QString inspectedPath_;
    TaskPtr inspectedTask_;
    WorkerLink* link_ = nullptr;
    ViewSet* views_ = nullptr;
    FileActions* files_ = nullptr;
    CorpusActions* corpus_ = nullptr;
    ComparisonActions* comparisons_ = nullptr;
    BesideTranslator* beside_ = nullptr;
    SessionBuilder* sessionBuilder_ = nullptr;
    HeadsController* heads_ = nullptr;
    TokensController* tokens_ = nullptr;
    LessonActions* lessons_ = nullptr;
    HelpActions* help_ = nullptr;
    SettingsPanel* settingsPanel_ = nullptr;
    QAction *play_ = nullptr, *step1_ = nullptr, *stepN_ = nullptr, *reset_ = nullptr;
    QSpinBox* stepCount_ = nullptr;
    QComboBox* speed_ = nullptr;
    QLabel* status_ = nullptr;
    QLabel* speedLabel_ = nullptr;
    QDockWidget* settingsDock_ = nullptr;
    QToolBar* toolBar_ = nullptr;
    QMenu* fileMenu_ = nullptr;
    QMenu* viewMenu_ = nullptr;
    QMenu* languageMenu_ = nullptr;
    QActionGroup* languages_ = nullptr;
    QMenu* themeMenu_ = nullptr;
    QActionGroup* themes_ = nullptr;
    QAction* quit_ = nullptr;
    SnapshotPtr lastSnapshot_;  // what the status line shows
    QString lastFileError_;
    long step_ = 0;
    bool running_ = false;
    long toStop_ = 0;  // a lesson's stop Play is training to (0: none)
};

}  // namespace as
