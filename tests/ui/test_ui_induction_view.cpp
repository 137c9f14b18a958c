// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The Induction heads view (issue 61) draws the records it is given, made here by hand: the
// map's cells are the shown record's scores for each metric, on every replayed record, and the
// view follows new records only while it shows the latest; the phase change is marked at the
// step phaseChangeStep gives for the records measured without ablation (an ablation's record
// that meets the rule earlier does not move it), and not at all while no record meets it;
// records measured with heads ablated are drawn in the ablated series, beside the lines of the
// others; the ablate buttons ask for the top induction head and for the strongest
// previous-token head of an earlier layer (not of the same layer), from the last record
// measured without ablation; a click on a head asks for it at the shown step; reset() forgets
// everything. The Loss view marks the phase change it is given, by step and by wall time, and
// its CSV export has the row.
#include "skip.h"
#include "hover.h"
#include "induction_view.h"
#include "loss_view.h"
#include "replay_bar.h"

#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

#include <cmath>

using namespace as;
using namespace Qt::StringLiterals;

class TestUiInductionView : public QObject {
    Q_OBJECT
private slots:
    void mapCellsAreTheShownRecordsScores();
    void replayFollowsTheLiveEndOnly();
    void phaseChangeMarkedWhereTheRuleHolds();
    void noPhaseChangeWhileTheRuleNeverHolds();
    void ablatedRecordsInTheAblatedSeries();
    void ablateButtonsAskForTheCircuitsHeads();
    void clickingAHeadAsksForItAtTheShownStep();
    void resetForgetsEverything();
    void explanationWithoutRecords();
    void lossViewMarksThePhaseChange();
};

namespace {

using RecordPtr = std::shared_ptr<const InductionRecord>;

// A record of `layers` × `heads` heads whose four scores differ per head, per metric and per
// step (so that a cell drawn from the wrong head, metric or record shows).
InductionRecord scored(long step, int layers, int heads)
{
    InductionRecord r;
    r.step = step;
    r.layers = layers;
    r.heads = heads;
    const int n = layers * heads;
    for (int i = 0; i < n; ++i) {
        const double s = double(step) / 10000.0;
        r.induction.push_back(0.05 + 0.07 * i + s);
        r.previous.push_back(0.9 - 0.06 * i - s);
        r.duplicate.push_back(0.02 + 0.011 * i + 2 * s);
        r.copying.push_back(-1.5 + 0.4 * i + 3 * s);  // signed: a logit effect
    }
    r.composition.assign(std::size_t(n) * std::size_t(n), std::nan(""));
    for (int later = 0; later < n; ++later)
        for (int earlier = 0; earlier < n; ++earlier)
            if (earlier / heads < later / heads)
                r.composition[std::size_t(later) * std::size_t(n) + std::size_t(earlier)] = 0.01 * (later + 1) + 0.001 * earlier;
    r.compositionBaseline = 0.125;
    for (int p = 0; p < 12; ++p)
        r.positionLoss.push_back(4.0 - 0.1 * p - double(step) / 20000.0);
    r.firstCopyLoss = 4.0;
    r.laterCopyLoss = 3.9;
    r.inContextScore = -0.2;
    return r;
}

// The phase-change rule's inputs alone: top induction score, first and later copies' loss.
RecordPtr point(long step, double top, double first, double later, std::vector<int> masked = {})
{
    InductionRecord r = scored(step, 2, 2);
    r.induction = {0.01, 0.02, top, 0.03};  // the top head: layer 2, head 1
    r.firstCopyLoss = first;
    r.laterCopyLoss = later;
    r.inContextScore = later - first;
    r.masked = std::move(masked);
    return std::make_shared<const InductionRecord>(std::move(r));
}

double valueOf(const InductionRecord& r, ui::InductionView::Metric m, int i)
{
    using M = ui::InductionView::Metric;
    const std::vector<double>& v = m == M::Induction ? r.induction
                                   : m == M::Previous ? r.previous
                                   : m == M::Duplicate ? r.duplicate
                                                       : r.copying;
    return v[std::size_t(i)];
}

std::vector<double> keys(const QCPGraph* g)
{
    std::vector<double> k;
    for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
        k.push_back(it->key);
    return k;
}

std::vector<double> values(const QCPGraph* g)
{
    std::vector<double> v;
    for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
        v.push_back(it->value);
    return v;
}

bool inLegend(const QCPGraph* g)
{
    return g->parentPlot()->legend->hasItemWithPlottable(g);
}

}  // namespace

