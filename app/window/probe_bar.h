// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Above the Attention view: the probe sentence pair whose attention the views show — one of
// the session's examples, or a sentence typed (with its target, optionally). The worker
// computes the probe's attention (probeChosen goes to WorkerLink::setProbe).
#include "text/tasks.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace as {

class ProbeBar : public QWidget {
    Q_OBJECT
public:
    explicit ProbeBar(QWidget* parent = nullptr);

    // The session's data (its examples are offered, its tokenisers read what is typed).
    void setTask(const Task& task);
    // The examples offered: 0 until the worker has built the data of the settings applied last.
    int examples() const { return int(task_.examples.size()); }
    // Types a probe sentence (and optionally its target) and uses it.
    void setText(const QString& source, const QString& target = {});

signals:
    void probeChosen(QStringList src, QStringList tgt);
    void message(QString text, int ms);  // for the status line

protected:
    void changeEvent(QEvent* event) override;  // QEvent::LanguageChange: retranslate()

private:
    void retranslate();  // its label, tooltip, placeholders and button
    QLabel* label_ = nullptr;
    QPushButton* use_ = nullptr;
    void useTyped();

    Task task_;  // data only (examples, vocabularies)
    QComboBox* probe_ = nullptr;
    QLineEdit* src_ = nullptr;
    QLineEdit* tgt_ = nullptr;
};

}  // namespace as
