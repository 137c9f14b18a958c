// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The first use on a CPU (core/train/product_tuning.h): which library computes the products
// fastest, measured once and stored for this CPU and thread count, then read.
//   - the window (app/window/first_use.h): with nothing stored it measures, over the window with
//     progress, stores, applies what it stored, says it in the status bar and then goes on
//     (`then`); once stored, it goes on at once; cancelled, nothing is stored, the default
//     libraries stay and it goes on; AS_GEMM_TUNING=off, nothing is measured or stored;
//   - attention-studio-cli: its first command measures and says so on standard error, stores
//     the same file, and the next command reads it without measuring.
// The tests' environment sets AS_GEMM_TUNING=off (tests/CMakeLists.txt); this test lifts it,
// with a cache folder of its own.
#include "cli_process.h"
#include "skip.h"
#include "background_job.h"
#include "first_use.h"

#include "model/gemm.h"
#include "model/gemm_tuning.h"
#include "model/parallel.h"
#include "train/product_tuning.h"

#include <QFile>
#include <QMainWindow>
#include <QProgressDialog>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

using namespace as;
using namespace Qt::StringLiterals;

class TestWindowFirstUse : public QObject {
    Q_OBJECT
private slots:
    void init()
    {
        cache_.emplace();
        QVERIFY(cache_->isValid());
        qputenv("XDG_CACHE_HOME", cache_->path().toUtf8());
        qunsetenv("AS_GEMM_TUNING");
        QCOMPARE(gemmTuningPath(), cache_->filePath(u"attention-studio/gemm-tuning.json"_s));
        resetGemmChoices();
        setEngineThreads(2);
    }
    void cleanup()
    {
        resetGemmChoices();
        qputenv("AS_GEMM_TUNING", "off");
    }

    void windowMeasuresOnceThenGoesOn();
    void windowCancelledStoresNothing();
    void offMeasuresNothing();
    void commandLineMeasuresOnce();

private:
    std::optional<QTemporaryDir> cache_;
};

void TestWindowFirstUse::windowMeasuresOnceThenGoesOn()
{
    QVERIFY2(productTuningNeeded(2), "OpenBLAS and Eigen at least: bash scripts/install-deps.sh");
    QMainWindow w;
    w.show();
    int ran = 0;
    BackgroundJob* job = measureProductsAtFirstUse(&w, [&] { ++ran; });
    QVERIFY(job);
    QCOMPARE(ran, 0);  // not before the measuring
    QVERIFY(job->progressDialog());
    QCOMPARE(job->progressDialog()->windowModality(), Qt::WindowModal);
    QTRY_COMPARE_WITH_TIMEOUT(ran, 1, 300000);
    QVERIFY2(w.statusBar()->currentMessage().contains(u"Matrix products measured"_s),
             qPrintable(w.statusBar()->currentMessage()));

    // Stored for this CPU and 2 threads, and what is stored is what computes now.
    QString error;
    const std::optional<GemmTuning> stored = loadGemmTuning(2, &error);
    QVERIFY2(stored, qPrintable(error));
    QCOMPARE(stored->cpu, cpuModelName());
    int measured = 0;
    for (int s = 0; s < kGemmSites; ++s)
        if (stored->measured[std::size_t(s)]) {
            ++measured;
            QCOMPARE(gemmChoice(s), stored->choice[std::size_t(s)]);
        }
    // A training step issues the projections', feed-forward's and generator's products in all
    // three passes.
    QCOMPARE(measured, 9);
    QVERIFY(w.statusBar()->currentMessage().contains(gemmChoiceSummary()));

    // Stored: nothing more to measure, `then` at once.
    QVERIFY(!productTuningNeeded(2));
    QCOMPARE(measureProductsAtFirstUse(&w, [&] { ++ran; }), nullptr);
    QCOMPARE(ran, 2);
    // Another thread count is another measurement.
    QVERIFY(productTuningNeeded(1));
}

