// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "Tokens" (issue 27 §1): how each tokeniser choice cuts one side of the corpus's training
// split — the probe sentence and any typed text side by side (pieces as chips, ▁ shown), the
// vocabulary with counts, the <unk> rate, the histogram of tokens per sentence for every
// choice, and for BPE the merges in order — and a button that starts the A/B of the
// session against BPE on that side. It shows a TokensRecord (text/tokens_record.h) built off
// the GUI thread by the window (app/window/tokens_controller.h); it trains nothing itself.
#include "text/tokens_record.h"

#include <QWidget>

#include <memory>
#include <optional>

class QCPBars;
class QComboBox;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QListWidget;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace as::ui {

class TokensView : public QWidget {
    Q_OBJECT
public:
    explicit TokensView(QWidget* parent = nullptr);

    // The record shown (its side becomes the side chosen); null clears the view.
    void setRecord(std::shared_ptr<const as::TokensRecord> record);
    const as::TokensRecord* record() const { return record_.get(); }
    // Why there is nothing to show (a session without a corpus): the record goes.
    void setUnavailable(const QString& why);
    // A record being built: progress (done of total), Cancel offered; total 0 ends it.
    void setProgress(int done, int total);
    bool busy() const;
    // Whether the A/B button is offered, and why not (its tooltip) when it is not.
    void setComparisonAllowed(bool allowed, const QString& why = {});

    as::CorpusSide side() const;
    // A language model's text is one side of a corpus (lm-en the target's, lm-zh the
    // source's): that side, and no choice of another; nullopt gives the choice back.
    void setOneSide(std::optional<as::CorpusSide> side);
    QString typedText() const;

    // Read-outs.
    QTableWidget* choicesTable() const { return choices_; }
    QTableWidget* vocabTable() const { return vocab_; }
    QListWidget* mergesList() const { return merges_; }
    QLabel* mergesLabel() const { return mergesLabel_; }
    QCustomPlot* histogram() const { return plot_; }
    QPushButton* compareButton() const { return compare_; }
    QComboBox* detailChooser() const { return detail_; }
    QComboBox* sideChooser() const { return side_; }
    QLineEdit* typedEdit() const { return typed_; }
    // The histogram's bars of choice i, and the width of their bins (in tokens).
    QCPBars* bars(int choice) const;
    int binWidth() const { return binWidth_; }
    // Shown only in the vocabulary table: the most frequent entries.
    static constexpr int kMaxVocabRows = 2000;

signals:
    // A record of this side is wanted (the side was changed, or Compute pressed).
    void recordWanted(as::CorpusSide side);
    void cancelRequested();
    // Other typed text to cut with the record's tokenisers.
    void typedChanged(QString text);
    // "Compare with BPE (A/B)".
    void comparisonRequested(as::CorpusSide side);

protected:
    void changeEvent(QEvent* event) override;  // QEvent::LanguageChange, palette: redraw

private:
    void retranslate();
    void redraw();
    void showDetail();  // the vocabulary and merges of the choice chosen
    QString chips(const QStringList& pieces) const;
    void chipsCell(int row, int column, const QStringList& pieces);
    QString histogramCsv() const;

    std::shared_ptr<const as::TokensRecord> record_;
    QString unavailable_;
    QLabel* sideLabel_ = nullptr;
    QComboBox* side_ = nullptr;
    QLabel* typedLabel_ = nullptr;
    QLineEdit* typed_ = nullptr;
    QPushButton* compute_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QPushButton* compare_ = nullptr;
    QString compareWhyNot_;
    std::optional<as::CorpusSide> oneSide_;
    QLabel* status_ = nullptr;
    QTableWidget* choices_ = nullptr;
    QLabel* detailLabel_ = nullptr;
    QComboBox* detail_ = nullptr;
    QTableWidget* vocab_ = nullptr;
    QLabel* mergesLabel_ = nullptr;
    QListWidget* merges_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    QList<QCPBars*> bars_;
    int binWidth_ = 1;
};

}  // namespace as::ui
