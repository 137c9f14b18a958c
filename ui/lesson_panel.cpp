// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "lesson_panel.h"

#include "plot_tools.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace as::ui {

LessonPanel::LessonPanel(QWidget* parent) : QWidget(parent)
{
    title_ = new QLabel(this);
    title_->setFont(pointFont(12, true));
    title_->setWordWrap(true);
    notes_ = new QTextBrowser(this);
    notes_->setOpenExternalLinks(true);
    stopsLabel_ = new QLabel(this);
    stopsLabel_->setFont(pointFont(10, true));
    stops_ = new QListWidget(this);
    stops_->setWordWrap(true);
    stops_->setMaximumHeight(stops_->fontMetrics().height() * 12);
    connect(stops_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        emit stopActivated(stops_->row(item));
    });
    restart_ = new QPushButton(this);
    close_ = new QPushButton(this);
    connect(restart_, &QPushButton::clicked, this, &LessonPanel::restartRequested);
    connect(close_, &QPushButton::clicked, this, &LessonPanel::closeRequested);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(restart_);
    buttons->addWidget(close_);
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(title_);
    layout->addWidget(notes_, 1);
    layout->addWidget(stopsLabel_);
    layout->addWidget(stops_);
    layout->addLayout(buttons);
    retranslate();
}

void LessonPanel::retranslate()
{
    stopsLabel_->setText(tr("Along the way"));
    stops_->setToolTip(tr("Training pauses at each stop and shows its view; double-click a stop to see its view again"));
    restart_->setText(tr("Start again"));
    restart_->setToolTip(tr("The lesson's run from step 0"));
    close_->setText(tr("Close the lesson"));
    fill();
}

void LessonPanel::changeEvent(QEvent* e)
{
    QWidget::changeEvent(e);
    if (e->type() == QEvent::LanguageChange)
        retranslate();
}

void LessonPanel::setLesson(const std::optional<Lesson>& lesson, const QString& language)
{
    lesson_ = lesson;
    language_ = language;
    step_ = 0;
    current_ = -1;
    fill();
}

void LessonPanel::fill()
{
    stops_->clear();
    if (!lesson_) {
        title_->clear();
        notes_->clear();
        return;
    }
    title_->setText(lesson_->title.in(language_));
    notes_->setMarkdown(lesson_->notes.in(language_));
    for (const LessonStop& s : lesson_->stops) {
        auto* item = new QListWidgetItem(tr("Step %1: %2").arg(s.step).arg(s.text.in(language_)), stops_);
        item->setData(Qt::UserRole, qlonglong(s.step));
    }
    setStep(step_);
    setCurrentStop(current_);
}

void LessonPanel::setStep(long step)
{
    step_ = step;
    for (int i = 0; i < stops_->count(); ++i) {
        QListWidgetItem* item = stops_->item(i);
        const bool reached = item->data(Qt::UserRole).toLongLong() <= step;
        item->setCheckState(reached ? Qt::Checked : Qt::Unchecked);
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);  // checked by training, not by hand
    }
}

void LessonPanel::setCurrentStop(int index)
{
    current_ = index >= 0 && index < stops_->count() ? index : -1;
    for (int i = 0; i < stops_->count(); ++i) {
        QFont f = stops_->item(i)->font();
        f.setBold(i == current_);
        stops_->item(i)->setFont(f);
    }
    if (current_ >= 0)
        stops_->setCurrentRow(current_);
}

QString LessonPanel::title() const
{
    return title_->text();
}

QString LessonPanel::notesText() const
{
    return notes_->toPlainText();
}

int LessonPanel::stopCount() const
{
    return stops_->count();
}

QString LessonPanel::stopText(int index) const
{
    return stops_->item(index)->text();
}

bool LessonPanel::stopReached(int index) const
{
    return stops_->item(index)->checkState() == Qt::Checked;
}

int LessonPanel::currentStop() const
{
    return current_;
}

}  // namespace as::ui
