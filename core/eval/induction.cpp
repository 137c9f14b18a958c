// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "eval/induction.h"

#include "eval/interpret.h"

#include <QJsonArray>

#include <Eigen/Dense>

#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <stdexcept>

namespace as {

namespace {

using MatD = Eigen::MatrixXd;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr int kBaselineSamples = 100;

// Decoder-input position of row symbol i (<s> stands at 0).
int pos(int i)
{
    return i + 1;
}

template <typename T>
MatD param(const Transformer<T>& model, const std::string& name)
{
    const ParamInfo* info = model.params().find(model.config().storedName(name));
    if (!info)
        throw std::logic_error("induction: no parameter " + name);
    MatD m(info->rows(), info->cols());
    const T* v = model.params().values() + info->offset;
    for (int r = 0; r < info->rows(); ++r)
        for (int c = 0; c < info->cols(); ++c)
            m(r, c) = double(v[std::size_t(r) * std::size_t(info->cols()) + std::size_t(c)]);
    return m;
}

std::string layerName(int l)
{
    return "decoder.layers." + std::to_string(l);
}

// Frobenius norms of M_QK = A Bᵀ, M_OV = C Dᵀ and of M_QK M_OVᵀ = A Bᵀ D Cᵀ (each d × d),
// from their d × d_k factors through d_k × d_k products: ‖A Bᵀ D Cᵀ‖² = tr(Gᵀ (AᵀA) G (CᵀC))
// with G = Bᵀ D.
double compositionScore(const MatD& A, const MatD& B, const MatD& C, const MatD& D)
{
    const MatD P = A.transpose() * A, Q = C.transpose() * C;
    const MatD G = B.transpose() * D;
    const double composed = (G.transpose() * P * G * Q).trace();
    const double qk = (P * (B.transpose() * B)).trace();
    const double ov = (Q * (D.transpose() * D)).trace();
    if (qk <= 0 || ov <= 0)
        return 0.0;
    return std::sqrt(std::max(0.0, composed)) / std::sqrt(qk * ov);
}

MatD gaussian(Rng& rng, int rows, int cols)
{
    MatD m(rows, cols);
    for (int i = 0; i < m.size(); ++i) {
        // Box–Muller; 1 − u keeps the logarithm finite.
        const double u = 1.0 - rng.uniform(), v = rng.uniform();
        m.data()[i] = std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * M_PI * v);
    }
    return m;
}

}  // namespace

InductionProbe makeInductionProbe(int vocabSize, int rows, std::uint64_t seed)
{
    if (vocabSize < kInductionMinVocab)
        throw std::invalid_argument("induction probe: the vocabulary needs two tokens besides the specials");
    RepeatOptions o;
    o.symbols = vocabSize - 4;  // ids 4 … V−1 (core/SPEC.md §1.1)
    Rng rng(seed);
    InductionProbe p;
    std::vector<std::vector<int>> ids;
    for (int r = 0; r < rows; ++r) {
        RepeatRow row = randomRepeatRow(rng, o);
        for (int& s : row.symbols)
            s += 4;
        ids.push_back(row.symbols);
        p.rows.push_back(std::move(row));
    }
    p.batch = makeSentenceLmBatch(ids);
    return p;
}

PatternScores patternScores(const AttentionAt& a, int T, const std::vector<RepeatRow>& rows)
{
    PatternScores s;
    long inductionQueries = 0, previousQueries = 0;
    for (int b = 0; b < int(rows.size()); ++b) {
        const RepeatRow& r = rows[std::size_t(b)];
        for (int q = 1; q < T; ++q) {
            s.previous += a(b, q, q - 1);
            ++previousQueries;
        }
        for (int j = 0; j < r.segment && pos(r.second + j) < T; ++j) {
            const int q = pos(r.second + j);
            s.induction += a(b, q, pos(r.first + j + 1));
            s.duplicate += a(b, q, pos(r.first + j));
            ++inductionQueries;
        }
    }
    if (previousQueries)
        s.previous /= double(previousQueries);
    if (inductionQueries) {
        s.induction /= double(inductionQueries);
        s.duplicate /= double(inductionQueries);
    }
    return s;
}

