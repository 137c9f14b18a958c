// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Past one machine (README): a corpus prepared by `attention-studio-cli vocab`, trained with
// PyTorch's distributed data parallel by scripts/train_ddp.py under torchrun (2 CPU processes,
// gloo), and the model file it writes used by this program again.
//
//   - vocab writes the vocabularies `train --data` builds for the same files (compared with a
//     model that train writes), in the format import --src-vocab reads, and pairs whose ids are
//     the tokenisers' cut of the corpus lines; with train's held-out split too (vocab refuses
//     to write pairs that differ from train's, by their SHA-1);
//   - the two processes really trained one model: the first step's reduced gradient is the
//     mean of the two processes' own gradients (which differ: each had its own batch), the
//     same on both, and the final weights are identical on both (train_ddp.py --check);
//   - the file loads as a model file (configuration, vocabularies, tokenisers, step, run);
//     `attention-studio-cli eval` computes the same validation loss and NLL as PyTorch did
//     (so ids, specials, vocabularies and weights all mean the same on both sides);
//     `translate` answers every line; the window opens the file and draws its views.
//
// Skips, saying how to install it, when /usr/bin/python3 cannot import torch (Debian's
// python3-torch); fails instead with AS_REQUIRE_ALL_TESTS=1 (tests/support/skip.h), as in CI.
#include "test_files.h"
#include "cli_process.h"
#include "io/interop.h"
#include "io/model_file.h"
#include "skip.h"
#include "text/dataset.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace as;
using namespace Qt::StringLiterals;

namespace {

const QString kPython = u"/usr/bin/python3"_s;
constexpr int kTimeoutMs = 600'000;  // a loaded 2-core machine; the run takes ~10 s
constexpr int kSteps = 30;
const QString kConfig = u"d_model=32,heads=4,d_ff=64,encoder_layers=1,decoder_layers=1"_s;

using Run = test::ProcessRun;

Run run(const QString& program, const QStringList& args, const QProcessEnvironment& env,
        const QByteArray& input = {})
{
    return test::runProgram(program, args, env, input, kTimeoutMs);
}

QString describe(const QString& what, const Run& r)
{
    return test::describeRun(what, r);
}

QJsonObject readJson(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

std::vector<double> numbers(const QJsonValue& v)
{
    std::vector<double> out;
    for (const QJsonValue& x : v.toArray())
        out.push_back(x.toDouble(NAN));
    return out;
}

bool writeFile(const QString& path, const QByteArray& bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

}  // namespace

class TestDdp : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void vocabIsTrainsVocabulary();
    void twoProcessesTrainOneModel();
    void modelFileWorksHere();

private:
    QString path(const QString& name) const { return dir_.filePath(name); }
    QProcessEnvironment environment() const;

    QTemporaryDir dir_;
    QString trainDdp_, torchrun_, reference_;
    QByteArray validSources_;
    int validLines_ = 0;
    bool trained_ = false;
};

QProcessEnvironment TestDdp::environment() const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
    env.insert(u"OMP_NUM_THREADS"_s, u"1"_s);
    env.insert(u"PYTHONDONTWRITEBYTECODE"_s, u"1"_s);  // no __pycache__ in the source tree
    for (const char* v : {"HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"})
        env.insert(QString::fromLatin1(v), dir_.filePath(u"home"_s));
    return env;
}

