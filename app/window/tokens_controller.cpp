#include "tokens_controller.h"

#include "comparison_actions.h"
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
#include <QtConcurrent/QtConcurrentRun>

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
    watcher_ = new QFutureWatcher<TokensRecord>(this);
    connect(watcher_, &QFutureWatcher<TokensRecord>::finished, this, [this] {
        if (!watcher_->isFinished())
            return;  // a late signal of a build replaced since
        view_->setProgress(0, 0);
        const bool cancelled = cancelled_ && cancelled_->load();
        if (cancelled || watcher_->isCanceled() || watcher_->future().resultCount() == 0) {
            if (!shown_)
                view_->setUnavailable(tr("Cancelled: press Compute to cut the corpus again."));
            buildingFor_.clear();
            return;
        }
        TokensRecord record = watcher_->result();
        recutTokens(&record, record.side == CorpusSide::Source ? probe_ : probeTarget_, view_->typedText());
        shown_ = std::make_shared<const TokensRecord>(std::move(record));
        builtFor_ = buildingFor_;
        buildingFor_.clear();
        view_->setRecord(shown_);
        emit recordShown();
    });
    connect(view_, &ui::TokensView::recordWanted, this, &TokensController::build);
    connect(view_, &ui::TokensView::cancelRequested, this, &TokensController::cancel);
    connect(view_, &ui::TokensView::typedChanged, this, &TokensController::recut);
    connect(view_, &ui::TokensView::comparisonRequested, this, [this](CorpusSide side) {
        const SessionSettings b = bpeComparison(window_->settings(), side);
        window_->comparisons()->startComparison(b);
        window_->statusBar()->showMessage(
            tr("A/B: B is this session with bpe:%1 on the %2 side; the Loss view shows both")
                .arg(kBpeSize)
                .arg(side == CorpusSide::Source ? tr("source") : tr("target")),
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
    cancel();
    watcher_->waitForFinished();
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
    // The task's data as the worker built it (its tokenisers and vocabularies), and the side.
    return QStringList{window_->settings().task, tokenizerName(task_.srcTokenizer),
                       tokenizerName(task_.tgtTokenizer), QString::number(task_.srcVocab.size()),
                       QString::number(task_.tgtVocab.size()), QString::number(int(side))}
        .join(u'|');
}

void TokensController::updateComparison()
{
    const SessionSettings& s = window_->settings();
    const CorpusSide side = view_->side();
    const Tokenizer current = side == CorpusSide::Source ? task_.srcTokenizer : task_.tgtTokenizer;
    if (!isBundledCorpusTask(s.task))
        view_->setComparisonAllowed(false, tr("The A/B against BPE cuts a bundled corpus (zh-en) another way: apply zh-en first."));
    else if (s.sharedVocab)
        view_->setComparisonAllowed(false, tr("The session shares one vocabulary between its sides, which a BPE side cannot: untick \"shared vocabulary\" first."));
    else if (tokenizerName(current) == tokenizerName(bpe()))
        view_->setComparisonAllowed(false, tr("This side is cut by bpe:%1 already.").arg(kBpeSize));
    else
        view_->setComparisonAllowed(true);
}

void TokensController::refresh()
{
    updateComparison();
    if (window_->views()->currentView() != view_)
        return;
    const SessionSettings& s = window_->settings();
    if (!isBundledCorpusTask(s.task)) {
        cancel();
        builtFor_.clear();
        shown_.reset();
        view_->setUnavailable(tr("The Tokens view trains and compares tokenisers on a bundled corpus's "
                                 "training split: apply zh-en in Settings (this session is %1).")
                                  .arg(s.task));
        return;
    }
    if (task_.examples.empty())
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
    const std::optional<BundledCorpus> corpus = isBundledCorpusTask(s.task) ? loadBundledCorpus(s.task, &error)
                                                                           : std::nullopt;
    if (!corpus) {
        view_->setUnavailable(error.isEmpty() ? tr("No bundled corpus to cut.") : error);
        return;
    }
    cancel();
    watcher_->waitForFinished();
    QStringList sentences;
    sentences.reserve(corpus->split.train.size());
    for (const SentencePair& p : corpus->split.train)
        sentences << (side == CorpusSide::Source ? p.src : p.tgt);
    const Tokenizer session = side == CorpusSide::Source ? task_.srcTokenizer : task_.tgtTokenizer;
    const QList<Tokenizer> choices = choicesFor(session);
    const DatasetOptions defaults;
    const int minFreq = side == CorpusSide::Source ? defaults.src_min_freq : defaults.tgt_min_freq;
    const QString probe = side == CorpusSide::Source ? probe_ : probeTarget_;
    const QString typed = view_->typedText();
    const QString name = s.task;
    auto cancelled = std::make_shared<std::atomic<bool>>(false);
    cancelled_ = cancelled;
    buildingFor_ = sessionKey(side);
    view_->setProgress(0, 100 * int(choices.size()));
    QPointer<ui::TokensView> view = view_;
    watcher_->setFuture(QtConcurrent::run([=] {
        TokensRecord r = buildTokensRecord(sentences, choices, minFreq, probe, typed, [=](int done, int total) {
            QMetaObject::invokeMethod(view, [=] {
                if (view && !cancelled->load())
                    view->setProgress(done, total);
            }, Qt::QueuedConnection);
            return !cancelled->load();
        });
        r.corpus = name;
        r.side = side;
        return r;
    }));
}

void TokensController::cancel()
{
    if (cancelled_)
        cancelled_->store(true);
}

void TokensController::recut()
{
    if (!shown_)
        return;
    auto record = std::make_shared<TokensRecord>(*shown_);
    recutTokens(record.get(), record->side == CorpusSide::Source ? probe_ : probeTarget_, view_->typedText());
    shown_ = record;
    view_->setRecord(shown_);
}

}  // namespace as
