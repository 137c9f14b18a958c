// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The decoding record (core/eval/decoding_record.h, issue 25 §2) against independent
// computations: its free-running side against greedyDecode's output and cross-attention and
// against the incremental decoder fed the same tokens one step at a time (the record reads
// one teacher-forced pass, which equals stepping only because the decoder is causal: this is
// that claim, checked); its teacher-forced side against the per-position log-softmax of a
// plain forward pass over <s> + the reference; the logit lens's last layer against the
// prediction; the divergence on references made to agree or part at a known step. Trained
// and random toy models, pre- and post-norm.
#include "skip.h"
#include "decode/decode.h"
#include "decode/incremental.h"
#include "eval/decoding_record.h"
#include "decode/sampling.h"
#include "text/tasks.h"
#include "train/batch.h"
#include "train/trainer.h"
#include "toy_model.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <memory>

using namespace as;

namespace {

constexpr int kTopK = 5;

// The k likeliest ids of a row of log-probabilities, <pad> and <s> left out, most likely first.
template <typename Row>
std::vector<int> likeliest(const Row& row, int k)
{
    std::vector<int> ids;
    for (int i = 0; i < int(row.size()); ++i)
        if (i != kPad && i != kBos)
            ids.push_back(i);
    std::stable_sort(ids.begin(), ids.end(), [&](int a, int b) { return row(a) > row(b); });
    ids.resize(std::size_t(std::min<int>(k, int(ids.size()))));
    return ids;
}

}  // namespace

class TestDecodingRecord : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void freeRunIsGreedyDecoding_data();
    void freeRunIsGreedyDecoding();
    void stepsEqualTheIncrementalDecoder_data();
    void stepsEqualTheIncrementalDecoder();
    void teacherForcedIsAFullForwardPass_data();
    void teacherForcedIsAFullForwardPass();
    void lensLastLayerIsThePrediction_data();
    void lensLastLayerIsThePrediction();
    void selfAttentionIsCausal();
    void divergence();
    void badArguments();
    void sampledDecoderOnlyRun_data();
    void sampledDecoderOnlyRun();

private:
    void addModels();
    Transformer<float>& model(const QString& name);
    std::vector<std::vector<int>> sources() const;
    DecodingRecord record(Transformer<float>& m, const std::vector<int>& src,
                          const std::vector<int>& ref = {}, bool hasRef = false)
    {
        return makeDecodingRecord(m, task_.srcVocab, task_.tgtVocab, src, ref, hasRef, kTopK);
    }

    Task task_;
    std::unique_ptr<Trainer> trainedPre_, trainedPost_;
    std::unique_ptr<Transformer<float>> randomPre_, randomPost_;
};

void TestDecodingRecord::initTestCase()
{
    task_ = makeToyTask();
    for (auto [trainer, norm] : {std::pair{&trainedPre_, NormPlacement::Pre},
                                 std::pair{&trainedPost_, NormPlacement::Post}}) {
        ModelConfig c = test::toyModelConfig(task_);
        c.norm = norm;
        *trainer = std::make_unique<Trainer>(c, TrainOptions{1.0, 50, 3});
        Rng data(3);
        for (int s = 0; s < 200; ++s)
            (*trainer)->step(task_.nextBatch(data));
    }
    for (auto [m, norm] : {std::pair{&randomPre_, NormPlacement::Pre},
                           std::pair{&randomPost_, NormPlacement::Post}}) {
        ModelConfig c = test::toyModelConfig(task_);
        c.norm = norm;
        *m = std::make_unique<Transformer<float>>(c);
        Rng init(norm == NormPlacement::Pre ? 31 : 32);
        (*m)->initXavier(init);
    }
}

void TestDecodingRecord::addModels()
{
    QTest::addColumn<QString>("name");
    for (const char* n : {"trained pre", "trained post", "random pre", "random post"})
        QTest::newRow(n) << QString::fromLatin1(n);
}

