// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The success paths of `attention-studio-cli eval --json`, `bleu`, `export` and `import`, each
// against a computation of the test's own: eval's counts, NLL and accuracy against a plain
// forward of each sentence, its BLEU against tests/reference/bleu.py (sacreBLEU's algorithm in
// Python); bleu against bleu.py; export read by the PyTorch reference (tests/reference/
// torch_model.py through scripts/torch_parity.py), which must compute the engine's
// log-probabilities and greedy outputs; import giving back the exported weights bit for bit.
// One SentencePiece BPE model for both sides with tie=all (core/SPEC.md §10.3, §2.6): train,
// then translate and eval with the model file alone, and export/import giving it back.
// The parts that need Python skip (AS_SKIP) when /usr/bin/python3, or torch for the export,
// is missing. And `bench --profile`'s JSON: its keys, and shares that add up to its coverage;
// `bench --gemm`'s.
#include "test_files.h"
#include "cli_process.h"
#include "skip.h"
#include "toy_model.h"

#include "decode/decode.h"
#include "model/bf16.h"
#include "io/model_file.h"
#include "text/bundled_corpus.h"
#include "text/dataset.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstring>

using namespace as;
using namespace Qt::StringLiterals;

class TestCliSuccess : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void evalJson();
    void bleuAgainstReference();
    void exportReadByTorchThenImport();
    void sharedBpeTrainTranslateEvalExport();
    void benchProfileJson();
    void benchDecodeInEachPrecision();
    void benchGemmJson();

private:
    QTemporaryDir dir_;
    QString model_, data_;
    Task task_ = makeToyTask();
    bool python(const QStringList& args, QByteArray* out, QString* error, int timeoutMs = 600000);
    bool cli(const QStringList& args, QByteArray* out);
    bool hasPython(const QString& imports);
};

namespace {

// The three toy pairs and two of its sentences mixed up (so that the model gets some tokens
// wrong): a cjk-char source as typed, a word target.
const char* kPairs[][2] = {{"我有一个好朋友", "I have a good friend ."},
                           {"我有零个女朋友", "I have zero girl friend ."},
                           {"我有一个男朋友", "I have a boy friend ."},
                           {"我有一个女朋友", "I have a girl friend ."},
                           {"我有零个好朋友", "I have zero good friend ."}};

}  // namespace

bool TestCliSuccess::python(const QStringList& args, QByteArray* out, QString* error, int timeoutMs)
{
    QProcess p;
    p.start(QStringLiteral("/usr/bin/python3"), args);
    if (!p.waitForFinished(timeoutMs) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        *error = QStringLiteral("python3 %1: exit %2\n%3").arg(args.join(' ')).arg(p.exitCode())
                     .arg(QString::fromUtf8(p.readAllStandardError()));
        p.kill();
        return false;
    }
    *out = p.readAllStandardOutput();
    return true;
}

