// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "Embeddings": a table of token vectors (source embedding, target embedding, or the
// generator's output rows — not tied to the target embedding) projected on its first two
// principal components, redrawn as training goes with the components' signs kept, so that the
// cloud does not flip. The most frequent tokens are labelled; the axes give each component's
// share of the variance. Clicking a token lists its 10 nearest neighbours by cosine similarity.
// The view only shows records and asks; the training worker computes them
// (eval/embedding_space.h).
#include "eval/embedding_space.h"
#include "plot_tools.h"

#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;
class QTreeWidget;

namespace as::ui {

class EmbeddingView : public QWidget {
    Q_OBJECT
public:
    // The most frequent ids given a label; of those, the ones that would overlap are hidden.
    static constexpr int kLabels = 40;

    explicit EmbeddingView(QWidget* parent = nullptr);

    EmbeddingTable table() const;
    void setTable(EmbeddingTable table);  // as the chooser does: asks for that table
    // Whether the model has a source embedding: a decoder-only model (core/SPEC.md §2.10) has
    // none, and the chooser offers the target embedding and the generator only.
    void setHasSource(bool has);
    // A record of another table than the one chosen is ignored (an answer overtaken by a
    // change of table).
    void setRecord(EmbeddingRecordPtr record);
    void setNeighbours(NeighboursRecordPtr record);
    void reset();   // another model: nothing drawn, no token selected
    void refresh(); // asks for the chosen table (new weights)
    void selectToken(int id);  // as a click on it: asks for its neighbours

    // Read-outs.
    EmbeddingRecordPtr record() const { return record_; }
    NeighboursRecordPtr neighbours() const { return neighbours_; }
    QCustomPlot* plot() const { return plot_; }
    QCPCurve* points() const { return points_; }  // one point per token shown, t = id
    QCPCurve* neighbourMarks() const { return marked_; }  // the neighbours among the points
    QCPCurve* chosenMark() const { return chosen_; }      // the token clicked
    // The labels made: the most frequent tokens and the one clicked. Those that would cover
    // a label placed before them are hidden (placeLabels); shownLabels() are the others.
    QStringList labels() const;
    QStringList shownLabels() const;
    QRectF labelRect(int index) const;  // of labels()[index], in pixels
    QTreeWidget* neighbourList() const { return list_; }
    QPoint pointPixel(int id) const;  // where token `id` is drawn
    int pointAt(QPoint pixel) const;  // the token drawn nearest the pixel (within 8 px), or −1
    int selected() const { return selected_; }

signals:
    void embeddingRequested(as::EmbeddingTable table);
    void neighboursRequested(as::EmbeddingTable table, int id);

protected:
    // QEvent::LanguageChange: retranslate().
    void changeEvent(QEvent* event) override;

private:
    // Its titles, axis labels, legend names, controls and tooltips in the language installed,
    // set in one place: from the constructor and at every language change.
    void retranslate();
    QLabel* tableLabel_ = nullptr;
    void redraw();
    void showNeighbours();
    // At every layout: labels in order of priority (the token clicked, the words by frequency,
    // the specials) are shown unless they would overlap one already shown.
    void placeLabels();
    QString csv() const;

    EmbeddingRecordPtr record_;
    Tie tie_ = Tie::None;  // of the model the last record came from (the note says it)
    NeighboursRecordPtr neighbours_;
    int selected_ = -1;
    QComboBox* table_ = nullptr;
    QLabel* note_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    QCPTextElement* title_ = nullptr;
    QCPCurve* points_ = nullptr;
    QCPCurve* marked_ = nullptr;   // the selected token's neighbours
    QCPCurve* chosen_ = nullptr;   // the selected token
    std::vector<QCPItemText*> labels_;
    QLabel* heading_ = nullptr;
    QTreeWidget* list_ = nullptr;
};

}  // namespace as::ui

Q_DECLARE_METATYPE(as::EmbeddingTable)
Q_DECLARE_METATYPE(as::EmbeddingRecordPtr)
Q_DECLARE_METATYPE(as::NeighboursRecordPtr)
