// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Head dynamics (issue 18 §2):
//  - the per-map scores (eval/attention_stats.h) against maps worked by hand: a 2×3 map with
//    known entropy, confidence and diagonal mass; a perfectly diagonal cross map scores 1, a
//    uniform one the fraction of keys within ±1 of the scaled diagonal (7/15 for 3×5), with
//    entropy ln S and confidence 1/S; a causal map; a one-row map (the centre); head h's rows;
//  - the view's cells equal the scores of the records given (recomputed here by a plain loop
//    in double, keys within ±1 found by floor/ceil; punctuation mass and alignment as core's
//    headDynamicsOf gives them, which tests/core/test_attention_stats checks by plain loops),
//    for every metric, kind, layer and head, with one colour scale; the hover text; a record from an earlier step starts over, thinning keeps each record's
//    scores with it; a hidden view draws when shown, a visible one within the draw interval;
//  - in the window, clicking a cell (at its pixel, from the axes' coordToPixel) shows the
//    Attention tab with that kind, layer and head, its replay slider on that record's step;
//    a checkpoint saved and opened after another run began brings back every record.
#include "skip.h"
#include "head_dynamics_view.h"
#include "attention_view.h"
#include "main_window.h"
#include "file_actions.h"
#include "heads_controller.h"
#include "view_set.h"
#include "worker_link.h"
#include "window_runs.h"

#include "eval/attention_stats.h"
#include "hover.h"
#include "matrix_rows.h"
#include "text/tasks.h"

#include <QSlider>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <random>

using namespace as;

namespace {

using test::rows;

// heads maps of sq × sk stacked as AttentionRecord keeps them; each row a softmax of random
// scores (rows t of a causal map see keys s ≤ t only).
Mat<float> randomLayer(std::mt19937& rng, int heads, int sq, int sk, bool causal)
{
    std::normal_distribution<float> n(0.f, 2.f);
    Mat<float> m = Mat<float>::Zero(heads * sq, sk);
    for (int h = 0; h < heads; ++h)
        for (int t = 0; t < sq; ++t) {
            const int seen = causal ? std::min(t + 1, sk) : sk;
            double sum = 0;
            for (int s = 0; s < seen; ++s) {
                m(h * sq + t, s) = std::exp(n(rng));
                sum += m(h * sq + t, s);
            }
            for (int s = 0; s < seen; ++s)
                m(h * sq + t, s) = float(m(h * sq + t, s) / sum);
        }
    return m;
}

std::shared_ptr<const AttentionRecord> randomRecord(std::mt19937& rng, long step, int encLayers,
                                                    int decLayers, int heads, int S, int T)
{
    auto r = std::make_shared<AttentionRecord>();
    r->step = step;
    r->heads = heads;
    // The last source token and the last of the decoder's input are punctuation.
    for (int i = 0; i + 1 < S; ++i)
        r->srcTokens << QStringLiteral("s%1").arg(i);
    r->srcTokens << QStringLiteral("。");
    r->tgtTokens << QStringLiteral("<s>");
    for (int i = 1; i + 1 < T; ++i)
        r->tgtTokens << QStringLiteral("t%1").arg(i);
    r->tgtTokens << QStringLiteral(".");
    for (int l = 0; l < encLayers; ++l)
        r->encoderSelf.push_back(randomLayer(rng, heads, S, S, false));
    for (int l = 0; l < decLayers; ++l) {
        r->decoderSelf.push_back(randomLayer(rng, heads, T, T, true));
        r->cross.push_back(randomLayer(rng, heads, T, S, false));
    }
    return r;
}

// The three scores of head h, by a plain loop in double: the diagonal's keys found as the
// integers from ceil(d − 1) to floor(d + 1).
struct Naive {
    double entropy = 0, confidence = 0, diagonal = 0;
};
Naive naive(const Mat<float>& layer, int heads, int h)
{
    const int sq = int(layer.rows()) / heads, sk = int(layer.cols());
    Naive n;
    for (int t = 0; t < sq; ++t) {
        double e = 0, mx = 0, dm = 0;
        for (int s = 0; s < sk; ++s) {
            const double a = layer(h * sq + t, s);
            if (a > 0)
                e -= a * std::log(a);
            mx = std::max(mx, a);
        }
        const double d = sq > 1 ? double(t) * (sk - 1) / (sq - 1) : (sk - 1) / 2.0;
        for (int s = std::max(0, int(std::ceil(d - 1))); s <= std::min(sk - 1, int(std::floor(d + 1))); ++s)
            dm += layer(h * sq + t, s);
        n.entropy += e / sq;
        n.confidence += mx / sq;
        n.diagonal += dm / sq;
    }
    return n;
}

constexpr AttentionKind kKinds[] = {AttentionKind::EncoderSelf, AttentionKind::DecoderSelf,
                                    AttentionKind::Cross};

}  // namespace