void TestWindowFirstUse::windowCancelledStoresNothing()
{
    QMainWindow w;
    w.show();
    int ran = 0;
    BackgroundJob* job = measureProductsAtFirstUse(&w, [&] { ++ran; });
    QVERIFY(job);
    emit job->progressDialog()->canceled();  // as its Cancel button does
    QCOMPARE(ran, 1);
    QVERIFY2(w.statusBar()->currentMessage().contains(u"cancelled"_s),
             qPrintable(w.statusBar()->currentMessage()));
    job->waitForDone();
    QVERIFY(!QFile::exists(gemmTuningPath()));
    for (int s = 0; s < kGemmSites; ++s)
        QCOMPARE(gemmChoice(s), gemmChoice(0));  // the default everywhere
    QVERIFY(productTuningNeeded(2));  // asked again next time
}

void TestWindowFirstUse::offMeasuresNothing()
{
    qputenv("AS_GEMM_TUNING", "off");
    QVERIFY(!gemmTuningEnabled());
    QVERIFY(!productTuningNeeded(2));
    QMainWindow w;
    int ran = 0;
    QCOMPARE(measureProductsAtFirstUse(&w, [&] { ++ran; }), nullptr);
    QCOMPARE(ran, 1);
    QVERIFY(!QFile::exists(gemmTuningPath()));
    // A stored tuning is not read either.
    GemmTuning t;
    t.cpu = cpuModelName();
    t.threads = 2;
    const int site = gemmSite(GemmKind::FeedForward, GemmPass::Forward);
    t.measured[std::size_t(site)] = true;
    t.choice[std::size_t(site)] = GemmLibrary::Eigen;
    QString error;
    QVERIFY2(saveGemmTuning(t, &error), qPrintable(error));
    QVERIFY(!applyStoredGemmTuning(2, &error));
    QCOMPARE(gemmChoice(site), gemmChoice(0));
    qunsetenv("AS_GEMM_TUNING");
    QVERIFY(applyStoredGemmTuning(2, &error));
    QCOMPARE(gemmChoice(site), GemmLibrary::Eigen);
}

void TestWindowFirstUse::commandLineMeasuresOnce()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"XDG_CACHE_HOME"_s, cache_->path());
    env.remove(u"AS_GEMM_TUNING"_s);
    const QString model = cache_->filePath(u"toy.safetensors"_s);
    const QStringList train{u"train"_s, u"--task"_s, u"toy"_s, u"--steps"_s, u"3"_s,
                            u"--threads"_s, u"2"_s, u"--out"_s, model};
    const test::ProcessRun first = test::runProgram(test::cliProgram(), train, env);
    QVERIFY2(first.exitCode == 0, qPrintable(test::describeRun(u"train"_s, first)));
    QVERIFY2(first.err.contains("first use on this CPU") && first.err.contains("products chosen: "),
             first.err.constData());
    QString error;
    const std::optional<GemmTuning> stored = loadGemmTuning(2, &error);
    QVERIFY2(stored, qPrintable(error));
    QCOMPARE(stored->cpu, cpuModelName());

    const test::ProcessRun second = test::runProgram(test::cliProgram(), train, env);
    QVERIFY2(second.exitCode == 0, qPrintable(test::describeRun(u"train"_s, second)));
    QVERIFY2(!second.err.contains("first use"), second.err.constData());
    // Read, not measured again: the file as the first run left it.
    QCOMPARE(loadGemmTuning(2, &error)->toJson(), stored->toJson());

    // bench times what it is asked to: no measuring at its first use.
    QVERIFY(QFile::remove(gemmTuningPath()));
    const test::ProcessRun bench = test::runProgram(
        test::cliProgram(), {u"bench"_s, u"--config"_s, u"tiny"_s, u"--steps"_s, u"1"_s}, env);
    QVERIFY2(bench.exitCode == 0, qPrintable(test::describeRun(u"bench"_s, bench)));
    QVERIFY(!bench.err.contains("first use"));
    QVERIFY(!QFile::exists(gemmTuningPath()));
}

AS_TEST_MAIN(TestWindowFirstUse)
#include "test_window_first_use.moc"