int InductionRecord::top() const
{
    int best = 0;
    for (int i = 1; i < int(induction.size()); ++i)
        if (induction[std::size_t(i)] > induction[std::size_t(best)])
            best = i;
    return best;
}

double compositionBaseline(int dModel, int dHead)
{
    // The same shapes give the same number: computed once per shape.
    static std::mutex mutex;
    static std::map<std::pair<int, int>, double> known;
    const std::lock_guard lock(mutex);
    if (const auto it = known.find({dModel, dHead}); it != known.end())
        return it->second;
    Rng rng(kInductionProbeSeed);
    double sum = 0;
    for (int i = 0; i < kBaselineSamples; ++i) {
        const MatD A = gaussian(rng, dModel, dHead), B = gaussian(rng, dModel, dHead);
        const MatD C = gaussian(rng, dModel, dHead), D = gaussian(rng, dModel, dHead);
        sum += compositionScore(A, B, C, D);
    }
    return known[{dModel, dHead}] = sum / kBaselineSamples;
}

template <typename T>
void kComposition(const Transformer<T>& model, std::vector<double>* table, double* baseline)
{
    const ModelConfig& c = model.config();
    const int L = c.decoder_layers, H = c.heads, dk = c.d_model / c.heads, n = L * H;
    const bool pre = c.norm == NormPlacement::Pre;
    table->assign(std::size_t(n) * std::size_t(n), kNaN);
    // Per head: A = γ⊙W_Qᵀ, B = γ⊙W_Kᵀ, C = γ⊙W_Vᵀ, D = W_O's columns (each d × d_k), γ the
    // layer's norm1 weight folded in (pre-norm: the head reads norm1(x)).
    std::vector<MatD> A(static_cast<std::size_t>(n)), B = A, C = A, D = A;
    for (int l = 0; l < L; ++l) {
        const std::string p = layerName(l) + ".self_attn.";
        const MatD q = param(model, p + "q.weight"), k = param(model, p + "k.weight");
        const MatD v = param(model, p + "v.weight"), o = param(model, p + "o.weight");
        Eigen::VectorXd gamma = Eigen::VectorXd::Ones(c.d_model);
        if (pre)
            gamma = param(model, layerName(l) + ".norm1.weight").reshaped();
        for (int h = 0; h < H; ++h) {
            const std::size_t i = std::size_t(l * H + h);
            A[i] = gamma.asDiagonal() * q.middleRows(h * dk, dk).transpose();
            B[i] = gamma.asDiagonal() * k.middleRows(h * dk, dk).transpose();
            C[i] = gamma.asDiagonal() * v.middleRows(h * dk, dk).transpose();
            D[i] = o.middleCols(h * dk, dk);
        }
    }
    for (int later = H; later < n; ++later)
        for (int earlier = 0; earlier < (later / H) * H; ++earlier)
            (*table)[std::size_t(later) * std::size_t(n) + std::size_t(earlier)] =
                compositionScore(A[std::size_t(later)], B[std::size_t(later)], C[std::size_t(earlier)],
                                 D[std::size_t(earlier)]);
    *baseline = compositionBaseline(c.d_model, dk);
}

