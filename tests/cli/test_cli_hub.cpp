// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The command line on a GPT-2 folder as the Hugging Face Hub has it (core/SPEC.md §8.6):
// random weights written by the PyTorch GPT-2 of tests/reference/hub_gpt2.py, and GPT-2's
// real tokenizer files (tests/data/gpt2-tokenizer: vocab.json and merges.txt by their Hub
// names). The numbers themselves are held to PyTorch in tests/core/test_hub_gpt2; here:
// - `generate --model FOLDER` continues each line as the engine's greedy decoding of the
//   loaded model does, the prompt cut into GPT-2's ids ("Hello world" is 15496 995);
// - `trace` shows GPT-2's pieces and the tensors of every layer, `heads` scores its heads,
//   `eval` gives its perplexity of a text;
// - a folder whose tokenizer does not fit config.json is refused, naming both;
// - `train --model FOLDER --task lm-en` fine-tunes it from its own weights on the bundled
//   English sentences cut into GPT-2's pieces, and `--resume` continues that run exactly.
#include "skip.h"
#include "cli_process.h"
#include "decode/decode.h"
#include "io/hub_model.h"
#include "io/model_file.h"
#include "test_files.h"
#include "text/dataset.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace as;
using namespace Qt::StringLiterals;

class TestCliHub : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void generate();
    void traceHeadsEval();
    void tokenizerMismatch();
    void exportBothWays();
    void fineTune();

private:
    test::ProcessRun cli(const QStringList& args, const QByteArray& input = {}) const
    {
        return test::runProgram(test::cliProgram(), args, QProcessEnvironment::systemEnvironment(),
                                input);
    }
    QTemporaryDir dir_;
    QString gpt2_;
};

void TestCliHub::initTestCase()
{
    QVERIFY(dir_.isValid());
    const QString script = ::as::test::testFile("reference/hub_gpt2.py");
    QVERIFY2(!script.isEmpty(), "tests/reference/hub_gpt2.py not found beside this test");
    if (!::as::test::pythonImports(u"torch, numpy"_s))
        AS_SKIP("/usr/bin/python3 cannot import torch and numpy: install Debian's python3-torch "
                "(bash scripts/install-deps.sh --torch) to write GPT-2's files as PyTorch does");
    gpt2_ = dir_.filePath(u"gpt2"_s);
    QString error;
    QVERIFY2(::as::test::runPython({script, gpt2_, u"--layers"_s, u"2"_s, u"--ctx"_s, u"48"_s}, &error),
             qPrintable(error));
    // GPT-2's tokenizer, under the names the Hub gives its files.
    const QString vocab = ::as::test::testFile("data/gpt2-tokenizer/encoder.json");
    const QString merges = ::as::test::testFile("data/gpt2-tokenizer/vocab.bpe");
    QVERIFY2(!vocab.isEmpty() && !merges.isEmpty(), "tests/data/gpt2-tokenizer not found");
    QVERIFY(QFile::copy(vocab, gpt2_ + u"/vocab.json"_s));
    QVERIFY(QFile::copy(merges, gpt2_ + u"/merges.txt"_s));
}

void TestCliHub::generate()
{
    const QByteArray input = "Hello world\nThe cat sat on\n你好\n";
    const test::ProcessRun r = cli({u"generate"_s, u"--model"_s, gpt2_, u"--max-len"_s, u"6"_s}, input);
    QVERIFY2(r.exitCode == 0, qPrintable(test::describeRun(u"generate"_s, r)));
    const QStringList got = QString::fromUtf8(r.out).split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(got.size(), 3);
    QString error;
    std::optional<ModelBundle> b = loadModel(gpt2_, &error);
    QVERIFY2(b, qPrintable(error));
    const std::optional<HubModel> hub = readHubModel(gpt2_, &error);
    QVERIFY2(hub, qPrintable(error));
    const ParallelData codec = ParallelData::fromVocabularies(b->srcVocab, b->tgtVocab, b->srcTok, b->tgtTok);
    const QStringList lines = QString::fromUtf8(input).split(u'\n').mid(0, 3);
    // GPT-2's ids of the first line, through the engine's.
    std::vector<int> hello;
    for (int id : codec.encodeSource(lines[0]).ids)
        hello.push_back(hub->ids.toHub(id));
    QCOMPARE(hello, std::vector<int>({15496, 995}));
    for (int i = 0; i < 3; ++i) {
        const std::vector<int> prompt = codec.encodeSource(lines[i]).ids;
        DecodeOptions o;
        o.maxLen = 6;
        const DecodeResult d = greedyDecode(*b->model, prompt, o);
        std::vector<int> text = prompt;
        text.insert(text.end(), d.nbest[0].tokens.begin(), d.nbest[0].tokens.end());
        QCOMPARE(got[i], codec.decodeTarget(text));
        QVERIFY2(got[i].startsWith(lines[i]), qPrintable(got[i]));
        QVERIFY(got[i].size() > lines[i].size());  // six tokens more (random weights: some text)
    }
}

