// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Incremental decoding (cached self-attention keys and values, cross-attention keys and values
// of the memory projected once) against its oracle, the decoder re-run on the whole prefix:
// the same log-probabilities at every step, the same greedy and beam outputs, the same
// cross-attention. On trained toy models and on random weights, pre- and post-norm.
#include "skip.h"
#include "decode/decode.h"
#include "decode/incremental.h"
#include "text/tasks.h"
#include "train/trainer.h"
#include "toy_model.h"

#include <QTest>

#include <cmath>
#include <memory>

using namespace as;

class TestDecodeCached : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void stepLogProbsMatchFullPrefix_data();
    void stepLogProbsMatchFullPrefix();
    void reorderedHypothesesMatchFullPrefix_data();
    void reorderedHypothesesMatchFullPrefix();
    void doublePrecisionMatchesClosely();
    void greedyAndBeamOutputsIdentical_data();
    void greedyAndBeamOutputsIdentical();
    void exactLengthWhenEosForbidden();
    void capacityIsEnforced();

private:
    Transformer<float>& model(const QString& name);
    std::vector<std::vector<int>> sources(int vocab, int count, std::uint64_t seed) const;

    Task task_;
    std::unique_ptr<Trainer> trainedPre_, trainedPost_;
    std::unique_ptr<Transformer<float>> randomPre_, randomPost_;
};

namespace {

ModelConfig toyConfig(const Task& task, NormPlacement norm)
{
    ModelConfig c = test::toyModelConfig(task);
    c.norm = norm;
    return c;
}

// The plain path's next-token log-probabilities of each prefix -> [n, V]
template <typename T>
Mat<T> fullPrefixLogProbs(Transformer<T>& m, const std::vector<int>& src,
                          const std::vector<std::vector<int>>& prefixes)
{
    const std::vector<int> s = src.empty() ? std::vector<int>{kPad} : src;
    const int n = int(prefixes.size()), len = int(prefixes[0].size());
    m.encode(s.data(), 1, int(s.size()), Pass::eval());
    const Mat<T> mem1 = m.memory();
    const std::vector<std::uint8_t> valid1 = m.sourceValid();
    const int S = int(s.size());
    Mat<T> mem(Eigen::Index(n) * S, mem1.cols());
    std::vector<std::uint8_t> valid;
    std::vector<int> tokens;
    for (int i = 0; i < n; ++i) {
        mem.middleRows(Eigen::Index(i) * S, S) = mem1;
        valid.insert(valid.end(), valid1.begin(), valid1.end());
        tokens.insert(tokens.end(), prefixes[std::size_t(i)].begin(),
                      prefixes[std::size_t(i)].end());
    }
    m.decode(tokens.data(), n, len, mem, valid.data(), S, Pass::eval());
    Mat<T> lp;
    m.nextTokenLogProbs(lp);
    return lp;
}

}  // namespace

void TestDecodeCached::initTestCase()
{
    task_ = makeToyTask();
    for (auto [trainer, norm] : {std::pair{&trainedPre_, NormPlacement::Pre},
                                 std::pair{&trainedPost_, NormPlacement::Post}}) {
        *trainer = std::make_unique<Trainer>(toyConfig(task_, norm), TrainOptions{1.0, 50, 3});
        Rng data(3);
        for (int s = 0; s < 200; ++s)
            (*trainer)->step(task_.nextBatch(data));
    }
    for (auto [m, norm] : {std::pair{&randomPre_, NormPlacement::Pre},
                           std::pair{&randomPost_, NormPlacement::Post}}) {
        *m = std::make_unique<Transformer<float>>(toyConfig(task_, norm));
        Rng init(norm == NormPlacement::Pre ? 21 : 22);
        (*m)->initXavier(init);
    }
}

Transformer<float>& TestDecodeCached::model(const QString& name)
{
    if (name == "trained pre")
        return trainedPre_->model();
    if (name == "trained post")
        return trainedPost_->model();
    return name == "random pre" ? *randomPre_ : *randomPost_;
}

std::vector<std::vector<int>> TestDecodeCached::sources(int vocab, int count,
                                                        std::uint64_t seed) const
{
    std::vector<std::vector<int>> out;
    for (const TokenPair& ex : task_.examples)
        out.push_back(task_.srcVocab.encode(ex.src));
    out.push_back({});  // one padded position: a fully masked cross-attention row
    Rng rng(seed);
    for (int i = 0; i < count; ++i) {
        std::vector<int> s;
        for (int j = 0, n = 1 + int(rng.below(9)); j < n; ++j)
            s.push_back(3 + int(rng.below(std::uint64_t(vocab - 3))));
        out.push_back(s);
    }
    return out;
}

// Log-probabilities reach -20 and below for unlikely tokens, so they are compared relative to
// their size. The two float paths use different kernels (a matrix-vector product per hypothesis
// against OpenBLAS's GEMM over the whole prefix), and how far float rounding carries depends on
// the model: 0.5-1.5e-6 on most, but up to 6e-5 on a trained post-norm model at positions longer
// than it was trained on, where the plain path is the less exact of the two. So each float path
// is measured against the exact result (the same weights in double precision, plain path), and
// the cached one must be within 2e-5 of it or no further than twice the plain path is: rounding
// stays well inside that, a wrong mask or cache entry gives 1e-2 and more.
// doublePrecisionMatchesClosely holds the two paths to 1e-12.
static double relativeDiff(const Mat<float>& cached, const Mat<float>& full)
{
    return double(((cached - full).array().abs() / full.array().abs().max(1.0f)).maxCoeff());
}