template <typename T>
InductionRecord measureInduction(Transformer<T>& model, const InductionProbe& probe)
{
    const ModelConfig& c = model.config();
    if (!c.decoderOnly())
        throw std::invalid_argument("induction scores are for a decoder-only model");
    const Batch& batch = probe.batch;
    const int L = c.decoder_layers, H = c.heads, dk = c.d_model / c.heads, Tn = batch.T;
    InductionRecord r;
    r.layers = L;
    r.heads = H;
    for (int l = 0; l < L; ++l) {
        const std::vector<T>& gate = model.attention(AttentionKind::DecoderSelf, l).gate;
        for (int h = 0; h < int(gate.size()); ++h)
            if (gate[std::size_t(h)] == T(0))
                r.masked.push_back(l * H + h);
    }
    model.evaluate(batch);

    // §13.1: the attention patterns.
    for (int l = 0; l < L; ++l) {
        const MultiHeadAttention<T>& att = model.attention(AttentionKind::DecoderSelf, l);
        for (int h = 0; h < H; ++h) {
            const PatternScores s = patternScores(
                [&](int b, int q, int k) {
                    return double(att.probs((std::size_t(b) * std::size_t(H) + std::size_t(h)) * std::size_t(Tn) + std::size_t(q), k));
                },
                Tn, probe.rows);
            r.induction.push_back(s.induction);
            r.previous.push_back(s.previous);
            r.duplicate.push_back(s.duplicate);
        }
    }

    // The probe's loss at every position, and over the copies' predictable tokens.
    const Mat<T>& logits = model.logits();
    std::vector<double> nll(std::size_t(batch.B) * std::size_t(Tn), 0.0);
    for (int row = 0; row < batch.B * Tn; ++row) {
        const int target = batch.tgtOut[std::size_t(row)];
        if (target == kPad)
            continue;
        const auto z = logits.row(row).template cast<double>();
        const double m = z.maxCoeff();
        nll[std::size_t(row)] = m + std::log((z.array() - m).exp().sum()) - z(target);
    }
    r.positionLoss.assign(std::size_t(Tn), 0.0);
    for (int t = 0; t < Tn; ++t) {
        for (int b = 0; b < batch.B; ++b)
            r.positionLoss[std::size_t(t)] += nll[std::size_t(b) * std::size_t(Tn) + std::size_t(t)];
        r.positionLoss[std::size_t(t)] /= batch.B;
    }
    double firstSum = 0, laterSum = 0;
    long count = 0;
    for (int b = 0; b < batch.B; ++b) {
        const RepeatRow& row = probe.rows[std::size_t(b)];
        // Row symbol i is predicted at decoder position i (position i holds symbol i − 1).
        for (int j = 1; j < row.segment; ++j) {
            firstSum += nll[std::size_t(b) * std::size_t(Tn) + std::size_t(row.first + j)];
            laterSum += nll[std::size_t(b) * std::size_t(Tn) + std::size_t(row.second + j)];
            ++count;
        }
    }
    r.firstCopyLoss = count ? firstSum / double(count) : kNaN;
    r.laterCopyLoss = count ? laterSum / double(count) : kNaN;
    // §13.4: Olsson et al.'s 500th minus 50th token of 512, scaled to the probe's n symbols
    // (predicted at decoder positions 0 … n − 1; the last position predicts </s>).
    const int n = int(probe.rows.front().symbols.size());
    const int early = int(std::lround((n - 1) * 49.0 / 511.0));
    const int late = int(std::lround((n - 1) * 499.0 / 511.0));
    r.inContextScore = r.positionLoss[std::size_t(late)] - r.positionLoss[std::size_t(early)];

    // §13.2: each head's direct logit attribution to the token it should copy, through the
    // final LayerNorm with its scale frozen at the pass's own.
    r.copying.assign(std::size_t(L * H), kNaN);
    if (c.norm == NormPlacement::Pre) {
        const MatD gen = param(model, "generator.weight");
        const Eigen::RowVectorXd genMean = gen.colwise().mean();
        const Eigen::RowVectorXd gamma = param(model, "decoder.norm.weight").reshaped().transpose();
        const Mat<T>& finalIn = model.decoderState(L);
        std::vector<MatD> outputs;  // per layer: W_O
        for (int l = 0; l < L; ++l)
            outputs.push_back(param(model, layerName(l) + ".self_attn.o.weight"));
        std::vector<double> sums(std::size_t(L * H), 0.0);
        long queries = 0;
        for (int b = 0; b < batch.B; ++b) {
            const RepeatRow& row = probe.rows[std::size_t(b)];
            for (int j = 0; j + 1 < row.segment; ++j) {
                const int q = pos(row.second + j);
                const std::size_t at = std::size_t(b) * std::size_t(Tn) + std::size_t(q);
                const int token = row.symbols[std::size_t(row.first + j + 1)];
                const Eigen::RowVectorXd direction = gen.row(token) - genMean;
                const Eigen::RowVectorXd y = finalIn.row(Eigen::Index(at)).template cast<double>();
                const double mean = y.mean();
                const double sigma = std::sqrt((y.array() - mean).square().mean() + c.norm_eps);
                for (int l = 0; l < L; ++l) {
                    const MultiHeadAttention<T>& att = model.attention(AttentionKind::DecoderSelf, l);
                    const MatD& o = outputs[std::size_t(l)];
                    for (int h = 0; h < H; ++h) {
                        const Eigen::RowVectorXd ctx =
                            att.ctx.row(Eigen::Index(at)).segment(h * dk, dk).template cast<double>();
                        Eigen::RowVectorXd u = ctx * o.middleCols(h * dk, dk).transpose();
                        u.array() -= u.mean();
                        sums[std::size_t(l * H + h)] += (u.cwiseProduct(gamma) / sigma).dot(direction);
                    }
                }
                ++queries;
            }
        }
        for (std::size_t i = 0; i < sums.size(); ++i)
            r.copying[i] = queries ? sums[i] / double(queries) : kNaN;
    }

    kComposition(model, &r.composition, &r.compositionBaseline);
    return r;
}

