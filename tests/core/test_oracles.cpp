// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The engine's numbers against computations written here, independently of the code under
// test: the learning rate each step applies (the Noam formula, and the size of the update it
// causes), token accuracy (an argmax count of a plain forward, one sentence at a time), the
// float GEMM path (a double product), Adam on more than one thread and more than one of its
// 1024-element blocks (a scalar loop), and 1- vs 2-thread gradients tensor by tensor.
#include "skip.h"
#include "eval/evaluate.h"
#include "model/gemm.h"
#include "model/parallel.h"
#include "model/rng.h"
#include "text/tasks.h"
#include "train/adam.h"
#include "train/trainer.h"

#include <QTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <set>

using namespace as;

class TestOracles : public QObject {
    Q_OBJECT
private slots:
    void cleanup() { setEngineThreads(1); }
    void appliedRateIsNoam();
    void adamStepWorkedByHand();
    void accuracyIsAnIndependentCount();
    void floatGemmAgainstDouble_data();
    void floatGemmAgainstDouble();
    void adamOnTwoThreadsIsTheScalarLoop();
    void gradientsPerTensorOneVsTwoThreads();
};

namespace {

// The Noam rate written out again (not train/schedule.h): factor * d^-0.5 * min(s^-0.5, s w^-1.5).
double noam(long step, int dModel, double factor, long warmup)
{
    const double s = double(step);
    return factor / std::sqrt(double(dModel))
           * std::min(1.0 / std::sqrt(s), s / (double(warmup) * std::sqrt(double(warmup))));
}

ModelConfig smallConfig(const Task& task, int d = 32)
{
    ModelConfig c;
    c.src_vocab = task.srcVocab.size();
    c.tgt_vocab = task.tgtVocab.size();
    c.d_model = d;
    c.heads = 4;
    c.d_ff = 2 * d;
    c.encoder_layers = c.decoder_layers = 2;
    c.max_len = 24;
    return c;
}

}  // namespace

void TestOracles::appliedRateIsNoam()
{
    // The trainer's reported rate at steps 1..12 (warmup 5: both branches of the min, and the
    // peak) is the formula's, and the update it makes has that size. The gradient is replaced
    // (afterBackward) by a constant g per element, so Adam's bias-corrected moments are exactly
    // m^ = g, v^ = g^2 at every step and each weight moves by
    //   -lr_t * g / (|g| + eps),
    // whatever the model computed. A rate taken for the wrong step (t - 1 or t + 1 differ by
    // 10-40 % here) or a wrong bias correction moves the weights by a different amount.
    const Task task = makeToyTask();
    const double factor = 0.7;
    const long warmup = 5;
    Trainer trainer(smallConfig(task), TrainOptions{factor, warmup, 11});
    const int d = trainer.model().config().d_model;
    ParamStore<float>& ps = trainer.model().params();
    const std::size_t n = ps.size();
    // Signs and sizes vary over the elements: +-1e-3 .. +-4e-3.
    std::vector<float> g(n);
    for (std::size_t i = 0; i < n; ++i)
        g[i] = float((i % 2 ? -1.0 : 1.0) * 1e-3 * double(1 + i % 4));
    trainer.afterBackward = [&](ParamStore<float>& p) {
        std::memcpy(p.grads(), g.data(), n * sizeof(float));
    };
    const double eps = trainer.adam().options().eps;
    Rng data(2);
    for (long t = 1; t <= 12; ++t) {
        const Eigen::VectorXf before = ps.valueVector();
        const StepStats st = trainer.step(task.nextBatch(data));
        QVERIFY(st.applied);
        QCOMPARE(st.step, t);
        const double lr = noam(t, d, factor, warmup);
        QVERIFY2(std::abs(st.lr - lr) <= 1e-12 * lr,
                 qPrintable(QStringLiteral("step %1: reported %2, formula %3").arg(t).arg(st.lr, 0, 'g', 17).arg(lr, 0, 'g', 17)));
        double worst = 0;
        std::size_t worstAt = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const double gi = g[i];
            const double expected = -lr * gi / (std::abs(gi) + eps);
            const double moved = double(ps.values()[i]) - double(before[Eigen::Index(i)]);
            // The float weights round before and after: a few ulps of the weight, plus the
            // float arithmetic of the update (relative 1e-6).
            const double ulp = std::abs(double(before[Eigen::Index(i)])) * 1.2e-7 + 1e-30;
            const double err = std::abs(moved - expected) / (4 * ulp + 1e-5 * std::abs(expected));
            if (err > worst) {
                worst = err;
                worstAt = i;
            }
        }
        QVERIFY2(worst <= 1.0,
                 qPrintable(QStringLiteral("step %1, weight %2: moved %3, expected %4 (lr %5)")
                                .arg(t)
                                .arg(worstAt)
                                .arg(double(ps.values()[worstAt]) - double(before[Eigen::Index(worstAt)]), 0, 'g', 9)
                                .arg(-lr * g[worstAt] / (std::abs(double(g[worstAt])) + eps), 0, 'g', 9)
                                .arg(lr)));
    }
}