void TestDdp::initTestCase()
{
    QVERIFY(dir_.isValid());
    QVERIFY(QDir().mkpath(path(u"home"_s)));
    trainDdp_ = ::as::test::testFile("../scripts/train_ddp.py");
    torchrun_ = ::as::test::testFile("../scripts/torchrun.py");
    const QString model = ::as::test::testFile("reference/torch_model.py");
    const QString corpus = ::as::test::testFile("data/zh-en-excerpt.tsv");
    QVERIFY2(!trainDdp_.isEmpty() && !torchrun_.isEmpty(), "scripts/ not found beside tests/");
    QVERIFY2(!model.isEmpty() && !corpus.isEmpty(), "tests/reference or tests/data missing");
    reference_ = QFileInfo(model).absolutePath();
    QVERIFY2(QFileInfo(test::cliProgram()).isExecutable(), "attention-studio-cli is not built");

    QProcess probe;
    probe.start(kPython, {u"-c"_s, u"import torch, numpy, torch.distributed as d; "
                                   "assert d.is_available() and d.is_gloo_available()"_s});
    if (!probe.waitForFinished(120000) || probe.exitStatus() != QProcess::NormalExit
        || probe.exitCode() != 0)
        AS_SKIP("/usr/bin/python3 cannot import torch (with torch.distributed and gloo) and "
                "numpy: install Debian's python3-torch (bash scripts/install-deps.sh --torch) to "
                "train with scripts/train_ddp.py");

    // The excerpt's first 250 pairs to train on, the other 41 to validate with.
    QFile f(corpus);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = f.readAll().split('\n');
    QByteArray train, valid;
    int n = 0;
    for (const QByteArray& line : lines) {
        if (line.trimmed().isEmpty())
            continue;
        if (n++ < 250) {
            train += line + '\n';
        } else {
            valid += line + '\n';
            validSources_ += line.split('\t').front() + '\n';
            ++validLines_;
        }
    }
    QVERIFY(validLines_ > 30);
    QVERIFY(writeFile(path(u"train.tsv"_s), train));
    QVERIFY(writeFile(path(u"valid.tsv"_s), valid));

    const Run v = run(test::cliProgram(),
                      {u"vocab"_s, u"--data"_s, path(u"train.tsv"_s), u"--valid"_s,
                       path(u"valid.tsv"_s), u"--out"_s, path(u"corpus"_s)},
                      environment());
    QVERIFY2(v.exitCode == 0, qPrintable(describe(u"attention-studio-cli vocab"_s, v)));
}

