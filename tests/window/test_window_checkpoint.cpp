// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The window's File menu through the worker: save, train on, open the saved file — every view
// shows the restored history and training continues exactly as it would have; a bad file
// leaves the running session untouched; quitting with unsaved steps autosaves; an autosave
// newer than the last clean exit is found as a crash's. Under QT_QPA_PLATFORM=offscreen.
#include "skip.h"
#include "attention_view.h"
#include "loss_view.h"
#include "lr_view.h"
#include "main_window.h"
#include "window_runs.h"
#include "file_actions.h"
#include "view_set.h"
#include "worker_link.h"

#include "io/checkpoint.h"
#include "io/model_file.h"

#include <QAction>
#include <QDateTime>
#include <QFile>
#include <QMenu>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>
#include <sys/stat.h>

using namespace as;

class TestWindowCheckpoint : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void fileMenuHasItsActions();
    void saveThenOpenRestoresEverything();
    void badFileLeavesSessionUntouched();
    void quitWithUnsavedStepsAutosaves();
    void reopenedInsideTheAveragingWindowPlaysToTheStraightModel();

private:
    std::unique_ptr<MainWindow> w_;
    QTemporaryDir dir_;
    bool waitStep(long step, int ms = 20000)
    {
        return QTest::qWaitFor([&] { return w_->currentStep() == step; }, ms);
    }
    // The saved file's parameters, straight from the file.
    // (A checkpoint's current weights, or a model file's.)
    static std::vector<float> weightsIn(const QString& path)
    {
        QString error;
        std::optional<ModelBundle> b = loadModel(path, &error);
        if (!b)
            qFatal("%s", qPrintable(error));
        const ParamStore<float>& ps = b->model->params();
        return {ps.values(), ps.values() + ps.size()};
    }
};

void TestWindowCheckpoint::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(dir_.isValid());
}

void TestWindowCheckpoint::init()
{
    w_ = std::make_unique<MainWindow>();
    w_->show();
    w_->applySettings(SessionSettings::defaultsFor("toy"));
    QVERIFY(waitStep(0));
}

void TestWindowCheckpoint::cleanup()
{
    if (w_)
        w_->close();
    w_.reset();
}

void TestWindowCheckpoint::fileMenuHasItsActions()
{
    QCOMPARE(w_->files()->openAction()->shortcut(), QKeySequence(QKeySequence::Open));
    QCOMPARE(w_->files()->saveAction()->shortcut(), QKeySequence(QKeySequence::Save));
    QCOMPARE(w_->files()->saveAsAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    const QList<QAction*> items = w_->fileMenu()->actions();
    QCOMPARE(items.last()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_Q));
}

void TestWindowCheckpoint::saveThenOpenRestoresEverything()
{
    const QString a = dir_.filePath("a.ckpt"), b = dir_.filePath("b.ckpt");
    w_->link()->step(30);  // evaluations every 10 steps on the toy task
    QVERIFY(waitStep(30));
    const int attentionRecords = w_->views()->attention()->historySize();
    QSignalSpy saved(w_->files(), &FileActions::fileSaved);
    w_->files()->saveCheckpointTo(a);
    QVERIFY(saved.wait(10000));
    QCOMPARE(saved.takeFirst().at(1).toLongLong(), 30LL);
    QCOMPARE(w_->files()->currentFile(), a);
    QVERIFY(!w_->files()->hasUnsavedSteps());

    // On to step 50 in one go: the reference.
    w_->link()->step(20);
    QVERIFY(waitStep(50));
    QVERIFY(w_->files()->hasUnsavedSteps());
    w_->files()->saveCheckpointTo(b);
    QVERIFY(saved.wait(10000));

    // Back to step 30 from the file: the views show the history as it was then.
    QSignalSpy restored(w_.get(), &MainWindow::sessionRestored);
    w_->files()->openCheckpoint(a);
    QVERIFY(restored.wait(10000));
    QVERIFY(waitStep(30));
    QCOMPARE(w_->views()->loss()->trainPointCount(), 30);
    QCOMPARE(w_->views()->loss()->validPointCount(), 3);
    QCOMPARE(w_->views()->lr()->appliedPointCount(), 30);
    QCOMPARE(w_->views()->attention()->historySize(), attentionRecords);
    QCOMPARE(w_->views()->attention()->shownStep(), 30L);
    QVERIFY(!w_->files()->hasUnsavedSteps());

    // Step 30 -> 50 again gives the weights of the run that never stopped.
    w_->link()->step(20);
    QVERIFY(waitStep(50));
    QCOMPARE(w_->views()->loss()->trainPointCount(), 50);
    const QString c = dir_.filePath("c.ckpt");
    w_->files()->saveCheckpointTo(c);
    QVERIFY(saved.wait(10000));
    const std::vector<float> x = weightsIn(b), y = weightsIn(c);
    QCOMPARE(x.size(), y.size());
    QVERIFY2(std::memcmp(x.data(), y.data(), x.size() * sizeof(float)) == 0,
             "resumed training differs from uninterrupted training");
}

