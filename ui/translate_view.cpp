// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "translate_view.h"
#include "sampling_controls.h"

#include "beam_tree_view.h"
#include "cross_attention_panel.h"
#include "plot_tools.h"

#include <QEvent>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMetaMethod>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace as::ui {

namespace {

QString csvField(const QString& s)
{
    if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"'))
        && !s.contains(QLatin1Char('\n')))
        return s;
    QString q = s;
    q.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + q + QLatin1Char('"');
}

QTableWidgetItem* cell(const QString& text, Qt::Alignment align = Qt::AlignLeft | Qt::AlignVCenter)
{
    auto* item = new QTableWidgetItem(text);
    item->setTextAlignment(align);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    return item;
}

QTableWidget* makeTable(int columns, QWidget* parent)
{
    auto* t = new QTableWidget(0, columns, parent);
    t->verticalHeader()->setVisible(false);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->setAlternatingRowColors(false);
    t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 6);
    return t;
}

}  // namespace

TranslateView::TranslateView(QWidget* parent) : QWidget(parent)
{
    input_ = new QLineEdit(this);
    input_->setClearButtonEnabled(true);
    input_->setFont(pointFont(12));
    go_ = new QPushButton(this);
    go_->setDefault(true);
    auto* top = new QHBoxLayout;
    top->addWidget(input_, 1);
    top->addWidget(go_);

    method_ = new QComboBox(this);
    method_->addItems({QString(), QString(), QString()});  // greedy, beam search, sampling
    beam_ = new QSpinBox(this);
    beam_->setRange(1, kMaxBeam);
    beam_->setValue(4);
    nbest_ = new QSpinBox(this);
    nbest_->setRange(1, kMaxBeam);
    nbest_->setValue(4);
    // Sampling (core/SPEC.md §5.6): temperature, top-k, top-p and a seed that repeats a sample.
    sampling_ = new SamplingControls(this);
    auto* options = new QHBoxLayout;
    decodingLabel_ = new QLabel(this);
    beamLabel_ = new QLabel(this);
    nbestLabel_ = new QLabel(this);
    options->addWidget(decodingLabel_);
    options->addWidget(method_);
    options->addSpacing(12);
    options->addWidget(beamLabel_);
    options->addWidget(beam_);
    options->addWidget(nbestLabel_);
    options->addWidget(nbest_);
    options->addWidget(sampling_, 3);
    options->addStretch(1);
    auto syncOptions = [this] {
        const bool beam = method_->currentIndex() == 1;
        const bool sampling = method_->currentIndex() == 2;
        for (QWidget* w : std::initializer_list<QWidget*>{beamLabel_, beam_, nbestLabel_, nbest_})
            w->setVisible(!sampling);
        beam_->setEnabled(beam);
        nbest_->setEnabled(beam);
        nbest_->setMaximum(beam_->value());
        sampling_->setVisible(sampling);
    };
    connect(method_, &QComboBox::currentIndexChanged, this, syncOptions);
    connect(beam_, &QSpinBox::valueChanged, this, syncOptions);
    syncOptions();

    chips_ = new QLabel(this);
    chips_->setTextFormat(Qt::RichText);
    chips_->setWordWrap(true);
    chips_->setFont(pointFont(11));
    status_ = new QLabel(this);
    status_->setTextFormat(Qt::RichText);  // warnings in red; tokens are escaped
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    output_ = new QLabel(this);
    output_->setFont(pointFont(15, true));
    output_->setWordWrap(true);
    output_->setTextFormat(Qt::PlainText);  // an output may contain <unk>
    output_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    output_->setMinimumHeight(output_->fontMetrics().height() + 8);

    nbestTable_ = makeTable(5, this);  // #, translation, score, log p, ends
    nbestTable_->setObjectName(QStringLiteral("nbestList"));
    // The translation takes the width the rank, scores and end leave: those are as wide as
    // their contents (else each keeps the default 100 px, and the translation is squeezed to
    // a few letters in a narrow window).
    nbestTable_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    nbestTable_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    topTable_ = makeTable(3, this);  // step, next token, p
    topTable_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    topTable_->setWordWrap(false);

    // As wide as their items, always: in a narrow panel the label beside them wraps instead
    // (the head's choice read "mean of hea" at the window's default size).
    crossLayer_ = new QComboBox(this);
    crossLayer_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    crossLayer_->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    crossHead_ = new QComboBox(this);
    crossHead_->setObjectName(QStringLiteral("crossHead"));
    crossHead_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    crossHead_->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    explain_ = new QComboBox(this);
    for (int i = 0; i < 5; ++i)  // cross-attention, then the four attributions
        explain_->addItem(QString());
    attributionInfo_ = new QLabel(this);
    attributionInfo_->setWordWrap(true);
    attributionInfo_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    crossPlot_ = new QCustomPlot(this);
    crossPlot_->setObjectName(QStringLiteral("crossAttention"));
    crossPlot_->setMinimumSize(320, 260);
    crossHeat_ = makeHeatmap(crossPlot_, true, sequentialGradient());
    crossHeat_.scale->setBarWidth(12);
    styleTokenAxes(crossPlot_, 10);
    enableHoverReadout(crossPlot_, [this](QCustomPlot*, QPoint p) {
        int r = 0, c = 0;
        if (!last_)
            return QString();
        auto unknown = [this](int column) {
            return last_->unknown.contains(column) ? tr(" (unknown: read as <unk>)") : QString();
        };
        if (!heatmapCellAt(crossHeat_, p, &r, &c)) {
            // Over the tick labels, which show only every k-th token when the tokens are many.
            if (!heatmapAxisTokenAt(crossHeat_, p, &r, &c))
                return QString();
            if (r >= 0)
                return tr("output %1 (step %2)").arg(last_->outputSteps.value(r)).arg(r + 1);
            if (keysShown())
                return tr("position %1: %2").arg(c).arg(last_->attentionKeys().value(c));
            if (last_->generated)
                return tr("prompt %1: %2%3").arg(c + 1).arg(last_->sourceTokens.value(c), unknown(c));
            return tr("source %1: %2%3").arg(c + 1).arg(last_->sourceTokens.value(c), unknown(c));
        }
        if (last_->generated && !keysShown())
            return tr("output %1 (step %2) → prompt %3%4\nscore %5")
                .arg(last_->outputSteps.value(r))
                .arg(r + 1)
                .arg(last_->sourceTokens.value(c), unknown(c))
                .arg(crossHeat_.map->data()->cell(c, r), 0, 'f', 3);
        if (last_->generated)
            return tr("output %1 (step %2) → position %3: %4\nweight %5")
                .arg(last_->outputSteps.value(r))
                .arg(r + 1)
                .arg(c)
                .arg(last_->attentionKeys().value(c))
                .arg(crossHeat_.map->data()->cell(c, r), 0, 'f', 3);
        return CrossAttentionPanel::readout(*last_, r, c, crossHeat_.map->data()->cell(c, r));
    });
    auto* crossExport = makeExportButton(crossPlot_, [this] { return crossCsv(); }, this);
    auto* explainBar = new QHBoxLayout;
    explainLabel_ = new QLabel(this);
    crossLabel_ = new QLabel(this);
    crossLabel_->setWordWrap(true);
    explainBar->addWidget(explainLabel_);
    explainBar->addWidget(explain_);
    explainBar->addStretch(1);
    auto* crossBar = new QHBoxLayout;
    crossBar->addWidget(crossLabel_);
    crossBar->addStretch(1);
    crossBar->addWidget(crossLayer_);
    crossBar->addWidget(crossHead_);
    crossBar->addWidget(crossExport);
    auto* crossBox = new QWidget(this);
    auto* crossLayout = new QVBoxLayout(crossBox);
    crossLayout->setContentsMargins(0, 0, 0, 0);
    crossLayout->addLayout(crossBar);
    crossLayout->addLayout(explainBar);
    crossLayout->addWidget(crossPlot_, 1);
    crossLayout->addWidget(attributionInfo_);

    auto* tables = new QSplitter(Qt::Vertical, this);
    auto labelled = [this](QLabel*& title, QWidget* w) {
        auto* box = new QWidget(this);
        auto* l = new QVBoxLayout(box);
        l->setContentsMargins(0, 0, 0, 0);
        title = new QLabel(box);
        l->addWidget(title);
        l->addWidget(w, 1);
        return box;
    };
    tables->addWidget(labelled(nbestTitle_, nbestTable_));
    tables->addWidget(labelled(topTitle_, topTable_));
    // Why this token and not that one: a position of the best output, one of its other top-5
    // candidates, and the two gradient attributions of the difference of their log-probs.
    auto* contrastBox = contrastBox_ = new QWidget(this);
    auto* contrastLayout = new QVBoxLayout(contrastBox);
    contrastLayout->setContentsMargins(0, 0, 0, 0);
    auto* whyBar = new QHBoxLayout;
    whyLabel_ = new QLabel(contrastBox);
    andNotLabel_ = new QLabel(contrastBox);
    contrastPositionBox_ = new QComboBox(contrastBox);
    contrastTokenBox_ = new QComboBox(contrastBox);
    contrastTokenBox_->setEditable(true);  // any token of the vocabulary, not only the top 5
    contrastGo_ = new QPushButton(contrastBox);
    whyBar->addWidget(whyLabel_);
    whyBar->addWidget(contrastPositionBox_);
    whyBar->addWidget(andNotLabel_);
    whyBar->addWidget(contrastTokenBox_, 1);
    whyBar->addWidget(contrastGo_);
    contrastPlot_ = new QCustomPlot(contrastBox);
    contrastPlot_->setMinimumHeight(190);
    contrastTitle_ = addTitle(contrastPlot_, QString(), font());
    for (int m = 0; m < 2; ++m) {
        contrastBars_[m] = new QCPBars(contrastPlot_->xAxis, contrastPlot_->yAxis);
        contrastBars_[m]->setWidth(0.38);
        contrastBars_[m]->setPen(Qt::NoPen);
    }
    contrastBars_[0]->setBrush(Qt::black);
    contrastBars_[1]->setBrush(Qt::black);
    setSeriesColour(contrastBars_[0], 0);  // blue
    setSeriesColour(contrastBars_[1], 1);  // orange
    contrastPlot_->legend->setVisible(true);
    contrastPlot_->legend->setFont(pointFont(8));
    contrastPlot_->legend->setBrush(Qt::NoBrush);  // the bars stay visible behind it
    contrastPlot_->legend->setBorderPen(Qt::NoPen);
    contrastLayout->addLayout(whyBar);
    contrastLayout->addWidget(contrastPlot_, 1);
    tables->addWidget(contrastBox);
    tables->setStretchFactor(0, 1);
    tables->setStretchFactor(1, 2);
    tables->setStretchFactor(2, 2);
    connect(contrastPositionBox_, &QComboBox::currentIndexChanged, this, [this] {
        // The other top-5 candidates of that step.
        contrastTokenBox_->clear();
        const int t = contrastPositionBox_->currentIndex();
        if (!last_ || t < 0 || t >= int(last_->topFive.size()))
            return;
        const QString chosen = last_->nbest.front().tokens.value(t);
        for (const auto& [token, p] : last_->topFive[std::size_t(t)])
            if (token != chosen)
                contrastTokenBox_->addItem(token);
    });
    connect(contrastGo_, &QPushButton::clicked, this, [this] {
        explainContrast(contrastPositionBox_->currentIndex(), contrastTokenBox_->currentText().trimmed());
    });
    connect(input_, &QLineEdit::textEdited, this, [this] { contrastPosition_ = -1; });
    auto* body = body_ = new QSplitter(Qt::Horizontal, this);
    body->addWidget(tables);
    rightTabs_ = new QTabWidget(this);
    rightTabs_->addTab(crossBox, QString());
    beamTree_ = new BeamTreeView(this);
    rightTabs_->addTab(beamTree_, QString());
    sideBySide_ = new QWidget(this);
    auto* sides = new QHBoxLayout(sideBySide_);
    sideA_ = new CrossAttentionPanel(sideBySide_);
    sideA_->setObjectName(QStringLiteral("sideA"));
    sideB_ = new CrossAttentionPanel(sideBySide_);
    sideB_->setObjectName(QStringLiteral("sideB"));
    sides->addWidget(sideA_, 1);
    sides->addWidget(sideB_, 1);
    rightTabs_->addTab(sideBySide_, QString());
    rightTabs_->setTabVisible(2, false);
    body->addWidget(rightTabs_);
    body->setStretchFactor(0, 1);
    body->setStretchFactor(1, 1);
    body->setSizes({520, 640});

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addLayout(options);
    layout->addWidget(chips_);
    layout->addWidget(status_);
    layout->addWidget(output_);
    layout->addWidget(body, 1);

    connect(go_, &QPushButton::clicked, this, &TranslateView::onTranslateClicked);
    connect(input_, &QLineEdit::returnPressed, this, &TranslateView::onTranslateClicked);
    connect(crossLayer_, &QComboBox::currentIndexChanged, this, [this] { drawCross(); });
    connect(crossHead_, &QComboBox::currentIndexChanged, this, [this] { drawCross(); });
    connect(explain_, &QComboBox::currentIndexChanged, this, [this] {
        // The attributions cost a backward pass per step: asked for when first shown.
        if (explain_->currentIndex() > 0 && last_ && last_->attributions.empty() && !awaiting_)
            onTranslateClicked();
        drawCross();
    });
    retranslate();  // and draws the cross-attention: empty, the placeholder, no colour scale
    showIntro();
}

