// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "Induction heads" (issue 61): what the engine measures at every validation of a decoder-only
// model on its probe of repeated random tokens (core/SPEC.md §13, eval/induction_record.h),
// shown as it forms. Five plots over one history of records:
// - the map: every head's score (layers × heads) at the record chosen on the replay slider
//   (the latest by default, followed as records come), coloured by the score chosen —
//   induction, previous-token, duplicate-token (each a mean attention weight, 0 … 1) or copying
//   (a direct logit effect in logits, signed); clicking a head asks to see it (headClicked);
// - the scores over steps: each head's induction score (solid) and previous-token score
//   (dashed), the circuit's two heads drawn thick and named in the legend;
// - the probe's loss at each position at the chosen record (and, when that record was measured
//   with heads ablated, the last record before it measured without, for comparison);
// - over steps, the first copies' and the later copies' loss and the in-context learning score
//   (§13.4); records measured with heads ablated (`masked`) as separate markers beside the lines
//   (which join the records measured without);
// - the circuit: the strongest previous-token head of a layer below the top induction head's,
//   and the K-composition of the induction head with every head of the earlier layers beside
//   the random baseline (§13.3), with buttons that ask to ablate either head (or to restore
//   them): ablationRequested, which the window hands to its head mutes.
// The phase change (§13.5, phaseChangeStep over the records measured without ablation: an
// ablation's record is not the trained model's) is marked on both plots over steps, and told
// (phaseChangeChanged) for the Loss view. Records are kept whole (a validation's record is a few
// kilobytes: the session keeps them all too), so that the phase change is the run's. Drawn at
// most every kDrawIntervalMs while records arrive, and not at all while the tab is hidden.
#include "eval/induction_record.h"
#include "draw_throttle.h"
#include "plot_tools.h"
#include "replay_history.h"
#include "train/snapshot.h"

#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QPushButton;
class QStackedWidget;
class QTimer;

namespace as::ui {

class ReplayBar;

class InductionView : public QWidget {
    Q_OBJECT
public:
    enum class Metric { Induction, Previous, Duplicate, Copying };
    static constexpr int kDrawIntervalMs = 400;

    explicit InductionView(QWidget* parent = nullptr);

    // Takes snapshot.induction when present (a snapshot that replaces the history is the
    // window's to hand in whole: reset(), then addRecord for each of inductionHistory).
    void applySnapshot(const TrainingSnapshot& snapshot);
    // A record with an earlier step than the last starts a new run (the history before it goes);
    // one of the last step replaces it.
    void addRecord(std::shared_ptr<const InductionRecord> record);
    void reset();  // forgets the records and the mutes shown
    // Whether the model is decoder-only (the explanation shown while there is no record says
    // why there is none).
    void setDecoderOnly(bool decoderOnly);
    // The heads muted in the window (gate 0), shown beside the buttons.
    void setMuted(const std::vector<HeadId>& muted);

    void setMetric(Metric metric);
    Metric metric() const { return metric_; }
    // The record shown: index 0 … recordCount() − 1 (clamped); the last one follows new records.
    void showRecord(int index);
    void showLive();

    // Draws what has arrived now (else within kDrawIntervalMs, or when the view is shown).
    void drawNow();

