// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The command line on a Marian (OPUS-MT) folder as the Hugging Face Hub has it (core/SPEC.md
// §8.7): random weights written by the PyTorch MarianMTModel of tests/reference/hub_marian.py,
// with the tokenizer of tests/data/marian-tokenizer. The numbers themselves are held to PyTorch
// in tests/core/test_hub_marian; here:
// - `translate --model FOLDER` prints, for each line, the reference's greedy translation decoded
//   as MarianTokenizer decodes it; beam search and n-best run on it;
// - `eval --model FOLDER --data` gives the reference's mean NLL of a pair;
// - a folder with a config.json the engine cannot compute is refused by name, exit code 1.
#include "skip.h"
#include "cli_process.h"
#include "io/model_file.h"
#include "text/bundled_corpus.h"
#include "text/tokenizer.h"
#include "model/transformer.h"
#include "test_files.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace as;
using namespace Qt::StringLiterals;

class TestCliMarian : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void translate();
    void evalNll();
    void attributeColumns();
    void fineTuneResumes();
    void fineTunesOnACorpusFile();
    void refused();

private:
    test::ProcessRun cli(const QStringList& args, const QByteArray& input = {}) const
    {
        return test::runProgram(test::cliProgram(), args, QProcessEnvironment::systemEnvironment(), input);
    }
    QTemporaryDir dir_;
    QString marian_;
    QJsonArray expected_;
};

static const char* const kTexts = R"([["我们试试看！", "Let's try something."],
  ["他每天早上跑步。", "He runs every morning."],
  ["你喜欢猫吗？", "Do you like cats?"]])";

void TestCliMarian::initTestCase()
{
    QVERIFY(dir_.isValid());
    const QString script = ::as::test::testFile("reference/hub_marian.py");
    const QString vocab = ::as::test::testFile("data/marian-tokenizer/vocab.json");
    QVERIFY2(!script.isEmpty() && !vocab.isEmpty(), "tests/reference/hub_marian.py or tests/data/marian-tokenizer not found");
    if (!::as::test::pythonImports(u"torch, numpy, sentencepiece"_s))
        AS_SKIP("/usr/bin/python3 cannot import torch, numpy and sentencepiece: install Debian's python3-torch and "
                "python3-sentencepiece (bash scripts/install-deps.sh --torch) to write Marian's files as PyTorch does");
    QVERIFY(::as::test::writeFile(dir_.filePath(u"texts.json"_s), kTexts));
    marian_ = dir_.filePath(u"opus-mt"_s);
    QString error;
    QVERIFY2(::as::test::runPython({script, u"model"_s, marian_, u"--tokenizer"_s, QFileInfo(vocab).absolutePath(),
                                    u"--texts"_s, dir_.filePath(u"texts.json"_s), u"--seed"_s, u"3"_s},
                                   &error),
             qPrintable(error));
    QFile f(marian_ + u"/expected.json"_s);
    QVERIFY(f.open(QIODevice::ReadOnly));
    expected_ = QJsonDocument::fromJson(f.readAll()).array();
    QCOMPARE(expected_.size(), 3);
}

void TestCliMarian::translate()
{
    QByteArray input;
    for (const QJsonValue& t : expected_)
        input += t.toObject().value(u"src"_s).toString().toUtf8() + '\n';
    const test::ProcessRun r = cli({u"translate"_s, u"--model"_s, marian_, u"--max-len"_s, u"10"_s}, input);
    QVERIFY2(r.exitCode == 0, qPrintable(test::describeRun(u"translate"_s, r)));
    const QStringList got = QString::fromUtf8(r.out).split(u'\n');
    QCOMPARE(got.size(), 4);  // three lines and the last newline
    for (int i = 0; i < 3; ++i)
        QCOMPARE(got[i], expected_[i].toObject().value(u"greedy_text"_s).toString());
    // The config's dropout rates are one here: said once, on standard error.
    QCOMPARE(QString::fromUtf8(r.err).count(u"one dropout rate"_s), 1);

    const test::ProcessRun beam = cli({u"translate"_s, u"--model"_s, marian_, u"--beam"_s, u"4"_s, u"--nbest"_s,
                                       u"3"_s, u"--max-len"_s, u"8"_s},
                                      "我们试试看！\n");
    QVERIFY2(beam.exitCode == 0, qPrintable(test::describeRun(u"translate --beam 4"_s, beam)));
    const QStringList lines = QString::fromUtf8(beam.out).split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    double previous = 0;
    for (int i = 0; i < 3; ++i) {
        const QStringList cols = lines[i].split(u'\t');
        QCOMPARE(cols.size(), 3);
        QCOMPARE(cols[0].toInt(), i + 1);
        const double score = cols[1].toDouble();
        QVERIFY(score < 0);
        QVERIFY(i == 0 || score <= previous);
        previous = score;
    }
}

