// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "tokens_view.h"

#include "compared_runs.h"
#include "plot_tools.h"

#include <QComboBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>

namespace as::ui {
namespace {

// At most this many bins in the histogram (their width grows with the longest sentence).
constexpr int kMaxBins = 30;

QTableWidgetItem* readOnly(const QString& text, Qt::Alignment align = Qt::AlignLeft | Qt::AlignVCenter)
{
    auto* item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    item->setTextAlignment(align);
    return item;
}

}  // namespace

TokensView::TokensView(QWidget* parent) : QWidget(parent)
{
    sideLabel_ = new QLabel(this);
    side_ = new QComboBox(this);
    side_->addItem(QString(), int(CorpusSide::Source));
    side_->addItem(QString(), int(CorpusSide::Target));
    side_->setCurrentIndex(1);
    typedLabel_ = new QLabel(this);
    typed_ = new QLineEdit(this);
    typed_->setClearButtonEnabled(true);
    compute_ = new QPushButton(this);
    progress_ = new QProgressBar(this);
    progress_->setMaximumWidth(160);
    progress_->hide();
    cancel_ = new QPushButton(this);
    cancel_->hide();
    compare_ = new QPushButton(this);
    auto* bar = new QHBoxLayout;
    bar->addWidget(sideLabel_);
    bar->addWidget(side_);
    bar->addWidget(typedLabel_);
    bar->addWidget(typed_, 1);
    bar->addWidget(compute_);
    bar->addWidget(progress_);
    bar->addWidget(cancel_);
    bar->addWidget(compare_);

    status_ = new QLabel(this);
    status_->setWordWrap(true);
    status_->setTextFormat(Qt::PlainText);

    // One row per choice: its numbers, then the probe and the typed text as it cuts them.
    choices_ = new QTableWidget(0, 6, this);
    choices_->verticalHeader()->hide();
    choices_->setSelectionMode(QAbstractItemView::NoSelection);
    choices_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    choices_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    choices_->horizontalHeader()->setSectionResizeMode(4, QHeaderView::Stretch);
    choices_->horizontalHeader()->setSectionResizeMode(5, QHeaderView::Stretch);
    choices_->setMinimumHeight(120);

    detailLabel_ = new QLabel(this);
    detail_ = new QComboBox(this);
    vocab_ = new QTableWidget(0, 3, this);
    vocab_->verticalHeader()->hide();
    vocab_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    vocab_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    vocab_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    vocab_->setMinimumSize(220, 120);
    mergesLabel_ = new QLabel(this);
    merges_ = new QListWidget(this);
    merges_->setMinimumSize(160, 120);

    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("tokens-per-sentence"));
    plot_->setMinimumSize(260, 160);
    plot_->legend->setVisible(true);
    plot_->legend->setFont(pointFont(8));
    plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    setIntegerTicks(plot_->yAxis);

    auto* vocabBox = new QWidget(this);
    auto* vocabLayout = new QVBoxLayout(vocabBox);
    vocabLayout->setContentsMargins(0, 0, 0, 0);
    auto* chooser = new QHBoxLayout;
    chooser->addWidget(detailLabel_);
    chooser->addWidget(detail_, 1);
    vocabLayout->addLayout(chooser);
    vocabLayout->addWidget(vocab_, 1);
    auto* mergesBox = new QWidget(this);
    auto* mergesLayout = new QVBoxLayout(mergesBox);
    mergesLayout->setContentsMargins(0, 0, 0, 0);
    mergesLayout->addWidget(mergesLabel_);
    mergesLayout->addWidget(merges_, 1);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(vocabBox);
    split->addWidget(panel(plot_, [this] { return histogramCsv(); }, this));
    split->addWidget(mergesBox);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setStretchFactor(2, 2);
    split->setChildrenCollapsible(false);

    auto* vertical = new QSplitter(Qt::Vertical, this);
    vertical->addWidget(choices_);
    vertical->addWidget(split);
    vertical->setStretchFactor(0, 1);
    vertical->setStretchFactor(1, 1);
    vertical->setChildrenCollapsible(false);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(status_);
    layout->addWidget(vertical, 1);

