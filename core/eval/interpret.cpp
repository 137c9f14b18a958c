// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "eval/interpret.h"

#include "eval/attention_stats.h"

#include "model/positional_encoding.h"
#include "train/batch.h"
#include "train/batcher.h"

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace as {

namespace {


template <typename T>
std::vector<HeadId> allHeads(const Transformer<T>& m)
{
    std::vector<HeadId> heads;
    for (AttentionKind k : kAttentionKinds)
        for (int l = 0; l < m.layers(k); ++l)
            for (int h = 0; h < m.config().heads; ++h)
                heads.push_back({k, l, h});
    return heads;
}

// Gates of 1 on every block (so that backward gives ∂L/∂ξ), 0 for the masked heads.
template <typename T>
void gateEverything(Transformer<T>& m, const std::vector<HeadId>& masked)
{
    for (AttentionKind k : kAttentionKinds)
        for (int l = 0; l < m.layers(k); ++l) {
            std::vector<T> g(std::size_t(m.config().heads), T(1));
            for (const HeadId& id : masked)
                if (id.kind == k && id.layer == l)
                    g[std::size_t(id.head)] = T(0);
            m.setHeadGates(k, l, std::move(g));
        }
}

// F = L, the token NLL of every target (−log p, so weight −1).
template <typename T>
std::vector<typename Transformer<T>::Selection> nllSelections(const Batch& b)
{
    std::vector<typename Transformer<T>::Selection> sel;
    for (int r = 0; r < b.B; ++r)
        for (int t = 0; t < b.T; ++t) {
            const int y = b.tgtOut[std::size_t(r) * b.T + t];
            if (y != kPadId)
                sel.push_back({r, t, y, -1.0});
        }
    return sel;
}

}  // namespace

QString attentionKindName(AttentionKind kind)
{
    switch (kind) {
    case AttentionKind::EncoderSelf: return QStringLiteral("encoder.self");
    case AttentionKind::DecoderSelf: return QStringLiteral("decoder.self");
    case AttentionKind::Cross: return QStringLiteral("decoder.cross");
    }
    return {};
}

std::optional<AttentionKind> attentionKindFromName(const QString& name)
{
    for (AttentionKind k : kAttentionKinds)
        if (attentionKindName(k) == name)
            return k;
    return std::nullopt;
}

std::optional<std::vector<HeadId>> parseHeadSpec(const QString& spec, const ModelConfig& c,
                                                 QString* error)
{
    std::vector<HeadId> heads;
    if (spec.isEmpty())
        return heads;
    for (const QString& raw : spec.split(u',')) {
        const QString item = raw.trimmed();
        if (item.isEmpty()) {  // ",,," or a stray comma must not pass for "no heads"
            *error = QStringLiteral("'%1' has an empty entry (kind:layer:head between every two "
                                    "commas)").arg(spec);
            return std::nullopt;
        }
        const QStringList parts = item.split(u':');
        const std::optional<AttentionKind> kind = parts.size() == 3 ? attentionKindFromName(parts[0])
                                                                    : std::nullopt;
        bool okL = false, okH = parts.size() == 3 && parts[2] == u"*";
        const int layer = parts.size() == 3 ? parts[1].toInt(&okL) : -1;
        const int head = okH ? -1 : (parts.size() == 3 ? parts[2].toInt(&okH) : -1);
        if (!kind || !okL || !okH) {
            *error = QStringLiteral("'%1' is not kind:layer:head (kind: encoder.self, decoder.self "
                                    "or decoder.cross; layer and head 0-based, head * for all)")
                         .arg(item);
            return std::nullopt;
        }
        if (c.decoderOnly() && *kind != AttentionKind::DecoderSelf) {
            *error = QStringLiteral("'%1': a decoder-only model has no %2, only decoder.self "
                                    "(core/SPEC.md §2.10)")
                         .arg(item, *kind == AttentionKind::EncoderSelf
                                        ? QStringLiteral("encoder self-attention")
                                        : QStringLiteral("cross-attention"));
            return std::nullopt;
        }
        const int layers = *kind == AttentionKind::EncoderSelf ? c.encoder_layers : c.decoder_layers;
        if (layer < 0 || layer >= layers || head < -1 || head >= c.heads) {
            *error = QStringLiteral("'%1' is outside the model (%2 layers of %3 heads)")
                         .arg(item).arg(layers).arg(c.heads);
            return std::nullopt;
        }
        for (int h = head < 0 ? 0 : head; h < (head < 0 ? c.heads : head + 1); ++h) {
            const HeadId id{*kind, layer, h};
            if (std::find(heads.begin(), heads.end(), id) == heads.end())
                heads.push_back(id);
        }
    }
    return heads;
}

QString headSpec(const std::vector<HeadId>& heads)
{
    QStringList items;
    for (const HeadId& h : heads)
        items << QStringLiteral("%1:%2:%3").arg(attentionKindName(h.kind)).arg(h.layer).arg(h.head);
    return items.join(u',');
}

template <typename T>
void maskHeads(Transformer<T>& m, const std::vector<HeadId>& heads)
{
    m.clearHeadGates();
    for (AttentionKind k : kAttentionKinds)
        for (int l = 0; l < m.layers(k); ++l) {
            std::vector<T> g(std::size_t(m.config().heads), T(1));
            bool any = false;
            for (const HeadId& id : heads)
                if (id.kind == k && id.layer == l) {
                    g[std::size_t(id.head)] = T(0);
                    any = true;
                }
            if (any)
                m.setHeadGates(k, l, std::move(g));
        }
}

HeadReport scoreHeads(Transformer<float>& model, const std::vector<EncodedPair>& pairs,
                      const std::vector<HeadId>& masked, bool deltaNll, const Progress& progress)
{
    HeadReport r;
    r.pairs = int(pairs.size());
    const std::vector<HeadId> heads = allHeads(model);
    const int H = model.config().heads;
    const std::vector<std::vector<int>> batches = evaluationBatches(pairs, 2000);
    const int passes = 1 + (deltaNll ? int(heads.size()) : 0);
    std::vector<double> grad(heads.size(), 0), conf(heads.size(), 0), ent(heads.size(), 0);
    std::vector<long> queries(heads.size(), 0);
    auto indexOf = [&](AttentionKind k, int l, int h) {
        std::size_t i = 0;
        for (AttentionKind kk : kAttentionKinds) {
            if (kk == k)
                return i + std::size_t(l) * H + std::size_t(h);
            i += std::size_t(model.layers(kk)) * H;
        }
        return i;
    };

    // Pass 1: ∂L/∂ξ of every head for every pair in one backward pass per batch, and the
    // attention's confidence and entropy from the same forward.
    gateEverything(model, masked);
    double nllSum = 0;
    for (const std::vector<int>& idx : batches) {
        const Batch b = gatherBatch(pairs, idx, model.config().decoderOnly());
        const auto sel = nllSelections<float>(b);
        const std::vector<double> logp = model.logProbBackward(b, sel);
        for (double v : logp)
            nllSum -= v;
        r.tokens += long(sel.size());
        for (AttentionKind k : kAttentionKinds)
            for (int l = 0; l < model.layers(k); ++l) {
                const MultiHeadAttention<float>& att = model.attention(k, l);
                const Mat<float>& g = model.headGateGrad(k, l);
                const bool enc = k == AttentionKind::EncoderSelf;
                for (int h = 0; h < H; ++h) {
                    const std::size_t i = indexOf(k, l, h);
                    for (int row = 0; row < b.B; ++row)
                        grad[i] += std::abs(double(g(row, h)));
                    for (int row = 0; row < b.B; ++row)
                        for (int q = 0; q < att.Sq; ++q) {
                            const int token = enc ? b.src[std::size_t(row) * b.S + q]
                                                  : b.tgtIn[std::size_t(row) * b.T + q];
                            if (token == kPadId)
                                continue;
                            const auto a = att.probs.row((Eigen::Index(row) * H + h) * att.Sq + q);
                            conf[i] += attentionConfidence(a);
                            ent[i] += attentionEntropy(a);
                            ++queries[i];
                        }
                }
            }
    }
    model.params().zeroGrads();
    r.nll = r.tokens ? nllSum / double(r.tokens) : 0;
    for (std::size_t i = 0; i < heads.size(); ++i)
        r.heads.push_back({heads[i], pairs.empty() ? 0 : grad[i] / double(pairs.size()),
                           0, queries[i] ? conf[i] / double(queries[i]) : 0,
                           queries[i] ? ent[i] / double(queries[i]) : 0});
    maskHeads(model, masked);
    if (progress && !progress(1, passes)) {
        r.cancelled = true;
        return r;
    }

    // Pass 2: the mean token NLL with each head alone masked (besides `masked`). Batch by
    // batch: one forward of the unmasked model, then each head's loss recomputed only from its
    // layer on (Transformer::evaluateFrom). Heads go from the last decoder layer down to the
    // first encoder layer, so that the activations each one starts from are still those of
    // the unmasked forward (a recomputation overwrites only what lies above its layer).
    if (deltaNll) {
        std::vector<std::size_t> order(heads.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        auto level = [&](const HeadId& id) {
            const int encoders = model.layers(AttentionKind::EncoderSelf);
            return id.kind == AttentionKind::EncoderSelf ? id.layer : encoders + id.layer;
        };
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            return level(heads[a]) > level(heads[b]);
        });
        std::vector<std::size_t> scored;
        for (std::size_t i : order)
            if (std::find(masked.begin(), masked.end(), heads[i]) == masked.end())
                scored.push_back(i);
        const int units = 1 + int(batches.size() * scored.size());
        LossStats base;
        std::vector<LossStats> alone(heads.size());
        for (std::size_t bi = 0; bi < batches.size() && !r.cancelled; ++bi) {
            const Batch b = gatherBatch(pairs, batches[bi], model.config().decoderOnly());
            maskHeads(model, masked);
            base += model.evaluate(b);
            for (std::size_t k = 0; k < scored.size(); ++k) {
                const std::size_t i = scored[k];
                std::vector<HeadId> more = masked;
                more.push_back(heads[i]);
                maskHeads(model, more);
                alone[i] += model.evaluateFrom(b, heads[i].kind, heads[i].layer);
                if (progress && !progress(1 + int(bi * scored.size() + k) + 1, units)) {
                    r.cancelled = true;
                    break;
                }
            }
        }
        if (!r.cancelled)
            for (std::size_t i : scored)
                r.heads[i].deltaNll = alone[i].nll() - base.nll();
        maskHeads(model, masked);
    }
    return r;
}