class TestHeadDynamics : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void scoresOfHandWorkedMaps();
    void recordScoresByKindLayerHead();
    void viewCellsAreTheRecordsScores();
    void viewStartsOverAndThins();
    void clickShowsThatStepInAttention();
    void probeLineOfEachKindOfModel();
};

void TestHeadDynamics::scoresOfHandWorkedMaps()
{
    // 2 queries × 3 keys. Row 0: −(½ ln ½ + 2·¼ ln ¼) = 1.5 ln 2, max ½; row 1: max 0.7.
    // Diagonal: d(0) = 0, d(1) = 1·(3−1)/(2−1) = 2: keys {0, 1} of row 0 (0.75), {1, 2} of
    // row 1 (0.9).
    const Mat<float> m = rows({{0.5f, 0.25f, 0.25f}, {0.1f, 0.2f, 0.7f}});
    HeadMapStats s = headMapStats(m, 1, 0);
    const double row1 = -(0.1 * std::log(0.1) + 0.2 * std::log(0.2) + 0.7 * std::log(0.7));
    QVERIFY(std::abs(s.entropy - (1.5 * std::log(2.0) + row1) / 2) < 1e-6);
    QVERIFY(std::abs(s.confidence - 0.6) < 1e-6);
    QVERIFY(std::abs(s.diagonal - 0.825) < 1e-6);

    // 3 × 5: the diagonal at 0, 2, 4. One-hot on it: 1 (and entropy 0, confidence 1).
    const Mat<float> diag = rows({{1, 0, 0, 0, 0}, {0, 0, 1, 0, 0}, {0, 0, 0, 0, 1}});
    s = headMapStats(diag, 1, 0);
    QCOMPARE(s.diagonal, 1.0);
    QCOMPARE(s.entropy, 0.0);
    QCOMPARE(s.confidence, 1.0);
    // One-hot one key off the diagonal still counts (±1); two keys off does not.
    QVERIFY(std::abs(headMapStats(rows({{0, 1, 0, 0, 0}, {0, 0, 0, 1, 0}, {0, 0, 0, 1, 0}}), 1, 0).diagonal - 1.0) < 1e-9);
    QVERIFY(std::abs(headMapStats(rows({{0, 0, 1, 0, 0}, {0, 0, 0, 0, 1}, {1, 0, 0, 0, 0}}), 1, 0).diagonal) < 1e-9);
    // Uniform 3 × 5: rows see 2, 3 and 2 of the 5 keys within ±1: (2 + 3 + 2) / 15.
    const Mat<float> uniform = Mat<float>::Constant(3, 5, 0.2f);
    s = headMapStats(uniform, 1, 0);
    QVERIFY(std::abs(s.diagonal - 7.0 / 15.0) < 1e-6);
    QVERIFY(std::abs(s.entropy - std::log(5.0)) < 1e-6);
    QVERIFY(std::abs(s.confidence - 0.2) < 1e-6);
    // Uniform 3 × 4: d = 0, 1.5, 3: keys {0,1}, {1,2}, {2,3}: (2 + 2 + 2) / 12.
    QVERIFY(std::abs(headMapStats(Mat<float>::Constant(3, 4, 0.25f), 1, 0).diagonal - 0.5) < 1e-6);
    // One query: the centre (S−1)/2 = 1.5 of 4 keys: keys 1 and 2 (0.5 away), not 0 or 3.
    QVERIFY(std::abs(headMapStats(rows({{0.1f, 0.2f, 0.3f, 0.4f}}), 1, 0).diagonal - 0.5) < 1e-6);

    // Causal 3 × 3, uniform over what each query sees: entropy (0 + ln 2 + ln 3) / 3;
    // confidence (1 + ½ + ⅓) / 3; diagonal d(t) = t: 1, 1, ⅔.
    const float third = 1.f / 3.f;
    s = headMapStats(rows({{1, 0, 0}, {0.5f, 0.5f, 0}, {third, third, third}}), 1, 0);
    QVERIFY(std::abs(s.entropy - (std::log(2.0) + std::log(3.0)) / 3) < 1e-6);
    QVERIFY(std::abs(s.confidence - 11.0 / 18.0) < 1e-6);
    QVERIFY(std::abs(s.diagonal - 8.0 / 9.0) < 1e-6);

    // Two heads stacked: head 1's rows are the second pair.
    Mat<float> two(4, 3);
    two << 1, 0, 0, 0, 1, 0, 0.5f, 0.25f, 0.25f, 0.1f, 0.2f, 0.7f;
    QVERIFY(std::abs(headMapStats(two, 2, 1).confidence - 0.6) < 1e-6);
    QCOMPARE(headMapStats(two, 2, 0).confidence, 1.0);
}