void TranslateView::retranslate()
{
    input_->setPlaceholderText(generating_ ? tr("Type the beginning of a text, e.g. I'd like")
                                           : tr("Type a sentence in the source language, e.g. 我有一个好朋友"));
    go_->setText(generating_ ? tr("Generate") : tr("Translate"));
    method_->setItemText(0, tr("Greedy"));
    method_->setItemText(1, tr("Beam search"));
    method_->setItemText(2, tr("Sampling"));
    beam_->setToolTip(tr("Beam width k (k = 1 gives the greedy output)"));
    nbest_->setToolTip(tr("How many hypotheses of the beam to list (at most k)"));
    decodingLabel_->setText(tr("Decoding:"));
    beamLabel_->setText(tr("beam width k:"));
    nbestLabel_->setText(tr("n-best:"));
    nbestTable_->setHorizontalHeaderLabels({tr("#"), generating_ ? tr("continuation") : tr("translation"),
                                            tr("score"), tr("log p"), tr("ends")});
    nbestTable_->setToolTip(tr("score = log p / ((5 + length) / 6)^0.6; "
                               "ends: the hypothesis ended with </s>"));
    topTable_->setHorizontalHeaderLabels({tr("step"), tr("next token"), tr("p")});
    topTable_->setToolTip(tr("The five likeliest next tokens at every output step (teacher-forced "
                             "on the best output); the emitted token is in bold"));
    crossLayer_->setToolTip(tr("Decoder layer of the cross-attention"));
    crossHead_->setToolTip(tr("One head, or the mean over the heads"));
    const QString methods[] = {generating_ ? tr("self-attention") : tr("cross-attention"),
                               tr("attention (last layer, mean)"), tr("rollout"),
                               tr("gradient × input"), tr("integrated gradients")};
    for (int i = 0; i < 5; ++i)
        explain_->setItemText(i, methods[i]);
    explain_->setToolTip(
        generating_ ? tr("What each generated token rests on in the prompt. Self-attention: the "
                         "weights of one layer and head. The others explain log p(generated "
                         "token): the last layer's mean self-attention to the prompt; rollout "
                         "(Abnar & Zuidema 2020) through every layer's self-attention; gradient × "
                         "input and integrated gradients (32 steps) over the prompt's embeddings")
                    : tr("What each output token rests on. Cross-attention: the weights of "
                         "one layer and head. The others explain log p(output token): the last "
                         "layer's mean cross-attention; rollout (Abnar & Zuidema 2020) through "
                         "the encoder's self-attention; gradient × input and integrated "
                         "gradients (32 steps) over the source embeddings"));
    setHeatmapPlaceholder(crossHeat_, tr("Translate a sentence\nto see its cross-attention"));
    crossPlot_->xAxis->setLabel(crossAxisLabel());
    crossPlot_->yAxis->setLabel(tr("output token (query)"));
    explainLabel_->setText(tr("Explained by"));
    crossLabel_->setText(generating_ ? tr("Self-attention behind each generated token:")
                                     : tr("Cross-attention of the best output:"));
    rightTabs_->setTabText(0, generating_ ? tr("Self-attention") : tr("Cross-attention"));
    rightTabs_->setTabText(1, tr("Beam tree"));
    rightTabs_->setTabToolTip(1, tr("Beam search's hypotheses step by step: kept, finished and pruned"));
    rightTabs_->setTabText(2, tr("Side by side"));
    rightTabs_->setTabToolTip(2, tr("The same sentence translated by this model and by %1, their "
                                    "cross-attention beside each other")
                                     .arg(besideName_));
    titleSideA();
    nbestTitle_->setText(tr("n-best list"));
    topTitle_->setText(tr("Top-5 next tokens per step"));
    whyLabel_->setText(tr("Why"));
    andNotLabel_->setText(tr("and not"));
    contrastGo_->setText(tr("Explain"));
    contrastPositionBox_->setToolTip(generating_ ? tr("A token of the continuation")
                                                 : tr("A token of the best translation"));
    contrastTokenBox_->setToolTip(tr("Another token it could have been (the step's other likeliest, or type one)"));
    contrastGo_->setToolTip(generating_
                                ? tr("Gradient × input and integrated gradients of log p(chosen) − "
                                     "log p(other), the same prefix, over the prompt's tokens")
                                : tr("Gradient × input and integrated gradients of log p(chosen) − "
                                     "log p(other), the same prefix, over the source tokens"));
    contrastBars_[0]->setName(tr("gradient × input"));
    contrastBars_[1]->setName(tr("integrated gradients"));
    contrastPlot_->xAxis->setLabel(generating_ ? tr("prompt token") : tr("source token"));
    // What is shown of the last translation, in the new language too.
    if (last_) {
        summarize(*last_);
        fillTables(*last_);
        nameCrossChoices();
        drawContrast();
    } else if (introShown_) {
        showIntro();
    }
    drawCross();
}

