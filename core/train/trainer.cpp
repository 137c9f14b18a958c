// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "train/trainer.h"

#include "model/parallel.h"
#include "train/profile.h"
#include "train/schedule.h"

#include <QCoreApplication>
#if defined(__AVX2__) || defined(__AVX512F__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <optional>
#include <tuple>

namespace as {

namespace {

const char* describe(double v)
{
    return std::isnan(v) ? "NaN" : v > 0 ? "+Inf" : "-Inf";
}

// (block, layer, position in the layer) of a parameter name (core/SPEC.md §6.1, §6.2) in the
// forward pass. Norm k sits before sublayer k in pre-norm and after it in post-norm.
std::tuple<int, int, int> forwardRank(const std::string& name, bool preNorm)
{
    auto layerRank = [&](std::string_view rest, bool decoder) -> std::tuple<int, int> {
        const std::size_t dot = rest.find('.');
        const int layer = std::atoi(std::string(rest.substr(0, dot)).c_str());
        const std::string_view sub = dot == std::string_view::npos ? "" : rest.substr(dot + 1);
        int k = 0;
        bool norm = false;
        if (sub.starts_with("self_attn"))
            k = 1;
        else if (sub.starts_with("cross_attn"))
            k = 2;
        else if (sub.starts_with("ffn"))
            k = decoder ? 3 : 2;
        else if (sub.starts_with("norm") && sub.size() > 4) {
            k = sub[4] - '0';
            norm = true;
        }
        return {layer, 2 * k + (norm != preNorm ? 1 : 0)};
    };
    auto starts = [&](const char* p) { return name.starts_with(p); };
    if (starts("src_embed."))
        return {0, 0, 0};
    if (starts("encoder.layers.")) {
        auto [l, r] = layerRank(std::string_view(name).substr(15), false);
        return {1, l, r};
    }
    if (starts("encoder.norm."))
        return {2, 0, 0};
    if (starts("tgt_embed."))
        return {3, 0, 0};
    if (starts("decoder.layers.")) {
        auto [l, r] = layerRank(std::string_view(name).substr(15), true);
        return {4, l, r};
    }
    if (starts("decoder.norm."))
        return {5, 0, 0};
    return {6, 0, 0};  // generator
}

}  // namespace

std::vector<std::size_t> forwardOrder(const Transformer<float>& model)
{
    const std::vector<ParamInfo>& table = model.params().table();
    const bool pre = model.config().norm == NormPlacement::Pre;
    std::vector<std::tuple<int, int, int>> rank;
    rank.reserve(table.size());
    for (const ParamInfo& p : table)
        rank.push_back(forwardRank(p.name, pre));
    std::vector<std::size_t> order(table.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return rank[a] < rank[b]; });
    return order;
}

std::shared_ptr<const HealthLayout> healthLayoutOf(const Transformer<float>& model)
{
    auto layout = std::make_shared<HealthLayout>();
    for (const ParamInfo& p : model.params().table()) {
        layout->names.push_back(p.name);
        layout->groups.push_back(tensorGroup(p.name));
    }
    layout->forward = forwardOrder(model);
    return layout;
}

Trainer::Trainer(const ModelConfig& config, const TrainOptions& options)
    : opt_(options), model_(std::make_unique<Transformer<float>>(config)),
      adam_(model_->params().size()), dropoutRng_(options.seed ^ 0x5eed0f0d509e7ULL)
{
    Rng init(options.seed);
    model_->initXavier(init);
}

Trainer::Trainer(std::unique_ptr<Transformer<float>> model, const TrainOptions& options)
    : opt_(options), model_(std::move(model)), adam_(model_->params().size()),
      dropoutRng_(options.seed ^ 0x5eed0f0d509e7ULL)
{
}

double Trainer::rateAt(long step) const
{
    return noamRate(step, model_->config().d_model, opt_.factor, opt_.warmup);
}