static std::unique_ptr<Transformer<double>> exactCopy(const Transformer<float>& m)
{
    auto d = std::make_unique<Transformer<double>>(m.config());
    d->params().valueVector() = m.params().valueVector().cast<double>();
    return d;
}

// Errors against the exact result, of the cached and of the plain path.
struct Errors {
    double cached = 0, full = 0;
    void add(const Mat<float>& c, const Mat<float>& f, const Mat<double>& exact)
    {
        const Mat<float> e = exact.cast<float>();
        cached = std::max(cached, relativeDiff(c, e));
        full = std::max(full, relativeDiff(f, e));
    }
    bool ok() const { return cached <= std::max(2e-5, 2 * full); }
    QString text() const
    {
        return QString("cached path %1 from exact, plain path %2").arg(cached).arg(full);
    }
};

static void addModelRows()
{
    QTest::addColumn<QString>("name");
    for (const char* n : {"trained pre", "trained post", "random pre", "random post"})
        QTest::newRow(n) << QString(n);
}

void TestDecodeCached::stepLogProbsMatchFullPrefix_data()
{
    addModelRows();
}

// One hypothesis fed a fixed sequence of tokens (the model's greedy choice at each step, so
// that the trained models follow their likely path): every step's log-probabilities agree.
void TestDecodeCached::stepLogProbsMatchFullPrefix()
{
    QFETCH(QString, name);
    Transformer<float>& m = model(name);
    const auto exact = exactCopy(m);
    Errors err;
    double worstCross = 0;
    for (const std::vector<int>& src : sources(m.config().src_vocab, 8, 5)) {
        IncrementalDecoder<float> inc(m);
        inc.start(src, 12);
        std::vector<int> prefix{kBos};
        Mat<float> cached;
        for (int t = 0; t < 12; ++t) {
            inc.step(&prefix.back(), cached);
            const Mat<float> full = fullPrefixLogProbs(m, src, {prefix});
            QCOMPARE(cached.rows(), 1);
            QCOMPARE(cached.cols(), full.cols());
            // Cross-attention of this step: the last query row of each head of the plain path.
            for (int l = 0; l < m.layers(AttentionKind::Cross); ++l) {
                const Mat<float>& p = m.attention(AttentionKind::Cross, l).probs;  // [heads*T, S]
                for (int h = 0; h < m.config().heads; ++h)
                    worstCross = std::max(worstCross, double((inc.crossProbs(l).row(h)
                                                              - p.row(Eigen::Index(h) * (t + 1) + t))
                                                                 .cwiseAbs()
                                                                 .maxCoeff()));
            }
            err.add(cached, full, fullPrefixLogProbs(*exact, src, {prefix}));
            Eigen::Index next = 0;
            full.row(0).segment(3, full.cols() - 3).maxCoeff(&next);
            prefix.push_back(int(next) + 3);  // a real token, never a special
        }
    }
    qInfo("%s; cross-attention %.3g apart", qPrintable(err.text()), worstCross);
    QVERIFY2(err.ok(), qPrintable(err.text()));
    // Probabilities, at most 1: a wrong row or mask is off by 0.01 and more.
    QVERIFY2(worstCross <= 2e-5, qPrintable(QString("cross-attention %1 apart").arg(worstCross)));
}

void TestDecodeCached::reorderedHypothesesMatchFullPrefix_data()
{
    addModelRows();
}

// Several hypotheses whose caches are reordered between steps as beam search does (a parent
// dropped, one kept twice): each row still equals the plain path on its own prefix.
void TestDecodeCached::reorderedHypothesesMatchFullPrefix()
{
    QFETCH(QString, name);
    Transformer<float>& m = model(name);
    const int V = m.config().tgt_vocab;
    Rng rng(17);
    const auto exact = exactCopy(m);
    Errors err;
    for (const std::vector<int>& src : sources(m.config().src_vocab, 4, 6)) {
        IncrementalDecoder<float> inc(m);
        inc.start(src, 10);
        std::vector<std::vector<int>> prefixes{{kBos}};
        Mat<float> cached;
        for (int t = 0; t < 9; ++t) {
            std::vector<int> last;
            for (const auto& p : prefixes)
                last.push_back(p.back());
            inc.step(last.data(), cached);
            const Mat<float> full = fullPrefixLogProbs(m, src, prefixes);
            err.add(cached, full, fullPrefixLogProbs(*exact, src, prefixes));
            // Next: up to 4 hypotheses drawn from the current ones, with repeats.
            const int n = int(prefixes.size());
            std::vector<int> parents;
            std::vector<std::vector<int>> next;
            for (int i = 0, k = 1 + int(rng.below(4)); i < k; ++i) {
                const int parent = int(rng.below(std::uint64_t(n)));
                parents.push_back(parent);
                next.push_back(prefixes[std::size_t(parent)]);
                next.back().push_back(3 + int(rng.below(std::uint64_t(V - 3))));
            }
            inc.reorder(parents);
            prefixes = next;
        }
    }
    qInfo("%s", qPrintable(err.text()));
    QVERIFY2(err.ok(), qPrintable(err.text()));
}

