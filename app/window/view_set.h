// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The window's views: the fifteen of them in tabs grouped by question — Training (Loss,
// Learning rate, Health), Model (Model, Positional encoding, Embeddings, Masks and smoothing,
// Tokens),
// Attention (Attention, Head dynamics, Heads, Induction heads), Translation (Translate, Decoding, Samples) — so
// that every tab fits at 1280×800 in either language (the Attention tab with the probe bar
// above and the neuron panel below); Alt and a view's underlined letter shows it from anywhere, the Translate view's decoding service, the snapshot
// handed to every view, and the one list of what a new model clears. The views' own asks
// (neuron, embeddings, model copies) go to the worker through the link, and its answers back.
#include "train/run_series.h"
#include "train/snapshot.h"

#include <QElapsedTimer>
#include <QObject>

class QKeySequence;
class QShortcut;
class QTabWidget;
class QWidget;

namespace as {
class ProbeBar;
class TranslationService;
class WorkerLink;
namespace ui {
class LossView;
class LrView;
class PeView;
class AttentionView;
class TranslateView;
class MasksView;
class SamplesView;
class HeadsView;
class HeadDynamicsView;
class InductionView;
class HealthView;
class NeuronPanel;
class EmbeddingView;
class ModelView;
class DecodingView;
class TokensView;
}  // namespace ui

class ViewSet : public QObject {
    Q_OBJECT
public:
    // The views are children of `window`; tabs() is its central widget.
    ViewSet(WorkerLink* link, QWidget* window);
    // The texts it shows (actions, menus, tabs) in the language installed, again: from the
    // constructor and at MainWindow's QEvent::LanguageChange.
    void retranslate();

    // The groups' tabs (the window's central widget); each group a QTabWidget of its views.
    QTabWidget* tabs() const { return tabs_; }
    // Every view's page (the Attention view's is attentionPage()), in the order of their PNG
    // files (FileActions::saveViewPngs), and the name of that file ("loss", "learning-rate", …).
    QList<QWidget*> viewPages() const;
    QString fileName(QWidget* page) const;
    // Shows a view (or the page holding it): its group, then its tab.
    void showView(QWidget* view);
    // The page of the view shown.
    QWidget* currentView() const;
    // A view's name with its mnemonic marked ("&Loss", "损失(&L)"), in the language installed;
    // its tab shows it without the mark, Alt and the letter being a window-wide shortcut.
    QString viewTitle(QWidget* view) const;
    // The tab widget of the group that holds a view (or its page).
    QTabWidget* groupOf(QWidget* view) const;
    QWidget* attentionPage() const { return attentionPage_; }
    ProbeBar* probes() const { return probes_; }
    TranslationService* translation() const { return translation_; }  // decodes for translate()
    ui::LossView* loss() const { return loss_; }
    ui::LrView* lr() const { return lr_; }
    ui::PeView* pe() const { return pe_; }
    ui::AttentionView* attention() const { return attention_; }
    ui::TranslateView* translate() const { return translate_; }
    ui::MasksView* masks() const { return masks_; }
    ui::SamplesView* samples() const { return samples_; }
    ui::HeadsView* heads() const { return heads_; }
    ui::HeadDynamicsView* dynamics() const { return dynamics_; }
    ui::InductionView* induction() const { return induction_; }
    ui::HealthView* health() const { return health_; }
    ui::NeuronPanel* neuron() const { return neuron_; }
    ui::EmbeddingView* embedding() const { return embedding_; }
    ui::ModelView* model() const { return model_; }
    ui::DecodingView* decoding() const { return decoding_; }
    ui::TokensView* tokens() const { return tokens_; }

    // A new model (settings applied, or a snapshot that replaces the history): every view that
    // shows the one before is cleared, then cleared() tells the rest.
    void reset();
    // A snapshot to every view.
    void applySnapshot(const TrainingSnapshot& s);
    // The runs drawn beside the current one, to every plot that draws them.
    void setComparedRuns(const RunSeriesList& runs);

signals:
    void cleared();
    // Another view is shown (its page: currentView()).
    void currentViewChanged(QWidget* page);

private:
    // The one table of the views: page, PNG file (number and name), group; in the order of
    // the tabs.
    struct Entry {
        QWidget* page;
        int fileNumber;
        const char* fileName;
        QTabWidget* group;
        QShortcut* mnemonic;  // Alt+letter, from anywhere in the window
        QString title;        // "&Loss", in the language installed
    };
    const Entry* entryOf(QWidget* view) const;
    // The view after the one shown (in the tabs' order) whose mnemonic is `key`.
    void showNextOf(const QKeySequence& key);
    std::vector<Entry> entries_;
    QTabWidget* groups_[4] = {nullptr, nullptr, nullptr, nullptr};
    QTabWidget* tabs_ = nullptr;
    QWidget* attentionPage_ = nullptr;
    ProbeBar* probes_ = nullptr;
    TranslationService* translation_ = nullptr;
    ui::LossView* loss_ = nullptr;
    ui::LrView* lr_ = nullptr;
    ui::PeView* pe_ = nullptr;
    ui::AttentionView* attention_ = nullptr;
    ui::TranslateView* translate_ = nullptr;
    ui::MasksView* masks_ = nullptr;
    ui::SamplesView* samples_ = nullptr;
    ui::HeadsView* heads_ = nullptr;
    ui::HeadDynamicsView* dynamics_ = nullptr;
    ui::InductionView* induction_ = nullptr;
    ui::HealthView* health_ = nullptr;
    ui::NeuronPanel* neuron_ = nullptr;
    ui::EmbeddingView* embedding_ = nullptr;
    ui::ModelView* model_ = nullptr;
    ui::DecodingView* decoding_ = nullptr;
    ui::TokensView* tokens_ = nullptr;
    QElapsedTimer neuronClock_;
    QElapsedTimer embeddingClock_;  // the projection follows the weights at most this often
    long step_ = 0;                 // of the last snapshot shown
};

}  // namespace as
