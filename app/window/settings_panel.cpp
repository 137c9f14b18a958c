// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "settings_panel.h"

#include "plot_tools.h"

#include "model/bf16.h"
#include "model/gemm.h"
#include "text/lm_tasks.h"
#include "text/tasks.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpressionValidator>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>

#include <initializer_list>

namespace as {

namespace {
// A combo box's item texts, in its items' order (the data stays the item's).
void setItemTexts(QComboBox* box, std::initializer_list<QString> texts)
{
    int i = 0;
    for (const QString& t : texts)
        box->setItemText(i++, t);
}
}  // namespace

namespace {
QSpinBox* spin(QWidget* parent, int lo, int hi)
{
    auto* s = new QSpinBox(parent);
    s->setRange(lo, hi);
    return s;
}
QDoubleSpinBox* dspin(QWidget* parent, double lo, double hi, double step)
{
    auto* s = new QDoubleSpinBox(parent);
    s->setRange(lo, hi);
    s->setSingleStep(step);
    s->setDecimals(3);
    return s;
}
}  // namespace

SettingsPanel::SettingsPanel(QWidget* parent) : QWidget(parent)
{
    task_ = new QComboBox(this);
    for (const QString& t : trainingTaskNames())
        task_->addItem(t);
    // The architecture (core/SPEC.md §2.10): the task decides it, and choosing the other one
    // goes to the task nearest the current one that it trains on (SessionSettings::taskForArch).
    arch_ = new QComboBox(this);
    for (Arch a : {Arch::EncoderDecoder, Arch::DecoderOnly})
        arch_->addItem(QString(), archName(a));
    dModel_ = spin(this, 2, 2048);
    dModel_->setSingleStep(8);
    heads_ = spin(this, 1, 64);
    dFf_ = spin(this, 0, 16384);  // 0: attention-only layers (core/SPEC.md §2.12)
    dFf_->setSingleStep(32);
    encLayers_ = spin(this, 0, 24);
    decLayers_ = spin(this, 1, 24);
    dropout_ = dspin(this, 0.0, 0.9, 0.05);
    smoothing_ = dspin(this, 0.0, 0.9, 0.05);
    norm_ = new QComboBox(this);
    norm_->addItem(QString(), "pre");
    norm_->addItem(QString(), "post");
    tie_ = new QComboBox(this);
    for (Tie t : {Tie::None, Tie::Tgt, Tie::All})
        tie_->addItem(QString(), tieName(t));
    position_ = new QComboBox(this);  // core/SPEC.md §2.1, §2.11, §2.13
    for (Position p : {Position::Sinusoidal, Position::Learned, Position::SinusoidalHalves})
        position_->addItem(QString(), positionName(p));
    sharedVocab_ = new QCheckBox(this);
    factor_ = dspin(this, 0.001, 100.0, 0.1);
    warmup_ = spin(this, 1, 1000000);
    clipNorm_ = dspin(this, 0.0, 1000.0, 0.5);
    precision_ = new QComboBox(this);  // core/SPEC.md §2.14
    precision_->addItem(QString(), QString::fromLatin1(gemmPrecisionArgument(GemmPrecision::Float32)));
    precision_->addItem(QString(), QString::fromLatin1(gemmPrecisionArgument(GemmPrecision::BFloat16)));
    batch_ = spin(this, 1, 4096);
    batchTokens_ = spin(this, 16, 10000000);
    batchTokens_->setSingleStep(100);
    average_ = spin(this, 1, 20);
    seed_ = new QLineEdit(this);
    seed_->setValidator(new QRegularExpressionValidator(QRegularExpression(QStringLiteral("[0-9]{1,19}")), seed_));
    planned_ = spin(this, 0, 100000000);  // 0: no step limit (minutes only)
    evalEvery_ = spin(this, 0, 1000000);
    minutes_ = dspin(this, 0.0, 100000.0, 1.0);
    minutes_->setDecimals(1);
    for (QComboBox** kind : {&srcTok_, &tgtTok_}) {
        *kind = new QComboBox(this);
        // The item texts are set in retranslate(); the data is the tokeniser's name.
        for (const char* name : {"", "cjk-char", "word", "bpe", "unigram"})
            (*kind)->addItem(QString(), QString::fromLatin1(name));
    }
    for (QSpinBox** pieces : {&srcPieces_, &tgtPieces_}) {
        *pieces = spin(this, kMinSubwordVocab, kMaxSubwordVocab);
        (*pieces)->setSingleStep(1000);
        (*pieces)->setValue(8000);
    }

    // The rows' labels get their texts in retranslate().
    form_ = new QFormLayout;
    const auto row = [this](QWidget* field) { form_->addRow(new QLabel(this), field); };
    const auto section = [this] {
        auto* header = new QLabel(this);
        form_->addRow(header);
        return header;
    };
    row(task_);
    row(arch_);
    for (QWidget* w : std::initializer_list<QWidget*>{srcTok_, srcPieces_, tgtTok_, tgtPieces_})
        row(w);
    modelHeader_ = section();
    for (QWidget* w : std::initializer_list<QWidget*>{dModel_, heads_, dFf_, encLayers_, decLayers_,
                                                      dropout_, smoothing_, norm_, tie_, position_})
        row(w);
    scheduleHeader_ = section();
    row(factor_);
    row(warmup_);
    trainingHeader_ = section();
    for (QWidget* w : std::initializer_list<QWidget*>{batch_, batchTokens_, sharedVocab_, seed_,
                                                      clipNorm_, precision_, planned_, minutes_, evalEvery_,
                                                      average_})
        row(w);

    note_ = new QLabel(this);
    note_->setWordWrap(true);
    note_->hide();
    auto* problem = problem_ = new QLabel(this);
    problem->setWordWrap(true);
    ui::showAsAlert(problem);  // red that reads on the theme (plot_tools.h)
    apply_ = new QPushButton(this);
    auto* apply = apply_;
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form_);
    layout->addWidget(note_);
    layout->addWidget(problem);
    layout->addWidget(apply);
    layout->addStretch();
    retranslate();

