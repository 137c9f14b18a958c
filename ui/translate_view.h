// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// "Translate": type a sentence, choose greedy or beam search, and read what came back: the
// translation, the n-best list, the cross-attention of the best output over the source, and
// the top-5 next-token probabilities of every step. The view never holds or runs a model: it
// asks (translationRequested) and is answered with TranslationRecords, values made off the GUI
// thread by whoever it is connected to (app/window/translation_service.h).
#include "decode/translation_record.h"
#include "plot_tools.h"

#include <QList>
#include <QPair>
#include <QWidget>

#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QSplitter;
class QTabWidget;

namespace as::ui {

class BeamTreeView;
class CrossAttentionPanel;
class SamplingControls;

class TranslateView : public QWidget {
    Q_OBJECT
public:
    static constexpr int kMaxInputChars = 1000;  // longer input is cut, with a notice
    static constexpr int kMaxBeam = 16;          // the widest beam (and longest n-best) offered

    explicit TranslateView(QWidget* parent = nullptr);

    // The decoding controls: greedy, or beam search of width k (1–kMaxBeam) listing nbest (≤ k).
    void setDecoding(bool beam, int k, int nbest);

    // A decoder-only model (core/SPEC.md §2.10): the view is Generate — a prompt in, its
    // continuation out, with the self-attention behind each generated token; no attributions,
    // contrast or beam tree.
    void setGenerating(bool on);
    bool generating() const { return generating_; }
    // Sampling's controls (method "Sampling", ui/sampling_controls.h) set to these, and chosen.
    void setSampling(const SamplingOptions& options);

    // Puts text in the line edit and translates it (as the button does).
    void translate(const QString& text);
    QString inputText() const;  // what the line edit holds

    // The answers to translationRequested(), in the GUI thread. On the way (busy stays):
    void showProgress(const QString& text);
    // The answer, one of the two: nothing to translate with, or a record (an error in it is
    // shown as it is; else the translation, and translationFinished()).
    void showRefusal(const QString& message);
    void showRecord(as::TranslationRecordPtr record);

    // Read-outs of the last finished translation.
    TranslationRecordPtr lastRecord() const { return last_; }
    QString lastTranslation() const { return lastTranslation_; }
    QLabel* sourceChips() const { return chips_; }  // "Source tokens:" and a chip per token
    QStringList lastSourceTokens() const { return last_ ? last_->sourceTokens : QStringList(); }
    QStringList unknownTokens() const;  // each distinct unknown token once
    int nbestRows() const;
    QSize crossAttentionShape() const;  // width = source tokens, height = output steps
    // What the grid explains the output by: 0 the cross-attention (per layer and head), else
    // the record's attributions: 1 attention (last layer, mean of heads), 2 rollout,
    // 3 gradient × input, 4 integrated gradients. Choosing one of those translates again with
    // attributions when the record has none.
    void setExplanation(int index);
    int explanation() const;
    double gridCell(int row, int col) const;  // the value drawn, NaN outside
    // What the grid's export button writes: a header row of its columns' tokens, then a row
    // per output token.
    QString crossCsv() const;
    QString attributionInfo() const;          // completeness and agreement, as shown
    // Step t (0-based; the step that produced output token t, or </s>): the five likeliest next
    // tokens, most likely first.
    QList<QPair<QString, double>> topFive(int step) const;
    int topFiveSteps() const { return last_ ? int(last_->topFive.size()) : 0; }
    QString message() const { return message_; }  // the status lines as plain text
    // "Why this token and not that one?": translates again, explaining output position
    // `position` (0-based) of the best translation against `alternative` (a target token;
    // core/SPEC.md §11.2). The choice stays for later translations of the same text.
    void explainContrast(int position, const QString& alternative);
    // What the contrast plot shows: its bars per source token, method 0 gradient × input,
    // 1 integrated gradients (empty when nothing is explained), and its title.
    std::vector<double> contrastBars(int method) const;
    QString contrastTitle() const;
    // Beside the cross-attention, a tab with beam search's tree of the last translation
    // (ui/beam_tree_view.h; empty after a greedy one). showBeamTree() brings that tab forward
    // and gives that side two thirds of the width (the tree is wide).
    BeamTreeView* beamTreeView() const { return beamTree_; }
    void showBeamTree();
    // A request is out and its answer has not come.
    bool isBusy() const { return awaiting_; }

