// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// View > Compare with run…: a run trained by attention-studio-cli, opened from its checkpoint,
// is drawn on the Loss and Learning rate plots exactly as the run's own JSON log
// (train --log) records it; bad files change nothing; a fifth run is refused; runs are
// removed, keep their colours and survive a Reset. And the views' contract for a run handed
// in again as it grows (the A/B session's use): only the new points are drawn, and a run that
// does not continue the drawn one is drawn again from scratch.
#include "skip.h"
#include "loss_view.h"
#include "lr_view.h"
#include "main_window.h"
#include "comparison_actions.h"
#include "file_actions.h"
#include "view_set.h"
#include "run_comparer.h"

#include "cli_process.h"
#include "io/run_file.h"
#include "train/snapshot.h"

#include <QAction>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace as;
using namespace Qt::StringLiterals;

namespace {

// What `train --log` wrote, read as JSON lines: the independent record of the run.
struct LoggedRun {
    std::vector<double> steps, loss, lr;               // one per step
    std::vector<double> validSteps, validLoss, validAcc;  // one per validation
};

LoggedRun readLog(const QString& path)
{
    LoggedRun r;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(path));
    while (!f.atEnd()) {
        const QJsonObject o = QJsonDocument::fromJson(f.readLine()).object();
        if (o.contains("valid_loss")) {
            r.validSteps.push_back(o["step"].toDouble());
            r.validLoss.push_back(o["valid_loss"].toDouble());
            r.validAcc.push_back(o["valid_accuracy"].toDouble());
        } else if (o.contains("loss")) {
            r.steps.push_back(o["step"].toDouble());
            r.loss.push_back(o["loss"].toDouble());
            r.lr.push_back(o["lr"].toDouble());
        }
    }
    return r;
}

std::vector<double> keysOf(const QCPGraph* g)
{
    std::vector<double> out;
    for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
        out.push_back(it->key);
    return out;
}

std::vector<double> valuesOf(const QCPGraph* g)
{
    std::vector<double> out;
    for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
        out.push_back(it->value);
    return out;
}

// The names in a plot's legend, in order.
QStringList legendNames(QCustomPlot* plot)
{
    QStringList names;
    for (int i = 0; i < plot->legend->itemCount(); ++i)
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(i)))
            names << item->plottable()->name();
    return names;
}

// A synthetic run of n steps (and a validation every 100), for the views' own tests.
RunSeriesPtr synthetic(const QString& name, int n, double scale = 1.0)
{
    auto s = std::make_shared<RunSeries>();
    s->name = name;
    for (int i = 1; i <= n; ++i) {
        s->loss.push_back({i, 0.01 * i, scale * (5.0 + std::sin(0.37 * i)), 1e-3 * i / (i + 50.0), 20});
        if (i % 100 == 0)
            s->eval.push_back({i, 0.01 * i, scale * 4.0 - 1e-3 * i, 0.3 + 1e-4 * i});
    }
    return s;
}

RunSeriesPtr prefix(const RunSeries& s, std::size_t n)
{
    auto p = std::make_shared<RunSeries>();
    p->name = s.name;
    p->loss.assign(s.loss.begin(), s.loss.begin() + long(std::min(n, s.loss.size())));
    for (const EvalPoint& e : s.eval)
        if (e.step <= long(p->loss.size()))
            p->eval.push_back(e);
    return p;
}

}  // namespace

class TestUiCompare : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup();
    void extendsSeriesTellsAGrownRun();
    void slotsKeepTheirColours();
    void overlayIsTheRunAsItsLogRecordsIt();
    void smoothedAsTheCurrentRunIs();
    void badFilesChangeNothing();
    void fifthRunIsRefused();
    void removeAndReset();
    void growingRunIsAppended();
    void hoverShowsNllAndPerplexity();

private:
    bool compare(const QString& path)
    {
        QSignalSpy changed(w_->comparisons()->runComparer(), &RunComparer::runsChanged);
        w_->comparisons()->compareWith(path);
        return changed.wait(60000);
    }
    QString copyOf(const QString& path, const QString& name)
    {
        const QString out = dir_.filePath(name);
        QFile::remove(out);
        if (!QFile::copy(path, out))
            qFatal("cannot copy %s", qPrintable(path));
        return out;
    }

    QTemporaryDir dir_;
    QString ckptA_, logA_, ckptB_, model_;
    std::unique_ptr<MainWindow> w_;
};

