// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Fine-tuning a model opened to look inside (a GPT-2 folder from the Hugging Face Hub, or a
// language model saved before): Space on it asks what to train it on, how many windows a
// batch and how far, then the window trains it with every training view live. What a run is
// (its recipe, reading the text with the model's own tokeniser, starting from its weights) is
// core/run's: SessionSettings::fineTuning, makeSession.
#include "run/settings.h"

#include <QDialog>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace as {

struct FineTuneChoice {
    QString task = QStringLiteral("lm-en");  // lm-en, lm-zh or text:FILE
    int windows = 8;                         // windows of kLmContext tokens a batch
    long steps = 300;
    double peakRate = kFineTunePeakRate;     // the rate at the end of the warm-up
};

// The settings of fine-tuning the model of the inspection session `inspected` (its vocabulary
// and tokeniser in `task`), read from `basePath`, as `choice` says.
SessionSettings fineTuneSettings(const FineTuneChoice& choice, const SessionSettings& inspected,
                                 const Task& task, const QString& basePath);

class FineTuneDialog : public QDialog {
    Q_OBJECT
public:
    // `model`: the model's name as the window shows it; `parameters`, its count; `context`, the
    // tokens of a window it reads (ModelText::context).
    FineTuneDialog(const QString& model, long parameters, int context, QWidget* parent = nullptr);
    FineTuneChoice choice() const;

private:
    QComboBox* task_;
    QSpinBox* windows_;
    QSpinBox* steps_;
    QDoubleSpinBox* rate_;
    QLabel* tokens_;
};

}  // namespace as