    connect(side_, &QComboBox::activated, this, [this] { emit recordWanted(side()); });
    connect(compute_, &QPushButton::clicked, this, [this] { emit recordWanted(side()); });
    connect(cancel_, &QPushButton::clicked, this, &TokensView::cancelRequested);
    connect(typed_, &QLineEdit::textChanged, this, &TokensView::typedChanged);
    connect(compare_, &QPushButton::clicked, this, [this] { emit comparisonRequested(side()); });
    connect(detail_, &QComboBox::currentIndexChanged, this, &TokensView::showDetail);
    followPalette(plot_);
    retranslate();
    redraw();
}

void TokensView::retranslate()
{
    sideLabel_->setText(tr("Side:"));
    side_->setItemText(0, tr("source"));
    side_->setItemText(1, tr("target"));
    side_->setToolTip(oneSide_ ? tr("A language model's text is this side of the corpus's training split")
                               : tr("Which side of the training split the tokenisers are trained on and cut"));
    typedLabel_->setText(tr("Typed:"));
    typed_->setPlaceholderText(tr("type text to see every tokeniser cut it…"));
    compute_->setText(tr("Compute"));
    compute_->setToolTip(tr("Train every tokeniser on this side of the training split again and "
                            "count its tokens"));
    cancel_->setText(tr("Cancel"));
    compare_->setText(tr("Compare with BPE (A/B)"));
    compare_->setToolTip(compareWhyNot_.isEmpty()
                             ? tr("Start an A/B session: B is this session with bpe:8000 on the "
                                  "side chosen, trained beside it on the same pairs")
                             : compareWhyNot_);
    choices_->setHorizontalHeaderLabels({tr("Tokeniser"), tr("Vocabulary"), tr("Tokens / sentence"),
                                         tr("<unk>"), tr("Probe"), tr("Typed")});
    vocab_->setHorizontalHeaderLabels({tr("Piece"), tr("Count"), tr("Share")});
    detailLabel_->setText(tr("Vocabulary of:"));
    mergesLabel_->setText(tr("BPE merges, in order:"));
    redraw();
}

void TokensView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    else if (event->type() == QEvent::PaletteChange)
        redraw();  // the chips' colours
    QWidget::changeEvent(event);
}

void TokensView::setRecord(std::shared_ptr<const TokensRecord> record)
{
    record_ = std::move(record);
    unavailable_.clear();
    if (record_)
        side_->setCurrentIndex(side_->findData(int(record_->side)));
    redraw();
}

void TokensView::setUnavailable(const QString& why)
{
    record_.reset();
    unavailable_ = why;
    redraw();
}

void TokensView::setProgress(int done, int total)
{
    const bool on = total > 0;
    progress_->setVisible(on);
    cancel_->setVisible(on);
    compute_->setEnabled(!on);
    side_->setEnabled(!on && !oneSide_);
    if (on) {
        progress_->setRange(0, total);
        progress_->setValue(done);
    }
}

bool TokensView::busy() const
{
    return !progress_->isHidden();
}

void TokensView::setComparisonAllowed(bool allowed, const QString& why)
{
    compare_->setEnabled(allowed);
    compareWhyNot_ = allowed ? QString() : why;
    retranslate();
}

CorpusSide TokensView::side() const
{
    return oneSide_ ? *oneSide_ : CorpusSide(side_->currentData().toInt());
}

void TokensView::setOneSide(std::optional<CorpusSide> side)
{
    oneSide_ = side;
    if (side)
        side_->setCurrentIndex(side_->findData(int(*side)));
    side_->setEnabled(!side && !busy());
    retranslate();
}

QString TokensView::typedText() const
{
    return typed_->text();
}

QCPBars* TokensView::bars(int choice) const
{
    return choice >= 0 && choice < bars_.size() ? bars_[choice] : nullptr;
}

void TokensView::chipsCell(int row, int column, const QStringList& pieces)
{
    // The label of a cell is kept from one record to the next: a new one would stand at the
    // table's corner until the view lays its cells out again.
    auto* label = qobject_cast<QLabel*>(choices_->cellWidget(row, column));
    if (!label) {
        label = new QLabel;
        label->setTextFormat(Qt::RichText);
        label->setWordWrap(true);
        label->setContentsMargins(2, 1, 2, 1);
        choices_->setCellWidget(row, column, label);
    }
    label->setText(chips(pieces));
    label->setToolTip(pieces.join(u' '));
}