// In double precision the two paths differ only by rounding: a formula error cannot hide
// below a float tolerance.
void TestDecodeCached::doublePrecisionMatchesClosely()
{
    for (NormPlacement norm : {NormPlacement::Pre, NormPlacement::Post}) {
        Transformer<double> m(toyConfig(task_, norm));
        Rng init(31);
        m.initXavier(init);
        double worst = 0;
        for (const std::vector<int>& src : sources(m.config().src_vocab, 3, 7)) {
            IncrementalDecoder<double> inc(m);
            inc.start(src, 8);
            std::vector<int> prefix{kBos};
            Mat<double> cached;
            for (int t = 0; t < 8; ++t) {
                inc.step(&prefix.back(), cached);
                const Mat<double> full = fullPrefixLogProbs(m, src, {prefix});
                worst = std::max(worst, (cached - full).cwiseAbs().maxCoeff());
                prefix.push_back(4 + t);
            }
        }
        QVERIFY2(worst <= 1e-12, qPrintable(QString("worst difference %1").arg(worst)));
    }
}

void TestDecodeCached::greedyAndBeamOutputsIdentical_data()
{
    addModelRows();
}

void TestDecodeCached::greedyAndBeamOutputsIdentical()
{
    QFETCH(QString, name);
    Transformer<float>& m = model(name);
    for (const std::vector<int>& src : sources(m.config().src_vocab, 10, 8)) {
        DecodeOptions plain;
        plain.cached = false;
        DecodeOptions cached;
        const DecodeResult g0 = greedyDecode(m, src, plain);
        const DecodeResult g1 = greedyDecode(m, src, cached);
        QCOMPARE(g1.nbest[0].tokens, g0.nbest[0].tokens);
        QCOMPARE(g1.nbest[0].finished, g0.nbest[0].finished);
        QVERIFY(std::abs(g1.nbest[0].logprob - g0.nbest[0].logprob) < 1e-4);
        // The cached path records the cross-attention as it goes; the plain one re-runs the
        // output teacher-forced. Both are what the window shows.
        QCOMPARE(g1.cross.steps, g0.cross.steps);
        QCOMPARE(g1.cross.weights.size(), g0.cross.weights.size());
        for (std::size_t i = 0; i < g0.cross.weights.size(); ++i)
            QVERIFY(std::abs(g1.cross.weights[i] - g0.cross.weights[i]) < 1e-5f);

        for (int k : {2, 4, 5}) {
            plain.beam = cached.beam = k;
            plain.nbest = cached.nbest = k;
            const DecodeResult b0 = beamSearch(m, src, plain);
            const DecodeResult b1 = beamSearch(m, src, cached);
            QCOMPARE(b1.nbest.size(), b0.nbest.size());
            for (std::size_t i = 0; i < b0.nbest.size(); ++i) {
                QCOMPARE(b1.nbest[i].tokens, b0.nbest[i].tokens);
                QCOMPARE(b1.nbest[i].finished, b0.nbest[i].finished);
                QVERIFY(std::abs(b1.nbest[i].logprob - b0.nbest[i].logprob) < 1e-4);
            }
            QCOMPARE(b1.cross.weights.size(), b0.cross.weights.size());
        }
    }
}

// minLen = maxLen: exactly that many tokens, by both paths (bench --decode relies on it).
void TestDecodeCached::exactLengthWhenEosForbidden()
{
    Transformer<float>& m = trainedPre_->model();  // it would stop after a few tokens
    const std::vector<int> src = task_.srcVocab.encode(task_.examples[0].src);
    for (bool cached : {true, false}) {
        DecodeOptions o;
        o.cached = cached;
        o.maxLen = o.minLen = 15;
        QCOMPARE(int(greedyDecode(m, src, o).nbest[0].tokens.size()), 15);
        o.beam = 5;
        const DecodeResult b = beamSearch(m, src, o);
        QCOMPARE(int(b.nbest[0].tokens.size()), 15);
        QVERIFY(!b.nbest[0].finished);
    }
    // Without minLen the trained model does stop early: the option is what forced the length.
    QVERIFY(greedyDecode(m, src, 15).nbest[0].tokens.size() < 15);
}

void TestDecodeCached::capacityIsEnforced()
{
    IncrementalDecoder<float> inc(*randomPre_);
    inc.start({4, 5}, 2);
    Mat<float> lp;
    const int tokens[] = {kBos, 5, 6};
    inc.step(tokens, lp);
    inc.step(tokens + 1, lp);
    QVERIFY_THROWS_EXCEPTION(std::out_of_range, inc.step(tokens + 2, lp));
}

AS_TEST_GUILESS_MAIN(TestDecodeCached)
#include "test_decode_cached.moc"