void TestHeadDynamics::recordScoresByKindLayerHead()
{
    std::mt19937 rng(3);
    const auto r = randomRecord(rng, 10, 2, 3, 4, 5, 6);
    const HeadDynamicsPoint p = headDynamicsOf(*r);
    QCOMPARE(p.step, 10L);
    QCOMPARE(int(p.of(AttentionKind::EncoderSelf).size()), 2);
    QCOMPARE(int(p.of(AttentionKind::DecoderSelf).size()), 3);
    QCOMPARE(int(p.of(AttentionKind::Cross).size()), 3);
    for (AttentionKind k : kKinds)
        for (int l = 0; l < int(p.of(k).size()); ++l)
            for (int h = 0; h < 4; ++h) {
                const Naive n = naive(attentionLayers(*r, k)[l], 4, h);
                const HeadMapStats& s = p.of(k)[l][h];
                QVERIFY(std::abs(s.entropy - n.entropy) < 1e-9);
                QVERIFY(std::abs(s.confidence - n.confidence) < 1e-9);
                QVERIFY(std::abs(s.diagonal - n.diagonal) < 1e-9);
            }
}

void TestHeadDynamics::viewCellsAreTheRecordsScores()
{
    ui::HeadDynamicsView v;
    v.resize(1200, 900);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    std::mt19937 rng(7);
    std::vector<std::shared_ptr<const AttentionRecord>> records;
    for (long step : {0L, 5L, 12L, 40L, 41L})
        records.push_back(randomRecord(rng, step, 2, 1, 3, step == 40 ? 7 : 4, 5));
    for (const auto& r : records)
        v.addRecord(r);
    v.addRecord(records.back());  // the same record again (a snapshot without a new probe)
    v.drawNow();
    QCOMPARE(v.recordCount(), 5);
    QCOMPARE(v.heads(), 3);
    QCOMPARE(v.layers(AttentionKind::EncoderSelf), 2);
    QCOMPARE(v.layers(AttentionKind::DecoderSelf), 1);
    QCOMPARE(v.layers(AttentionKind::Cross), 1);
    using M = ui::HeadDynamicsView::Metric;
    for (M metric : {M::Entropy, M::Confidence, M::Diagonal, M::Punctuation, M::Alignment}) {
        v.setMetric(metric);
        // Entropy: 0 … ln 7, the most keys of any map (record 3's source); alignment −1 … 1.
        const double top = metric == M::Entropy ? std::log(7.0) : 1.0;
        QVERIFY(std::abs(v.colourRange().upper - top) < 1e-12);
        QCOMPARE(v.colourRange().lower, metric == M::Alignment ? -1.0 : 0.0);
        for (int i = 0; i < 5; ++i) {
            QCOMPARE(v.stepAt(i), records[i]->step);
            // Kept alive for the references into it below.
            const HeadDynamicsPoint dynamics = headDynamicsOf(*records[i]);
            for (AttentionKind k : kKinds)
                for (int l = 0; l < v.layers(k); ++l)
                    for (int h = 0; h < 3; ++h) {
                        const Naive n = naive(attentionLayers(*records[i], k)[l], 3, h);
                        // Punctuation and alignment as core computes them (recomputed by plain
                        // loops in tests/core/test_attention_stats).
                        const HeadMapStats& st = dynamics.of(k)[l][h];
                        const double want = metric == M::Entropy       ? n.entropy
                                             : metric == M::Confidence  ? n.confidence
                                             : metric == M::Diagonal    ? n.diagonal
                                             : metric == M::Punctuation ? st.punctuation
                                                                        : st.alignment;
                        QVERIFY2(std::abs(v.cell(k, l, h, i) - want) < 1e-9,
                                 qPrintable(QStringLiteral("%1 %2 %3 record %4: %5 vs %6")
                                                .arg(int(k)).arg(l).arg(h).arg(i)
                                                .arg(v.cell(k, l, h, i)).arg(want)));
                    }
        }
    }
    // Hover: head, step and the three scores of the cell under the mouse.
    QCoreApplication::processEvents();
    ui::replotQueuedNow();
    const Naive n = naive(records[3]->cross[0], 3, 2);
    const QString text = test::hoverAt(v.plot(AttentionKind::Cross, 0),
                                       v.cellCentre(AttentionKind::Cross, 0, 2, 3));
    // The kind as the window names it (the Heads view's title), not the CLI's decoder.cross.
    QVERIFY2(text.startsWith(QStringLiteral("Decoder cross-attention · layer 1 · head 3\nstep 40 (record 4 of 5)")), qPrintable(text));
    for (double value : {n.entropy, n.confidence, n.diagonal})
        QVERIFY2(text.contains(QString::number(value, 'f', 3)), qPrintable(text));
    const HeadDynamicsPoint dynamics = headDynamicsOf(*records[3]);
    const HeadMapStats& st = dynamics.of(AttentionKind::Cross)[0][2];
    QVERIFY(st.punctuationShare > 0);  // 。 among the keys
    for (double value : {st.punctuation, st.punctuationShare, st.alignment})
        QVERIFY2(text.contains(QString::number(value, 'f', 3)), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("×") + QString::number(st.punctuationRatio(), 'f', 2)), qPrintable(text));
    QVERIFY(test::hoverAt(v.plot(AttentionKind::Cross, 0), QPointF(2, 2)).isEmpty());  // off the map
    QVERIFY(std::isnan(v.cell(AttentionKind::Cross, 0, 3, 0)));  // no head 4
    QVERIFY(std::isnan(v.cell(AttentionKind::Cross, 1, 0, 0)));  // no layer 2
}

