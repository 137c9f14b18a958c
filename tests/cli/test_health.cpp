// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Training health (Trainer::setRecordHealth, `train --log`): per tensor, the update ratio equals
// ‖w_t − w_{t−1}‖ / ‖w_{t−1}‖ recomputed from two model files saved one step apart by two runs of
// the same seed (bit-identical up to there); the weight norm is that of the later file; the
// tensors' gradient norms make up the step's global one; Adam's effective step is lr /
// (sqrt(v̂) + ε) worked by hand (float sums: to 1e-4) on a first step (v̂ = g²); the JSON lines parse, one per step and
// one per validation, and match the run. Histograms over log10|x|: bins counted by hand on a
// small vector, and a step's histograms against the gradient (before clipping) and weights
// binned in double. A skipped step names the first tensor, in forward order, whose gradient
// was poisoned (pre-norm and post-norm, where table and forward order disagree).
#include "skip.h"
#include "io/model_file.h"
#include "train/trainer.h"
#include "text/tasks.h"
#include "cli_process.h"
#include "toy_model.h"

#include <QJsonArray>

#include <cmath>
#include <cstring>

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace as;
using namespace Qt::StringLiterals;

class TestHealth : public QObject {
    Q_OBJECT
private slots:
    void logMatchesTwoSavedModels();
    void effectiveStepByHand();
    void recordingChangesNothing();
    void histogramBinsByHand();
    void stepHistogramsInDouble();
    void firstNonFiniteTensor_data();
    void firstNonFiniteTensor();
};

void TestHealth::logMatchesTwoSavedModels()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString a = dir.filePath(u"a.safetensors"_s), b = dir.filePath(u"b.safetensors"_s);
    const QString log = dir.filePath(u"b.jsonl"_s);
    const QStringList common{u"train"_s, u"--task"_s, u"toy"_s, u"--seed"_s, u"3"_s, u"--average"_s,
                             u"1"_s, u"--threads"_s, u"1"_s, u"--valid-every"_s, u"3"_s};
    QVERIFY(test::runCli(common + QStringList{u"--steps"_s, u"5"_s, u"--out"_s, a}));
    QVERIFY(test::runCli(common + QStringList{u"--steps"_s, u"6"_s, u"--out"_s, b, u"--log"_s, log}));
    QFile f(log);
    QVERIFY(f.open(QIODevice::ReadOnly));
    std::vector<QJsonObject> steps, valids;
    for (const QByteArray& line : f.readAll().split('\n')) {
        if (line.isEmpty())
            continue;
        QJsonParseError e;
        const QJsonObject o = QJsonDocument::fromJson(line, &e).object();
        QVERIFY2(e.error == QJsonParseError::NoError, qPrintable(e.errorString()));
        (o.contains("valid_loss") ? valids : steps).push_back(o);
    }
    QCOMPARE(int(steps.size()), 6);
    QCOMPARE(int(valids.size()), 2);  // at steps 3 and 6
    QCOMPARE(valids[1].value("step").toInt(), 6);
    for (int i = 0; i < 6; ++i)
        QCOMPARE(steps[std::size_t(i)].value("step").toInt(), i + 1);
    QString error;
    std::optional<ModelBundle> ma = loadModel(a, &error), mb = loadModel(b, &error);
    QVERIFY2(ma && mb, qPrintable(error));
    const QJsonObject last = steps.back();
    const QJsonObject tensors = last.value("tensors").toObject();
    const ParamStore<float>& pa = ma->model->params();
    const ParamStore<float>& pb = mb->model->params();
    QCOMPARE(tensors.size(), qsizetype(pa.table().size()));
    double gradSquares = 0;
    int moved = 0;
    for (const ParamInfo& p : pa.table()) {
        const QJsonObject t = tensors.value(QString::fromStdString(p.name)).toObject();
        const auto wa = pa.valueVector().segment(Eigen::Index(p.offset), Eigen::Index(p.size)).cast<double>();
        const auto wb = pb.valueVector().segment(Eigen::Index(p.offset), Eigen::Index(p.size)).cast<double>();
        const double ratio = (wb - wa).norm() / wa.norm();
        QVERIFY2(std::abs(t.value("update_ratio").toDouble() - ratio) <= 1e-12 + 1e-4 * ratio,
                 qPrintable(QStringLiteral("%1: logged %2, from the files %3").arg(QString::fromStdString(p.name))
                                .arg(t.value("update_ratio").toDouble()).arg(ratio)));
        QVERIFY(std::abs(t.value("weight_norm").toDouble() - wb.norm()) <= 1e-5 * wb.norm());
        gradSquares += std::pow(t.value("grad_norm").toDouble(), 2);
        moved += ratio > 0;
        QVERIFY(t.value("effective_step").toDouble() > 0);
    }
    QVERIFY(moved > int(pa.table().size()) / 2);
    QVERIFY(std::abs(std::sqrt(gradSquares) - last.value("grad_norm").toDouble()) < 1e-9 * std::sqrt(gradSquares));
    QVERIFY(last.value("lr").toDouble() > 0 && last.value("tokens").toInt() > 0);
}