void TestUiInductionView::mapCellsAreTheShownRecordsScores()
{
    using M = ui::InductionView::Metric;
    ui::InductionView v;
    std::vector<RecordPtr> records;
    for (long step : {100L, 200L, 300L}) {
        records.push_back(std::make_shared<const InductionRecord>(scored(step, 2, 3)));
        v.addRecord(records.back());
    }
    v.drawNow();
    QCOMPARE(v.recordCount(), 3);
    QVERIFY(!v.placeholderShown());
    for (int index = 0; index < 3; ++index) {
        v.showRecord(index);
        QCOMPARE(v.shownStep(), records[std::size_t(index)]->step);
        for (M m : {M::Induction, M::Previous, M::Duplicate, M::Copying}) {
            v.setMetric(m);
            for (int l = 0; l < 2; ++l)
                for (int h = 0; h < 3; ++h) {
                    const double want = valueOf(*records[std::size_t(index)], m, l * 3 + h);
                    QVERIFY2(v.mapCell(l, h) == want,
                             qPrintable(u"metric %1 record %2 layer %3 head %4: %5, want %6"_s.arg(int(m)).arg(index)
                                            .arg(l).arg(h).arg(v.mapCell(l, h)).arg(want)));
                }
            QVERIFY(std::isnan(v.mapCell(2, 0)) && std::isnan(v.mapCell(0, 3)));  // outside: 2 × 3
        }
    }
    // The colour scale: attention scores in 0 … 1; copying symmetric about 0, over the run.
    v.setMetric(M::Induction);
    QCOMPARE(v.colourRange().lower, 0.0);
    QCOMPARE(v.colourRange().upper, 1.0);
    v.setMetric(M::Copying);
    double top = 0;
    for (const RecordPtr& r : records)
        for (double c : r->copying)
            top = std::max(top, std::abs(c));
    QCOMPARE(v.colourRange().upper, top);
    QCOMPARE(v.colourRange().lower, -top);

    // The hover read-out gives the cell's exact values.
    v.setMetric(M::Induction);
    v.resize(1100, 700);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    v.showRecord(1);
    ui::replotQueuedNow();
    const QString text = test::hoverAt(v.mapPlot(), v.mapCellCentre(1, 2));
    const InductionRecord& r = *records[1];
    QVERIFY2(text.startsWith(u"layer 2 · head 3 (decoder.self:1:2) · step 200"_s), qPrintable(text));
    for (double x : {r.induction[5], r.previous[5], r.duplicate[5], r.copying[5]})
        QVERIFY2(text.contains(QString::number(x, 'f', 3)), qPrintable(text));
}

void TestUiInductionView::replayFollowsTheLiveEndOnly()
{
    ui::InductionView v;
    v.addRecord(std::make_shared<const InductionRecord>(scored(100, 2, 2)));
    v.addRecord(std::make_shared<const InductionRecord>(scored(200, 2, 2)));
    v.drawNow();
    QVERIFY(v.isLive());
    QCOMPARE(v.shownStep(), 200L);
    // Live: a new record is shown.
    v.addRecord(std::make_shared<const InductionRecord>(scored(300, 2, 2)));
    v.drawNow();
    QCOMPARE(v.shownStep(), 300L);
    QCOMPARE(v.mapCell(1, 1), scored(300, 2, 2).induction[3]);
    // Replaying record 1: a new record does not move it.
    v.showRecord(1);
    v.addRecord(std::make_shared<const InductionRecord>(scored(400, 2, 2)));
    v.drawNow();
    QCOMPARE(v.shownStep(), 200L);
    QVERIFY(!v.isLive());
    QCOMPARE(v.mapCell(1, 1), scored(200, 2, 2).induction[3]);
    QCOMPARE(v.replayBar()->index(), 1);
    QCOMPARE(v.replayBar()->size(), 4);
    // Live again.
    v.showLive();
    QCOMPARE(v.shownStep(), 400L);
    QVERIFY(v.isLive());
}