void TestHeadDynamics::viewStartsOverAndThins()
{
    ui::HeadDynamicsView v;
    std::mt19937 rng(11);
    for (long step = 0; step < 10; ++step)
        v.addRecord(randomRecord(rng, step, 1, 1, 2, 3, 3));
    QCOMPARE(v.recordCount(), 10);
    // Hidden, nothing is drawn; shown, all of it; visible, new records within the interval.
    QCOMPARE(v.layers(AttentionKind::EncoderSelf), 0);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    QCOMPARE(v.layers(AttentionKind::EncoderSelf), 1);
    QVERIFY(!std::isnan(v.cell(AttentionKind::Cross, 0, 1, 9)));
    v.addRecord(randomRecord(rng, 10, 1, 1, 2, 3, 3));
    QVERIFY(std::isnan(v.cell(AttentionKind::Cross, 0, 1, 10)));
    QTRY_VERIFY(!std::isnan(v.cell(AttentionKind::Cross, 0, 1, 10)));
    v.hide();
    // An earlier step: a new run, of another shape.
    const auto fresh = randomRecord(rng, 2, 3, 2, 4, 3, 4);
    v.addRecord(fresh);
    v.drawNow();
    QCOMPARE(v.recordCount(), 1);
    QCOMPARE(v.layers(AttentionKind::EncoderSelf), 3);
    QCOMPARE(v.heads(), 4);
    v.setMetric(ui::HeadDynamicsView::Metric::Confidence);
    QVERIFY(std::abs(v.cell(AttentionKind::DecoderSelf, 1, 3, 0)
                     - naive(fresh->decoderSelf[1], 4, 3).confidence) < 1e-9);
    v.reset();
    QCOMPARE(v.recordCount(), 0);

    // Past the capacity the history is thinned (appendAttentionRecord); each column keeps its
    // own record's scores.
    std::vector<std::shared_ptr<const AttentionRecord>> all;
    for (long step = 0; step <= kAttentionHistoryCapacity; ++step) {
        all.push_back(randomRecord(rng, step, 1, 1, 1, 2, 2));
        v.addRecord(all.back());
    }
    std::vector<std::shared_ptr<const AttentionRecord>> expected;
    for (const auto& r : all)
        appendAttentionRecord(expected, r);
    v.drawNow();
    QCOMPARE(v.recordCount(), int(expected.size()));
    QVERIFY(v.recordCount() < int(all.size()));
    for (int i = 0; i < v.recordCount(); ++i) {
        QCOMPARE(v.stepAt(i), expected[i]->step);
        QVERIFY(std::abs(v.cell(AttentionKind::Cross, 0, 0, i) - naive(expected[i]->cross[0], 1, 0).confidence) < 1e-9);
    }
}

