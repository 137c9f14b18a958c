#pragma once
// The window's views: the thirteen of them in their tabs (the Attention tab with the probe bar
// above and the neuron panel below), the Translate view's decoding service, the snapshot
// handed to every view, and the one list of what a new model clears. The views' own asks
// (neuron, embeddings, model copies) go to the worker through the link, and its answers back.
#include "train/run_series.h"
#include "train/snapshot.h"

#include <QElapsedTimer>
#include <QObject>

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
class HealthView;
class NeuronPanel;
class EmbeddingView;
class ModelView;
class DecodingView;
}  // namespace ui

class ViewSet : public QObject {
    Q_OBJECT
public:
    // The views are children of `window`; tabs() is its central widget.
    ViewSet(WorkerLink* link, QWidget* window);
    // The texts it shows (actions, menus, tabs) in the language installed, again: from the
    // constructor and at MainWindow's QEvent::LanguageChange.
    void retranslate();

    QTabWidget* tabs() const { return tabs_; }
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
    ui::HealthView* health() const { return health_; }
    ui::NeuronPanel* neuron() const { return neuron_; }
    ui::EmbeddingView* embedding() const { return embedding_; }
    ui::ModelView* model() const { return model_; }
    ui::DecodingView* decoding() const { return decoding_; }

    // A new model (settings applied, or a snapshot that replaces the history): every view that
    // shows the one before is cleared, then cleared() tells the rest.
    void reset();
    // A snapshot to every view.
    void applySnapshot(const TrainingSnapshot& s);
    // The runs drawn beside the current one, to every plot that draws them.
    void setComparedRuns(const RunSeriesList& runs);

signals:
    void cleared();

private:
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
    ui::HealthView* health_ = nullptr;
    ui::NeuronPanel* neuron_ = nullptr;
    ui::EmbeddingView* embedding_ = nullptr;
    ui::ModelView* model_ = nullptr;
    ui::DecodingView* decoding_ = nullptr;
    QElapsedTimer neuronClock_;
    QElapsedTimer embeddingClock_;  // the projection follows the weights at most this often
    long step_ = 0;                 // of the last snapshot shown
};

}  // namespace as
