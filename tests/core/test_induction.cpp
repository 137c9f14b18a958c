// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Induction heads (eval/induction.h, core/SPEC.md §13) and the repeat task they form on
// (text/repeat_task.h, §10.8):
// - the task's name and parameters, its rows (the later copy equals the first, the places and
//   lengths vary, the same seed gives the same rows and batches);
// - each attention score against hand-made patterns whose value is worked by hand: the exact
//   induction head scores 1, a previous-token head 1 on its own score, uniform attention the
//   mean of 1/(q + 1) over its queries;
// - K-composition against the formula computed directly with d × d matrices in double;
// - the whole record against an independent computation from traceForward's tensors (the
//   attention weights, the heads' context, the final norm's input, the log-probabilities) of a
//   model trained a little on the repeat task;
// - the phase-change rule on records worked by hand.
#include "skip.h"
#include "eval/induction.h"
#include "eval/trace.h"
#include "io/checkpoint_container.h"
#include "io/history_codec.h"
#include "text/lm_tasks.h"
#include "text/repeat_task.h"
#include "text/tasks.h"
#include "train/recipe.h"
#include "train/trainer.h"

#include <QTest>

#include <Eigen/Dense>

#include <cstring>
#include <set>

using namespace as;
using namespace Qt::StringLiterals;

class TestInduction : public QObject {
    Q_OBJECT
private slots:
    void names();
    void rows();
    void taskBatches();
    void handMadePatterns();
    void compositionAgainstFormula();
    void recordAgainstTrace();
    void phaseChangeRule();
    void recordsKept();
};

void TestInduction::names()
{
    QString error;
    QCOMPARE(*repeatOptionsFromName(u"repeat"_s, &error), RepeatOptions{});
    const RepeatOptions v32 = *repeatOptionsFromName(u"repeat:32"_s, &error);
    QCOMPARE(v32.symbols, 32);
    QCOMPARE(v32.minSegment, RepeatOptions{}.minSegment);
    const RepeatOptions fixed = *repeatOptionsFromName(u"repeat:32:8"_s, &error);
    QCOMPARE(fixed.minSegment, 8);
    QCOMPARE(fixed.maxSegment, 8);
    const RepeatOptions range = *repeatOptionsFromName(u"repeat:100:2:31"_s, &error);
    QCOMPARE(range.symbols, 100);
    QCOMPARE(range.minSegment, 2);
    QCOMPARE(range.maxSegment, 31);
    QCOMPARE(repeatTaskName(range), u"repeat:100:2:31"_s);
    for (const char* bad : {"repeat:1", "repeat:x", "repeat:64:0", "repeat:64:9:8", "repeat:64:4:32",
                            "repeat:64:4:8:1", "repeats"}) {
        error.clear();
        QVERIFY2(!repeatOptionsFromName(QString::fromLatin1(bad), &error), bad);
        QVERIFY2(!error.isEmpty(), bad);
    }
    QVERIFY(isLanguageModelTask(u"repeat"_s));
    QVERIFY(isLanguageModelTask(u"repeat:16:3:5"_s));
    QVERIFY(!isLanguageModelTask(u"repeated"_s));
    QVERIFY(languageModelTaskNames().contains(u"repeat"_s));
    // A bad name reaches the user as the parser's message.
    QVERIFY(makeLanguageModelTask(u"repeat:64:40"_s, 8, std::nullopt, &error).name.isEmpty());
    QVERIFY2(error.contains(u"LMAX"_s), qPrintable(error));
}

void TestInduction::rows()
{
    const RepeatOptions o;
    Rng a(7), b(7);
    std::set<int> offsets, lengths;
    for (int i = 0; i < 500; ++i) {
        const RepeatRow r = randomRepeatRow(a, o);
        const RepeatRow same = randomRepeatRow(b, o);
        QCOMPARE(r.symbols, same.symbols);
        QCOMPARE(r.first, same.first);
        QCOMPARE(int(r.symbols.size()), o.length);
        QVERIFY(r.segment >= o.minSegment && r.segment <= o.maxSegment);
        QVERIFY(r.first >= 0 && r.first + r.segment <= r.second && r.second + r.segment <= o.length);
        for (int j = 0; j < r.segment; ++j)
            QCOMPARE(r.symbols[std::size_t(r.second + j)], r.symbols[std::size_t(r.first + j)]);
        for (int s : r.symbols)
            QVERIFY(s >= 0 && s < o.symbols);
        offsets.insert(r.second - r.first);
        lengths.insert(r.segment);
    }
    // The distance between the copies varies (a fixed one can be solved without an induction
    // head, issue 61), and so does the segment's length: every length of 8 … 30 came.
    QVERIFY2(offsets.size() > 30, qPrintable(QString::number(offsets.size())));
    QCOMPARE(int(lengths.size()), o.maxSegment - o.minSegment + 1);
}

