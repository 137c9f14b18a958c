// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One translation's cross-attention as the Translate view's "Side by side" tab shows it, twice:
// a title (which model), the translation, a layer and a head (or the mean of the heads) and the
// map of the output steps over the source's tokens, with a hover read-out and CSV export. It
// only draws records it is given (decode/translation_record.h); it holds no model.
#include "decode/translation_record.h"
#include "plot_tools.h"

#include <QWidget>

class QComboBox;
class QLabel;

namespace as::ui {

class CrossAttentionPanel : public QWidget {
    Q_OBJECT
public:
    explicit CrossAttentionPanel(QWidget* parent = nullptr);

    // Who translated (e.g. "This model, step 4,200" or "opus-mt-zh-en"), shown above the map.
    void setTitle(const QString& title);
    QString title() const;
    // The record drawn (null: none, the map empty), or a message in its place (a translation
    // under way, a refusal; `warning` shows it as an error).
    void setRecord(TranslationRecordPtr record);
    void setMessage(const QString& text, bool warning);
    TranslationRecordPtr record() const { return record_; }
    QString translation() const;  // the best translation shown ("" without a record)
    QString message() const;

    // The layer (0-based) and head (-1: the mean of the heads) drawn; the last layer's mean
    // when a record of another shape comes.
    void setChoice(int layer, int head);
    int layer() const;
    int head() const;
    QSize mapShape() const;                     // width = source tokens, height = output steps
    double mapCell(int row, int col) const;     // the value drawn, NaN outside
    QCustomPlot* plot() const { return plot_; }

    // The hover read-out of cell (row, col) of a record's cross-attention map, `weight` its
    // value: what the Translate view's map and this panel say alike.
    static QString readout(const TranslationRecord& r, int row, int col, double weight);

protected:
    void changeEvent(QEvent* event) override;  // QEvent::LanguageChange: retranslate()

private:
    void retranslate();
    void draw();

    TranslationRecordPtr record_;
    QLabel* title_ = nullptr;
    QLabel* output_ = nullptr;  // the translation, or a message
    QLabel* alert_ = nullptr;   // a message that is a warning, in the palette's alert colour
    QComboBox* layer_ = nullptr;
    QComboBox* head_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    Heatmap heat_;
};

}  // namespace as::ui