std::vector<int> pruningCounts(int heads)
{
    std::vector<int> counts;
    const int step = std::max(1, heads / 12);
    for (int k = 0; k < heads; k += step)
        counts.push_back(k);
    counts.push_back(heads);
    return counts;
}

PruningCurve pruningCurve(Transformer<float>& model, const std::vector<HeadId>& order,
                          const std::vector<int>& counts, const std::vector<EncodedPair>& pairs,
                          const ParallelData& codec, const QList<SentencePair>& text,
                          const std::vector<HeadId>& alsoMasked, const Progress& progress)
{
    PruningCurve c;
    for (std::size_t i = 0; i < counts.size(); ++i) {
        const int k = std::clamp(counts[i], 0, int(order.size()));
        std::vector<HeadId> masked = alsoMasked;
        masked.insert(masked.end(), order.begin(), order.begin() + k);
        maskHeads(model, masked);
        PruningPoint p;
        p.masked = k;
        p.nll = evaluateLoss(model, pairs, 2000).nll();
        // A language model (decoder-only) translates nothing: its curve is the NLL alone.
        p.bleu = model.config().decoderOnly() ? std::nan("") : translateAndScore(model, codec, text).bleu;
        c.points.push_back(p);
        if (progress && !progress(int(i) + 1, int(counts.size()))) {
            c.cancelled = true;
            break;
        }
    }
    maskHeads(model, alsoMasked);
    return c;
}

