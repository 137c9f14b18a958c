// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "probe_bar.h"

#include "text/tokenizer.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace as {

ProbeBar::ProbeBar(QWidget* parent) : QWidget(parent)
{
    probe_ = new QComboBox(this);
    probe_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    src_ = new QLineEdit(this);
    tgt_ = new QLineEdit(this);
    use_ = new QPushButton(this);
    label_ = new QLabel(this);
    auto* bar = new QHBoxLayout(this);
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(label_);
    bar->addWidget(probe_);
    bar->addWidget(src_, 1);
    bar->addWidget(tgt_, 1);
    bar->addWidget(use_);
    retranslate();
    connect(probe_, &QComboBox::activated, this, [this](int i) {
        if (i < 0 || i >= int(task_.examples.size()))
            return;
        const TokenPair& ex = task_.examples[std::size_t(i)];
        emit probeChosen(ex.src, ex.tgt);
    });
    connect(use_, &QPushButton::clicked, this, &ProbeBar::useTyped);
    connect(src_, &QLineEdit::returnPressed, this, &ProbeBar::useTyped);
    connect(tgt_, &QLineEdit::returnPressed, this, &ProbeBar::useTyped);
}

void ProbeBar::retranslate()
{
    // A language model's task (a decoder-only model, core/SPEC.md §2.10) has one text, no pairs.
    const bool text = task_.languageModel;
    probe_->setToolTip(text ? tr("The text whose attention is shown")
                            : tr("The sentence pair whose attention is shown"));
    src_->setPlaceholderText(text ? tr("or type a text…") : tr("or type a source sentence…"));
    tgt_->setPlaceholderText(tr("…and its target (optional)"));
    use_->setText(tr("Use"));
    label_->setText(tr("Probe:"));
}

void ProbeBar::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void ProbeBar::setTask(const Task& task)
{
    task_ = task;
    probe_->clear();
    for (const TokenPair& ex : task_.examples)
        probe_->addItem(task_.languageModel ? ex.tgt.join(' ')
                                            : ex.src.join(' ') + QStringLiteral("  →  ") + ex.tgt.join(' '));
    tgt_->setVisible(!task_.languageModel);
    retranslate();
}

void ProbeBar::useTyped()
{
    if (task_.languageModel) {  // the text is the target side; there is no source
        const QStringList text = tokenize(task_.tgtTokenizer, src_->text());
        if (text.isEmpty()) {
            emit message(tr("Type a text for the probe first."), 5000);
            return;
        }
        emit probeChosen({}, text);
        return;
    }
    const QStringList src = tokenize(task_.srcTokenizer, src_->text());
    if (src.isEmpty()) {
        emit message(tr("Type a source sentence for the probe first."), 5000);
        return;
    }
    emit probeChosen(src, tokenize(task_.tgtTokenizer, tgt_->text()));
}

void ProbeBar::setText(const QString& source, const QString& target)
{
    src_->setText(source);
    tgt_->setText(target);
    useTyped();
}

}  // namespace as
