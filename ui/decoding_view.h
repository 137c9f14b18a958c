// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "Decoding": the autoregressive loop of the probe sentence one token at a time (issue 25 §2).
// At step t: the decoder's input so far, its causal self-attention (the mask growing with the
// input: one layer and head, masked cells grey), the cross-attention of the new position over
// the source (every head of the layer), the k likeliest next tokens, and the token fed back.
// With a reference target the teacher-forced run stands beside the free-running one, and the
// step where they part is marked. Below each: the logit lens, what each decoder layer would
// predict at each position (top-1 and its probability). Step / Back / Run (→, ←, R; Home and
// End) and a slider move through the steps. The view shows records (eval/decoding_record.h);
// the training worker makes them.
#include "eval/decoding_record.h"
#include "plot_tools.h"

#include <QWidget>

#include <array>
#include <optional>

class QAction;
class QCheckBox;
class QComboBox;
class QLabel;
class QSlider;
class QTableWidget;
class QTimer;
class QToolButton;

namespace as::ui {

class SamplingControls;

class DecodingView : public QWidget {
    Q_OBJECT
public:
    enum Side { FreeRunning = 0, TeacherForced = 1 };
    static constexpr int kRunIntervalMs = 500;  // between two steps of Run

    explicit DecodingView(QWidget* parent = nullptr);

    // A new record keeps the step shown (clamped to its steps).
    void setRecord(DecodingRecordPtr record);
    void reset();  // another model: nothing shown

    // Steps 0 … stepCount() − 1: the longer of the two runs.
    int stepCount() const;
    int step() const { return step_; }
    void setStep(int t);
    void stepForward();
    void stepBack();
    void run();  // Run, or Pause while running
    bool running() const;
    void setLayer(int layer);  // decoder layer shown (self- and cross-attention), 0-based
    void setHead(int head);    // the self-attention head shown
    int layer() const { return layer_; }
    int head() const { return head_; }
    // Sampling (core/SPEC.md §5.6): the free run is drawn with these instead of greedy, and the
    // next-token bars show each token's probability after temperature, top-k and top-p beside
    // the model's. nullopt: greedy. The worker makes the record (samplingChanged asks for it).
    std::optional<SamplingOptions> sampling() const;
    void setSampling(const std::optional<SamplingOptions>& sampling);  // as the controls do
    // A sampled record's bars after the cut, in the order of topTokens() (empty when greedy).
    std::vector<double> cutProbabilities(Side side) const { return columns_[side].cutProbs; }
    QSlider* temperatureSlider() const;

    // Read-outs.
    DecodingRecordPtr record() const { return record_; }
    bool sideShown(Side side) const;
    QStringList inputTokens(Side side) const;  // the decoder's input at the step shown
    QString fedToken(Side side) const;         // the token fed back at the step shown
    QStringList topTokens(Side side) const;    // the bars, top first (the fed one last if not among them)
    std::vector<double> topProbabilities(Side side) const;
    double selfWeight(Side side, int query, int key) const;  // as drawn; NaN for a masked cell
    double crossWeight(Side side, int head, int source) const;  // as drawn
    QTableWidget* lensTable(Side side) const { return columns_[side].lens; }
    QCustomPlot* selfPlot(Side side) const { return columns_[side].selfPlot; }
    QCustomPlot* crossPlot(Side side) const { return columns_[side].crossPlot; }
    QCustomPlot* topPlot(Side side) const { return columns_[side].topPlot; }
    QLabel* chosenLabel(Side side) const { return columns_[side].chosen; }
    QLabel* inputLabel(Side side) const { return columns_[side].input; }
    QLabel* divergenceLabel() const { return divergence_; }
    QLabel* stepLabel() const { return stepLabel_; }
    QSlider* slider() const { return slider_; }
    QAction* stepAction() const { return stepAction_; }
    QAction* backAction() const { return backAction_; }
    QAction* runAction() const { return runAction_; }

signals:
    void samplingChanged();  // sampling() is another: a record drawn so is wanted

protected:
    // QEvent::LanguageChange: every text again (retranslate), and the record's.
    void changeEvent(QEvent* event) override;

private:
    struct Column {
        QWidget* box = nullptr;
        QLabel* title = nullptr;
        QLabel* input = nullptr;
        QLabel* chosen = nullptr;
        QCustomPlot* selfPlot = nullptr;
        Heatmap selfHeat;
        QCustomPlot* crossPlot = nullptr;
        Heatmap crossHeat;
        QCPTextElement* crossTitle = nullptr;
        QCPTextElement* selfTitle = nullptr;
        QCPTextElement* topTitle = nullptr;
        QLabel* exportLabel = nullptr;
        std::array<QToolButton*, 3> exportButtons{};  // self-attention, next tokens, cross-attention
        QLabel* lensTitle = nullptr;
        QCustomPlot* topPlot = nullptr;
        QCPBars* bars = nullptr;     // the other candidates
        QCPBars* fedBar = nullptr;   // the token fed back
        std::vector<QCPItemText*> barTexts;
        QStringList topTokens;
        std::vector<double> topProbs;
        QCPBars* cutBars = nullptr;  // a sampled run: after temperature and the cut
        std::vector<double> cutProbs;
        QTableWidget* lens = nullptr;
    };

    void buildColumn(Side side);
    // The texts that do not depend on the record, in the language installed: from the
    // constructor and at every language change.
    void retranslate();
    const DecodingRun* runOf(Side side) const;
    void refresh();  // everything from the record, the step, the layer and the head
    void drawColumn(Side side);
    void clearColumn(Side side);
    void updateControls();
    QString csvOf(Side side, QCustomPlot* plot) const;  // what a plot's Export writes as CSV

    DecodingRecordPtr record_;
    QCheckBox* sample_ = nullptr;
    SamplingControls* sampling_ = nullptr;
    void syncSampling();  // the controls' state; samplingChanged when it changed
    int step_ = 0, layer_ = 0, head_ = 0;
    std::array<Column, 2> columns_;
    QAction* stepAction_ = nullptr;
    QAction* backAction_ = nullptr;
    QAction* runAction_ = nullptr;
    QSlider* slider_ = nullptr;
    QLabel* stepLabel_ = nullptr;
    QLabel* divergence_ = nullptr;
    QLabel* placeholder_ = nullptr;
    QLabel* source_ = nullptr;
    QComboBox* layerBox_ = nullptr;
    QComboBox* headBox_ = nullptr;
    QLabel* layerLabel_ = nullptr;
    QLabel* headLabel_ = nullptr;
    QTimer* runTimer_ = nullptr;
};

}  // namespace as::ui