void TestUiInductionView::phaseChangeMarkedWhereTheRuleHolds()
{
    // By hand (§13.5: top induction ≥ 0.3 and later copies ≥ 1 nat below the first):
    // 100: top too low; 200: the gap too small; 300: both, but measured with a head ablated (not
    // the trained model); 400: both (0.31, gap 1.1) — the phase change; 500: both again.
    const std::vector<RecordPtr> run = {point(100, 0.2, 4.0, 2.0), point(200, 0.35, 4.0, 3.5),
                                        point(300, 0.5, 4.0, 1.0, {2}), point(400, 0.31, 4.0, 2.9),
                                        point(500, 0.8, 4.0, 0.5)};
    std::vector<RecordPtr> trained;
    for (const RecordPtr& r : run)
        if (r->masked.empty())
            trained.push_back(r);
    QCOMPARE(phaseChangeStep(trained), std::optional<long>(400));
    QCOMPARE(phaseChangeStep(run), std::optional<long>(300));  // what counting the ablation would give

    ui::InductionView v;
    QSignalSpy told(&v, &ui::InductionView::phaseChangeChanged);
    for (const RecordPtr& r : run) {
        v.addRecord(r);
        if (r->step == 300)
            QCOMPARE(told.count(), 0);  // not at the ablation's record
    }
    v.drawNow();
    QCOMPARE(v.phaseChange(), std::optional<long>(400));
    QCOMPARE(told.count(), 1);  // once, when it came
    QCOMPARE(told.at(0).at(0).toLongLong(), 400LL);
    for (int plot = 0; plot < 2; ++plot) {
        QVERIFY(v.phaseLine(plot)->visible());
        QCOMPARE(v.phaseLine(plot)->point1->key(), 400.0);
        QCOMPARE(v.phaseLine(plot)->point2->key(), 400.0);
        QVERIFY(v.phaseLabel(plot)->visible());
        QVERIFY2(v.phaseLabel(plot)->text().contains(u"400"_s), qPrintable(v.phaseLabel(plot)->text()));
        QCOMPARE(v.phaseLabel(plot)->position->key(), 400.0);
    }
    QVERIFY2(v.infoText().contains(u"phase change at step 400"_s), qPrintable(v.infoText()));
}

void TestUiInductionView::noPhaseChangeWhileTheRuleNeverHolds()
{
    ui::InductionView v;
    QSignalSpy told(&v, &ui::InductionView::phaseChangeChanged);
    // Each misses one condition (or was measured with heads ablated).
    for (const RecordPtr& r : {point(100, 0.29, 4.0, 1.0), point(200, 0.9, 4.0, 3.1),
                               point(300, 0.9, 4.0, 0.5, {1, 2})})
        v.addRecord(r);
    v.drawNow();
    QVERIFY(!v.phaseChange());
    QCOMPARE(told.count(), 0);
    for (int plot = 0; plot < 2; ++plot) {
        QVERIFY(!v.phaseLine(plot)->visible());
        QVERIFY(!v.phaseLabel(plot)->visible());
    }
    QVERIFY2(v.infoText().contains(u"no phase change yet"_s), qPrintable(v.infoText()));
    // The record that meets it: marked.
    v.addRecord(point(400, 0.9, 4.0, 0.5));
    v.drawNow();
    QCOMPARE(v.phaseChange(), std::optional<long>(400));
    QVERIFY(v.phaseLine(0)->visible());
}