void TranslateView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
    // The source chips and the tables' tints are chosen for the background: drawn again.
    if (event->type() == QEvent::PaletteChange && last_) {
        summarize(*last_);
        fillTables(*last_);
    }
}

void TranslateView::setGenerating(bool on)
{
    if (on == generating_)
        return;
    generating_ = on;
    // A language model's output is explained by its prompt (core/SPEC.md §11.1), its
    // attention map is self-attention; beam search keeps no tree for it.
    explain_->setCurrentIndex(0);
    rightTabs_->setTabVisible(1, !on);
    rightTabs_->setTabVisible(2, !on && !besideName_.isEmpty());  // side by side: translators only
    retranslate();
    if (!last_)
        showIntro();
}

void TranslateView::showIntro()
{
    setMessage(tr("Type a sentence and press Enter. Translation uses a copy of the current "
                  "weights, so training goes on meanwhile."),
               false);
    introShown_ = true;
}

void TranslateView::nameCrossChoices()
{
    for (int l = 0; l < crossLayer_->count(); ++l)
        crossLayer_->setItemText(l, tr("layer %1").arg(l + 1));
    if (crossHead_->count() > 0)
        crossHead_->setItemText(0, tr("mean of heads"));
    for (int h = 1; h < crossHead_->count(); ++h)
        crossHead_->setItemText(h, tr("head %1").arg(h));
}

