#include "head_service.h"

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

void HeadService::start()
{
    if (!pending_)
        return;
    if (!model_ || !model_->model || !model_->data || model_->data->validation().empty()) {
        pending_.reset();
        busy_ = false;
        emit refused(tr("No validation pairs to score heads on: train a task or a corpus (a model "
                        "opened on its own has none)."));
        return;
    }
    const std::shared_ptr<const Job> job(std::move(pending_));
    const ModelCopyPtr copy = model_;
    stop_ = std::make_shared<std::atomic<bool>>(false);
    const auto stop = stop_;
    const quint64 generation = generation_;
    // QThreadPool wakes its thread through a lock inside Qt, which TSan cannot see.
    static char handOff;
    std::function<void()> run = [this, job, copy, stop, generation] {
        AS_TSAN_ACQUIRE(&handOff);
        // A clone of its own: the copy may be translating for the Translate tab meanwhile.
        std::unique_ptr<Transformer<float>> model = copy->model->clone();
        const SessionData& data = *copy->data;
        const int n = std::min<int>(kMaxPairs, int(data.validation().size()));
        const std::vector<EncodedPair> pairs(data.validation().begin(), data.validation().begin() + n);
        const QList<SentencePair> text = data.validationText().mid(0, n);
        const ParallelData codec = data.codec();
        auto report = [this, generation](QString what, int done, int total) {
            results_->post([this, generation, what, done, total] {
                if (generation == generation_)
                    emit progress(what, done, total);
            });
        };
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
        report(tr("Translating the validation pairs with the mutes…"), units - 2, units);
        record->bleu = translateAndScore(*model, codec, text, {}, [&](int, int) { return !stop->load(); }).bleu;
        if (stop->load())
            return;
        if (job->muted.empty()) {
            record->nllUnmuted = record->nll;
            record->bleuUnmuted = record->bleu;
        } else {
            maskHeads(*model, {});
            record->nllUnmuted = evaluateLoss(*model, pairs, 2000).nll();
            report(tr("Translating the validation pairs without them…"), units - 1, units);
            record->bleuUnmuted = translateAndScore(*model, codec, text, {}, [&](int, int) { return !stop->load(); }).bleu;
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