void TestWindowCheckpoint::badFileLeavesSessionUntouched()
{
    w_->link()->step(5);
    QVERIFY(waitStep(5));
    const QString good = dir_.filePath("good.ckpt"), bad = dir_.filePath("bad.ckpt");
    QSignalSpy saved(w_->files(), &FileActions::fileSaved);
    w_->files()->saveCheckpointTo(good);
    QVERIFY(saved.wait(10000));
    QFile in(good);
    QVERIFY(in.open(QIODevice::ReadOnly));
    QByteArray bytes = in.readAll();
    bytes[bytes.size() - 100] = char(bytes[bytes.size() - 100] ^ 1);
    QFile out(bad);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(bytes);
    out.close();

    w_->link()->step(3);
    QVERIFY(waitStep(8));
    QSignalSpy errors(w_.get(), &MainWindow::fileError);
    w_->files()->openCheckpoint(bad);
    QVERIFY(errors.wait(10000));
    const QString msg = errors.takeFirst().at(0).toString();
    QVERIFY2(msg.contains("bad.ckpt") && msg.contains("checksum"), qPrintable(msg));
    QCOMPARE(w_->lastFileError(), msg);
    w_->files()->openCheckpoint(dir_.filePath("missing.ckpt"));
    QVERIFY(errors.wait(10000));
    QVERIFY(errors.takeFirst().at(0).toString().contains("missing.ckpt"));
    // A pipe (opening one would block the window for ever) and a 20 GB sparse file (read whole,
    // it took all the memory there is): each refused with a message, the session untouched.
    const QString fifo = dir_.filePath("pipe.safetensors"), huge = dir_.filePath("huge.safetensors");
    QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
    w_->files()->openFile(fifo);
    QTRY_COMPARE_WITH_TIMEOUT(errors.count(), 1, 10000);
    QVERIFY2(errors.last().at(0).toString().contains("not a regular file"),
             qPrintable(errors.last().at(0).toString()));
    {
        QFile big(huge);
        QVERIFY(big.open(QIODevice::WriteOnly));
        QVERIFY(big.resize(qint64(20) << 30));
    }
    w_->files()->openFile(huge);
    QTRY_COMPARE_WITH_TIMEOUT(errors.count(), 2, 10000);
    QVERIFY2(errors.last().at(0).toString().contains("huge.safetensors"),
             qPrintable(errors.last().at(0).toString()));
    errors.clear();
    QVERIFY(test::settled(*w_));  // nothing was opened meanwhile
    QCOMPARE(w_->currentStep(), 8L);  // still the running session
    QCOMPARE(w_->views()->loss()->trainPointCount(), 8);
    QCOMPARE(w_->files()->currentFile(), good);
    w_->link()->step(1);  // and it trains on
    QVERIFY(waitStep(9));
}