void TranslateView::setMessage(const QString& text, bool warning)
{
    setMessage(QStringList{text}, warning ? QStringList{text} : QStringList{});
}

void TranslateView::setMessage(const QStringList& info, const QStringList& warnings)
{
    QStringList html;
    for (const QString& line : info)
        html << (warnings.contains(line)
                     ? QStringLiteral("<span style=\"color:%1;\">%2</span>")
                           .arg(alertColour(palette()).name(), line.toHtmlEscaped())
                     : line.toHtmlEscaped());
    status_->setText(html.join(QStringLiteral("<br>")));
    message_ = info.join(QLatin1Char('\n'));
    introShown_ = false;
}

void TranslateView::setDecoding(bool beam, int k, int nbest)
{
    method_->setCurrentIndex(beam ? 1 : 0);
    beam_->setValue(k);
    nbest_->setValue(nbest);
}

void TranslateView::setSampling(const SamplingOptions& options)
{
    method_->setCurrentIndex(2);
    sampling_->setOptions(options);
}

void TranslateView::translate(const QString& text)
{
    input_->setText(text);
    onTranslateClicked();
}

void TranslateView::onTranslateClicked()
{
    QString text = input_->text();
    if (text.trimmed().isEmpty()) {
        setMessage(tr("Nothing to translate: type a sentence first."), true);
        return;
    }
    notice_.clear();
    if (text.size() > kMaxInputChars) {
        int cut = kMaxInputChars;
        if (text.at(cut - 1).isHighSurrogate())  // never split a surrogate pair
            --cut;
        text.truncate(cut);
        notice_ = tr("The input was longer than %1 characters; only the first %1 are "
                     "translated.")
                      .arg(kMaxInputChars);
    }
    TranslationOptions options;
    options.beam = method_->currentIndex() == 1;
    options.k = options.beam ? beam_->value() : 1;
    options.nbest = options.beam ? std::min(nbest_->value(), beam_->value()) : 1;
    options.attribution = explain_->currentIndex() > 0;
    options.contrastPosition = contrastPosition_;
    options.contrastToken = contrastToken_;
    if (method_->currentIndex() == 2)
        options.sampling = sampling_->options();
    if (!isSignalConnected(QMetaMethod::fromSignal(&TranslateView::translationRequested))) {
        showRefusal(tr("No model yet: start training or open a model, then translate."));
        return;
    }
    awaiting_ = true;
    emit translationRequested(text, options);  // may be answered right here or later
    requestBeside(text, options);
}

