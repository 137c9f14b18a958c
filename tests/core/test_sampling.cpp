// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Sampling (core/SPEC.md §5.6) and decoding a decoder-only model (§2.10):
// - the distribution after temperature, top-k and top-p against the formulas worked by hand;
// - seeded draws against that distribution: frequencies within a chi-squared bound (fixed
//   seeds, so the test cannot flake), never a token outside the kept set;
// - sampleDecode: temperature 0 is greedyDecode, a seed repeats, each step's first-token draws
//   over many seeds follow the distribution it reports; for a translator and a decoder-only model;
// - a decoder-only model's continuation: the cached path against the whole prefix re-run, and
//   its log-probabilities against the teacher-forced pass on prompt + output.
#include "skip.h"
#include "decode/decode.h"
#include "decode/sampling.h"
#include "train/batch.h"

#include <QTest>

#include <cmath>
#include <limits>
#include <map>

using namespace as;

class TestSampling : public QObject {
    Q_OBJECT
private slots:
    void distributionByHand();
    void badOptionsRefused();
    void drawsFollowTheDistribution_data();
    void drawsFollowTheDistribution();
    void decoderOnlyCachedEqualsFullPrefix_data();
    void decoderOnlyCachedEqualsFullPrefix();
    void sampledOutputs_data();
    void sampledOutputs();
};

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

std::vector<double> logOf(const std::vector<double>& p)
{
    std::vector<double> l;
    for (double x : p)
        l.push_back(x > 0 ? std::log(x) : -kInf);
    return l;
}

// The 99.9 % quantile of chi-squared with df degrees of freedom (Wilson–Hilferty).
double chiSquared999(int df)
{
    const double z = 3.0902, a = 2.0 / (9.0 * df);
    return df * std::pow(1.0 - a + z * std::sqrt(a), 3.0);
}

// Pearson's statistic of counts against n·p, cells with n·p < 5 pooled; -> (statistic, df).
std::pair<double, int> chiSquared(const std::vector<long>& counts, const std::vector<double>& p,
                                  long n)
{
    double stat = 0.0, pooledE = 0.0, pooledO = 0.0;
    int cells = 0;
    for (std::size_t i = 0; i < p.size(); ++i) {
        const double e = double(n) * p[i];
        if (p[i] <= 0.0)
            continue;
        if (e < 5.0) {
            pooledE += e;
            pooledO += double(counts[i]);
            continue;
        }
        stat += (double(counts[i]) - e) * (double(counts[i]) - e) / e;
        ++cells;
    }
    if (pooledE > 0.0) {
        stat += (pooledO - pooledE) * (pooledO - pooledE) / pooledE;
        ++cells;
    }
    return {stat, cells - 1};
}

ModelConfig smallConfig(Arch arch, NormPlacement norm)
{
    ModelConfig c;
    c.src_vocab = c.tgt_vocab = 17;
    c.d_model = 16;
    c.heads = 2;
    c.d_ff = 32;
    c.encoder_layers = arch == Arch::DecoderOnly ? 0 : 2;
    c.decoder_layers = 2;
    c.arch = arch;
    c.norm = norm;
    c.max_len = 24;
    c.dropout = 0.0;
    return c;
}

// Random weights with every bias and norm off its initial value, and a generator scaled up so
// that the next-token distributions are far from uniform.
template <typename T>
std::unique_ptr<Transformer<T>> randomModel(const ModelConfig& c, std::uint64_t seed)
{
    auto m = std::make_unique<Transformer<T>>(c);
    Rng rng(seed);
    m->initXavier(rng);
    for (const ParamInfo& p : m->params().table()) {
        T* v = m->params().values() + p.offset;
        if (p.shape.size() == 1)
            for (std::size_t i = 0; i < p.size; ++i)
                v[i] += T(0.2 * (2.0 * rng.uniform() - 1.0));
        if (p.name.starts_with("generator"))
            for (std::size_t i = 0; i < p.size; ++i)
                v[i] *= T(3);
    }
    return m;
}

}  // namespace