void TestInduction::taskBatches()
{
    QString error;
    const Task t = makeLanguageModelTask(u"repeat:20:3:6"_s, 8, std::nullopt, &error);
    QVERIFY2(!t.name.isEmpty(), qPrintable(error));
    QCOMPARE(t.name, u"repeat:20:3:6"_s);
    QVERIFY(t.languageModel);
    QCOMPARE(t.tgtVocab.size(), 4 + 20);
    QCOMPARE(t.validation.size(), std::size_t(64));
    QCOMPARE(t.examples.size(), std::size_t(5));
    // The same task made twice (the window's and the command line's) validates on the same rows.
    const Task again = makeLanguageModelTask(u"repeat:20:3:6"_s, 8, std::nullopt, &error);
    for (std::size_t i = 0; i < t.validation.size(); ++i)
        QCOMPARE(t.validation[i].tgt, again.validation[i].tgt);
    Rng r1(3), r2(3);
    for (int k = 0; k < 5; ++k) {
        const Batch x = t.nextBatch(r1), y = again.nextBatch(r2);
        QVERIFY(x.tgtIn == y.tgtIn && x.tgtOut == y.tgtOut);
        QCOMPARE(x.B, 8);
        QCOMPARE(x.T, kLmContext);
        for (int b = 0; b < x.B; ++b) {
            const int* in = x.tgtIn.data() + std::size_t(b) * std::size_t(x.T);
            const int* out = x.tgtOut.data() + std::size_t(b) * std::size_t(x.T);
            QCOMPARE(in[0], int(kBos));
            QCOMPARE(out[x.T - 1], int(kEos));
            // Some segment of 3 … 6 tokens recurs: find a repeat of the row's tokens.
            QStringList tokens;
            for (int s = 1; s < x.T; ++s) {
                QVERIFY(in[s] >= 4 && in[s] < 24);
                tokens << t.tgtVocab.token(in[s]);
            }
            bool found = false;
            for (int i = 0; i + 3 <= tokens.size() && !found; ++i)
                for (int j = i + 3; j + 3 <= tokens.size() && !found; ++j)
                    found = tokens.mid(i, 3) == tokens.mid(j, 3);
            QVERIFY(found);
        }
    }
}

void TestInduction::handMadePatterns()
{
    // Ten symbols; the segment of three at 1 … 3 recurs at 5 … 7. Decoder positions: <s> at 0,
    // symbol i at i + 1; so the later copy's queries are 6, 7, 8, the tokens after the first
    // occurrences are at 3, 4, 5 and the first occurrences at 2, 3, 4.
    RepeatRow row;
    row.symbols = {9, 1, 2, 3, 8, 1, 2, 3, 7, 6};
    row.first = 1;
    row.second = 5;
    row.segment = 3;
    const std::vector<RepeatRow> rows{row};
    const int T = 11;
    const auto near = [](double a, double b) { return std::abs(a - b) < 1e-12; };

    // The exact induction head: every later-copy query on the token after its first
    // occurrence, every other query on <s>.
    const PatternScores ind = patternScores(
        [](int, int q, int k) {
            const bool later = q >= 6 && q <= 8;
            return later ? double(k == q - 3) : double(k == 0);
        },
        T, rows);
    QVERIFY(near(ind.induction, 1.0));
    QVERIFY(near(ind.duplicate, 0.0));
    // Query 1's only earlier key, <s>, is also its previous token: 1 of the 10 queries.
    QVERIFY(near(ind.previous, 1.0 / 10.0));

    // The duplicate-token head: on the first occurrence itself.
    const PatternScores dup = patternScores([](int, int q, int k) { return double(k == q - 4); }, T, rows);
    QVERIFY(near(dup.duplicate, 1.0));
    QVERIFY(near(dup.induction, 0.0));

    // The previous-token head: 1 on its score; the induction keys are never q − 1 here.
    const PatternScores prev = patternScores([](int, int q, int k) { return double(k == q - 1); }, T, rows);
    QVERIFY(near(prev.previous, 1.0));
    QVERIFY(near(prev.induction, 0.0));

    // Uniform causal attention, a(q, k) = 1/(q + 1): induction and duplicate (1/7 + 1/8 + 1/9)/3.
    const PatternScores uni = patternScores([](int, int q, int) { return 1.0 / (q + 1); }, T, rows);
    const double expected = (1.0 / 7 + 1.0 / 8 + 1.0 / 9) / 3;
    QVERIFY(near(uni.induction, expected));
    QVERIFY(near(uni.duplicate, expected));
    double prevUniform = 0;
    for (int q = 1; q < T; ++q)
        prevUniform += 1.0 / (q + 1);
    QVERIFY(near(uni.previous, prevUniform / (T - 1)));

    // A copy that runs to the end of a shorter input counts only the queries it has.
    const PatternScores cut = patternScores([](int, int q, int k) { return double(k == q - 3); }, 8, rows);
    QVERIFY(near(cut.induction, 1.0));  // queries 6 and 7 only
}