    // Side by side: another translator beside this one (named `name`, e.g. "opus-mt-zh-en";
    // empty: none). A tab beside the cross-attention shows both translations of the same
    // sentence with their cross-attention maps (ui/cross_attention_panel.h), this model's on
    // the left. Every translation asks the other one too (besideRequested) with the same
    // decoding, without attributions or masked heads; it is answered through the
    // showBeside*() functions. Setting it translates the last sentence again beside.
    void setBeside(const QString& name);
    QString besideName() const { return besideName_; }
    void showBesideProgress(const QString& text);
    void showBesideRefusal(const QString& message);
    void showBesideRecord(as::TranslationRecordPtr record);
    CrossAttentionPanel* sideA() const { return sideA_; }  // this model's
    CrossAttentionPanel* sideB() const { return sideB_; }  // the other's
    // Brings the side-by-side tab forward and gives that side two thirds of the width.
    void showSideBySide();
    bool hasSideBySide() const;  // its tab is there (a translator beside a translator)

signals:
    // The text (cut to kMaxInputChars) and the decoding options; answered through the show*()
    // functions above.
    void translationRequested(const QString& text, const as::TranslationOptions& options);
    void translationFinished(const QString& detokenised);
    // The same sentence for the translator beside (setBeside), with the same decoding.
    void besideRequested(const QString& text, const as::TranslationOptions& options);

protected:
    // QEvent::LanguageChange: retranslate().
    void changeEvent(QEvent* event) override;

private:
    // Its titles, axis labels, legend names, controls and tooltips in the language installed,
    // set in one place: from the constructor and at every language change.
    void retranslate();
    void showIntro();         // the hint shown before the first translation
    void nameCrossChoices();  // the layer and head choices: "layer 2", "mean of heads", …
    // What a translation shows: the output, source chips and status line; the n-best and
    // top-5 tables.
    void summarize(const TranslationRecord& r);
    void fillTables(const TranslationRecord& r);
    QLabel *decodingLabel_ = nullptr, *beamLabel_ = nullptr, *nbestLabel_ = nullptr,
           *explainLabel_ = nullptr, *crossLabel_ = nullptr, *nbestTitle_ = nullptr,
           *topTitle_ = nullptr;
    bool introShown_ = false;
    void onTranslateClicked();
    void drawCross();
    bool keysShown() const;
    QString crossAxisLabel() const;
    void setMessage(const QString& text, bool warning);
    void setMessage(const QStringList& info, const QStringList& warnings);  // lines; warnings red
    void showSourceChips(const TranslationRecord& r);
    void fillContrastChoices();   // positions and alternatives of the last record
    void drawContrast();

    bool awaiting_ = false;
    bool generating_ = false;
    QWidget* contrastBox_ = nullptr;
    SamplingControls* sampling_ = nullptr;
    QString notice_;  // about the request out, e.g. the input was cut

    TranslationRecordPtr last_;  // the last record with a translation
    QString lastTranslation_, message_;

    QLineEdit* input_ = nullptr;
    QPushButton* go_ = nullptr;
    QComboBox* method_ = nullptr;
    QSpinBox* beam_ = nullptr;
    QSpinBox* nbest_ = nullptr;
    QLabel* status_ = nullptr;
    QLabel* chips_ = nullptr;
    QLabel* output_ = nullptr;
    QTableWidget* nbestTable_ = nullptr;
    QTableWidget* topTable_ = nullptr;
    QComboBox* crossLayer_ = nullptr;
    QComboBox* crossHead_ = nullptr;
    QComboBox* explain_ = nullptr;
    QLabel* attributionInfo_ = nullptr;
    QCustomPlot* crossPlot_ = nullptr;
    Heatmap crossHeat_;
    QSplitter* body_ = nullptr;        // the tables, the tabs
    QTabWidget* rightTabs_ = nullptr;  // the cross-attention, the beam tree, side by side
    BeamTreeView* beamTree_ = nullptr;
    // Side by side: the other translator's name, the two panels, and the last sentence and
    // decoding asked of it (a new explanation of this model's translation asks nothing).
    void requestBeside(const QString& text, const TranslationOptions& options);
    void titleSideA();
    QString besideName_, besideAsked_;
    QWidget* sideBySide_ = nullptr;
    CrossAttentionPanel *sideA_ = nullptr, *sideB_ = nullptr;
    // The contrast: the choice asked for (position -1: none), its controls and plot.
    int contrastPosition_ = -1;
    QString contrastToken_;
    QLabel *whyLabel_ = nullptr, *andNotLabel_ = nullptr;
    QComboBox* contrastPositionBox_ = nullptr;
    QComboBox* contrastTokenBox_ = nullptr;
    QPushButton* contrastGo_ = nullptr;
    QCustomPlot* contrastPlot_ = nullptr;
    QCPTextElement* contrastTitle_ = nullptr;
    QCPBars* contrastBars_[2] = {nullptr, nullptr};
};

}  // namespace as::ui
