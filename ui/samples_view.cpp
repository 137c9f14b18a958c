// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "samples_view.h"

#include "plot_tools.h"

#include "train/snapshot.h"

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QSet>
#include <QTableWidget>
#include <QVBoxLayout>

namespace as::ui {

namespace {
enum Column { kSource, kReference, kTranslation, kPrevious, kNewWords, kColumns };
}

SamplesView::SamplesView(QWidget* parent) : QWidget(parent)
{
    setObjectName("samplesView");
    header_ = new QLabel(this);
    header_->setWordWrap(true);
    table_ = new QTableWidget(0, kColumns, this);
    table_->setObjectName("samplesTable");
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // Two lines a row; a longer text is elided, and whole in its tooltip.
    table_->setWordWrap(true);
    table_->setTextElideMode(Qt::ElideRight);
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table_->verticalHeader()->setDefaultSectionSize(2 * table_->fontMetrics().lineSpacing() + 8);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    table_->horizontalHeader()->setSectionResizeMode(kNewWords, QHeaderView::ResizeToContents);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(header_);
    layout->addWidget(table_, 1);
    retranslate();
}

void SamplesView::retranslate()
{
    // A language model's record (SamplesRecord::generated): prompts and continuations.
    const bool generated = current_ && current_->generated;
    table_->setHorizontalHeaderLabels(
        generated ? QStringList{tr("prompt"), tr("reference"), tr("continuation"), tr("previous continuation"),
                                tr("new words")}
                  : QStringList{tr("source"), tr("reference"), tr("translation"), tr("previous translation"),
                                tr("new words")});
    table_->setColumnHidden(kReference, generated);
    redraw();  // the line above the table
}

void SamplesView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}



void SamplesView::applySnapshot(const TrainingSnapshot& snapshot)
{
    if (snapshot.samples && snapshot.samples != current_)
        setSamples(snapshot.samples);
}

void SamplesView::setSamples(std::shared_ptr<const SamplesRecord> samples)
{
    if (!samples || samples == current_)
        return;
    // A later step moves the shown record to "previous"; the same step (e.g. the summary of a
    // finished run) replaces it and keeps the previous; an earlier step belongs to a new run,
    // with nothing to compare it with.
    if (current_ && current_->step < samples->step)
        previous_ = current_;
    else if (!current_ || current_->step > samples->step)
        previous_ = nullptr;
    const bool kind = current_ && current_->generated;
    current_ = std::move(samples);
    if (current_->generated != kind)
        retranslate();  // the columns' names, and redraw
    else
        redraw();
}

void SamplesView::reset()
{
    current_.reset();
    previous_.reset();
    redraw();
}

int SamplesView::rows() const
{
    return current_ ? int(current_->samples.size()) : 0;
}

long SamplesView::shownStep() const
{
    return current_ ? current_->step : -1;
}

long SamplesView::previousStep() const
{
    return previous_ ? previous_->step : -1;
}

QString SamplesView::translation(int row) const
{
    return row >= 0 && row < rows() ? current_->samples[std::size_t(row)].hypothesis : QString();
}

QString SamplesView::previousTranslation(int row) const
{
    // The previous record's row for the same source (the examples are fixed, but a record of
    // another session could hold other ones).
    if (!previous_ || row < 0 || row >= rows() || row >= int(previous_->samples.size()))
        return {};
    const TranslationSample& p = previous_->samples[std::size_t(row)];
    return p.source == current_->samples[std::size_t(row)].source ? p.hypothesis : QString();
}

bool SamplesView::changed(int row) const
{
    return previous_ && row >= 0 && row < rows() && translation(row) != previousTranslation(row);
}

QStringList SamplesView::newWords(int row) const
{
    if (!changed(row))
        return {};
    const QStringList before = previousTranslation(row).split(' ', Qt::SkipEmptyParts);
    const QSet<QString> had(before.begin(), before.end());
    QStringList added;
    for (const QString& w : translation(row).split(' ', Qt::SkipEmptyParts))
        if (!had.contains(w) && !added.contains(w))
            added << w;
    return added;
}

void SamplesView::redraw()
{
    if (!current_) {
        header_->setText(tr("The session's example sentences are translated at each validation "
                            "and shown here."));
        table_->setRowCount(0);
        return;
    }
    const int changes = [&] {
        int n = 0;
        for (int r = 0; r < rows(); ++r)
            n += changed(r);
        return n;
    }();
    // Whole sentences for the translators (a language model's continuations, a translator's
    // translations), filled in one place.
    const bool generated = current_->generated;
    const QString header =
        previous_ ? (generated ? tr("Greedy continuations at step %1, next to those at step %2: %3 of "
                                    "%4 changed (highlighted).")
                               : tr("Greedy translations at step %1, next to those at step %2: %3 of "
                                    "%4 changed (highlighted)."))
                        .arg(current_->step)
                        .arg(previous_->step)
                        .arg(changes)
                        .arg(rows())
                  : (generated ? tr("Greedy continuations at step %1.") : tr("Greedy translations at step %1."))
                        .arg(current_->step);
    header_->setText(header);
    table_->setRowCount(rows());
    // Pale yellow under dark text, deep amber under light text (both above 4.5:1).
    const bool dark = isDarkPalette(palette());
    const QColor highlight = dark ? QColor(96, 74, 0) : QColor(255, 243, 176);
    for (int r = 0; r < rows(); ++r) {
        const TranslationSample& s = current_->samples[std::size_t(r)];
        const QString texts[kColumns] = {s.source, s.reference, s.hypothesis, previousTranslation(r),
                                         newWords(r).join(' ')};
        for (int c = 0; c < kColumns; ++c) {
            auto* item = new QTableWidgetItem(texts[c]);
            item->setToolTip(texts[c]);
            if (c == kTranslation && changed(r)) {
                item->setBackground(highlight);
                item->setForeground(palette().color(QPalette::Text));
                QFont f = item->font();
                f.setBold(true);
                item->setFont(f);
            }
            table_->setItem(r, c, item);
        }
    }
}

}  // namespace as::ui