namespace {

// A decoder-only model with every weight random (norm weights too, so that their folding
// matters) in double.
std::unique_ptr<Transformer<double>> randomModel(int layers, int d, int heads, int vocab, std::uint64_t seed)
{
    ModelConfig c;
    c.arch = Arch::DecoderOnly;
    c.encoder_layers = 0;
    c.decoder_layers = layers;
    c.d_model = d;
    c.heads = heads;
    c.d_ff = 2 * d;
    c.dropout = 0;
    c.src_vocab = c.tgt_vocab = vocab;
    auto m = std::make_unique<Transformer<double>>(c);
    Rng rng(seed);
    m->initXavier(rng);
    for (const ParamInfo& p : m->params().table())
        if (p.name.find("norm") != std::string::npos)
            for (std::size_t i = 0; i < p.size; ++i)
                m->params().values()[p.offset + i] = 0.5 + rng.uniform();
    return m;
}

Eigen::MatrixXd matrixOf(const Transformer<double>& m, const std::string& name)
{
    const ParamInfo* p = m.params().find(name);
    Eigen::MatrixXd out(p->rows(), p->cols());
    for (int r = 0; r < p->rows(); ++r)
        for (int c = 0; c < p->cols(); ++c)
            out(r, c) = m.params().values()[p->offset + std::size_t(r * p->cols() + c)];
    return out;
}

}  // namespace

void TestInduction::compositionAgainstFormula()
{
    const int L = 3, d = 24, H = 3, dk = d / H;
    const auto model = randomModel(L, d, H, 30, 11);
    std::vector<double> table;
    double baseline = 0;
    kComposition(*model, &table, &baseline);
    QCOMPARE(int(table.size()), (L * H) * (L * H));
    // Elhage et al.: W_QK = W_Qᵀ W_K and W_OV = W_O W_V as the paper writes them (column
    // vectors: a score is x_qᵀ W_QK x_k, a head writes W_OV x), the norm's weight γ folded into
    // the matrices that read it; K-composition ‖W_QKᵀ … ‖ as ‖W_QK W_OV‖_F / (‖W_QK‖_F ‖W_OV‖_F).
    for (int later = 0; later < L * H; ++later)
        for (int earlier = 0; earlier < L * H; ++earlier) {
            const double got = table[std::size_t(later * L * H + earlier)];
            const int l2 = later / H, h2 = later % H, l1 = earlier / H, h1 = earlier % H;
            if (l1 >= l2) {
                QVERIFY(std::isnan(got));
                continue;
            }
            const std::string p2 = "decoder.layers." + std::to_string(l2);
            const std::string p1 = "decoder.layers." + std::to_string(l1);
            const Eigen::MatrixXd g2 = matrixOf(*model, p2 + ".norm1.weight").reshaped().asDiagonal();
            const Eigen::MatrixXd g1 = matrixOf(*model, p1 + ".norm1.weight").reshaped().asDiagonal();
            const Eigen::MatrixXd WQ = matrixOf(*model, p2 + ".self_attn.q.weight").middleRows(h2 * dk, dk) * g2;
            const Eigen::MatrixXd WK = matrixOf(*model, p2 + ".self_attn.k.weight").middleRows(h2 * dk, dk) * g2;
            const Eigen::MatrixXd WV = matrixOf(*model, p1 + ".self_attn.v.weight").middleRows(h1 * dk, dk) * g1;
            const Eigen::MatrixXd WO = matrixOf(*model, p1 + ".self_attn.o.weight").middleCols(h1 * dk, dk);
            const Eigen::MatrixXd WQK = WQ.transpose() * WK;  // d × d
            const Eigen::MatrixXd WOV = WO * WV;               // d × d
            const double want = (WQK * WOV).norm() / (WQK.norm() * WOV.norm());
            QVERIFY2(std::abs(got - want) < 1e-6 * std::max(1.0, want),
                     qPrintable(u"%1 ← %2: %3 against %4"_s.arg(later).arg(earlier).arg(got).arg(want)));
        }
    // The baseline: random factors of these shapes, computed the same way, is a fraction
    // between 0 and 1 that shrinks as d grows with d_k fixed (rank d_k in d dimensions).
    QVERIFY(baseline > 0 && baseline < 1);
    QCOMPARE(baseline, compositionBaseline(d, dk));
    QVERIFY(compositionBaseline(4 * d, dk) < baseline);
}

