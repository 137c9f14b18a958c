// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The Health view draws the records it is given: the heatmap's cells are log10 of the records'
// update ratios (recomputed here in double from the values put in), tensors in forward order
// as the layout gives it, one column per step; a zero ratio is no colour; a non-finite record
// puts the marker on its tensor's row at its step; past the capacity, records are thinned and
// the columns stay in step order. The profile table shows the records' totals: per category ms
// per step, % of the wall time, GFLOP/s of the products, and the thread wait in the regions
// each category started.
#include "skip.h"
#include "health_view.h"

#include <QTableWidget>
#include <QtTest>

#include <cmath>

using namespace as;

class TestUiHealth : public QObject {
    Q_OBJECT
private slots:
    void cellsAreLog10OfUpdateRatios();
    void markerAtTheNonFiniteTensor();
    void longRunsAreThinned();
    void profileTableShowsTheRecords();
};

namespace {

// Three tensors; the table order differs from the forward order.
std::shared_ptr<const HealthLayout> layout()
{
    auto l = std::make_shared<HealthLayout>();
    l->names = {"tgt_embed.weight", "src_embed.weight", "encoder.layers.0.ffn.w1.weight", "generator.weight"};
    l->forward = {1, 2, 0, 3};
    for (const std::string& n : l->names)
        l->groups.push_back(tensorGroup(n));
    return l;
}

double ratioOf(int tensor, long step)
{
    if (tensor == 3 && step == 2)
        return 0;  // a tensor that did not move
    return std::pow(10.0, -1.0 - 0.37 * tensor - 0.11 * double(step % 7));
}

std::shared_ptr<const HealthRecord> record(long step)
{
    auto t = std::make_shared<std::vector<TensorHealth>>(4);
    for (int i = 0; i < 4; ++i) {
        (*t)[std::size_t(i)].updateRatio = ratioOf(i, step);
        (*t)[std::size_t(i)].gradNorm = 0.5 + i;
    }
    return std::make_shared<const HealthRecord>(HealthRecord{step, t});
}

}  // namespace

void TestUiHealth::cellsAreLog10OfUpdateRatios()
{
    ui::HealthView v;
    v.resize(900, 700);
    TrainingSnapshot s;
    s.health.layout = layout();
    for (long step = 1; step <= 3; ++step)
        s.health.records.push_back(record(step));
    v.applySnapshot(s);
    TrainingSnapshot s2;
    s2.health.layout = s.health.layout;  // the same session
    for (long step = 4; step <= 6; ++step)
        s2.health.records.push_back(record(step));
    v.applySnapshot(s2);
    v.redrawNow();
    QCOMPARE(v.recordCount(), 6);
    const ui::Heatmap& h = v.ratioMap();
    QCOMPARE(h.rows, 4);
    QCOMPARE(h.cols, 6);
    const int forward[] = {1, 2, 0, 3};  // as the layout says
    for (int r = 0; r < 4; ++r) {
        QCOMPARE(v.tensorOfRow(r), forward[r]);
        QCOMPARE(v.rowOfTensor(forward[r]), r);
        for (int c = 0; c < 6; ++c) {
            QCOMPARE(v.stepOfColumn(c), long(c + 1));
            const double want = ratioOf(forward[r], c + 1);
            const double got = ui::heatmapCell(h, r, c);
            if (want == 0)
                QVERIFY2(std::isnan(got), qPrintable(QString::number(got)));
            else
                QVERIFY2(std::abs(got - std::log10(want)) < 1e-12,
                         qPrintable(QStringLiteral("row %1 col %2: %3 vs %4").arg(r).arg(c).arg(got).arg(std::log10(want))));
        }
    }
    // Cell c is drawn at step c + 1.
    double key = 0, value = 0;
    h.map->data()->cellToCoord(4, 0, &key, &value);
    QCOMPARE(key, 5.0);
    QVERIFY(!v.nonFiniteMarker(&key, &value));
    // The line plots: one graph per chosen tensor, its update ratios by step.
    v.chooseTensors({2});
    QCOMPARE(v.chosenTensors(), std::vector<int>{2});
    QCOMPARE(v.ratioLinesPlot()->graphCount(), 1);
    QCOMPARE(v.ratioLinesPlot()->graph(0)->dataCount(), 6);
    QCOMPARE(v.ratioLinesPlot()->graph(0)->data()->at(2)->value, ratioOf(2, 3));
    QCOMPARE(v.gradLinesPlot()->graph(0)->data()->at(2)->value, 2.5);
    QCOMPARE(v.histogramTensor(), 2);
}