void TestCliMarian::evalNll()
{
    const QJsonObject t = expected_[0].toObject();
    const QString data = dir_.filePath(u"pair.tsv"_s);
    QVERIFY(::as::test::writeFile(data, (t.value(u"src"_s).toString() + u'\t' + t.value(u"tgt"_s).toString() + u'\n').toUtf8()));
    const test::ProcessRun r = cli({u"eval"_s, u"--model"_s, marian_, u"--data"_s, data, u"--json"_s});
    QVERIFY2(r.exitCode == 0, qPrintable(test::describeRun(u"eval"_s, r)));
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(o.value(u"sentences"_s).toInt(), 1);
    QCOMPARE(o.value(u"tokens"_s).toInt(), int(t.value(u"tgt_ids"_s).toArray().size()));
    const double ref = t.value(u"loss"_s).toDouble();
    QVERIFY2(std::abs(o.value(u"nll"_s).toDouble() - ref) <= 1e-4 * ref,
             qPrintable(u"nll %1, the reference's %2"_s.arg(o.value(u"nll"_s).toDouble()).arg(ref)));
}

// attribute's score columns are the source's tokens, the </s> Marian's source ends with among
// them, each named.
void TestCliMarian::attributeColumns()
{
    const test::ProcessRun r = cli({u"attribute"_s, u"--model"_s, marian_, u"--method"_s, u"gradxinput"_s}, "我们试试看！\n");
    QVERIFY2(r.exitCode == 0, qPrintable(test::describeRun(u"attribute"_s, r)));
    const QJsonObject o = QJsonDocument::fromJson(r.out.split('\n').first()).object();
    const QJsonArray tokens = o.value(u"source_tokens"_s).toArray();
    QCOMPARE(tokens.last().toString(), u"</s>"_s);
    const QJsonArray scores = o.value(u"scores"_s).toArray();
    QVERIFY(!scores.isEmpty());
    QCOMPARE(scores.first().toArray().size(), tokens.size());
}

// train --model FOLDER --task zh-en fine-tunes the translator on the bundled pairs, read with
// its own tokenisers and vocabulary; --resume continues it exactly; a language model's text is
// refused for it, naming the task it takes.
void TestCliMarian::fineTuneResumes()
{
    const QString straight = dir_.filePath(u"straight.safetensors"_s), resumed = dir_.filePath(u"resumed.safetensors"_s);
    const QString ckpt = dir_.filePath(u"ft.ckpt"_s);
    const QStringList common{u"--batch-tokens"_s, u"300"_s, u"--threads"_s, u"2"_s, u"--valid-every"_s, u"3"_s};
    test::ProcessRun r = cli(QStringList{u"train"_s, u"--model"_s, marian_, u"--task"_s, u"zh-en"_s, u"--steps"_s, u"6"_s,
                                         u"--out"_s, straight} + common);
    QVERIFY2(r.exitCode == 0, qPrintable(test::describeRun(u"train --model"_s, r)));
    QVERIFY2(QString::fromUtf8(r.out).contains(u"\"position\":\"sinusoidal-halves\""_s), r.out.constData());
    r = cli(QStringList{u"train"_s, u"--model"_s, marian_, u"--task"_s, u"zh-en"_s, u"--steps"_s, u"3"_s,
                        u"--checkpoint"_s, ckpt} + common);
    QVERIFY2(r.exitCode == 0, qPrintable(test::describeRun(u"train --checkpoint"_s, r)));
    r = cli({u"train"_s, u"--resume"_s, ckpt, u"--steps"_s, u"6"_s, u"--threads"_s, u"2"_s, u"--out"_s, resumed});
    QVERIFY2(r.exitCode == 0, qPrintable(test::describeRun(u"train --resume"_s, r)));
    QString error;
    const std::optional<ModelBundle> a = loadModel(straight, &error), b = loadModel(resumed, &error);
    QVERIFY2(a && b, qPrintable(error));
    QVERIFY2(a->model->params().valueVector() == b->model->params().valueVector(),
             "the resumed fine-tuning differs from the straight one");

    r = cli({u"train"_s, u"--model"_s, marian_, u"--task"_s, u"lm-en"_s, u"--steps"_s, u"2"_s});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(QString::fromUtf8(r.err).contains(u"--task zh-en or of a corpus file (--data), not lm-en"_s), r.err.constData());
}

