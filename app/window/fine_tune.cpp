// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "fine_tune.h"

#include "run/make_session.h"
#include "text/lm_tasks.h"
#include "train/schedule.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace as {

SessionSettings fineTuneSettings(const FineTuneChoice& choice, const SessionSettings& inspected,
                                 const Task& task, const QString& basePath)
{
    SessionSettings s = SessionSettings::fineTuning(
        choice.task, inspected.model, modelTextOf(inspected.model, task.tgtVocab, task.tgtTokenizer, task.srcVocab,
                                                     task.srcTokenizer),
        basePath);
    s.batchSize = choice.windows;
    if (!s.model.decoderOnly())
        s.batchTokens = choice.batchTokens;
    s.plannedSteps = choice.steps;
    s.train.factor = noamFactorForPeak(choice.peakRate, s.model.d_model, s.train.warmup);
    return s;
}

FineTuneDialog::FineTuneDialog(const QString& model, long parameters, int context, bool translator,
                               QWidget* parent)
    : QDialog(parent), translator_(translator)
{
    setWindowTitle(tr("Fine-tune %1").arg(model));
    auto* layout = new QVBoxLayout(this);
    auto* text = new QLabel(
        (translator ? tr("%1 (%2 parameters) trains on sentence pairs from its own weights, both "
                         "sides cut with its own tokenisers; every training view follows it, and "
                         "each validation scores its translations (BLEU). A model this size takes "
                         "seconds a step on a few cores: the status bar says how many. Fewer "
                         "tokens a batch make each step shorter.")
                    : tr("%1 (%2 parameters) trains on a text from its own weights, the text cut "
                         "with its own tokeniser; every training view follows it. A model this "
                         "size takes seconds a step on a few cores: the status bar says how many. "
                         "Fewer windows a batch make each step shorter."))
            .arg(model, QLocale().toString(qlonglong(parameters))),
        this);
    text->setWordWrap(true);
    layout->addWidget(text);
    auto* form = new QFormLayout;
    task_ = new QComboBox(this);
    if (translator) {
        task_->addItem(tr("Chinese → English pairs of the bundled corpus (zh-en)"), QStringLiteral("zh-en"));
        task_->addItem(tr("A corpus file of sentence pairs…"), QString());
    } else {
        task_->addItem(tr("English sentences of the bundled corpus (lm-en)"), QStringLiteral("lm-en"));
        task_->addItem(tr("Chinese sentences of the bundled corpus (lm-zh)"), QStringLiteral("lm-zh"));
        task_->addItem(tr("A text file, a sentence or paragraph a line…"), QString());
    }
    // The last item asks for the file; a file chosen takes its place before it.
    // A translator's file holds sentence pairs (its item's data "pairs:FILE"), a language
    // model's a text (a task of its own, "text:FILE").
    connect(task_, &QComboBox::activated, this, [this, translator](int index) {
        if (!task_->itemData(index).toString().isEmpty())
            return;
        const QString path =
            translator ? QFileDialog::getOpenFileName(this, tr("Sentence pairs to fine-tune on"), QString(),
                                                      tr("Corpora: source<TAB>target a line, or a manythings.org "
                                                         "file (*.tsv *.txt);;All files (*)"))
                       : QFileDialog::getOpenFileName(this, tr("Text to fine-tune on"), QString(),
                                                      tr("Text files (*.txt);;All files (*)"));
        if (path.isEmpty()) {
            task_->setCurrentIndex(0);
            return;
        }
        const QString task = (translator ? QStringLiteral("pairs:") : QStringLiteral("text:"))
                             + QFileInfo(path).absoluteFilePath();
        int at = task_->findData(task);
        if (at < 0) {
            at = task_->count() - 1;
            task_->insertItem(at, QFileInfo(path).fileName(), task);
        }
        task_->setCurrentIndex(at);
    });
    form->addRow(translator ? tr("&Pairs:") : tr("&Text:"), task_);
    windows_ = new QSpinBox(this);
    if (translator) {
        windows_->setRange(50, 10000);
        windows_->setSingleStep(100);
        windows_->setValue(FineTuneChoice{}.batchTokens);
    } else {
        windows_->setRange(1, 64);
        windows_->setValue(FineTuneChoice{}.windows);
    }
    tokens_ = new QLabel(this);
    auto* row = new QHBoxLayout;
    row->addWidget(windows_);
    row->addWidget(tokens_, 1);
    auto* windowsLabel = new QLabel(translator ? tr("Target &tokens a batch:") : tr("&Windows a batch:"), this);
    windowsLabel->setBuddy(windows_);
    form->addRow(windowsLabel, row);
    steps_ = new QSpinBox(this);
    steps_->setRange(1, 1000000);
    steps_->setValue(int(FineTuneChoice{}.steps));
    form->addRow(tr("&Steps:"), steps_);
    rate_ = new QDoubleSpinBox(this);
    rate_->setDecimals(6);
    rate_->setRange(1e-6, 1e-2);
    rate_->setSingleStep(1e-5);
    rate_->setValue(FineTuneChoice{}.peakRate);
    rate_->setToolTip(tr("The learning rate at the end of the warm-up (100 steps), then "
                         "falling as 1/√step (the Noam schedule)"));
    form->addRow(tr("Peak learning &rate:"), rate_);
    layout->addLayout(form);
    auto showTokens = [this, context, translator] {
        if (translator)
            tokens_->setText(tr("sentence pairs up to this many target tokens a step"));
        else
            tokens_->setText(tr("of %1 tokens: %2 tokens a step").arg(context).arg(windows_->value() * context));
    };
    connect(windows_, &QSpinBox::valueChanged, this, showTokens);
    showTokens();
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Fine-tune"));
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

FineTuneChoice FineTuneDialog::choice() const
{
    FineTuneChoice c;
    c.task = task_->currentData().toString();
    if (c.task.startsWith(QLatin1String("pairs:"))) {
        c.corpusFile = c.task.mid(6);
        c.task = QStringLiteral("zh-en");  // the recipe's: fine-tuning a translator
    }
    (translator_ ? c.batchTokens : c.windows) = windows_->value();
    c.steps = steps_->value();
    c.peakRate = rate_->value();
    return c;
}

}  // namespace as
