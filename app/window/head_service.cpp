// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "head_service.h"

#include <cmath>

#include "run/make_session.h"

#include <QMetaMethod>

#include <functional>

namespace as {

HeadService::HeadService(QObject* parent) : QObject(parent)
{
    pool_.setMaxThreadCount(1);
    results_ = new Mailbox(this);
}

HeadService::~HeadService()
{
    cancel();
    pool_.waitForDone();
}

void HeadService::cancel()
{
    if (stop_)
        stop_->store(true);
    ++generation_;
    pending_.reset();
    waiting_ = busy_ = false;
}

void HeadService::score(const std::vector<HeadId>& muted, bool full)
{
    cancel();
    pending_ = std::make_unique<Job>(Job{full ? Kind::Full : Kind::Figures, muted, {}});
    busy_ = waiting_ = true;
    emit progress(tr("Copying the current weights…"), 0, 1);
    emit modelWanted();  // setModel() answers, maybe right here
}

void HeadService::prune(const std::vector<HeadId>& order, const std::vector<HeadId>& muted)
{
    cancel();
    pending_ = std::make_unique<Job>(Job{Kind::Prune, muted, order});
    busy_ = waiting_ = true;
    emit progress(tr("Copying the current weights…"), 0, 1);
    emit modelWanted();
}

void HeadService::setModel(ModelCopyPtr model)
{
    model_ = std::move(model);
    if (waiting_) {
        waiting_ = false;
        start();
    }
}

void HeadService::setSource(Source source)
{
    cancel();
    source_ = std::move(source);
}

namespace {
// The pairs a job scores on: the session's validation split, or the source's pairs encoded
// with the model's vocabularies. Empty pairs and *error when there are none.
struct ScoringPairs {
    std::vector<EncodedPair> pairs;
    QList<SentencePair> text;
};
ScoringPairs scoringPairs(const ModelCopy& copy, const HeadService::Source& source, int most,
                          QString* error)
{
    ScoringPairs r;
    const SessionData& own = *copy.data;
    if (!source.isSet()) {
        const int n = std::min<int>(most, int(own.validation().size()));
        r.pairs.assign(own.validation().begin(), own.validation().begin() + n);
        r.text = own.validationText().mid(0, n);
        return r;
    }
    std::unique_ptr<SessionData> task;
    if (!source.task.isEmpty()) {
        task = makeSessionData(SessionSettings::defaultsFor(source.task), error);
        if (!task)
            return r;
        // The task's own vocabularies are the model's: its encoded pairs as they are.
        if (task->srcVocab().tokens() == copy.srcVocab.tokens()
            && task->tgtVocab().tokens() == copy.tgtVocab.tokens()) {
            const int n = std::min<int>(most, int(task->validation().size()));
            r.pairs.assign(task->validation().begin(), task->validation().begin() + n);
            r.text = task->validationText().mid(0, n);
            return r;
        }
    }
    r.text = (task ? task->validationText() : source.pairs).mid(0, most);
    r.pairs = own.codec().encode(r.text).pairs;
    return r;
}
}  // namespace

void HeadService::start()
{
    if (!pending_)
        return;
    const bool hasPairs = source_.isSet() || (model_ && model_->data && !model_->data->validation().empty());
    if (!model_ || !model_->model || !model_->data || !hasPairs) {
        pending_.reset();
        busy_ = false;
        emit refused(tr("No validation pairs to score heads on: train a task or a corpus, or "
                        "choose a corpus file with Score on…"));
        return;
    }
    const std::shared_ptr<const Job> job(std::move(pending_));
    const ModelCopyPtr copy = model_;
    stop_ = std::make_shared<std::atomic<bool>>(false);
    const auto stop = stop_;
    const quint64 generation = generation_;
    // QThreadPool wakes its thread through a lock inside Qt, which TSan cannot see.
    static char handOff;
    const Source source = source_;
    std::function<void()> run = [this, job, copy, stop, generation, source] {
        AS_TSAN_ACQUIRE(&handOff);
        // A clone of its own: the copy may be translating for the Translate tab meanwhile.
        std::unique_ptr<Transformer<float>> model = copy->model->clone();
        auto report = [this, generation](QString what, int done, int total) {
            results_->post([this, generation, what, done, total] {
                if (generation == generation_)
                    emit progress(what, done, total);
            });
        };
        const SessionData& data = *copy->data;
        if (source.isSet())
            report(tr("Reading %1…").arg(source.label), 0, 1);
        QString error;
        const ScoringPairs scoring = scoringPairs(*copy, source, kMaxPairs, &error);
        if (scoring.pairs.empty()) {
            results_->post([this, generation, error, source] {
                if (generation != generation_)
                    return;
                busy_ = false;
                emit refused(error.isEmpty() ? tr("No pair of %1 fits the model's vocabularies and length.").arg(source.label)
                                             : tr("%1: %2").arg(source.label, error));
            });
            return;
        }
        const std::vector<EncodedPair>& pairs = scoring.pairs;
        const QList<SentencePair>& text = scoring.text;
        const int n = int(pairs.size());
        const ParallelData codec = data.codec();
        const ModelConfig& c = model->config();
        if (job->kind == Kind::Prune) {
            auto record = std::make_shared<PruningRecord>();
            record->step = copy->step;
            record->totalHeads = int(job->order.size());
            // Each point a pass for NLL and one for BLEU.
            const std::vector<int> counts = pruningCounts(int(job->order.size()));
            const Progress progress = [&](int done, int total) {
                report(tr("Pruning curve: %1 of %2 points").arg(done).arg(total), done, total);
                return !stop->load();
            };
            // Point by point, so that the curve grows as it is computed.
            PruningCurve curve;
            for (std::size_t i = 0; i < counts.size() && !stop->load(); ++i) {
                const PruningCurve one = pruningCurve(*model, job->order, {counts[i]}, pairs, codec,
                                                      text, job->muted);
                curve.points.insert(curve.points.end(), one.points.begin(), one.points.end());
                progress(int(i) + 1, int(counts.size()));
                auto partial = std::make_shared<PruningRecord>(*record);
                partial->curve = curve;
                partial->finished = i + 1 == counts.size();
                results_->post([this, generation, partial] {
                    if (generation != generation_)
                        return;
                    if (partial->finished)
                        busy_ = false;
                    emit pruned(partial);
                });
            }
            return;
        }
        auto record = std::make_shared<HeadsRecord>();
        record->step = copy->step;
        record->encoderLayers = c.encoder_layers;
        record->decoderLayers = c.decoder_layers;
        record->heads = c.heads;
        record->muted = job->muted;
        record->pairs = n;
        const int units = (job->kind == Kind::Full ? 1 + 3 * c.heads * std::max(c.encoder_layers, c.decoder_layers) : 0) + 2;
        if (job->kind == Kind::Full) {
            record->scored = true;
            record->report = scoreHeads(*model, pairs, job->muted, true, [&](int done, int total) {
                report(tr("Scoring heads: %1 of %2 passes").arg(done).arg(total), done, total + 2);
                return !stop->load();
            });
            if (record->report.cancelled || stop->load())
                return;
        }
        maskHeads(*model, job->muted);
        record->nll = evaluateLoss(*model, pairs, 2000).nll();
        // A language model (decoder-only) translates nothing: its figure is the NLL alone.
        const auto bleuOf = [&] {
            return c.decoderOnly() ? std::nan("")
                                   : translateAndScore(*model, codec, text, {}, [&](int, int) { return !stop->load(); }).bleu;
        };
        report(tr("Translating the validation pairs with the mutes…"), units - 2, units);
        record->bleu = bleuOf();
        if (stop->load())
            return;
        if (job->muted.empty()) {
            record->nllUnmuted = record->nll;
            record->bleuUnmuted = record->bleu;
        } else {
            maskHeads(*model, {});
            record->nllUnmuted = evaluateLoss(*model, pairs, 2000).nll();
            report(tr("Translating the validation pairs without them…"), units - 1, units);
            record->bleuUnmuted = bleuOf();
            if (stop->load())
                return;
        }
        results_->post([this, generation, record] {
            if (generation != generation_)
                return;
            busy_ = false;
            emit scored(record);
        });
    };
    AS_TSAN_RELEASE(&handOff);
    pool_.start(std::move(run));
}

}  // namespace as