std::vector<HeadId> headsByImportance(const HeadReport& report)
{
    std::vector<HeadScore> s = report.heads;
    std::stable_sort(s.begin(), s.end(),
                     [](const HeadScore& a, const HeadScore& b) { return a.importance < b.importance; });
    std::vector<HeadId> order;
    for (const HeadScore& h : s)
        order.push_back(h.id);
    return order;
}

QString attributionMethodName(AttributionMethod m)
{
    switch (m) {
    case AttributionMethod::GradientXInput: return QStringLiteral("gradxinput");
    case AttributionMethod::IntegratedGradients: return QStringLiteral("ig");
    case AttributionMethod::Attention: return QStringLiteral("attention");
    case AttributionMethod::Rollout: return QStringLiteral("rollout");
    }
    return {};
}

std::optional<AttributionMethod> attributionMethodFromName(const QString& name)
{
    for (AttributionMethod m : {AttributionMethod::GradientXInput, AttributionMethod::IntegratedGradients,
                                AttributionMethod::Attention, AttributionMethod::Rollout})
        if (attributionMethodName(m) == name)
            return m;
    return std::nullopt;
}

namespace {

// The sentences explained, teacher-forced: a translator's source and output; for a
// decoder-only model the prompt followed by the output, <s> prompt out (</s>).
Batch explainedBatch(bool decoderOnly, const std::vector<std::vector<int>>& srcs,
                     const std::vector<std::vector<int>>& outs)
{
    if (!decoderOnly)
        return makeBatch(srcs, outs);
    std::vector<std::vector<int>> texts;
    for (std::size_t b = 0; b < srcs.size(); ++b) {
        texts.push_back(srcs[b]);
        texts.back().insert(texts.back().end(), outs[b].begin(), outs[b].end());
    }
    return makeSentenceLmBatch(texts);
}

// One output position explained: f = log p(chosen | source, out_<pos), minus log p(against |
// the same) when against ≥ 0 (core/SPEC.md §11.2).
struct Explained {
    int pos, chosen, against;
};

// Gradient × input or integrated gradients (core/SPEC.md §11.1) of each explained f, teacher-
// forced on out: row r of a.scores for explained[r] (a.scores already sized), and for
// integrated gradients a.f, a.fBaseline and a.completeness.
template <typename T>
void gradientAttribution(Transformer<T>& model, const std::vector<int>& src,
                         const std::vector<int>& out, const std::vector<Explained>& explained,
                         AttributionMethod method, int steps, Attribution& a)
{
    const int n = int(explained.size()), S = int(src.size()), d = model.config().d_model;
    // e_i = sqrt(d) · E[src_i]; a decoder-only model's source is its prompt, in the target
    // embedding (core/SPEC.md §11.1).
    const bool only = model.config().decoderOnly();
    const ParamInfo* table = model.params().find(
        model.config().storedName(only ? "tgt_embed.weight" : "src_embed.weight"));
    const ConstMatMap<T> E(model.params().values() + table->offset,
                           only ? model.config().tgt_vocab : model.config().src_vocab, d);
    // The embedding's factor: sqrt(d) beside sinusoids, 1 beside learned positions (§2.11).
    const double k = model.config().position == Position::Learned ? 1.0 : std::sqrt(double(d));
    Mat<double> e(S, d);
    for (int i = 0; i < S; ++i)
        e.row(i) = E.row(src[std::size_t(i)]).template cast<double>() * k;

    // Rows of one batch: group j holds the n explained positions at scale alphas[j].
    std::vector<double> alphas;
    if (method == AttributionMethod::GradientXInput) {
        alphas = {1.0};
    } else {
        const int m = std::max(1, steps);
        for (int j = 1; j <= m; ++j)
            alphas.push_back((j - 0.5) / m);
        alphas.push_back(1.0);  // f(e)
        alphas.push_back(0.0);  // f(0·e)
    }
    const int steps_ = method == AttributionMethod::GradientXInput ? 1 : int(alphas.size()) - 2;
    Mat<double> sum = Mat<double>::Zero(Eigen::Index(n) * S, d);
    std::vector<double> f(static_cast<std::size_t>(n), 0.0), f0(static_cast<std::size_t>(n), 0.0);
    // In chunks of groups, so that a long sentence with many steps stays within memory.
    const int groupsPerBatch = std::max(1, 512 / n);
    for (int g0 = 0; g0 < int(alphas.size()); g0 += groupsPerBatch) {
        const int g1 = std::min(int(alphas.size()), g0 + groupsPerBatch);
        std::vector<std::vector<int>> srcs, tgts;
        std::vector<T> scale;
        std::vector<typename Transformer<T>::Selection> sel;
            std::vector<std::size_t> firstSel;
        for (int g = g0; g < g1; ++g)
            for (int t = 0; t < n; ++t) {
                const Explained& x = explained[std::size_t(t)];
                const int row = int(srcs.size());
                srcs.push_back(src);
                tgts.push_back(out);
                scale.push_back(T(alphas[std::size_t(g)]));
                firstSel.push_back(sel.size());
                // A decoder-only model reads <s> prompt out: out[pos] is predicted at S + pos.
                const int at = only ? S + x.pos : x.pos;
                sel.push_back({row, at, x.chosen, 1.0});
                if (x.against >= 0)
                    sel.push_back({row, at, x.against, -1.0});
            }
        model.setSourceScale(scale, only ? S : 0);
        const std::vector<double> logp = model.logProbBackward(explainedBatch(only, srcs, tgts), sel);
        const Mat<T>& grad = model.sourceEmbeddingGrad();
        for (int g = g0; g < g1; ++g)
            for (int t = 0; t < n; ++t) {
                const int row = (g - g0) * n + t;
                if (method == AttributionMethod::IntegratedGradients && g >= steps_) {
                    const std::size_t k = firstSel[std::size_t(row)];
                    double v = logp[k];
                    if (explained[std::size_t(t)].against >= 0)
                        v -= logp[k + 1];
                    (g == steps_ ? f : f0)[std::size_t(t)] = v;
                    continue;
                }
                sum.middleRows(Eigen::Index(t) * S, S)
                    += grad.middleRows(Eigen::Index(row) * S, S).template cast<double>();
            }
    }
    model.setSourceScale({});
    model.params().zeroGrads();
    for (int t = 0; t < n; ++t) {
        double total = 0;
        for (int i = 0; i < S; ++i) {
            const double v = e.row(i).dot(sum.row(Eigen::Index(t) * S + i)) / double(steps_);
            a.scores[std::size_t(t)][std::size_t(i)] = v;
            total += v;
        }
        if (method == AttributionMethod::IntegratedGradients) {
            a.f.push_back(f[std::size_t(t)]);
            a.fBaseline.push_back(f0[std::size_t(t)]);
            a.completeness.push_back(total - (f[std::size_t(t)] - f0[std::size_t(t)]));
        }
    }
}

}  // namespace

