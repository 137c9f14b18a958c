// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The replay controls the Attention and Model views share: "Replay:", a slider over the records
// kept during training (index 0 … size − 1, the right end live), a "Live" button and a label
// with the step shown. Values in, signals out: the view owns its history and tells the bar its
// size, the index shown and that record's step (setState); the bar asks for an index
// (indexRequested) when the user moves the slider or presses Live, and never emits while it is
// being set.
#include <QWidget>

class QLabel;
class QSlider;
class QToolButton;

namespace as::ui {

class ReplayBar : public QWidget {
    Q_OBJECT
public:
    explicit ReplayBar(QWidget* parent = nullptr);

    // size records, index shown (-1: none), its step. Index is clamped into 0 … size − 1.
    void setState(int size, int index, long step);
    int size() const { return size_; }
    int index() const { return index_; }
    long step() const { return step_; }
    // Something is shown and it is the latest record (new records are followed).
    bool isLive() const { return size_ > 0 && index_ == size_ - 1; }

    // What the label says while nothing is recorded ("no steps recorded" when not set), and the
    // slider's tooltip: the view's words (its tr(), set again at its language change).
    void setEmptyText(const QString& text);
    void setSliderToolTip(const QString& text);

    QSlider* slider() const { return slider_; }
    QToolButton* liveButton() const { return live_; }
    QLabel* stepLabel() const { return stepLabel_; }

signals:
    // The user moved the slider to index, or pressed Live (index = size − 1).
    void indexRequested(int index);

protected:
    void changeEvent(QEvent* e) override;

private:
    void retranslate();
    void showState();

    QLabel* replayLabel_ = nullptr;
    QSlider* slider_ = nullptr;
    QToolButton* live_ = nullptr;
    QLabel* stepLabel_ = nullptr;
    QString emptyText_;
    int size_ = 0, index_ = -1;
    long step_ = -1;
    bool updating_ = false;
};

}  // namespace as::ui