void TestSampling::distributionByHand()
{
    const std::vector<double> p{0.05, 0.5, 0.2, 0.15, 0.1};
    const std::vector<double> lp = logOf(p);
    auto near = [](const std::vector<double>& a, const std::vector<double>& b) {
        if (a.size() != b.size())
            return false;
        for (std::size_t i = 0; i < a.size(); ++i)
            if (std::abs(a[i] - b[i]) > 1e-12)
                return false;
        return true;
    };
    SamplingOptions o;
    QVERIFY(near(samplingDistribution(lp, o), p));  // T = 1, no cut: the model's own
    // T = 2: p_i^(1/2) / Σ p_j^(1/2).
    o.temperature = 2.0;
    double z = 0;
    for (double x : p)
        z += std::sqrt(x);
    std::vector<double> want;
    for (double x : p)
        want.push_back(std::sqrt(x) / z);
    QVERIFY(near(samplingDistribution(lp, o), want));
    // T = 0.5: p_i² / Σ p_j².
    o.temperature = 0.5;
    z = 0;
    for (double x : p)
        z += x * x;
    want.clear();
    for (double x : p)
        want.push_back(x * x / z);
    QVERIFY(near(samplingDistribution(lp, o), want));
    // Top-k 2: ids 1 and 2, renormalised.
    o = {};
    o.topK = 2;
    QVERIFY(near(samplingDistribution(lp, o), {0, 0.5 / 0.7, 0.2 / 0.7, 0, 0}));
    // Top-p 0.6: 0.5 < 0.6, then 0.7 reaches it: ids 1 and 2.
    o = {};
    o.topP = 0.6;
    QVERIFY(near(samplingDistribution(lp, o), {0, 0.5 / 0.7, 0.2 / 0.7, 0, 0}));
    // Top-p 0.5: the first token's mass reaches it alone.
    o.topP = 0.5;
    QVERIFY(near(samplingDistribution(lp, o), {0, 1, 0, 0, 0}));
    // Top-p 0.8 within top-k 3 (0.85 of mass): 0.5/0.85 < 0.8, (0.5+0.2)/0.85 = 0.82 reaches it.
    o.topK = 3;
    o.topP = 0.8;
    QVERIFY(near(samplingDistribution(lp, o), {0, 0.5 / 0.7, 0.2 / 0.7, 0, 0}));
    // Greedy: the first maximum, ties to the lower id.
    o = {};
    o.temperature = 0.0;
    QVERIFY(near(samplingDistribution(logOf({0.3, 0.3, 0.4, 0.0}), o), {0, 0, 1, 0}));
    QVERIFY(near(samplingDistribution(logOf({0.4, 0.2, 0.4, 0.0}), o), {1, 0, 0, 0}));
    // A forbidden token (-inf) stays at 0 at any temperature, and top-k counts only the others.
    o = {};
    o.temperature = 5.0;
    o.topK = 4;
    const std::vector<double> cut = samplingDistribution(logOf({0.0, 0.6, 0.4}), o);
    QCOMPARE(cut[0], 0.0);
    QVERIFY(std::abs(cut[1] + cut[2] - 1.0) < 1e-12);
    // Ties in the cut go to the lower id: top-k 1 of two equal tokens keeps the first.
    o = {};
    o.topK = 1;
    QVERIFY(near(samplingDistribution(logOf({0.2, 0.4, 0.4}), o), {0, 1, 0}));
}

void TestSampling::badOptionsRefused()
{
    for (auto [t, k, p] : {std::tuple{-0.5, 0, 1.0}, std::tuple{1.0, -1, 1.0},
                           std::tuple{1.0, 0, 0.0}, std::tuple{1.0, 0, 1.5},
                           std::tuple{std::nan(""), 0, 1.0}}) {
        SamplingOptions o;
        o.temperature = t;
        o.topK = k;
        o.topP = p;
        QVERIFY(!o.validate().isEmpty());
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, samplingDistribution({0.0, -1.0}, o));
    }
    Rng rng(1);
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, drawToken({0.0, 0.0}, rng));
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, samplingDistribution({-kInf, -kInf}, {}));
}

void TestSampling::drawsFollowTheDistribution_data()
{
    QTest::addColumn<double>("temperature");
    QTest::addColumn<int>("topK");
    QTest::addColumn<double>("topP");
    QTest::newRow("T 1") << 1.0 << 0 << 1.0;
    QTest::newRow("T 0.7, top-k 5") << 0.7 << 5 << 1.0;
    QTest::newRow("T 1.3, top-p 0.8") << 1.3 << 0 << 0.8;
    QTest::newRow("top-k 6, top-p 0.9") << 1.0 << 6 << 0.9;
}