template <typename T>
Attribution attribute(Transformer<T>& model, const std::vector<int>& src,
                      const std::vector<int>& out, AttributionMethod method, int steps)
{
    Attribution a;
    a.method = method;
    const int n = int(out.size()), S = int(src.size());
    a.scores.assign(std::size_t(n), std::vector<double>(std::size_t(S), 0.0));
    if (n == 0 || S == 0)
        return a;
    const int H = model.config().heads;

    if (model.config().decoderOnly() && (method == AttributionMethod::Attention
                                         || method == AttributionMethod::Rollout)) {
        // The prompt is the source and self-attention the only attention (core/SPEC.md §11.1):
        // the last layer's mean over heads, or the rollout R = Ã_N ⋯ Ã_1 of every layer's; the
        // output token t is predicted at query position S + t, the prompt's tokens are the
        // keys 1 … S (after <s>).
        model.forwardLoss(explainedBatch(true, {src}, {out}), Pass::eval());
        const int L = model.layers(AttentionKind::DecoderSelf), Tn = S + n + 1;
        auto meanOverHeads = [&](int layer) {
            const MultiHeadAttention<T>& self = model.attention(AttentionKind::DecoderSelf, layer);
            Mat<double> A = Mat<double>::Zero(Tn, Tn);
            for (int h = 0; h < H; ++h)
                A += self.probs.block(Eigen::Index(h) * Tn, 0, Tn, Tn).template cast<double>();
            return Mat<double>(A / double(H));
        };
        Mat<double> R = meanOverHeads(L - 1);
        if (method == AttributionMethod::Rollout) {
            R = Mat<double>::Identity(Tn, Tn);
            for (int l = 0; l < L; ++l) {
                Mat<double> A = 0.5 * (meanOverHeads(l) + Mat<double>::Identity(Tn, Tn));
                for (int i = 0; i < Tn; ++i)
                    A.row(i) /= A.row(i).sum();
                R = A * R;
            }
        }
        for (int t = 0; t < n; ++t)
            for (int i = 0; i < S; ++i)
                a.scores[std::size_t(t)][std::size_t(i)] = R(S + t, 1 + i);
        return a;
    }
    if (method == AttributionMethod::Attention || method == AttributionMethod::Rollout) {
        model.forwardLoss(makeBatch({src}, {out}), Pass::eval());
        // Last decoder layer's cross-attention, mean over heads: row t (query position t
        // predicts y_t).
        const MultiHeadAttention<T>& cross = model.attention(AttentionKind::Cross,
                                                             model.layers(AttentionKind::Cross) - 1);
        Mat<double> C = Mat<double>::Zero(n, S);
        for (int h = 0; h < H; ++h)
            C += cross.probs.block(Eigen::Index(h) * cross.Sq, 0, n, S).template cast<double>();
        C /= double(H);
        if (method == AttributionMethod::Rollout) {
            Mat<double> R = Mat<double>::Identity(S, S);
            for (int l = 0; l < model.layers(AttentionKind::EncoderSelf); ++l) {
                const MultiHeadAttention<T>& self = model.attention(AttentionKind::EncoderSelf, l);
                Mat<double> A = Mat<double>::Zero(S, S);
                for (int h = 0; h < H; ++h)
                    A += self.probs.block(Eigen::Index(h) * S, 0, S, S).template cast<double>();
                A /= double(H);
                A = 0.5 * (A + Mat<double>::Identity(S, S));
                for (int i = 0; i < S; ++i)
                    A.row(i) /= A.row(i).sum();
                R = A * R;  // R = Ã_l ⋯ Ã_1
            }
            C = C * R;
        }
        for (int t = 0; t < n; ++t)
            for (int i = 0; i < S; ++i)
                a.scores[std::size_t(t)][std::size_t(i)] = C(t, i);
        return a;
    }

    std::vector<Explained> explained;
    for (int t = 0; t < n; ++t)
        explained.push_back({t, out[std::size_t(t)], -1});
    gradientAttribution(model, src, out, explained, method, steps, a);
    return a;
}

