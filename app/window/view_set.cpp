// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "view_set.h"

#include "attention_view.h"
#include "decoding_view.h"
#include "embedding_view.h"
#include "head_dynamics_view.h"
#include "heads_view.h"
#include "health_view.h"
#include "induction_view.h"
#include "loss_view.h"
#include "lr_view.h"
#include "masks_view.h"
#include "model_view.h"
#include "neuron_view.h"
#include "pe_view.h"
#include "probe_bar.h"
#include "samples_view.h"
#include "tokens_view.h"
#include "translate_view.h"
#include "translation_service.h"
#include "worker_link.h"

#include <QKeySequence>
#include <QRegularExpression>
#include <QShortcut>
#include <QScrollArea>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>

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
    // The neuron view scrolls (vertically) when its pane is lower than it: the page, the heads
    // above it, fits a 1280×800 window.
    auto* neuronScroll = new QScrollArea(page);
    neuronScroll->setWidgetResizable(true);
    neuronScroll->setFrameShape(QFrame::NoFrame);
    neuronScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    neuronScroll->setWidget(neuron_);
    split->addWidget(neuronScroll);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setCollapsible(1, true);
    split->setSizes({420, 240});
    neuronClock_.start();
    connect(this, &ViewSet::currentViewChanged, this, [this, page](QWidget* shown) {
        if (shown == page && (!neuron_->record() || neuron_->record()->step != step_))
            neuron_->refresh();
    });
    layout->addWidget(split, 1);

    dynamics_ = new ui::HeadDynamicsView(window);
    induction_ = new ui::InductionView(window);
    embedding_ = new ui::EmbeddingView(window);
    model_ = new ui::ModelView(window);
    decoding_ = new ui::DecodingView(window);
    tokens_ = new ui::TokensView(window);
    // The groups and their views, in the order of their tabs; the PNG files keep the numbers
    // and names they had when the views were thirteen tabs in a row (Tokens, added since, is 14;
    // Induction heads 15).
    for (QTabWidget*& g : groups_) {
        g = new QTabWidget(window);
        g->setDocumentMode(true);
        tabs_->addTab(g, QString());
    }
    const auto add = [this, window](QWidget* view, int number, const char* file, int group) {
        groups_[group]->addTab(view, QString());
        auto* key = new QShortcut(window);
        connect(key, &QShortcut::activated, this, [this, view] { showView(view); });
        // Views of one letter (Sa&mples, &Masks…): each press shows the next of them.
        connect(key, &QShortcut::activatedAmbiguously, this, [this, key] { showNextOf(key->key()); });
        entries_.push_back({view, number, file, groups_[group], key, {}});
    };
    add(loss_, 1, "loss", 0);
    add(lr_, 2, "learning-rate", 0);
    add(health_, 10, "health", 0);
    add(model_, 12, "model", 1);
    add(pe_, 3, "positional-encoding", 1);
    add(embedding_, 11, "embeddings", 1);
    add(masks_, 7, "masks-and-smoothing", 1);
    add(tokens_, 14, "tokens", 1);
    add(page, 4, "attention", 2);
    add(dynamics_, 9, "head-dynamics", 2);
    add(heads_, 8, "heads", 2);
    add(induction_, 15, "induction-heads", 2);
    add(translate_, 5, "translate", 3);
    add(decoding_, 13, "decoding", 3);
    add(samples_, 6, "samples", 3);
    const auto changed = [this] { emit currentViewChanged(currentView()); };
    connect(tabs_, &QTabWidget::currentChanged, this, changed);
    for (QTabWidget* g : groups_)
        connect(g, &QTabWidget::currentChanged, this, [this, g, changed] {
            if (tabs_->currentWidget() == g)
                changed();
        });
    // A cell of the head dynamics: that head at that step, in the Attention view's replay.
    connect(dynamics_, &ui::HeadDynamicsView::cellClicked, this, [this, page](const HeadId& id, long step) {
        attention_->setKind(id.kind);
        attention_->setLayer(id.layer);
        attention_->showStep(step);
        attention_->enlargeHead(id.head);
        showView(page);
    });
    // A head of the induction map: that head, at the step of the record shown, in Attention.
    connect(induction_, &ui::InductionView::headClicked, this, [this, page](const HeadId& id, long step) {
        attention_->setKind(id.kind);
        attention_->setLayer(id.layer);
        attention_->showStep(step);
        attention_->enlargeHead(id.head);
        showView(page);
    });
    // The phase change, found in the induction records (the one place), marked on the loss.
    connect(induction_, &ui::InductionView::phaseChangeChanged, loss_, &ui::LossView::setPhaseChange);
    // The Model tab: the architecture, and the probe's numbers behind each block, traced by the
    // worker while the tab is shown (the trace costs a forward pass per snapshot).
    connect(this, &ViewSet::currentViewChanged, this, [this, link](QWidget* shown) {
        link->setTraceWanted(shown == model_);
    });
    connect(model_, &ui::ModelView::attentionRequested, this, [this](const HeadId& id) {
        attention_->setKind(id.kind);
        attention_->setLayer(id.layer);
        attention_->enlargeHead(id.head);
        if (!model_->isLive())  // the step replayed there too
            attention_->showStep(model_->shownStep());
        showView(attentionPage_);
    });
    // The computation panel follows the Attention view's replay (issue 25 §2).
    connect(attention_, &ui::AttentionView::replayMoved, model_, [this](long step, bool live) {
        if (live)
            model_->showLive();
        else
            model_->showStep(step);
    });

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
    connect(this, &ViewSet::currentViewChanged, this, [this](QWidget* shown) {
        if (shown == embedding_ && (!embedding_->record() || embedding_->record()->step != step_)) {
            embeddingClock_.start();
            embedding_->refresh();
        }
    });
    // The Decoding view's record follows the weights and the probe while its tab is shown
    // (the worker computes it with the snapshots).
    connect(link, &WorkerLink::decodingReady, decoding_, &ui::DecodingView::setRecord);
    connect(decoding_, &ui::DecodingView::samplingChanged, link,
            [this, link] { link->setDecodingSampling(decoding_->sampling()); });
    connect(this, &ViewSet::currentViewChanged, this, [this, link](QWidget* shown) {
        link->setDecodingWanted(shown == decoding_);
    });
    connect(link, &WorkerLink::modelCopyReady, translation_, &TranslationService::setModel);
    connect(translation_, &TranslationService::modelWanted, link, &WorkerLink::requestModelCopy);
    retranslate();
}

