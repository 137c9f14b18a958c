#pragma once
// "Head dynamics": when each head forms its pattern. For every kind (encoder self, decoder
// self, decoder cross) and layer, a heads × recorded-steps heatmap of one score of the probe's
// attention (eval/attention_stats.h): entropy (nats), confidence, or the mass within ±1 of the
// scaled diagonal (cross: monotonic alignment; self: the neighbouring tokens). The x axis counts
// the recorded probes, one column each, labelled with their steps: records are not evenly
// spaced in steps (a snapshot's pace, then thinned by appendAttentionRecord), and a column per
// record keeps every record visible and clickable. Clicking a cell asks for that head at that
// step (MainWindow shows it in the Attention view's replay). It keeps the same history as the
// Attention view, by the same policy (appendAttentionRecord).
#include "eval/attention_stats.h"
#include "plot_tools.h"
#include "train/snapshot.h"

#include <QWidget>

#include <memory>
#include <vector>

class QComboBox;
class QGridLayout;
class QLabel;
class QStackedWidget;

namespace as::ui {

class HeadDynamicsView : public QWidget {
    Q_OBJECT
public:
    enum class Metric { Entropy, Confidence, Diagonal };

    explicit HeadDynamicsView(QWidget* parent = nullptr);

    // Takes snapshot.attention when present.
    void applySnapshot(const TrainingSnapshot& snapshot);
    void addRecord(std::shared_ptr<const AttentionRecord> record);
    void reset();  // forgets the history

    void setMetric(Metric metric);
    Metric metric() const { return metric_; }

    // Read-outs (for tests).
    int recordCount() const { return int(history_.size()); }
    long stepAt(int index) const;
    int layers(AttentionKind kind) const;
    int heads() const { return heads_; }
    QCustomPlot* plot(AttentionKind kind, int layer) const;
    // The value drawn for a head at record `index`, read back from the map; NaN outside it.
    double cell(AttentionKind kind, int layer, int head, int index) const;
    // The pixel at the centre of that cell, in the plot's coordinates.
    QPoint cellCentre(AttentionKind kind, int layer, int head, int index) const;
    // The colour scale's range (the same for every map).
    QCPRange colourRange() const { return range_; }

signals:
    void cellClicked(as::HeadId head, long step);

private:
    struct Panel {
        QWidget* frame = nullptr;  // the plot with its export button
        QCustomPlot* plot = nullptr;
        QCPTextElement* title = nullptr;
        Heatmap heat;
    };
    void rebuildPanels(int layers[3]);
    void redraw();
    double valueOf(const HeadMapStats& s) const;
    QString metricName() const;
    QString hoverText(AttentionKind kind, int layer, QPoint pixel) const;
    const Panel* panelOf(AttentionKind kind, int layer) const;

    std::vector<std::shared_ptr<const AttentionRecord>> history_;
    std::vector<std::shared_ptr<const HeadDynamicsPoint>> points_;  // one per history_ record
    Metric metric_ = Metric::Entropy;
    int heads_ = 0;
    QCPRange range_{0, 1};
    std::vector<Panel> panels_[3];  // per kind, per layer

    QComboBox* metricBox_ = nullptr;
    QLabel* info_ = nullptr;
    QStackedWidget* stack_ = nullptr;  // placeholder or the grid
    QGridLayout* grid_ = nullptr;
};

}  // namespace as::ui