void TestUiInductionView::ablatedRecordsInTheAblatedSeries()
{
    ui::InductionView v;
    v.addRecord(point(100, 0.1, 4.0, 3.9));
    v.addRecord(point(200, 0.6, 4.1, 1.0));
    v.drawNow();
    // No ablated record yet: its series empty, and not in the legend.
    QVERIFY(v.laterCopyGraph(true)->data()->isEmpty());
    QVERIFY(!inLegend(v.laterCopyGraph(true)));
    v.addRecord(point(300, 0.2, 4.2, 3.7, {2}));  // the induction head ablated
    v.addRecord(point(400, 0.65, 4.0, 0.9));
    v.addRecord(point(500, 0.25, 4.1, 3.8, {2}));
    v.drawNow();
    using V = std::vector<double>;
    QCOMPARE(keys(v.firstCopyGraph(false)), (V{100, 200, 400}));
    QCOMPARE(values(v.firstCopyGraph(false)), (V{4.0, 4.1, 4.0}));
    QCOMPARE(keys(v.laterCopyGraph(false)), (V{100, 200, 400}));
    QCOMPARE(values(v.laterCopyGraph(false)), (V{3.9, 1.0, 0.9}));
    QCOMPARE(keys(v.firstCopyGraph(true)), (V{300, 500}));
    QCOMPARE(values(v.firstCopyGraph(true)), (V{4.2, 4.1}));
    QCOMPARE(keys(v.laterCopyGraph(true)), (V{300, 500}));
    QCOMPARE(values(v.laterCopyGraph(true)), (V{3.7, 3.8}));
    QCOMPARE(keys(v.inContextGraph(true)), (V{300, 500}));
    QCOMPARE(values(v.inContextGraph(false)), (V{3.9 - 4.0, 1.0 - 4.1, 0.9 - 4.0}));
    // Markers alone (no line), and one legend entry, "with heads ablated".
    QCOMPARE(v.laterCopyGraph(true)->lineStyle(), QCPGraph::lsNone);
    QVERIFY(v.laterCopyGraph(true)->scatterStyle().shape() != QCPScatterStyle::ssNone);
    QCOMPARE(v.laterCopyGraph(false)->lineStyle(), QCPGraph::lsLine);
    QVERIFY(inLegend(v.laterCopyGraph(true)));
    QCOMPARE(v.laterCopyGraph(true)->name(), u"with heads ablated"_s);
    // The scores' lines are the trained model's records.
    QCOMPARE(keys(v.inductionGraph(2)), (V{100, 200, 400}));
    QCOMPARE(values(v.inductionGraph(2)), (V{0.1, 0.6, 0.65}));
    // The ablation's record shown: its loss at each position beside the last record without.
    v.drawNow();
    QVERIFY(v.isLive());
    const RecordPtr last = v.shownRecord();
    QCOMPARE(last->step, 500L);
    QCOMPARE(values(v.positionGraph()), last->positionLoss);
    QCOMPARE(values(v.positionReferenceGraph()), point(400, 0.65, 4.0, 0.9)->positionLoss);
    v.showRecord(3);  // step 400, without ablation: no reference
    QVERIFY(v.positionReferenceGraph()->data()->isEmpty());
}

void TestUiInductionView::ablateButtonsAskForTheCircuitsHeads()
{
    // Three layers of two heads. Top induction head: layer 3, head 2 (index 5). Previous-token
    // scores: the strongest overall is layer 3's own head 1 (index 4, not an earlier layer),
    // then layer 2 head 1 (index 2) — the one that feeds it.
    InductionRecord r = scored(700, 3, 2);
    r.induction = {0.01, 0.05, 0.1, 0.2, 0.3, 0.72};
    r.previous = {0.3, 0.1, 0.8, 0.2, 0.95, 0.05};
    const auto trained = std::make_shared<const InductionRecord>(r);
    ui::InductionView v;
    v.addRecord(trained);
    v.drawNow();
    const HeadId top{AttentionKind::DecoderSelf, 2, 1}, feeder{AttentionKind::DecoderSelf, 1, 0};
    QCOMPARE(v.circuitInductionHead(), std::optional<HeadId>(top));
    QCOMPARE(v.circuitPreviousHead(), std::optional<HeadId>(feeder));
    QCOMPARE(v.circuitComposition(), r.composition[5 * 6 + 2]);
    // The bars: the induction head's K-composition with each head of layers 1 and 2.
    QCOMPARE(v.compositionBars()->dataCount(), 4);
    for (int e = 0; e < 4; ++e)
        QCOMPARE(v.compositionBars()->data()->at(e)->value, r.composition[std::size_t(5 * 6 + e)]);

    std::vector<std::vector<HeadId>> asked;
    connect(&v, &ui::InductionView::ablationRequested, &v, [&](const std::vector<HeadId>& h) { asked.push_back(h); });
    QVERIFY(v.ablateInductionButton()->isEnabled());
    QVERIFY(v.ablatePreviousButton()->isEnabled());
    QVERIFY(!v.restoreButton()->isEnabled());  // nothing muted
    v.ablateInductionButton()->click();
    v.ablatePreviousButton()->click();
    QCOMPARE(asked.size(), std::size_t(2));
    QCOMPARE(asked[0], std::vector<HeadId>{top});
    QCOMPARE(asked[1], std::vector<HeadId>{feeder});
    // The window mutes it: Restore asks for no mute.
    v.setMuted({top});
    QVERIFY(v.restoreButton()->isEnabled());
    v.restoreButton()->click();
    QCOMPARE(asked.size(), std::size_t(3));
    QVERIFY(asked[2].empty());

    // A record measured with the induction head ablated has another top head: the circuit
    // stays the trained model's (the last record without ablation).
    InductionRecord a = r;
    a.step = 725;
    a.induction = {0.01, 0.05, 0.1, 0.2, 0.4, 0.02};
    a.masked = {5};
    v.addRecord(std::make_shared<const InductionRecord>(a));
    v.drawNow();
    QCOMPARE(v.shownStep(), 725L);
    QCOMPARE(v.circuitInductionHead(), std::optional<HeadId>(top));
    v.ablateInductionButton()->click();
    QCOMPARE(asked.back(), std::vector<HeadId>{top});

    // The top induction head in the first layer: no earlier head, no previous-token button.
    InductionRecord first = scored(100, 2, 2);
    first.induction = {0.1, 0.9, 0.2, 0.3};
    ui::InductionView w;
    w.addRecord(std::make_shared<const InductionRecord>(first));
    w.drawNow();
    QCOMPARE(w.circuitInductionHead(), std::optional<HeadId>(HeadId{AttentionKind::DecoderSelf, 0, 1}));
    QVERIFY(!w.circuitPreviousHead());
    QVERIFY(w.ablateInductionButton()->isEnabled());
    QVERIFY(!w.ablatePreviousButton()->isEnabled());
    QCOMPARE(w.compositionBars()->dataCount(), 0);
}

