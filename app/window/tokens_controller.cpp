// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "tokens_controller.h"

#include "text/lm_tasks.h"

#include "background_job.h"
#include "comparison_actions.h"
#include "session_builder.h"
#include "main_window.h"
#include "probe_bar.h"
#include "tokens_view.h"
#include "view_set.h"
#include "worker_link.h"

#include "run/settings.h"
#include "text/bundled_corpus.h"
#include "text/dataset.h"

#include <QPointer>
#include <QStatusBar>

namespace as {
namespace {

constexpr int kBpeSize = 8000;

Tokenizer bpe()
{
    return Tokenizer(TokenizerKind::Bpe, kBpeSize);
}

}  // namespace

TokensController::TokensController(MainWindow* window, ui::TokensView* view)
    : QObject(window), window_(window), view_(view)
{
    builder_ = new BackgroundJob(this);
    connect(builder_, &BackgroundJob::progress, this, [this](int perMille) { view_->setProgress(perMille, 1000); });
    connect(view_, &ui::TokensView::recordWanted, this, &TokensController::build);
    connect(view_, &ui::TokensView::cancelRequested, this, &TokensController::cancel);
    connect(view_, &ui::TokensView::typedChanged, this, &TokensController::recut);
    connect(view_, &ui::TokensView::comparisonRequested, this, [this](CorpusSide side) {
        const SessionSettings b = bpeComparison(window_->settings(), side);
        window_->comparisons()->startComparison(b);
        // B's SentencePiece model may take seconds to train, in a job of its own (its progress
        // dialog says so): until then A trains alone, and the message must not say otherwise.
        const QString sideName = side == CorpusSide::Source ? tr("source") : tr("target");
        window_->statusBar()->showMessage(
            window_->sessionBuilder()->busy()
                ? tr("A/B: building B, this session with bpe:%1 on the %2 side; A trains meanwhile")
                      .arg(kBpeSize).arg(sideName)
                : tr("A/B: B is this session with bpe:%1 on the %2 side; the Loss view shows both")
                      .arg(kBpeSize).arg(sideName),
            8000);
    });
    connect(window_->link(), &WorkerLink::taskReady, this, [this](const TaskPtr& task) { setTask(*task); });
    connect(window_->link(), &WorkerLink::sessionLoaded, this,
            [this](const SessionSettings&, const TaskPtr& task) { setTask(*task); });
    connect(window_->views()->probes(), &ProbeBar::probeChosen, this, [this](QStringList src, QStringList tgt) {
        probe_ = detokenize(task_.srcTokenizer, src);
        probeTarget_ = detokenize(task_.tgtTokenizer, tgt);
        recut();
    });
    connect(window_->views(), &ViewSet::currentViewChanged, this, [this] { refresh(); });
}

TokensController::~TokensController()
{
    builder_->cancel();
    builder_->waitForDone();
}

void TokensController::showBuilt(TokensRecord record)
{
    view_->setProgress(0, 0);
    recutTokens(&record, probeFor(record.side), view_->typedText());
    shown_ = std::make_shared<const TokensRecord>(std::move(record));
    builtFor_ = buildingFor_;
    buildingFor_.clear();
    view_->setRecord(shown_);
    emit recordShown();
}

QString TokensController::probeFor(CorpusSide side) const
{
    // A language model's probe is a prompt, which its task keeps as the example's target.
    if (languageModelSide())
        return probeTarget_;
    return side == CorpusSide::Source ? probe_ : probeTarget_;
}

QList<Tokenizer> TokensController::choicesFor(const Tokenizer& session)
{
    QList<Tokenizer> choices = {TokenizerKind::CjkChar, TokenizerKind::Word, bpe(),
                                Tokenizer(TokenizerKind::Unigram, kBpeSize)};
    bool found = false;
    for (Tokenizer& t : choices)
        if (tokenizerName(t) == tokenizerName(session)) {
            t = session;
            found = true;
        }
    if (!found)
        choices << session;
    return choices;
}

SessionSettings TokensController::bpeComparison(const SessionSettings& a, CorpusSide side)
{
    SessionSettings b = a;
    // A language model's one side is cut by one tokeniser (makeTaskData reads either).
    if (isCorpusLanguageModelTask(a.task))
        b.srcTok = b.tgtTok = bpe();
    else
        (side == CorpusSide::Source ? b.srcTok : b.tgtTok) = bpe();
    return b;
}

void TokensController::setTask(const Task& task)
{
    task_ = task;
    const int probe = std::clamp(window_->settings().probe, 0, int(task_.examples.size()) - 1);
    if (!task_.examples.empty()) {
        probe_ = detokenize(task_.srcTokenizer, task_.examples[std::size_t(probe)].src);
        probeTarget_ = detokenize(task_.tgtTokenizer, task_.examples[std::size_t(probe)].tgt);
    }
    recut();  // the probe of this task
    refresh();
}

QString TokensController::sessionKey(CorpusSide side) const
{
    // The task's data as the worker built it (its tokenisers and vocabularies), which user's
    // corpus (two files of one name are two corpora), and the side.
    const SessionSettings& s = window_->settings();
    return QStringList{s.task, s.userCorpus() ? QString::number(quintptr(s.corpus.get()), 16) : QString(),
                       tokenizerName(task_.srcTokenizer), tokenizerName(task_.tgtTokenizer),
                       QString::number(task_.srcVocab.size()), QString::number(task_.tgtVocab.size()),
                       QString::number(int(side))}
        .join(u'|');
}

QList<SentencePair> TokensController::trainingText(QString* why) const
{
    const SessionSettings& s = window_->settings();
    if (s.userCorpus()) {
        // As the session read it: the file is not read again.
        if (s.corpus->trainingText().isEmpty())
            *why = tr("The corpus %1 kept no training text to cut.").arg(s.task);
        return s.corpus->trainingText();
    }
    if (isBundledCorpusTask(s.task)) {
        // The split the session's data was built from (read once per process, then cached).
        const std::optional<BundledCorpus> corpus = loadBundledCorpus(s.task, why);
        return corpus ? corpus->split.train : QList<SentencePair>();
    }
    if (isCorpusLanguageModelTask(s.task)) {
        // lm-en and lm-zh read one side of the bundled corpus's training split (text/lm_tasks.h).
        const std::optional<BundledCorpus> corpus = loadBundledCorpus(QStringLiteral("zh-en"), why);
        return corpus ? corpus->split.train : QList<SentencePair>();
    }
    if (builtinTaskNames().contains(s.task) || isLanguageModelTask(s.task))
        // copy, reverse and sort draw endless sequences of ten symbols, the toy repeats three
        // pairs: nothing a tokeniser could be trained on.
        *why = tr("The Tokens view trains and compares tokenisers on a corpus's training split; %1 "
                  "is a generated task, whose pairs are made from a fixed vocabulary, not read from "
                  "a corpus: apply zh-en in Settings or open a corpus (File > Open corpus…).")
                   .arg(s.task);
    else
        *why = tr("A model opened from a file (%1) comes without the corpus it was trained on: "
                  "the Tokens view needs a corpus's training split to cut. Apply zh-en in "
                  "Settings or open a corpus (File > Open corpus…).")
                   .arg(s.task);
    return {};
}

bool TokensController::hasText() const
{
    const SessionSettings& s = window_->settings();
    return s.userCorpus() ? !s.corpus->trainingText().isEmpty()
                          : isBundledCorpusTask(s.task) || isCorpusLanguageModelTask(s.task);
}

std::optional<CorpusSide> TokensController::languageModelSide() const
{
    // lm-en is the English (target) side of zh-en, lm-zh its Chinese (source) side.
    const QString& task = window_->settings().task;
    if (!isCorpusLanguageModelTask(task))
        return std::nullopt;
    return task == QLatin1String("lm-en") ? CorpusSide::Target : CorpusSide::Source;
}

void TokensController::updateComparison()
{
    const SessionSettings& s = window_->settings();
    const CorpusSide side = view_->side();
    const Tokenizer current = side == CorpusSide::Source ? task_.srcTokenizer : task_.tgtTokenizer;
    // B cuts the corpus's pairs another way: a bundled corpus's as makeTaskData splits them, a
    // user's from the text the session kept (makeSessionData), the same pairs either way.
    if (!s.userCorpus() && !isBundledCorpusTask(s.task) && !isCorpusLanguageModelTask(s.task))
        view_->setComparisonAllowed(false, tr("The A/B against BPE cuts a corpus's pairs another way: apply zh-en or open a corpus (File > Open corpus…) first."));
    else if (!s.userCorpus() && s.sharedVocab)
        view_->setComparisonAllowed(false, tr("The session shares one vocabulary between its sides, which a BPE side cannot: untick \"shared vocabulary\" first."));
    else if (s.userCorpus() && s.source.dataset.shared_vocab)
        view_->setComparisonAllowed(false, tr("The corpus was read with one vocabulary for both sides (--shared-vocab), which a BPE side cannot share: open it again without it."));
    else if (tokenizerName(current) == tokenizerName(bpe()))
        view_->setComparisonAllowed(false, tr("This side is cut by bpe:%1 already.").arg(kBpeSize));
    else
        view_->setComparisonAllowed(true);
}

void TokensController::refresh()
{
    view_->setOneSide(languageModelSide());
    updateComparison();
    if (window_->views()->currentView() != view_)
        return;
    if (!hasText()) {
        cancel();
        builtFor_.clear();
        shown_.reset();
        QString why;
        trainingText(&why);
        view_->setUnavailable(why);
        return;
    }
    if (task_.examples.empty() || task_.name != window_->settings().task)
        return;  // the worker is still building the session's data: taskReady comes
    const CorpusSide side = view_->side();
    const QString key = sessionKey(side);
    if (key != builtFor_ && key != buildingFor_)
        build(side);
}

void TokensController::build(CorpusSide side)
{
    updateComparison();
    const SessionSettings& s = window_->settings();
    QString error;
    const QList<SentencePair> pairs = trainingText(&error);
    if (pairs.isEmpty()) {
        view_->setUnavailable(error.isEmpty() ? tr("No corpus to cut.") : error);
        return;
    }
    QStringList sentences;
    sentences.reserve(pairs.size());
    for (const SentencePair& p : pairs)
        sentences << (side == CorpusSide::Source ? p.src : p.tgt);
    const Tokenizer session = side == CorpusSide::Source ? task_.srcTokenizer : task_.tgtTokenizer;
    const QList<Tokenizer> choices = choicesFor(session);
    // cjk-char and word as the session's vocabularies are built: a user's corpus with the
    // options it was read with (--min-freq, --max-vocab), a bundled one with the defaults.
    const DatasetOptions dataset = s.userCorpus() ? s.source.dataset : DatasetOptions();
    const int minFreq = side == CorpusSide::Source ? dataset.src_min_freq : dataset.tgt_min_freq;
    const int maxVocab = side == CorpusSide::Source ? dataset.src_max_vocab : dataset.tgt_max_vocab;
    const QString probe = probeFor(side);
    const QString typed = view_->typedText();
    const QString name = s.task;
    buildingFor_ = sessionKey(side);
    view_->setProgress(0, 1000);
    // A build still under way is dropped (its answer never comes); this one starts after it.
    builder_->start([=, this](const Progress& progress) -> std::function<void()> {
        TokensRecord r = buildTokensRecord(sentences, choices, minFreq, maxVocab, probe, typed, progress);
        r.corpus = name;
        r.side = side;
        return [this, r = std::move(r)]() mutable { showBuilt(std::move(r)); };
    });
}

void TokensController::cancel()
{
    if (!builder_->busy())
        return;
    builder_->cancel();
    view_->setProgress(0, 0);
    if (!shown_)
        view_->setUnavailable(tr("Cancelled: press Compute to cut the corpus again."));
    buildingFor_.clear();
}

void TokensController::recut()
{
    if (!shown_)
        return;
    auto record = std::make_shared<TokensRecord>(*shown_);
    recutTokens(record.get(), probeFor(record->side), view_->typedText());
    shown_ = record;
    view_->setRecord(shown_);
}

}  // namespace as
