// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The neuron view (BertViz's idea), under the Attention view: for one head and one query token
// of the probe sentence, the query vector, every key vector, their element-wise product, the
// scaled scores q·k/sqrt(d_k) and the softmax. For the first encoder layer also each score split
// into token·token, token·position, position·token, position·position and bias terms, and each
// head's positional share (eval/interpret.h). The view asks (neuronRequested) and shows records;
// the training worker computes them on the probe with the current weights.
#include "eval/neuron_record.h"
#include "plot_tools.h"

#include <QStringList>
#include <QWidget>

#include <memory>

class QCPTextElement;
class QComboBox;
class QLabel;
class QSpinBox;

namespace as {
namespace ui {

class NeuronPanel : public QWidget {
    Q_OBJECT
public:
    explicit NeuronPanel(QWidget* parent = nullptr);

    void setShape(int encoderLayers, int decoderLayers, int heads);
    void setRecord(NeuronRecordPtr record);
    NeuronRecordPtr record() const { return record_; }
    // Asks for the neuron view of this head and query (as the controls do).
    void choose(AttentionKind kind, int layer, int head, int query);
    void refresh();  // asks again for the head and query chosen (new weights, a new probe)
    QString shares() const;  // the positional shares line
    double product(int key, int dim) const;  // the q ⊙ k cell drawn
    double termBar(int term, int key) const;  // 0 token·token … 4 bias, as drawn

signals:
    void neuronRequested(as::AttentionKind kind, int layer, int head, int query);

protected:
    // QEvent::LanguageChange: retranslate().
    void changeEvent(QEvent* event) override;

private:
    // Its titles, axis labels, legend names, controls and tooltips in the language installed,
    // set in one place: from the constructor and at every language change.
    void retranslate();
    QLabel *title_ = nullptr, *queryLabel_ = nullptr;
    QCPTextElement *vectorsTitle_ = nullptr, *scoresTitle_ = nullptr;
    void ask();
    void redraw();

    NeuronRecordPtr record_;
    int layers_[2] = {0, 0};
    QComboBox* kind_ = nullptr;
    QSpinBox *layer_ = nullptr, *head_ = nullptr;
    QComboBox* query_ = nullptr;
    QLabel* shares_ = nullptr;
    QCustomPlot* vectors_ = nullptr;  // q ⊙ k per key
    Heatmap productHeat_;
    QCustomPlot* scores_ = nullptr;   // score and softmax per key; the terms when split
    QCPBars* scoreBars_ = nullptr;
    QCPGraph* probGraph_ = nullptr;
    std::vector<QCPBars*> termBars_;
    bool updating_ = false;
};

}  // namespace ui
}  // namespace as