    for (QSpinBox* s : {dModel_, heads_})
        connect(s, &QSpinBox::valueChanged, this, &SettingsPanel::check);
    connect(tie_, &QComboBox::currentIndexChanged, this, &SettingsPanel::check);
    connect(position_, &QComboBox::currentIndexChanged, this, &SettingsPanel::check);
    connect(sharedVocab_, &QCheckBox::toggled, this, &SettingsPanel::check);
    // The plan is whichever limit the user gave (plannedLimits): a step count the user sets
    // stays; otherwise the steps field follows the minutes.
    connect(planned_, &QSpinBox::valueChanged, this, [this](int v) { stepsGiven_ = v > 0; });
    connect(minutes_, &QDoubleSpinBox::valueChanged, this, &SettingsPanel::followMinutes);
    for (QComboBox* kind : {srcTok_, tgtTok_})
        connect(kind, &QComboBox::currentIndexChanged, this, &SettingsPanel::enableTokenizers);
    for (QComboBox* kind : {srcTok_, tgtTok_})
        connect(kind, &QComboBox::currentIndexChanged, this, &SettingsPanel::check);
    for (QSpinBox* pieces : {srcPieces_, tgtPieces_})
        connect(pieces, &QSpinBox::valueChanged, this, &SettingsPanel::check);
    connect(task_, &QComboBox::currentTextChanged, this,
            [this](const QString& t) { setSettings(SessionSettings::defaultsFor(t)); });
    connect(arch_, &QComboBox::currentIndexChanged, this, [this] {
        encLayers_->setEnabled(arch() == Arch::EncoderDecoder);
        // A/B's B trains on A's data: a decoder-only B beside a translator learns the same
        // target text (makeSessionData); otherwise the task follows the architecture.
        if (comparing_)
            return check();
        const QString task = SessionSettings::taskForArch(task_->currentText(), arch());
        if (task != task_->currentText())
            task_->setCurrentText(task);  // its recipe, with this architecture
    });
    connect(apply, &QPushButton::clicked, this, [this] { emit applyClicked(settings()); });
    setSettings(SessionSettings::defaultsFor("toy"));
    check();
}

long SettingsPanel::recipeSteps() const
{
    return SessionSettings::defaultsFor(task_->currentText()).plannedSteps;
}

void SettingsPanel::followMinutes()
{
    if (stepsGiven_)
        return;
    const QSignalBlocker block(planned_);
    planned_->setValue(int(plannedLimits(0, minutes_->value(), recipeSteps()).steps));
}

