// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Lessons in the window (issue 26 §3, run/lesson.h): the Lessons menu (the bundled lessons by
// title, Open lesson…, Save as lesson…), `attention-studio lesson.json`, and a lesson run: its
// settings applied, its probe set once the task's data is there, its A/B started, its view
// shown, its notes and stops in the lesson panel. While a lesson runs, Play trains to its next
// stop and pauses there (the worker runs exactly that many steps), and the stop's view is shown.
#include "run/lesson.h"
#include "train/snapshot.h"
#include "text/tokenizer.h"

#include <QObject>

#include <optional>

class QAction;
class QDockWidget;
class QMenu;

namespace as {
class MainWindow;
namespace ui {
class LessonPanel;
}

class LessonActions : public QObject {
    Q_OBJECT
public:
    explicit LessonActions(MainWindow* window);
    void retranslate();

    QMenu* menu() const { return menu_; }
    QDockWidget* dock() const { return dock_; }
    ui::LessonPanel* panel() const { return panel_; }
    QAction* openAction() const { return open_; }
    QAction* saveAction() const { return save_; }

    // Reads a lesson file and starts it; a bad file is refused with a message naming the
    // field, and nothing changes. False when refused.
    bool openLessonFile(const QString& path);
    void startLesson(const Lesson& lesson);
    void closeLesson();
    const std::optional<Lesson>& lesson() const { return lesson_; }
    // The first stop after `step`, or -1 (no lesson, or none left): where Play pauses.
    long nextStop(long step) const;
    // The current session as a lesson (title and notes given), written atomically; false and
    // *error when it cannot be one (not a built-in task) or the file cannot be written.
    bool saveLesson(const QString& path, const LessonText& title, const LessonText& notes, QString* error);
    // Shows a view as a lesson names it (its attention kind, layer and head too).
    void showFocus(const LessonFocus& focus);

    // Every snapshot: a stop reached is marked, and its view shown once.
    void onSnapshot(const TrainingSnapshot& s);

signals:
    void lessonStarted();

private:
    void rebuildMenu();
    void askToOpen();
    void askToSave();

    MainWindow* window_;
    std::optional<Lesson> lesson_;
    int shownStop_ = -1;   // the last stop whose view was shown
    bool probePending_ = false;
    QStringList probe_;  // the probe's source tokens, as the last snapshot's attention shows them
    Tokenizer srcTokenizer_ = TokenizerKind::Word;
    QMenu* menu_ = nullptr;
    QAction* open_ = nullptr;
    QAction* save_ = nullptr;
    QDockWidget* dock_ = nullptr;
    ui::LessonPanel* panel_ = nullptr;
};

}  // namespace as