void TestHealth::effectiveStepByHand()
{
    const Task task = makeToyTask();
    const ModelConfig c = test::toyModelConfig(task);
    Trainer t(c, TrainOptions{1.0, 10, 5});
    t.setRecordHealth(true);
    std::vector<float> g;
    t.afterBackward = [&](ParamStore<float>& ps) {  // keep a copy of the first step's gradient
        g.assign(ps.grads(), ps.grads() + ps.size());
    };
    Rng data(1);
    const StepStats st = t.step(task.nextBatch(data));
    QVERIFY(st.health);
    // After one step v = (1 − β2) g², v̂ = v / (1 − β2) = g²: lr / (|g| + ε), mean per tensor.
    const AdamOptions& o = t.adam().options();
    const std::vector<ParamInfo>& table = t.model().params().table();
    for (std::size_t i = 0; i < table.size(); ++i) {
        const ParamInfo& p = table[i];
        double sum = 0;
        for (std::size_t k = 0; k < p.size; ++k) {
            const double v = double((1.f - float(o.beta2)) * g[p.offset + k] * g[p.offset + k]) / (1 - o.beta2);
            sum += st.lr / (std::sqrt(v) + o.eps);
        }
        const double want = sum / double(p.size);
        QVERIFY2(std::abs((*st.health)[i].effectiveStep - want) <= 1e-4 * want,
                 qPrintable(QStringLiteral("%1: %2 vs %3").arg(QString::fromStdString(p.name)).arg((*st.health)[i].effectiveStep).arg(want)));
    }
    // Off by default: nothing measured.
    Trainer quiet(c, TrainOptions{1.0, 10, 5});
    QVERIFY(!quiet.step(task.nextBatch(data)).health);
}

void TestHealth::recordingChangesNothing()
{
    // Health is summed in Adam's pass over the weights: the update must stay bit for bit the
    // one without it.
    const Task task = makeToyTask();
    const ModelConfig c = test::toyModelConfig(task);
    Trainer plain(c, TrainOptions{1.0, 10, 5}), watched(c, TrainOptions{1.0, 10, 5});
    watched.setRecordHealth(true);
    watched.setHistogramEvery(2);
    Rng d1(1), d2(1);
    for (int i = 0; i < 4; ++i) {
        plain.step(task.nextBatch(d1));
        QVERIFY(watched.step(task.nextBatch(d2)).health);
    }
    const auto& a = plain.model().params().valueVector();
    const auto& b = watched.model().params().valueVector();
    QCOMPARE(a.size(), b.size());
    QVERIFY(std::memcmp(a.data(), b.data(), std::size_t(a.size()) * sizeof(float)) == 0);
    QVERIFY(plain.adam().secondMoment() == watched.adam().secondMoment());
}

void TestHealth::histogramBinsByHand()
{
    // Bins of a quarter decade from 1e-10: bin = floor(4 (log10|x| + 10)), within 0 … 47.
    const float x[] = {0.f,    1e-12f, -2e-3f, 2e-3f, 0.05f, -0.5f, 3.f,   500.f,
                       7e-6f, NAN,    INFINITY, -INFINITY};
    // 0 and 1e-12: bin 0 (below the range). ±2e-3: 4 × 7.30103 = 29.2 → 29. 0.05: 4 × 8.69897 =
    // 34.8 → 34. 0.5: 4 × 9.69897 = 38.8 → 38. 3: 4 × 10.47712 = 41.9 → 41. 500: 4 × 12.69897
    // = 50.8, above: 47. 7e-6: 4 × 4.84510 = 19.4 → 19. NaN, ±Inf: apart.
    std::vector<std::uint32_t> counts(kHistogramBins, 0);
    std::uint32_t nonFinite = 0;
    addToHistogram(x, std::size(x), counts.data(), &nonFinite);
    std::vector<std::uint32_t> want(kHistogramBins, 0);
    want[0] = 2;
    want[19] = 1;
    want[29] = 2;
    want[34] = 1;
    want[38] = 1;
    want[41] = 1;
    want[47] = 1;
    QCOMPARE(counts, want);
    QCOMPARE(nonFinite, 3u);
    QCOMPARE(histogramBinEdge(0), -10.0);
    QCOMPARE(histogramBinEdge(29), -2.75);
    QCOMPARE(histogramBinEdge(kHistogramBins), 2.0);
    // Longer than a chunk: every value counted once.
    std::vector<float> many(3000, -0.05f);
    many[2999] = NAN;
    std::fill(counts.begin(), counts.end(), 0u);
    nonFinite = 0;
    addToHistogram(many.data(), many.size(), counts.data(), &nonFinite);
    QCOMPARE(counts[34], 2999u);
    QCOMPARE(nonFinite, 1u);
}