void TestInduction::recordAgainstTrace()
{
    // A model of the repeat recipe trained 300 steps (its scores are whatever they are; the
    // point is that two computations of them agree).
    const QString name = u"repeat:16:3:8"_s;
    QString error;
    const Task task = makeLanguageModelTask(name, 16, std::nullopt, &error);
    QVERIFY2(!task.name.isEmpty(), qPrintable(error));
    TaskRecipe recipe = recipeFor(name);
    recipe.model.src_vocab = recipe.model.tgt_vocab = task.tgtVocab.size();
    recipe.train.seed = 3;
    Trainer trainer(recipe.model, recipe.train);
    Rng data(5);
    for (int i = 0; i < 300; ++i)
        trainer.step(task.nextBatch(data));
    Transformer<float>& model = trainer.model();
    const ModelConfig& c = model.config();
    const int L = c.decoder_layers, H = c.heads, dk = c.d_model / H;
    const InductionProbe probe = makeInductionProbe(c.tgt_vocab, 6, 99);
    InductionRecord r = measureInduction(model, probe);
    QCOMPARE(r.layers, L);
    QCOMPARE(r.heads, H);

    // The same numbers from the traced pass, one row at a time, by loops written here.
    std::vector<double> induction(std::size_t(L * H)), previous(std::size_t(L * H)),
        duplicate(std::size_t(L * H)), copying(std::size_t(L * H));
    long inductionQueries = 0, previousQueries = 0, copyQueries = 0;
    double laterLoss = 0, firstLoss = 0;
    long copyTokens = 0;
    std::vector<double> positionLoss;
    const ParamInfo* gen = model.params().find(c.storedName("generator.weight"));
    const ParamInfo* gamma = model.params().find("decoder.norm.weight");
    const float* w = model.params().values();
    for (const RepeatRow& row : probe.rows) {
        const ForwardTrace tr = traceForward(model, {}, row.symbols);
        const int T = int(tr.decoderInput.size());
        positionLoss.resize(std::size_t(T), 0.0);
        const TraceTensor* logp = tr.find("log_probs");
        const int V = logp->shape[1];
        for (int t = 0; t < T; ++t) {
            const int next = t + 1 < T ? row.symbols[std::size_t(t)] : int(kEos);
            positionLoss[std::size_t(t)] -= logp->data[std::size_t(t * V + next)] / double(probe.rows.size());
        }
        for (int j = 1; j < row.segment; ++j) {
            firstLoss -= logp->data[std::size_t((row.first + j) * V + row.symbols[std::size_t(row.first + j)])];
            laterLoss -= logp->data[std::size_t((row.second + j) * V + row.symbols[std::size_t(row.second + j)])];
            ++copyTokens;
        }
        const TraceTensor* last = tr.find("decoder." + std::to_string(L - 1) + ".out");
        for (int l = 0; l < L; ++l) {
            const TraceTensor* a = tr.find("decoder." + std::to_string(l) + ".self.weights");
            const TraceTensor* ctx = tr.find("decoder." + std::to_string(l) + ".self.context");
            const ParamInfo* o = model.params().find("decoder.layers." + std::to_string(l) + ".self_attn.o.weight");
            for (int h = 0; h < H; ++h) {
                const auto at = [&](int q, int k) { return a->data[std::size_t((h * T + q) * T + k)]; };
                const std::size_t i = std::size_t(l * H + h);
                for (int q = 1; q < T; ++q)
                    previous[i] += at(q, q - 1);
                for (int j = 0; j < row.segment; ++j) {
                    induction[i] += at(row.second + j + 1, row.first + j + 2);
                    duplicate[i] += at(row.second + j + 1, row.first + j + 1);
                }
                // Direct logit attribution: head h's part of W_O ctx, centred, through γ/σ.
                for (int j = 0; j + 1 < row.segment; ++j) {
                    const int q = row.second + j + 1;
                    std::vector<double> u(std::size_t(c.d_model), 0.0);
                    for (int e = 0; e < c.d_model; ++e)
                        for (int k = 0; k < dk; ++k)
                            u[std::size_t(e)] += double(w[o->offset + std::size_t(e * c.d_model + h * dk + k)])
                                                 * ctx->data[std::size_t(q * c.d_model + h * dk + k)];
                    double um = 0, ym = 0, yv = 0;
                    for (int e = 0; e < c.d_model; ++e) {
                        um += u[std::size_t(e)] / c.d_model;
                        ym += last->data[std::size_t(q * c.d_model + e)] / c.d_model;
                    }
                    for (int e = 0; e < c.d_model; ++e)
                        yv += std::pow(last->data[std::size_t(q * c.d_model + e)] - ym, 2) / c.d_model;
                    const double sigma = std::sqrt(yv + 1e-6);
                    const int token = row.symbols[std::size_t(row.first + j + 1)];
                    double dla = 0;
                    for (int e = 0; e < c.d_model; ++e) {
                        double column = 0;  // the mean over the vocabulary of the generator's column
                        for (int v = 0; v < V; ++v)
                            column += double(w[gen->offset + std::size_t(v * c.d_model + e)]) / V;
                        const double dir = double(w[gen->offset + std::size_t(token * c.d_model + e)]) - column;
                        dla += (u[std::size_t(e)] - um) * double(w[gamma->offset + std::size_t(e)]) / sigma * dir;
                    }
                    copying[i] += dla;
                }
            }
        }
        previousQueries += T - 1;
        inductionQueries += row.segment;
        copyQueries += row.segment - 1;
    }
    const auto close = [](double a, double b) { return std::abs(a - b) < 2e-5 * std::max(1.0, std::abs(b)); };
    for (std::size_t i = 0; i < std::size_t(L * H); ++i) {
        QVERIFY2(close(r.induction[i], induction[i] / double(inductionQueries)),
                 qPrintable(u"%1: %2 %3"_s.arg(i).arg(r.induction[i]).arg(induction[i] / double(inductionQueries))));
        QVERIFY(close(r.previous[i], previous[i] / double(previousQueries)));
        QVERIFY(close(r.duplicate[i], duplicate[i] / double(inductionQueries)));
        QVERIFY2(close(r.copying[i], copying[i] / double(copyQueries)),
                 qPrintable(u"%1: %2 %3"_s.arg(i).arg(r.copying[i]).arg(copying[i] / double(copyQueries))));
    }
    QVERIFY(close(r.firstCopyLoss, firstLoss / double(copyTokens)));
    QVERIFY(close(r.laterCopyLoss, laterLoss / double(copyTokens)));
    QCOMPARE(r.positionLoss.size(), positionLoss.size());
    for (std::size_t t = 0; t < positionLoss.size(); ++t)
        QVERIFY(close(r.positionLoss[t], positionLoss[t]));
    // §13.4 on 63 symbols: positions 6 and 61 (Olsson et al.'s 50th and 500th of 512).
    QVERIFY(close(r.inContextScore, positionLoss[61] - positionLoss[6]));
    // The record's top head is the one with the largest induction score.
    QCOMPARE(r.topInduction(), *std::max_element(r.induction.begin(), r.induction.end()));
}