void TranslateView::requestBeside(const QString& text, const TranslationOptions& options)
{
    if (besideName_.isEmpty() || generating_)
        return;
    // The decoding alone: attributions, contrasts and this model's muted heads are its own.
    TranslationOptions b;
    b.beam = options.beam;
    b.k = options.k;
    b.nbest = options.nbest;
    b.sampling = options.sampling;
    const QString asked = QStringLiteral("%1|%2|%3|%4").arg(b.beam).arg(b.k).arg(b.nbest).arg(text);
    if (asked == besideAsked_ && !b.sampling)  // a new explanation of the same translation
        return;
    besideAsked_ = asked;
    sideB_->setMessage(tr("Translating…"), false);
    emit besideRequested(text, b);
}

void TranslateView::setBeside(const QString& name)
{
    besideName_ = name;
    besideAsked_.clear();
    sideB_->setTitle(name);
    sideB_->setRecord(nullptr);
    rightTabs_->setTabVisible(2, !name.isEmpty() && !generating_);
    retranslate();
    if (name.isEmpty() || generating_)
        return;
    showSideBySide();
    if (last_ && !input_->text().trimmed().isEmpty()) {
        TranslationOptions o = last_->options;
        requestBeside(input_->text().left(kMaxInputChars), o);
    } else {
        sideB_->setMessage(tr("Translate a sentence: both models translate it."), false);
    }
}

void TranslateView::showBesideProgress(const QString& text)
{
    sideB_->setMessage(text, false);
}

void TranslateView::showBesideRefusal(const QString& message)
{
    besideAsked_.clear();
    sideB_->setMessage(message, true);
}

void TranslateView::showBesideRecord(TranslationRecordPtr record)
{
    if (!record)
        return;
    if (!record->ok()) {
        showBesideRefusal(record->error.isEmpty() ? tr("Translation failed: no hypothesis") : record->error);
        return;
    }
    sideB_->setRecord(std::move(record));
}

void TranslateView::showSideBySide()
{
    if (!rightTabs_->isTabVisible(2))
        return;
    rightTabs_->setCurrentWidget(sideBySide_);
    const int width = body_->width() > 0 ? body_->width() : 1200;
    body_->setSizes({width / 3, width - width / 3});
}

bool TranslateView::hasSideBySide() const
{
    return rightTabs_->isTabVisible(2);
}

void TranslateView::titleSideA()
{
    sideA_->setTitle(sideA_->record() ? tr("This model, step %1").arg(sideA_->record()->step) : tr("This model"));
}

void TranslateView::showProgress(const QString& text)
{
    setMessage(text, false);
}

void TranslateView::showRefusal(const QString& message)
{
    awaiting_ = false;
    setMessage(message, true);
}

void TranslateView::showRecord(TranslationRecordPtr record)
{
    awaiting_ = false;
    if (!record)
        return;
    const TranslationRecord& r = *record;
    if (!r.ok()) {
        setMessage(r.error.isEmpty() ? tr("Translation failed: no hypothesis") : r.error, true);
        return;
    }
    lastTranslation_ = r.nbest.front().text;
    summarize(r);
    fillTables(r);

    // Cross-attention: last layer, mean over heads by default.
    const CrossAttention& ca = r.cross;
    const bool sameShape = crossLayer_->count() == ca.layers && crossHead_->count() == ca.heads + 1;
    if (!sameShape) {
        const QSignalBlocker b1(crossLayer_), b2(crossHead_);
        crossLayer_->clear();
        for (int l = 0; l < ca.layers; ++l)
            crossLayer_->addItem(QString());
        crossLayer_->setCurrentIndex(ca.layers - 1);
        crossHead_->clear();
        for (int h = 0; h <= ca.heads; ++h)  // the mean, then each head
            crossHead_->addItem(QString());
        crossHead_->setCurrentIndex(0);
        nameCrossChoices();
    }
    last_ = std::move(record);
    sideA_->setRecord(last_);
    titleSideA();
    beamTree_->setRecord(last_->tree.empty() ? nullptr : BeamTreeRecordPtr(last_, &last_->tree));
    fillContrastChoices();
    drawContrast();
    drawCross();
    emit translationFinished(lastTranslation_);
    // An attribution is shown but this record was asked without: ask again with it.
    if (explain_->currentIndex() > 0 && !last_->options.attribution && !awaiting_)
        onTranslateClicked();
}

