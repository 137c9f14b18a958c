// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "train/session.h"

#include "eval/evaluate.h"
#include "eval/induction.h"
#include "io/model_file.h"

#include <chrono>

namespace as {

namespace {

// Averaging points 5 % of the budget apart (WeightAverage): 80, 85, 90, 95, 100 % for 5.
constexpr double kAverageSpacing = 0.05;

double secondsSince(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

TrainingSession::TrainingSession(std::unique_ptr<SessionData> data,
                                 std::unique_ptr<Trainer> trainer, const SessionPlan& plan)
    : data_(std::move(data)), trainer_(std::move(trainer)), plan_(plan),
      average_(std::max(1, plan.averagePoints), kAverageSpacing)
{
}

void TrainingSession::restoreRecord(TrainingHistory history, double trainSeconds)
{
    history_ = std::move(history);
    lossAtStart_ = history_.loss.size();
    trainSeconds_ = trainSeconds;
    if (const BatchRecord* b = history_.lastBatch.get())
        lastBatch_ = batchOf(*b);
}

bool TrainingSession::restoreProgress(const CheckpointRun& run)
{
    busySeconds_ = run.busySeconds;
    if (plan_.averagePoints <= 1)
        return true;  // nothing averaged, nothing to restore
    if (!run.averageKnown || run.averageTaken > plan_.averagePoints - 1
        || (run.averageTaken > 0 && std::size_t(run.averageSum.size()) != trainer_->model().params().size()))
        return false;
    average_.restore(run.averageTaken, run.averageSum);
    return true;
}

void TrainingSession::setPlan(const SessionPlan& plan)
{
    if (plan.averagePoints != plan_.averagePoints)
        average_ = WeightAverage(std::max(1, plan.averagePoints), kAverageSpacing);
    plan_ = plan;
}

SessionStep TrainingSession::step()
{
    const auto t0 = std::chrono::steady_clock::now();
    SessionStep r;
    lastBatch_ = data_->next();
    r.stats = trainer_->step(lastBatch_);
    if (r.stats.applied) {
        trainSeconds_ += r.stats.seconds;
        history_.loss.push_back({r.stats.step, trainSeconds_, r.stats.loss.loss(), r.stats.lr,
                                 r.stats.loss.ntokens});
        if (plan_.averagePoints > 1 && average_.due(progress()))
            average_.add(trainer_->model().params().valueVector());
        r.validationDue = plan_.validEvery > 0 && !data_->validation().empty()
                          && r.stats.step % plan_.validEvery == 0;
    }
    busySeconds_ += secondsSince(t0);
    return r;
}

Validation TrainingSession::validate(const ValidationOptions& options)
{
    const auto t0 = std::chrono::steady_clock::now();
    Validation v = validateModel(trainer_->model(), *data_, trainer_->stepCount(), trainSeconds_,
                                 options);
    addValidation(v);
    busySeconds_ += secondsSince(t0);
    return v;
}

void TrainingSession::addValidation(const Validation& v)
{
    addValidation(v.point);
    if (v.induction)
        history_.induction.push_back(v.induction);
}

Validation validateModel(Transformer<float>& model, const SessionData& data, long step,
                         double trainSeconds, const ValidationOptions& options,
                         const Progress& progress)
{
    Validation v;
    const LossStats loss = evaluateLoss(model, data.validation());
    v.point = {step, trainSeconds, loss.loss(), loss.accuracy()};
    v.point.nll = loss.nll();
    // A language model (decoder-only) has nothing to translate: its validation is the loss.
    const bool translates = !model.config().decoderOnly();
    if (translates && options.bleu && !data.validationText().isEmpty()) {
        const TranslationReport t = translateAndScore(model, data.codec(), data.validationText(),
                                                      {}, progress);
        v.cancelled = t.cancelled;
        if (!t.cancelled)
            v.point.bleu = t.bleu;
    }
    if (options.samples && !v.cancelled)
        v.samples = translateExamples(model, data, step);
    if (!translates && model.config().tgt_vocab >= kInductionMinVocab) {
        // Where induction heads form, or not (core/SPEC.md §13): the probe of repeated random
        // tokens over the model's vocabulary.
        auto r = std::make_shared<InductionRecord>(
            measureInduction(model, makeInductionProbe(model.config().tgt_vocab)));
        r->step = step;
        v.induction = std::move(r);
    }
    return v;
}

std::shared_ptr<const SamplesRecord> translateExamples(Transformer<float>& model,
                                                       const SessionData& data, long step)
{
    auto r = std::make_shared<SamplesRecord>();
    r->step = step;
    if (model.config().decoderOnly()) {
        // A language model continues its examples' prompts (the target side; no source).
        r->generated = true;
        for (const TokenPair& ex : data.examples()) {
            const std::vector<int> prompt = data.tgtVocab().encode(ex.tgt);
            const DecodeResult d = greedyDecode(model, prompt);
            r->samples.push_back({data.codec().decodeTarget(prompt), QString(),
                                  data.codec().decodeTarget(d.nbest.front().tokens)});
        }
        return r;
    }
    r->samples = translateAndScore(model, data.codec(), data.exampleText()).translations;
    return r;
}

void TrainingSession::addValidation(const EvalPoint& point)
{
    history_.eval.push_back(point);
}

std::shared_ptr<const AttentionRecord> TrainingSession::recordAttention(const TokenPair& probe)
{
    auto rec = std::make_shared<AttentionRecord>();
    Transformer<float>& m = trainer_->model();
    rec->step = trainer_->stepCount();
    rec->heads = m.config().heads;
    rec->srcTokens = probe.src;
    rec->tgtTokens = QStringList{QStringLiteral("<s>")} + probe.tgt;
    // Tokens the vocabulary lacks are shown as <unk>: that is what the model sees.
    for (QString& t : rec->srcTokens)
        if (!data_->srcVocab().contains(t))
            t = QStringLiteral("<unk>");
    m.evaluate(encodePairs(data_->description(), {probe}));
    for (int l = 0; l < m.layers(AttentionKind::EncoderSelf); ++l)
        rec->encoderSelf.push_back(m.attention(AttentionKind::EncoderSelf, l).probs);
    for (int l = 0; l < m.layers(AttentionKind::DecoderSelf); ++l) {
        rec->decoderSelf.push_back(m.attention(AttentionKind::DecoderSelf, l).probs);
        if (l < m.layers(AttentionKind::Cross))  // none in a decoder-only model
            rec->cross.push_back(m.attention(AttentionKind::Cross, l).probs);
    }
    appendAttentionRecord(history_.attention, rec);
    return rec;
}

std::shared_ptr<const TraceRecord> TrainingSession::recordTrace(const TokenPair& probe)
{
    Transformer<float>& m = trainer_->model();
    // A decoder-only model traces its text, the probe's target side (core/SPEC.md §2.10).
    if (m.config().decoderOnly() ? probe.tgt.isEmpty() : probe.src.isEmpty())
        return nullptr;
    auto rec = std::make_shared<TraceRecord>();
    rec->step = trainer_->stepCount();
    rec->config = m.config();
    const std::vector<std::string> names = traceNamesWithoutLens(m.config());
    const std::vector<int> src =
        m.config().decoderOnly() ? std::vector<int>{} : data_->srcVocab().encode(probe.src);
    const std::vector<int> tgt = data_->tgtVocab().encode(probe.tgt);
    rec->trace = traceForward(m, src, tgt, names);
    // One label per id, specials and <unk> included: what the model saw and said.
    auto labels = [](const Vocab& v, const std::vector<int>& ids) {
        QStringList out;
        for (int id : ids)
            out.push_back(v.token(id));
        return out;
    };
    rec->srcTokens = labels(data_->srcVocab(), src);
    rec->tgtTokens = labels(data_->tgtVocab(), rec->trace.decoderInput);
    rec->outTokens = labels(data_->tgtVocab(), rec->trace.output);
    if (const TraceTensor* lp = rec->trace.find("log_probs")) {
        rec->topTokens = topTraceTokens(*lp, 12);
        rec->topLabels = labels(data_->tgtVocab(), rec->topTokens);
    }
    return rec;
}

void TrainingSession::recordBatch(const Batch& batch)
{
    const ModelConfig& c = trainer_->model().config();
    history_.lastBatch = recordOf(batch, c.tgt_vocab, c.label_smoothing);
    lastBatch_ = batch;
}

bool TrainingSession::finished() const
{
    return (plan_.steps > 0 && trainer_->stepCount() >= plan_.steps)
           || (plan_.seconds > 0 && elapsedSeconds() >= plan_.seconds);
}

double TrainingSession::progress() const
{
    return std::max(plan_.steps > 0 ? double(trainer_->stepCount()) / double(plan_.steps) : 0.0,
                    plan_.seconds > 0 ? elapsedSeconds() / plan_.seconds : 0.0);
}

TrainingSession::RecentSteps TrainingSession::recentSteps(double window) const
{
    // The steps of the last `window` seconds of training time, measured from the step before
    // the first of them (at least the last two of this object's steps).
    const std::vector<LossPoint>& loss = history_.loss;
    const std::size_t n = loss.size();
    if (n < lossAtStart_ + 2)
        return {};
    const double last = loss.back().seconds;
    std::size_t front = n - 2;
    long tokens = loss.back().tokens;
    while (front > lossAtStart_ && last - loss[front - 1].seconds <= window) {
        tokens += loss[front].tokens;
        --front;
    }
    return {tokens, long(n - 1 - front), last - loss[front].seconds};
}

double TrainingSession::tokensPerSecond(double window) const
{
    const RecentSteps r = recentSteps(window);
    return r.seconds > 0 ? double(r.tokens) / r.seconds : 0;
}

double TrainingSession::secondsPerStep(double window) const
{
    const RecentSteps r = recentSteps(window);
    return r.steps > 0 ? r.seconds / double(r.steps) : 0;
}

double TrainingSession::remainingSeconds() const
{
    if (finished())
        return 0;
    double left = -1;
    const long step = trainer_->stepCount();
    if (plan_.steps > 0 && step > 0)
        left = trainSeconds_ / double(step) * double(plan_.steps - step);
    if (plan_.seconds > 0) {
        const double time = std::max(0.0, plan_.seconds - elapsedSeconds());
        left = left < 0 ? time : std::min(left, time);
    }
    return left;
}

double TrainingSession::elapsedSeconds() const
{
    return busySeconds_;
}

int TrainingSession::averagedPoints() const
{
    return plan_.averagePoints > 1 && average_.taken() > 0 ? average_.taken() + 1 : 0;
}

Eigen::VectorXf TrainingSession::finalWeights() const
{
    const Eigen::VectorXf& now = trainer_->model().params().valueVector();
    if (averagedPoints() == 0)
        return now;
    WeightAverage all = average_;
    all.add(now);  // the final point joins the average
    Eigen::VectorXf mean = now;
    all.writeMean(&mean);
    return mean;
}

bool TrainingSession::saveModel(const QString& path, QString* error) const
{
    const Vocab& sv = data_->srcVocab();
    const Vocab& tv = data_->tgtVocab();
    const int points = averagedPoints();
    ModelProvenance provenance;
    provenance.step = trainer_->stepCount();
    provenance.run = data_->name();
    if (const QString train = data_->record().value("train").toString(); !train.isEmpty())
        provenance.run += u' ' + train;
    if (points > 0)
        provenance.run += QStringLiteral(", the mean of %1 checkpoints").arg(points);
    if (points == 0)
        return as::saveModel(path, trainer_->model(), sv, tv, data_->srcTokenizer(),
                             data_->tgtTokenizer(), error, provenance);
    std::unique_ptr<Transformer<float>> copy = trainer_->model().clone();
    copy->params().valueVector() = finalWeights();
    return as::saveModel(path, *copy, sv, tv, data_->srcTokenizer(), data_->tgtTokenizer(), error,
                         provenance);
}

RunSummary TrainingSession::summarize(int samples, const Progress& progress) const
{
    RunSummary r;
    r.steps = trainer_->stepCount();
    const std::vector<LossPoint>& loss = history_.loss;
    const std::size_t n = std::min<std::size_t>(50, loss.size());
    for (std::size_t i = loss.size() - n; i < loss.size(); ++i)
        r.trainLoss += loss[i].loss / double(n);
    std::unique_ptr<Transformer<float>> model = trainer_->model().clone();
    model->params().valueVector() = finalWeights();
    const Validation v = validateModel(*model, *data_, r.steps, trainSeconds_, {true, true}, progress);
    r.validLoss = v.point.loss;
    r.validAccuracy = v.point.accuracy;
    r.validBleu = v.point.bleu;
    r.validNll = v.point.nll;
    r.induction = v.induction;
    r.phaseChangeStep = phaseChangeStep(history_.induction);
    if (v.samples)
        r.samples.assign(v.samples->samples.begin(),
                         v.samples->samples.begin()
                             + std::min<std::ptrdiff_t>(samples, std::ptrdiff_t(v.samples->samples.size())));
    return r;
}

CheckpointRun TrainingSession::checkpointRun(const QJsonObject& settings) const
{
    CheckpointRun run;
    data_->storePosition(&run);
    run.trainSeconds = trainSeconds_;
    run.busySeconds = busySeconds_;
    run.averageTaken = plan_.averagePoints > 1 ? average_.taken() : 0;
    if (run.averageTaken > 0)
        run.averageSum = average_.sum();
    run.data = data_->record();
    run.session = settings;
    return run;
}

bool TrainingSession::saveCheckpoint(const QString& path, const QJsonObject& settings,
                                     QString* error, const CheckpointSaveOptions& options) const
{
    return as::saveCheckpoint(path, *trainer_, data_->srcVocab(), data_->tgtVocab(),
                              data_->srcTokenizer(), data_->tgtTokenizer(), checkpointRun(settings),
                              history_, error, options);
}

}  // namespace as