void TestDdp::vocabIsTrainsVocabulary()
{
    // What `train --data` itself builds for the same files: the model file it writes.
    const Run t = run(test::cliProgram(),
                      {u"train"_s, u"--threads"_s, u"1"_s, u"--data"_s, path(u"train.tsv"_s), u"--valid"_s,
                       path(u"valid.tsv"_s), u"--steps"_s, u"1"_s, u"--config"_s, kConfig,
                       u"--out"_s, path(u"one-step.safetensors"_s)},
                      environment());
    QVERIFY2(t.exitCode == 0, qPrintable(describe(u"attention-studio-cli train --data"_s, t)));
    QString error;
    const std::optional<ModelBundle> trained = loadModel(path(u"one-step.safetensors"_s), &error);
    QVERIFY2(trained, qPrintable(error));

    const QJsonObject info = readJson(path(u"corpus/corpus.json"_s));
    QCOMPARE(info.value(u"format"_s).toString(), u"attention-studio-vocab/1"_s);
    const std::optional<QStringList> src = readVocabFile(path(u"corpus/src.vocab"_s), &error);
    QVERIFY2(src, qPrintable(error));
    const std::optional<QStringList> tgt = readVocabFile(path(u"corpus/tgt.vocab"_s), &error);
    QVERIFY2(tgt, qPrintable(error));
    QCOMPARE(*src, trained->srcVocab.tokens());
    QCOMPARE(*tgt, trained->tgtVocab.tokens());
    QCOMPARE(info.value(u"src_tokenizer"_s).toString(), tokenizerName(trained->srcTok));
    QCOMPARE(info.value(u"tgt_tokenizer"_s).toString(), tokenizerName(trained->tgtTok));
    QCOMPARE(info.value(u"train_pairs"_s).toInt(), 250);
    QCOMPARE(info.value(u"valid_pairs"_s).toInt(), validLines_);

    // Each pair's ids are its corpus line cut by the tokenisers and encoded with them.
    const ParallelData codec = ParallelData::fromVocabularies(
        trained->srcVocab, trained->tgtVocab, trained->srcTok, trained->tgtTok);
    QFile tsv(path(u"train.tsv"_s)), jsonl(path(u"corpus/train.jsonl"_s));
    QVERIFY(tsv.open(QIODevice::ReadOnly) && jsonl.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = tsv.readAll().split('\n');
    int checked = 0;
    while (!jsonl.atEnd()) {
        const QJsonObject pair = QJsonDocument::fromJson(jsonl.readLine()).object();
        const int line = pair.value(u"line"_s).toInt();
        QVERIFY(line >= 1 && line <= lines.size());
        const QList<QByteArray> sides = lines[line - 1].split('\t');
        auto ids = [](const QJsonValue& v) {
            std::vector<int> out;
            for (const QJsonValue& x : v.toArray())
                out.push_back(x.toInt(-1));
            return out;
        };
        QCOMPARE(ids(pair.value(u"src"_s)), codec.encodeSource(QString::fromUtf8(sides[0])).ids);
        QCOMPARE(ids(pair.value(u"tgt"_s)), codec.encodeTarget(QString::fromUtf8(sides[1])).ids);
        ++checked;
    }
    QCOMPARE(checked, 250);

    // Without --valid, train's held-out pairs: vocab checks its own encoding of the training
    // pairs against the digest train records, and writes nothing when they differ.
    const Run held = run(test::cliProgram(),
                         {u"vocab"_s, u"--data"_s, path(u"train.tsv"_s), u"--out"_s,
                          path(u"held-out"_s)},
                         environment());
    QVERIFY2(held.exitCode == 0, qPrintable(describe(u"attention-studio-cli vocab"_s, held)));
    const QJsonObject heldInfo = readJson(path(u"held-out/corpus.json"_s));
    QVERIFY(heldInfo.value(u"valid_pairs"_s).toInt() > 0);
    QCOMPARE(heldInfo.value(u"train_pairs"_s).toInt() + heldInfo.value(u"valid_pairs"_s).toInt(),
             250);
}

void TestDdp::twoProcessesTrainOneModel()
{
    const Run t = run(kPython,
                      {torchrun_, u"--standalone"_s, u"--nproc_per_node"_s, u"2"_s, trainDdp_,
                       u"--corpus"_s, path(u"corpus"_s), u"--out"_s, path(u"ddp.safetensors"_s),
                       u"--steps"_s, QString::number(kSteps), u"--config"_s, kConfig,
                       u"--batch-tokens"_s, u"200"_s, u"--warmup"_s, u"10"_s, u"--seed"_s, u"3"_s,
                       u"--device"_s, u"cpu"_s, u"--log-every"_s, u"10"_s, u"--reference"_s,
                       reference_, u"--check"_s, path(u"check"_s)},
                      environment());
    QVERIFY2(t.exitCode == 0, qPrintable(describe(u"torchrun train_ddp.py"_s, t)));
    qInfo("%s", t.out.trimmed().constData());
    const QJsonObject r0 = readJson(path(u"check.rank0.json"_s));
    const QJsonObject r1 = readJson(path(u"check.rank1.json"_s));
    QVERIFY2(!r0.isEmpty() && !r1.isEmpty(), "train_ddp.py --check wrote no rank files");
    QCOMPARE(r0.value(u"world"_s).toInt(), 2);
    QCOMPARE(r1.value(u"rank"_s).toInt(), 1);
    QCOMPARE(r0.value(u"backend"_s).toString(), u"gloo"_s);

    // The first step: each process's own gradient of generator.bias, and after DDP's
    // all-reduce, their mean, on both.
    const auto local0 = numbers(r0.value(u"first_local_grad"_s));
    const auto local1 = numbers(r1.value(u"first_local_grad"_s));
    const auto reduced0 = numbers(r0.value(u"first_reduced_grad"_s));
    const auto reduced1 = numbers(r1.value(u"first_reduced_grad"_s));
    QVERIFY(!local0.empty());
    QCOMPARE(local1.size(), local0.size());
    QCOMPARE(reduced0.size(), local0.size());
    QCOMPARE(reduced1.size(), local0.size());
    double localDiff = 0, meanErr = 0, scale = 0;
    for (std::size_t i = 0; i < local0.size(); ++i) {
        localDiff = std::max(localDiff, std::abs(local0[i] - local1[i]));
        meanErr = std::max({meanErr, std::abs(reduced0[i] - 0.5 * (local0[i] + local1[i])),
                            std::abs(reduced1[i] - reduced0[i])});
        scale = std::max(scale, std::abs(local0[i]));
    }
    QVERIFY2(localDiff > 1e-4 * scale,
             "both processes computed the same gradient: they did not get their own batches");
    QVERIFY2(meanErr <= 1e-6 * scale,
             qPrintable(u"the reduced gradient is not the mean of the processes' own (off by "
                        "%1, scale %2)"_s.arg(meanErr).arg(scale)));
    // After all the steps, one model on both.
    QVERIFY(!r0.value(u"weights_sha1"_s).toString().isEmpty());
    QCOMPARE(r1.value(u"weights_sha1"_s).toString(), r0.value(u"weights_sha1"_s).toString());
    trained_ = true;
}

void TestDdp::modelFileWorksHere()
{
    // Without torch initTestCase skips every function; here the training itself failed.
    QVERIFY2(trained_, "twoProcessesTrainOneModel failed: there is no model to load");
    const QString model = path(u"ddp.safetensors"_s);
    QString error;
    const std::optional<ModelBundle> b = loadModel(model, &error);
    QVERIFY2(b, qPrintable(error));
    QCOMPARE(b->provenance.step, long(kSteps));
    QVERIFY2(b->provenance.run.contains(u"train_ddp.py on 2 processes"_s),
             qPrintable(b->provenance.run));
    QCOMPARE(b->config.d_model, 32);
    QCOMPARE(b->config.heads, 4);
    QCOMPARE(b->srcTok, TokenizerKind::CjkChar);
    std::optional<QStringList> src = readVocabFile(path(u"corpus/src.vocab"_s), &error);
    QVERIFY(src);
    QCOMPARE(b->srcVocab.tokens(), *src);

    // The engine's loss of the file on the validation pairs is PyTorch's.
    const Run e = run(test::cliProgram(),
                      {u"eval"_s, u"--model"_s, model, u"--data"_s, path(u"valid.tsv"_s),
                       u"--json"_s, u"--threads"_s, u"1"_s},
                      environment());
    QVERIFY2(e.exitCode == 0, qPrintable(describe(u"attention-studio-cli eval"_s, e)));
    const QJsonObject engine = QJsonDocument::fromJson(e.out).object();
    const QJsonObject torch = readJson(path(u"check.rank0.json"_s));
    QCOMPARE(engine.value(u"sentences"_s).toInt(), validLines_);
    QCOMPARE(torch.value(u"valid_pairs"_s).toInt(), validLines_);
    for (const auto& [ours, theirs] : {std::pair{u"loss"_s, u"valid_loss"_s},
                                       std::pair{u"nll"_s, u"valid_nll"_s}}) {
        const double a = engine.value(ours).toDouble(NAN), b2 = torch.value(theirs).toDouble(NAN);
        QVERIFY2(std::isfinite(a) && std::abs(a - b2) <= 1e-4 * std::abs(b2),
                 qPrintable(u"%1: the engine says %2, PyTorch %3"_s.arg(ours).arg(a, 0, 'g', 9)
                                .arg(b2, 0, 'g', 9)));
    }

    // translate answers every line.
    const Run tr = run(test::cliProgram(), {u"translate"_s, u"--threads"_s, u"1"_s, u"--model"_s, model}, environment(),
                       validSources_);
    QVERIFY2(tr.exitCode == 0, qPrintable(describe(u"attention-studio-cli translate"_s, tr)));
    QCOMPARE(tr.out.count('\n'), qsizetype(validLines_));

    // The window opens it and draws every view.
    const QString gui = QDir(QCoreApplication::applicationDirPath()).filePath(u"attention-studio"_s);
    const Run w = run(gui, {u"--screenshot"_s, path(u"shots"_s), model, u"--sentence"_s,
                            u"我有一个好朋友"_s, u"--threads"_s, u"1"_s},
                      environment());
    QVERIFY2(w.exitCode == 0, qPrintable(describe(u"attention-studio --screenshot MODEL"_s, w)));
    QVERIFY(QFileInfo(path(u"shots/4-attention.png"_s)).size() > 1000);
    QVERIFY(QFileInfo(path(u"shots/5-translate.png"_s)).size() > 1000);
}

AS_TEST_GUILESS_MAIN(TestDdp)
#include "test_ddp.moc"