QString TokensView::chips(const QStringList& pieces) const
{
    // Alternate two shades, so that where one piece ends and the next begins shows.
    const QPalette& p = palette();
    const QColor shades[2] = {blend(p.color(QPalette::Base), p.color(QPalette::Highlight), 0.22),
                              blend(p.color(QPalette::Base), p.color(QPalette::Highlight), 0.42)};
    QString html;
    for (int i = 0; i < pieces.size(); ++i)
        html += QStringLiteral("<span style=\"background-color:%1; color:%2\">&nbsp;%3&nbsp;</span> ")
                    .arg(shades[i % 2].name(), p.color(QPalette::Text).name(), pieces[i].toHtmlEscaped());
    return html;
}

void TokensView::redraw()
{
    const QLocale locale;
    const TokensRecord* r = record_.get();
    if (!r) {
        status_->setText(unavailable_.isEmpty() ? tr("Show this view to cut the corpus with every tokeniser.")
                                                : unavailable_);
    } else {
        const qint64 sentences = r->choices.empty() ? 0 : r->choices.front().sentences;
        const QString side = r->side == CorpusSide::Source ? tr("source") : tr("target");
        // A language model's text (lm-en, lm-zh) is one side of the bundled zh-en corpus.
        status_->setText(oneSide_ ? tr("%1: the %2 side of zh-en's training split, %3 sentences. The prompt: %4")
                                        .arg(r->corpus, side, locale.toString(sentences), r->probeText)
                                  : tr("%1, %2 side of the training split: %3 sentences. The probe: %4")
                                        .arg(r->corpus, side, locale.toString(sentences), r->probeText));
    }
    const int n = r ? int(r->choices.size()) : 0;
    choices_->setRowCount(n);
    for (int i = 0; i < n; ++i) {
        const TokenizerTokens& t = r->choices[std::size_t(i)];
        const Qt::Alignment right = Qt::AlignRight | Qt::AlignVCenter;
        choices_->setItem(i, 0, readOnly(t.name));
        if (!t.error.isEmpty()) {
            choices_->setItem(i, 1, readOnly(QString()));
            choices_->setItem(i, 2, readOnly(QString()));
            choices_->setItem(i, 3, readOnly(QString()));
            chipsCell(i, 4, {});
            chipsCell(i, 5, {});
            qobject_cast<QLabel*>(choices_->cellWidget(i, 4))->setText(tr("not trained: %1").arg(t.error.toHtmlEscaped()));
            continue;
        }
        choices_->setItem(i, 1, readOnly(locale.toString(t.vocabSize()), right));
        choices_->setItem(i, 2, readOnly(locale.toString(t.tokensPerSentence(), 'f', 2), right));
        choices_->setItem(i, 3, readOnly(locale.toString(100.0 * t.unknownRate(), 'f', 2) + u'%', right));
        for (auto [column, pieces] : {std::pair{4, &t.probe}, std::pair{5, &t.typed}})
            chipsCell(i, column, *pieces);
    }
    choices_->resizeRowsToContents();

    // The histogram: every choice's sentences per bin of tokens, side by side.
    plot_->clearPlottables();
    bars_.clear();
    std::size_t longest = 1;
    for (int i = 0; i < n; ++i)
        longest = std::max(longest, r->choices[std::size_t(i)].lengths.size());
    binWidth_ = std::max(1, int((longest + kMaxBins - 1) / kMaxBins));
    auto* group = new QCPBarsGroup(plot_);
    const double width = 0.8 * binWidth_ / std::max(1, n);
    double top = 1;
    for (int i = 0; i < n; ++i) {
        const TokenizerTokens& t = r->choices[std::size_t(i)];
        auto* b = new QCPBars(plot_->xAxis, plot_->yAxis);
        b->setName(t.name);
        const QColor colour = comparedRunColour(i);
        b->setPen(QPen(colour));
        b->setBrush(colour);
        b->setWidth(width);
        b->setBarsGroup(group);
        QList<double> keys, values;
        for (std::size_t at = 0; at < t.lengths.size(); at += std::size_t(binWidth_)) {
            qint64 sum = 0;
            for (std::size_t k = at; k < std::min(t.lengths.size(), at + std::size_t(binWidth_)); ++k)
                sum += t.lengths[k];
            keys << double(at) + 0.5 * (binWidth_ - 1);
            values << double(sum);
            top = std::max(top, double(sum));
        }
        b->setData(keys, values, true);
        bars_ << b;
    }
    plot_->xAxis->setLabel(binWidth_ > 1 ? tr("tokens per sentence (bins of %1)").arg(binWidth_)
                                         : tr("tokens per sentence"));
    plot_->yAxis->setLabel(tr("sentences"));
    plot_->xAxis->setRange(-0.5 * binWidth_, double(longest) + 0.5 * binWidth_);
    plot_->yAxis->setRange(0, top * 1.08);
    plot_->legend->setVisible(n > 0);
    applyPalette(plot_);
    replotIfVisible(plot_);

    // The choice whose vocabulary and merges are listed: kept by name across records.
    const QString was = detail_->currentText();
    {
        const QSignalBlocker block(detail_);
        detail_->clear();
        for (int i = 0; i < n; ++i)
            detail_->addItem(r->choices[std::size_t(i)].name);
        // At first the first BPE choice (its merges are listed), else the first.
        int keep = detail_->findText(was);
        for (int i = 0; keep < 0 && i < n; ++i)
            if (r->choices[std::size_t(i)].tokenizer.kind() == TokenizerKind::Bpe)
                keep = i;
        detail_->setCurrentIndex(std::max(keep, 0));
    }
    showDetail();
}

