// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The window with its worker thread, driven as a user would: step, play, pause, reset, close,
// translate — under QT_QPA_PLATFORM=offscreen.
#include "skip.h"
#include "attention_view.h"
#include "loss_view.h"
#include "lr_view.h"
#include "main_window.h"
#include "window_runs.h"
#include "file_actions.h"
#include "view_set.h"
#include "worker_link.h"
#include "translate_view.h"

#include "learned.h"

#include "decode/decode.h"
#include "io/model_file.h"
#include "text/dataset.h"
#include "train/schedule.h"

#include <QAction>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>


using namespace as;


class TestWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void stepOnceGivesOnePoint();
    void playThenPauseStopsWithinOneStep();
    void resetEmptiesCurves();
    void attentionViewShowsEveryHead();
    void learningRateViewFollowsNoam();
    void translatesAfterTrainingToy();
    void closingWhileTrainingEndsTheThread();

private:
    std::unique_ptr<MainWindow> w_;
    bool waitStep(long step, int ms = 20000)
    {
        return QTest::qWaitFor([&] { return w_->currentStep() == step; }, ms);
    }
};

void TestWindow::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);  // settings go to a test location
}

void TestWindow::init()
{
    w_ = std::make_unique<MainWindow>();
    w_->show();
    SessionSettings s = SessionSettings::defaultsFor("toy");
    w_->applySettings(s);
    QVERIFY(waitStep(0));
}

void TestWindow::cleanup()
{
    if (w_)
        w_->close();
    w_.reset();
}

void TestWindow::stepOnceGivesOnePoint()
{
    QCOMPARE(w_->views()->loss()->trainPointCount(), 0);
    w_->stepAction()->trigger();
    QVERIFY(waitStep(1));
    QVERIFY(test::settled(*w_));  // all the worker sent has arrived: nothing else came
    QCOMPARE(w_->currentStep(), 1L);
    QCOMPARE(w_->views()->loss()->trainPointCount(), 1);
    QVERIFY(!w_->isRunning());
}

void TestWindow::playThenPauseStopsWithinOneStep()
{
    // At 2 steps/s every step is followed by its snapshot (the worker sends one at most every
    // kSnapshotIntervalMs = 100 ms, far less than a step's 500 ms), so the step the window shows
    // when Pause is pressed is the worker's, up to a delivery delay of milliseconds. (At 10
    // steps/s a snapshot could be skipped: the window then lagged a step behind the worker,
    // and a pause that was on time looked late.) Pause is sent right as a snapshot arrives.
    w_->link()->setStepsPerSecond(2.0);
    long atPause = -1;
    QMetaObject::Connection c = connect(w_.get(), &MainWindow::snapshotApplied, this, [&](long step) {
        if (atPause < 0 && step >= 3 && w_->isRunning()) {
            atPause = w_->currentStep();
            w_->playAction()->trigger();  // pause
        }
    });
    w_->playAction()->trigger();
    QVERIFY(QTest::qWaitFor([&] { return atPause >= 0; }, 20000));
    disconnect(c);
    QVERIFY(QTest::qWaitFor([&] { return !w_->isRunning(); }, 10000));
    // The worker sends its last snapshot after saying it paused; once everything it sent has
    // arrived, the window shows where it stopped.
    QVERIFY(test::settled(*w_));
    const long final = w_->currentStep();
    QVERIFY2(final <= atPause + 1, qPrintable(QStringLiteral("paused at %1, stopped at %2").arg(atPause).arg(final)));
    QVERIFY(!w_->isRunning());
    QCOMPARE(w_->views()->loss()->trainPointCount(), int(final));
}

void TestWindow::resetEmptiesCurves()
{
    w_->link()->step(5);
    QVERIFY(waitStep(5));
    QCOMPARE(w_->views()->loss()->trainPointCount(), 5);
    w_->resetAction()->trigger();
    QVERIFY(waitStep(0));
    QCOMPARE(w_->views()->loss()->trainPointCount(), 0);
    QCOMPARE(w_->views()->loss()->validPointCount(), 0);
    QCOMPARE(w_->views()->lr()->appliedPointCount(), 0);
}

