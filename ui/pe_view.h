// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "Positional encoding": the sinusoids of core/SPEC.md §2.1 as a heatmap (position x
// dimension), a few dimensions against position (The Annotated Transformer's figure), and the
// similarity PE PE^T between positions.
#include "plot_tools.h"

#include <QList>
#include <QWidget>

#include <vector>

class QCPTextElement;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QCustomPlot;

namespace as {
struct TrainingSnapshot;
}

namespace as::ui {

class PeView : public QWidget {
    Q_OBJECT
public:
    explicit PeView(QWidget* parent = nullptr);

    // Follows snapshot.config.d_model whenever the configuration's d_model changes, and its
    // positions' layout (Marian's halves, core/SPEC.md §2.13) whenever that changes.
    void applySnapshot(const as::TrainingSnapshot& snapshot);
    void reset();

    void setDModel(int dModel);
    // The columns' layout: the Annotated Transformer's sin/cos interleaved (false), or Marian's
    // sines then cosines (true).
    void setHalves(bool halves);
    bool halves() const;
    void setPositions(int positions);
    // Up to 4 dimensions for the line plot; out-of-range ones are left out.
    void setLineDims(const QList<int>& dims);

    // PE[pos, dim] read back from the heatmap's cell; NaN outside it.
    double cellValue(int pos, int dim) const;
    // (PE PE^T)[a, b] read back from the similarity heatmap's cell; NaN outside it.
    double similarityValue(int a, int b) const;
    int positions() const;
    int dModel() const;
    QList<int> lineDims() const { return lineDims_; }
    QList<QCustomPlot*> plots() const { return {heatPlot_, linePlot_, simPlot_}; }

protected:
    // QEvent::LanguageChange: retranslate().
    void changeEvent(QEvent* event) override;

private:
    // Its titles, axis labels, legend names, controls and tooltips in the language installed,
    // set in one place: from the constructor and at every language change.
    void retranslate();
    void nameLines();  // the legend: "dim 4", …
    QLabel *positionsLabel_ = nullptr, *dModelLabel_ = nullptr, *dimsLabel_ = nullptr, *layoutLabel_ = nullptr;
    QComboBox* layoutBox_ = nullptr;
    int lastSnapshotLayout_ = -1;  // the layout the last snapshot's configuration had
    QCPTextElement *heatTitle_ = nullptr, *lineTitle_ = nullptr, *simTitle_ = nullptr;
    void rebuild();
    void rebuildLines();
    QString heatCsv() const;
    QString lineCsv() const;
    QString simCsv() const;

    QSpinBox* positionsBox_ = nullptr;
    QSpinBox* dModelBox_ = nullptr;
    QLineEdit* dimsEdit_ = nullptr;
    QCustomPlot* heatPlot_ = nullptr;
    QCustomPlot* linePlot_ = nullptr;
    QCustomPlot* simPlot_ = nullptr;
    Heatmap heat_, sim_;
    QList<int> lineDims_;
    int lastSnapshotDModel_ = 0;  // 0: no snapshot seen since construction or reset()
    bool building_ = false;
};

}  // namespace as::ui