void TestUiHealth::markerAtTheNonFiniteTensor()
{
    ui::HealthView v;
    TrainingSnapshot s;
    s.health.layout = layout();
    s.health.records = {record(1), record(2)};
    s.health.nonFinite = std::make_shared<const NonFiniteRecord>(NonFiniteRecord{3, 2, QStringLiteral("step 3: …")});
    v.applySnapshot(s);
    v.redrawNow();
    double step = 0, row = 0;
    QVERIFY(v.nonFiniteMarker(&step, &row));
    QCOMPARE(step, 3.0);
    QCOMPARE(row, 1.0);  // encoder.layers.0.ffn.w1.weight is second in forward order
    QVERIFY2(v.faultText().contains(QStringLiteral("encoder.layers.0.ffn.w1.weight at step 3")), qPrintable(v.faultText()));
    // The skipped step is in view.
    QVERIFY(v.ratioPlot()->xAxis->range().contains(3.0));
    // Another session: the marker is gone.
    TrainingSnapshot other;
    other.health.layout = layout();
    v.applySnapshot(other);
    v.redrawNow();
    QVERIFY(!v.nonFiniteMarker(&step, &row));
    QVERIFY(v.faultText().isEmpty());
}

void TestUiHealth::longRunsAreThinned()
{
    ui::HealthView v;
    TrainingSnapshot s;
    s.health.layout = layout();
    const long n = ui::HealthView::kRecordCapacity * 2 + 5;
    for (long step = 1; step <= n; ++step)
        s.health.records.push_back(record(step));
    v.applySnapshot(s);
    v.redrawNow();
    QVERIFY(v.recordCount() <= ui::HealthView::kRecordCapacity);
    const ui::Heatmap& h = v.ratioMap();
    QVERIFY(h.cols > 1 && h.cols <= ui::HealthView::kMaxColumns);
    QCOMPARE(v.stepOfColumn(0), 1L);
    QCOMPARE(v.stepOfColumn(h.cols - 1), n);
    for (int c = 1; c < h.cols; ++c)
        QVERIFY(v.stepOfColumn(c) > v.stepOfColumn(c - 1));
    // The last column shows the last record.
    QVERIFY(std::abs(ui::heatmapCell(h, 0, h.cols - 1) - std::log10(ratioOf(1, n))) < 1e-12);
}