void TestWindow::attentionViewShowsEveryHead()
{
    w_->link()->step(3);
    QVERIFY(waitStep(3));
    ui::AttentionView* a = w_->views()->attention();
    const int heads = w_->settings().model.heads;
    // Toy probe: 我 有 一 个 好 朋 友 → I have a good friend .
    const QStringList src = QString::fromUtf8("我 有 一 个 好 朋 友").split(' ');
    const QStringList tgt = QStringList{"<s>"} + QString("I have a good friend .").split(' ');
    struct Case {
        AttentionKind kind;
        QStringList rows, cols;
    };
    for (const Case& c : {Case{AttentionKind::EncoderSelf, src, src},
                          Case{AttentionKind::DecoderSelf, tgt, tgt},
                          Case{AttentionKind::Cross, tgt, src}}) {
        a->setKind(c.kind);
        for (int layer = 0; layer < 2; ++layer) {
            a->setLayer(layer);
            QCOMPARE(a->headCount(), heads);
            for (int h = 0; h < heads; ++h) {
                QCOMPARE(a->headMapShape(h), QSize(int(c.cols.size()), int(c.rows.size())));
                QCOMPARE(a->rowLabels(h), c.rows);
                QCOMPARE(a->colLabels(h), c.cols);
            }
        }
    }
}

void TestWindow::learningRateViewFollowsNoam()
{
    w_->link()->step(2);
    QVERIFY(waitStep(2));
    const SessionSettings& s = w_->settings();
    for (long step : {1L, 10L, s.train.warmup, s.plannedSteps}) {
        const double expected = noamRate(step, s.model.d_model, s.train.factor, s.train.warmup);
        QVERIFY(std::abs(w_->views()->lr()->curveValueAt(step) - expected) <= 1e-12 * expected);
    }
    QCOMPARE(w_->views()->lr()->appliedPointCount(), 2);
}

void TestWindow::translatesAfterTrainingToy()
{
    w_->link()->step(200);
    QVERIFY(waitStep(200, 60000));
    QSignalSpy done(w_->views()->translate(), &ui::TranslateView::translationFinished);
    w_->views()->translate()->translate(QStringLiteral("我有一个好朋友"));
    QVERIFY(done.wait(20000) || done.count() > 0);
    const QString got = done.takeFirst().at(0).toString();
    // The window shows exactly what the engine decodes from the same weights (a promise, kept
    // bit-exact) ...
    QTemporaryDir dir;
    QSignalSpy exported(w_->files(), &FileActions::weightsExported);
    w_->files()->exportWeightsTo(dir.filePath("w.safetensors"));
    QVERIFY(exported.wait(10000) || exported.count() > 0);
    QString error;
    std::optional<ModelBundle> b = loadModel(dir.filePath("w.safetensors"), &error);
    QVERIFY2(b, qPrintable(error));
    const ParallelData codec = ParallelData::fromVocabularies(b->srcVocab, b->tgtVocab, b->srcTok,
                                                              b->tgtTok, 1000);
    const std::vector<int> src = codec.encodeSource(QStringLiteral("我有一个好朋友")).ids;
    const DecodeResult engine = greedyDecode(*b->model, src);
    QCOMPARE(got, codec.decodeTarget(engine.nbest[0].tokens));
    // ... and what it learned in 200 steps is checked with margins (tests/support/learned.h): the
    // target is likely, and it is the output whenever the model is decided, which float
    // rounding (AVX2 or AVX-512 kernels) cannot change.
    const std::vector<int> tgt = b->tgtVocab.encode(QString("I have a good friend .").split(' '));
    const QString why = test::learnedPair(*b->model, src, tgt, engine.nbest[0].tokens, 0.5);
    QVERIFY2(why.isEmpty(), qPrintable(got + ": " + why));
    if (test::fitOf(*b->model, src, tgt).decided())
        QVERIFY2(got == "I have a good friend." || got == "I have a good friend .", qPrintable(got));
}

void TestWindow::closingWhileTrainingEndsTheThread()
{
    // A plan of a million steps: closing must not wait for it, at any speed of the machine
    // (with the toy's 300, a fast machine could end the plan before the close, and a slow one
    // — a sanitizer — could run all 300 within the time bound).
    SessionSettings s = SessionSettings::defaultsFor("toy");
    s.plannedSteps = 1000000;
    w_->applySettings(s);
    QVERIFY(QTest::qWaitFor([&] { return w_->settings().plannedSteps == 1000000 && w_->currentStep() == 0; }, 20000));
    w_->playAction()->trigger();
    QVERIFY(QTest::qWaitFor([&] { return w_->currentStep() >= 2; }, 10000));
    QVERIFY(w_->isRunning());
    QThread* thread = w_->link()->thread();
    QVERIFY(thread->isRunning());
    // Closing waits for the steps in progress (a slice of kSliceMs), not for the plan: a close
    // that waited for the million steps would not return before the test's timeout
    // (AS_TEST_TIMEOUT), which fails it by name; no wall-clock bound of our own, which a slow
    // or loaded machine could break.
    QVERIFY(w_->close());
    QVERIFY(thread->isFinished());
    QVERIFY(w_->currentStep() < s.plannedSteps);
    w_.reset();  // destroying after close is clean too
}

AS_TEST_MAIN(TestWindow)
#include "test_window.moc"