void ViewSet::retranslate()
{
    // A decoder-only model (core/SPEC.md §2.10) generates: Translate is Generate.
    const bool generating = translate_->generating();
    const QString groups[] = {tr("Training"), tr("Model"), tr("Attention"),
                              generating ? tr("Generation") : tr("Translation")};
    for (int i = 0; i < 4; ++i)
        tabs_->setTabText(i, groups[i]);
    const std::pair<QWidget*, QString> names[] = {
        {loss_, tr("&Loss")},
        {lr_, tr("Learning &rate")},
        {pe_, tr("&Positional encoding")},
        {attentionPage_, tr("&Attention")},
        {translate_, generating ? tr("&Generate") : tr("&Translate")},
        {samples_, tr("Sa&mples")},
        {masks_, tr("&Masks and smoothing")},
        {heads_, tr("&Heads")},
        {dynamics_, tr("Head d&ynamics")},
        {induction_, tr("&Induction heads")},
        {health_, tr("H&ealth")},
        {embedding_, tr("Em&beddings")},
        {model_, tr("M&odel")},
        {decoding_, tr("&Decoding")},
        {tokens_, tr("To&kens")},
    };
    for (const auto& [view, name] : names) {
        Entry* e = const_cast<Entry*>(entryOf(view));
        e->title = name;
        // The tab shows the name without its mnemonic: Alt+letter is this window-wide shortcut,
        // which reaches the view from any group (a tab bar's own would act only while its group
        // is shown, and beside this one would be ambiguous).
        const QKeySequence key = QKeySequence::mnemonic(name);
        e->mnemonic->setKey(key);
        QString shown = name;
        shown.remove(QRegularExpression(QStringLiteral("\\s*\\(&[^&]\\)")));  // "损失(&L)"
        shown.replace(QRegularExpression(QStringLiteral("&(.)")), QStringLiteral("\\1"));
        const int index = e->group->indexOf(view);
        e->group->setTabText(index, shown);
        e->group->setTabToolTip(index, key.toString(QKeySequence::NativeText));
        // What Help > Keyboard shortcuts lists for the key.
        e->mnemonic->setWhatsThis(tr("Show %1").arg(shown));
    }
}

const ViewSet::Entry* ViewSet::entryOf(QWidget* view) const
{
    for (const Entry& e : entries_)
        if (e.page == view || (view && e.page->isAncestorOf(view)))
            return &e;
    return nullptr;
}

QList<QWidget*> ViewSet::viewPages() const
{
    std::vector<Entry> byFile = entries_;
    std::sort(byFile.begin(), byFile.end(), [](const Entry& a, const Entry& b) { return a.fileNumber < b.fileNumber; });
    QList<QWidget*> pages;
    for (const Entry& e : byFile)
        pages << e.page;
    return pages;
}

QString ViewSet::fileName(QWidget* page) const
{
    const Entry* e = entryOf(page);
    return e ? QString::fromLatin1(e->fileName) : QString();
}

void ViewSet::showView(QWidget* view)
{
    const Entry* e = entryOf(view);
    if (!e)
        return;
    e->group->setCurrentWidget(e->page);
    tabs_->setCurrentWidget(e->group);
}

QWidget* ViewSet::currentView() const
{
    auto* group = qobject_cast<QTabWidget*>(tabs_->currentWidget());
    return group ? group->currentWidget() : nullptr;
}

QString ViewSet::viewTitle(QWidget* view) const
{
    const Entry* e = entryOf(view);
    return e ? e->title : QString();
}

void ViewSet::showNextOf(const QKeySequence& key)
{
    const Entry* current = entryOf(currentView());
    const std::size_t n = entries_.size();
    const std::size_t from = current ? std::size_t(current - entries_.data()) : n - 1;
    for (std::size_t i = 1; i <= n; ++i) {
        const Entry& e = entries_[(from + i) % n];
        if (e.mnemonic->key() == key) {
            showView(e.page);
            return;
        }
    }
}

QTabWidget* ViewSet::groupOf(QWidget* view) const
{
    const Entry* e = entryOf(view);
    return e ? e->group : nullptr;
}

void ViewSet::reset()
{
    // The one list of what shows a model's past.
    step_ = 0;
    loss_->reset();
    lr_->reset();
    attention_->reset();
    dynamics_->reset();
    induction_->reset();
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
        for (const auto& record : s.inductionHistory)
            induction_->addRecord(record);
    }
    embedding_->setHasSource(!s.config.decoderOnly());
    if (translate_->generating() != s.config.decoderOnly()) {
        translate_->setGenerating(s.config.decoderOnly());
        retranslate();  // the tab's name
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
    induction_->applySnapshot(s);
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
