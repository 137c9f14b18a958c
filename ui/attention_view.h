// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "Attention": every head of one layer at once as small multiples (query tokens as rows, key
// tokens as columns), one head enlarged with a colour bar, the mean over heads, each head's mean
// row entropy, and a replay slider over the attention recorded during training.
#include "plot_tools.h"
#include "replay_bar.h"
#include "replay_history.h"
#include "train/snapshot.h"

#include <QWidget>

#include <memory>
#include <vector>

class QComboBox;
class QGridLayout;
class QLabel;
class QSlider;
class QStackedWidget;
class QToolButton;

namespace as::ui {

class AttentionView : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMeanHead = -1;         // enlargeHead(kMeanHead): the mean over heads
    static constexpr int kHistoryCapacity = kAttentionHistoryCapacity;  // appendAttentionRecord()'s

    explicit AttentionView(QWidget* parent = nullptr);

    // Takes snapshot.attention when present (null keeps what is shown).
    void applySnapshot(const TrainingSnapshot& snapshot);
    void addRecord(std::shared_ptr<const AttentionRecord> record);
    void reset();  // forgets the history

    void setKind(AttentionKind kind);
    AttentionKind kind() const { return kind_; }
    // The record shown (the latest, or the one replayed); null before the first.
    const AttentionRecord* shownRecord() const;
    void setLayer(int layer);  // 0-based
    int layer() const { return layer_; }

    // The maps shown, h = 0 … headCount()-1 (the mean map is not counted).
    int headCount() const { return int(data_.size()); }
    QSize headMapShape(int h) const;      // width = keys, height = queries
    QStringList rowLabels(int h) const;   // query tokens, first at the top
    QStringList colLabels(int h) const;   // key tokens, first at the left
    double weight(int h, int q, int k) const;  // read back from the plotted map; h may be kMeanHead
    // Mean over query rows of -sum p ln p over the valid keys (nats); h may be kMeanHead.
    double headEntropy(int h) const;

    int historySize() const { return history_.size(); }
    void showHistoryIndex(int index);     // the last index follows new records ("live")
    // What moving the replay slider to index does: shows it and emits replayMoved.
    void replayTo(int index);
    int shownHistoryIndex() const { return history_.shownIndex(); }
    // The record at `step`, or the last one before it (the first when every one is later).
    void showStep(long step);
    long shownStep() const { return history_.shownStep(); }  // -1 when nothing is shown
    bool isLive() const { return replay_->isLive(); }

    void enlargeHead(int h);              // 0 … headCount()-1 or kMeanHead
    int enlargedHead() const { return enlarged_; }

signals:
    // The user moved the replay slider or pressed Live: the step shown now, and whether it
    // follows the latest (the Model view's computation panel follows it, app/window/view_set).
    void replayMoved(long step, bool live);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    // QEvent::LanguageChange: retranslate().
    void changeEvent(QEvent* event) override;

private:
    // Its controls, axis labels and titles in the language installed, set in one place: from
    // the constructor and at every language change (then the record shown is drawn again).
    void retranslate();
    QLabel *kindLabel_ = nullptr, *layerLabel_ = nullptr, *placeholder_ = nullptr;
    QCPTextElement* entropyTitle_ = nullptr;
    struct HeadPlot {
        QWidget* frame = nullptr;
        QCustomPlot* plot = nullptr;
        QCPTextElement* title = nullptr;
        Heatmap heat;
    };
    // One map as shown: rows = queries, cols = keys.
    struct HeadData {
        int rows = 0, cols = 0;
        std::vector<double> w;  // [rows * cols]
        double entropy = 0;  // mean row entropy (nats)
        double uniform = 0;  // the same for uniform weights over the valid keys
        double at(int r, int c) const { return w[std::size_t(r) * cols + c]; }
    };

    void rebuildLayerChoices();
    void refresh();  // redraws everything from the shown record, kind and layer
    void ensureHeadPlots(int heads);
    HeadPlot makeHeadPlot(int index);
    void drawEnlarged();
    void drawEntropy();
    void updateReplayControls();
    void updateFrames();
    QString hoverText(int h, bool big, QPoint pixel) const;
    QString matrixCsv(int h) const;
    const HeadData* data(int h) const;

    ReplayHistory<AttentionRecord> history_;
    AttentionKind kind_ = AttentionKind::EncoderSelf;
    int layer_ = 0;
    int enlarged_ = kMeanHead;

    std::vector<HeadData> data_;  // per head, of the shown record/kind/layer
    HeadData mean_;
    QStringList rowLabels_, colLabels_;

    QComboBox* kindBox_ = nullptr;
    QComboBox* layerBox_ = nullptr;
    ReplayBar* replay_ = nullptr;
    QLabel* sentenceLabel_ = nullptr;
    QStackedWidget* stack_ = nullptr;  // placeholder or the plots
    QGridLayout* grid_ = nullptr;
    int columns_ = 4;
    std::vector<HeadPlot> heads_;
    HeadPlot meanPlot_;
    QCustomPlot* bigPlot_ = nullptr;
    QCPTextElement* bigTitle_ = nullptr;
    Heatmap bigHeat_;
    QCustomPlot* entropyPlot_ = nullptr;
    QCPBars* entropyBars_ = nullptr;
    QCPItemStraightLine* entropyMax_ = nullptr;
    bool updating_ = false;
};

}  // namespace as::ui