void TestCliHub::traceHeadsEval()
{
    const test::ProcessRun t = cli({u"trace"_s, u"--model"_s, gpt2_, u"--only"_s, u"decoder.1.self.weights"_s},
                                   "Hello world\n");
    QVERIFY2(t.exitCode == 0, qPrintable(test::describeRun(u"trace"_s, t)));
    const QJsonObject o = QJsonDocument::fromJson(t.out.trimmed().split('\n').back()).object();
    QCOMPARE(o[u"target_tokens"_s].toArray(), QJsonArray({u"<s>"_s, u"Hello"_s, u"Ġworld"_s}));
    const QJsonObject w = o[u"tensors"_s].toObject()[u"decoder.1.self.weights"_s].toObject();
    QVERIFY2(!w.isEmpty(), t.out.constData());

    const QString text = dir_.filePath(u"text.txt"_s);
    {
        QFile f(text);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("The quick brown fox jumps over the lazy dog.\nA second line, with 1234 numbers.\n");
    }
    const test::ProcessRun h = cli({u"heads"_s, u"--model"_s, gpt2_, u"--data"_s, text, u"--json"_s});
    QVERIFY2(h.exitCode == 0, qPrintable(test::describeRun(u"heads"_s, h)));
    const QJsonObject heads = QJsonDocument::fromJson(h.out.trimmed().split('\n').back()).object();
    QVERIFY2(!heads.isEmpty(), h.out.constData());
    const test::ProcessRun e = cli({u"eval"_s, u"--model"_s, gpt2_, u"--data"_s, text});
    QVERIFY2(e.exitCode == 0, qPrintable(test::describeRun(u"eval"_s, e)));
    // Random weights: about uniform over GPT-2's 50257 entries.
    QVERIFY2(e.out.contains("perplexity"), e.out.constData());
}

// A tokenizer of another size than config.json's vocab_size is refused, naming both.
void TestCliHub::tokenizerMismatch()
{
    QTemporaryDir other;
    QVERIFY(other.isValid());
    for (const char* name : {"model.safetensors", "vocab.json", "merges.txt"})
        QVERIFY(QFile::copy(gpt2_ + u'/' + QLatin1String(name), other.filePath(QLatin1String(name))));
    QFile in(gpt2_ + u"/config.json"_s);
    QVERIFY(in.open(QIODevice::ReadOnly));
    QJsonObject json = QJsonDocument::fromJson(in.readAll()).object();
    json.insert(u"vocab_size"_s, 50258);
    json.insert(u"eos_token_id"_s, 50256);
    QFile out(other.filePath(u"config.json"_s));
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(QJsonDocument(json).toJson());
    out.close();
    const test::ProcessRun r = cli({u"generate"_s, u"--model"_s, other.path()}, "Hello\n");
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("wte.weight") || r.err.contains("50258"), r.err.constData());
}

