// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The lesson beside the views (issue 26 §3): its title, its notes (Markdown), and its stops in
// step order — "at step 300, open the Attention view on layer 2 head 5" — each marked once
// training has reached it, the current one selected. Double-clicking a stop (or Enter) asks to
// show its view again. The panel shows a lesson value (run/lesson.h); the window runs it.
#include "run/lesson.h"

#include <QWidget>

#include <optional>

class QLabel;
class QListWidget;
class QPushButton;
class QTextBrowser;

namespace as::ui {

class LessonPanel : public QWidget {
    Q_OBJECT
public:
    explicit LessonPanel(QWidget* parent = nullptr);

    // The lesson in `language` (LessonText::in); nothing shown for none.
    void setLesson(const std::optional<Lesson>& lesson, const QString& language);
    // Training is at `step`: stops at or before it are marked reached.
    void setStep(long step);
    // The stop just reached (its text stands out); -1: none.
    void setCurrentStop(int index);

    // Read-outs (tests).
    QString title() const;
    QString notesText() const;  // the notes as shown, without Markdown
    int stopCount() const;
    QString stopText(int index) const;
    bool stopReached(int index) const;
    int currentStop() const;

signals:
    void stopActivated(int index);
    void restartRequested();
    void closeRequested();

protected:
    void changeEvent(QEvent* e) override;

private:
    void retranslate();
    void fill();

    std::optional<Lesson> lesson_;
    QString language_;
    long step_ = 0;
    int current_ = -1;
    QLabel* title_ = nullptr;
    QTextBrowser* notes_ = nullptr;
    QLabel* stopsLabel_ = nullptr;
    QListWidget* stops_ = nullptr;
    QPushButton* restart_ = nullptr;
    QPushButton* close_ = nullptr;
};

}  // namespace as::ui