void TranslateView::showBeamTree()
{
    rightTabs_->setCurrentWidget(beamTree_);
    const int width = body_->width() > 0 ? body_->width() : 1200;
    body_->setSizes({width / 3, width - width / 3});
}

void TranslateView::explainContrast(int position, const QString& alternative)
{
    contrastPosition_ = position;
    contrastToken_ = alternative;
    onTranslateClicked();
}

void TranslateView::fillContrastChoices()
{
    const QSignalBlocker b(contrastPositionBox_);
    const int keep = contrastPositionBox_->currentIndex();
    contrastPositionBox_->clear();
    if (!last_ || !last_->ok())
        return;
    const QStringList& tokens = last_->nbest.front().tokens;
    for (int t = 0; t < tokens.size(); ++t)
        contrastPositionBox_->addItem(QStringLiteral("%1 · %2").arg(t + 1).arg(tokens[t]));
    const int want = last_->contrast.position >= 0 ? last_->contrast.position : keep;
    contrastPositionBox_->setCurrentIndex(std::clamp(want, 0, int(tokens.size()) - 1));
    emit contrastPositionBox_->currentIndexChanged(contrastPositionBox_->currentIndex());
    if (last_->contrast.position >= 0)
        contrastTokenBox_->setCurrentText(last_->contrast.alternative);
}

void TranslateView::drawContrast()
{
    const bool shown = last_ && last_->contrast.position >= 0;
    for (QCPBars* b : contrastBars_)
        b->data()->clear();
    if (!shown) {
        contrastTitle_->setText(last_ && !last_->contrastError.isEmpty()
                                    ? last_->contrastError
                                    : generating_ ? tr("Choose a token of the continuation and another it could have been")
                                                  : tr("Choose a token of the translation and another it could have been"));
        contrastPlot_->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        replotIfVisible(contrastPlot_);
        return;
    }
    const ContrastMap& c = last_->contrast;
    const int n = int(c.gradxinput.size());
    double lo = 0, hi = 0;
    for (int i = 0; i < n; ++i) {
        contrastBars_[0]->addData(i - 0.2, c.gradxinput[std::size_t(i)]);
        contrastBars_[1]->addData(i + 0.2, c.ig[std::size_t(i)]);
        lo = std::min({lo, c.gradxinput[std::size_t(i)], c.ig[std::size_t(i)]});
        hi = std::max({hi, c.gradxinput[std::size_t(i)], c.ig[std::size_t(i)]});
    }
    setTokenTicks(contrastPlot_->xAxis, last_->sourceTokens);
    contrastPlot_->xAxis->setRange(-0.6, n - 0.4);
    const double pad = 0.08 * std::max(1e-9, hi - lo);
    contrastPlot_->yAxis->setRange(lo - pad, hi + pad);
    contrastTitle_->setText(tr("Why “%1” and not “%2” at position %3 · log p difference %4 · IG completeness %5")
                                .arg(c.chosen, c.alternative)
                                .arg(c.position + 1)
                                .arg(c.f, 0, 'f', 3)
                                .arg(c.igCompleteness, 0, 'g', 2));
    replotIfVisible(contrastPlot_);
}

std::vector<double> TranslateView::contrastBars(int method) const
{
    std::vector<double> out;
    for (auto it = contrastBars_[method]->data()->constBegin(); it != contrastBars_[method]->data()->constEnd(); ++it)
        out.push_back(it->value);
    return out;
}

QString TranslateView::contrastTitle() const
{
    return contrastTitle_->text();
}

void TranslateView::summarize(const TranslationRecord& r)
{
    const NbestEntry& best = r.nbest.front();
    output_->setText(best.text.isEmpty() ? tr("(empty output)") : best.text);
    showSourceChips(r);

    QStringList lines, warnings;
    lines << tr("%1 with the weights of step %2 in %3 ms%4.")
                 .arg(r.options.beam       ? tr("Beam search (k = %1)").arg(r.options.k)
                      : r.options.sampling ? tr("Sampled (temperature %1, top-k %2, top-p %3, seed %4)")
                                                 .arg(r.options.sampling->temperature)
                                                 .arg(r.options.sampling->topK)
                                                 .arg(r.options.sampling->topP)
                                                 .arg(r.options.sampling->seed)
                                           : tr("Greedy decoding"))
                 .arg(r.step)
                 .arg(r.milliseconds, 0, 'f', 0)
                 .arg(best.finished ? QString()
                                    : tr("; the output reached the length limit without </s>"));
    if (!r.unknown.isEmpty())
        warnings << tr("%n input token(s) not in the vocabulary, read as <unk>: %1", nullptr,
                       int(r.unknown.size()))
                        .arg(r.unknownTokens().join(QStringLiteral("  ")));
    if (!notice_.isEmpty())
        warnings << notice_;
    setMessage(lines + warnings, warnings);
}

