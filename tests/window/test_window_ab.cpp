// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// A/B sessions (View > A/B session…): a second session B trained in alternation with the
// current one A, on A's data, order and seed, with other model or optimisation settings.
//  - A and B after N steps each equal two separate window runs of the same settings, bit for
//    bit (weights exported; B's through Keep B as the session), and B's loss and validation
//    points as drawn (loss, accuracy and BLEU) equal those its own run records (read back from
//    a checkpoint), and B's update ratios and gradient norms those its own run's Health view
//    received;
//  - B's series is on the Loss and Learning rate plots beside A's, under its name, and dashed
//    beside A's chosen tensors on the Health view's line plots;
//  - a B whose step is not finite stops alone, with a message, while A goes on;
//  - Reset restarts both; Stop A/B removes B from the plots.
#include "skip.h"
#include "main_window.h"
#include "comparison_actions.h"
#include "file_actions.h"
#include "view_set.h"
#include "worker_link.h"
#include "health_view.h"
#include "loss_view.h"
#include "lr_view.h"

#include "io/checkpoint.h"
#include "window_runs.h"

#include <QStandardPaths>

#include <cmath>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

using namespace as;
using namespace Qt::StringLiterals;

class TestWindowAb : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void settingsSpecAndDifferences();
    void abEqualsTwoSeparateRuns();
    void bThatFailsStopsAlone();
    void resetRestartsBothAndStopRemovesB();
};

namespace {

constexpr int kSteps = 40;

SessionSettings settingsA()
{
    SessionSettings s = SessionSettings::defaultsFor(u"toy"_s);
    s.train.seed = 3;
    s.plannedSteps = kSteps;
    s.evalEvery = 10;
    return s;
}

// What B changes: the classic pair of demonstrations' settings at once, and the model's size.
SessionSettings settingsB()
{
    SessionSettings b = settingsA();
    b.model.norm = NormPlacement::Post;
    b.train.warmup = 1;
    b.train.factor = 0.5;
    b.model.dropout = 0.0;
    b.model.d_model = 48;
    b.model.d_ff = 96;
    // Not B's to change: comparisonOf puts A's back.
    b.train.seed = 99;
    b.evalEvery = 7;
    return b;
}

bool applied(MainWindow& w, const SessionSettings& s)
{
    w.applySettings(s);
    return QTest::qWaitFor([&] { return w.currentStep() == 0 && w.examplesShown() > 0; }, 60000);
}

bool stepped(MainWindow& w, int n, bool withB)
{
    const long target = w.currentStep() + n;
    w.link()->step(n);
    return QTest::qWaitFor([&] {
        return w.currentStep() == target && !w.isRunning()
               && (!withB || (w.comparisons()->comparison() && long(w.comparisons()->comparison()->loss.size()) == target));
    }, 120000);
}

}  // namespace

// --set/--ab's SPEC, and B's name: what it changes, in words.
void TestWindowAb::settingsSpecAndDifferences()
{
    const SessionSettings a = settingsA();
    SessionSettings b = a;
    QString error;
    QVERIFY2(applySettingsSpec(u"norm=post, warmup=10,factor=2.5,dropout=0.3,clip_norm=1"_s, &b, &error),
             qPrintable(error));
    QCOMPARE(b.model.norm, NormPlacement::Post);
    QCOMPARE(b.train.warmup, 10L);
    QCOMPARE(b.train.factor, 2.5);
    QCOMPARE(b.model.dropout, 0.3);
    QCOMPARE(b.train.clipNorm, 1.0);
    QCOMPARE(b.model.d_model, a.model.d_model);  // the rest as it was
    QCOMPARE(b.train.seed, a.train.seed);
    QCOMPARE(settingsDifferences(a, b), u"post-norm, warm-up 10, factor 2.5, dropout 0.3, clip 1"_s);
    QCOMPARE(settingsDifferences(a, a), u"the same settings"_s);
    QVERIFY(applySettingsSpec(QString(), &b, &error));  // nothing: nothing changes
    QCOMPARE(b.train.warmup, 10L);
    for (const QString& bad : {u"warmup=0"_s, u"warmup=2.5"_s, u"factor=0"_s, u"factor=x"_s,
                               u"bogus=1"_s, u"norm=sideways"_s}) {
        SessionSettings c = a;
        error.clear();
        QVERIFY2(!applySettingsSpec(bad, &c, &error), qPrintable(bad));
        QVERIFY2(!error.isEmpty(), qPrintable(bad));
    }
}