void TestUiHealth::profileTableShowsTheRecords()
{
    ui::HealthView v;
    v.resize(900, 700);
    QTableWidget* t = v.profileTable();
    QCOMPARE(t->rowCount(), kProfileCategories + 1);
    QCOMPARE(t->columnCount(), 5);
    QVERIFY(t->item(0, 0)->text().isEmpty());  // nothing profiled yet
    // Two snapshots' records: 2 steps of 40 ms, then 2 of 60 ms (the view adds them up).
    constexpr double sumOfWeights = kProfileCategories * (kProfileCategories + 1) / 2.0;  // Σ(i+1)
    const auto record = [](double scale) {
        auto p = std::make_shared<ProfileTotals>();
        p->steps = 2;
        for (int i = 0; i < kProfileCategories; ++i)
            p->seconds[std::size_t(i)] = scale * 0.001 * (i + 1) / sumOfWeights * 80;
        p->wallSeconds = scale * 0.080;
        p->flops[std::size_t(ProfileCategory::GemmFeedForward)] = scale * 2e9;
        p->calls[std::size_t(ProfileCategory::GemmFeedForward)] = 12;
        // The wait (its own row's time) split between the two categories whose regions it was in.
        const double wait = p->seconds[std::size_t(ProfileCategory::ThreadWait)];
        p->waitSeconds[std::size_t(ProfileCategory::GemmFeedForward)] = 0.75 * wait;
        p->waitSeconds[std::size_t(ProfileCategory::Dropout)] = 0.25 * wait;
        // The libraries: oneDNN for the feed-forward's forward and weight gradient, OpenBLAS
        // for its input gradient; Eigen for every projection; the generator OpenBLAS's (the
        // default) in the first record, oneDNN's in the second (the later record's is shown).
        p->gemmLibraries.fill(GemmLibrary::OpenBlas);
        p->gemmLibraries[std::size_t(gemmSite(GemmKind::FeedForward, GemmPass::Forward))] = GemmLibrary::OneDnn;
        p->gemmLibraries[std::size_t(gemmSite(GemmKind::FeedForward, GemmPass::WeightGradient))] = GemmLibrary::OneDnn;
        for (int pass = 0; pass < kGemmPasses; ++pass) {
            p->gemmLibraries[std::size_t(gemmSite(GemmKind::Projections, GemmPass(pass)))] = GemmLibrary::Eigen;
            if (scale > 1)
                p->gemmLibraries[std::size_t(gemmSite(GemmKind::Generator, GemmPass(pass)))] = GemmLibrary::OneDnn;
        }
        return std::shared_ptr<const ProfileTotals>(p);
    };
    TrainingSnapshot s;
    s.health.layout = layout();
    s.health.profile = record(1.0);
    v.applySnapshot(s);
    s.health.profile = record(1.5);
    v.applySnapshot(s);
    QCOMPARE(v.profile().steps, 4L);
    const double wall = 0.080 + 0.120;
    for (int i = 0; i < kProfileCategories; ++i) {
        const double sec = 2.5 * 0.001 * (i + 1) / sumOfWeights * 80;
        QCOMPARE(t->item(i, 0)->text(), QString::number(sec * 1e3 / 4, 'f', 2));
        QCOMPARE(t->item(i, 1)->text(), QString::number(100 * sec / wall, 'f', 1));
        if (ProfileCategory(i) == ProfileCategory::GemmFeedForward)
            QCOMPARE(t->item(i, 2)->text(), QString::number(2.5 * 2e9 / sec / 1e9, 'f', 1));
        else if (!isGemmCategory(ProfileCategory(i)))
            QVERIFY(t->item(i, 2)->text().isEmpty());
        const double waitSec = 2.5 * 0.001 * (int(ProfileCategory::ThreadWait) + 1) / sumOfWeights * 80;
        const double share = ProfileCategory(i) == ProfileCategory::GemmFeedForward ? 0.75
                             : ProfileCategory(i) == ProfileCategory::Dropout       ? 0.25
                                                                                    : 0.0;
        if (ProfileCategory(i) == ProfileCategory::ThreadWait)
            QVERIFY(t->item(i, 3)->text().isEmpty());
        else
            QCOMPARE(t->item(i, 3)->text(), QString::number(share * waitSec * 1e3 / 4, 'f', 2));
    }
    const auto library = [&](ProfileCategory c) { return t->item(int(c), 4)->text(); };
    const auto inWords = [&](ProfileCategory c) { return t->item(int(c), 4)->toolTip(); };
    QCOMPARE(library(ProfileCategory::GemmFeedForward), QStringLiteral("oneDNN · ∂x: OpenBLAS"));
    QCOMPARE(inWords(ProfileCategory::GemmFeedForward),
             QStringLiteral("oneDNN (forward, weight gradient) · OpenBLAS (input gradient)"));
    QCOMPARE(library(ProfileCategory::GemmAttentionProjections), QStringLiteral("Eigen"));
    QCOMPARE(inWords(ProfileCategory::GemmAttentionProjections), QStringLiteral("Eigen"));
    QCOMPARE(library(ProfileCategory::GemmGenerator), QStringLiteral("oneDNN"));
    QCOMPARE(library(ProfileCategory::GemmAttentionScores), QStringLiteral("the engine's own loops"));
    QCOMPARE(library(ProfileCategory::GemmAttentionContext), QStringLiteral("the engine's own loops"));
    for (ProfileCategory c : {ProfileCategory::Adam, ProfileCategory::LayerNorm, ProfileCategory::ThreadWait})
        QVERIFY(library(c).isEmpty());
    const int step = kProfileCategories;
    QVERIFY(t->item(step, 4)->text().isEmpty());
    QCOMPARE(t->item(step, 0)->text(), QStringLiteral("50.00"));  // 200 ms over 4 steps
    QCOMPARE(t->item(step, 1)->text(), QStringLiteral("100.0"));  // the categories cover it all
    QVERIFY(t->item(step, 3)->text().isEmpty());
    // A snapshot without a record leaves the table; a reset empties it.
    s.health.profile.reset();
    v.applySnapshot(s);
    QCOMPARE(t->item(step, 0)->text(), QStringLiteral("50.00"));
    v.reset();
    QCOMPARE(v.profile().steps, 0L);
    QVERIFY(t->item(step, 0)->text().isEmpty());
    // A bfloat16 step: the title says the precision, and every layer's products say oneDNN and
    // the CPU's units that computed them (whatever the float32 choice was); the attention's own
    // products stay the engine's.
    auto bf16 = std::make_shared<ProfileTotals>(*record(1.0));
    bf16->precision = GemmPrecision::BFloat16;
    bf16->bf16Kernel = Bf16Kernel::OneDnn;
    bf16->bf16Units = QStringLiteral("AMX-BF16");
    s.health.profile = bf16;
    v.applySnapshot(s);
    QVERIFY2(v.profileTitle().contains(QStringLiteral("bfloat16 mixed precision")), qPrintable(v.profileTitle()));
    for (ProfileCategory c : {ProfileCategory::GemmFeedForward, ProfileCategory::GemmAttentionProjections,
                              ProfileCategory::GemmGenerator}) {
        QCOMPARE(library(c), QStringLiteral("oneDNN bfloat16 · AMX-BF16"));
        QCOMPARE(inWords(c), QStringLiteral("oneDNN, bfloat16 inputs and float32 sums in the CPU's AMX-BF16 units "
                                            "(every pass)"));
    }
    QCOMPARE(library(ProfileCategory::GemmAttentionScores), QStringLiteral("the engine's own loops"));
    // The engine's own kernel (AVX512-BF16) says so, not oneDNN.
    auto own = std::make_shared<ProfileTotals>(*bf16);
    own->bf16Kernel = Bf16Kernel::Packed;
    own->bf16Units = QStringLiteral("AVX512-BF16");
    s.health.profile = own;
    v.applySnapshot(s);
    for (ProfileCategory c : {ProfileCategory::GemmFeedForward, ProfileCategory::GemmAttentionProjections,
                              ProfileCategory::GemmGenerator}) {
        QCOMPARE(library(c), QStringLiteral("own bfloat16 · AVX512-BF16"));
        QCOMPARE(inWords(c), QStringLiteral("the engine's own kernel, bfloat16 inputs and float32 sums in the CPU's "
                                            "AVX512-BF16 units (every pass)"));
    }
}

AS_TEST_MAIN(TestUiHealth)
#include "test_ui_health.moc"