void TranslateView::fillTables(const TranslationRecord& r)
{
    // n-best list.
    const int nb = int(r.nbest.size());
    nbestTable_->setRowCount(nb);
    const Qt::Alignment right = Qt::AlignRight | Qt::AlignVCenter;
    for (int i = 0; i < nb; ++i) {
        const NbestEntry& h = r.nbest[i];
        nbestTable_->setItem(i, 0, cell(QString::number(i + 1), right));
        auto* text = cell(h.text);
        text->setToolTip(text->text());  // whole, when the column elides it
        nbestTable_->setItem(i, 1, text);
        nbestTable_->setItem(i, 2, cell(QString::number(h.score, 'f', 3), right));
        nbestTable_->setItem(i, 3, cell(QString::number(h.logprob, 'f', 3), right));
        nbestTable_->setItem(i, 4, cell(h.finished ? tr("</s>") : tr("max length"),
                                        Qt::AlignCenter));
    }

    // Top-5 per step: five rows per step, the step cell spanning them.
    topTable_->clearSpans();
    topTable_->setRowCount(0);
    int row = 0, stepWidth = topTable_->fontMetrics().horizontalAdvance(tr("step"));
    // A probability's bar, as the cell's tint: light blue under dark text, a deeper blue under
    // light text (the dark theme), so that the number stays readable at any strength.
    const QColor tintColour =
        isDarkPalette(palette()) ? QColor(33, 113, 181) : QColor(107, 174, 214);
    auto tint = [&tintColour](int alpha) {
        QColor c = tintColour;
        c.setAlpha(alpha);
        return c;
    };
    for (int t = 0; t < int(r.topFive.size()); ++t) {
        const QList<QPair<QString, double>>& five = r.topFive[t];
        const QString chosen = r.outputSteps.value(t);
        topTable_->setRowCount(row + int(five.size()));
        auto* stepItem = cell(tr("%1 · %2").arg(t + 1).arg(chosen), Qt::AlignCenter);
        topTable_->setItem(row, 0, stepItem);
        stepWidth = std::max(stepWidth, topTable_->fontMetrics().horizontalAdvance(stepItem->text()));
        if (five.size() > 1)
            topTable_->setSpan(row, 0, int(five.size()), 1);
        for (int i = 0; i < int(five.size()); ++i) {
            auto* token = cell(five[i].first);
            auto* p = cell(QString::number(five[i].second, 'f', 3), right);
            // A bar of the probability as the cell's tint.
            p->setBackground(tint(int(40 + 180 * five[i].second)));
            if (five[i].first == chosen) {
                QFont f = token->font();
                f.setBold(true);
                token->setFont(f);
                p->setFont(f);
            }
            topTable_->setItem(row + i, 1, token);
            topTable_->setItem(row + i, 2, p);
        }
        row += int(five.size());
    }
    // Spanned cells do not count in resizeColumnToContents().
    topTable_->setColumnWidth(0, std::min(stepWidth + 16, 160));
    topTable_->resizeColumnToContents(2);
}

namespace {

// A source token's chip, for the palette's background: a pale chip with dark text on a light
// one, a deep chip with pale text on a dark one (ColorBrewer's RdBu for <unk>, Blues for the
// others: #b2182b on #fddbc7 5.3:1, #08306b on #deebf7 10.5:1; dark: #fddbc7 on #67001f
// 10.1:1, #deebf7 on #08306b 10.5:1, WCAG 2.x).
QString chipStyle(bool unknown, const QPalette& palette)
{
    const bool dark = isDarkPalette(palette);
    if (unknown)
        return dark ? QStringLiteral("background-color:#67001f; color:#fddbc7; text-decoration:line-through;")
                    : QStringLiteral("background-color:#fddbc7; color:#b2182b; text-decoration:line-through;");
    return dark ? QStringLiteral("background-color:#08306b; color:#deebf7;")
                : QStringLiteral("background-color:#deebf7; color:#08306b;");
}

}  // namespace

void TranslateView::showSourceChips(const TranslationRecord& r)
{
    QString html = (r.generated ? tr("Prompt tokens:") : tr("Source tokens:")) + QStringLiteral(" ");
    for (int i = 0; i < int(r.sourceTokens.size()); ++i) {
        const QString& t = r.sourceTokens[i];
        const bool unk = r.unknown.contains(i);
        const QString style = chipStyle(unk, palette());
        html += QStringLiteral("<span style=\"%1\">&nbsp;%2&nbsp;</span>%3 ")
                    .arg(style, t.toHtmlEscaped(),
                         unk ? QStringLiteral("<sub style=\"color:%1;\">&lt;unk&gt;</sub>")
                                   .arg(alertColour(palette()).name())
                             : QString());
    }
    chips_->setText(html);
}

bool TranslateView::keysShown() const
{
    // A continuation's self-attention map: its columns are <s>, the prompt and the earlier
    // tokens; its attributions' are the prompt's tokens alone.
    return last_ && last_->generated && explain_->currentIndex() == 0;
}

QString TranslateView::crossAxisLabel() const
{
    if (!generating_)
        return tr("source token (key)");
    return explain_->currentIndex() == 0 ? tr("earlier token (key)") : tr("prompt token");
}

