// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "Heads": which attention heads matter. For each kind (encoder self, decoder self, decoder
// cross) a layers × heads grid coloured by the chosen score — importance (mean |∂L/∂ξ|, Michel
// et al. 2019), ΔNLL with the head alone masked, confidence or entropy (Voita et al. 2019);
// click a head to mute or unmute it (the mutes apply to Translate, the samples and validation,
// and the view shows the validation NLL and BLEU with them against without). Below, the
// pruning curve: validation BLEU and NLL against the number of heads masked in increasing
// order of importance. The view only shows records and asks; app/window/head_service.h computes.
#include "eval/heads_record.h"
#include "plot_tools.h"

#include <QWidget>

#include <memory>
#include <vector>

class QCPTextElement;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;

namespace as {
namespace ui {

class HeadsView : public QWidget {
    Q_OBJECT
public:
    enum class Score { Importance, DeltaNll, Confidence, Entropy };

    explicit HeadsView(QWidget* parent = nullptr);

    // The model's shape (the grids before any score), and the mutes drawn on them.
    void setShape(int encoderLayers, int decoderLayers, int heads);
    void setMuted(const std::vector<HeadId>& muted);
    void setRecord(HeadsRecordPtr record);
    void setPruning(PruningRecordPtr record);
    void setScore(Score score);
    // Work under way (done of total) with a Cancel button, or idle with a message.
    void showProgress(const QString& text, int done, int total);
    void showIdle(const QString& text);
    void reset();

    // Read-outs.
    Score score() const;
    double cell(AttentionKind kind, int layer, int head) const;  // NaN: no score drawn
    bool isMutedShown(const HeadId& id) const;
    QString summary() const;  // the line with NLL and BLEU
    QCustomPlot* grid(AttentionKind kind) const;
    QCustomPlot* pruningPlot() const { return pruning_; }
    HeadsRecordPtr record() const { return record_; }
    // The pixel at the centre of a head's cell (for clicks in tests).
    QPoint cellCentre(AttentionKind kind, int layer, int head) const;

signals:
    void headToggled(as::HeadId head);
    void scoreRequested();
    // "Score on…": score the heads on pairs from a file the user picks.
    void scoreOnRequested();
    void pruningRequested();
    void unmuteAllRequested();
    void cancelRequested();

protected:
    // QEvent::LanguageChange: retranslate().
    void changeEvent(QEvent* event) override;

private:
    // Its titles, axis labels, legend names, controls and tooltips in the language installed,
    // set in one place: from the constructor and at every language change.
    void retranslate();
    void showIntro();  // the hint shown until something was scored
    void summarize();  // the line of figures of the last record
    QLabel* colourLabel_ = nullptr;
    QCPTextElement* titles_[3] = {nullptr, nullptr, nullptr};
    QCPTextElement* pruningTitle_ = nullptr;
    HeadsRecordPtr summarized_;  // the record the figures line describes
    bool introShown_ = false;
    void redraw();
    void redrawPruning();
    double valueOf(const HeadScore& s) const;

    int layers_[3] = {0, 0, 0};
    int heads_ = 0;
    std::vector<HeadId> muted_;
    HeadsRecordPtr record_;
    PruningRecordPtr pruningRecord_;
    QComboBox* scoreBox_ = nullptr;
    QPushButton* scoreOnButton_ = nullptr;
    QPushButton *scoreButton_ = nullptr, *pruneButton_ = nullptr, *unmute_ = nullptr, *cancel_ = nullptr;
    QLabel* summary_ = nullptr;
    QLabel* status_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QCustomPlot* plots_[3] = {nullptr, nullptr, nullptr};
    QWidget* panels_[3] = {nullptr, nullptr, nullptr};  // each grid with its Export button
    // A decoder-only model (no encoder, decoder layers): no encoder or cross-attention grid,
    // and no BLEU on the pruning curve.
    bool decoderOnly() const { return layers_[0] == 0 && layers_[1] > 0; }
    Heatmap maps_[3];
    std::vector<QCPAbstractItem*> marks_;
    QCustomPlot* pruning_ = nullptr;
};

}  // namespace ui
}  // namespace as