void TestWindowAb::abEqualsTwoSeparateRuns()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const SessionSettings a = settingsA();
    const SessionSettings b = comparisonOf(a, settingsB());
    QCOMPARE(b.train.seed, a.train.seed);
    QCOMPARE(b.evalEvery, a.evalEvery);
    QCOMPARE(b.model.norm, NormPlacement::Post);

    // Separate runs, B's saved as a checkpoint to read its history back.
    std::vector<std::shared_ptr<const HealthRecord>> bHealth;  // what B's own Health view received
    const QString ckB = dir.filePath(u"b.%1"_s.arg(kCheckpointSuffix));
    {
        MainWindow w;
        w.show();
        QVERIFY(applied(w, a));
        QVERIFY(stepped(w, kSteps, false));
        QVERIFY(test::exportFromWindow(w, dir.filePath(u"a-alone.safetensors"_s)));
        QVERIFY(applied(w, b));
        QVERIFY(stepped(w, kSteps, false));
        QVERIFY(test::exportFromWindow(w, dir.filePath(u"b-alone.safetensors"_s)));
        bHealth = w.views()->health()->records();
        QVERIFY(test::saveCheckpointFromWindow(w, ckB));
        w.close();
    }

    // A/B in one window: A applied and stepped a little (A/B restarts it), B started.
    MainWindow w;
    w.show();
    QVERIFY(applied(w, a));
    QVERIFY(stepped(w, 5, false));
    w.comparisons()->startComparison(settingsB());
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == 0 && w.comparisons()->comparison(); }, 60000));
    QVERIFY(stepped(w, kSteps, true));
    // B's validations run in the background, as A's do.
    QVERIFY(QTest::qWaitFor([&] { return int(w.comparisons()->comparison()->eval.size()) == kSteps / a.evalEvery; },
                            60000));
    QVERIFY(test::exportFromWindow(w, dir.filePath(u"a-ab.safetensors"_s)));
    const RunSeriesPtr drawn = w.comparisons()->comparison();
    QVERIFY(drawn->name.startsWith(u"B: post-norm, warm-up 1, factor 0.5, dropout 0, d_model 48"_s));

    // B on the plots, beside A, under its name.
    QCOMPARE(w.views()->loss()->comparedRunCount(), 1);
    QCOMPARE(w.views()->loss()->comparedRun(0).series, drawn);
    QCOMPARE(w.views()->loss()->comparedRun(0).loss->data()->size(), int(kSteps));
    QCOMPARE(w.views()->loss()->comparedRun(0).loss->name(), drawn->name);
    QCOMPARE(w.views()->lr()->comparedRunCount(), 1);
    QCOMPARE(w.views()->lr()->comparedSeries(0), drawn);
    QCOMPARE(w.views()->lr()->comparedGraph(0)->data()->size(), int(kSteps));

    // B's points as its own run records them: every step's loss and rate, and the validations.
    QString error;
    std::optional<Checkpoint> ck = loadCheckpoint(ckB, &error);
    QVERIFY2(ck, qPrintable(error));
    const TrainingHistory& h = ck->history;
    QCOMPARE(drawn->loss.size(), h.loss.size());
    for (std::size_t i = 0; i < h.loss.size(); ++i) {
        QCOMPARE(drawn->loss[i].step, h.loss[i].step);
        QCOMPARE(drawn->loss[i].loss, h.loss[i].loss);
        QCOMPARE(drawn->loss[i].lr, h.loss[i].lr);
        QCOMPARE(drawn->loss[i].tokens, h.loss[i].tokens);
    }
    QCOMPARE(int(drawn->eval.size()), kSteps / a.evalEvery);
    QCOMPARE(drawn->eval.size(), h.eval.size());
    for (std::size_t i = 0; i < h.eval.size(); ++i) {
        QCOMPARE(drawn->eval[i].step, h.eval[i].step);
        QCOMPARE(drawn->eval[i].loss, h.eval[i].loss);
        QCOMPARE(drawn->eval[i].accuracy, h.eval[i].accuracy);
        QVERIFY(!std::isnan(h.eval[i].bleu));
        QCOMPARE(drawn->eval[i].bleu, h.eval[i].bleu);
    }
    QCOMPARE(w.views()->loss()->comparedRun(0).validBleu->data()->size(), int(h.eval.size()));

    // B's update ratios and gradient norms: those of B's own run, step by step, tensor by tensor.
    ui::HealthView* health = w.views()->health();
    const auto& bDrawn = health->comparedRecords();
    QCOMPARE(health->comparedName(), drawn->name);
    QCOMPARE(int(bHealth.size()), kSteps);
    QCOMPARE(bDrawn.size(), bHealth.size());
    for (std::size_t i = 0; i < bHealth.size(); ++i) {
        QCOMPARE(bDrawn[i]->step, bHealth[i]->step);
        QCOMPARE(bDrawn[i]->tensors->size(), bHealth[i]->tensors->size());
        for (std::size_t t = 0; t < bHealth[i]->tensors->size(); ++t) {
            QCOMPARE((*bDrawn[i]->tensors)[t].updateRatio, (*bHealth[i]->tensors)[t].updateRatio);
            QCOMPARE((*bDrawn[i]->tensors)[t].gradNorm, (*bHealth[i]->tensors)[t].gradNorm);
        }
    }
    // Drawn dashed beside each chosen tensor of A's, with one legend entry saying so.
    health->redrawNow();
    const int chosen = int(health->chosenTensors().size());
    QVERIFY(chosen > 0);
    QCPGraph* key = health->ratioLinesPlot()->graph(health->ratioLinesPlot()->graphCount() - 1);
    QCOMPARE(health->ratioLinesPlot()->graphCount(), 2 * chosen + 1);
    QCOMPARE(key->name(), u"dashed: %1"_s.arg(drawn->name));
    QCOMPARE(key->dataCount(), 0);
    QCPGraph* bLine = health->ratioLinesPlot()->graph(1);
    QCOMPARE(bLine->pen().style(), Qt::DashLine);
    QCOMPARE(bLine->dataCount(), kSteps);
    QVERIFY(!health->ratioLinesPlot()->legend->hasItemWithPlottable(bLine));

    // Keep B: it becomes the session, at its step, and exports as its own run does.
    QSignalSpy restored(&w, &MainWindow::sessionRestored);
    w.comparisons()->keepComparison();
    QVERIFY(restored.wait(60000));
    QVERIFY(QTest::qWaitFor([&] { return !w.comparisons()->comparison() && w.currentStep() == kSteps; }, 10000));
    QCOMPARE(w.settings().model.norm, NormPlacement::Post);
    QVERIFY(test::exportFromWindow(w, dir.filePath(u"b-ab.safetensors"_s)));
    QCOMPARE(w.views()->loss()->comparedRunCount(), 0);

    QVERIFY(test::sameWeightFiles(dir.filePath(u"a-ab.safetensors"_s), dir.filePath(u"a-alone.safetensors"_s)));
    QVERIFY(test::sameWeightFiles(dir.filePath(u"b-ab.safetensors"_s), dir.filePath(u"b-alone.safetensors"_s)));
}

