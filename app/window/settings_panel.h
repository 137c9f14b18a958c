// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The training settings form: task, model (weight tying included), schedule, batch, seed, shared
// vocabulary, planned steps and minutes.
#include "training_worker.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QSpinBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;

namespace as {

class SettingsPanel : public QWidget {
    Q_OBJECT
public:
    explicit SettingsPanel(QWidget* parent = nullptr);
    SessionSettings settings() const;
    void setSettings(const SessionSettings& s);
    // A model opened to look inside (SessionSettings::inspecting): the form shows its own
    // configuration, and for the training fields (never in a model file) the recipe of the task
    // its file records having been trained on (SessionSettings::recordedTask), or, when it
    // records none, of the form's task; a note under the form says which (note()). Apply then
    // trains that task as its recipe does, validations included. setSettings clears the note.
    void showOpenedModel(const SessionSettings& opened);
    // The note showOpenedModel left, in the language installed; empty otherwise.
    QString note() const;
    // Empty when the form describes a model that can be built; otherwise why not.
    QString problem() const;
    // A user's corpus, read once: offered in the task list (under its name) after the
    // built-in tasks, replacing the one offered before.
    void setUserCorpus(std::shared_ptr<const SessionData> corpus, const CorpusSource& source);
    // As the A/B dialog shows it: the data, seed and plan are the current session's (shown,
    // not editable; a bundled corpus's tokenisers stay B's to choose), no Apply button.
    void setComparisonMode(bool on);

signals:
    void applyClicked(as::SessionSettings settings);

protected:
    // QEvent::LanguageChange: the labels and tooltips again (retranslate).
    void changeEvent(QEvent* event) override;

private:
    // Every label, tooltip and item text, in the language installed.
    void retranslate();
    // Why the form's model cannot be built (shown under the form; Apply disabled), or nothing.
    void check();
    // The recipe's step count of the form's task (SessionSettings::defaultsFor).
    long recipeSteps() const;
    // The steps field after the minutes changed: the plan's steps (plannedLimits) when the user
    // gave none — the recipe's without minutes, no limit with them.
    void followMinutes();

    QComboBox* task_;
    QComboBox* arch_ = nullptr;
    bool comparing_ = false;  // setComparisonMode: B's settings over A's data
    Arch arch() const;  // the architecture chosen
    QLabel* problem_ = nullptr;
    QLabel* note_ = nullptr;
    // What showOpenedModel showed: the recipe's task, and whether the model's file named it.
    QString openedRecipe_;
    // A fine-tuning run's model (its file or folder name) and the tokeniser it reads text with.
    QString fineTuned_, fineTunedTokenizer_, fineTunedText_;
    bool openedRecorded_ = false;
    QFormLayout* form_ = nullptr;
    QLabel *modelHeader_ = nullptr, *scheduleHeader_ = nullptr, *trainingHeader_ = nullptr;
    QPushButton* apply_ = nullptr;
    std::shared_ptr<const SessionData> corpus_;
    CorpusSource source_;
    // The tokenisers of the user's corpus session last shown (SessionSettings::srcTok, tgtTok:
    // none, or a side cut again, as a kept B of the Tokens view's A/B against BPE has): kept
    // by settings() for that corpus, which the form does not cut.
    std::optional<Tokenizer> corpusSrcTok_, corpusTgtTok_;
    QSpinBox *dModel_, *heads_, *dFf_, *encLayers_, *decLayers_, *warmup_, *batch_, *batchTokens_, *average_,
        *planned_, *evalEvery_;
    QDoubleSpinBox *dropout_, *smoothing_, *factor_, *clipNorm_, *minutes_;
    QComboBox* precision_ = nullptr;  // float32, bf16
    QComboBox *norm_, *tie_, *position_;
    QCheckBox* sharedVocab_;
    // The user set the planned steps (else the field shows what plannedLimits makes of the
    // minutes and the recipe: the plan is whichever limit the user gave, core/SPEC.md §7.4).
    bool stepsGiven_ = false;
    // A bundled corpus's tokenisers: guessed, cjk-char, word, BPE or unigram, and the pieces of
    // a BPE or unigram model (SessionSettings::srcTok, tgtTok). A user's corpus's are shown, not
    // chosen here.
    QComboBox *srcTok_, *tgtTok_;
    QSpinBox *srcPieces_, *tgtPieces_;
    std::optional<Tokenizer> tokenizerOf(const QComboBox* kind, const QSpinBox* pieces) const;
    void showTokenizer(const std::optional<Tokenizer>& t, QComboBox* kind, QSpinBox* pieces);
    // A model being fine-tuned cuts its text with its own tokeniser `t` into its vocabulary of
    // `size` entries: a last item of the row names it, chosen and fixed (null `t`: the item
    // goes, the five choices stay).
    void showModelTokenizer(const Tokenizer* t, int size, QComboBox* kind, QSpinBox* pieces);
    void enableTokenizers();
    QLineEdit* seed_;  // 64-bit: beyond a QSpinBox's int
};

}  // namespace as