void TestUiCompare::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QVERIFY(dir_.isValid());
    ckptA_ = dir_.filePath("toy-a.ckpt");
    logA_ = dir_.filePath("toy-a.jsonl");
    ckptB_ = dir_.filePath("toy-b.ckpt");
    model_ = dir_.filePath("toy-b.safetensors");
    // Two short runs as a user makes them: validations every 20 steps; B with another seed
    // and warm-up.
    QVERIFY(test::runCli({"train", "--threads", "1", "--task", "toy", "--steps", "60", "--valid-every", "20",
                          "--checkpoint", ckptA_, "--log", logA_}));
    QVERIFY(test::runCli({"train", "--threads", "1", "--task", "toy", "--steps", "40", "--valid-every", "20",
                          "--seed", "2", "--warmup", "10", "--checkpoint", ckptB_, "--out", model_}));
}

void TestUiCompare::init()
{
    w_ = std::make_unique<MainWindow>();
    w_->show();
    w_->applySettings(SessionSettings::defaultsFor("toy"));
}

void TestUiCompare::cleanup()
{
    if (w_)
        w_->close();
    w_.reset();
}

void TestUiCompare::extendsSeriesTellsAGrownRun()
{
    const RunSeriesPtr full = synthetic("a", 300);
    QVERIFY(extendsSeries(*prefix(*full, 150), *full));
    QVERIFY(extendsSeries(*full, *full));
    QVERIFY(extendsSeries(*prefix(*full, 0), *full));
    QVERIFY(!extendsSeries(*full, *prefix(*full, 150)));  // shorter
    QVERIFY(!extendsSeries(*prefix(*full, 150), *synthetic("a", 300, 2.0)));  // other values
    QVERIFY(!extendsSeries(*prefix(*full, 150), *synthetic("b", 300)));  // other name
    // A validation changed where the two overlap.
    auto changed = std::make_shared<RunSeries>(*full);
    changed->eval.front().accuracy += 0.1;
    QVERIFY(!extendsSeries(*prefix(*full, 150), *changed));
}

void TestUiCompare::slotsKeepTheirColours()
{
    ui::ComparedSlots palette;
    QCOMPARE(palette.assign({"a", "b", "c"}), (std::vector<int>{0, 1, 2}));
    QCOMPARE(palette.assign({"a", "c"}), (std::vector<int>{0, 2}));       // b removed: c keeps 2
    QCOMPARE(palette.assign({"a", "c", "d"}), (std::vector<int>{0, 2, 1}));  // d takes the free 1
    QCOMPARE(palette.assign({"d", "d"}), (std::vector<int>{1, 0}));
    // Distinct colours, none of them one of the current run's.
    const QList<QColor> current = {QColor(31, 119, 180), QColor(214, 39, 40), QColor(44, 160, 44),
                                   QColor(148, 103, 189), QColor(240, 160, 140), QColor(33, 102, 172)};
    QSet<QRgb> seen;
    for (int i = 0; i < ui::kComparedColours; ++i) {
        const QColor c = ui::comparedRunColour(i);
        QVERIFY(!current.contains(c));
        seen.insert(c.rgb());
    }
    QCOMPARE(seen.size(), ui::kComparedColours);
}

