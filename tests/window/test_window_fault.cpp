// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// A step whose loss or gradient is not finite, in the window: training pauses, the user is told
// which step and which layer, nothing is recorded, and the weights are those of the step before.
#include "skip.h"
#include "main_window.h"
#include "file_actions.h"
#include "view_set.h"
#include "worker_link.h"
#include "window_runs.h"
#include "loss_view.h"

#include "io/model_file.h"
#include "model/transformer.h"
#include "text/tasks.h"

#include <QtTest>
#include <QMessageBox>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>

using namespace as;

class TestWindowFault : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void nonFiniteStepPausesWithItsMessage();
};

namespace {

std::vector<float> exported(MainWindow& w, const QString& path)
{
    QSignalSpy done(w.files(), &FileActions::weightsExported);
    w.files()->exportWeightsTo(path);
    if (!done.wait(20000) && done.isEmpty())
        return {};
    QString error;
    std::optional<ModelBundle> m = loadModel(path, &error);
    if (!m) {
        qWarning("%s", qPrintable(error));
        return {};
    }
    const auto& v = m->model->params().valueVector();
    return std::vector<float>(v.data(), v.data() + v.size());
}

}  // namespace

void TestWindowFault::nonFiniteStepPausesWithItsMessage()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    MainWindow w;
    w.show();
    // A Noam factor of 1e30: step 1 is finite (it starts from the initial weights) and moves
    // every weight by about 1e25; step 2's forward pass then overflows float.
    SessionSettings s = SessionSettings::defaultsFor("toy");
    s.train.factor = 1e30;
    w.applySettings(s);
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == 0 && w.examplesShown() > 0; }, 20000));

    // The message box is modal: read it and close it as a user would.
    const test::MessageBoxes reader;
    const QStringList& boxes = reader.seen();

    w.stepAction()->trigger();
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() == 1; }, 20000));
    QVERIFY(boxes.isEmpty());
    const std::vector<float> afterOne = exported(w, dir.filePath("one.safetensors"));
    QVERIFY(!afterOne.empty());
    QVERIFY(std::all_of(afterOne.begin(), afterOne.end(), [](float x) { return std::isfinite(x); }));

    w.link()->setStepsPerSecond(10.0);
    w.playAction()->trigger();
    QVERIFY2(QTest::qWaitFor([&] { return !boxes.isEmpty(); }, 20000), "no message");
    QVERIFY(QTest::qWaitFor([&] { return !w.isRunning(); }, 10000));
    QVERIFY(test::settled(w));  // everything the worker sent has arrived
    QVERIFY(!w.isRunning());
    QCOMPARE(boxes.size(), 1);
    QCOMPARE(w.currentStep(), 1L);
    QCOMPARE(w.views()->loss()->trainPointCount(), 1);

    const QString msg = boxes.first();
    qInfo("%s", qPrintable(msg));
    QVERIFY2(msg.startsWith(QStringLiteral("Training paused | Training is paused: step 2: ")), qPrintable(msg));
    QVERIFY2(msg.contains(QStringLiteral("the update was skipped")), qPrintable(msg));
    // It names a layer, one of the model's parameters.
    const QRegularExpressionMatch m =
        QRegularExpression(QStringLiteral("the gradient of (\\S+) is")).match(msg);
    QVERIFY2(m.hasMatch(), qPrintable(msg));
    ModelConfig c = w.settings().model;
    const Task task = makeToyTask();
    c.src_vocab = task.srcVocab.size();
    c.tgt_vocab = task.tgtVocab.size();
    Transformer<float> model(c);
    QStringList names;
    for (const ParamInfo& p : model.params().table())
        names << QString::fromStdString(p.name);
    QVERIFY2(names.contains(m.captured(1)), qPrintable(m.captured(1)));

    // Nothing changed: the weights are those of step 1, bit for bit.
    const std::vector<float> afterFault = exported(w, dir.filePath("fault.safetensors"));
    QCOMPARE(afterFault.size(), afterOne.size());
    QVERIFY(std::memcmp(afterFault.data(), afterOne.data(), afterOne.size() * sizeof(float)) == 0);
    // And Step tries the same step again, with the same outcome.
    w.stepAction()->trigger();
    QVERIFY2(QTest::qWaitFor([&] { return boxes.size() == 2; }, 20000), "no second message");
    QVERIFY2(boxes.last().contains(QStringLiteral("step 2: ")), qPrintable(boxes.last()));
    QCOMPARE(w.currentStep(), 1L);
    w.close();
}

AS_TEST_MAIN(TestWindowFault)
#include "test_window_fault.moc"