void Trainer::sumGradSquares()
{
    // The gradient is cut into pieces of at most kPiece elements on one grid over the whole
    // buffer, and at tensor boundaries; each piece is summed by one thread in a fixed order and
    // a tensor's pieces are added in order: the same result whatever the number of threads.
    // (One tensor per task left the threads with unequal shares: the embeddings and the
    // generator are most of a small model. At 50 M parameters (base) this is a 200 MB read.)
    constexpr std::size_t kPiece = 16384;
    const ParamStore<float>& ps = model_->params();
    const std::vector<ParamInfo>& table = ps.table();
    if (gradPieces_.empty()) {
        for (std::size_t i = 0; i < table.size(); ++i) {
            const std::size_t from = table[i].offset, to = from + table[i].size;
            for (std::size_t at = from; at < to;) {
                const std::size_t end = std::min(to, (at / kPiece + 1) * kPiece);
                gradPieces_.push_back({at, end, i});
                at = end;
            }
        }
        pieceSquares_.resize(gradPieces_.size());
    }
    const float* grads = ps.grads();
    parallelFor(long(gradPieces_.size()), 4, [&](long from, long to) {
        for (long k = from; k < to; ++k) {
            const GradPiece& piece = gradPieces_[std::size_t(k)];
            // Eight partial sums (one vector of doubles) then added in a fixed order. Partial
            // sum l takes the elements j = l (mod 8) in order, each as one fused multiply-add
            // where the CPU has them, whichever way the loop is compiled. GCC left the plain
            // loop scalar: eight chains of vcvtss2sd and vfmadd231sd, one element a cycle, where
            // a vector of eight is bound by memory only.
            alignas(64) double part[8] = {};
            std::size_t j = piece.begin;
#if defined(__AVX512F__)
            __m512d acc = _mm512_setzero_pd();
            for (; j + 8 <= piece.end; j += 8) {
                const __m512d x = _mm512_cvtps_pd(_mm256_loadu_ps(grads + j));
                acc = _mm512_fmadd_pd(x, x, acc);
            }
            _mm512_store_pd(part, acc);
#elif defined(__AVX2__) && defined(__FMA__)
            __m256d lo = _mm256_setzero_pd(), hi = lo;
            for (; j + 8 <= piece.end; j += 8) {
                const __m256d a = _mm256_cvtps_pd(_mm_loadu_ps(grads + j));
                const __m256d b = _mm256_cvtps_pd(_mm_loadu_ps(grads + j + 4));
                lo = _mm256_fmadd_pd(a, a, lo);
                hi = _mm256_fmadd_pd(b, b, hi);
            }
            _mm256_store_pd(part, lo);
            _mm256_store_pd(part + 4, hi);
#else
            for (; j + 8 <= piece.end; j += 8)
                for (int l = 0; l < 8; ++l)
                    part[l] += double(grads[j + std::size_t(l)]) * double(grads[j + std::size_t(l)]);
#endif
            for (int l = 0; j < piece.end; ++j, ++l)
                part[l] += double(grads[j]) * double(grads[j]);
            double sum = 0;
            for (double v : part)
                sum += v;
            pieceSquares_[std::size_t(k)] = sum;
        }
    });
    gradSquares_.assign(table.size(), 0.0);
    for (std::size_t k = 0; k < gradPieces_.size(); ++k)
        gradSquares_[gradPieces_[k].tensor] += pieceSquares_[k];
}

void Trainer::addHistograms(const HistogramRecord& r, const float* data, std::vector<std::uint32_t>& counts,
                            std::vector<std::uint32_t>& nonFinite) const
{
    const std::vector<ParamInfo>& table = model_->params().table();
    parallelFor(long(r.tensors), 1, [&](long from, long to) {
        for (long i = from; i < to; ++i) {
            const ParamInfo& p = table[std::size_t(i)];
            addToHistogram(data + p.offset, p.size, counts.data() + std::size_t(i) * kHistogramBins,
                           nonFinite.data() + i);
        }
    });
}