bool TestCliSuccess::hasPython(const QString& imports)
{
    QProcess p;
    p.start(QStringLiteral("/usr/bin/python3"), {QStringLiteral("-c"), QStringLiteral("import ") + imports});
    return p.waitForFinished(120000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

bool TestCliSuccess::cli(const QStringList& args, QByteArray* out)
{
    QProcess p;
    p.start(test::cliProgram(), args);
    if (!p.waitForFinished(600000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        qWarning("attention-studio-cli %s: exit %d\n%s", qPrintable(args.join(' ')), p.exitCode(),
                 p.readAllStandardError().constData());
        return false;
    }
    *out = p.readAllStandardOutput();
    return true;
}

void TestCliSuccess::initTestCase()
{
    QVERIFY(dir_.isValid());
    // The toy model after 40 steps: partly right, so that accuracy and BLEU are neither 0 nor
    // full and a miscount shows.
    Trainer trainer(test::toyModelConfig(task_), TrainOptions{1.0, 50, 3});
    Rng rng(3);
    for (int s = 0; s < 40; ++s)
        trainer.step(task_.nextBatch(rng));
    model_ = dir_.filePath("toy.safetensors");
    QString error;
    QVERIFY2(saveModel(model_, trainer.model(), task_.srcVocab, task_.tgtVocab, task_.srcTokenizer,
                       task_.tgtTokenizer, &error),
             qPrintable(error));
    data_ = dir_.filePath("test.tsv");
    QFile f(data_);
    QVERIFY(f.open(QIODevice::WriteOnly));
    for (const auto& p : kPairs) {
        f.write(QByteArray(p[0]) + '\t' + p[1] + '\n');
    }
}

void TestCliSuccess::evalJson()
{
    const QString hypPath = dir_.filePath("eval-hyp.txt");
    QByteArray out;
    QVERIFY(cli({"eval", "--model", model_, "--data", data_, "--json", "--out", hypPath, "--threads", "1"}, &out));
    const QJsonObject j = QJsonDocument::fromJson(out.trimmed()).object();
    QVERIFY2(!j.isEmpty(), out.constData());

    // The test's own count: each sentence alone through encode/decode, log-probabilities of
    // every target position (and </s>), argmax against the target.
    QString error;
    std::optional<ModelBundle> b = loadModel(model_, &error);
    QVERIFY2(b, qPrintable(error));
    Transformer<float>& m = *b->model;
    long tokens = 0, correct = 0, nearTies = 0;
    double nll = 0;
    Mat<float> logp;
    for (const auto& p : kPairs) {
        std::vector<int> src, in{kBos}, outIds;
        for (const QChar c : QString::fromUtf8(p[0]))
            src.push_back(task_.srcVocab.id(QString(c)));
        for (const QString& w : QString::fromUtf8(p[1]).split(' '))
            outIds.push_back(task_.tgtVocab.id(w));
        in.insert(in.end(), outIds.begin(), outIds.end());
        outIds.push_back(kEos);
        m.encode(src.data(), 1, int(src.size()), Pass::eval());
        const Mat<float> mem = m.memory();
        const std::vector<std::uint8_t> valid = m.sourceValid();
        m.decode(in.data(), 1, int(in.size()), mem, valid.data(), int(src.size()), Pass::eval());
        m.allLogProbs(logp);
        for (int r = 0; r < int(outIds.size()); ++r) {
            Eigen::Index best;
            const float top = logp.row(r).maxCoeff(&best);
            float second = -INFINITY;
            for (Eigen::Index c = 0; c < logp.cols(); ++c)
                if (c != best)
                    second = std::max(second, logp(r, c));
            nearTies += top - second < 1e-4f;
            correct += int(best) == outIds[std::size_t(r)];
            nll -= double(logp(r, outIds[std::size_t(r)]));
            ++tokens;
        }
    }
    nll /= double(tokens);
    qInfo("eval --json: %s; counted: %ld tokens, %ld right, NLL %.6f", out.trimmed().constData(),
          tokens, correct, nll);
    QCOMPARE(j.value("sentences").toInt(), 5);
    QCOMPARE(j.value("skipped").toInt(-1), 0);
    QCOMPARE(qint64(j.value("tokens").toDouble()), qint64(tokens));
    QVERIFY(std::abs(j.value("accuracy").toDouble() * double(tokens) - double(correct)) <= double(nearTies) + 1e-9);
    QVERIFY2(std::abs(j.value("nll").toDouble() - nll) <= 1e-5 * nll,
             qPrintable(QString::number(j.value("nll").toDouble(), 'g', 10)));
    // Label-smoothed loss ≥ 0 and, for eps 0.1 over a small vocabulary, above the NLL's share.
    QVERIFY(j.value("loss").toDouble() > 0);

    // Its BLEU is that of its translations (--out) against the references, as bleu.py counts.
    if (!hasPython(QStringLiteral("json")))
        AS_SKIP("no /usr/bin/python3: install Debian's python3 to check BLEU against tests/reference/bleu.py");
    const QString bleuPy = ::as::test::testFile("reference/bleu.py");
    QVERIFY(!bleuPy.isEmpty());
    QByteArray ref;
    QVERIFY2(python({bleuPy, hypPath, data_}, &ref, &error), qPrintable(error));
    QVERIFY2(std::abs(j.value("bleu").toDouble() - ref.trimmed().toDouble()) <= 0.005 + 1e-9,
             qPrintable(QStringLiteral("eval %1, bleu.py %2").arg(j.value("bleu").toDouble()).arg(QString::fromUtf8(ref.trimmed()))));
    QFile hyp(hypPath);
    QVERIFY(hyp.open(QIODevice::ReadOnly));
    QCOMPARE(hyp.readAll().count('\n'), 5);
}

void TestCliSuccess::bleuAgainstReference()
{
    if (!hasPython(QStringLiteral("json")))
        AS_SKIP("no /usr/bin/python3: install Debian's python3 to check BLEU against tests/reference/bleu.py");
    const QString bleuPy = ::as::test::testFile("reference/bleu.py");
    QVERIFY(!bleuPy.isEmpty());
    // Partial matches of every order, a short hypothesis (brevity penalty), punctuation that
    // 13a splits, a reference given as a TSV's second column.
    const QStringList hyps = {"the cat sat on the mat.", "a dog barked at the mailman, twice",
                              "it is raining", "I have a good friend."};
    const QStringList refs = {"the cat sat on a mat.", "the dog barked at the mailman twice.",
                              "it was raining heavily in the town", "I have a good friend ."};
    const QString hypPath = dir_.filePath("hyp.txt"), refPath = dir_.filePath("ref.tsv"),
                  cases = dir_.filePath("cases.json");
    QFile h(hypPath), r(refPath), c(cases);
    QVERIFY(h.open(QIODevice::WriteOnly) && r.open(QIODevice::WriteOnly) && c.open(QIODevice::WriteOnly));
    h.write((hyps.join('\n') + '\n').toUtf8());
    for (const QString& ref : refs)
        r.write(("source\t" + ref + '\n').toUtf8());
    c.write(QJsonDocument(QJsonArray{QJsonObject{{"hyps", QJsonArray::fromStringList(hyps)},
                                                 {"refs", QJsonArray{QJsonArray::fromStringList(refs)}}}})
                .toJson());
    h.close();
    r.close();
    c.close();
    QByteArray json, plain, ref;
    QString error;
    QVERIFY(cli({"bleu", "--json", hypPath, refPath}, &json));
    QVERIFY(cli({"bleu", hypPath, refPath}, &plain));
    QVERIFY2(python({bleuPy, "score", cases}, &ref, &error), qPrintable(error));
    const QJsonObject mine = QJsonDocument::fromJson(json.trimmed()).object();
    const QJsonObject theirs = QJsonDocument::fromJson(ref).array().at(0).toObject();
    qInfo("bleu --json: %s\nbleu.py: %s", json.trimmed().constData(), ref.trimmed().constData());
    const double score = theirs.value("score").toDouble();
    QVERIFY(score > 5 && score < 95);
    // The score is printed to two decimals, as sacreBLEU prints it.
    QVERIFY(std::abs(mine.value("bleu").toDouble() - theirs.value("score_2dp").toDouble()) <= 1e-9);
    QVERIFY(std::abs(mine.value("bleu").toDouble() - score) <= 0.005 + 1e-9);
    QVERIFY(std::abs(mine.value("bp").toDouble() - theirs.value("bp").toDouble()) <= 1e-12);
    QCOMPARE(qint64(mine.value("hyp_len").toDouble()), qint64(theirs.value("sys_len").toInt()));
    QCOMPARE(qint64(mine.value("ref_len").toDouble()), qint64(theirs.value("ref_len").toInt()));
    for (int n = 0; n < 4; ++n)
        QVERIFY(std::abs(mine.value("precisions").toArray().at(n).toDouble()
                         - theirs.value("precisions").toArray().at(n).toDouble()) <= 1e-9);
    QCOMPARE(QString::fromUtf8(plain.trimmed()), QString::number(score, 'f', 2));
}

void TestCliSuccess::exportReadByTorchThenImport()
{
    const QString weights = dir_.filePath("exported.safetensors"), back = dir_.filePath("imported.safetensors");
    QByteArray out;
    QVERIFY(cli({"export", "--model", model_, "--out", weights}, &out));
    QVERIFY2(out.startsWith("export: wrote "), out.constData());
    // import: the exported file carries heads, vocabularies and tokenizers, so no option is
    // needed; the model made is the one exported, bit for bit.
    QVERIFY(cli({"import", weights, "--out", back}, &out));
    QString error;
    std::optional<ModelBundle> a = loadModel(model_, &error), b = loadModel(back, &error);
    QVERIFY2(a && b, qPrintable(error));
    QCOMPARE(b->model->params().size(), a->model->params().size());
    QVERIFY(std::memcmp(a->model->params().values(), b->model->params().values(),
                        a->model->params().size() * sizeof(float)) == 0);
    QCOMPARE(b->srcVocab.size(), a->srcVocab.size());
    QCOMPARE(b->tgtVocab.size(), a->tgtVocab.size());
    QCOMPARE(int(b->srcTok.kind()), int(a->srcTok.kind()));
    QCOMPARE(b->config.heads, a->config.heads);
    QCOMPARE(int(b->config.norm), int(a->config.norm));

    // PyTorch reads the exported file: teacher-forced log-probabilities of the five pairs and
    // greedy outputs, against the engine's.
    if (!hasPython(QStringLiteral("torch, numpy")))
        AS_SKIP("/usr/bin/python3 cannot import torch and numpy: install Debian's python3-torch "
                "(bash scripts/install-deps.sh --torch) to read an export with the PyTorch reference");
    const QString refDir = QFileInfo(::as::test::testFile("reference/torch_model.py")).absolutePath();
    const QString scriptsDir = QFileInfo(::as::test::testFile("../scripts/torch_parity.py")).absolutePath();
    QVERIFY(!refDir.isEmpty() && !scriptsDir.isEmpty());
    Transformer<float>& m = *a->model;
    QJsonArray srcs, tgts;
    std::vector<std::vector<int>> srcIds, tgtIds;
    for (const auto& p : kPairs) {
        std::vector<int> s, t;
        QJsonArray js, jt;
        for (const QChar c : QString::fromUtf8(p[0])) {
            s.push_back(a->srcVocab.id(QString(c)));
            js.append(s.back());
        }
        for (const QString& w : QString::fromUtf8(p[1]).split(' ')) {
            t.push_back(a->tgtVocab.id(w));
            jt.append(t.back());
        }
        srcIds.push_back(s);
        tgtIds.push_back(t);
        srcs.append(js);
        tgts.append(jt);
    }
    const QString script = dir_.filePath("read_export.py");
    QFile f(script);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(R"PY(
import json, sys
sys.path.insert(0, sys.argv[1])
import torch, torch_parity as tp
torch.set_num_threads(1)
ref = tp.import_reference(sys.argv[2])
model, spec, meta = tp.model_from_weights(ref, sys.argv[3])
srcs, tgts = json.loads(sys.argv[4]), json.loads(sys.argv[5])
logps, greedy = [], []
with torch.no_grad():
    for s, t in zip(srcs, tgts):
        lp = model(torch.tensor([s]), torch.tensor([[1] + t]))[0]
        logps.append([[float(x) for x in row] for row in lp])
        greedy.append(tp.greedy(model, s, 12)[0])
print(json.dumps({"logp": logps, "greedy": greedy, "d_model": spec["d_model"]}))
)PY");
    f.close();
    QVERIFY2(python({script, scriptsDir, refDir, weights,
                     QString::fromUtf8(QJsonDocument(srcs).toJson(QJsonDocument::Compact)),
                     QString::fromUtf8(QJsonDocument(tgts).toJson(QJsonDocument::Compact))},
                    &out, &error),
             qPrintable(error));
    const QJsonObject torch = QJsonDocument::fromJson(out.trimmed().split('\n').back()).object();
    QVERIFY2(!torch.isEmpty(), out.constData());
    QCOMPARE(torch.value("d_model").toInt(), m.config().d_model);
    double worst = 0;
    Mat<float> logp;
    for (std::size_t i = 0; i < srcIds.size(); ++i) {
        std::vector<int> in{kBos};
        in.insert(in.end(), tgtIds[i].begin(), tgtIds[i].end());
        m.encode(srcIds[i].data(), 1, int(srcIds[i].size()), Pass::eval());
        const Mat<float> mem = m.memory();
        const std::vector<std::uint8_t> valid = m.sourceValid();
        m.decode(in.data(), 1, int(in.size()), mem, valid.data(), int(srcIds[i].size()), Pass::eval());
        m.allLogProbs(logp);
        const QJsonArray rows = torch.value("logp").toArray().at(int(i)).toArray();
        QCOMPARE(rows.size(), int(logp.rows()));
        for (int r = 0; r < int(logp.rows()); ++r) {
            const QJsonArray row = rows.at(r).toArray();
            QCOMPARE(row.size(), int(logp.cols()));
            for (int c = 0; c < int(logp.cols()); ++c)
                worst = std::max(worst, std::abs(row.at(c).toDouble() - double(logp(r, c))));
        }
        std::vector<int> theirs;
        for (const QJsonValue& v : torch.value("greedy").toArray().at(int(i)).toArray())
            theirs.push_back(v.toInt());
        const DecodeResult mine = greedyDecode(m, srcIds[i], 12);
        QVERIFY2(mine.nbest.front().tokens == theirs, qPrintable(QStringLiteral("sentence %1").arg(i)));
    }
    qInfo("exported weights in PyTorch: largest log-probability difference %.3g", worst);
    QVERIFY2(worst <= 1e-4, qPrintable(QString::number(worst)));
}

void TestCliSuccess::sharedBpeTrainTranslateEvalExport()
{
    // 1000 pairs of the bundled corpus to train on, 12 of its test split to translate.
    QString error;
    const std::optional<BundledCorpus> corpus = loadBundledCorpus(u"zh-en"_s, &error);
    QVERIFY2(corpus, qPrintable(error));
    const auto write = [](const QString& path, const QList<SentencePair>& pairs) {
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly))
            return false;
        for (const SentencePair& p : pairs)
            f.write((p.src + u'\t' + p.tgt + u'\n').toUtf8());
        return true;
    };
    const QString trainTsv = dir_.filePath("shared-train.tsv"), testTsv = dir_.filePath("shared-test.tsv");
    const QList<SentencePair> test = corpus->split.test.mid(0, 12);
    QVERIFY(write(trainTsv, corpus->split.train.mid(0, 1000)) && write(testTsv, test));

    const QString model = dir_.filePath("shared-bpe.safetensors");
    QByteArray out;
    QVERIFY(cli({"train", "--data", trainTsv, "--src-tok", "bpe:2000", "--tgt-tok", "bpe:2000",
                 "--shared-vocab", "--tie", "all", "--config",
                 "d_model=32,heads=2,d_ff=64,encoder_layers=1,decoder_layers=1", "--steps", "30",
                 "--threads", "1", "--seed", "5", "--out", model},
                &out));
    std::optional<ModelBundle> b = loadModel(model, &error);
    QVERIFY2(b, qPrintable(error));
    QCOMPARE(b->config.tie, Tie::All);
    QCOMPARE(tokenizerName(b->srcTok), u"bpe:2000"_s);
    QVERIFY(b->srcTok.ready() && b->srcTok == b->tgtTok);
    QCOMPARE(b->srcVocab.tokens(), b->srcTok.pieces());
    QCOMPARE(b->tgtVocab.tokens(), b->srcVocab.tokens());
    QVERIFY(!b->model->params().find("tgt_embed.weight") && !b->model->params().find("generator.weight"));

    // translate, the file alone: the engine's greedy outputs through the one model.
    const ParallelData data = ParallelData::fromVocabularies(b->srcVocab, b->tgtVocab, b->srcTok,
                                                             b->tgtTok, 0);
    QProcess p;
    p.start(test::cliProgram(), {"translate", "--model", model, "--threads", "1"});
    QVERIFY(p.waitForStarted());
    QStringList sources, expected;
    for (const SentencePair& pair : test) {
        sources << pair.src;
        const std::vector<int> ids = data.encodeSource(pair.src).ids;
        expected << data.decodeTarget(greedyDecode(*b->model, ids, DecodeOptions{}.limitFor(int(ids.size()), b->config.max_len)).nbest.front().tokens);
    }
    p.write((sources.join(u'\n') + u'\n').toUtf8());
    p.closeWriteChannel();
    QVERIFY(p.waitForFinished(120000));
    QCOMPARE(p.exitCode(), 0);
    const QStringList lines = QString::fromUtf8(p.readAllStandardOutput()).split(u'\n');
    QCOMPARE(lines.size(), sources.size() + 1);
    QCOMPARE(lines.mid(0, sources.size()), expected);

    // eval: every target piece and </s> counted, with the one model's pieces.
    QVERIFY(cli({"eval", "--model", model, "--data", testTsv, "--json", "--threads", "1"}, &out));
    const QJsonObject j = QJsonDocument::fromJson(out.trimmed()).object();
    QVERIFY2(!j.isEmpty(), out.constData());
    qint64 tokens = 0;
    for (const SentencePair& pair : test)
        tokens += qint64(data.encodeTarget(pair.tgt).ids.size()) + 1;
    QCOMPARE(qint64(j.value("tokens").toDouble()), tokens);
    QVERIFY(std::isfinite(j.value("nll").toDouble()) && j.value("nll").toDouble() > 0);

    // export, then import: the same weights, bit for bit, and the one model on both sides.
    const QString weights = dir_.filePath("shared-export.safetensors");
    const QString back = dir_.filePath("shared-import.safetensors");
    QVERIFY(cli({"export", "--model", model, "--out", weights}, &out));
    QVERIFY(cli({"import", weights, "--out", back}, &out));
    std::optional<ModelBundle> c = loadModel(back, &error);
    QVERIFY2(c, qPrintable(error));
    QCOMPARE(c->config.tie, Tie::All);
    QVERIFY(c->srcTok == b->srcTok && c->tgtTok == b->srcTok);
    QCOMPARE(c->tgtVocab.tokens(), b->srcVocab.tokens());
    QCOMPARE(c->model->params().size(), b->model->params().size());
    QVERIFY(std::memcmp(c->model->params().values(), b->model->params().values(),
                        b->model->params().size() * sizeof(float)) == 0);
    qInfo("shared bpe:2000, tie=all: %d parameters, eval NLL %.4f on %lld tokens",
          int(b->model->params().size()), j.value("nll").toDouble(), qlonglong(tokens));
}

// bench --profile: the breakdown's keys, per run and over all runs, and percentages that add up
// to the coverage (no timing is judged: the machine may be busy).
void TestCliSuccess::benchProfileJson()
{
    QByteArray out;
    QVERIFY(cli({"bench", "--config", "tiny", "--profile", "--steps", "1", "--runs", "2",
                 "--threads", "2"}, &out));
    const QJsonObject j = QJsonDocument::fromJson(out.trimmed()).object();
    QVERIFY2(!j.isEmpty(), out.constData());
    QCOMPARE(j.value("runs").toInt(), 2);
    const QJsonArray runs = j.value("profile_runs").toArray();
    QCOMPARE(runs.size(), 2);
    const QStringList keys{"gemm_attention_projections", "gemm_attention_scores",
                           "gemm_attention_context", "gemm_feed_forward", "gemm_generator",
                           "attention_softmax", "layer_norm", "dropout", "embedding", "loss",
                           "adam", "bias", "gradient", "thread_wait", "other"};
    const QStringList gemm = keys.mid(0, 5);
    auto check = [&](const QJsonObject& p, int steps) {
        QCOMPARE(p.value("steps").toInt(), steps);
        for (const char* k : {"step_ms", "coverage_percent", "gemm_percent",
                              "gemm_gflop_per_step", "gemm_gflop_per_s"})
            QVERIFY2(p.value(k).isDouble(), k);
        QVERIFY(p.value("step_ms").toDouble() > 0);
        const QJsonObject cats = p.value("categories").toObject();
        QCOMPARE(QStringList(cats.keys()).size(), keys.size());
        double percent = 0, gflop = 0;
        for (const QString& k : keys) {
            const QJsonObject c = cats.value(k).toObject();
            for (const char* field : {"ms", "ms_per_step", "percent"})
                QVERIFY2(c.value(field).isDouble(), qPrintable(k + "." + field));
            QCOMPARE(c.contains("gflop_per_s"), gemm.contains(k));
            QCOMPARE(c.contains("gflop_per_step"), gemm.contains(k));
            QCOMPARE(c.contains("calls_per_step"), gemm.contains(k));
            percent += c.value("percent").toDouble();
            gflop += c.value("gflop_per_step").toDouble();
        }
        QVERIFY2(std::abs(percent - p.value("coverage_percent").toDouble()) < 1e-6,
                 qPrintable(QString::number(percent)));
        QVERIFY(std::abs(gflop - p.value("gemm_gflop_per_step").toDouble()) < 1e-9);
    };
    check(runs[0].toObject(), 1);
    check(runs[1].toObject(), 1);
    check(j.value("profile").toObject(), 2);
    // Without --profile: the output as before.
    QVERIFY(cli({"bench", "--config", "tiny", "--steps", "1", "--threads", "1"}, &out));
    const QJsonObject plain = QJsonDocument::fromJson(out.trimmed()).object();
    QVERIFY(plain.contains("step_s"));
    QVERIFY(!plain.contains("profile"));
    QVERIFY(!plain.contains("profile_runs"));
}

// bench --decode --precision: the latencies and which precision produced them; bfloat16 where
// this machine has the units (the same answer as the engine's in this process), else refused
// with the reason and nothing timed.
void TestCliSuccess::benchDecodeInEachPrecision()
{
    const QStringList args{"bench", "--decode", "--runs", "1", "--out-len", "3", "--src-len", "4", "--threads", "1",
                           "--precision"};
    QByteArray out;
    QVERIFY(cli(args + QStringList{"float32"}, &out));
    const QJsonObject f32 = QJsonDocument::fromJson(out.trimmed()).object();
    QCOMPARE(f32.value("precision").toString(), QStringLiteral("float32"));
    for (const char* key : {"greedy_ms", "beam5_ms", "plain_greedy_ms", "trace_ms"})
        QVERIFY2(f32.value(key).toDouble() > 0, key);
    QProcess p;
    p.start(test::cliProgram(), args + QStringList{"bf16"});
    QVERIFY(p.waitForFinished(600000));
    if (const QString why = bf16Unavailable(); !why.isEmpty()) {
        QCOMPARE(p.exitCode(), 1);
        const QString error = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(error.contains(why), qPrintable(error));
        QVERIFY(p.readAllStandardOutput().isEmpty());
        qInfo("bfloat16 unavailable here: refused (%s)", qPrintable(why));
        return;
    }
    QCOMPARE(p.exitCode(), 0);
    const QJsonObject bf16 = QJsonDocument::fromJson(p.readAllStandardOutput().trimmed()).object();
    QCOMPARE(bf16.value("precision").toString(), QStringLiteral("bfloat16"));
    for (const char* key : {"greedy_ms", "beam5_ms", "plain_greedy_ms", "trace_ms"})
        QVERIFY2(bf16.value(key).toDouble() > 0, key);
}

// bench --gemm: the float32 product's rate, the bfloat16 product's where the engine in this
// process can run it (else the reason), and the ceiling both are read against: the float32 FMAs'
// peak in the vectors the CPU has, and the bfloat16 dot products' exactly where this test's own
// CPUID read finds AVX512-BF16 (a property of the CPU, given even under AS_BF16=off). Rates are
// positive; none is compared with a bound (they are measurements).
void TestCliSuccess::benchGemmJson()
{
    QByteArray out;
    QVERIFY(cli({"bench", "--gemm", "--threads", "1"}, &out));
    const QJsonObject j = QJsonDocument::fromJson(out.trimmed()).object();
    QCOMPARE(j.value("threads").toInt(), 1);
    for (const char* key : {"gflop_per_s", "eigen_gflop_per_s", "peak_gflop_per_s", "seconds"})
        QVERIFY2(j.value(key).toDouble() > 0, key);
    const QString vectors = j.value("peak_vectors").toString();
    QVERIFY2(vectors == "AVX-512" || vectors == "AVX2" || vectors == "scalar", qPrintable(vectors));
    if (const QString why = bf16Unavailable(); why.isEmpty()) {
        QVERIFY(j.value("bf16_gflop_per_s").toDouble() > 0);
        QVERIFY(!j.contains("bf16_unavailable"));
        // The kernel that ran, as this process (same CPU, same environment) chooses it.
        QCOMPARE(j.value("bf16_kernel").toString(), QString::fromLatin1(bf16KernelName(bf16Kernel())));
    } else {
        QVERIFY(!j.contains("bf16_gflop_per_s"));
        QCOMPARE(j.value("bf16_unavailable").toString(), why);
    }
    QCOMPARE(j.contains("peak_bf16_gflop_per_s"), cpuBf16Units().avx512bf16);
    if (cpuBf16Units().avx512bf16)
        QVERIFY(j.value("peak_bf16_gflop_per_s").toDouble() > 0);
}

AS_TEST_GUILESS_MAIN(TestCliSuccess)
#include "test_cli_success.moc"