template <typename T>
Attribution attributeContrast(Transformer<T>& model, const std::vector<int>& src,
                              const std::vector<int>& out, const std::vector<int>& alternative,
                              AttributionMethod method, int steps)
{
    if (method != AttributionMethod::GradientXInput && method != AttributionMethod::IntegratedGradients)
        throw std::invalid_argument("attributeContrast: gradxinput or ig only");
    if (alternative.size() != out.size())
        throw std::invalid_argument("attributeContrast: the alternative's length differs from the output's");
    Attribution a;
    a.method = method;
    std::vector<Explained> explained;
    for (std::size_t t = 0; t < out.size(); ++t)
        if (alternative[t] != out[t]) {
            explained.push_back({int(t), out[t], alternative[t]});
            a.positions.push_back(int(t));
        }
    a.scores.assign(explained.size(), std::vector<double>(src.size(), 0.0));
    if (explained.empty() || src.empty())
        return a;
    gradientAttribution(model, src, out, explained, method, steps, a);
    return a;
}

template <typename T>
NeuronView neuronView(const Transformer<T>& model, AttentionKind kind, int layer, int row, int head,
                      int query)
{
    const MultiHeadAttention<T>& a = model.attention(kind, layer);
    const int d = a.d, dk = a.dk;
    NeuronView v;
    if (row < 0 || row >= a.B || head < 0 || head >= a.heads || query < 0 || query >= a.Sq)
        return v;
    const bool self = kind != AttentionKind::Cross;
    // Self: [Q | K | V] rows of 3d; cross: Q rows of d and [K | V] rows of 2d.
    const T* q = self ? a.qkvBuf.data() + (Eigen::Index(row) * a.Sq + query) * 3 * d + head * dk
                      : a.qBuf.data() + (Eigen::Index(row) * a.Sq + query) * d + head * dk;
    const double scale = 1.0 / std::sqrt(double(dk));
    v.query.assign(q, q + dk);
    for (int j = 0; j < a.Sk; ++j) {
        const T* k = self ? a.qkvBuf.data() + (Eigen::Index(row) * a.Sk + j) * 3 * d + d + head * dk
                          : a.kvBuf.data() + (Eigen::Index(row) * a.Sk + j) * 2 * d + head * dk;
        std::vector<double> key(k, k + dk), prod(static_cast<std::size_t>(dk), 0.0);
        double dot = 0;
        for (int c = 0; c < dk; ++c) {
            prod[std::size_t(c)] = v.query[std::size_t(c)] * key[std::size_t(c)];
            dot += prod[std::size_t(c)];
        }
        v.keys.push_back(std::move(key));
        v.products.push_back(std::move(prod));
        v.scores.push_back(a.masked(row, query, j) ? -1e9 : dot * scale);
        v.probs.push_back(double(a.probs((Eigen::Index(row) * a.heads + head) * a.Sq + query, j)));
    }
    return v;
}