void TestOracles::adamStepWorkedByHand()
{
    // One Adam step from zero moments with the rate of step 3 of (factor 2, d_model 64, warmup
    // 4): lr = 2 * 64^-0.5 * min(3^-0.5, 3 * 4^-1.5) = 2/8 * 3/8 = 0.09375.
    // m = 0.1 g, v = 0.02 g^2; m^ = m / 0.1 = g; v^ = v / 0.02 = g^2; so
    //   delta = -0.09375 * g / (|g| + 1e-9).
    // A second step with g2: m = 0.9*0.1 g + 0.1 g2, v = 0.98*0.02 g^2 + 0.02 g2^2,
    //   corrections 1 - 0.9^2 = 0.19, 1 - 0.98^2 = 0.0396, at lr of step 4 = 2/8 * 4/8 = 0.125.
    const double lr3 = noam(3, 64, 2.0, 4), lr4 = noam(4, 64, 2.0, 4);
    QCOMPARE(lr3, 0.09375);
    QCOMPARE(lr4, 0.125);
    const double g[3] = {0.25, -2.0, 1e-6}, g2[3] = {-0.5, -1.0, 3e-6};
    const double p0[3] = {0.5, 1.0, -0.75};
    Adam<double> adam(3);
    double p[3] = {p0[0], p0[1], p0[2]};
    adam.step(p, g, lr3);
    for (int i = 0; i < 3; ++i) {
        const double expected = p0[i] - 0.09375 * g[i] / (std::abs(g[i]) + 1e-9);
        QVERIFY2(std::abs(p[i] - expected) <= 1e-15, qPrintable(QString::number(i)));
    }
    double q[3];
    for (int i = 0; i < 3; ++i) {
        const double m = 0.09 * g[i] + 0.1 * g2[i], v = 0.98 * 0.02 * g[i] * g[i] + 0.02 * g2[i] * g2[i];
        q[i] = p[i] - 0.125 * (m / 0.19) / (std::sqrt(v / 0.0396) + 1e-9);
    }
    adam.step(p, g2, lr4);
    for (int i = 0; i < 3; ++i)
        QVERIFY2(std::abs(p[i] - q[i]) <= 1e-14, qPrintable(QString::number(i)));
}

void TestOracles::accuracyIsAnIndependentCount()
{
    // A partly trained model (accuracy neither 0 nor 1) on reverse-task pairs of varying
    // lengths, so that evaluateLoss's batches are padded. The independent count runs each
    // sentence alone (no padding at all) through encode/decode, takes the argmax of every
    // position's log-probabilities and compares it with the target token (and <eos> last).
    const Task task = makeReverseTask(16, 10);
    Trainer trainer(smallConfig(task), TrainOptions{1.0, 20, 5});
    Rng data(5);
    for (int s = 0; s < 60; ++s)
        trainer.step(task.nextBatch(data));
    Transformer<float>& model = trainer.model();

    std::vector<EncodedPair> pairs;
    Rng held(99);
    while (pairs.size() < 48) {
        const Batch b = task.nextBatch(held);
        for (int i = 0; i < b.B; ++i) {
            EncodedPair p;
            for (int s = 0; s < b.S && b.src[std::size_t(i * b.S + s)] != kPad; ++s)
                p.src.push_back(b.src[std::size_t(i * b.S + s)]);
            for (int t = 0; t < b.T && b.tgtOut[std::size_t(i * b.T + t)] != kEos; ++t)
                p.tgt.push_back(b.tgtOut[std::size_t(i * b.T + t)]);
            pairs.push_back(p);
        }
    }
    std::set<std::size_t> lengths;
    for (const EncodedPair& p : pairs)
        lengths.insert(p.src.size());
    QVERIFY2(lengths.size() >= 3, "the pairs must differ in length, so that batches are padded");

    long tokens = 0, correct = 0, nearTies = 0;
    Mat<float> logp;
    for (const EncodedPair& p : pairs) {
        std::vector<int> in{kBos}, out = p.tgt;
        in.insert(in.end(), p.tgt.begin(), p.tgt.end());
        out.push_back(kEos);
        model.encode(p.src.data(), 1, int(p.src.size()), Pass::eval());
        const Mat<float> mem = model.memory();
        const std::vector<std::uint8_t> valid = model.sourceValid();
        model.decode(in.data(), 1, int(in.size()), mem, valid.data(), int(p.src.size()), Pass::eval());
        model.allLogProbs(logp);
        QCOMPARE(int(logp.rows()), int(out.size()));
        for (int r = 0; r < int(out.size()); ++r) {
            int best = 0;
            for (int j = 1; j < int(logp.cols()); ++j)
                if (logp(r, j) > logp(r, best))
                    best = j;
            ++tokens;
            correct += best == out[std::size_t(r)];
            // Another batching rounds differently: a near tie may go either way.
            float second = -std::numeric_limits<float>::infinity();
            for (int j = 0; j < int(logp.cols()); ++j)
                if (j != best)
                    second = std::max(second, logp(r, j));
            nearTies += logp(r, best) - second < 1e-4f;
        }
    }
    for (int budget : {4000, 60}) {  // one batch, and many small padded ones
        const LossStats st = evaluateLoss(model, pairs, budget);
        qInfo("token budget %d: %ld of %ld right (independent count %ld, %ld near ties)", budget,
              st.correct, st.ntokens, correct, nearTies);
        QCOMPARE(st.ntokens, tokens);
        QVERIFY2(std::abs(st.correct - correct) <= nearTies,
                 qPrintable(QStringLiteral("evaluateLoss %1, counted %2").arg(st.correct).arg(correct)));
        QVERIFY(std::abs(st.accuracy() - double(st.correct) / double(tokens)) < 1e-15);
    }
    QVERIFY2(correct > tokens / 10 && correct < tokens, "the model should be partly trained");
}