// export writes GPT-2 as our model file and back in the Hub's layout; generate continues the
// same lines the same way from the folder, from our file and from the folder written back.
void TestCliHub::exportBothWays()
{
    const QString file = dir_.filePath(u"gpt2.safetensors"_s), back = dir_.filePath(u"back"_s);
    const test::ProcessRun e1 = cli({u"export"_s, u"--model"_s, gpt2_, u"--out"_s, file});
    QVERIFY2(e1.exitCode == 0, qPrintable(test::describeRun(u"export"_s, e1)));
    const test::ProcessRun e2 = cli({u"export"_s, u"--model"_s, file, u"--out"_s, back, u"--hub-layout"_s});
    QVERIFY2(e2.exitCode == 0, qPrintable(test::describeRun(u"export --hub-layout"_s, e2)));
    QVERIFY2(e2.out.contains("in the Hugging Face Hub's layout"), e2.out.constData());
    for (const char* f : {"config.json", "model.safetensors", "vocab.json", "merges.txt"})
        QVERIFY2(QFileInfo::exists(back + u'/' + QLatin1String(f)), f);
    // Again into the same folder: refused, nothing touched.
    const test::ProcessRun e3 = cli({u"export"_s, u"--model"_s, file, u"--out"_s, back, u"--hub-layout"_s});
    QCOMPARE(e3.exitCode, 1);
    QVERIFY2(e3.err.contains("not empty"), e3.err.constData());
    const QByteArray input = "Hello world\nThe cat sat on\n";
    QByteArray first;
    for (const QString& model : {gpt2_, file, back}) {
        const test::ProcessRun r = cli({u"generate"_s, u"--model"_s, model, u"--max-len"_s, u"5"_s}, input);
        QVERIFY2(r.exitCode == 0, qPrintable(test::describeRun(u"generate"_s, r)));
        if (first.isEmpty())
            first = r.out;
        QCOMPARE(r.out, first);
    }
}

namespace {

// The largest |difference| between two models' weights (infinity when they differ in shape).
double maxWeightDifference(const ModelBundle& a, const ModelBundle& b)
{
    const Eigen::VectorXf &va = a.model->params().valueVector(), &vb = b.model->params().valueVector();
    return va.size() == vb.size() ? double((va - vb).cwiseAbs().maxCoeff()) : INFINITY;
}

}  // namespace

