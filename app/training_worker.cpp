#include "training_worker.h"

#include "decode/decode.h"
#include "train/recipe.h"

#include <QFileInfo>
#include <QJsonArray>

#include <chrono>
#include <cmath>

namespace as {

SessionSettings SessionSettings::defaultsFor(const QString& task)
{
    const TaskRecipe r = recipeFor(task);
    SessionSettings s;
    s.task = task;
    s.model = r.model;
    s.train = r.train;
    s.batchSize = r.batchSize;
    s.plannedSteps = r.steps;
    s.evalEvery = r.evalEvery;
    return s;
}

TrainingWorker::TrainingWorker(QObject* parent) : QObject(parent)
{
    timer_ = new QTimer(this);
    timer_->setSingleShot(true);
    connect(timer_, &QTimer::timeout, this, &TrainingWorker::runSteps);
}

TrainingWorker::~TrainingWorker() = default;

void TrainingWorker::configure(const SessionSettings& settings)
{
    timer_->stop();
    const bool wasRunning = running_;
    running_ = false;
    pendingSteps_ = 0;
    settings_ = settings;
    task_ = makeBuiltinTask(settings.task, settings.batchSize);
    if (task_.name.isEmpty()) {
        emit failed(tr("Unknown task '%1'.").arg(settings.task));
        return;
    }
    settings_.model.src_vocab = task_.srcVocab.size();
    settings_.model.tgt_vocab = task_.tgtVocab.size();
    if (const QString err = settings_.model.validate(); !err.isEmpty()) {
        trainer_.reset();
        emit failed(tr("The model cannot be built: %1.").arg(err));
        return;
    }
    trainer_ = std::make_unique<Trainer>(settings_.model, settings_.train);
    dataRng_.reseed(settings_.train.seed * 0x9e3779b97f4a7c15ULL + 7);
    probe_ = task_.examples.at(std::size_t(
        std::clamp(settings_.probe, 0, int(task_.examples.size()) - 1)));
    newLoss_.clear();
    newEval_.clear();
    history_ = {};
    restoreHistory_ = false;
    lastLoss_ = lastLr_ = 0;
    trainSeconds_ = 0;
    recentTokens_.clear();
    lastBatch_ = task_.nextBatch(dataRng_);  // shown by the masks view before any step
    dataRng_.reseed(settings_.train.seed * 0x9e3779b97f4a7c15ULL + 7);
    if (wasRunning)
        emit runningChanged(false);
    emitSnapshot();
}

void TrainingWorker::reset()
{
    configure(settings_);
}

void TrainingWorker::play()
{
    if (!trainer_ || running_ || settings_.inspecting())
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
    if (!trainer_ || n <= 0 || settings_.inspecting())
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
    completeProbe();
    emitSnapshot();
}

void TrainingWorker::shutdown()
{
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
    if (!trainer_ || (!running_ && pendingSteps_ == 0) || !task_.nextBatch)
        return false;
    lastBatch_ = task_.nextBatch(dataRng_);
    const StepStats st = trainer_->step(lastBatch_);
    trainSeconds_ += st.seconds;
    if (!st.applied) {
        // The trainer skipped the update: the weights are those of the step before.
        pause();
        emit failed(tr("Training is paused: %1. Try a smaller learning-rate factor, a longer "
                       "warmup or gradient clipping, then Reset.")
                        .arg(st.fault));
        return false;
    }
    lastLoss_ = st.loss.loss();
    lastLr_ = st.lr;
    newLoss_.push_back({st.step, trainSeconds_, lastLoss_, st.lr, st.loss.ntokens});
    history_.loss.push_back(newLoss_.back());
    recentTokens_.emplace_back(trainSeconds_, st.loss.ntokens);
    while (recentTokens_.size() > 2 && trainSeconds_ - recentTokens_.front().first > 3.0)
        recentTokens_.pop_front();
    if (settings_.evalEvery > 0 && st.step % settings_.evalEvery == 0)
        evaluateValidation();

    // Play stops once at the planned step count; pressing it again trains on past it.
    if (running_ && st.step == settings_.plannedSteps) {
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

void TrainingWorker::evaluateValidation()
{
    if (task_.validation.empty())
        return;
    const LossStats st = trainer_->model().evaluate(encodePairs(task_, task_.validation));
    newEval_.push_back({trainer_->stepCount(), trainSeconds_, st.loss(), st.accuracy()});
    history_.eval.push_back(newEval_.back());
}

std::shared_ptr<AttentionRecord> TrainingWorker::recordAttention()
{
    auto rec = std::make_shared<AttentionRecord>();
    Transformer<float>& m = trainer_->model();
    rec->step = trainer_->stepCount();
    rec->heads = m.config().heads;
    rec->srcTokens = probe_.src;
    rec->tgtTokens = QStringList{QStringLiteral("<s>")} + probe_.tgt;
    // Tokens the vocabulary lacks are shown as <unk>: that is what the model sees.
    for (QString& t : rec->srcTokens)
        if (!task_.srcVocab.contains(t))
            t = QStringLiteral("<unk>");
    m.evaluate(encodePairs(task_, {probe_}));
    for (int l = 0; l < m.layers(AttentionKind::EncoderSelf); ++l)
        rec->encoderSelf.push_back(m.attention(AttentionKind::EncoderSelf, l).probs);
    for (int l = 0; l < m.layers(AttentionKind::DecoderSelf); ++l) {
        rec->decoderSelf.push_back(m.attention(AttentionKind::DecoderSelf, l).probs);
        rec->cross.push_back(m.attention(AttentionKind::Cross, l).probs);
    }
    return rec;
}

void TrainingWorker::emitSnapshot()
{
    if (!trainer_)
        return;
    auto s = std::make_shared<TrainingSnapshot>();
    s->step = trainer_->stepCount();
    s->epoch = task_.batchesPerEpoch > 0 ? int(s->step / task_.batchesPerEpoch) : -1;
    s->plannedSteps = settings_.plannedSteps;
    s->running = running_ || pendingSteps_ > 0;
    s->lr = lastLr_;
    s->loss = lastLoss_;
    s->elapsedSeconds = trainSeconds_;
    if (recentTokens_.size() >= 2) {
        const double dt = recentTokens_.back().first - recentTokens_.front().first;
        long tokens = 0;
        for (auto it = std::next(recentTokens_.begin()); it != recentTokens_.end(); ++it)
            tokens += it->second;
        s->tokensPerSecond = dt > 0 ? double(tokens) / dt : 0;
    }
    if (s->step > 0 && s->step < s->plannedSteps)
        s->remainingSeconds = trainSeconds_ / double(s->step) * double(s->plannedSteps - s->step);
    else if (s->step >= s->plannedSteps)
        s->remainingSeconds = 0;
    s->config = settings_.model;
    s->options = settings_.train;
    s->attention = recordAttention();
    appendAttentionRecord(history_.attention, s->attention);
    if (restoreHistory_) {
        restoreHistory_ = false;
        s->replacesHistory = true;
        s->newLoss = history_.loss;
        s->newEval = history_.eval;
        s->attentionHistory = history_.attention;
        newLoss_.clear();
        newEval_.clear();
    } else {
        s->newLoss.swap(newLoss_);
        s->newEval.swap(newEval_);
    }
    auto batch = std::make_shared<BatchRecord>();
    batch->B = lastBatch_.B;
    batch->S = lastBatch_.S;
    batch->T = lastBatch_.T;
    batch->src = lastBatch_.src;
    batch->tgtIn = lastBatch_.tgtIn;
    batch->tgtOut = lastBatch_.tgtOut;
    batch->tgtVocab = settings_.model.tgt_vocab;
    batch->labelSmoothing = settings_.model.label_smoothing;
    s->batch = batch;
    history_.lastBatch = batch;
    sinceSnapshot_.start();
    emit snapshotReady(s);
}

void TrainingWorker::requestModelCopy()
{
    if (!trainer_)
        return;
    auto copy = std::make_shared<ModelCopy>();
    copy->step = trainer_->stepCount();
    copy->model = std::shared_ptr<Transformer<float>>(trainer_->model().clone());
    copy->srcVocab = task_.srcVocab;
    copy->tgtVocab = task_.tgtVocab;
    copy->srcTokenizer = task_.srcTokenizer;
    copy->tgtTokenizer = task_.tgtTokenizer;
    emit modelCopyReady(copy);
}

}  // namespace as

namespace as {

CheckpointRun TrainingWorker::checkpointRun() const
{
    CheckpointRun run;
    run.dataRng = dataRng_.state();
    run.trainSeconds = trainSeconds_;
    run.data = settings_.inspecting()
                   ? QJsonObject{{"kind", "model"}, {"name", settings_.task}}
                   : QJsonObject{{"kind", "task"}, {"task", settings_.task}, {"batch_size", settings_.batchSize}};
    run.session = QJsonObject{{"planned_steps", double(settings_.plannedSteps)},
                              {"eval_every", settings_.evalEvery},
                              {"probe", settings_.probe},
                              {"probe_src", QJsonArray::fromStringList(probe_.src)},
                              {"probe_tgt", QJsonArray::fromStringList(probe_.tgt)}};
    return run;
}

void TrainingWorker::saveCheckpoint(const QString& path, bool autosave)
{
    if (!trainer_) {
        emit checkpointFailed(tr("There is no model to save."));
        return;
    }
    QString error;
    if (!as::saveCheckpoint(path, *trainer_, task_.srcVocab, task_.tgtVocab, task_.srcTokenizer,
                            task_.tgtTokenizer, checkpointRun(), history_, &error)) {
        emit checkpointFailed(error);
        return;
    }
    emit checkpointSaved(path, trainer_->stepCount(), autosave);
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
    const QJsonObject data = ck->run.data, session = ck->run.session;
    TokenPair probe;
    for (const QJsonValue& v : session.value("probe_src").toArray())
        probe.src << v.toString();
    for (const QJsonValue& v : session.value("probe_tgt").toArray())
        probe.tgt << v.toString();
    if (data.value("kind").toString() != "task") {
        // A corpus run (attention-studio-cli train --checkpoint) or a saved inspection: the
        // window has no data to train it on, but shows its model and its history.
        if (probe.src.isEmpty() && !ck->history.attention.empty()) {
            const AttentionRecord& last = *ck->history.attention.back();
            probe = {last.srcTokens, last.tgtTokens.mid(1)};  // without "<s>"
        }
        const double seconds = ck->run.trainSeconds;
        TrainingHistory history = std::move(ck->history);
        std::unique_ptr<Trainer> trainer = ck->takeTrainer();
        beginInspection(ck->model, std::move(trainer), probe, std::move(history), seconds, path,
                        autosave);
        return;
    }
    SessionSettings s;
    s.task = data.value("task").toString();
    s.batchSize = data.value("batch_size").toInt(0);
    if (!builtinTaskNames().contains(s.task) || s.batchSize < 1 || s.batchSize > 1000000) {
        fail(tr("it names no built-in task (task '%1', batch size %2)")
                 .arg(s.task)
                 .arg(data.value("batch_size").toVariant().toString()));
        return;
    }
    Task task = makeBuiltinTask(s.task, s.batchSize);
    if (task.srcVocab.tokens() != ck->model.srcVocab.tokens()
        || task.tgtVocab.tokens() != ck->model.tgtVocab.tokens()) {
        fail(tr("its vocabularies are not those of the built-in task '%1'").arg(s.task));
        return;
    }
    s.model = ck->model.config;
    s.train = ck->options;
    s.plannedSteps = std::max(1L, long(session.value("planned_steps").toDouble(double(ck->step))));
    s.evalEvery = std::max(0, session.value("eval_every").toInt(0));
    s.probe = std::clamp(session.value("probe").toInt(0), 0, int(task.examples.size()) - 1);
    if (probe.src.isEmpty())
        probe = task.examples.at(std::size_t(s.probe));

    // Commit: from here on the session is the checkpoint's.
    const double seconds = ck->run.trainSeconds;
    TrainingHistory history = std::move(ck->history);
    const bool wasRunning = adoptSession(s, std::move(task), ck->takeTrainer(), probe,
                                         std::move(history), seconds);
    dataRng_.setState(ck->run.dataRng);
    if (const BatchRecord* b = history_.lastBatch.get())
        lastBatch_ = Batch{b->B, b->S, b->T, b->src, b->tgtIn, b->tgtOut};
    if (wasRunning)
        emit runningChanged(false);
    emit sessionLoaded(settings_, std::make_shared<const Task>(task_), path,
                       trainer_->stepCount(), autosave);
    emitSnapshot();
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
    beginInspection(*b, std::move(trainer), {}, {}, 0, path, true);
}

void TrainingWorker::beginInspection(const ModelBundle& described, std::unique_ptr<Trainer> trainer,
                                     TokenPair probe, TrainingHistory history,
                                     double trainSeconds, const QString& path, bool untitled)
{
    Task task;
    task.name = QStringLiteral("model:") + QFileInfo(path).fileName();
    task.srcVocab = described.srcVocab;
    task.tgtVocab = described.tgtVocab;
    task.srcTokenizer = described.srcTok;
    task.tgtTokenizer = described.tgtTok;
    SessionSettings s;
    s.task = task.name;
    s.model = described.config;
    s.train = trainer->options();
    s.plannedSteps = trainer->stepCount();
    s.evalEvery = 0;

    const bool wasRunning = adoptSession(s, std::move(task), std::move(trainer), probe,
                                         std::move(history), trainSeconds);
    if (probe_.src.isEmpty())
        probe_ = defaultProbe();
    completeProbe();
    if (wasRunning)
        emit runningChanged(false);
    emit sessionLoaded(settings_, std::make_shared<const Task>(task_), path,
                       trainer_->stepCount(), untitled);
    emitSnapshot();
}

bool TrainingWorker::adoptSession(const SessionSettings& s, Task task,
                                  std::unique_ptr<Trainer> trainer, const TokenPair& probe,
                                  TrainingHistory history, double trainSeconds)
{
    timer_->stop();
    const bool wasRunning = running_;
    running_ = false;
    pendingSteps_ = 0;
    settings_ = s;
    task_ = std::move(task);
    trainer_ = std::move(trainer);
    probe_ = probe;
    history_ = std::move(history);
    trainSeconds_ = trainSeconds;
    lastLoss_ = history_.loss.empty() ? 0 : history_.loss.back().loss;
    lastLr_ = history_.loss.empty() ? 0 : history_.loss.back().lr;
    newLoss_.clear();
    newEval_.clear();
    recentTokens_.clear();
    restoreHistory_ = true;  // the next snapshot carries the history whole
    return wasRunning;
}

TokenPair TrainingWorker::defaultProbe() const
{
    const QStringList tokens = task_.srcVocab.tokens();
    return {tokens.mid(4, 6), {}};  // after <pad> <s> </s> <unk>: the most frequent
}

void TrainingWorker::completeProbe()
{
    if (!settings_.inspecting() || !trainer_)
        return;
    if (probe_.tgt.isEmpty() && !probe_.src.isEmpty()) {
        const DecodeResult r = greedyDecode(trainer_->model(), task_.srcVocab.encode(probe_.src));
        probe_.tgt = task_.tgtVocab.decode(r.nbest[0].tokens);
    }
    // The masks view shows the probe's own masks: there is no training batch.
    lastBatch_ = encodePairs(task_, {probe_});
}

void TrainingWorker::exportWeights(const QString& path)
{
    QString error;
    if (!trainer_)
        error = tr("there is no model");
    else if (saveModel(path, trainer_->model(), task_.srcVocab, task_.tgtVocab,
                       task_.srcTokenizer, task_.tgtTokenizer, &error)) {
        emit weightsExported(path);
        return;
    }
    emit checkpointFailed(tr("The weights were not exported: %1").arg(error));
}

}  // namespace as