void SettingsPanel::check()
{
    const QString p = problem();
    problem_->setText(p);
    apply_->setEnabled(p.isEmpty());
}

void SettingsPanel::retranslate()
{
    const auto label = [this](QWidget* field, const QString& text, const QString& tip) {
        if (auto* l = qobject_cast<QLabel*>(form_->labelForField(field)))
            l->setText(text);
        field->setToolTip(tip);
    };
    label(task_, tr("Task"),
          tr("toy: three Chinese→English pairs · copy, reverse, sort: random "
             "sequences · zh-en: the Tatoeba Chinese→English corpus that ships "
             "with the program (29k pairs) · lm-en, lm-zh: its English or Chinese side "
             "as one text to continue · lm-brackets: balanced brackets · repeat: random "
             "tokens in which a segment recurs, where induction heads form"));
    label(arch_, tr("architecture"),
          tr("Encoder-decoder: the 2017 paper's translator. Decoder-only: GPT's shape — masked "
             "self-attention and feed-forward, no encoder and no cross-attention — a language "
             "model that continues a text (the lm- tasks)"));
    setItemTexts(arch_, {tr("encoder-decoder (translator)"), tr("decoder-only (GPT)")});
    for (auto [kind, pieces, isSource] : {std::tuple{srcTok_, srcPieces_, true},
                                          std::tuple{tgtTok_, tgtPieces_, false}}) {
        label(kind, isSource ? tr("source tokens") : tr("target tokens"),
              tr("How the zh-en corpus's sentences are cut: guessed (cjk-char for Chinese, word "
                 "for English), or a SentencePiece model (BPE or unigram) trained on the "
                 "training split when the session is made, whose pieces are the vocabulary"));
        setItemTexts(kind, {tr("guessed"), tr("cjk-char (one per character)"), tr("word"),
                            tr("BPE (SentencePiece)"), tr("unigram (SentencePiece)")});
        label(pieces, isSource ? tr("source pieces") : tr("target pieces"),
              tr("Vocabulary size of the BPE or unigram model: at most this many pieces, the "
                 "four special tokens included"));
    }
    modelHeader_->setText(tr("<b>Model</b>"));
    label(dModel_, tr("d_model"), tr("Width of every token's vector (d_model)"));
    label(heads_, tr("heads"), tr("Attention heads; d_model must be a multiple of it"));
    label(dFf_, tr("d_ff"),
          tr("Inner width of the feed-forward sublayer; 0: none, attention-only layers (as "
             "Elhage et al.'s two-layer models, where induction heads are read most clearly)"));
    dFf_->setSpecialValueText(tr("0 (attention-only)"));
    label(encLayers_, tr("encoder layers"), tr("Encoder layers"));
    label(decLayers_, tr("decoder layers"), tr("Decoder layers"));
    label(dropout_, tr("dropout"), tr("Dropout probability (training only)"));
    label(smoothing_, tr("label smoothing"), tr("Label smoothing ε"));
    label(norm_, tr("norm"), {});
    setItemTexts(norm_, {tr("pre-norm (Annotated Transformer)"), tr("post-norm (2017 paper)")});
    label(tie_, tr("weight tying"),
          tr("Share one matrix between the target embedding and the generator (the paper's "
             "§3.4), and with the source embedding too (needs a shared vocabulary): fewer "
             "parameters to learn from the same pairs"));
    setItemTexts(tie_, {tr("none"), tr("target embedding = generator"),
                        tr("source, target embedding = generator")});
    label(position_, tr("positions"),
          tr("Sinusoidal: the paper's fixed encodings added to embeddings scaled by √d_model. "
             "Learned: GPT-2's table of max_len positions, trained like any weight, added to "
             "unscaled embeddings. Sinusoidal in halves: the paper's numbers with the sines first "
             "and the cosines after them, as Marian's translators (OPUS-MT) lay them out"));
    setItemTexts(position_, {tr("sinusoidal (2017 paper)"), tr("learned (GPT-2)"),
                             tr("sinusoidal in halves (Marian)")});
    scheduleHeader_->setText(tr("<b>Schedule</b>"));
    label(factor_, tr("factor"), tr("Noam factor: scales the whole schedule"));
    label(warmup_, tr("warmup"),
          tr("Noam warmup steps: the rate rises until here (none: "
             "the rate starts at its peak and only decays — warm-up "
             "1 and 0 give the same rates)"));
    warmup_->setSpecialValueText(tr("none"));
    trainingHeader_->setText(tr("<b>Training</b>"));
    label(batch_, tr("batch size"), tr("Sentences per batch (the toy task always uses its 3)"));
    label(batchTokens_, tr("tokens per batch"),
          tr("Token budget of a corpus batch: sentences of "
             "similar length are batched up to this many "
             "(padded) tokens"));
    label(sharedVocab_, tr("shared vocabulary"),
          tr("One vocabulary for both sides, built from both sides' tokens (each side keeps its "
             "tokeniser), or with BPE or unigram of the same size on both sides one "
             "SentencePiece model trained on both, as the command line's --shared-vocab; the "
             "bundled corpus only (a corpus opened from a file keeps how it was read)"));
    label(seed_, tr("seed"),
          tr("Seed of the initial weights, dropout and data (any whole number up to "
             "19 digits, as the command line's --seed)"));
    label(clipNorm_, tr("clip gradient norm"),
          tr("Gradient clipping: gradients are scaled down "
             "to this global L2 norm when above it"));
    clipNorm_->setSpecialValueText(tr("off"));
    label(precision_, tr("precision"),
          tr("The precision of the layers' matrix products in training. bfloat16 mixed precision "
             "rounds their inputs to bfloat16 (float32's exponent, 8 significant bits) and sums in "
             "float32; the weights, Adam, softmax, LayerNorm and the loss stay float32. Faster on "
             "CPUs with bfloat16 units; validation and translation stay float32"));
    setItemTexts(precision_, {tr("float32"), tr("bfloat16 mixed precision")});
    {
        // Offered where the CPU has bfloat16 units; elsewhere shown disabled, with the reason.
        QString why;
        const bool bf16 = gemmPrecisionAvailable(GemmPrecision::BFloat16, &why);
        if (auto* m = qobject_cast<QStandardItemModel*>(precision_->model()))
            if (QStandardItem* item = m->item(1)) {
                item->setEnabled(bf16);
                item->setToolTip(bf16 ? tr("This CPU's bfloat16 units: %1").arg(cpuBf16Units().names())
                                      : tr("Not available here: %1").arg(why));
            }
    }
    label(planned_, tr("planned steps"),
          tr("Steps planned: the schedule plot and the time "
             "estimate use it; Play stops there"));
    planned_->setToolTip(planned_->toolTip() + u'\n'
                         + tr("Set: the run stops at whichever limit comes first. Not set: the "
                              "task's recipe without planned minutes, no step limit with them."));
    planned_->setSpecialValueText(tr("no limit"));
    label(minutes_, tr("planned minutes"),
          tr("Training time planned: Play also stops "
             "after this many minutes, and the status bar "
             "counts down to it (off: steps only)"));
    minutes_->setSpecialValueText(tr("off"));
    label(evalEvery_, tr("validate every"), tr("Validation every N steps (0 = never)"));
    label(average_, tr("average weights of"),
          tr("Checkpoint averaging: the exported model is the mean of the "
             "weights at this many points, 5 % of the planned steps "
             "apart, the last at the end (1 = off)"));
    note_->setText(note());
    apply_->setText(tr("Apply and reset"));
    apply_->setToolTip(tr("Build a fresh model with these settings (training restarts at step 0)"));
}

void SettingsPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        check();  // the problem, in the new language
    }
    QWidget::changeEvent(event);
}

QString SettingsPanel::note() const
{
    if (!fineTuned_.isEmpty())
        return tr("Fine-tuning %1 on %3: its own configuration, vocabulary and tokeniser (%2), "
                  "from its own weights; Reset starts again from them. Apply builds a fresh model "
                  "of these settings instead.")
            .arg(fineTuned_, fineTunedTokenizer_, fineTunedText_);
    if (openedRecipe_.isEmpty())
        return {};
    return openedRecorded_
               ? tr("Model: the opened model's own configuration. Training: the %1 recipe — the "
                    "model's file says it was trained on %1; its training settings themselves "
                    "are not recorded in a model file.")
                     .arg(openedRecipe_)
               : tr("Model: the opened model's own configuration. Training: not recorded in a "
                    "model file; shown: the %1 recipe, which Apply would train.")
                     .arg(openedRecipe_);
}

void SettingsPanel::showOpenedModel(const SessionSettings& opened)
{
    const QString recorded = opened.recordedTask();
    const QString task = recorded.isEmpty() ? settings().task : recorded;
    SessionSettings shown = settings();  // a user's corpus keeps its own settings
    if (shown.task != task || !shown.userCorpus())
        shown = SessionSettings::defaultsFor(task);
    shown.model = opened.model;
    setSettings(shown);
    openedRecipe_ = task;
    openedRecorded_ = !recorded.isEmpty();
    note_->setText(note());
    note_->setVisible(true);
}