void TestOracles::floatGemmAgainstDouble_data()
{
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("k");
    QTest::addColumn<int>("n");
    for (auto [m, k, n] : {std::tuple{1, 1, 1}, {3, 5, 7}, {1, 300, 9}, {17, 64, 33}, {64, 512, 48},
                           {130, 96, 257}, {5, 3000, 4}})
        for (int ta = 0; ta < 2; ++ta)
            for (int tb = 0; tb < 2; ++tb)
                QTest::addRow("%dx%dx%d %s%s", m, k, n, ta ? "At" : "A", tb ? "Bt" : "B")
                    << m << k << n;
}

void TestOracles::floatGemmAgainstDouble()
{
    // C = op(A) op(B) (and C += …) in float through gemm(), against the product of the same
    // float values in double. Recursive summation of K terms errs by at most K u sum|a||b|
    // (u = 2^-24); blocked and FMA kernels do better. The bound is per element and scales with
    // K, so that a kernel that loses precision (or an alpha of 1 + 1e-4) fails it.
    QFETCH(int, m);
    QFETCH(int, k);
    QFETCH(int, n);
    const QString tag = QString::fromLatin1(QTest::currentDataTag());
    const bool ta = tag.contains("At"), tb = tag.contains("Bt");
    std::mt19937 gen(unsigned(m * 131 + k * 7 + n));
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    Mat<float> a(ta ? k : m, ta ? m : k), b(tb ? n : k, tb ? k : n), c0(m, n);
    for (Eigen::Index i = 0; i < a.size(); ++i)
        a.data()[i] = u(gen);
    for (Eigen::Index i = 0; i < b.size(); ++i)
        b.data()[i] = u(gen);
    for (Eigen::Index i = 0; i < c0.size(); ++i)
        c0.data()[i] = u(gen);
    const Mat<double> ad = ta ? Mat<double>(a.cast<double>().transpose()) : Mat<double>(a.cast<double>());
    const Mat<double> bd = tb ? Mat<double>(b.cast<double>().transpose()) : Mat<double>(b.cast<double>());
    Mat<double> exact(m, n), scale(m, n);
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            double s = 0, sa = 0;
            for (int l = 0; l < k; ++l) {
                s += ad(i, l) * bd(l, j);
                sa += std::abs(ad(i, l) * bd(l, j));
            }
            exact(i, j) = s;
            scale(i, j) = sa;
        }
    const double u24 = std::ldexp(1.0, -24);
    for (bool acc : {false, true}) {
        Mat<float> c = c0;
        gemm<float>(a, ta, b, tb, c, acc);
        double worst = 0;
        for (int i = 0; i < m; ++i)
            for (int j = 0; j < n; ++j) {
                const double want = exact(i, j) + (acc ? double(c0(i, j)) : 0.0);
                const double bound = (k + 2) * u24 * (scale(i, j) + (acc ? std::abs(double(c0(i, j))) : 0.0));
                worst = std::max(worst, std::abs(double(c(i, j)) - want) / bound);
            }
        QVERIFY2(worst <= 1.0, qPrintable(QStringLiteral("%1, accumulate %2: worst error %3 of the K-scaled bound (%4)")
                                               .arg(tag).arg(acc).arg(worst).arg(gemmBackend())));
    }
}

