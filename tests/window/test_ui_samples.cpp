// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The Samples view: the session's example pairs translated at each validation, the previous
// translation beside each, changes marked — from records made by hand here, and in the window
// against greedy decoding of the exported model.
#include "skip.h"
#include "loss_view.h"
#include "main_window.h"
#include "file_actions.h"
#include "view_set.h"
#include "worker_link.h"
#include "samples_view.h"

#include "decode/decode.h"
#include "eval/bleu.h"
#include "eval/evaluate.h"
#include "io/model_file.h"
#include "model/parallel.h"
#include "text/dataset.h"
#include "cli_process.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace as;
using namespace Qt::StringLiterals;

namespace {
std::shared_ptr<const SamplesRecord> record(long step, const QStringList& hypotheses)
{
    auto r = std::make_shared<SamplesRecord>();
    r->step = step;
    const QStringList sources{u"我有一个好朋友"_s, u"对不起。"_s, u"谁知道？"_s};
    const QStringList refs{u"I have a good friend."_s, u"I'm sorry."_s, u"Who knows?"_s};
    for (int i = 0; i < hypotheses.size(); ++i)
        r->samples.push_back({sources[i], refs[i], hypotheses[i]});
    return r;
}
// The toy task in the window, validated every 10 steps, stepped `steps` times.
bool trainToy(MainWindow& w, int steps)
{
    w.show();
    SessionSettings s = SessionSettings::defaultsFor(u"toy"_s);
    s.evalEvery = 10;
    w.applySettings(s);
    if (!QTest::qWaitFor([&] { return w.examplesShown() > 0; }, 20000))
        return false;
    w.link()->step(steps);
    return QTest::qWaitFor([&] { return w.currentStep() == steps && !w.isRunning(); }, 60000);
}
}  // namespace

class TestUiSamples : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void showsChangesAgainstThePreviousRecord();
    void windowShowsTheModelsGreedyTranslations();
    void backgroundValidationMeasuresTheWeightsOfItsStep();
};

void TestUiSamples::showsChangesAgainstThePreviousRecord()
{
    ui::SamplesView v;
    QCOMPARE(v.rows(), 0);
    QCOMPARE(v.shownStep(), -1L);
    v.setSamples(record(250, {u"I have a friend ."_s, u"Sorry ."_s, u"Who ?"_s}));
    QCOMPARE(v.rows(), 3);
    QCOMPARE(v.previousStep(), -1L);
    QVERIFY(!v.changed(0));  // nothing to compare with yet
    const auto second = record(500, {u"I have a good friend ."_s, u"Sorry ."_s, u"Who knows ?"_s});
    v.setSamples(second);
    QCOMPARE(v.shownStep(), 500L);
    QCOMPARE(v.previousStep(), 250L);
    QVERIFY(v.changed(0));
    QVERIFY(!v.changed(1));
    QVERIFY(v.changed(2));
    QCOMPARE(v.previousTranslation(0), u"I have a friend ."_s);
    QCOMPARE(v.newWords(0), QStringList{u"good"_s});
    QCOMPARE(v.newWords(2), QStringList{u"knows"_s});
    QCOMPARE(v.newWords(1), QStringList{});
    // The table shows it: the changed translations highlighted in bold, the others not.
    QTableWidget* t = v.table();
    QCOMPARE(t->rowCount(), 3);
    QCOMPARE(t->item(0, 2)->text(), u"I have a good friend ."_s);
    QCOMPARE(t->item(0, 3)->text(), u"I have a friend ."_s);
    QVERIFY(t->item(0, 2)->font().bold());
    QVERIFY(!t->item(1, 2)->font().bold());
    QCOMPARE(t->item(2, 4)->text(), u"knows"_s);
    v.setSamples(second);  // the same record again: nothing moves
    QCOMPARE(v.previousStep(), 250L);
    // Another record of the same step (a finished run's summary) replaces it, keeping the
    // previous one.
    v.setSamples(record(500, {u"I have a good friend ."_s, u"I'm sorry ."_s, u"Who knows ?"_s}));
    QCOMPARE(v.shownStep(), 500L);
    QCOMPARE(v.previousStep(), 250L);
    QVERIFY(v.changed(1));
    QCOMPARE(v.newWords(1), (QStringList{u"I'm"_s, u"sorry"_s}));  // words compare case and all
    // A record of an earlier step is a new run: no previous.
    v.setSamples(record(10, {u"a"_s, u"b"_s, u"c"_s}));
    QCOMPARE(v.previousStep(), -1L);
    QVERIFY(!v.changed(0));
    v.reset();
    QCOMPARE(v.rows(), 0);
}

// Toy task, validation every 10 steps: after 20 steps the view shows step 20 against step 10,
// and each translation is what greedy decoding of the exported weights gives.
void TestUiSamples::windowShowsTheModelsGreedyTranslations()
{
    MainWindow w;
    QVERIFY(trainToy(w, 20));
    ui::SamplesView* v = w.views()->samples();
    QVERIFY(QTest::qWaitFor([&] { return v->shownStep() == 20; }, 10000));
    QCOMPARE(v->previousStep(), 10L);
    QCOMPARE(v->rows(), 3);

    QTemporaryDir dir;
    const QString path = dir.filePath(u"toy.safetensors"_s);
    QSignalSpy exported(w.files(), &FileActions::weightsExported);
    w.files()->exportWeightsTo(path);
    QVERIFY(exported.wait(20000));
    QString error;
    std::optional<ModelBundle> m = loadModel(path, &error);
    QVERIFY2(m, qPrintable(error));
    const ParallelData codec = ParallelData::fromVocabularies(m->srcVocab, m->tgtVocab, m->srcTok, m->tgtTok);
    const QStringList sources{u"我有一个好朋友"_s, u"我有零个女朋友"_s, u"我有一个男朋友"_s};
    for (int i = 0; i < 3; ++i) {
        const std::vector<int> ids = codec.encodeSource(sources[i]).ids;
        const DecodeResult d = greedyDecode(*m->model, ids, DecodeOptions{}.limitFor(int(ids.size()), m->config.max_len));
        QCOMPARE(v->table()->item(i, 0)->text(), sources[i]);
        QCOMPARE(v->translation(i), codec.decodeTarget(d.nbest.front().tokens));
    }
    w.close();
}