void TestInduction::phaseChangeRule()
{
    const auto point = [](long step, double top, double later) {
        auto r = std::make_shared<InductionRecord>();
        r->step = step;
        r->layers = 1;
        r->heads = 2;
        r->induction = {0.01, top};
        r->firstCopyLoss = 4.0;
        r->laterCopyLoss = later;
        return std::shared_ptr<const InductionRecord>(r);
    };
    // The loss falls before the head is sharp, and the head is sharp before the loss is low:
    // the step is the first record with both.
    const std::vector<std::shared_ptr<const InductionRecord>> run{
        point(100, 0.05, 4.0), point(200, 0.10, 3.5), point(300, 0.35, 3.2), point(400, 0.5, 2.9),
        point(500, 0.6, 1.0)};
    QCOMPARE(phaseChangeStep(run), std::optional<long>(400));
    // A run whose later copies never fall a nat below the first (a one-layer model) has none.
    QCOMPARE(phaseChangeStep({point(100, 0.9, 3.5), point(200, 0.9, 3.2)}), std::nullopt);
    QCOMPARE(phaseChangeStep({}), std::nullopt);
}

// Two records, one measured with a head masked, through a checkpoint's history (core/SPEC.md
// §9.4, format 5) and back, every field the same bit for bit; and what a damaged history says.
void TestInduction::recordsKept()
{
    ModelConfig c;
    c.arch = Arch::DecoderOnly;
    c.encoder_layers = 0;
    c.decoder_layers = 2;
    c.d_model = 16;
    c.heads = 2;
    c.d_ff = 0;
    c.position = Position::Learned;
    c.max_len = kLmContext;
    c.src_vocab = c.tgt_vocab = 4 + 10;
    Transformer<float> m(c);
    Rng init(1);
    m.initXavier(init);
    m.setHeadGates(AttentionKind::DecoderSelf, 1, {1.0f, 0.0f});
    auto a = std::make_shared<InductionRecord>(measureInduction(m, makeInductionProbe(c.tgt_vocab)));
    a->step = 50;
    QCOMPARE(a->masked, std::vector<int>{3});  // decoder.self:1:1
    m.clearHeadGates();
    auto b = std::make_shared<InductionRecord>(measureInduction(m, makeInductionProbe(c.tgt_vocab)));
    b->step = 100;
    QVERIFY(b->masked.empty());
    // Masking the head changed what the probe measured.
    QVERIFY(a->laterCopyLoss != b->laterCopyLoss);

    TrainingHistory h;
    h.induction = {a, b};
    const QByteArray bytes = historyBytes(h);
    TrainingHistory back;
    QString error;
    QVERIFY2(parseHistory(bytes, c, kCheckpointVersion, &back, &error), qPrintable(error));
    QCOMPARE(back.induction.size(), std::size_t(2));
    auto same = [](const std::vector<double>& x, const std::vector<double>& y) {
        return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(double)) == 0;
    };
    for (std::size_t i = 0; i < 2; ++i) {
        const InductionRecord &x = *h.induction[i], &y = *back.induction[i];
        QCOMPARE(y.step, x.step);
        QCOMPARE(y.layers, x.layers);
        QCOMPARE(y.heads, x.heads);
        QVERIFY(same(y.induction, x.induction) && same(y.previous, x.previous)
                && same(y.duplicate, x.duplicate) && same(y.copying, x.copying)
                && same(y.composition, x.composition) && same(y.positionLoss, x.positionLoss));
        QVERIFY(same({y.compositionBaseline, y.firstCopyLoss, y.laterCopyLoss, y.inContextScore},
                     {x.compositionBaseline, x.firstCopyLoss, x.laterCopyLoss, x.inContextScore}));
        QCOMPARE(y.masked, x.masked);
    }

    // Format 4 had nothing after the last batch.
    TrainingHistory old;
    QVERIFY(!parseHistory(bytes, c, 4, &old, &error));
    QVERIFY2(error.contains(u"unexpected bytes"_s), qPrintable(error));
    // Empty loss, validation and attention lists and no batch (25 bytes), the count (8), then
    // record 0's step, layers and heads (16): its first induction score.
    QByteArray bad = bytes;
    const double notProbability = 1.5;
    std::memcpy(bad.data() + 25 + 8 + 16, &notProbability, 8);
    QVERIFY(!parseHistory(bad, c, kCheckpointVersion, &old, &error));
    QVERIFY2(error.contains(u"induction record 0"_s) && error.contains(u"1.5"_s), qPrintable(error));
    QVERIFY(!parseHistory(bytes.chopped(3), c, kCheckpointVersion, &old, &error));
    QVERIFY2(error.contains(u"induction record 1"_s), qPrintable(error));
    // Another model's shape.
    ModelConfig wider = c;
    wider.heads = 4;
    QVERIFY(!parseHistory(bytes, wider, kCheckpointVersion, &old, &error));
    QVERIFY2(error.contains(u"2 layers of 2 heads"_s), qPrintable(error));
    // Steps out of order.
    TrainingHistory swapped;
    swapped.induction = {b, a};
    QVERIFY(!parseHistory(historyBytes(swapped), c, kCheckpointVersion, &old, &error));
    QVERIFY2(error.contains(u"does not follow"_s), qPrintable(error));
}

AS_TEST_APPLESS_MAIN(TestInduction)
#include "test_induction.moc"