std::optional<long> phaseChangeStep(const std::vector<std::shared_ptr<const InductionRecord>>& records)
{
    for (const auto& r : records)
        if (r && r->topInduction() >= kPhaseChangeInduction
            && r->laterCopyLoss <= r->firstCopyLoss - kPhaseChangeLossGap)
            return r->step;
    return std::nullopt;
}

namespace {

QString headName(const InductionRecord& r, int index)
{
    return headSpec({HeadId{AttentionKind::DecoderSelf, index / r.heads, index % r.heads}});
}

QJsonValue number(double x)
{
    return std::isfinite(x) ? QJsonValue(x) : QJsonValue(QJsonValue::Null);
}

}  // namespace

QJsonObject inductionJson(const InductionRecord& r)
{
    QJsonArray heads;
    const int n = r.layers * r.heads;
    for (int i = 0; i < n; ++i) {
        const std::size_t k = std::size_t(i);
        heads.append(QJsonObject{{"head", headName(r, i)},
                                 {"induction", number(r.induction[k])},
                                 {"previous_token", number(r.previous[k])},
                                 {"duplicate_token", number(r.duplicate[k])},
                                 {"copying", number(r.copying[k])}});
    }
    QJsonArray composition;
    for (int later = 0; later < n; ++later)
        for (int earlier = 0; earlier < n; ++earlier) {
            const double c = r.composition[std::size_t(later) * std::size_t(n) + std::size_t(earlier)];
            if (std::isfinite(c))
                composition.append(QJsonObject{{"reader", headName(r, later)},
                                               {"writer", headName(r, earlier)},
                                               {"k_composition", c}});
        }
    QJsonArray positions;
    for (double x : r.positionLoss)
        positions.append(number(x));
    QJsonArray masked;
    for (int i : r.masked)
        masked.append(headName(r, i));
    return QJsonObject{{"step", double(r.step)},
                       {"masked", masked},
                       {"top_head", headName(r, r.top())},
                       {"top_induction", number(r.topInduction())},
                       {"first_copy_loss", number(r.firstCopyLoss)},
                       {"later_copy_loss", number(r.laterCopyLoss)},
                       {"in_context_score", number(r.inContextScore)},
                       {"heads", heads},
                       {"composition", composition},
                       {"composition_baseline", number(r.compositionBaseline)},
                       {"position_loss", positions}};
}

QString inductionSummary(const InductionRecord& r)
{
    return QStringLiteral("top induction head %1 (score %2), later copies' loss %3 against %4 in first copies")
        .arg(headName(r, r.top()))
        .arg(r.topInduction(), 0, 'f', 3)
        .arg(r.laterCopyLoss, 0, 'f', 3)
        .arg(r.firstCopyLoss, 0, 'f', 3);
}

template InductionRecord measureInduction(Transformer<float>&, const InductionProbe&);
template InductionRecord measureInduction(Transformer<double>&, const InductionProbe&);
template void kComposition(const Transformer<float>&, std::vector<double>*, double*);
template void kComposition(const Transformer<double>&, std::vector<double>*, double*);

}  // namespace as