template <typename T>
std::vector<ScoreTerms> firstLayerScoreTerms(const Transformer<T>& model, const std::vector<int>& src)
{
    const ModelConfig& c = model.config();
    const int d = c.d_model, H = c.heads, dk = d / H, S = int(src.size());
    const ParamStore<T>& ps = model.params();
    auto matrix = [&](const std::string& name, int rows, int cols) {
        return ConstMatMap<T>(ps.values() + ps.find(name)->offset, rows, cols).template cast<double>().eval();
    };
    auto vector = [&](const std::string& name) {
        const ParamInfo* p = ps.find(name);
        return ConstMatMap<T>(ps.values() + p->offset, 1, Eigen::Index(p->size)).template cast<double>().eval();
    };
    const Mat<double> E = matrix("src_embed.weight", c.src_vocab, d);
    // Sinusoids beside embeddings scaled by sqrt(d), or learned positions beside unscaled ones.
    const bool learned = c.position == Position::Learned;
    if (learned && S > c.max_len)
        throw std::out_of_range("the source is longer than the model's learned positions");
    const Mat<double> PE = learned ? matrix("src_pos.weight", c.max_len, d)
                                   : positionalEncoding<double>(std::max(S, 1), d,
                                                               c.position == Position::SinusoidalHalves);
    const double k = learned ? 1.0 : std::sqrt(double(d));
    Mat<double> e(S, d), p(S, d), b = Mat<double>::Zero(S, d);
    for (int i = 0; i < S; ++i) {
        e.row(i) = E.row(src[std::size_t(i)]) * k;
        p.row(i) = PE.row(i);
    }
    if (c.norm == NormPlacement::Pre) {
        // LayerNorm(x) = γ ⊙ (x − mean x) / σ + β, σ = sqrt(var x + eps): split over e and p.
        const Mat<double> g = vector("encoder.layers.0.norm1.weight"), beta = vector("encoder.layers.0.norm1.bias");
        for (int i = 0; i < S; ++i) {
            const Eigen::RowVectorXd x = e.row(i) + p.row(i);
            const double var = (x.array() - x.mean()).square().mean();
            const double rstd = 1.0 / std::sqrt(var + c.norm_eps);
            e.row(i) = ((e.row(i).array() - e.row(i).mean()) * rstd * g.row(0).array()).matrix();
            p.row(i) = ((p.row(i).array() - p.row(i).mean()) * rstd * g.row(0).array()).matrix();
            b.row(i) = beta.row(0);
        }
    }
    const Mat<double> Wq = matrix("encoder.layers.0.self_attn.q.weight", d, d);
    const Mat<double> Wk = matrix("encoder.layers.0.self_attn.k.weight", d, d);
    const Mat<double> bq = vector("encoder.layers.0.self_attn.q.bias"), bk = vector("encoder.layers.0.self_attn.k.bias");
    // Rows: tokens; a W^T: the projections of each part; the biases go with β's part.
    const Mat<double> qe = e * Wq.transpose(), qp = p * Wq.transpose();
    const Mat<double> ke = e * Wk.transpose(), kp = p * Wk.transpose();
    const Mat<double> qb = (b * Wq.transpose()).rowwise() + bq.row(0);
    const Mat<double> kb = (b * Wk.transpose()).rowwise() + bk.row(0);
    const double scale = 1.0 / std::sqrt(double(dk));
    std::vector<ScoreTerms> out;
    for (int h = 0; h < H; ++h) {
        auto part = [&](const Mat<double>& m) { return m.middleCols(Eigen::Index(h) * dk, dk); };
        ScoreTerms t;
        t.tokenToken = part(qe) * part(ke).transpose() * scale;
        t.tokenPosition = part(qe) * part(kp).transpose() * scale;
        t.positionToken = part(qp) * part(ke).transpose() * scale;
        t.positionPosition = part(qp) * part(kp).transpose() * scale;
        const Mat<double> q = part(qe) + part(qp) + part(qb), k = part(ke) + part(kp) + part(kb);
        t.bias = q * k.transpose() * scale - t.tokenToken - t.tokenPosition - t.positionToken - t.positionPosition;
        const double pos = t.tokenPosition.cwiseAbs().sum() + t.positionToken.cwiseAbs().sum()
                           + t.positionPosition.cwiseAbs().sum();
        const double all = pos + t.tokenToken.cwiseAbs().sum();
        t.positionalShare = all > 0 ? pos / all : 0;
        out.push_back(std::move(t));
    }
    return out;
}

