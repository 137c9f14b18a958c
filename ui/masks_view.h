// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "Masks and smoothing", drawn as The Annotated Transformer draws them, from the current batch:
// the source padding mask [B, S], the decoder self-attention mask of one sentence [T, T]
// (key not <pad> AND key <= query), and that sentence's label-smoothed target distribution q.
#include "plot_tools.h"

#include <QList>
#include <QWidget>

#include <memory>

class QCPTextElement;
class QLabel;
class QSpinBox;
class QCustomPlot;

namespace as {
struct BatchRecord;
struct TrainingSnapshot;
}  // namespace as

namespace as::ui {

class MasksView : public QWidget {
    Q_OBJECT
public:
    explicit MasksView(QWidget* parent = nullptr);

    // Redraws only when the snapshot carries a batch other than the one drawn.
    void applySnapshot(const as::TrainingSnapshot& snapshot);
    void setBatch(std::shared_ptr<const as::BatchRecord> batch);
    void reset();

    // Read back from the plotted data; NaN outside what is drawn.
    double paddingMaskCell(int b, int s) const;     // 1 = real token, 0 = <pad>
    double causalMaskCell(int q, int k) const;      // 1 = query q may attend to key k
    double smoothingCell(int row, int id) const;    // q of the row-th non-pad target, id < shown
    int smoothingRows() const { return smooth_.rows; }
    int smoothingColumns() const { return smooth_.cols; }
    int sentence() const;
    void setSentence(int sentence);
    QList<QCustomPlot*> plots() const { return {padPlot_, causalPlot_, smoothPlot_}; }

protected:
    // QEvent::LanguageChange: retranslate().
    void changeEvent(QEvent* event) override;

private:
    // Its titles, axis labels, legend names, controls and tooltips in the language installed,
    // set in one place: from the constructor and at every language change.
    void retranslate();
    void describeBatch();  // the line above the plots
    QLabel* sentenceLabel_ = nullptr;
    QCPTextElement *padTitle_ = nullptr, *causalTitle_ = nullptr;
    void drawPadding();
    void drawSentence();
    QString padCsv() const;
    QString causalCsv() const;
    QString smoothCsv() const;

    std::shared_ptr<const as::BatchRecord> batch_;
    QSpinBox* sentenceBox_ = nullptr;
    QLabel* info_ = nullptr;
    QCustomPlot* padPlot_ = nullptr;
    QCustomPlot* causalPlot_ = nullptr;
    QCustomPlot* smoothPlot_ = nullptr;
    QCPTextElement* smoothTitle_ = nullptr;
    Heatmap pad_, causal_, smooth_;
    QList<int> smoothPositions_;  // target position of each smoothing row
    QWidget* padPanel_ = nullptr;  // the source padding mask's panel
};

}  // namespace as::ui
