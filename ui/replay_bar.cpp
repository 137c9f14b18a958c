// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "replay_bar.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QToolButton>

#include <algorithm>

namespace as::ui {

ReplayBar::ReplayBar(QWidget* parent) : QWidget(parent)
{
    replayLabel_ = new QLabel(this);
    slider_ = new QSlider(Qt::Horizontal, this);
    slider_->setMinimumWidth(80);
    slider_->setEnabled(false);
    live_ = new QToolButton(this);
    stepLabel_ = new QLabel(this);
    stepLabel_->setMinimumWidth(170);
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(replayLabel_);
    row->addWidget(slider_, 1);
    row->addWidget(live_);
    row->addWidget(stepLabel_);
    connect(slider_, &QSlider::valueChanged, this, [this](int v) {
        if (!updating_)
            emit indexRequested(v);
    });
    connect(live_, &QToolButton::clicked, this, [this] {
        if (size_ > 0)
            emit indexRequested(size_ - 1);
    });
    retranslate();
}

void ReplayBar::retranslate()
{
    replayLabel_->setText(tr("Replay:"));
    live_->setText(tr("Live"));
    live_->setToolTip(tr("Follow the latest recorded step"));
    showState();
}

void ReplayBar::changeEvent(QEvent* e)
{
    QWidget::changeEvent(e);
    if (e->type() == QEvent::LanguageChange)
        retranslate();
}

void ReplayBar::setEmptyText(const QString& text)
{
    emptyText_ = text;
    showState();
}

void ReplayBar::setSliderToolTip(const QString& text)
{
    slider_->setToolTip(text);
}

void ReplayBar::setState(int size, int index, long step)
{
    size_ = std::max(0, size);
    index_ = size_ == 0 || index < 0 ? -1 : std::min(index, size_ - 1);
    step_ = index_ < 0 ? -1 : step;
    showState();
}

void ReplayBar::showState()
{
    updating_ = true;
    slider_->setEnabled(size_ > 1);
    slider_->setRange(0, std::max(0, size_ - 1));
    slider_->setValue(std::max(index_, 0));
    updating_ = false;
    live_->setEnabled(size_ > 0 && !isLive());
    if (index_ < 0)
        stepLabel_->setText(emptyText_.isEmpty() ? tr("no steps recorded") : emptyText_);
    else if (isLive())
        stepLabel_->setText(tr("step %1 · live").arg(step_));
    else
        stepLabel_->setText(tr("step %1 · replay %2/%3").arg(step_).arg(index_ + 1).arg(size_));
}

}  // namespace as::ui
