// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The beam-search tree of one translation (issue 25 §2; core/SPEC.md §5.5), in the Translate
// view: the hypotheses over the steps, one column per step, each node its token, coloured by
// its state (kept, finished, pruned), the best hypothesis's path drawn bold; hovering a node
// shows its log-probability, cumulative score and length-penalised score. Clicking a node (or
// moving with the arrow keys: ← parent, → first child, ↑ ↓ within the step) shows the
// cross-attention of its prefix below, one row per token on its path, for the layer and head
// chosen. The view draws a BeamTreeRecord (decode/beam_tree_record.h), made with the
// translation by the translation service; it never runs a model.
#include "decode/beam_tree_record.h"
#include "plot_tools.h"

#include <QWidget>

#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QScrollArea;
class QSplitter;

namespace as::ui {

using BeamTreeRecordPtr = std::shared_ptr<const BeamTreeRecord>;

// The painted tree alone.
class BeamTreeDiagram : public QWidget {
    Q_OBJECT
public:
    struct Drawn {
        int id = 0;
        int parent = -1;
        BeamNode::State state = BeamNode::State::Kept;
        QString token;
        QRectF rect;
        bool best = false;  // on the best hypothesis's path
    };

    explicit BeamTreeDiagram(QWidget* parent = nullptr);
    void setRecord(BeamTreeRecordPtr record);  // selects nothing
    const std::vector<Drawn>& drawn() const { return drawn_; }  // in node id order
    void setSelected(int id);  // -1: none
    int selected() const { return selected_; }
    int nodeAt(QPointF p) const;  // -1 when none
    QString toolTipOf(int id) const;  // what hovering the node shows

    QSize sizeHint() const override;

signals:
    void nodeClicked(int id);

protected:
    bool event(QEvent* e) override;  // tool tips
    void paintEvent(QPaintEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;
    void changeEvent(QEvent* e) override;

private:
    void relayout();
    BeamTreeRecordPtr record_;
    std::vector<Drawn> drawn_;
    std::vector<std::vector<int>> columns_;  // node ids per step, top to bottom
    QSize size_{200, 120};
    int selected_ = -1;
};

class BeamTreeView : public QWidget {
    Q_OBJECT
public:
    explicit BeamTreeView(QWidget* parent = nullptr);

    // A new tree (null or empty: the hint). Selects the best hypothesis's last node.
    void setRecord(BeamTreeRecordPtr record);
    BeamTreeRecordPtr record() const { return record_; }

    void selectNode(int id);
    int selectedNode() const { return diagram_->selected(); }
    void setLayer(int layer);  // decoder layer, 0-based
    void setHead(int head);    // 0-based
    int layer() const;
    int head() const;

    // Read-outs (tests): the diagram, and the prefix cross-attention as drawn.
    BeamTreeDiagram* diagram() const { return diagram_; }
    int crossRows() const { return heat_.rows; }
    int crossCols() const { return heat_.cols; }
    double crossCell(int row, int col) const { return heatmapCell(heat_, row, col); }
    QStringList crossRowLabels() const { return rowLabels_; }
    QCustomPlot* crossPlot() const { return plot_; }
    QLabel* nodeLabel() const { return nodeInfo_; }

protected:
    void changeEvent(QEvent* e) override;
    void showEvent(QShowEvent* e) override;

private:
    void retranslate();
    void scrollToSelected();
    void fitTree();  // the splitter: the tree's height, up to 55 %
    void drawCross();
    void nameChoices();

    BeamTreeRecordPtr record_;
    BeamTreeDiagram* diagram_ = nullptr;
    QScrollArea* scroll_ = nullptr;
    QSplitter* split_ = nullptr;  // the tree above, the prefix's cross-attention below
    QLabel* hint_ = nullptr;
    QWidget* legend_ = nullptr;  // the states' colours, above the tree
    QLabel* nodeInfo_ = nullptr;
    QLabel* layerLabel_ = nullptr;
    QComboBox* layerBox_ = nullptr;
    QComboBox* headBox_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    QCPTextElement* title_ = nullptr;
    Heatmap heat_;
    QStringList rowLabels_;
};

}  // namespace as::ui