void TestSampling::drawsFollowTheDistribution()
{
    QFETCH(double, temperature);
    QFETCH(int, topK);
    QFETCH(double, topP);
    // Twelve tokens of decreasing, uneven probability, one forbidden.
    const std::vector<double> model{0.0, 0.22, 0.17, 0.13, 0.11, 0.09, 0.08, 0.07, 0.05, 0.04, 0.025, 0.015};
    SamplingOptions o;
    o.temperature = temperature;
    o.topK = topK;
    o.topP = topP;
    const std::vector<double> cut = samplingDistribution(logOf(model), o);
    const long n = 40000;
    std::vector<long> counts(cut.size(), 0);
    Rng rng(20261129);
    for (long i = 0; i < n; ++i) {
        const int t = drawToken(cut, rng);
        QVERIFY2(cut[std::size_t(t)] > 0, qPrintable(QStringLiteral("token %1 is outside the set").arg(t)));
        ++counts[std::size_t(t)];
    }
    const auto [stat, df] = chiSquared(counts, cut, n);
    const int kept = int(std::count_if(cut.begin(), cut.end(), [](double x) { return x > 0; }));
    QVERIFY(df >= 1);
    qInfo("%d tokens kept, chi-squared %.2f on %d degrees of freedom (99.9 %% bound %.2f)",
          kept, stat, df, chiSquared999(df));
    QVERIFY2(stat < chiSquared999(df), qPrintable(QStringLiteral("chi-squared %1").arg(stat)));
    if (topK > 0)
        QVERIFY(kept <= topK);
}

void TestSampling::decoderOnlyCachedEqualsFullPrefix_data()
{
    QTest::addColumn<NormPlacement>("norm");
    QTest::newRow("pre-norm") << NormPlacement::Pre;
    QTest::newRow("post-norm") << NormPlacement::Post;
}

// Greedy and beam continuations of a prompt by the cached path equal the whole prefix re-run,
// and the continuation's log-probability is the teacher-forced pass's on <s> prompt output.
void TestSampling::decoderOnlyCachedEqualsFullPrefix()
{
    QFETCH(NormPlacement, norm);
    auto m = randomModel<double>(smallConfig(Arch::DecoderOnly, norm), 5);
    for (const std::vector<int>& prompt : {std::vector<int>{}, std::vector<int>{4, 9, 7},
                                           std::vector<int>{12, 5, 5, 6, 8, 16, 4}}) {
        DecodeOptions o;
        o.maxLen = 10;
        o.minLen = 3;  // random weights may well end at once
        o.cached = true;
        const DecodeResult cached = greedyDecode(*m, prompt, o);
        o.cached = false;
        const DecodeResult plain = greedyDecode(*m, prompt, o);
        const Hypothesis& h = cached.nbest[0];
        QCOMPARE(h.tokens, plain.nbest[0].tokens);
        QCOMPARE(h.finished, plain.nbest[0].finished);
        QVERIFY(std::abs(h.logprob - plain.nbest[0].logprob) < 1e-9);
        QVERIFY(!h.tokens.empty());
        QCOMPARE(cached.cross.steps, 0);  // nothing attends to a source
        // The oracle: one teacher-forced pass on <s> prompt output.
        std::vector<int> seq{kBos};
        seq.insert(seq.end(), prompt.begin(), prompt.end());
        seq.insert(seq.end(), h.tokens.begin(), h.tokens.end());
        if (h.finished)
            seq.push_back(kEos);
        const Batch b = makeLmBatch({seq});
        m->decode(b.tgtIn.data(), 1, b.T, Mat<double>(0, 16), nullptr, 0, Pass::eval());
        Mat<double> logp;
        m->allLogProbs(logp);
        double sum = 0;
        for (int t = int(prompt.size()); t < b.T; ++t)
            sum += logp(t, b.tgtOut[std::size_t(t)]);
        QVERIFY2(std::abs(sum - h.logprob) < 1e-9,
                 qPrintable(QStringLiteral("teacher-forced %1, decoded %2").arg(sum).arg(h.logprob)));
        // Beam search: both paths alike.
        o.beam = 3;
        o.nbest = 3;
        o.cached = true;
        const DecodeResult b1 = beamSearch(*m, prompt, o);
        o.cached = false;
        const DecodeResult b0 = beamSearch(*m, prompt, o);
        QCOMPARE(b1.nbest.size(), b0.nbest.size());
        for (std::size_t i = 0; i < b1.nbest.size(); ++i)
            QCOMPARE(b1.nbest[i].tokens, b0.nbest[i].tokens);
    }
    // The context is max_len positions: a prompt that fills it is refused, not overrun.
    DecodeOptions o;
    QVERIFY_THROWS_EXCEPTION(std::invalid_argument, greedyDecode(*m, std::vector<int>(23, 4), o));
    QCOMPARE(o.limitFor(m->config(), 20), 3);
}

