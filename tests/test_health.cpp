// Training health (Trainer::setRecordHealth, `train --log`): per tensor, the update ratio equals
// ‖w_t − w_{t−1}‖ / ‖w_{t−1}‖ recomputed from two model files saved one step apart by two runs of
// the same seed (bit-identical up to there); the weight norm is that of the later file; the
// tensors' gradient norms make up the step's global one; Adam's effective step is lr /
// (sqrt(v̂) + ε) worked by hand (float sums: to 1e-4) on a first step (v̂ = g²); the JSON lines parse, one per step and
// one per validation, and match the run.
#include "io/model_file.h"
#include "train/trainer.h"
#include "text/tasks.h"
#include "cli_process.h"
#include "toy_model.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace as;
using namespace Qt::StringLiterals;

class TestHealth : public QObject {
    Q_OBJECT
private slots:
    void logMatchesTwoSavedModels();
    void effectiveStepByHand();
};

void TestHealth::logMatchesTwoSavedModels()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString a = dir.filePath(u"a.safetensors"_s), b = dir.filePath(u"b.safetensors"_s);
    const QString log = dir.filePath(u"b.jsonl"_s);
    const QStringList common{u"train"_s, u"--task"_s, u"toy"_s, u"--seed"_s, u"3"_s, u"--average"_s,
                             u"1"_s, u"--threads"_s, u"1"_s, u"--valid-every"_s, u"3"_s};
    QVERIFY(test::runCli(common + QStringList{u"--steps"_s, u"5"_s, u"--out"_s, a}));
    QVERIFY(test::runCli(common + QStringList{u"--steps"_s, u"6"_s, u"--out"_s, b, u"--log"_s, log}));
    QFile f(log);
    QVERIFY(f.open(QIODevice::ReadOnly));
    std::vector<QJsonObject> steps, valids;
    for (const QByteArray& line : f.readAll().split('\n')) {
        if (line.isEmpty())
            continue;
        QJsonParseError e;
        const QJsonObject o = QJsonDocument::fromJson(line, &e).object();
        QVERIFY2(e.error == QJsonParseError::NoError, qPrintable(e.errorString()));
        (o.contains("valid_loss") ? valids : steps).push_back(o);
    }
    QCOMPARE(int(steps.size()), 6);
    QCOMPARE(int(valids.size()), 2);  // at steps 3 and 6
    QCOMPARE(valids[1].value("step").toInt(), 6);
    for (int i = 0; i < 6; ++i)
        QCOMPARE(steps[std::size_t(i)].value("step").toInt(), i + 1);
    QString error;
    std::optional<ModelBundle> ma = loadModel(a, &error), mb = loadModel(b, &error);
    QVERIFY2(ma && mb, qPrintable(error));
    const QJsonObject last = steps.back();
    const QJsonObject tensors = last.value("tensors").toObject();
    const ParamStore<float>& pa = ma->model->params();
    const ParamStore<float>& pb = mb->model->params();
    QCOMPARE(tensors.size(), qsizetype(pa.table().size()));
    double gradSquares = 0;
    int moved = 0;
    for (const ParamInfo& p : pa.table()) {
        const QJsonObject t = tensors.value(QString::fromStdString(p.name)).toObject();
        const auto wa = pa.valueVector().segment(Eigen::Index(p.offset), Eigen::Index(p.size)).cast<double>();
        const auto wb = pb.valueVector().segment(Eigen::Index(p.offset), Eigen::Index(p.size)).cast<double>();
        const double ratio = (wb - wa).norm() / wa.norm();
        QVERIFY2(std::abs(t.value("update_ratio").toDouble() - ratio) <= 1e-12 + 1e-4 * ratio,
                 qPrintable(QStringLiteral("%1: logged %2, from the files %3").arg(QString::fromStdString(p.name))
                                .arg(t.value("update_ratio").toDouble()).arg(ratio)));
        QVERIFY(std::abs(t.value("weight_norm").toDouble() - wb.norm()) <= 1e-5 * wb.norm());
        gradSquares += std::pow(t.value("grad_norm").toDouble(), 2);
        moved += ratio > 0;
        QVERIFY(t.value("effective_step").toDouble() > 0);
    }
    QVERIFY(moved > int(pa.table().size()) / 2);
    QVERIFY(std::abs(std::sqrt(gradSquares) - last.value("grad_norm").toDouble()) < 1e-9 * std::sqrt(gradSquares));
    QVERIFY(last.value("lr").toDouble() > 0 && last.value("tokens").toInt() > 0);
}

void TestHealth::effectiveStepByHand()
{
    const Task task = makeToyTask();
    const ModelConfig c = test::toyModelConfig(task);
    Trainer t(c, TrainOptions{1.0, 10, 5});
    t.setRecordHealth(true);
    std::vector<float> g;
    t.afterBackward = [&](ParamStore<float>& ps) {  // keep a copy of the first step's gradient
        g.assign(ps.grads(), ps.grads() + ps.size());
    };
    Rng data(1);
    const StepStats st = t.step(task.nextBatch(data));
    QVERIFY(st.health);
    // After one step v = (1 − β2) g², v̂ = v / (1 − β2) = g²: lr / (|g| + ε), mean per tensor.
    const AdamOptions& o = t.adam().options();
    const std::vector<ParamInfo>& table = t.model().params().table();
    for (std::size_t i = 0; i < table.size(); ++i) {
        const ParamInfo& p = table[i];
        double sum = 0;
        for (std::size_t k = 0; k < p.size; ++k) {
            const double v = double((1.f - float(o.beta2)) * g[p.offset + k] * g[p.offset + k]) / (1 - o.beta2);
            sum += st.lr / (std::sqrt(v) + o.eps);
        }
        const double want = sum / double(p.size);
        QVERIFY2(std::abs((*st.health)[i].effectiveStep - want) <= 1e-4 * want,
                 qPrintable(QStringLiteral("%1: %2 vs %3").arg(QString::fromStdString(p.name)).arg((*st.health)[i].effectiveStep).arg(want)));
    }
    // Off by default: nothing measured.
    Trainer quiet(c, TrainOptions{1.0, 10, 5});
    QVERIFY(!quiet.step(task.nextBatch(data)).health);
}

QTEST_GUILESS_MAIN(TestHealth)
#include "test_health.moc"