void TestHealth::stepHistogramsInDouble()
{
    const Task task = makeToyTask();
    const ModelConfig c = test::toyModelConfig(task);
    // A clip norm far below the gradient's: the histogram is of the gradient before clipping.
    Trainer t(c, TrainOptions{1.0, 10, 5, 1e-3});
    t.setHistogramEvery(2);
    std::vector<float> g;
    t.afterBackward = [&](ParamStore<float>& ps) { g.assign(ps.grads(), ps.grads() + ps.size()); };
    Rng data(1);
    const StepStats first = t.step(task.nextBatch(data));
    QVERIFY(!first.histograms);  // step 1 is not a multiple of 2
    const StepStats st = t.step(task.nextBatch(data));
    QVERIFY(st.clipped);
    QVERIFY(st.histograms);
    QCOMPARE(st.histograms->step, 2L);
    const std::vector<ParamInfo>& table = t.model().params().table();
    QCOMPARE(st.histograms->tensors, int(table.size()));
    const float* w = t.model().params().values();
    int nearEdge = 0;
    long differ = 0;
    auto binInDouble = [&](float v) {
        if (v == 0)
            return 0;
        const double b = 4.0 * (std::log10(std::abs(double(v))) + 10.0);
        nearEdge += std::abs(b - std::round(b)) < 1e-4;
        return int(std::clamp(std::floor(b), 0.0, 47.0));
    };
    for (std::size_t i = 0; i < table.size(); ++i) {
        const ParamInfo& p = table[i];
        std::vector<long> wantW(kHistogramBins, 0), wantG(kHistogramBins, 0);
        for (std::size_t k = 0; k < p.size; ++k) {
            ++wantW[std::size_t(binInDouble(w[p.offset + k]))];
            ++wantG[std::size_t(binInDouble(g[p.offset + k]))];
        }
        for (int b = 0; b < kHistogramBins; ++b) {
            differ += std::abs(long(st.histograms->weightCounts(int(i))[b]) - wantW[std::size_t(b)]);
            differ += std::abs(long(st.histograms->gradCounts(int(i))[b]) - wantG[std::size_t(b)]);
        }
        QCOMPARE(st.histograms->weightsNonFinite[i], 0u);
        QCOMPARE(st.histograms->gradsNonFinite[i], 0u);
    }
    // Only a value within a float rounding of an edge may fall on the other side (each moves
    // two counts).
    QVERIFY2(differ <= 2 * nearEdge, qPrintable(QStringLiteral("%1 counts differ, %2 values near an edge").arg(differ).arg(nearEdge)));
    // The gradients were then clipped to norm 1e-3: a histogram of the clipped ones would sit
    // log10(norm / 1e-3) > 1 decade (4 bins) lower, and differ.
    QVERIFY(st.gradNorm > 1e-2);
}

void TestHealth::firstNonFiniteTensor_data()
{
    QTest::addColumn<bool>("preNorm");
    QTest::addColumn<QString>("first");
    // Poisoned: tgt_embed (second in the table, after the encoder in the forward pass), the
    // second encoder layer's norm2 and its ffn.w2 (in the table, ffn before norm2). Pre-norm
    // applies norm2 before the ffn, post-norm after it.
    QTest::newRow("pre-norm") << true << u"encoder.layers.1.norm2.weight"_s;
    QTest::newRow("post-norm") << false << u"encoder.layers.1.ffn.w2.bias"_s;
}

void TestHealth::firstNonFiniteTensor()
{
    QFETCH(bool, preNorm);
    QFETCH(QString, first);
    const Task task = makeToyTask();
    ModelConfig c = test::toyModelConfig(task);
    c.norm = preNorm ? NormPlacement::Pre : NormPlacement::Post;
    Trainer t(c, TrainOptions{1.0, 10, 5});
    t.afterBackward = [](ParamStore<float>& ps) {
        ps.grads()[ps.find("tgt_embed.weight")->offset + 7] = NAN;
        ps.grads()[ps.find("encoder.layers.1.norm2.weight")->offset + 3] = INFINITY;
        ps.grads()[ps.find("encoder.layers.1.ffn.w2.bias")->offset] = NAN;
    };
    Rng data(1);
    const StepStats st = t.step(task.nextBatch(data));
    QVERIFY(!st.applied);
    QVERIFY(st.faultTensor >= 0);
    QCOMPARE(QString::fromStdString(t.model().params().table()[std::size_t(st.faultTensor)].name), first);
    QVERIFY2(st.fault.contains(u"the gradient of "_s + first), qPrintable(st.fault));
    QVERIFY(!st.health && !st.histograms);
    // A finite step names none.
    t.afterBackward = nullptr;
    QCOMPARE(t.step(task.nextBatch(data)).faultTensor, -1);
}

AS_TEST_GUILESS_MAIN(TestHealth)
#include "test_health.moc"