void TokensView::showDetail()
{
    const int i = detail_->currentIndex();
    const TokenizerTokens* t = record_ && i >= 0 && i < int(record_->choices.size())
                                   ? &record_->choices[std::size_t(i)]
                                   : nullptr;
    const QLocale locale;
    const int rows = t ? int(std::min<qsizetype>(t->vocab.size(), kMaxVocabRows)) : 0;
    // The count and share columns fit their contents, measured once the table is filled: while
    // they are ResizeToContents a shown table measures its rows again after every cell set (a
    // 2,000-row vocabulary took minutes under ASan, seconds in the plain build).
    QHeaderView* header = vocab_->horizontalHeader();
    for (int column : {1, 2})
        header->setSectionResizeMode(column, QHeaderView::Fixed);
    vocab_->setRowCount(rows);
    const Qt::Alignment right = Qt::AlignRight | Qt::AlignVCenter;
    for (int row = 0; row < rows; ++row) {
        const auto& [piece, count] = t->vocab[row];
        vocab_->setItem(row, 0, readOnly(piece));
        vocab_->setItem(row, 1, readOnly(locale.toString(count), right));
        vocab_->setItem(row, 2, readOnly(locale.toString(t->tokens ? 100.0 * double(count) / double(t->tokens) : 0.0, 'f', 2) + u'%', right));
    }
    for (int column : {1, 2})
        header->setSectionResizeMode(column, QHeaderView::ResizeToContents);
    merges_->clear();
    if (t) {
        for (int k = 0; k < t->merges.size(); ++k) {
            const TokenMerge& m = t->merges[k];
            merges_->addItem(tr("%1. %2 + %3 → %4").arg(k + 1).arg(m.left, m.right, m.piece));
        }
    }
    mergesLabel_->setText(!t ? tr("BPE merges, in order:")
                          : t->tokenizer.kind() == TokenizerKind::Bpe
                              ? tr("BPE merges, in order (%1):").arg(locale.toString(t->merges.size()))
                              : tr("BPE merges, in order: none for %1").arg(t->name));
}

QString TokensView::histogramCsv() const
{
    QString csv = QStringLiteral("tokenizer,tokens,sentences\n");
    if (record_)
        for (const TokenizerTokens& t : record_->choices)
            for (std::size_t n = 0; n < t.lengths.size(); ++n)
                csv += QStringLiteral("%1,%2,%3\n").arg(t.name).arg(n).arg(t.lengths[n]);
    return csv;
}

}  // namespace as::ui