void TestOracles::adamOnTwoThreadsIsTheScalarLoop()
{
    // 3 x 16384 + 1031 elements: parallelFor splits at 2 x 16384 per chunk, so two threads take
    // a chunk each, and within each chunk the 1024-element blocks end on a partial one. Four
    // steps on 2 threads against a plain scalar loop written here from the header's formula.
    //
    // Not bit for bit: GCC contracts a*b + c into one FMA by default in C++ (-ffp-contract=fast
    // with -march=native), and it does so differently in this scalar loop and in Eigen's
    // vectorised expression, so each operation may round once differently (measured: m differs
    // in ~50 % of elements by an ulp, p by up to a few hundred ulps of p where p is near 0). The
    // tolerance is therefore ulp-level relative to the size of the terms (32 u, u =
    // 2^-24, of |b1 m| + |(1 - b1) g| for m, of the update for p; 4 u seen), while a skipped, doubled or
    // misplaced element (another block's moments) is off by the whole update, 1e5 times more.
    // On 1 thread too.
    const long n = 3 * 16384 + 1031;
    const std::size_t un = static_cast<std::size_t>(n);
    std::mt19937 gen(42);
    std::normal_distribution<float> nd(0.f, 1.f);
    std::vector<float> p0(un);
    for (float& x : p0)
        x = nd(gen);
    std::vector<std::vector<float>> grads(4, std::vector<float>(un));
    for (auto& g : grads)
        for (std::size_t i = 0; i < un; ++i)  // gradients of every scale, some zero
            g[i] = i % 97 == 0 ? 0.f : nd(gen) * std::pow(10.f, float(i % 7) - 4.f);
    const double rates[4] = {1e-3, 2e-3, 5e-4, 3e-2};
    // The engine's buffers are Eigen vectors (aligned to the SIMD width): so are these, so that
    // Eigen peels the same elements off each block in both runs.
    auto run = [&](int threads, Adam<float>* adam) {
        setEngineThreads(threads);
        Eigen::VectorXf p = Eigen::Map<const Eigen::VectorXf>(p0.data(), n);
        for (int t = 0; t < 4; ++t) {
            const Eigen::VectorXf g = Eigen::Map<const Eigen::VectorXf>(grads[std::size_t(t)].data(), n);
            adam->step(p.data(), g.data(), rates[t]);
        }
        return std::vector<float>(p.data(), p.data() + n);
    };
    Adam<float> adam1(un), adam2(un);
    const std::vector<float> p1 = run(1, &adam1);
    const std::vector<float> p = run(2, &adam2);
    QCOMPARE(engineThreads(), 2);
    QCOMPARE(chunkCount((n + 1023) / 1024, 16), 2);  // adam.cpp's split: two chunks of blocks
    // 1 thread vs 2, bit for bit: the threads split whole blocks of one global 1024 grid, so
    // each element meets the same vector lanes and scalar tail. (Split at n / 2 = 25091, not a
    // multiple of the SIMD width, a dozen elements differed by an ulp where GCC contracted
    // the scalar head and tail into FMAs differently.)
    long splitDiffers = 0;
    for (std::size_t i = 0; i < un; ++i)
        splitDiffers += std::memcmp(&p1[i], &p[i], sizeof(float)) != 0;
    QCOMPARE(splitDiffers, 0L);

    // The scalar loop, in float as the header states it, with a bound of each element's
    // rounding kept alongside in double.
    const AdamOptions o = adam2.options();
    const float b1 = float(o.beta1), b2 = float(o.beta2), eps = float(o.eps);
    std::vector<float> ref = p0, m(un, 0.f), v(un, 0.f);
    std::vector<double> mScale(un, 0.0), pScale(un, 0.0);
    for (int t = 1; t <= 4; ++t) {
        const std::vector<float>& g = grads[std::size_t(t - 1)];
        const double bc1 = 1.0 - std::pow(o.beta1, t), bc2 = 1.0 - std::pow(o.beta2, t);
        const float stepSize = float(rates[t - 1] / bc1), invSqrtBc2 = float(1.0 / std::sqrt(bc2));
        for (std::size_t i = 0; i < un; ++i) {
            m[i] = b1 * m[i] + (1.f - b1) * g[i];
            v[i] = b2 * v[i] + (1.f - b2) * g[i] * g[i];
            const float denom = std::sqrt(v[i]) * invSqrtBc2 + eps;
            ref[i] -= stepSize * m[i] / denom;
            mScale[i] = o.beta1 * mScale[i] + (1 - o.beta1) * std::abs(double(g[i]));
            pScale[i] += double(stepSize) * mScale[i] / double(denom);
        }
    }
    const double u = std::ldexp(1.0, -24), k = 32;
    for (const auto& [threads, params, adam] : {std::tuple{1, &p1, &adam1}, std::tuple{2, &p, &adam2}}) {
        long bad = 0, first = -1;
        double worstP = 0;
        for (std::size_t i = 0; i < un; ++i) {
            const double dm = std::abs(double(adam->firstMoment()[Eigen::Index(i)]) - m[i]);
            const double dv = std::abs(double(adam->secondMoment()[Eigen::Index(i)]) - v[i]);
            const double dp = std::abs(double((*params)[i]) - ref[i]);
            const double tolP = k * u * (pScale[i] + std::abs(double(ref[i])));
            worstP = std::max(worstP, dp / tolP);
            if (dm > k * u * mScale[i] || dv > k * u * v[i] || dp > tolP) {
                if (first < 0)
                    first = long(i);
                ++bad;
            }
        }
        qInfo("%d thread(s): worst parameter difference %.3g of the tolerance (%g u of the "
              "update's size)", threads, worstP, k);
        QVERIFY2(bad == 0, qPrintable(QStringLiteral("%1 thread(s): %2 elements differ, the first at %3 (block %4): %5 vs %6")
                                          .arg(threads).arg(bad).arg(first).arg(first / 1024)
                                          .arg(first < 0 ? 0.f : (*params)[std::size_t(first)], 0, 'g', 9)
                                          .arg(first < 0 ? 0.f : ref[std::size_t(first)], 0, 'g', 9)));
    }
}