void TestUiInductionView::clickingAHeadAsksForItAtTheShownStep()
{
    ui::InductionView v;
    for (long step : {100L, 200L, 300L})
        v.addRecord(std::make_shared<const InductionRecord>(scored(step, 2, 4)));
    v.resize(1100, 700);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    v.showRecord(1);
    ui::replotQueuedNow();
    QSignalSpy clicked(&v, &ui::InductionView::headClicked);
    QTest::mouseClick(v.mapPlot(), Qt::LeftButton, {}, v.mapCellCentre(1, 3));
    QCOMPARE(clicked.count(), 1);
    QCOMPARE(clicked.at(0).at(0).value<HeadId>(), (HeadId{AttentionKind::DecoderSelf, 1, 3}));
    QCOMPARE(clicked.at(0).at(1).toLongLong(), 200LL);
}

void TestUiInductionView::resetForgetsEverything()
{
    ui::InductionView v;
    for (const RecordPtr& r : {point(100, 0.1, 4.0, 3.9), point(200, 0.6, 4.0, 1.0), point(300, 0.2, 4.0, 3.8, {2})})
        v.addRecord(r);
    v.setMuted({HeadId{AttentionKind::DecoderSelf, 1, 0}});
    v.drawNow();
    QCOMPARE(v.phaseChange(), std::optional<long>(200));
    QVERIFY(!v.placeholderShown());
    QSignalSpy told(&v, &ui::InductionView::phaseChangeChanged);
    v.reset();
    QCOMPARE(v.recordCount(), 0);
    QCOMPARE(v.shownIndex(), -1);
    QVERIFY(!v.phaseChange());
    QCOMPARE(told.count(), 1);
    QCOMPARE(told.at(0).at(0).toLongLong(), -1LL);
    QVERIFY(v.placeholderShown());
    QVERIFY(std::isnan(v.mapCell(0, 0)));
    for (bool ablated : {false, true})
        for (QCPGraph* g : {v.firstCopyGraph(ablated), v.laterCopyGraph(ablated), v.inContextGraph(ablated)})
            QVERIFY(g->data()->isEmpty());
    for (int i = 0; i < 4; ++i)
        QVERIFY(v.inductionGraph(i)->data()->isEmpty() && v.previousGraph(i)->data()->isEmpty());
    QVERIFY(v.positionGraph()->data()->isEmpty());
    QCOMPARE(v.compositionBars()->dataCount(), 0);
    QVERIFY(!v.phaseLine(0)->visible() && !v.phaseLine(1)->visible());
    QVERIFY(!v.circuitInductionHead());
    QVERIFY(!v.ablateInductionButton()->isEnabled());
    QVERIFY(!v.restoreButton()->isEnabled());  // the mutes forgotten with the model
    QCOMPARE(v.replayBar()->size(), 0);
    // A new run's records start over.
    v.addRecord(point(50, 0.1, 4.0, 3.9));
    v.drawNow();
    QCOMPARE(v.recordCount(), 1);
    QCOMPARE(keys(v.firstCopyGraph(false)), std::vector<double>{50});
}

