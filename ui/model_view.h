// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "Model": the architecture as the paper's Figure 1 draws it, from the live configuration, and
// the numbers of one forward pass of the probe sentence behind each block (issue 25 §2).
//
// Left, the diagram: inputs, embeddings, positional encoding, N× encoder layers (self-attention,
// feed-forward), N× decoder layers (masked self-attention, cross-attention, feed-forward), with
// Add & Norm where the configuration's `norm` puts LayerNorm (after the residual sum in
// post-norm; before each sublayer, with a final LayerNorm, in pre-norm), then the generator
// (Linear) and Softmax. Clicking a block, or moving with the arrow keys, selects it.
//
// Right, the computation of the selected block for the chosen layer and head: its tensors of
// the traced pass (TraceRecord, core/SPEC.md §2.9) as heatmaps with token labels and the
// numbers on hover, the formula with the shapes filled in; for attention, one head's Q, K, V,
// the scores with the mask drawn in its own colour, the softmax and the head's part of the
// context. It follows training: each snapshot's trace is kept in a replay history (thinned as
// the Attention view's is, and bounded in bytes: kHistoryBytes) and shown while the view is
// live; the replay slider (or the Attention view's, through showStep) shows an earlier one.
#include "eval/trace.h"
#include "model/head_id.h"
#include "plot_tools.h"
#include "replay_bar.h"
#include "replay_history.h"
#include "train/snapshot.h"

#include <QWidget>

#include <memory>
#include <vector>

class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;
class QToolButton;

namespace as::ui {

enum class ModelBlock {
    SrcEmbed, SrcPosition, EncSelf, EncSelfAdd, EncFF, EncFFAdd, EncNorm,
    TgtEmbed, TgtPosition, DecSelf, DecSelfAdd, DecCross, DecCrossAdd, DecFF, DecFFAdd, DecNorm,
    Generator, Softmax
};

// The diagram alone: blocks laid out from a configuration, one selected.
class ArchitectureDiagram : public QWidget {
    Q_OBJECT
public:
    struct Drawn {
        ModelBlock block;
        QString label;
        QRectF rect;
        bool normPart = false;  // a pre-norm LayerNorm box: selects the sublayer above it
        bool text = false;      // a caption (inputs, outputs), not a box
    };

    explicit ArchitectureDiagram(QWidget* parent = nullptr);
    void setConfig(const ModelConfig& config);
    const ModelConfig& config() const { return config_; }
    void setSelected(ModelBlock block);
    ModelBlock selected() const { return selected_; }
    // What is drawn, in drawing order (read-outs for tests and the keyboard order).
    const std::vector<Drawn>& drawn() const { return drawn_; }
    // The block under a point of the widget; false when none.
    bool blockAt(QPointF p, ModelBlock* block) const;
    QRectF rectOf(ModelBlock block) const;  // its main box; empty if not drawn

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void blockClicked(as::ui::ModelBlock block);

protected:
    void paintEvent(QPaintEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    void relayout();

    ModelConfig config_;
    ModelBlock selected_ = ModelBlock::EncSelf;
    std::vector<Drawn> drawn_;
    QRectF encoderStack_, decoderStack_;  // the N× frames
    QPointF encoderOut_;                 // where the memory leaves the encoder
};

QString modelBlockName(ModelBlock block);

class ModelView : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMaxPlots = 6;
    // The replay history keeps at most this many bytes of traces (and at most as many records as
    // the Attention view's): a trace holds every tensor of a forward pass.
    static constexpr std::size_t kHistoryBytes = std::size_t(64) << 20;

    explicit ModelView(QWidget* parent = nullptr);

    // The configuration draws the diagram; snapshot.trace (when present) fills the panel.
    void applySnapshot(const TrainingSnapshot& snapshot);
    // Adds a trace to the replay history (a record of an earlier step starts a new run); shown
    // when the view is live (or the history was empty), else the replayed step stays shown.
    void setRecord(std::shared_ptr<const TraceRecord> record);
    void reset();  // forgets the history

    // The replay, as the Attention view's: index 0 … historySize() − 1, the last one live.
    int historySize() const { return history_.size(); }
    int historyCapacity() const;  // records the byte bound allows, of the last record's size
    void showHistoryIndex(int index);
    int shownHistoryIndex() const { return history_.shownIndex(); }
    // The trace at `step`, or the last one before it (the first when every one is later).
    void showStep(long step);
    void showLive();  // the latest trace, following new ones
    long shownStep() const { return history_.shownStep(); }
    bool isLive() const { return replay_->isLive(); }
    QSlider* replaySlider() const { return replay_->slider(); }
    QLabel* stepLabel() const { return replay_->stepLabel(); }

    void selectBlock(ModelBlock block);
    void setLayer(int layer);  // 0-based
    void setHead(int head);    // 0-based
    ModelBlock block() const { return diagram_->selected(); }
    int layer() const { return layer_; }
    int head() const { return head_; }

    // Read-outs (tests).
    ArchitectureDiagram* diagram() const { return diagram_; }
    std::shared_ptr<const TraceRecord> record() const { return history_.shown(); }
    QString formula() const;
    QString title() const;
    int plotCount() const { return shown_; }
    const Heatmap& map(int i) const { return plots_[std::size_t(i)].heat; }
    QCustomPlot* plot(int i) const { return plots_[std::size_t(i)].plot; }
    QString plotTitle(int i) const;
    QStringList rowLabels(int i) const { return plots_[std::size_t(i)].rows; }
    QStringList colLabels(int i) const { return plots_[std::size_t(i)].cols; }
    // Where the attention block's heads are in the Attention view (kind, layer).
    bool attentionOfBlock(HeadId* id) const;

signals:
    // "Show its heads": the Attention view on this kind, layer and head.
    void attentionRequested(as::HeadId head);

protected:
    void changeEvent(QEvent* e) override;

private:
    struct Plot {
        QCustomPlot* plot = nullptr;
        QCPTextElement* title = nullptr;
        Heatmap heat;
        QStringList rows, cols;
        QString name;  // the trace tensor's name
    };
    void retranslate();
    void redraw();
    void updateControls();
    void updateReplayControls();
    void drawShown();  // the record shown: the diagram, the controls and the plots
    // Shows rows×cols values of a tensor in plot i; masked cells (when any) in the mask colour.
    void showMatrix(int i, const QString& title, const std::string& name, int rows, int cols,
                    const std::function<double(int, int)>& value,
                    const std::function<bool(int, int)>& masked, const QStringList& rowLabels,
                    const QStringList& colLabels, bool probabilities);

    ArchitectureDiagram* diagram_ = nullptr;
    QLabel* title_ = nullptr;
    QLabel* formula_ = nullptr;
    QLabel* hint_ = nullptr;
    QLabel* layerLabel_ = nullptr;
    QLabel* headLabel_ = nullptr;
    QSpinBox* layerBox_ = nullptr;
    QSpinBox* headBox_ = nullptr;
    QPushButton* toAttention_ = nullptr;
    std::vector<Plot> plots_;
    int shown_ = 0;
    int layer_ = 0, head_ = 0;
    ReplayHistory<TraceRecord> history_;
    ReplayBar* replay_ = nullptr;
};

}  // namespace as::ui