void TestHeadDynamics::clickShowsThatStepInAttention()
{
    MainWindow w;
    w.resize(1400, 900);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.applySettings(SessionSettings::defaultsFor("toy"));
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == 0; }, 20000));
    ui::HeadDynamicsView* dyn = w.views()->dynamics();
    ui::AttentionView* att = w.views()->attention();
    for (long target : {3L, 6L, 9L, 12L}) {
        w.link()->step(3);
        QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == target && dyn->stepAt(dyn->recordCount() - 1) == target; }, 30000));
    }
    QVERIFY(dyn->recordCount() >= 4);
    QCOMPARE(dyn->recordCount(), att->historySize());
    QVERIFY(att->isLive());

    w.views()->showView(dyn);
    QCoreApplication::processEvents();
    ui::replotQueuedNow();
    const int index = 1;  // an early record, not the live one
    const long step = dyn->stepAt(index);
    const int layer = dyn->layers(AttentionKind::Cross) - 1, head = dyn->heads() - 1;
    QCustomPlot* plot = dyn->plot(AttentionKind::Cross, layer);
    QVERIFY(plot && plot->isVisible());
    QTest::mouseClick(plot, Qt::LeftButton, {}, dyn->cellCentre(AttentionKind::Cross, layer, head, index));
    QVERIFY(att->isVisible());
    QCOMPARE(att->kind(), AttentionKind::Cross);
    QCOMPARE(att->layer(), layer);
    QCOMPARE(att->enlargedHead(), head);
    QCOMPARE(att->shownStep(), step);
    QCOMPARE(att->shownHistoryIndex(), index);
    auto* slider = att->findChild<QSlider*>();
    QVERIFY(slider);
    QCOMPARE(slider->value(), index);
    QVERIFY(!att->isLive());

    // Saved and opened again after another run began: the checkpoint's history, every record.
    std::vector<long> steps;
    std::vector<double> values;
    dyn->setMetric(ui::HeadDynamicsView::Metric::Diagonal);
    for (int i = 0; i < dyn->recordCount(); ++i) {
        steps.push_back(dyn->stepAt(i));
        values.push_back(dyn->cell(AttentionKind::Cross, layer, head, i));
    }
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("run.ckpt"));
    QVERIFY(test::saveCheckpointFromWindow(w, path, 30000));
    w.applySettings(SessionSettings::defaultsFor("toy"));
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == 0 && dyn->recordCount() <= 1; }, 20000));
    QSignalSpy restored(&w, &MainWindow::sessionRestored);
    w.files()->openCheckpoint(path);
    QVERIFY(restored.wait(30000));
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == 12 && dyn->recordCount() == int(steps.size()); }, 20000));
    QCOMPARE(dyn->recordCount(), att->historySize());
    dyn->drawNow();
    for (int i = 0; i < dyn->recordCount(); ++i) {
        QCOMPARE(dyn->stepAt(i), steps[std::size_t(i)]);
        QVERIFY(std::abs(dyn->cell(AttentionKind::Cross, layer, head, i) - values[std::size_t(i)]) < 1e-6);
    }
}

// The line above the maps names the probe: a translator's as source → target, a decoder-only
// model's (no source) as its text alone, not "→ text".
void TestHeadDynamics::probeLineOfEachKindOfModel()
{
    std::mt19937 rng(11);
    ui::HeadDynamicsView v;
    v.addRecord(randomRecord(rng, 5, 1, 1, 2, 3, 4));
    v.drawNow();
    QVERIFY2(v.infoText().contains(QStringLiteral("probe: s0 s1 。 → t1 t2 .")), qPrintable(v.infoText()));
    v.reset();
    auto lm = std::make_shared<AttentionRecord>(*randomRecord(rng, 5, 0, 2, 2, 3, 4));
    lm->srcTokens.clear();
    lm->cross.clear();
    v.addRecord(lm);
    v.drawNow();
    QVERIFY2(v.infoText().contains(QStringLiteral("probe: t1 t2 . ·")) && !v.infoText().contains(QChar(0x2192)),
             qPrintable(v.infoText()));
}

AS_TEST_MAIN(TestHeadDynamics)
#include "test_head_dynamics.moc"