void TestUiCompare::overlayIsTheRunAsItsLogRecordsIt()
{
    ui::LossView* loss = w_->views()->loss();
    ui::LrView* lr = w_->views()->lr();
    loss->setSmoothing(0.0);  // the drawn training curve is then the loss of each step
    const QStringList lossLegend = legendNames(loss->plot());
    QVERIFY(compare(ckptA_));
    const LoggedRun log = readLog(logA_);
    QCOMPARE(log.steps.size(), std::size_t(60));
    QCOMPARE(log.validSteps.size(), std::size_t(3));

    QCOMPARE(loss->comparedRunCount(), 1);
    const ui::LossView::ComparedGraphs g = loss->comparedRun(0);
    QCOMPARE(g.series->name, QStringLiteral("toy-a"));
    QCOMPARE(keysOf(g.loss), log.steps);
    QCOMPARE(valuesOf(g.loss), log.loss);
    QCOMPARE(keysOf(g.validLoss), log.validSteps);
    QCOMPARE(valuesOf(g.validLoss), log.validLoss);
    QCOMPARE(keysOf(g.validAccuracy), log.validSteps);
    QCOMPARE(valuesOf(g.validAccuracy), log.validAcc);
    QCOMPARE(g.validAccuracy->valueAxis(), loss->plot()->yAxis2);
    QCOMPARE(g.validBleu->dataCount(), 0);  // toy runs compute no BLEU
    QCOMPARE(g.loss->pen().color(), ui::comparedRunColour(0));
    QCOMPARE(g.validLoss->pen().color(), ui::comparedRunColour(0));
    // One legend entry, the run's name, after the current run's.
    QCOMPARE(legendNames(loss->plot()), lossLegend + QStringList{"toy-a"});

    QCOMPARE(lr->comparedRunCount(), 1);
    QCOMPARE(keysOf(lr->comparedGraph(0)), log.steps);
    QCOMPARE(valuesOf(lr->comparedGraph(0)), log.lr);
    QCOMPARE(lr->comparedGraph(0)->pen().color(), ui::comparedRunColour(0));
    QVERIFY(legendNames(lr->plot()).contains("toy-a"));
    // The whole run is in view.
    QVERIFY(lr->plot()->xAxis->range().upper >= 60);
    QVERIFY(lr->plot()->yAxis->range().upper >= *std::max_element(log.lr.begin(), log.lr.end()));

    // The CSV export has the run's rows under its name: its steps and validations.
    const QStringList rows = loss->csv().split('\n', Qt::SkipEmptyParts);
    QCOMPARE(rows.first(),
             QStringLiteral("kind,step,seconds,loss,smoothed_loss,accuracy,lr,bleu,nll,perplexity,run"));
    QStringList trainSteps, validSteps;
    for (const QString& row : rows) {
        const QStringList f = row.split(',');
        if (f.last() != QStringLiteral("\"toy-a\""))
            continue;
        (f[0] == "train" ? trainSteps : validSteps) << f[1];
        QCOMPARE(f.size(), 11);
        if (f[0] == "train") {  // 9 significant digits
            const double logged = log.loss[std::size_t(trainSteps.size() - 1)];
            QVERIFY(std::abs(f[3].toDouble() - logged) <= 1e-8 * std::abs(logged));
            QVERIFY(f[8].isEmpty() && f[9].isEmpty());
        } else {  // the validation's NLL, as the checkpoint recorded it, and exp(NLL)
            const EvalPoint& e = loss->comparedRun(0).series->eval[std::size_t(validSteps.size() - 1)];
            QVERIFY(e.nll > 0 && e.nll < 10);
            QVERIFY(std::abs(f[8].toDouble() - e.nll) <= 1e-8 * e.nll);
            QVERIFY(std::abs(f[9].toDouble() - std::exp(f[8].toDouble())) <= 1e-7 * f[9].toDouble());
        }
    }
    QCOMPARE(trainSteps.size(), 60);
    QCOMPARE(validSteps, (QStringList{"20", "40", "60"}));

    // By wall time: the run's own clock, as the checkpoint recorded it (read by the engine).
    loss->setByTime(true);
    QString error;
    const std::optional<RunSeries> read = readRunSeries(ckptA_, &error);
    QVERIFY2(read, qPrintable(error));
    std::vector<double> seconds;
    for (const LossPoint& p : read->loss)
        seconds.push_back(p.seconds);
    QCOMPARE(keysOf(loss->comparedRun(0).loss), seconds);
    QCOMPARE(valuesOf(loss->comparedRun(0).loss), log.loss);
}

void TestUiCompare::smoothedAsTheCurrentRunIs()
{
    ui::LossView* loss = w_->views()->loss();
    const double beta = 0.6;
    loss->setSmoothing(beta);
    QVERIFY(compare(ckptA_));
    // The debiased moving average, worked here in closed form: s_t = sum_k (1-b) b^(t-k) x_k
    // / (1 - b^t).
    const LoggedRun log = readLog(logA_);
    const std::vector<double> drawn = valuesOf(loss->comparedRun(0).loss);
    QCOMPARE(drawn.size(), log.loss.size());
    for (std::size_t t = 1; t <= log.loss.size(); ++t) {
        double sum = 0;
        for (std::size_t k = 1; k <= t; ++k)
            sum += (1 - beta) * std::pow(beta, double(t - k)) * log.loss[k - 1];
        const double expected = sum / (1 - std::pow(beta, double(t)));
        QVERIFY2(std::abs(drawn[t - 1] - expected) < 1e-12 * std::abs(expected),
                 qPrintable(QStringLiteral("step %1: %2 vs %3").arg(t).arg(drawn[t - 1]).arg(expected)));
    }
}

