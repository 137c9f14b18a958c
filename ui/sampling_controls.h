// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Sampling's options (core/SPEC.md §5.6) as one row of controls: the temperature on a slider
// (0 to 2, 0 greedy) with its value, top-k (0: all), top-p and the seed. Translate's "Sampling"
// and the Decoding view's "Sample" are this one widget.
#include "decode/sampling.h"

#include <QWidget>

class QDoubleSpinBox;
class QLabel;
class QSlider;
class QSpinBox;

namespace as::ui {

class SamplingControls : public QWidget {
    Q_OBJECT
public:
    explicit SamplingControls(QWidget* parent = nullptr);

    SamplingOptions options() const;
    void setOptions(const SamplingOptions& options);  // as the controls would; changed() once
    QSlider* temperatureSlider() const { return temperature_; }

signals:
    void changed();  // any option moved

protected:
    // QEvent::LanguageChange: retranslate().
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    QSlider* temperature_ = nullptr;  // hundredths
    QLabel *temperatureLabel_ = nullptr, *temperatureValue_ = nullptr, *topKLabel_ = nullptr,
           *topPLabel_ = nullptr, *seedLabel_ = nullptr;
    QSpinBox *topK_ = nullptr, *seed_ = nullptr;
    QDoubleSpinBox* topP_ = nullptr;
};

}  // namespace as::ui