// train --model FOLDER --data TRAIN.tsv --valid VALID.tsv fine-tunes the translator on a
// corpus file of the user's, read with its own tokenisers and vocabulary: given the bundled
// corpus's own training and validation pairs as files, it trains exactly as --task zh-en
// does (the same encoded pairs, the same weights after the same steps); --resume continues it
// exactly; what the model has of its own is refused beside --model.
void TestCliMarian::fineTunesOnACorpusFile()
{
    const std::optional<BundledCorpus> zhEn = loadBundledCorpus(u"zh-en"_s);
    QVERIFY(zhEn);
    auto tsv = [](const QList<SentencePair>& pairs) {
        QByteArray text;
        for (const SentencePair& p : pairs)
            text += (p.src + u'\t' + p.tgt + u'\n').toUtf8();
        return text;
    };
    const QString train = dir_.filePath(u"train.tsv"_s), valid = dir_.filePath(u"valid.tsv"_s);
    QVERIFY(::as::test::writeFile(train, tsv(zhEn->split.train)));
    QVERIFY(::as::test::writeFile(valid, tsv(zhEn->split.valid)));
    const QStringList common{u"--batch-tokens"_s, u"300"_s, u"--threads"_s, u"2"_s, u"--valid-every"_s, u"3"_s};
    const QString task = dir_.filePath(u"task.safetensors"_s), file = dir_.filePath(u"file.safetensors"_s),
                  resumed = dir_.filePath(u"file-resumed.safetensors"_s), ckpt = dir_.filePath(u"file.ckpt"_s);
    test::ProcessRun r = cli(QStringList{u"train"_s, u"--model"_s, marian_, u"--task"_s, u"zh-en"_s, u"--steps"_s,
                                         u"4"_s, u"--out"_s, task} + common);
    QVERIFY2(r.exitCode == 0, qPrintable(test::describeRun(u"train --task"_s, r)));
    r = cli(QStringList{u"train"_s, u"--model"_s, marian_, u"--data"_s, train, u"--valid"_s, valid, u"--steps"_s,
                        u"4"_s, u"--out"_s, file} + common);
    QVERIFY2(r.exitCode == 0, qPrintable(test::describeRun(u"train --data"_s, r)));
    QVERIFY2(QString::fromUtf8(r.out).contains(u"vocabularies: source 5883 (marian-source), target 5883 (marian-target)"_s),
             r.out.constData());
    r = cli(QStringList{u"train"_s, u"--model"_s, marian_, u"--data"_s, train, u"--valid"_s, valid, u"--steps"_s,
                        u"2"_s, u"--checkpoint"_s, ckpt} + common);
    QVERIFY2(r.exitCode == 0, qPrintable(test::describeRun(u"train --data --checkpoint"_s, r)));
    r = cli({u"train"_s, u"--resume"_s, ckpt, u"--steps"_s, u"4"_s, u"--threads"_s, u"2"_s, u"--out"_s, resumed});
    QVERIFY2(r.exitCode == 0, qPrintable(test::describeRun(u"train --resume"_s, r)));
    QString error;
    const std::optional<ModelBundle> a = loadModel(task, &error), b = loadModel(file, &error),
                                     c = loadModel(resumed, &error), base = loadModel(marian_, &error);
    QVERIFY2(a && b && c && base, qPrintable(error));
    QVERIFY(a->model->params().valueVector() != base->model->params().valueVector());
    QVERIFY2(a->model->params().valueVector() == b->model->params().valueVector(),
             "the corpus file's pairs trained otherwise than the bundled task's");
    QVERIFY2(b->model->params().valueVector() == c->model->params().valueVector(),
             "the resumed fine-tuning on the file differs from the straight one");
    QCOMPARE(tokenizerName(c->srcTok), u"marian-source"_s);

    for (const char* option : {"--src-tok", "--max-vocab"}) {
        r = cli({u"train"_s, u"--model"_s, marian_, u"--data"_s, train, QLatin1String(option),
                 option == QByteArrayView("--src-tok") ? u"word"_s : u"100,100"_s, u"--steps"_s, u"1"_s, u"--out"_s, file});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(QString::fromUtf8(r.err).contains(u"cannot be given with --model: the model has its own"_s), r.err.constData());
    }
}

void TestCliMarian::refused()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    for (const char* name : {"config.json", "vocab.json", "source.spm", "target.spm", "pytorch_model.bin"})
        QVERIFY(QFile::copy(marian_ + u'/' + QLatin1String(name), tmp.filePath(QLatin1String(name))));
    QFile cf(tmp.filePath(u"config.json"_s));
    QVERIFY(cf.open(QIODevice::ReadWrite));
    QJsonObject config = QJsonDocument::fromJson(cf.readAll()).object();
    config.insert(u"normalize_before"_s, true);
    QVERIFY(cf.resize(0));
    QVERIFY(cf.write(QJsonDocument(config).toJson()) > 0);
    cf.close();
    const test::ProcessRun r = cli({u"translate"_s, u"--model"_s, tmp.path()}, "你好\n");
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(QString::fromUtf8(r.err).contains(u"normalize_before = true"_s), r.err.constData());
    QVERIFY(r.out.isEmpty());
}

AS_TEST_GUILESS_MAIN(TestCliMarian)
#include "test_cli_marian.moc"