void TestUiCompare::badFilesChangeNothing()
{
    QVERIFY(compare(ckptA_));
    const std::vector<double> before = valuesOf(w_->views()->loss()->comparedRun(0).loss);
    const int lossGraphs = w_->views()->loss()->plot()->graphCount();
    const int lrGraphs = w_->views()->lr()->plot()->graphCount();

    QFile in(ckptB_);
    QVERIFY(in.open(QIODevice::ReadOnly));
    const QByteArray bytes = in.readAll();
    auto write = [&](const QString& name, const QByteArray& content) {
        const QString path = dir_.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(content) != content.size())
            qFatal("cannot write %s", qPrintable(path));
        return path;
    };
    QByteArray flipped = bytes;
    flipped[flipped.size() - 100] = char(flipped[flipped.size() - 100] ^ 0x20);  // in the history
    const struct {
        QString path;
        QString says;
    } bad[] = {
        {write("flipped.ckpt", flipped), "checksum"},
        {write("truncated.ckpt", bytes.left(bytes.size() / 2)), "truncated"},
        {write("notes.ckpt", "not a checkpoint\n"), "not an Attention Studio checkpoint"},
        {model_, "weight file"},
        {dir_.filePath("missing.ckpt"), "missing.ckpt"},
    };
    for (const auto& b : bad) {
        QSignalSpy error(w_.get(), &MainWindow::fileError);
        w_->comparisons()->compareWith(b.path);
        QVERIFY(error.wait(60000));
        const QString message = error.first().first().toString();
        QVERIFY2(message.contains(QFileInfo(b.path).fileName()) && message.contains(b.says),
                 qPrintable(message));
        QCOMPARE(w_->comparisons()->runComparer()->runs().size(), std::size_t(1));
        QCOMPARE(w_->views()->loss()->comparedRunCount(), 1);
        QCOMPARE(valuesOf(w_->views()->loss()->comparedRun(0).loss), before);
        QCOMPARE(w_->views()->loss()->plot()->graphCount(), lossGraphs);
        QCOMPARE(w_->views()->lr()->plot()->graphCount(), lrGraphs);
    }
    // The weight file is refused because it has no history, and says so.
    QString error;
    QVERIFY(!readRunSeries(model_, &error));
    QVERIFY2(error.contains("history"), qPrintable(error));
    // The same checkpoint twice is one run.
    QSignalSpy twice(w_.get(), &MainWindow::fileError);
    w_->comparisons()->compareWith(ckptA_);
    QCOMPARE(twice.size(), 1);
    QVERIFY(twice.first().first().toString().contains("already"));
}

void TestUiCompare::fifthRunIsRefused()
{
    const QStringList files = {copyOf(ckptA_, "one.ckpt"), copyOf(ckptB_, "two.ckpt"),
                               copyOf(ckptA_, "three.ckpt"), copyOf(ckptB_, "four.ckpt")};
    for (const QString& f : files)
        w_->comparisons()->compareWith(f);  // read one after the other in the background
    QVERIFY(QTest::qWaitFor([&] { return w_->comparisons()->runComparer()->runs().size() == 4; }, 60000));
    QSignalSpy error(w_.get(), &MainWindow::fileError);
    w_->comparisons()->compareWith(copyOf(ckptB_, "five.ckpt"));
    QCOMPARE(error.size(), 1);  // at once, without reading the file
    QVERIFY2(error.first().first().toString().contains("at most 4"),
             qPrintable(error.first().first().toString()));
    QCOMPARE(w_->comparisons()->runComparer()->runs().size(), std::size_t(4));
    QTRY_COMPARE_WITH_TIMEOUT(w_->views()->loss()->comparedRunCount(), 4, 20000);
    // Legend entries in the order added, each in its own colour.
    QStringList names = {"one", "two", "three", "four"};
    QCOMPARE(legendNames(w_->views()->loss()->plot()).mid(legendNames(w_->views()->loss()->plot()).size() - 4), names);
    QCOMPARE(legendNames(w_->views()->lr()->plot()).mid(legendNames(w_->views()->lr()->plot()).size() - 4), names);
    for (int i = 0; i < 4; ++i) {
        QCOMPARE(w_->views()->loss()->comparedRun(i).colour, ui::comparedRunColour(i));
        QCOMPARE(w_->views()->lr()->comparedGraph(i)->pen().color(), ui::comparedRunColour(i));
    }
    // The menu lists each, then "Remove all".
    QStringList items;
    for (QAction* a : w_->comparisons()->removeComparedMenu()->actions())
        if (!a->isSeparator())
            items << a->text();
    QCOMPARE(items, names + QStringList{"Remove &all"});
}