void TestCliHub::fineTune()
{
    QString error;
    const std::optional<ModelBundle> base = loadModel(gpt2_, &error);
    QVERIFY2(base, qPrintable(error));
    const QStringList common{u"train"_s, u"--model"_s, gpt2_, u"--task"_s, u"lm-en"_s, u"--batch"_s,
                             u"2"_s, u"--threads"_s, u"1"_s};
    // Six steps straight, with a log of every step's loss.
    const QString straight = dir_.filePath(u"ft-straight.safetensors"_s), log = dir_.filePath(u"ft.jsonl"_s);
    const test::ProcessRun r = cli(common + QStringList{u"--steps"_s, u"6"_s, u"--out"_s, straight, u"--log"_s, log});
    QVERIFY2(r.exitCode == 0, qPrintable(test::describeRun(u"train --model"_s, r)));
    QVERIFY2(r.out.contains("model {\"activation\":\"gelu-tanh\""), r.out.constData());
    std::optional<ModelBundle> tuned = loadModel(straight, &error);
    QVERIFY2(tuned, qPrintable(error));
    // GPT-2's vocabulary and tokeniser, kept; the weights moved from the folder's.
    QCOMPARE(tuned->tgtVocab.tokens(), base->tgtVocab.tokens());
    QCOMPARE(tokenizerName(tuned->tgtTok), u"gpt2-bpe"_s);
    QVERIFY(tuned->config == base->config);
    QVERIFY(maxWeightDifference(*tuned, *base) > 0);
    // Every step's loss is a language model's on GPT-2's pieces: near ln 50257 = 10.8 for these
    // near-uniform random weights. A <s> among the targets (which GPT-2 cannot predict, its
    // logit masked at -1e9) would cost about 1e9.
    const QList<QByteArray> lines = test::readAll(log).trimmed().split('\n');
    int steps = 0;
    for (const QByteArray& line : lines) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        if (!o.contains(u"loss"_s))
            continue;
        ++steps;
        const double loss = o[u"loss"_s].toDouble();
        QVERIFY2(loss > 9 && loss < 12, line.constData());
    }
    QCOMPARE(steps, 6);

    // Three steps, saved, then resumed to six: the same weights, bit for bit.
    const QString ckpt = dir_.filePath(u"ft.ckpt"_s), resumed = dir_.filePath(u"ft-resumed.safetensors"_s);
    const test::ProcessRun a = cli(common + QStringList{u"--steps"_s, u"3"_s, u"--checkpoint"_s, ckpt});
    QVERIFY2(a.exitCode == 0, qPrintable(test::describeRun(u"train --model --checkpoint"_s, a)));
    const test::ProcessRun b = cli({u"train"_s, u"--resume"_s, ckpt, u"--steps"_s, u"6"_s, u"--threads"_s,
                                    u"1"_s, u"--out"_s, resumed});
    QVERIFY2(b.exitCode == 0, qPrintable(test::describeRun(u"train --resume"_s, b)));
    QVERIFY2(b.out.contains("resumed at step 3"), b.out.constData());
    std::optional<ModelBundle> again = loadModel(resumed, &error);
    QVERIFY2(again, qPrintable(error));
    QCOMPARE(maxWeightDifference(*again, *tuned), 0.0);

    // The run starts from the folder's weights: at a vanishing rate (factor 1e-6, a step of
    // about 1e-10) one step leaves them where they were; a model started from random weights
    // would be 0.02 away.
    const QString still = dir_.filePath(u"ft-still.safetensors"_s);
    const test::ProcessRun c = cli(common + QStringList{u"--steps"_s, u"1"_s, u"--factor"_s, u"1e-6"_s,
                                                        u"--out"_s, still});
    QVERIFY2(c.exitCode == 0, qPrintable(test::describeRun(u"train --factor 1e-6"_s, c)));
    std::optional<ModelBundle> one = loadModel(still, &error);
    QVERIFY2(one, qPrintable(error));
    QVERIFY2(maxWeightDifference(*one, *base) < 1e-6, qPrintable(QString::number(maxWeightDifference(*one, *base))));

    // A text file of the user's: fine-tuned on its lines; resumed only on the same text.
    const QString notes = dir_.filePath(u"notes.txt"_s), textCkpt = dir_.filePath(u"text.ckpt"_s);
    QByteArray text;
    for (int i = 0; i < 200; ++i)
        text += "The notes say " + QByteArray::number(i * 7 % 31) + " times, and then they stop.\n";
    QVERIFY(test::writeFile(notes, text));
    const test::ProcessRun g = cli({u"train"_s, u"--model"_s, gpt2_, u"--task"_s, u"text:"_s + notes, u"--batch"_s,
                                    u"2"_s, u"--threads"_s, u"1"_s, u"--steps"_s, u"2"_s, u"--checkpoint"_s, textCkpt});
    QVERIFY2(g.exitCode == 0, qPrintable(test::describeRun(u"train --task text:FILE"_s, g)));
    QVERIFY2(g.out.contains("the lines of notes.txt"), g.out.constData());
    QVERIFY2(g.out.contains("4 validation sentences"), g.out.constData());
    QVERIFY(test::writeFile(notes, text + "One line more.\n"));
    const test::ProcessRun h = cli({u"train"_s, u"--resume"_s, textCkpt, u"--steps"_s, u"3"_s});
    QCOMPARE(h.exitCode, 1);
    QVERIFY2(h.err.contains("is not the text the run was trained on"), h.err.constData());

    // What it cannot do, said by name.
    const test::ProcessRun d = cli(common + QStringList{u"--config"_s, u"tiny"_s});
    QCOMPARE(d.exitCode, 2);
    QVERIFY2(d.err.contains("--config cannot be given with --model"), d.err.constData());
    const test::ProcessRun e = cli({u"train"_s, u"--model"_s, gpt2_, u"--task"_s, u"toy"_s});
    QCOMPARE(e.exitCode, 2);
    QVERIFY2(e.err.contains("lm-en, lm-zh or text:FILE"), e.err.constData());
    const test::ProcessRun f = cli({u"train"_s, u"--resume"_s, ckpt, u"--model"_s, gpt2_});
    QCOMPARE(f.exitCode, 2);
    QVERIFY2(f.err.contains("--model cannot be given with --resume"), f.err.constData());
}

AS_TEST_GUILESS_MAIN(TestCliHub)
#include "test_cli_hub.moc"
