// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "training_worker.h"

#include "decode/decode.h"
#include "run/make_session.h"
#include "run/resume.h"

#include <QFileInfo>

namespace as {
namespace {

// Whether the data of A/B's B built on A's settings `x` is B's data on `y` too: the same task
// or corpus, batches, seed and tokenisers (what comparisonOf gives B of A's, and
// makeSessionData reads).
bool sameComparisonData(const SessionSettings& x, const SessionSettings& y)
{
    const auto name = [](const std::optional<Tokenizer>& t) { return t ? tokenizerName(*t) : QString(); };
    return x.task == y.task && x.corpus == y.corpus && x.batchSize == y.batchSize
           && x.batchTokens == y.batchTokens && x.train.seed == y.train.seed
           && x.sharedVocab == y.sharedVocab && name(x.srcTok) == name(y.srcTok)
           && name(x.tgtTok) == name(y.tgtTok);
}

// B's data in `p`, if it was built for the B that `asked` gives beside A's settings `a`.
std::unique_ptr<SessionData> takeComparisonData(PreparedSession* p, const SessionSettings& a,
                                                const SessionSettings& asked)
{
    if (!p || !p->bData || !p->asked
        || !sameComparisonData(comparisonOf(p->a, *p->asked), comparisonOf(a, asked)))
        return nullptr;
    return std::move(p->bData);
}

}  // namespace

TrainingWorker::TrainingWorker(QObject* parent) : QObject(parent)
{
    // The mailbox is a child: it moves with the worker to the worker's thread.
    validations_ = std::make_unique<BackgroundValidations>(
        new Mailbox(this), [this](std::vector<Validation> done) { applyValidations(std::move(done)); });
    timer_ = new QTimer(this);
    timer_->setSingleShot(true);
    connect(timer_, &QTimer::timeout, this, &TrainingWorker::runSteps);
}

TrainingWorker::~TrainingWorker()
{
    validations_->abandon();
}

std::unique_ptr<SessionData> TrainingWorker::buildData(const SessionSettings& s, QString* error)
{
    QString why;
    std::unique_ptr<SessionData> data = makeSessionData(s, &why);
    if (!data)
        *error = tr("The task cannot be built: %1.").arg(why);
    return data;
}

std::unique_ptr<TrainingSession> TrainingWorker::buildSession(SessionSettings* s, QString* error,
                                                              std::unique_ptr<SessionData> data)
{
    if (!data)
        data = buildData(*s, error);
    if (!data)
        return nullptr;
    QString why;
    std::unique_ptr<TrainingSession> session = makeSession(std::move(data), s, &why);
    if (!session)
        *error = tr("The model cannot be built: %1.").arg(why);
    return session;
}

void TrainingWorker::configure(const SessionSettings& settings, const PreparedSessionPtr& prepared)
{
    // An A/B comparison restarts with it, on the new settings' data, or ends if it cannot.
    const std::optional<SessionSettings> comparing =
        compared_ ? std::optional<SessionSettings>(compared_->asked()) : std::nullopt;
    std::unique_ptr<SessionData> b = comparing ? takeComparisonData(prepared.get(), settings, *comparing) : nullptr;
    std::unique_ptr<SessionData> a = prepared ? std::move(prepared->aData) : nullptr;
    startSession(settings, comparing, std::move(b), std::move(a));
}

void TrainingWorker::startSession(const SessionSettings& settings,
                                  const std::optional<SessionSettings>& comparing,
                                  std::unique_ptr<SessionData> comparingData,
                                  std::unique_ptr<SessionData> data)
{
    timer_->stop();
    const bool wasRunning = running_;
    running_ = false;
    pendingSteps_ = 0;
    if (wasRunning)
        emit runningChanged(false);
    SessionSettings s = settings;
    QString error;
    std::unique_ptr<TrainingSession> session = buildSession(&s, &error, std::move(data));
    if (!session) {
        emit failed(error);
        return;
    }
    // The probe's batch stands in the masks view until the first step.
    const Batch first = encodePairs(session->data().description(), session->data().examples());
    const std::vector<TokenPair>& examples = session->data().examples();
    const TokenPair probe = examples.empty()
                                ? TokenPair{}
                                : examples.at(std::size_t(std::clamp(s.probe, 0, int(examples.size()) - 1)));
    adoptSession(s, std::move(session), probe);  // ends any comparison
    restoreHistory_ = false;  // a new run: the views start empty
    session_->recordBatch(first);
    if (comparing)
        buildComparison(*comparing, std::move(comparingData));
    emit taskReady(std::make_shared<const Task>(session_->data().description()));
    emitSnapshot();
}

void TrainingWorker::reset()
{
    configure(settings_);
}

void TrainingWorker::play()
{
    if (!trainable() || running_)
        return;
    running_ = true;
    emit runningChanged(true);
    scheduleNext();
}

void TrainingWorker::pause()
{
    pendingSteps_ = 0;
    timer_->stop();
    if (running_) {
        running_ = false;
        emit runningChanged(false);
    }
    emitSnapshot();
}

void TrainingWorker::step(int n)
{
    if (!trainable() || n <= 0)
        return;
    if (running_)
        pause();
    pendingSteps_ += n;
    scheduleNext();
}

void TrainingWorker::setStepsPerSecond(double stepsPerSecond)
{
    stepsPerSecond_ = std::max(0.0, stepsPerSecond);
}

void TrainingWorker::setProbe(const QStringList& src, const QStringList& tgt)
{
    probe_ = {src, tgt};
    probeHasReference_ = !tgt.isEmpty();
    decodingStale_ = true;
    completeProbe();
    emitSnapshot();
}

void TrainingWorker::shutdown()
{
    validations_->abandon();
    timer_->stop();
    running_ = false;
    pendingSteps_ = 0;
}

void TrainingWorker::scheduleNext()
{
    if (!running_ && pendingSteps_ == 0)
        return;
    // Commands queued meanwhile (Pause, a new probe) run before the next steps.
    timer_->start(stepsPerSecond_ > 0 ? int(1000.0 / stepsPerSecond_) : 0);
}

void TrainingWorker::runSteps()
{
    // At full speed, steps run back to back for up to kSliceMs before the event loop sees the
    // next command (so a Pause waits at most that long): one event per step cost the small
    // built-in tasks' models more than the step itself. A throttled run takes one step an event.
    QElapsedTimer slice;
    slice.start();
    while (runOneStep()) {
        if (stepsPerSecond_ > 0 || slice.elapsed() >= kSliceMs) {
            scheduleNext();
            return;
        }
    }
}

bool TrainingWorker::runOneStep()
{
    if (!trainable() || (!running_ && pendingSteps_ == 0))
        return false;
    const bool wasFinished = session_->finished();
    const SessionStep r = session_->step();
    if (!r.stats.applied) {
        // The trainer skipped the update: the weights are those of the step before.
        health_.nonFinite = std::make_shared<const NonFiniteRecord>(
            NonFiniteRecord{r.stats.step, r.stats.faultTensor, r.stats.fault});
        pause();
        emit failed(tr("Training is paused: %1. Try a smaller learning-rate factor, a longer "
                       "warmup or gradient clipping, then Reset.")
                        .arg(r.stats.fault));
        return false;
    }
    if (r.stats.health)
        health_.records.push_back(std::make_shared<const HealthRecord>(HealthRecord{r.stats.step, r.stats.health}));
    if (r.stats.histograms)
        health_.histograms.push_back(r.stats.histograms);
    const LossPoint& point = session_->history().loss.back();
    lastLoss_ = point.loss;
    lastLr_ = point.lr;
    newLoss_.push_back(point);
    if (r.validationDue)
        startValidation();
    if (compared_)
        compared_->catchUp(session_->stepCount());

    // Play stops when the plan is reached (TrainingSession::finished); pressing it again
    // trains on past it.
    if (running_ && !wasFinished && session_->finished()) {
        pause();
        return false;
    }
    if (pendingSteps_ > 0 && --pendingSteps_ == 0 && !running_) {
        emitSnapshot();
        return false;
    }
    if (!sinceSnapshot_.isValid() || sinceSnapshot_.elapsed() >= kSnapshotIntervalMs)
        emitSnapshot();
    return true;
}

void TrainingWorker::startValidation()
{
    // The copy is taken now, at the step the validation is due, with the Heads view's mutes.
    std::shared_ptr<Transformer<float>> model(session_->model().clone());
    maskHeads(*model, muted_);
    validations_->start(std::move(model), session_->sharedData(), session_->stepCount(),
                        session_->trainSeconds());
}

void TrainingWorker::applyValidations(std::vector<Validation> done)
{
    if (!session_)
        return;
    // A snapshot for each: every validation, its samples included, reaches the window (they
    // are rare) — two finishing together would otherwise show only the later one's samples,
    // and the Samples view would compare it with an older record.
    for (Validation& v : done) {
        session_->addValidation(v.point);
        newEval_.push_back(v.point);
        samples_ = v.samples;
        emitSnapshot();
    }
}

void TrainingWorker::emitSnapshot()
{
    if (!session_)
        return;
    auto s = std::make_shared<TrainingSnapshot>();
    s->step = session_->stepCount();
    s->epoch = session_->epoch();
    s->plannedSteps = settings_.plannedSteps;
    s->running = running_ || pendingSteps_ > 0;
    s->lr = lastLr_;
    s->loss = lastLoss_;
    s->lossRecorded = !session_->history().loss.empty();
    s->elapsedSeconds = session_->trainSeconds();
    s->tokensPerSecond = session_->tokensPerSecond();
    s->remainingSeconds = session_->remainingSeconds();
    s->config = settings_.model;
    s->options = settings_.train;
    s->attention = probe_.src.isEmpty() ? nullptr : session_->recordAttention(probe_);
    if (traceWanted_)
        s->trace = session_->recordTrace(probe_);
    session_->recordBatch(session_->lastBatch());
    s->batch = session_->history().lastBatch;
    s->samples = samples_;
    if (session_->trainer().profile().steps > 0)
        health_.profile = std::make_shared<const ProfileTotals>(session_->trainer().takeProfile());
    s->health = std::move(health_);
    health_ = HealthUpdate{s->health.layout, {}, {}, nullptr, nullptr};
    if (restoreHistory_) {
        restoreHistory_ = false;
        s->replacesHistory = true;
        s->newLoss = session_->history().loss;
        s->newEval = session_->history().eval;
        s->attentionHistory = session_->history().attention;
        newLoss_.clear();
        newEval_.clear();
    } else {
        s->newLoss.swap(newLoss_);
        s->newEval.swap(newEval_);
    }
    if (compared_)
        s->comparison = compared_->takeUpdate();
    sinceSnapshot_.start();
    emit snapshotReady(s);
    emitDecodingIfDue();
}

void TrainingWorker::setDecodingWanted(bool wanted)
{
    decodingWanted_ = wanted;
    emitDecodingIfDue();
}

void TrainingWorker::emitDecodingIfDue()
{
    if (!decodingWanted_ || !session_ || probe_.src.isEmpty())
        return;
    const long step = session_->stepCount();
    if (!decodingStale_ && step == decodingStep_)
        return;
    const bool training = running_ || pendingSteps_ > 0;
    if (!decodingStale_ && training && sinceDecoding_.isValid() && sinceDecoding_.elapsed() < 1000)
        return;  // the pause (or the next snapshot after a second) brings it
    const SessionData& data = session_->data();
    auto r = std::make_shared<DecodingRecord>(makeDecodingRecord(
        session_->model(), data.srcVocab(), data.tgtVocab(), data.srcVocab().encode(probe_.src),
        data.tgtVocab().encode(probe_.tgt), probeHasReference_));
    r->step = step;
    decodingStale_ = false;
    decodingStep_ = step;
    sinceDecoding_.start();
    emit decodingReady(r);
}

void TrainingWorker::setMutedHeads(const std::vector<HeadId>& heads)
{
    muted_ = heads;
}

void TrainingWorker::setTraceWanted(bool wanted)
{
    const bool turnedOn = wanted && !traceWanted_;
    traceWanted_ = wanted;
    if (turnedOn)
        emitSnapshot();
}

void TrainingWorker::requestNeuron(AttentionKind kind, int layer, int head, int query)
{
    if (!session_ || probe_.src.isEmpty())
        return;
    Transformer<float>& m = session_->model();
    const SessionData& data = session_->data();
    const ModelConfig& c = m.config();
    m.evaluate(encodePairs(data.description(), {probe_}));  // the probe, dropout off
    auto r = std::make_shared<NeuronRecord>();
    r->step = session_->stepCount();
    r->kind = kind;
    r->layer = std::clamp(layer, 0, m.layers(kind) - 1);
    r->head = std::clamp(head, 0, c.heads - 1);
    QStringList src = probe_.src;
    for (QString& t : src)
        if (!data.srcVocab().contains(t))
            t = QStringLiteral("<unk>");
    const QStringList tgt = QStringList{QStringLiteral("<s>")} + probe_.tgt;
    r->queryTokens = kind == AttentionKind::EncoderSelf ? src : tgt;
    r->keyTokens = kind == AttentionKind::DecoderSelf ? tgt : src;
    r->query = std::clamp(query, 0, int(r->queryTokens.size()) - 1);
    r->view = neuronView(m, kind, r->layer, 0, r->head, r->query);
    if (kind == AttentionKind::EncoderSelf && r->layer == 0)
        r->terms = firstLayerScoreTerms(m, data.srcVocab().encode(probe_.src));
    emit neuronReady(r);
}


void TrainingWorker::startComparison(const PreparedSessionPtr& b)
{
    if (!trainable()) {
        emit comparisonFailed(tr("A/B needs a session that trains (a task or a corpus)."));
        return;
    }
    // Both from step 0, on the same data in the same order. B's data, if the window built it on
    // other settings than this session's (a session it asked for that failed), is built again.
    const SessionSettings a = settings_;
    startSession(a, *b->asked, takeComparisonData(b.get(), a, *b->asked));
}

void TrainingWorker::stopComparison()
{
    endComparison();
    emitSnapshot();
}

void TrainingWorker::keepComparison()
{
    if (!compared_)
        return;
    timer_->stop();
    const bool wasRunning = running_;
    std::unique_ptr<TrainingSession> b = compared_->takeSession();
    const SessionSettings s = compared_->settings();
    adoptSession(s, std::move(b), probe_);  // the history comes whole with the next snapshot
    if (wasRunning)
        emit runningChanged(false);
    emit sessionLoaded(settings_, std::make_shared<const Task>(session_->data().description()),
                       QString(), session_->stepCount(), true);
    emitSnapshot();
}

void TrainingWorker::buildComparison(const SessionSettings& asked, std::unique_ptr<SessionData> data)
{
    SessionSettings b = comparisonOf(settings_, asked);
    QString error;
    std::unique_ptr<TrainingSession> session = buildSession(&b, &error, std::move(data));
    if (!session) {
        compared_.reset();
        emit comparisonFailed(error);
        return;
    }
    compared_ = std::make_unique<ComparedSession>(settings_, asked, b, std::move(session));
}

void TrainingWorker::endComparison()
{
    compared_.reset();
}

void TrainingWorker::requestEmbedding(EmbeddingTable table)
{
    if (!session_)
        return;
    const SessionData& data = session_->data();
    const Vocab& vocab = table == EmbeddingTable::Source ? data.srcVocab() : data.tgtVocab();
    emit embeddingReady(projector_.project(embeddingRows(session_->model(), table), vocab, table,
                                           session_->stepCount(), EmbeddingProjector::kMaxShown,
                                           session_->model().config().tie));
}

void TrainingWorker::requestNeighbours(EmbeddingTable table, int id)
{
    if (!session_)
        return;
    const SessionData& data = session_->data();
    const Vocab& vocab = table == EmbeddingTable::Source ? data.srcVocab() : data.tgtVocab();
    emit neighboursReady(EmbeddingProjector::neighbours(embeddingRows(session_->model(), table), vocab,
                                                        table, id, session_->stepCount()));
}

void TrainingWorker::requestModelCopy()
{
    if (!session_)
        return;
    // The weights change only by a step or with the session: until then the last copy is
    // still theirs (a mute re-translating with paused weights need not copy 35 MB again).
    if (lastCopy_ && lastCopyGeneration_ == validations_->generation() && lastCopy_->step == session_->stepCount()) {
        emit modelCopyReady(lastCopy_);
        return;
    }
    auto copy = std::make_shared<ModelCopy>();
    const SessionData& data = session_->data();
    copy->step = session_->stepCount();
    copy->model = std::shared_ptr<Transformer<float>>(session_->model().clone());
    copy->srcVocab = data.srcVocab();
    copy->tgtVocab = data.tgtVocab();
    copy->srcTokenizer = data.srcTokenizer();
    copy->tgtTokenizer = data.tgtTokenizer();
    copy->data = session_->sharedData();
    lastCopy_ = copy;
    lastCopyGeneration_ = validations_->generation();
    emit modelCopyReady(copy);
}

bool TrainingWorker::resumeOn(SessionSettings s, std::unique_ptr<SessionData> data, Checkpoint& ck,
                              TokenPair probe, const QString& path, bool autosave)
{
    const int examples = int(data->examples().size());
    s.probe = std::clamp(s.probe, 0, std::max(0, examples - 1));
    if (probe.src.isEmpty() && examples > 0)
        probe = data->examples().at(std::size_t(s.probe));
    QString error;
    std::unique_ptr<TrainingSession> resumed =
        resumeSession(std::move(data), ck, s.plan(), &error);
    if (!resumed) {
        emit checkpointFailed(tr("%1 was not opened: %2").arg(QFileInfo(path).fileName(), error));
        return false;
    }
    // Commit: from here on the session is the checkpoint's.
    const bool wasRunning = adoptSession(s, std::move(resumed), probe);
    if (wasRunning)
        emit runningChanged(false);
    emit sessionLoaded(settings_, std::make_shared<const Task>(session_->data().description()),
                       path, session_->stepCount(), autosave);
    emitSnapshot();
    return true;
}

void TrainingWorker::resumeCorpus(std::shared_ptr<const SessionData> corpus, const CorpusSource& source,
                                  std::shared_ptr<Checkpoint> ck, const QString& path, bool autosave)
{
    TokenPair probe;
    const SessionSettings s = savedCorpusSettings(*ck, std::move(corpus), source, &probe);
    QString error;
    std::unique_ptr<SessionData> data = makeSessionData(s, &error);
    if (!data) {
        emit checkpointFailed(tr("%1 was not opened: %2").arg(QFileInfo(path).fileName(), error));
        return;
    }
    resumeOn(s, std::move(data), *ck, probe, path, autosave);
}

void TrainingWorker::saveCheckpoint(const QString& path, bool autosave)
{
    if (!session_) {
        emit checkpointFailed(tr("There is no model to save."));
        return;
    }
    validations_->finish();
    QString error;
    if (!session_->saveCheckpoint(path, sessionRecord(settings_, probe_), &error)) {
        emit checkpointFailed(error);
        return;
    }
    emit checkpointSaved(path, session_->stepCount(), autosave);
}

void TrainingWorker::loadCheckpoint(const QString& path, bool autosave)
{
    // Everything is read and checked before anything of the running session changes.
    QString error;
    std::optional<Checkpoint> ck = as::loadCheckpoint(path, &error);
    auto fail = [&](const QString& why) {
        emit checkpointFailed(tr("%1 was not opened: %2").arg(QFileInfo(path).fileName(), why));
    };
    if (!ck) {
        fail(error);
        return;
    }
    const QJsonObject data = ck->run.data;
    const SavedRunKind kind = savedRunKind(*ck);
    if (kind != SavedRunKind::Task) {
        // A corpus run (the command line's or the window's) or a saved inspection: shown as it
        // is, history and all. For a corpus run the window then looks for its corpus and, if
        // it finds it, continues it (resumeCorpus).
        SessionSettings ignored;
        TokenPair probe;
        readSessionRecord(*ck, &ignored, &probe);
        if (probe.src.isEmpty() && !ck->history.attention.empty()) {
            const AttentionRecord& last = *ck->history.attention.back();
            probe = {last.srcTokens, last.tgtTokens.mid(1)};  // without "<s>"
        }
        const double seconds = ck->run.trainSeconds;
        TrainingHistory history = std::move(ck->history);
        std::unique_ptr<Trainer> trainer = trainerFromCheckpoint(*ck);
        beginInspection(ck->model, std::move(trainer), probe, std::move(history), seconds, path,
                        autosave, kind == SavedRunKind::Corpus ? data : QJsonObject{});
        return;
    }
    SessionSettings s;
    TokenPair probe;
    if (!savedTaskSettings(*ck, &s, &probe, &error)) {
        fail(error);
        return;
    }
    std::unique_ptr<SessionData> taskData = makeSessionData(s, &error);
    if (!taskData) {
        fail(error);
        return;
    }
    if (QString why = checkSavedRunData(*taskData, *ck); !why.isEmpty()) {
        fail(why);
        return;
    }
    resumeOn(s, std::move(taskData), *ck, probe, path, autosave);
}

void TrainingWorker::importWeights(const QString& path, const ImportOptions& options)
{
    QString error;
    QStringList notes;
    std::optional<ModelBundle> b = as::importWeights(path, options, &notes, &error);
    if (!b) {
        emit checkpointFailed(tr("%1 was not imported: %2").arg(QFileInfo(path).fileName(), error));
        return;
    }
    auto trainer = std::make_unique<Trainer>(std::move(b->model), TrainOptions{});
    if (b->provenance.step > 0)  // the step its metadata records (the views show it)
        trainer->restoreState(b->provenance.step, trainer->dropoutRngState());
    beginInspection(*b, std::move(trainer), {}, {}, 0, path, true);
}

void TrainingWorker::beginInspection(const ModelBundle& described, std::unique_ptr<Trainer> trainer,
                                     TokenPair probe, TrainingHistory history,
                                     double trainSeconds, const QString& path, bool untitled,
                                     const QJsonObject& corpusRecord)
{
    SessionSettings s;
    s.corpusRecord = corpusRecord;
    s.recordedRun = described.provenance.run;
    std::unique_ptr<TrainingSession> session =
        makeInspectionSession(described, std::move(trainer), std::move(history), trainSeconds,
                              QStringLiteral("model:") + QFileInfo(path).fileName(), &s);

    const bool wasRunning = adoptSession(s, std::move(session), probe);
    if (probe_.src.isEmpty())
        probe_ = defaultProbe();
    completeProbe();
    if (wasRunning)
        emit runningChanged(false);
    emit sessionLoaded(settings_, std::make_shared<const Task>(session_->data().description()),
                       path, session_->stepCount(), untitled);
    emitSnapshot();
}

bool TrainingWorker::adoptSession(const SessionSettings& s, std::unique_ptr<TrainingSession> session,
                                  const TokenPair& probe)
{
    timer_->stop();
    const bool wasRunning = running_;
    running_ = false;
    pendingSteps_ = 0;
    validations_->abandon();
    endComparison();
    settings_ = s;
    session_ = std::move(session);
    projector_.forget();  // another model: its components have nothing to do with the last
    probe_ = probe;
    probeHasReference_ = !probe.tgt.isEmpty();
    decodingStale_ = true;
    const std::vector<LossPoint>& loss = session_->history().loss;
    lastLoss_ = loss.empty() ? 0 : loss.back().loss;
    lastLr_ = loss.empty() ? 0 : loss.back().lr;
    newLoss_.clear();
    newEval_.clear();
    samples_.reset();
    // Training health is measured from here on (the window's cost: see README, Health).
    session_->trainer().setRecordHealth(true);
    session_->trainer().setHistogramEvery(kHistogramEvery);
    // And where a step's time goes (the Health tab's table; its cost: see README, bench).
    session_->trainer().setProfile(true);
    health_ = HealthUpdate{healthLayoutOf(session_->model()), {}, {}, nullptr, nullptr};
    restoreHistory_ = true;  // the next snapshot carries the history whole
    return wasRunning;
}

TokenPair TrainingWorker::defaultProbe() const
{
    const QStringList tokens = session_->data().srcVocab().tokens();
    return {tokens.mid(4, 6), {}};  // after <pad> <s> </s> <unk>: the most frequent
}

void TrainingWorker::completeProbe()
{
    if (!settings_.inspecting() || !session_)
        return;
    const SessionData& data = session_->data();
    if (probe_.tgt.isEmpty() && !probe_.src.isEmpty()) {
        probeHasReference_ = false;  // the model's own translation, not a reference
        const DecodeResult r = greedyDecode(session_->model(), data.srcVocab().encode(probe_.src));
        probe_.tgt = data.tgtVocab().decode(r.nbest[0].tokens);
    }
    // The masks view shows the probe's own masks: there is no training batch.
    session_->recordBatch(encodePairs(data.description(), {probe_}));
}

void TrainingWorker::requestSummary()
{
    validations_->finish();
    if (session_)
        emit summaryReady(std::make_shared<const RunSummary>(session_->summarize()));
}

void TrainingWorker::exportWeights(const QString& path)
{
    QString error;
    if (!session_)
        error = tr("there is no model");
    else if (session_->saveModel(path, &error)) {
        emit weightsExported(path);
        return;
    }
    emit checkpointFailed(tr("The weights were not exported: %1").arg(error));
}

}  // namespace as