void TranslateView::drawCross()
{
    const int explain = explain_->currentIndex();
    crossPlot_->xAxis->setLabel(crossAxisLabel());
    crossLayer_->setEnabled(explain == 0);
    crossHead_->setEnabled(explain == 0);
    attributionInfo_->clear();
    if (!last_ || last_->cross.steps == 0) {
        setHeatmapData(crossHeat_, 0, 0, [](int, int) { return 0.0; });
        replotIfVisible(crossPlot_);
        return;
    }
    if (explain > 0) {
        if (last_->attributions.size() < 4) {
            setHeatmapData(crossHeat_, 0, 0, [](int, int) { return 0.0; });
            attributionInfo_->setText(tr("Computing the attributions…"));
            replotIfVisible(crossPlot_);
            return;
        }
        const AttributionMap& a = last_->attributions[std::size_t(explain - 1)];
        const bool signedScores = explain >= 3;
        double hi = 1e-12;
        for (const auto& row : a.scores)
            for (double v : row)
                hi = std::max(hi, std::abs(v));
        crossHeat_.map->setGradient(signedScores ? divergingGradient() : sequentialGradient());
        crossHeat_.scale->setGradient(signedScores ? divergingGradient() : sequentialGradient());
        crossHeat_.scale->axis()->setLabel(signedScores ? tr("contribution to log p") : tr("weight"));
        const int rows = int(a.scores.size()), cols = rows ? int(a.scores[0].size()) : 0;
        setHeatmapData(
            crossHeat_, rows, cols, [&](int t, int s) { return a.scores[std::size_t(t)][std::size_t(s)]; },
            last_->outputSteps.mid(0, rows), last_->sourceTokens.mid(0, cols),
            signedScores ? -hi : 0.0, signedScores ? hi : std::max(hi, 1e-6));
        attributionInfo_->setText(attributionInfo());
        replotIfVisible(crossPlot_);
        return;
    }
    crossHeat_.map->setGradient(sequentialGradient());
    crossHeat_.scale->setGradient(sequentialGradient());
    crossHeat_.scale->axis()->setLabel(tr("attention weight"));
    const CrossAttention& ca = last_->cross;
    const int layer = std::clamp(crossLayer_->currentIndex(), 0, ca.layers - 1);
    const int head = crossHead_->currentIndex() - 1;  // -1: mean over heads
    setHeatmapData(
        crossHeat_, ca.steps, ca.srcLen, [&](int t, int s) { return ca.cell(layer, head, t, s); },
        last_->outputSteps.mid(0, ca.steps), last_->attentionKeys().mid(0, ca.srcLen));
    replotIfVisible(crossPlot_);
}

void TranslateView::setExplanation(int index)
{
    explain_->setCurrentIndex(index);
}

int TranslateView::explanation() const
{
    return explain_->currentIndex();
}

double TranslateView::gridCell(int row, int col) const
{
    return heatmapCell(crossHeat_, row, col);
}

QString TranslateView::attributionInfo() const
{
    const int explain = explain_->currentIndex();
    if (!last_ || explain == 0 || last_->attributions.size() < 4)
        return {};
    const AttributionMap& a = last_->attributions[std::size_t(explain - 1)];
    QStringList perToken;
    for (std::size_t t = 0; t < a.spearman.size(); ++t)
        perToken << QStringLiteral("%1 %2").arg(last_->outputSteps.value(int(t)))
                        .arg(std::isnan(a.spearman[t]) ? QStringLiteral("—") : QString::number(a.spearman[t], 'f', 2));
    QString text = explain == 1 ? QString()
                                : tr("Spearman with attention: %1 overall; per output token: %2.")
                                      .arg(std::isnan(a.spearmanOverall) ? QStringLiteral("—")
                                                                         : QString::number(a.spearmanOverall, 'f', 2),
                                           perToken.join(QStringLiteral(", ")));
    if (!a.completeness.empty()) {
        double worst = 0;
        for (double c : a.completeness)
            worst = std::max(worst, std::abs(c));
        text += tr(" Completeness: |Σ IG − (f(e) − f(0))| at most %1 over the %2 output tokens.")
                    .arg(worst, 0, 'g', 3).arg(a.completeness.size());
    }
    return text.trimmed();
}

QString TranslateView::crossCsv() const
{
    if (!last_ || crossHeat_.rows == 0)
        return {};
    // The map's columns: a continuation's attention keys, or the source's (prompt's) tokens
    // its attributions explain by.
    const QStringList columns = last_->generated && !keysShown() ? last_->sourceTokens
                                                                 : last_->attentionKeys();
    QString csv = QStringLiteral("output\\source");
    for (int s = 0; s < crossHeat_.cols; ++s)
        csv += QLatin1Char(',') + csvField(columns.value(s));
    csv += QLatin1Char('\n');
    for (int t = 0; t < crossHeat_.rows; ++t) {
        csv += csvField(last_->outputSteps.value(t));
        for (int s = 0; s < crossHeat_.cols; ++s)
            csv += QLatin1Char(',') + QString::number(crossHeat_.map->data()->cell(s, t), 'g', 6);
        csv += QLatin1Char('\n');
    }
    return csv;
}

int TranslateView::nbestRows() const
{
    return nbestTable_->rowCount();
}

QSize TranslateView::crossAttentionShape() const
{
    return QSize(crossHeat_.cols, crossHeat_.rows);
}

QStringList TranslateView::unknownTokens() const
{
    return last_ ? last_->unknownTokens() : QStringList();
}

QList<QPair<QString, double>> TranslateView::topFive(int step) const
{
    if (!last_ || step < 0 || step >= int(last_->topFive.size()))
        return {};
    return last_->topFive[std::size_t(step)];
}

QString TranslateView::inputText() const
{
    return input_->text();
}

}  // namespace as::ui