StepStats Trainer::step(const Batch& batch)
{
    const auto t0 = std::chrono::steady_clock::now();
    // The step's products in its precision (its profile records it: made first, ended last).
    // Only the forward and backward passes' layer products use it (model/gemm.h).
    const GemmPrecisionScope inPrecision(opt_.precision);
    ProfileStep profile(profiling_);
    StepStats st;
    ParamStore<float>& ps = model_->params();
    {
        const ProfileScope timed(ProfileCategory::Gradient);
        ps.zeroGrads();
    }
    st.loss = model_->forwardBackward(batch, Pass::training(dropoutRng_));
    if (afterBackward)
        afterBackward(ps);
    st.lr = rateAt(step_ + 1);
    st.step = step_ + 1;

    // One pass over the gradient, per tensor and in double (a float sum of squares overflows
    // long before any gradient does), gives both the norm for clipping and where a NaN or Inf
    // is. It does not depend on the thread count: see sumGradSquares.
    const std::vector<ParamInfo>& table = ps.table();
    std::optional<ProfileScope> gradientTimed(std::in_place, ProfileCategory::Gradient);
    sumGradSquares();
    const std::vector<double>& sq = gradSquares_;
    double total = 0;
    for (double s : sq)
        total += s;
    st.gradNorm = std::sqrt(total);
    const bool lossFinite = std::isfinite(st.loss.loss());
    if (!lossFinite || !std::isfinite(total)) {
        st.applied = false;
        QString where;
        if (!std::isfinite(total)) {
            int bad = 0;
            for (double s : sq)
                bad += !std::isfinite(s);
            for (std::size_t i : forwardOrder(*model_)) {
                if (std::isfinite(sq[i]))
                    continue;
                st.faultTensor = int(i);
                const ParamInfo& p = table[i];
                const float* g = ps.grads() + p.offset;
                const std::size_t at = std::size_t(
                    std::find_if(g, g + p.size, [](float v) { return !std::isfinite(v); }) - g);
                where = QCoreApplication::translate("as::Trainer", "the gradient of %1 is %2 at value %3 (the first layer, in "
                                       "forward order, whose gradient is not finite; %4 of %5 "
                                       "tensors are affected)")
                            .arg(QString::fromStdString(p.name),
                                 QLatin1String(describe(at < p.size ? g[at] : NAN)))
                            .arg(at)
                            .arg(bad)
                            .arg(table.size());
                break;
            }
        }
        if (!lossFinite)
            st.fault = QCoreApplication::translate("as::Trainer", "step %1: the loss is %2").arg(st.step).arg(
                QLatin1String(describe(st.loss.loss())));
        else
            st.fault = QCoreApplication::translate("as::Trainer", "step %1: the loss is finite (%2) but").arg(st.step).arg(
                st.loss.loss());
        if (!where.isEmpty())
            st.fault += (lossFinite ? QStringLiteral(" ") : QStringLiteral("; ")) + where;
        st.fault += QCoreApplication::translate("as::Trainer", "; the update was skipped");
        gradientTimed.reset();
        st.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        profile.finish(profile_, st.seconds);
        return st;
    }
    gradientTimed.reset();
    std::shared_ptr<HistogramRecord> histograms;
    if (histogramEvery_ > 0 && st.step % histogramEvery_ == 0) {
        histograms = std::make_shared<HistogramRecord>();
        histograms->step = st.step;
        histograms->tensors = int(table.size());
        histograms->weights.assign(table.size() * kHistogramBins, 0);
        histograms->grads.assign(table.size() * kHistogramBins, 0);
        histograms->weightsNonFinite.assign(table.size(), 0);
        histograms->gradsNonFinite.assign(table.size(), 0);
        addHistograms(*histograms, ps.grads(), histograms->grads, histograms->gradsNonFinite);  // before clipping
    }
    if (opt_.clipNorm > 0 && st.gradNorm > opt_.clipNorm) {
        const ProfileScope timed(ProfileCategory::Gradient);
        // PyTorch's clip_grad_norm_: scale by max_norm / (norm + 1e-6).
        ps.gradVector() *= float(opt_.clipNorm / (st.gradNorm + 1e-6));
        st.clipped = true;
    }
    if (!recordHealth_) {
        adam_.step(ps.values(), ps.grads(), st.lr);
        step_ = st.step;
    } else {
        // The sums come from Adam's own pass, block by block while in cache (see README,
        // Health, for what a copy of the weights and more passes over them cost instead).
        adam_.step(ps.values(), ps.grads(), st.lr, table, healthSums_);
        step_ = st.step;
        auto health = std::make_shared<std::vector<TensorHealth>>(table.size());
        for (std::size_t i = 0; i < table.size(); ++i) {
            const AdamTensorSums& q = healthSums_[i];
            TensorHealth& h = (*health)[i];
            h.gradNorm = std::sqrt(gradSquares_[i]);
            h.weightNorm = std::sqrt(q.after2);
            h.updateRatio = q.before2 > 0 ? std::sqrt(q.delta2 / q.before2) : 0;
            h.effectiveStep = st.lr * q.invDenom / double(table[i].size);
        }
        st.health = std::move(health);
    }
    if (histograms) {
        addHistograms(*histograms, ps.values(), histograms->weights, histograms->weightsNonFinite);
        st.histograms = std::move(histograms);
    }
    st.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    profile.finish(profile_, st.seconds);
    return st;
}

}  // namespace as
