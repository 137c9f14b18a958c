// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Fine-tuning a model opened to look inside (a GPT-2 or Marian folder from the Hugging Face
// Hub, or a model saved before): Space on it asks what to train it on, how large a batch (a
// language model: windows of text; a translator: target tokens of sentence pairs) and how far,
// then the window trains it with every training view live. What a run is
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
    QString task = QStringLiteral("lm-en");  // lm-en, lm-zh or text:FILE; a translator's: zh-en
    int windows = 8;                         // windows of kLmContext tokens a batch
    int batchTokens = 1000;                  // a translator's: target tokens a batch
    long steps = 300;
    double peakRate = kFineTunePeakRate;     // the rate at the end of the warm-up
    // A translator's pairs from a corpus file of the user's (source<TAB>target, or a
    // manythings file), read with its tokenisers, instead of `task`'s. Empty: the task's.
    QString corpusFile;
};

// The settings of fine-tuning the model of the inspection session `inspected` (its vocabulary
// and tokeniser in `task`), read from `basePath`, as `choice` says.
SessionSettings fineTuneSettings(const FineTuneChoice& choice, const SessionSettings& inspected,
                                 const Task& task, const QString& basePath);

class FineTuneDialog : public QDialog {
    Q_OBJECT
public:
    // `model`: the model's name as the window shows it; `parameters`, its count; `context`, the
    // tokens of a window it reads (ModelText::context); `translator`: an encoder-decoder, which
    // is fine-tuned on sentence pairs, its batches counted in target tokens.
    FineTuneDialog(const QString& model, long parameters, int context, bool translator = false,
                   QWidget* parent = nullptr);
    FineTuneChoice choice() const;

private:
    bool translator_ = false;
    QComboBox* task_;
    QSpinBox* windows_;
    QSpinBox* steps_;
    QDoubleSpinBox* rate_;
    QLabel* tokens_;
};

}  // namespace as