namespace {
std::vector<double> ranks(const std::vector<double>& v)
{
    std::vector<std::size_t> order(v.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return v[a] < v[b]; });
    std::vector<double> r(v.size());
    for (std::size_t i = 0; i < order.size();) {
        std::size_t j = i;
        while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]])
            ++j;
        for (std::size_t k = i; k <= j; ++k)
            r[order[k]] = 0.5 * double(i + j) + 1.0;  // mean rank of the ties, 1-based
        i = j + 1;
    }
    return r;
}
}  // namespace

double spearman(const std::vector<double>& a, const std::vector<double>& b)
{
    if (a.size() != b.size() || a.size() < 2)
        return NAN;
    const std::vector<double> ra = ranks(a), rb = ranks(b);
    const double n = double(a.size());
    const double ma = std::accumulate(ra.begin(), ra.end(), 0.0) / n;
    const double mb = std::accumulate(rb.begin(), rb.end(), 0.0) / n;
    double sab = 0, saa = 0, sbb = 0;
    for (std::size_t i = 0; i < ra.size(); ++i) {
        sab += (ra[i] - ma) * (rb[i] - mb);
        saa += (ra[i] - ma) * (ra[i] - ma);
        sbb += (rb[i] - mb) * (rb[i] - mb);
    }
    return saa > 0 && sbb > 0 ? sab / std::sqrt(saa * sbb) : NAN;
}

template NeuronView neuronView(const Transformer<float>&, AttentionKind, int, int, int, int);
template NeuronView neuronView(const Transformer<double>&, AttentionKind, int, int, int, int);
template std::vector<ScoreTerms> firstLayerScoreTerms(const Transformer<float>&, const std::vector<int>&);
template std::vector<ScoreTerms> firstLayerScoreTerms(const Transformer<double>&, const std::vector<int>&);
template void maskHeads(Transformer<float>&, const std::vector<HeadId>&);
template void maskHeads(Transformer<double>&, const std::vector<HeadId>&);
template Attribution attribute(Transformer<float>&, const std::vector<int>&, const std::vector<int>&,
                               AttributionMethod, int);
template Attribution attribute(Transformer<double>&, const std::vector<int>&, const std::vector<int>&,
                               AttributionMethod, int);
template Attribution attributeContrast(Transformer<float>&, const std::vector<int>&, const std::vector<int>&,
                                       const std::vector<int>&, AttributionMethod, int);
template Attribution attributeContrast(Transformer<double>&, const std::vector<int>&, const std::vector<int>&,
                                       const std::vector<int>&, AttributionMethod, int);

}  // namespace as