Transformer<float>& TestDecodingRecord::model(const QString& name)
{
    if (name == "trained pre")
        return trainedPre_->model();
    if (name == "trained post")
        return trainedPost_->model();
    return name == "random pre" ? *randomPre_ : *randomPost_;
}

std::vector<std::vector<int>> TestDecodingRecord::sources() const
{
    std::vector<std::vector<int>> out;
    for (const TokenPair& ex : task_.examples)
        out.push_back(task_.srcVocab.encode(ex.src));
    out.push_back({Vocab::kUnk, 5, 6});
    return out;
}

void TestDecodingRecord::freeRunIsGreedyDecoding_data() { addModels(); }

void TestDecodingRecord::freeRunIsGreedyDecoding()
{
    QFETCH(QString, name);
    Transformer<float>& m = model(name);
    for (const std::vector<int>& src : sources()) {
        const DecodeResult g = greedyDecode(m, src);
        const Hypothesis& best = g.nbest.front();
        const DecodingRecord r = record(m, src);
        QVERIFY(!r.hasReference);
        QCOMPARE(r.divergence, -1);
        QCOMPARE(r.layers, m.config().decoder_layers);
        QCOMPARE(r.heads, m.config().heads);
        QCOMPARE(r.source, task_.srcVocab.decode(src));
        QCOMPARE(r.free.finished, best.finished);
        // Steps: one per emitted token, and </s> when it finished.
        const int steps = int(best.tokens.size()) + (best.finished ? 1 : 0);
        QCOMPARE(int(r.free.steps.size()), steps);
        QCOMPARE(int(r.free.input.size()), steps);
        QCOMPARE(r.free.input.front(), QStringLiteral("<s>"));
        for (int t = 0; t < steps; ++t) {
            const DecodingStep& s = r.free.steps[std::size_t(t)];
            const int want = t < int(best.tokens.size()) ? best.tokens[std::size_t(t)] : kEos;
            QCOMPARE(s.fed.id, want);
            QCOMPARE(s.predicted.id, want);  // free-running feeds its own choice back
            QCOMPARE(s.top.front().id, want);
            QCOMPARE(s.fed.token, task_.tgtVocab.token(want));
            if (t + 1 < steps)
                QCOMPARE(r.free.input[t + 1], task_.tgtVocab.token(want));
            // The cross-attention greedy decoding recorded at that step.
            QCOMPARE(g.cross.steps, steps);
            for (int l = 0; l < r.layers; ++l)
                for (int h = 0; h < r.heads; ++h)
                    for (int j = 0; j < r.srcLen(); ++j)
                        QVERIFY2(std::abs(r.crossAt(s, l, h, j) - g.cross.at(l, h, t, j)) < 1e-5f,
                                 qPrintable(QStringLiteral("step %1 layer %2 head %3").arg(t).arg(l).arg(h)));
        }
    }
}

void TestDecodingRecord::stepsEqualTheIncrementalDecoder_data() { addModels(); }

void TestDecodingRecord::stepsEqualTheIncrementalDecoder()
{
    QFETCH(QString, name);
    Transformer<float>& m = model(name);
    for (const std::vector<int>& src : sources()) {
        const DecodingRecord r = record(m, src);
        const int steps = int(r.free.steps.size());
        IncrementalDecoder<float> inc(m);
        inc.start(src, steps + 1);
        Mat<float> logp;
        int token = kBos;
        for (int t = 0; t < steps; ++t) {
            inc.step(&token, logp);
            const DecodingStep& s = r.free.steps[std::size_t(t)];
            const RowVec<float> row = logp.row(0);
            const std::vector<int> want = likeliest(row, kTopK);
            QCOMPARE(int(s.top.size()), int(want.size()));
            for (std::size_t i = 0; i < want.size(); ++i) {
                const double p = std::exp(double(row(want[i])));
                QVERIFY2(std::abs(s.top[i].probability - p) < 1e-5,
                         qPrintable(QStringLiteral("step %1 rank %2: %3 vs %4")
                                        .arg(t).arg(i).arg(s.top[i].probability).arg(p)));
                // Ties within rounding may order differently; the probabilities may not.
                if (i == 0 || std::abs(s.top[i].probability - s.top[i - 1].probability) > 1e-5)
                    QCOMPARE(s.top[i].id, want[i]);
            }
            QCOMPARE(s.predicted.id, want.front());
            for (int l = 0; l < r.layers; ++l) {
                const Mat<float>& cross = inc.crossProbs(l);  // [heads, S]
                for (int h = 0; h < r.heads; ++h)
                    for (int j = 0; j < r.srcLen(); ++j)
                        QVERIFY(std::abs(r.crossAt(s, l, h, j) - cross(h, j)) < 1e-5f);
            }
            token = s.fed.id;
        }
    }
}