void TestWindowAb::bThatFailsStopsAlone()
{
    MainWindow w;
    w.show();
    QVERIFY(applied(w, settingsA()));
    // A Noam factor of 1e30: B's step 1 is finite and throws every weight to ~1e25; its step 2
    // overflows (test_window_fault). A is untouched by it.
    SessionSettings b = settingsA();
    b.train.factor = 1e30;
    w.comparisons()->startComparison(b);
    QVERIFY(QTest::qWaitFor([&] { return w.comparisons()->comparison() != nullptr; }, 60000));
    w.link()->step(10);
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == 10 && !w.isRunning(); }, 60000));
    QCOMPARE(int(w.comparisons()->comparison()->loss.size()), 1);
    const QString message = w.statusBar()->currentMessage();
    QVERIFY2(message.startsWith(u"B stopped at step 2: "_s), qPrintable(message));
    QVERIFY2(message.endsWith(u"A goes on."_s), qPrintable(message));
}

void TestWindowAb::resetRestartsBothAndStopRemovesB()
{
    MainWindow w;
    w.show();
    QVERIFY(applied(w, settingsA()));
    SessionSettings b = settingsA();
    b.train.warmup = 10;
    w.comparisons()->startComparison(b);
    QVERIFY(QTest::qWaitFor([&] { return w.comparisons()->comparison() != nullptr; }, 60000));
    QVERIFY(stepped(w, 6, true));
    const std::vector<LossPoint> first = w.comparisons()->comparison()->loss;
    w.resetAction()->trigger();
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == 0 && w.comparisons()->comparison() && w.comparisons()->comparison()->loss.empty(); }, 60000));
    QVERIFY(stepped(w, 6, true));
    // The same B again, from step 0.
    const std::vector<LossPoint>& again = w.comparisons()->comparison()->loss;
    for (std::size_t i = 0; i < first.size(); ++i)
        QCOMPARE(again[i].loss, first[i].loss);
    QCOMPARE(w.views()->loss()->comparedRunCount(), 1);

    w.comparisons()->stopComparison();
    QVERIFY(QTest::qWaitFor([&] { return !w.comparisons()->comparison(); }, 10000));
    QCOMPARE(w.views()->loss()->comparedRunCount(), 0);
    QCOMPARE(w.views()->lr()->comparedRunCount(), 0);
    QVERIFY(stepped(w, 2, false));  // A goes on alone
    QVERIFY(!w.comparisons()->comparison());
}

AS_TEST_MAIN(TestWindowAb)
#include "test_window_ab.moc"