void TestUiCompare::removeAndReset()
{
    ui::LossView* loss = w_->views()->loss();
    ui::LrView* lr = w_->views()->lr();
    const int lossGraphs = loss->plot()->graphCount(), lrGraphs = lr->plot()->graphCount();
    const QStringList lossLegend = legendNames(loss->plot());
    QVERIFY(!w_->comparisons()->removeComparedMenu()->isEnabled());
    QCOMPARE(w_->comparisons()->compareAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    QVERIFY(compare(ckptA_));
    QVERIFY(compare(ckptB_));
    QVERIFY(compare(copyOf(ckptA_, "third.ckpt")));
    QVERIFY(w_->comparisons()->removeComparedMenu()->isEnabled());
    QCOMPARE(loss->plot()->graphCount(), lossGraphs + 3 * 4);
    QCOMPARE(lr->plot()->graphCount(), lrGraphs + 3);

    // Remove the middle one from the menu: the others keep their colours and points.
    const std::vector<double> thirdLoss = valuesOf(loss->comparedRun(2).loss);
    w_->comparisons()->removeComparedMenu()->actions().at(1)->trigger();
    QCOMPARE(loss->comparedRunCount(), 2);
    QCOMPARE(lr->comparedRunCount(), 2);
    QCOMPARE(legendNames(loss->plot()), lossLegend + QStringList({"toy-a", "third"}));
    QCOMPARE(loss->comparedRun(1).colour, ui::comparedRunColour(2));
    QCOMPARE(lr->comparedGraph(1)->pen().color(), ui::comparedRunColour(2));
    QCOMPARE(valuesOf(loss->comparedRun(1).loss), thirdLoss);
    QCOMPARE(loss->plot()->graphCount(), lossGraphs + 2 * 4);
    QCOMPARE(lr->plot()->graphCount(), lrGraphs + 2);

    // A Reset (a new session of the current run) keeps them.
    w_->resetAction()->trigger();
    QVERIFY(QTest::qWaitFor([&] { return w_->currentStep() == 0; }, 20000));
    w_->applySettings(SessionSettings::defaultsFor("toy"));
    QCOMPARE(loss->comparedRunCount(), 2);
    QCOMPARE(lr->comparedRunCount(), 2);
    QCOMPARE(valuesOf(loss->comparedRun(1).loss), thirdLoss);
    QCOMPARE(lr->comparedGraph(1)->dataCount(), 60);
    // So does opening a checkpoint (another run's history replaces the current one's).
    QSignalSpy restored(w_.get(), &MainWindow::sessionRestored);
    w_->files()->openCheckpoint(ckptB_);
    QVERIFY(restored.wait(60000));
    QVERIFY(QTest::qWaitFor([&] { return loss->trainPointCount() == 40; }, 20000));
    QCOMPARE(loss->comparedRunCount(), 2);
    QCOMPARE(valuesOf(loss->comparedRun(1).loss), thirdLoss);
    QCOMPARE(lr->comparedGraph(1)->dataCount(), 60);

    // Remove all: back to the current run's graphs and legend.
    const QList<QAction*> items = w_->comparisons()->removeComparedMenu()->actions();
    items.last()->trigger();
    QCOMPARE(loss->comparedRunCount(), 0);
    QCOMPARE(lr->comparedRunCount(), 0);
    QCOMPARE(loss->plot()->graphCount(), lossGraphs);
    QCOMPARE(lr->plot()->graphCount(), lrGraphs);
    QCOMPARE(legendNames(loss->plot()), lossLegend);
    QVERIFY(!w_->comparisons()->removeComparedMenu()->isEnabled());
}

void TestUiCompare::growingRunIsAppended()
{
    ui::LossView loss;
    ui::LrView lr;
    loss.setSmoothing(0.0);
    const RunSeriesPtr full = synthetic("B", 2000);
    const RunSeriesPtr other = synthetic("A", 500, 0.5);
    QCPGraph* drawn = nullptr;
    QCPGraph* drawnLr = nullptr;
    // Handed in again and again as it grows, beside a fixed run, as an A/B session does.
    for (std::size_t n = 10; n <= 2000; n += 190) {
        const RunSeriesList runs = {other, prefix(*full, n)};
        loss.setComparedRuns(runs);
        lr.setComparedRuns(runs);
        if (!drawn) {
            drawn = loss.comparedRun(1).loss;
            drawnLr = lr.comparedGraph(1);
        }
        // The same graphs, grown.
        QCOMPARE(loss.comparedRun(1).loss, drawn);
        QCOMPARE(lr.comparedGraph(1), drawnLr);
        QCOMPARE(std::size_t(drawn->dataCount()), n);
    }
    loss.setComparedRuns({other, full});
    lr.setComparedRuns({other, full});
    std::vector<double> steps, values, rates, validSteps, validLoss;
    for (const LossPoint& p : full->loss) {
        steps.push_back(double(p.step));
        values.push_back(p.loss);
        rates.push_back(p.lr);
    }
    for (const EvalPoint& e : full->eval) {
        validSteps.push_back(double(e.step));
        validLoss.push_back(e.loss);
    }
    QCOMPARE(keysOf(drawn), steps);
    QCOMPARE(valuesOf(drawn), values);
    QCOMPARE(keysOf(loss.comparedRun(1).validLoss), validSteps);
    QCOMPARE(valuesOf(loss.comparedRun(1).validLoss), validLoss);
    QCOMPARE(valuesOf(drawnLr), rates);
    QCOMPARE(std::size_t(loss.comparedRun(0).loss->dataCount()), other->loss.size());

    // The same name and longer, but not a continuation (a restarted session with other
    // settings): drawn again, not appended.
    const RunSeriesPtr restarted = synthetic("B", 2100, 2.0);
    loss.setComparedRuns({other, restarted});
    lr.setComparedRuns({other, restarted});
    std::vector<double> restartedLoss, restartedLr;
    for (const LossPoint& p : restarted->loss) {
        restartedLoss.push_back(p.loss);
        restartedLr.push_back(p.lr);
    }
    QCOMPARE(valuesOf(loss.comparedRun(1).loss), restartedLoss);
    QCOMPARE(loss.comparedRun(1).validLoss->dataCount(), 21);
    QCOMPARE(valuesOf(lr.comparedGraph(1)), restartedLr);
}

// A validation's NLL per token (without label smoothing) and its perplexity exp(NLL) in the
// hover text, worked by hand: NLL ln 50 = 3.9120 is perplexity 50. A point without a recorded
// NLL (from a file of format 3 or older) shows neither.
void TestUiCompare::hoverShowsNllAndPerplexity()
{
    ui::LossView loss;
    loss.resize(900, 600);
    TrainingSnapshot s;
    for (long i = 1; i <= 20; ++i)
        s.newLoss.push_back({i, double(i), 5.0 - 0.1 * double(i), 1e-3, 100});
    EvalPoint old{10, 10.0, 4.2, 0.3};
    EvalPoint recorded{20, 20.0, 4.1, 0.35};
    recorded.nll = std::log(50.0);
    s.newEval = {old, recorded};
    loss.applySnapshot(s);
    loss.plot()->replot();
    const auto at = [&](double step) {
        return QPoint(int(std::lround(loss.plot()->xAxis->coordToPixel(step))),
                      loss.plot()->axisRect()->center().y());
    };
    const QString there = loss.hoverText(at(20));
    QVERIFY2(there.contains(u"validation (step 20)"_s) && there.contains(u"NLL 3.9120"_s)
                 && there.contains(u"perplexity 50.00"_s),
             qPrintable(there));
    const QString before = loss.hoverText(at(10));
    QVERIFY2(before.contains(u"validation (step 10)"_s) && !before.contains(u"NLL"_s)
                 && !before.contains(u"perplexity"_s),
             qPrintable(before));
}

AS_TEST_MAIN(TestUiCompare)
#include "test_ui_compare.moc"