void TestWindowCheckpoint::quitWithUnsavedStepsAutosaves()
{
    const QString path = FileActions::autosavePath();
    QFile::remove(path);
    QSettings().remove("autosave/cleanExit");
    w_->link()->step(4);
    QVERIFY(waitStep(4));
    // While running: a timer autosave, and it counts as a crash's until a clean exit.
    QSignalSpy saved(w_->files(), &FileActions::fileSaved);
    w_->files()->setAutosaveInterval(50);
    QVERIFY(saved.wait(5000));
    QVERIFY(saved.takeFirst().at(2).toBool());
    QCOMPARE(w_->files()->crashAutosave(), path);
    w_->files()->setAutosaveInterval(3 * 60 * 1000);

    w_->link()->step(3);
    QVERIFY(waitStep(7));
    QVERIFY(w_->close());
    w_.reset();
    std::optional<Checkpoint> c;
    QString error;
    QVERIFY2((c = loadCheckpoint(path, &error)), qPrintable(error));
    QCOMPARE(c->step, 7L);
    QCOMPARE(c->history.loss.size(), std::size_t(7));

    // A clean exit: the autosave is not offered as a crash's.
    w_ = std::make_unique<MainWindow>();
    QVERIFY(w_->files()->crashAutosave().isEmpty());
    // A later autosave (as a crashed session leaves it) is.
    QSettings().setValue("autosave/cleanExit", QDateTime::currentDateTime().addSecs(-60));
    QCOMPARE(w_->files()->crashAutosave(), path);
    QSignalSpy restored(w_.get(), &MainWindow::sessionRestored);
    w_->link()->loadCheckpoint(path, true);
    QVERIFY(restored.wait(10000));
    QVERIFY(QTest::qWaitFor([&] { return w_->currentStep() == 7; }, 10000));
    QVERIFY(w_->files()->currentFile().isEmpty());  // Save asks where to put a restored autosave
    QVERIFY(w_->close());
    w_.reset();
    QFile::remove(path);
}

// The window's own resume inside the averaging window: a toy run of 40 steps averaging 5
// points (80 %, 85 %, 90 %, 95 % and the end) saved at step 35 — two snapshots in — reopened
// and played to its end exports the model of the run that never stopped, bit for bit. Without
// the averaging state in the checkpoint the average was taken afresh after the reopening.
void TestWindowCheckpoint::reopenedInsideTheAveragingWindowPlaysToTheStraightModel()
{
    SessionSettings s = SessionSettings::defaultsFor("toy");
    s.plannedSteps = 40;
    s.averagePoints = 5;
    auto exported = [&](const QString& path) {
        QSignalSpy done(w_->files(), &FileActions::weightsExported);
        w_->files()->exportWeightsTo(path);
        return done.wait(10000);
    };
    auto playToTheEnd = [&] {
        w_->link()->play();  // Play stops at the plan's end
        return QTest::qWaitFor([&] { return w_->currentStep() == 40 && !w_->isRunning(); }, 30000);
    };
    w_->applySettings(s);
    QVERIFY(waitStep(0));
    QVERIFY(playToTheEnd());
    const QString straight = dir_.filePath("straight.safetensors");
    QVERIFY(exported(straight));

    w_->applySettings(s);  // the same run from step 0
    QVERIFY(waitStep(0));
    w_->link()->step(35);
    QVERIFY(waitStep(35));
    const QString ckpt = dir_.filePath("averaging.ckpt");
    QSignalSpy saved(w_->files(), &FileActions::fileSaved);
    w_->files()->saveCheckpointTo(ckpt);
    QVERIFY(saved.wait(10000));
    QString error;
    std::optional<Checkpoint> at35 = loadCheckpoint(ckpt, &error);
    QVERIFY2(at35, qPrintable(error));
    QCOMPARE(at35->run.averageTaken, 2);

    w_->applySettings(SessionSettings::defaultsFor("toy"));  // something else in between
    QVERIFY(waitStep(0));
    QSignalSpy restored(w_.get(), &MainWindow::sessionRestored);
    w_->files()->openCheckpoint(ckpt);
    QVERIFY(restored.wait(10000));
    QVERIFY(waitStep(35));
    QVERIFY(playToTheEnd());
    const QString resumed = dir_.filePath("resumed.safetensors");
    QVERIFY(exported(resumed));
    const std::vector<float> a = weightsIn(straight), b = weightsIn(resumed);
    QCOMPARE(a.size(), b.size());
    QVERIFY2(std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0,
             "the reopened run's average differs from the straight run's");
}

AS_TEST_MAIN(TestWindowCheckpoint)
#include "test_window_checkpoint.moc"