void SettingsPanel::setComparisonMode(bool on)
{
    // B trains on A's data, in A's order, with A's seed and plan: only the model, the
    // optimisation and a bundled corpus's tokenisers can differ.
    comparing_ = on;
    for (QWidget* w : std::initializer_list<QWidget*>{task_, batch_, batchTokens_, sharedVocab_, seed_,
                                                      planned_, minutes_, evalEvery_, average_})
        w->setEnabled(!on);
    apply_->setVisible(!on);
}

QString SettingsPanel::problem() const
{
    const SessionSettings s = settings();
    ModelConfig c = s.model;
    c.src_vocab = c.tgt_vocab = 100;  // the task supplies the real sizes
    if (QString why = c.validate(); !why.isEmpty())
        return why;
    // One vocabulary for both sides: from cjk-char or word tokens, or one SentencePiece model
    // of the same kind and size for both (core/SPEC.md §10.3).
    if (s.sharedVocab && isBundledCorpusTask(s.task)) {
        if (QString why = sharedVocabularyProblem(s.srcTok, s.tgtTok); !why.isEmpty())
            return tr("%1. Untick \"shared vocabulary\", give both sides the same BPE or unigram "
                      "model size, or choose cjk-char, word or guessed on both sides.")
                .arg(why);
    }
    if (c.tie != Tie::All)
        return {};
    // tie=all needs one vocabulary: the bundled corpus's shared one, a user's corpus read with
    // one, or a generated task whose two are the same (copy, reverse, sort).
    bool shared = s.sharedVocab;
    if (s.userCorpus())
        shared = s.source.dataset.shared_vocab;
    else if (!isBundledCorpusTask(s.task)) {
        const Task task = makeBuiltinTask(s.task, 1);
        shared = task.srcVocab.tokens() == task.tgtVocab.tokens();
    }
    return shared ? QString()
                  : tr("Tying the source embedding too needs one vocabulary for both sides: tick "
                       "\"shared vocabulary\" (the bundled corpus), or tie the target embedding "
                       "and the generator only.");
}

Arch SettingsPanel::arch() const
{
    return archFromName(arch_->currentData().toString()).value_or(Arch::EncoderDecoder);
}

SessionSettings SettingsPanel::settings() const
{
    SessionSettings s;
    s.task = task_->currentText();
    s.model.d_model = dModel_->value();
    s.model.heads = heads_->value();
    s.model.d_ff = dFf_->value();
    s.model.arch = arch();
    s.model.encoder_layers = s.model.decoderOnly() ? 0 : encLayers_->value();
    s.model.decoder_layers = decLayers_->value();
    s.model.dropout = dropout_->value();
    s.model.label_smoothing = smoothing_->value();
    s.model.norm = norm_->currentData().toString() == "post" ? NormPlacement::Post
                                                             : NormPlacement::Pre;
    s.model.tie = tieFromName(tie_->currentData().toString()).value_or(Tie::None);
    s.model.position = positionFromName(position_->currentData().toString()).value_or(Position::Sinusoidal);
    s.model.max_len = SessionSettings::defaultsFor(s.task).model.max_len;
    s.train.factor = factor_->value();
    s.train.warmup = warmup_->value();
    s.train.seed = seed_->text().toULongLong();
    s.train.clipNorm = clipNorm_->value();
    gemmPrecisionFromName(precision_->currentData().toString(), &s.train.precision);
    s.batchSize = batch_->value();
    s.batchTokens = batchTokens_->value();
    s.averagePoints = average_->value();
    const PlannedLimits limits = plannedLimits(stepsGiven_ ? planned_->value() : 0,
                                               minutes_->value(), recipeSteps());
    s.plannedSteps = limits.steps;
    s.plannedMinutes = limits.minutes;
    s.sharedVocab = isBundledCorpusTask(s.task) && sharedVocab_->isChecked();
    s.evalEvery = evalEvery_->value();
    if (corpus_ && s.task == corpus_->name()) {
        s.corpus = corpus_;
        s.source = source_;
        // As the session cuts it: a side cut again (a kept B's bpe:8000) stays so.
        s.srcTok = corpusSrcTok_;
        s.tgtTok = corpusTgtTok_;
    }
    if (isBundledCorpusTask(s.task)) {
        s.srcTok = tokenizerOf(srcTok_, srcPieces_);
        s.tgtTok = tokenizerOf(tgtTok_, tgtPieces_);
    }
    if (isCorpusLanguageModelTask(s.task))  // one side: the target row cuts it
        s.tgtTok = tokenizerOf(tgtTok_, tgtPieces_);
    return s;
}