void TestOracles::gradientsPerTensorOneVsTwoThreads()
{
    // README promises bit-identical results run to run at a given thread count, not across
    // thread counts (test_parallel: split products and reductions round differently). So: every
    // tensor's gradient on 2 threads equals its 1-thread gradient to float rounding, relative to
    // that tensor's own norm, not the global one, where a tensor of small gradients (a bias, a
    // layer norm) could be half wrong and not show. And 2 threads twice: bit for bit.
    const Task task = makeCopyTask(64, 10);
    ModelConfig c = smallConfig(task, 64);
    c.d_ff = 128;
    for (NormPlacement norm : {NormPlacement::Post, NormPlacement::Pre}) {
        c.norm = norm;
        Transformer<float> model(c);
        Rng init(3), data(4);
        model.initXavier(init);
        const Batch batch = task.nextBatch(data);
        auto run = [&](int threads) {
            setEngineThreads(threads);
            model.params().zeroGrads();
            Rng drop(5);
            model.forwardBackward(batch, Pass::training(drop));
            return Eigen::VectorXf(model.params().gradVector());
        };
        const Eigen::VectorXf g1 = run(1), g2 = run(2), g2again = run(2);
        QVERIFY(std::memcmp(g2.data(), g2again.data(), std::size_t(g2.size()) * sizeof(float)) == 0);
        double worst = 0;
        QString worstName;
        for (const ParamInfo& p : model.params().table()) {
            const auto a = g1.segment(Eigen::Index(p.offset), Eigen::Index(p.size));
            const auto b = g2.segment(Eigen::Index(p.offset), Eigen::Index(p.size));
            const double na = double(a.norm());
            QVERIFY2(na > 0 || b.norm() == 0, p.name.c_str());
            if (na == 0)
                continue;
            const double rel = double((a - b).norm()) / na;
            if (rel > worst) {
                worst = rel;
                worstName = QString::fromStdString(p.name);
            }
            QVERIFY2(rel < 1e-5, qPrintable(QStringLiteral("%1: relative difference %2 (global %3)")
                                                .arg(QString::fromStdString(p.name)).arg(rel)
                                                .arg(double((g1 - g2).norm() / g1.norm()))));
        }
        qInfo("%s-norm: worst tensor %s, relative difference %.3g", norm == NormPlacement::Pre ? "pre" : "post",
              qPrintable(worstName), worst);
    }
}

AS_TEST_APPLESS_MAIN(TestOracles)
#include "test_oracles.moc"