void TestUiInductionView::explanationWithoutRecords()
{
    ui::InductionView v;
    v.drawNow();
    QVERIFY(v.placeholderShown());
    QVERIFY2(v.placeholderText().contains(u"decoder-only model (a GPT)"_s), qPrintable(v.placeholderText()));
    QVERIFY(v.placeholderText().contains(u"encoder–decoder"_s));
    v.setDecoderOnly(true);
    QVERIFY(!v.placeholderText().contains(u"encoder–decoder"_s));
    QVERIFY2(v.placeholderText().contains(u"Train the repeat task"_s), qPrintable(v.placeholderText()));
    // A record: the plots.
    v.addRecord(point(100, 0.1, 4.0, 3.9));
    v.drawNow();
    QVERIFY(!v.placeholderShown());
}

void TestUiInductionView::lossViewMarksThePhaseChange()
{
    ui::LossView loss;
    TrainingSnapshot s;
    for (long step = 1; step <= 500; ++step)
        s.newLoss.push_back({step, 0.1 * double(step), 4.0 - double(step) / 200.0, 1e-3, 100});
    for (long step : {100L, 200L, 300L, 400L, 500L})
        s.newEval.push_back({step, 0.1 * double(step) + 0.05, 3.0, 0.3});
    loss.applySnapshot(s);
    QVERIFY(!loss.phaseChange());
    QVERIFY(!loss.phaseLine()->visible());
    QVERIFY(!loss.csv().contains(u"phase_change"_s));

    // From the induction view, as the window wires it.
    ui::InductionView v;
    connect(&v, &ui::InductionView::phaseChangeChanged, &loss, &ui::LossView::setPhaseChange);
    for (const RecordPtr& r : {point(100, 0.1, 4.0, 3.9), point(200, 0.2, 4.0, 3.0), point(300, 0.5, 4.0, 2.0)})
        v.addRecord(r);
    QCOMPARE(loss.phaseChange(), std::optional<long>(300));
    QVERIFY(loss.phaseLine()->visible());
    QCOMPARE(loss.phaseLine()->point1->key(), 300.0);
    QCOMPARE(loss.phaseLine()->point2->key(), 300.0);
    QVERIFY(loss.phaseLabel()->visible());
    QVERIFY2(loss.phaseLabel()->text().contains(u"step 300"_s), qPrintable(loss.phaseLabel()->text()));
    // The export: one row, its step and the validation's training time, in the header's columns.
    const QStringList rows = loss.csv().split(u'\n', Qt::SkipEmptyParts);
    const QStringList phase = rows.filter(QRegularExpression(u"^phase_change,"_s));
    QCOMPARE(phase.size(), 1);
    const QStringList f = phase.first().split(u',');
    QCOMPARE(f.size(), rows.first().split(u',').size());
    QCOMPARE(f[1], u"300"_s);
    QCOMPARE(f[2].toDouble(), 30.05);
    // By wall time: at the validation's training time.
    loss.setByTime(true);
    QCOMPARE(loss.phaseLine()->point1->key(), 30.05);
    QVERIFY(loss.phaseLine()->visible());
    loss.setByTime(false);
    QCOMPARE(loss.phaseLine()->point1->key(), 300.0);
    // None any more (a new run): gone from the plot and the export; reset forgets it too.
    v.reset();
    QVERIFY(!loss.phaseChange());
    QVERIFY(!loss.phaseLine()->visible() && !loss.phaseLabel()->visible());
    QVERIFY(!loss.csv().contains(u"phase_change"_s));
    loss.setPhaseChange(200);
    QVERIFY(loss.phaseLine()->visible());
    loss.reset();
    QVERIFY(!loss.phaseChange());
    QVERIFY(!loss.phaseLine()->visible());
}

AS_TEST_MAIN(TestUiInductionView)
#include "test_ui_induction_view.moc"
