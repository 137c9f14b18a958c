#include "view_set.h"

#include "attention_view.h"
#include "decoding_view.h"
#include "embedding_view.h"
#include "head_dynamics_view.h"
#include "heads_view.h"
#include "health_view.h"
#include "loss_view.h"
#include "lr_view.h"
#include "masks_view.h"
#include "model_view.h"
#include "neuron_view.h"
#include "pe_view.h"
#include "probe_bar.h"
#include "samples_view.h"
#include "translate_view.h"
#include "translation_service.h"
#include "worker_link.h"

#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

namespace as {

ViewSet::ViewSet(WorkerLink* link, QWidget* window) : QObject(window)
{
    tabs_ = new QTabWidget(window);
    loss_ = new ui::LossView(window);
    lr_ = new ui::LrView(window);
    pe_ = new ui::PeView(window);
    attention_ = new ui::AttentionView(window);
    translate_ = new ui::TranslateView(window);
    translation_ = new TranslationService(window);
    connectTranslateView(translation_, translate_);
    masks_ = new ui::MasksView(window);
    samples_ = new ui::SamplesView(window);
    heads_ = new ui::HeadsView(window);
    health_ = new ui::HealthView(window);

    // The Attention tab: the probe bar, the heads, and below them the neuron view of one head
    // and query (collapsible: drag the handle).
    attentionPage_ = new QWidget(window);
    QWidget* page = attentionPage_;
    probes_ = new ProbeBar(page);
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(probes_);
    neuron_ = new ui::NeuronPanel(page);
    auto* split = new QSplitter(Qt::Vertical, page);
    split->addWidget(attention_);
    split->addWidget(neuron_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setCollapsible(1, true);
    split->setSizes({640, 220});
    neuronClock_.start();
    connect(tabs_, &QTabWidget::currentChanged, this, [this, page] {
        if (tabs_->currentWidget() == page && (!neuron_->record() || neuron_->record()->step != step_))
            neuron_->refresh();
    });
    layout->addWidget(split, 1);

    tabs_->addTab(loss_, QString());
    tabs_->addTab(lr_, QString());
    tabs_->addTab(pe_, QString());
    tabs_->addTab(page, QString());
    tabs_->addTab(translate_, QString());
    tabs_->addTab(samples_, QString());
    tabs_->addTab(masks_, QString());
    tabs_->addTab(heads_, QString());
    dynamics_ = new ui::HeadDynamicsView(window);
    tabs_->addTab(dynamics_, QString());
    // A cell of the head dynamics: that head at that step, in the Attention view's replay.
    connect(dynamics_, &ui::HeadDynamicsView::cellClicked, this, [this, page](const HeadId& id, long step) {
        attention_->setKind(id.kind);
        attention_->setLayer(id.layer);
        attention_->showStep(step);
        attention_->enlargeHead(id.head);
        tabs_->setCurrentWidget(page);
    });
    tabs_->addTab(health_, QString());
    embedding_ = new ui::EmbeddingView(window);
    tabs_->addTab(embedding_, QString());
    // The Model tab: the architecture, and the probe's numbers behind each block, traced by the
    // worker while the tab is shown (the trace costs a forward pass per snapshot).
    model_ = new ui::ModelView(window);
    tabs_->addTab(model_, QString());
    connect(tabs_, &QTabWidget::currentChanged, this, [this, link] {
        link->setTraceWanted(tabs_->currentWidget() == model_);
    });
    connect(model_, &ui::ModelView::attentionRequested, this, [this](const HeadId& id) {
        attention_->setKind(id.kind);
        attention_->setLayer(id.layer);
        attention_->enlargeHead(id.head);
        tabs_->setCurrentWidget(attentionPage_);
    });
    decoding_ = new ui::DecodingView(window);
    tabs_->addTab(decoding_, QString());

    // What the views ask the worker for, and its answers.
    connect(neuron_, &ui::NeuronPanel::neuronRequested, link, &WorkerLink::requestNeuron);
    connect(link, &WorkerLink::neuronReady, neuron_, &ui::NeuronPanel::setRecord);
    // The Embeddings view asks again for new weights (applySnapshot) while it is shown, and
    // when it is shown.
    connect(embedding_, &ui::EmbeddingView::embeddingRequested, link, &WorkerLink::requestEmbedding);
    connect(embedding_, &ui::EmbeddingView::neighboursRequested, link, &WorkerLink::requestNeighbours);
    connect(link, &WorkerLink::embeddingReady, embedding_, &ui::EmbeddingView::setRecord);
    connect(link, &WorkerLink::neighboursReady, embedding_, &ui::EmbeddingView::setNeighbours);
    embeddingClock_.start();
    connect(tabs_, &QTabWidget::currentChanged, this, [this] {
        if (tabs_->currentWidget() == embedding_ && (!embedding_->record() || embedding_->record()->step != step_)) {
            embeddingClock_.start();
            embedding_->refresh();
        }
    });
    // The Decoding view's record follows the weights and the probe while its tab is shown
    // (the worker computes it with the snapshots).
    connect(link, &WorkerLink::decodingReady, decoding_, &ui::DecodingView::setRecord);
    connect(tabs_, &QTabWidget::currentChanged, this, [this, link] {
        link->setDecodingWanted(tabs_->currentWidget() == decoding_);
    });
    connect(link, &WorkerLink::modelCopyReady, translation_, &TranslationService::setModel);
    connect(translation_, &TranslationService::modelWanted, link, &WorkerLink::requestModelCopy);
    retranslate();
}

void ViewSet::retranslate()
{
    const std::pair<QWidget*, QString> names[] = {
        {loss_, tr("&Loss")},
        {lr_, tr("Learning &rate")},
        {pe_, tr("&Positional encoding")},
        {attentionPage_, tr("&Attention")},
        {translate_, tr("&Translate")},
        {samples_, tr("Sa&mples")},
        {masks_, tr("&Masks and smoothing")},
        {heads_, tr("&Heads")},
        {dynamics_, tr("Head d&ynamics")},
        {health_, tr("H&ealth")},
        {embedding_, tr("Em&beddings")},
        {model_, tr("M&odel")},
        {decoding_, tr("&Decoding")},
    };
    for (const auto& [view, name] : names)
        tabs_->setTabText(tabs_->indexOf(view), name);
}

void ViewSet::reset()
{
    // The one list of what shows a model's past.
    step_ = 0;
    loss_->reset();
    lr_->reset();
    attention_->reset();
    dynamics_->reset();
    samples_->reset();
    embedding_->reset();
    decoding_->reset();
    heads_->reset();
    model_->reset();
    emit cleared();
}

void ViewSet::applySnapshot(const TrainingSnapshot& s)
{
    if (s.replacesHistory) {
        reset();  // another model
        for (const auto& record : s.attentionHistory) {
            attention_->addRecord(record);
            dynamics_->addRecord(record);
        }
    }
    // The embedding space follows the weights while its tab is shown: a projection costs
    // the worker a few tens of milliseconds on zh-en (README), so at most every 1.5 s.
    if (embedding_->isVisible()
        && (s.replacesHistory
            || (embeddingClock_.elapsed() > 1500 && (!embedding_->record() || embedding_->record()->step != s.step)))) {
        embeddingClock_.start();
        embedding_->refresh();
    }
    heads_->setShape(s.config.encoder_layers, s.config.decoder_layers, s.config.heads);
    neuron_->setShape(s.config.encoder_layers, s.config.decoder_layers, s.config.heads);
    // The neuron view follows the weights while the Attention tab is shown (once a second at
    // most), and is filled as soon as there is a probe.
    if (s.attention && neuron_->isVisible()
        && (!neuron_->record() || (neuron_->record()->step != s.step && neuronClock_.elapsed() > 1000))) {
        neuronClock_.start();
        neuron_->refresh();
    }
    step_ = s.step;
    loss_->applySnapshot(s);
    lr_->applySnapshot(s);
    pe_->applySnapshot(s);
    attention_->applySnapshot(s);
    dynamics_->applySnapshot(s);
    masks_->applySnapshot(s);
    samples_->applySnapshot(s);
    health_->applySnapshot(s);
    model_->applySnapshot(s);
}

void ViewSet::setComparedRuns(const RunSeriesList& runs)
{
    loss_->setComparedRuns(runs);
    lr_->setComparedRuns(runs);
}

}  // namespace as
