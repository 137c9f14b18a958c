// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The worker's session and its step loop: building and starting sessions, Play, Pause and
// steps, validations in the background, snapshots. Its other jobs have files of their own:
// A/B in training_worker_comparison.cpp, checkpoints and weight files in
// training_worker_files.cpp, what the views ask for in training_worker_views.cpp.
#include "training_worker.h"

#include "decode/decode.h"
#include "run/make_session.h"

namespace as {

TrainingWorker::TrainingWorker(QObject* parent) : QObject(parent)
{
    // The mailbox is a child: it moves with the worker to the worker's thread.
    validations_ = std::make_unique<BackgroundValidations>(
        new Mailbox(this), [this](std::vector<BackgroundValidations::Done> done) { applyValidations(std::move(done)); });
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
                        session_->trainSeconds(), {true, true});
}

void TrainingWorker::applyValidations(std::vector<BackgroundValidations::Done> done)
{
    if (!session_)
        return;
    // A snapshot for each of A's: every validation, its samples included, reaches the window
    // (they are rare) — two finishing together would otherwise show only the later one's
    // samples, and the Samples view would compare it with an older record.
    bool forB = false;
    for (BackgroundValidations::Done& d : done) {
        if (d.lane != 0) {
            if (compared_ && compared_->lane() == d.lane) {
                compared_->addValidation(d.validation);
                forB = true;
            }
            continue;
        }
        const Validation& v = d.validation;
        session_->addValidation(v);
        newEval_.push_back(v.point);
        samples_ = v.samples;
        induction_ = v.induction;
        emitSnapshot();
    }
    if (forB)
        emitSnapshot();
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
    s->secondsPerStep = session_->secondsPerStep();
    s->remainingSeconds = session_->remainingSeconds();
    s->config = settings_.model;
    s->options = settings_.train;
    s->attention = hasProbe() ? session_->recordAttention(probe_) : nullptr;
    if (traceWanted_)
        s->trace = session_->recordTrace(probe_);
    session_->recordBatch(session_->lastBatch());
    s->batch = session_->history().lastBatch;
    s->samples = samples_;
    s->induction = std::exchange(induction_, nullptr);
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
        s->inductionHistory = session_->history().induction;
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

bool TrainingWorker::hasProbe() const
{
    return !probe_.src.isEmpty()
           || (session_ && session_->model().config().decoderOnly() && !probe_.tgt.isEmpty());
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

}  // namespace as