    // Read-outs (for tests), as drawn: drawNow() first.
    int recordCount() const { return history_.size(); }
    int shownIndex() const { return history_.shownIndex(); }
    long shownStep() const { return history_.shownStep(); }
    bool isLive() const { return history_.isLive(); }
    std::shared_ptr<const InductionRecord> shownRecord() const { return history_.shown(); }
    // The phase change's step (§13.5), if it has come.
    std::optional<long> phaseChange() const { return phase_; }
    // The explanation instead of the plots (no record yet), or the plots.
    bool placeholderShown() const;
    QString placeholderText() const;
    QString infoText() const;
    // The value drawn for a head (0-based layer and head) on the map; NaN outside it.
    double mapCell(int layer, int head) const;
    QPoint mapCellCentre(int layer, int head) const;  // in the map plot's pixels
    QCPRange colourRange() const;
    QCustomPlot* mapPlot() const { return mapPlot_; }
    QCustomPlot* scoresPlot() const { return scoresPlot_; }
    QCustomPlot* positionPlot() const { return positionPlot_; }
    QCustomPlot* copiesPlot() const { return copiesPlot_; }
    QCustomPlot* circuitPlot() const { return circuitPlot_; }
    // Per head (index layer · heads + head): its induction and previous-token score over steps.
    QCPGraph* inductionGraph(int index) const;
    QCPGraph* previousGraph(int index) const;
    // Over steps: records measured without ablation (lines), or with heads ablated (markers).
    QCPGraph* firstCopyGraph(bool ablated) const { return copies_[ablated ? 1 : 0].first; }
    QCPGraph* laterCopyGraph(bool ablated) const { return copies_[ablated ? 1 : 0].later; }
    QCPGraph* inContextGraph(bool ablated) const { return copies_[ablated ? 1 : 0].score; }
    // The shown record's loss at each position; the unablated record drawn beside it (empty
    // unless the shown record was measured with heads ablated).
    QCPGraph* positionGraph() const { return positionLoss_; }
    QCPGraph* positionReferenceGraph() const { return positionReference_; }
    // The phase change's vertical line and label on the scores plot (0) and the copies' plot (1).
    QCPItemStraightLine* phaseLine(int plot) const { return phaseLines_[plot]; }
    QCPItemText* phaseLabel(int plot) const { return phaseLabels_[plot]; }
    // The circuit of the shown record (or, when it was measured with heads ablated, of the last
    // record before it measured without): the top induction head and the strongest
    // previous-token head of the layers below it (none when the top head is in the first layer).
    std::optional<HeadId> circuitInductionHead() const { return circuitInduction_; }
    std::optional<HeadId> circuitPreviousHead() const { return circuitPrevious_; }
    double circuitComposition() const { return circuitComposition_; }  // NaN: no pair
    QCPBars* compositionBars() const { return compositionBars_; }
    QPushButton* ablateInductionButton() const { return ablateInduction_; }
    QPushButton* ablatePreviousButton() const { return ablatePrevious_; }
    QPushButton* restoreButton() const { return restore_; }
    ReplayBar* replayBar() const { return replay_; }

signals:
    // A head of the map was clicked: show it (the window: in the Attention view, at that step).
    void headClicked(as::HeadId head, long step);
    // Mute exactly these heads (empty: restore every head).
    void ablationRequested(std::vector<as::HeadId> heads);
    // The phase change's step, or -1 when there is none (any more): at every change.
    void phaseChangeChanged(long step);

protected:
    void showEvent(QShowEvent* event) override;
    // QEvent::LanguageChange: retranslate().
    void changeEvent(QEvent* event) override;

private:
    // Its titles, axis labels, legend names, controls and tooltips in the language installed,
    // set in one place: from the constructor and at every language change.
    void retranslate();
    void draw();
    void drawMap(const InductionRecord& r);
    void drawScores();
    void drawCopies();
    void drawPosition(const InductionRecord& r);
    void drawCircuit();
    void drawPhase();
    void rebuildHeadGraphs();
    void updatePhase();
    void updateCircuit();
    void updateButtons();
    void showState();  // the replay bar and what follows the record shown
    QString metricName(Metric m) const;
    QString headLabel(int index) const;  // "layer 2 · head 1", numbered from 1
    QString headLabel(const HeadId& id) const;
    QString mapHover(QPoint pixel) const;
    QString scoresHover(QPoint pixel) const;
    QString copiesHover(QPoint pixel) const;
    QString positionHover(QPoint pixel) const;
    QString circuitHover(QPoint pixel) const;
    double valueOf(const InductionRecord& r, int index) const;
    // The record whose circuit is shown (see circuitInductionHead), or null.
    const InductionRecord* circuitRecord() const;
    // The nearest record measured without ablation at or before index (null: none).
    const InductionRecord* unablatedAtOrBefore(int index) const;
    HeadId idOf(int index) const;

    ReplayHistory<InductionRecord> history_;
    std::optional<long> phase_;
    Metric metric_ = Metric::Induction;
    bool decoderOnly_ = false;
    std::vector<HeadId> muted_;
    int layers_ = 0, heads_ = 0;  // the shape the head graphs were made for
    DrawThrottle throttle_{this, kDrawIntervalMs, [this] { draw(); }};

    QComboBox* metricBox_ = nullptr;
    QLabel *colourLabel_ = nullptr, *info_ = nullptr, *placeholder_ = nullptr, *mutedLabel_ = nullptr;
    ReplayBar* replay_ = nullptr;
    QStackedWidget* stack_ = nullptr;  // the explanation, or the plots
    QPushButton *ablateInduction_ = nullptr, *ablatePrevious_ = nullptr, *restore_ = nullptr;

    QCustomPlot* mapPlot_ = nullptr;
    QCPTextElement* mapTitle_ = nullptr;
    Heatmap heat_;
    QCPRange range_{0, 1};

    QCustomPlot* scoresPlot_ = nullptr;
    QCPTextElement* scoresTitle_ = nullptr;
    std::vector<QCPGraph*> inductionGraphs_, previousGraphs_;
    QCPItemStraightLine* shownLines_[2] = {nullptr, nullptr};  // the record shown, when replaying

    QCustomPlot* copiesPlot_ = nullptr;
    QCPTextElement* copiesTitle_ = nullptr;
    struct CopyGraphs {
        QCPGraph *first = nullptr, *later = nullptr, *score = nullptr;
    };
    CopyGraphs copies_[2];  // without, with heads ablated
    QCPItemStraightLine* phaseLines_[2] = {nullptr, nullptr};
    QCPItemText* phaseLabels_[2] = {nullptr, nullptr};

    QCustomPlot* positionPlot_ = nullptr;
    QCPTextElement* positionTitle_ = nullptr;
    QCPGraph *positionLoss_ = nullptr, *positionReference_ = nullptr;

    QCustomPlot* circuitPlot_ = nullptr;
    QCPTextElement* circuitTitle_ = nullptr;
    QCPBars *compositionBars_ = nullptr, *previousBar_ = nullptr;
    QCPItemStraightLine* baselineLine_ = nullptr;
    QCPItemText* baselineLabel_ = nullptr;
    QCPItemText* circuitNote_ = nullptr;  // why there is no pair
    std::optional<HeadId> circuitInduction_, circuitPrevious_;
    double circuitComposition_ = 0;
    std::vector<int> earlierHeads_;  // the bars' heads (indices), in order
};

}  // namespace as::ui