void TestSampling::sampledOutputs_data()
{
    QTest::addColumn<Arch>("arch");
    QTest::newRow("encoder-decoder") << Arch::EncoderDecoder;
    QTest::newRow("decoder-only") << Arch::DecoderOnly;
}

void TestSampling::sampledOutputs()
{
    QFETCH(Arch, arch);
    auto m = randomModel<float>(smallConfig(arch, NormPlacement::Pre), 11);
    const std::vector<int> input{5, 8, 13, 6};  // a source, or a prompt
    DecodeOptions o;
    o.maxLen = 8;
    // Temperature 0 is greedy decoding.
    SamplingOptions s;
    s.temperature = 0.0;
    const DecodeResult greedy = greedyDecode(*m, input, o);
    const DecodeResult zero = sampleDecode(*m, input, o, s);
    QCOMPARE(zero.nbest[0].tokens, greedy.nbest[0].tokens);
    QCOMPARE(zero.nbest[0].finished, greedy.nbest[0].finished);
    // A seed repeats a sample; its steps report distributions that sum to 1 with the drawn
    // token inside, and the model's log-probability of what was drawn.
    s = {};
    s.temperature = 1.2;
    s.topK = 8;
    s.topP = 0.9;
    s.seed = 42;
    std::vector<SamplingStep> steps;
    const DecodeResult a = sampleDecode(*m, input, o, s, &steps);
    QCOMPARE(sampleDecode(*m, input, o, s).nbest[0].tokens, a.nbest[0].tokens);
    QCOMPARE(steps.size(), a.nbest[0].tokens.size() + (a.nbest[0].finished ? 1 : 0));
    double logprob = 0;
    for (const SamplingStep& st : steps) {
        double sum = 0, modelSum = 0;
        int kept = 0;
        for (std::size_t i = 0; i < st.cut.size(); ++i) {
            sum += st.cut[i];
            modelSum += st.model[i];
            kept += st.cut[i] > 0;
        }
        QVERIFY(std::abs(sum - 1) < 1e-9 && std::abs(modelSum - 1) < 1e-6);
        QVERIFY(kept >= 1 && kept <= 8);
        QVERIFY(st.cut[std::size_t(st.token)] > 0);
        QCOMPARE(st.cut[kPad], 0.0);
        QCOMPARE(st.cut[kBos], 0.0);
        logprob += std::log(st.model[std::size_t(st.token)]);
    }
    QVERIFY(std::abs(logprob - a.nbest[0].logprob) < 1e-4);
    // Different seeds draw different outputs (the distributions are far from one-hot).
    int differ = 0;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        s.seed = seed;
        differ += sampleDecode(*m, input, o, s).nbest[0].tokens != a.nbest[0].tokens;
    }
    QVERIFY(differ >= 10);
    // The first token over many seeds follows the first step's reported distribution.
    o.maxLen = 1;
    std::vector<long> counts(std::size_t(m->config().tgt_vocab), 0);
    const long n = 3000;
    for (long i = 0; i < n; ++i) {
        s.seed = std::uint64_t(1000 + i);
        std::vector<SamplingStep> first;
        sampleDecode(*m, input, o, s, &first);
        ++counts[std::size_t(first.at(0).token)];
    }
    std::vector<SamplingStep> ref;
    sampleDecode(*m, input, o, s, &ref);
    const auto [stat, df] = chiSquared(counts, ref.at(0).cut, n);
    qInfo("first token over %ld seeds: chi-squared %.2f on %d degrees of freedom (bound %.2f)",
          n, stat, df, chiSquared999(df));
    QVERIFY(df >= 2);
    QVERIFY2(stat < chiSquared999(df), qPrintable(QStringLiteral("chi-squared %1").arg(stat)));
}

AS_TEST_APPLESS_MAIN(TestSampling)
#include "test_sampling.moc"