std::optional<Tokenizer> SettingsPanel::tokenizerOf(const QComboBox* kind, const QSpinBox* pieces) const
{
    const QString name = kind->currentData().toString();
    if (name.isEmpty())
        return std::nullopt;
    const bool subword = name == u"bpe" || name == u"unigram";
    return tokenizerFromName(subword ? name + u':' + QString::number(pieces->value()) : name);
}

void SettingsPanel::showTokenizer(const std::optional<Tokenizer>& t, QComboBox* kind, QSpinBox* pieces)
{
    QString name;
    if (t) {
        name = tokenizerName(*t).section(u':', 0, 0);
        if (t->isSubword())
            pieces->setValue(t->vocabSize());
    }
    kind->setCurrentIndex(std::max(0, kind->findData(name)));
}

void SettingsPanel::showModelTokenizer(const Tokenizer* t, int size, QComboBox* kind, QSpinBox* pieces)
{
    constexpr int kOwn = 5;  // after guessed, cjk-char, word, bpe, unigram
    if (!t) {
        if (kind->count() > kOwn)
            kind->removeItem(kOwn);
        return;
    }
    if (kind->count() == kOwn)
        kind->addItem(QString(), QStringLiteral("model"));
    kind->setItemText(kOwn, tr("the model's own: %1").arg(tokenizerName(*t)));
    kind->setCurrentIndex(kOwn);
    pieces->setValue(std::clamp(size, kMinSubwordVocab, kMaxSubwordVocab));
}

void SettingsPanel::enableTokenizers()
{
    // Only the bundled corpus is cut here (a user's corpus was cut when it was opened); B of an
    // A/B trains on A's pairs, which it may cut another way (comparisonOf). A model being
    // fine-tuned cuts with its own.
    const bool own = !fineTuned_.isEmpty();
    const bool bundled = isBundledCorpusTask(task_->currentText());
    const bool side = isCorpusLanguageModelTask(task_->currentText());  // lm-en, lm-zh
    for (auto [kind, pieces] : {std::pair{srcTok_, srcPieces_}, std::pair{tgtTok_, tgtPieces_}}) {
        const bool cut = !own && (bundled || (side && kind == tgtTok_));
        kind->setEnabled(cut);
        const QString name = kind->currentData().toString();
        pieces->setEnabled(cut && (name == u"bpe" || name == u"unigram"));
    }
}