void TestDecodingRecord::teacherForcedIsAFullForwardPass_data() { addModels(); }

void TestDecodingRecord::teacherForcedIsAFullForwardPass()
{
    QFETCH(QString, name);
    Transformer<float>& m = model(name);
    for (const TokenPair& ex : task_.examples) {
        const std::vector<int> src = task_.srcVocab.encode(ex.src);
        const std::vector<int> ref = task_.tgtVocab.encode(ex.tgt);
        const DecodingRecord r = record(m, src, ref, true);
        QVERIFY(r.hasReference);
        QCOMPARE(r.reference, ex.tgt);
        QVERIFY(r.forced.finished);
        QCOMPARE(int(r.forced.steps.size()), int(ref.size()) + 1);
        QCOMPARE(r.forced.input, QStringList{QStringLiteral("<s>")} + ex.tgt);
        // The plain forward pass over <s> + reference, log-softmax at every position.
        std::vector<int> tgtIn{kBos};
        tgtIn.insert(tgtIn.end(), ref.begin(), ref.end());
        m.encode(src.data(), 1, int(src.size()), Pass::eval());
        m.decode(tgtIn.data(), 1, int(tgtIn.size()), m.memory(), m.sourceValid().data(),
                 int(src.size()), Pass::eval());
        Mat<float> logp;
        m.allLogProbs(logp);
        QCOMPARE(int(logp.rows()), int(tgtIn.size()));
        for (int t = 0; t < int(tgtIn.size()); ++t) {
            const DecodingStep& s = r.forced.steps[std::size_t(t)];
            const RowVec<float> row = logp.row(t);
            const int fed = t < int(ref.size()) ? ref[std::size_t(t)] : kEos;
            QCOMPARE(s.fed.id, fed);
            QVERIFY(std::abs(s.fed.probability - std::exp(double(row(fed)))) < 1e-5);
            const std::vector<int> want = likeliest(row, kTopK);
            QCOMPARE(s.predicted.id, want.front());
            for (std::size_t i = 0; i < want.size(); ++i)
                QVERIFY(std::abs(s.top[i].probability - std::exp(double(row(want[i])))) < 1e-5);
        }
    }
}

void TestDecodingRecord::lensLastLayerIsThePrediction_data() { addModels(); }

void TestDecodingRecord::lensLastLayerIsThePrediction()
{
    QFETCH(QString, name);
    Transformer<float>& m = model(name);
    const TokenPair& ex = task_.examples.front();
    const DecodingRecord r = record(m, task_.srcVocab.encode(ex.src), task_.tgtVocab.encode(ex.tgt), true);
    for (const DecodingRun* run : {&r.free, &r.forced})
        for (const DecodingStep& s : run->steps) {
            QCOMPARE(int(s.lens.size()), r.layers);
            QCOMPARE(s.lens.back().id, s.predicted.id);
            QVERIFY(std::abs(s.lens.back().probability - s.predicted.probability) < 1e-6);
            for (const TokenProbability& p : s.lens)
                QVERIFY(p.probability > 0 && p.probability <= 1);
        }
}

