// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "sampling_controls.h"

#include <QDoubleSpinBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>

#include <cmath>

namespace as::ui {

SamplingControls::SamplingControls(QWidget* parent) : QWidget(parent)
{
    temperature_ = new QSlider(Qt::Horizontal, this);
    temperature_->setRange(0, 200);
    temperature_->setValue(100);
    temperature_->setPageStep(10);
    temperature_->setMinimumWidth(120);
    temperatureLabel_ = new QLabel(this);
    temperatureValue_ = new QLabel(this);
    topKLabel_ = new QLabel(this);
    topK_ = new QSpinBox(this);
    topK_->setRange(0, 100000);
    topPLabel_ = new QLabel(this);
    topP_ = new QDoubleSpinBox(this);
    topP_->setRange(0.01, 1.0);
    topP_->setSingleStep(0.05);
    topP_->setDecimals(2);
    topP_->setValue(1.0);
    seedLabel_ = new QLabel(this);
    seed_ = new QSpinBox(this);
    seed_->setRange(0, 1000000000);
    seed_->setValue(1);
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(temperatureLabel_);
    row->addWidget(temperature_, 1);
    row->addWidget(temperatureValue_);
    for (auto [label, field] : {std::pair<QLabel*, QWidget*>{topKLabel_, topK_}, {topPLabel_, topP_}, {seedLabel_, seed_}}) {
        row->addSpacing(8);
        row->addWidget(label);
        row->addWidget(field);
    }
    const auto moved = [this] {
        temperatureValue_->setText(QString::number(temperature_->value() / 100.0, 'f', 2));
        emit changed();
    };
    connect(temperature_, &QSlider::valueChanged, this, moved);
    connect(topK_, &QSpinBox::valueChanged, this, moved);
    connect(topP_, &QDoubleSpinBox::valueChanged, this, moved);
    connect(seed_, &QSpinBox::valueChanged, this, moved);
    temperatureValue_->setText(QString::number(temperature_->value() / 100.0, 'f', 2));
    retranslate();
}

void SamplingControls::retranslate()
{
    temperatureLabel_->setText(tr("temperature"));
    temperature_->setToolTip(tr("Divides the logits before the softmax: below 1 sharper, above 1 "
                                "flatter; 0 is greedy"));
    topKLabel_->setText(tr("top-k"));
    topK_->setSpecialValueText(tr("all"));
    topK_->setToolTip(tr("Draw only among the k likeliest tokens (all: no cut)"));
    topPLabel_->setText(tr("top-p"));
    topP_->setToolTip(tr("Nucleus: draw only among the fewest likeliest tokens whose "
                         "probabilities reach p (1: no cut)"));
    seedLabel_->setText(tr("seed"));
    seed_->setToolTip(tr("The same seed draws the same output from the same weights"));
}

void SamplingControls::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

SamplingOptions SamplingControls::options() const
{
    SamplingOptions o;
    o.temperature = temperature_->value() / 100.0;
    o.topK = topK_->value();
    o.topP = topP_->value();
    o.seed = std::uint64_t(seed_->value());
    return o;
}

void SamplingControls::setOptions(const SamplingOptions& o)
{
    {
        const QSignalBlocker b1(temperature_), b2(topK_), b3(topP_), b4(seed_);
        temperature_->setValue(int(std::lround(o.temperature * 100)));
        topK_->setValue(o.topK);
        topP_->setValue(o.topP);
        seed_->setValue(int(o.seed));
    }
    temperatureValue_->setText(QString::number(temperature_->value() / 100.0, 'f', 2));
    emit changed();
}

}  // namespace as::ui