void SettingsPanel::setSettings(const SessionSettings& s)
{
    openedRecipe_.clear();
    fineTuned_ = s.fineTunes() ? QFileInfo(s.baseModel).fileName() : QString();
    fineTunedTokenizer_ = s.modelText ? tokenizerName(s.modelText->tokenizer) : QString();
    fineTunedText_ = isTextTaskName(s.task) ? QFileInfo(s.task.mid(5)).fileName() : s.task;
    note_->setText(note());
    note_->setVisible(!fineTuned_.isEmpty());
    const QSignalBlocker block(task_), blockArch(arch_);
    task_->setCurrentText(s.task);
    arch_->setCurrentIndex(arch_->findData(archName(s.model.arch)));
    encLayers_->setEnabled(!s.model.decoderOnly());
    dModel_->setValue(s.model.d_model);
    heads_->setValue(s.model.heads);
    dFf_->setValue(s.model.d_ff);
    encLayers_->setValue(s.model.encoder_layers);
    decLayers_->setValue(s.model.decoder_layers);
    dropout_->setValue(s.model.dropout);
    smoothing_->setValue(s.model.label_smoothing);
    norm_->setCurrentIndex(s.model.norm == NormPlacement::Post ? 1 : 0);
    tie_->setCurrentIndex(tie_->findData(tieName(s.model.tie)));
    position_->setCurrentIndex(position_->findData(positionName(s.model.position)));
    factor_->setValue(s.train.factor);
    warmup_->setValue(int(s.train.warmup));
    seed_->setText(QString::number(s.train.seed));
    clipNorm_->setValue(s.train.clipNorm);
    precision_->setCurrentIndex(precision_->findData(QString::fromLatin1(gemmPrecisionArgument(s.train.precision))));
    batch_->setValue(s.batchSize);
    batchTokens_->setValue(s.batchTokens);
    average_->setValue(s.averagePoints);
    // A corpus is batched by tokens, a generated task by sentences.
    const bool corpus = isBundledCorpusTask(s.task) || s.userCorpus()
                        || (corpus_ && s.task == corpus_->name());
    batch_->setEnabled(!corpus);
    batchTokens_->setEnabled(corpus);
    // The user's corpus was read with or without a shared vocabulary; the bundled one is built
    // with the choice; the generated tasks have theirs.
    const bool userCorpus = s.userCorpus() || (corpus_ && s.task == corpus_->name());
    sharedVocab_->setChecked(userCorpus ? (s.userCorpus() ? s.source : source_).dataset.shared_vocab
                                        : s.sharedVocab);
    sharedVocab_->setEnabled(isBundledCorpusTask(s.task) && !s.fineTunes());
    {
        const QSignalBlocker blockSteps(planned_), blockMinutes(minutes_);
        planned_->setValue(int(s.plannedSteps));
        minutes_->setValue(s.plannedMinutes);
    }
    // Steps the recipe would plan anyway are not the user's (a step limit with minutes is).
    stepsGiven_ = s.plannedSteps > 0
                  && !(s.plannedMinutes == 0 && s.plannedSteps == recipeSteps());
    evalEvery_->setValue(s.evalEvery);
    if (s.userCorpus()) {
        corpusSrcTok_ = s.srcTok;
        corpusTgtTok_ = s.tgtTok;
    }
    const std::shared_ptr<const SessionData> read = s.userCorpus() ? s.corpus : corpus_;
    if (userCorpus && read) {
        // A user's corpus: the tokenisers its session cuts with, a side it names or as read.
        showTokenizer(corpusSrcTok_ ? corpusSrcTok_ : read->srcTokenizer(), srcTok_, srcPieces_);
        showTokenizer(corpusTgtTok_ ? corpusTgtTok_ : read->tgtTokenizer(), tgtTok_, tgtPieces_);
    } else {
        showTokenizer(s.srcTok, srcTok_, srcPieces_);
        showTokenizer(s.tgtTok, tgtTok_, tgtPieces_);
    }
    // Fine-tuning: the model's tokenisers and vocabularies (a language model's on the target
    // row, the side its text is), one vocabulary for both sides of a Marian model.
    const ModelText* text = s.fineTunes() ? s.modelText.get() : nullptr;
    showModelTokenizer(text && text->translator ? &text->srcTokenizer : nullptr,
                       text ? text->srcVocab.size() : 0, srcTok_, srcPieces_);
    showModelTokenizer(text ? &text->tokenizer : nullptr, text ? text->vocab.size() : 0, tgtTok_, tgtPieces_);
    if (text && text->translator)
        sharedVocab_->setChecked(text->srcVocab.tokens() == text->vocab.tokens());
    enableTokenizers();
    check();
}

void SettingsPanel::setUserCorpus(std::shared_ptr<const SessionData> corpus, const CorpusSource& source)
{
    const QSignalBlocker block(task_);
    if (corpus_)
        task_->removeItem(task_->findText(corpus_->name()));
    corpus_ = std::move(corpus);
    source_ = source;
    corpusSrcTok_.reset();  // as read, until setSettings shows its session's
    corpusTgtTok_.reset();
    task_->addItem(corpus_->name());
    task_->setItemData(task_->count() - 1, source_.train, Qt::ToolTipRole);
}

}  // namespace as