void TestDecodingRecord::selfAttentionIsCausal()
{
    Transformer<float>& m = *randomPre_;
    const TokenPair& ex = task_.examples.front();
    const DecodingRecord r = record(m, task_.srcVocab.encode(ex.src), task_.tgtVocab.encode(ex.tgt), true);
    for (const DecodingRun* run : {&r.free, &r.forced}) {
        const int T = int(run->input.size());
        QCOMPARE(int(run->self.size()), r.layers * r.heads * T * T);
        for (int l = 0; l < r.layers; ++l)
            for (int h = 0; h < r.heads; ++h)
                for (int q = 0; q < T; ++q) {
                    double sum = 0;
                    for (int k = 0; k < T; ++k) {
                        const float w = r.selfAt(*run, l, h, q, k);
                        if (k > q)
                            QCOMPARE(w, 0.0f);  // masked: a later token
                        sum += w;
                    }
                    QVERIFY(std::abs(sum - 1.0) < 1e-5);
                }
    }
}

void TestDecodingRecord::divergence()
{
    Transformer<float>& m = trainedPre_->model();
    const std::vector<int> src = task_.srcVocab.encode(task_.examples.front().src);
    const Hypothesis best = greedyDecode(m, src).nbest.front();
    QVERIFY(best.finished && best.tokens.size() >= 3);
    // The reference the model produces: the two runs never part.
    QCOMPARE(record(m, src, best.tokens, true).divergence, -1);
    // A reference that differs at step 2: they part there.
    std::vector<int> other = best.tokens;
    other[2] = other[2] == 5 ? 6 : 5;
    const DecodingRecord r = record(m, src, other, true);
    QCOMPARE(r.divergence, 2);
    QCOMPARE(r.forced.steps[2].fed.id, other[2]);
    QCOMPARE(r.free.steps[2].fed.id, best.tokens[2]);
    // Longer than the output: the free run's </s> against the reference's next token.
    std::vector<int> longer = best.tokens;
    longer.push_back(5);
    QCOMPARE(record(m, src, longer, true).divergence, int(best.tokens.size()));
    // An empty reference: </s> at once.
    const DecodingRecord empty = record(m, src, {}, true);
    QCOMPARE(int(empty.forced.steps.size()), 1);
    QCOMPARE(empty.forced.steps[0].fed.id, int(kEos));
    QCOMPARE(empty.divergence, 0);
}

void TestDecodingRecord::badArguments()
{
    Transformer<float>& m = *randomPre_;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, record(m, {}));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                             makeDecodingRecord(m, task_.srcVocab, task_.tgtVocab, {5}, {}, false, 0));
}

AS_TEST_GUILESS_MAIN(TestDecodingRecord)
// A decoder-only model (core/SPEC.md §2.10) reads the prompt as the start of its input: the
// record's run is <s> prompt output, its steps start at the prompt's end, and each equals the
// incremental decoder fed the same tokens one at a time. Sampled (core/SPEC.md §5.6), for both
// architectures: the output is sampleDecode's with the same seed, and each step's bars after
// the cut are the sampling distribution of that step's incremental log-probabilities, computed
// again here (samplingDistribution of the incremental decoder's row).
void TestDecodingRecord::sampledDecoderOnlyRun_data()
{
    QTest::addColumn<bool>("decoderOnly");
    QTest::addColumn<bool>("sampled");
    QTest::newRow("decoder-only, greedy") << true << false;
    QTest::newRow("decoder-only, sampled") << true << true;
    QTest::newRow("encoder-decoder, sampled") << false << true;
}