// The validations run on a copy of the weights in the background: after 30 toy steps with a
// validation every 10, the Loss view has three points with BLEU on its own axis, and the last
// one's loss, accuracy and BLEU are those of the weights of step 30, computed here from the
// exported model with evaluateLoss and corpusBleu; all three points' loss and accuracy are those
// `train --log` records for the same run.
void TestUiSamples::backgroundValidationMeasuresTheWeightsOfItsStep()
{
    MainWindow w;
    QVERIFY(trainToy(w, 30));
    ui::LossView* loss = w.views()->loss();
    QVERIFY(QTest::qWaitFor([&] { return loss->validPointCount() == 3; }, 20000));
    QCOMPARE(loss->bleuPointCount(), 3);
    QVERIFY(loss->bleuAxis()->visible());
    const EvalPoint last = loss->validPoint(2);
    QCOMPARE(last.step, 30L);
    std::vector<EvalPoint> window;
    for (int i = 0; i < 3; ++i)
        window.push_back(loss->validPoint(i));

    QTemporaryDir dir;
    const QString path = dir.filePath(u"toy.safetensors"_s);
    QSignalSpy exported(w.files(), &FileActions::weightsExported);
    w.files()->exportWeightsTo(path);
    QVERIFY(exported.wait(20000));
    w.close();
    QString error;
    std::optional<ModelBundle> m = loadModel(path, &error);
    QVERIFY2(m, qPrintable(error));
    const ParallelData codec = ParallelData::fromVocabularies(m->srcVocab, m->tgtVocab, m->srcTok, m->tgtTok);
    // The toy task validates on its three pairs.
    const QList<SentencePair> pairs{{u"我有一个好朋友"_s, u"I have a good friend ."_s, 0},
                                    {u"我有零个女朋友"_s, u"I have zero girl friend ."_s, 0},
                                    {u"我有一个男朋友"_s, u"I have a boy friend ."_s, 0}};
    const EncodedSplit split = codec.encode(pairs);
    const LossStats st = evaluateLoss(*m->model, split.pairs);
    QCOMPARE(last.loss, st.loss());
    QCOMPARE(last.accuracy, st.accuracy());
    QCOMPARE(last.nll, st.nll());  // without label smoothing: not the loss
    QVERIFY(last.nll != last.loss);
    QStringList hyps, refs;
    for (const SentencePair& p : pairs) {
        const std::vector<int> ids = codec.encodeSource(p.src).ids;
        const DecodeResult d = greedyDecode(*m->model, ids, DecodeOptions{}.limitFor(int(ids.size()), m->config.max_len));
        hyps << codec.decodeTarget(d.nbest.front().tokens);
        refs << codec.decodeTarget(codec.encodeTarget(p.tgt).ids);
    }
    QCOMPARE(last.bleu, corpusBleu(hyps, refs).score);

    // Every point, not only the last (those of steps 10 and 20 were taken while training went
    // on): the validations `train --log` records for the same task, seed, threads and cadence.
    const QString log = dir.filePath(u"toy.jsonl"_s);
    QVERIFY(test::runCli({u"train"_s, u"--task"_s, u"toy"_s, u"--steps"_s, u"30"_s, u"--valid-every"_s,
                          u"10"_s, u"--seed"_s, QString::number(SessionSettings::defaultsFor(u"toy"_s).train.seed),
                          u"--threads"_s, QString::number(engineThreads()), u"--log"_s, log}));
    QFile logFile(log);
    QVERIFY(logFile.open(QIODevice::ReadOnly));
    std::vector<QJsonObject> logged;
    for (const QByteArray& line : logFile.readAll().split('\n')) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        if (o.contains(u"valid_loss"_s))
            logged.push_back(o);
    }
    QCOMPARE(int(logged.size()), 3);
    for (std::size_t i = 0; i < 3; ++i) {
        const QString where = u"step %1"_s.arg(window[i].step);
        QCOMPARE(window[i].step, long(10 * (i + 1)));
        QCOMPARE(logged[i].value(u"step"_s).toDouble(), double(window[i].step));
        QVERIFY2(window[i].loss == logged[i].value(u"valid_loss"_s).toDouble(),
                 qPrintable(where + u": window %1, train --log %2"_s.arg(window[i].loss, 0, 'g', 17)
                                        .arg(logged[i].value(u"valid_loss"_s).toDouble(), 0, 'g', 17)));
        QVERIFY2(window[i].accuracy == logged[i].value(u"valid_accuracy"_s).toDouble(), qPrintable(where));
    }
    // The three differ (the weights changed between them).
    QVERIFY(window[0].loss != window[1].loss && window[1].loss != window[2].loss);
}

AS_TEST_MAIN(TestUiSamples)
#include "test_ui_samples.moc"