void TestDecodingRecord::sampledDecoderOnlyRun()
{
    QFETCH(bool, decoderOnly);
    QFETCH(bool, sampled);
    ModelConfig c = test::toyModelConfig(task_);
    if (decoderOnly) {
        c.arch = Arch::DecoderOnly;
        c.encoder_layers = 0;
        c.src_vocab = c.tgt_vocab;
        c.tie = Tie::None;
    }
    c.dropout = 0;
    Transformer<float> m(c);
    Rng rng(21);
    m.initXavier(rng);
    SamplingOptions so;
    so.temperature = 1.4;
    so.topK = 6;
    so.topP = 0.95;
    const std::vector<std::vector<int>> prompts =
        decoderOnly ? std::vector<std::vector<int>>{{5, 6}, {}, {7}} : sources();
    for (std::uint64_t seed : {1u, 2u, 3u}) {
        so.seed = seed;
        const std::optional<SamplingOptions> o = sampled ? std::optional(so) : std::nullopt;
        for (const std::vector<int>& src : prompts) {
            const DecodingRecord r = makeDecodingRecord(m, task_.tgtVocab, task_.tgtVocab, src, {}, false, kTopK, o);
            QCOMPARE(r.generated, decoderOnly);
            QCOMPARE(r.sampling.has_value(), sampled);
            const int P = decoderOnly ? int(src.size()) : 0;
            QCOMPARE(r.free.promptLength, P);
            const DecodeResult d = sampled ? sampleDecode(m, src, DecodeOptions{}, so) : greedyDecode(m, src);
            const Hypothesis& h = d.nbest.front();
            std::vector<int> fed = h.tokens;
            if (h.finished)
                fed.push_back(kEos);
            QCOMPARE(int(r.free.steps.size()), int(fed.size()));
            QCOMPARE(int(r.free.input.size()), P + int(fed.size()));
            for (int i = 0; i < P; ++i)
                QCOMPARE(r.free.input[1 + i], task_.tgtVocab.token(src[std::size_t(i)]));

            IncrementalDecoder<float> inc(m);
            inc.start(decoderOnly ? std::vector<int>{} : src, P + int(fed.size()) + 1);
            Mat<float> logp;
            int token = kBos;
            for (int i = 0; i < P; ++i) {  // the prompt, one position at a time
                inc.step(&token, logp);
                token = src[std::size_t(i)];
            }
            for (int t = 0; t < int(fed.size()); ++t) {
                inc.step(&token, logp);
                const DecodingStep& s = r.free.steps[std::size_t(t)];
                QCOMPARE(s.fed.id, fed[std::size_t(t)]);
                const RowVec<float> row = logp.row(0);
                QVERIFY(std::abs(s.fed.probability - std::exp(double(row(s.fed.id)))) < 1e-5);
                QVERIFY(s.cross.empty() == decoderOnly);
                if (!sampled) {
                    QVERIFY(s.topCut.empty());
                    QCOMPARE(s.fed.id, s.predicted.id);
                } else {
                    std::vector<double> lp(std::size_t(row.size()));
                    for (int v = 0; v < int(row.size()); ++v)
                        lp[std::size_t(v)] = (v == kPad || v == kBos) ? -INFINITY : double(row(v));
                    const std::vector<double> q = samplingDistribution(lp, so);
                    QCOMPARE(s.topCut.size(), s.top.size());
                    for (std::size_t i = 0; i < s.top.size(); ++i)
                        QVERIFY2(std::abs(s.topCut[i] - q[std::size_t(s.top[i].id)]) < 1e-5,
                                 qPrintable(QStringLiteral("step %1 rank %2: %3 vs %4")
                                                .arg(t).arg(i).arg(s.topCut[i]).arg(q[std::size_t(s.top[i].id)])));
                    QVERIFY(std::abs(s.fedCut - q[std::size_t(s.fed.id)]) < 1e-5);
                    QVERIFY(s.fedCut > 0);  // a token outside the cut is never drawn
                }
                // The step's self-attention row (position P + t) is causal.
                for (int l = 0; l < r.layers; ++l)
                    for (int k = P + t + 1; k < int(r.free.input.size()); ++k)
                        QCOMPARE(r.selfAt(r.free, l, 0, P + t, k), 0.0f);
                token = s.fed.id;
            }
        }
        if (!sampled)
            break;  // greedy: the seed changes nothing
    }
}

#include "test_decoding_record.moc"
