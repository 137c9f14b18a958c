// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// attention-studio-cli generate (a decoder-only model continues each line, core/SPEC.md §2.10)
// and sampling on the command line (§5.6), as a user runs them:
// - generate's greedy, beam and seeded sampled outputs against the engine's own decoding of the
//   same model file (line n samples with seed S + n - 1), and a model trained here on a counting
//   language continues "5 6 7" by counting on;
// - translate's sampling: --temperature 0 is its greedy output, a seed its engine's draw;
// - each kind of model refused by name where the command needs the other, and sampling's bad
//   options refused;
// - eval's NLL and perplexity of a decoder-only model on sentences, and trace's tensors of its
//   text, against the engine's pass;
// - heads on a decoder-only model's sentences: its NLL and each head's ΔNLL against the
//   engine's passes with that head masked, its importance the engine's scoreHeads;
// - attribute on a decoder-only model: its prompt is the source, the continuation greedy's or
//   the line's, the scores the engine's attribute (tested against differences in
//   test_interpret), a prompt too long for the context kept by its end;
// - bench --heads on a decoder-only model: its ΔNLL passes' matmul work against the formula
//   worked here for a decoder without cross-attention.
#include "skip.h"
#include "decode/decode.h"
#include "eval/interpret.h"
#include "model/softmax.h"
#include "io/model_file.h"
#include "text/dataset.h"
#include "text/tasks.h"
#include "train/trainer.h"
#include "cli_process.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace as;
using namespace Qt::StringLiterals;

class TestCliGenerate : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void generateAsTheEngineDecodes();
    void continuesWhatItLearned();
    void translateSamples();
    void evalPerplexity();
    void traceText();
    void headsOfALanguageModel();
    void attributeAPrompt();
    void benchHeadsOfALanguageModel();
    void refusals();

private:
    test::ProcessRun cli(const QStringList& args, const QByteArray& input = {}) const
    {
        return test::runProgram(test::cliProgram(), args, QProcessEnvironment::systemEnvironment(),
                                input);
    }
    QTemporaryDir dir_;
    QString lm_, translator_;
};

namespace {

// The counting language: "k k+1 k+2 …" (numbers 0–19, 3 to 8 of them), one sentence a window.
constexpr int kNumbers = 20;

Vocab countingVocab()
{
    QStringList tokens{u"<pad>"_s, u"<s>"_s, u"</s>"_s, u"<unk>"_s};
    for (int i = 0; i < kNumbers; ++i)
        tokens << QString::number(i);
    Vocab v;
    QString error;
    if (!Vocab::fromTokens(tokens, &v, &error))
        qFatal("%s", qPrintable(error));
    return v;
}

Batch countingBatch(Rng& rng, int rows)
{
    std::vector<std::vector<int>> windows;
    for (int r = 0; r < rows; ++r) {
        const int n = 3 + int(rng.below(6)), start = int(rng.below(std::uint64_t(kNumbers - n + 1)));
        std::vector<int> w{kBos};
        for (int i = 0; i < n; ++i)
            w.push_back(4 + start + i);  // id of the number start + i
        w.push_back(kEos);
        windows.push_back(w);
    }
    return makeLmBatch(windows);
}

}  // namespace

void TestCliGenerate::initTestCase()
{
    QVERIFY(dir_.isValid());
    // A decoder-only model trained here on the counting language (a few hundred steps, < 1 s).
    ModelConfig c;
    c.arch = Arch::DecoderOnly;
    c.encoder_layers = 0;
    c.decoder_layers = 2;
    c.d_model = 32;
    c.heads = 4;
    c.d_ff = 64;
    c.max_len = 24;
    c.src_vocab = c.tgt_vocab = countingVocab().size();
    Trainer trainer(c, TrainOptions{1.0, 100, 7});
    Rng data(7);
    for (int s = 0; s < 400; ++s)
        trainer.step(countingBatch(data, 32));
    lm_ = dir_.filePath(u"counting.safetensors"_s);
    QString error;
    const Vocab v = countingVocab();
    QVERIFY2(saveModel(lm_, trainer.model(), v, v, TokenizerKind::Word, TokenizerKind::Word, &error),
             qPrintable(error));
    translator_ = dir_.filePath(u"toy.safetensors"_s);
    QVERIFY(test::runCli({u"train"_s, u"--threads"_s, u"1"_s, u"--task"_s, u"toy"_s,
                          u"--steps"_s, u"60"_s, u"--out"_s, translator_}));
}

void TestCliGenerate::generateAsTheEngineDecodes()
{
    const QByteArray input = "3 4\n\n11\n17 18 19\n";
    QString error;
    std::optional<ModelBundle> b = loadModel(lm_, &error);
    QVERIFY2(b, qPrintable(error));
    const ParallelData codec = ParallelData::fromVocabularies(b->srcVocab, b->tgtVocab, b->srcTok,
                                                              b->tgtTok);
    const QStringList lines = QString::fromUtf8(input).split(u'\n').mid(0, 4);
    struct Mode {
        QStringList args;
        int beam;
        bool sample;
        SamplingOptions s;
    };
    SamplingOptions hot;
    hot.temperature = 1.5;
    hot.topK = 6;
    hot.seed = 40;
    const std::vector<Mode> modes{
        {{}, 1, false, {}},
        {{u"--beam"_s, u"3"_s}, 3, false, {}},
        {{u"--temperature"_s, u"1.5"_s, u"--top-k"_s, u"6"_s, u"--seed"_s, u"40"_s}, 1, true, hot}};
    for (const Mode& m : modes) {
        const test::ProcessRun r = cli(QStringList{u"generate"_s, u"--model"_s, lm_} + m.args, input);
        QVERIFY2(r.exitCode == 0, qPrintable(test::describeRun(u"generate"_s, r)));
        const QStringList got = QString::fromUtf8(r.out).split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(got.size(), 4);
        for (int i = 0; i < 4; ++i) {
            const std::vector<int> prompt = codec.encodeSource(lines[i]).ids;
            DecodeOptions o;
            o.beam = m.beam;
            const DecodeResult d = m.sample ? sampleDecode(*b->model, prompt, o, [&] {
                SamplingOptions s = m.s;
                s.seed += std::uint64_t(i);  // line i + 1
                return s;
            }())
                                   : m.beam == 1 ? greedyDecode(*b->model, prompt, o)
                                                 : beamSearch(*b->model, prompt, o);
            std::vector<int> text = prompt;
            text.insert(text.end(), d.nbest[0].tokens.begin(), d.nbest[0].tokens.end());
            QCOMPARE(got[i], codec.decodeTarget(text));
            QVERIFY(got[i].startsWith(lines[i]));
        }
    }
    // The same seed draws the same lines; another seed other ones.
    const QStringList sampled{u"generate"_s, u"--model"_s, lm_, u"--temperature"_s, u"2"_s};
    const QByteArray empties = "\n\n\n\n\n\n";
    const test::ProcessRun a = cli(sampled + QStringList{u"--seed"_s, u"3"_s}, empties);
    QCOMPARE(cli(sampled + QStringList{u"--seed"_s, u"3"_s}, empties).out, a.out);
    QVERIFY(cli(sampled + QStringList{u"--seed"_s, u"4"_s}, empties).out != a.out);
    QStringList draws = QString::fromUtf8(a.out).split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(draws.size(), 6);
    draws.removeDuplicates();
    QVERIFY2(draws.size() > 1, "six draws from <s> alone, all the same");
}

void TestCliGenerate::continuesWhatItLearned()
{
    const test::ProcessRun r = cli({u"generate"_s, u"--model"_s, lm_}, "5 6 7\n2 3\n");
    QVERIFY2(r.exitCode == 0, qPrintable(test::describeRun(u"generate"_s, r)));
    const QStringList got = QString::fromUtf8(r.out).split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(got.size(), 2);
    QVERIFY2(got[0].startsWith(u"5 6 7 8 9"_s), qPrintable(got[0]));
    QVERIFY2(got[1].startsWith(u"2 3 4 5"_s), qPrintable(got[1]));
}

void TestCliGenerate::translateSamples()
{
    const Task toy = makeToyTask();
    QByteArray input;
    for (const TokenPair& p : toy.examples)
        input += (detokenize(toy.srcTokenizer, p.src) + u'\n').toUtf8();
    const QStringList base{u"translate"_s, u"--model"_s, translator_};
    const test::ProcessRun greedy = cli(base, input);
    QVERIFY2(greedy.exitCode == 0, qPrintable(test::describeRun(u"translate"_s, greedy)));
    QCOMPARE(cli(base + QStringList{u"--temperature"_s, u"0"_s}, input).out, greedy.out);
    // Sampled: what the engine draws with the seed of each line.
    const test::ProcessRun r = cli(base + QStringList{u"--temperature"_s, u"1"_s, u"--seed"_s, u"9"_s}, input);
    QVERIFY2(r.exitCode == 0, qPrintable(test::describeRun(u"translate --temperature"_s, r)));
    QString error;
    std::optional<ModelBundle> b = loadModel(translator_, &error);
    QVERIFY2(b, qPrintable(error));
    const ParallelData codec = ParallelData::fromVocabularies(b->srcVocab, b->tgtVocab, b->srcTok,
                                                              b->tgtTok);
    const QStringList got = QString::fromUtf8(r.out).split(u'\n');
    for (std::size_t i = 0; i < toy.examples.size(); ++i) {
        SamplingOptions s;
        s.seed = 9 + i;
        const std::vector<int> src = codec.encodeSource(detokenize(toy.srcTokenizer, toy.examples[i].src)).ids;
        const DecodeResult d = sampleDecode(*b->model, src, DecodeOptions{}, s);
        QCOMPARE(got[qsizetype(i)], codec.decodeTarget(d.nbest[0].tokens));
    }
}

// eval on a decoder-only model: NLL and perplexity of the sentences of --data (one a line), each
// <s> sentence </s>, against the engine's own teacher-forced pass; an empty line skipped.
void TestCliGenerate::evalPerplexity()
{
    const QString text = dir_.filePath(u"sentences.txt"_s);
    {
        QFile f(text);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("3 4 5 6\n\n10 11 12\r\n2 9\n");
    }
    const test::ProcessRun r = cli({u"eval"_s, u"--model"_s, lm_, u"--data"_s, text, u"--json"_s});
    QVERIFY2(r.exitCode == 0, qPrintable(test::describeRun(u"eval"_s, r)));
    const QJsonObject got = QJsonDocument::fromJson(r.out.trimmed().split('\n').back()).object();
    QString error;
    std::optional<ModelBundle> b = loadModel(lm_, &error);
    QVERIFY2(b, qPrintable(error));
    const Vocab& v = b->tgtVocab;
    const LossStats st = b->model->evaluate(makeSentenceLmBatch(
        {v.encode({u"3"_s, u"4"_s, u"5"_s, u"6"_s}), v.encode({u"10"_s, u"11"_s, u"12"_s}),
         v.encode({u"2"_s, u"9"_s})}));
    QCOMPARE(got[u"sentences"_s].toInt(), 3);
    QCOMPARE(got[u"skipped"_s].toInt(), 1);
    QCOMPARE(got[u"tokens"_s].toInt(), 4 + 1 + 3 + 1 + 2 + 1);
    QVERIFY(std::abs(got[u"nll"_s].toDouble() - st.nll()) < 1e-6);
    QVERIFY(std::abs(got[u"perplexity"_s].toDouble() - std::exp(st.nll())) < 1e-4);
    // The counting it learned: low perplexity on counting, high on its reverse.
    {
        QFile f(text);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("12 11 10 9 8\n");
    }
    const test::ProcessRun backwards = cli({u"eval"_s, u"--model"_s, lm_, u"--data"_s, text, u"--json"_s});
    const double reversed = QJsonDocument::fromJson(backwards.out.trimmed()).object()[u"perplexity"_s].toDouble();
    QVERIFY2(reversed > 10 * got[u"perplexity"_s].toDouble(),
             qPrintable(u"counting %1, backwards %2"_s.arg(got[u"perplexity"_s].toDouble()).arg(reversed)));
}

// trace on a decoder-only model: each line its text as <s> text, no encoder and no cross
// tensors; its log_probs are the engine's teacher-forced pass on the same file.
void TestCliGenerate::traceText()
{
    const test::ProcessRun r = cli({u"trace"_s, u"--model"_s, lm_, u"--only"_s, u"log_probs,decoder.1.self.weights"_s},
                                   "5 6 7\n3\t4\n");
    QCOMPARE(r.exitCode, 1);  // the second line, source<TAB>target, is refused
    QVERIFY2(r.err.contains("line 2: a decoder-only model reads one text a line"), r.err.constData());
    const QList<QByteArray> lines = r.out.trimmed().split('\n');
    QCOMPARE(lines.size(), 1);
    const QJsonObject o = QJsonDocument::fromJson(lines[0]).object();
    QCOMPARE(o[u"source_tokens"_s].toArray().size(), 0);
    QCOMPARE(o[u"target_tokens"_s].toArray(), QJsonArray({u"<s>"_s, u"5"_s, u"6"_s, u"7"_s}));
    const QJsonObject tensors = o[u"tensors"_s].toObject();
    QCOMPARE(tensors.keys(), QStringList({u"decoder.1.self.weights"_s, u"log_probs"_s}));
    QString error;
    std::optional<ModelBundle> b = loadModel(lm_, &error);
    QVERIFY2(b, qPrintable(error));
    const Vocab& v = b->tgtVocab;
    b->model->evaluate(makeSentenceLmBatch({v.encode({u"5"_s, u"6"_s, u"7"_s})}));
    Mat<float> logp = b->model->logits();
    logSoftmaxRows<float>(logp);
    const QJsonArray data = tensors[u"log_probs"_s].toObject()[u"data"_s].toArray();
    QCOMPARE(data.size(), qsizetype(logp.size()));
    for (Eigen::Index r = 0; r < logp.rows(); ++r)
        for (Eigen::Index c = 0; c < logp.cols(); ++c)
            QVERIFY(std::abs(data[r * logp.cols() + c].toDouble() - double(logp(r, c))) < 1e-5);
    // After "5 6 7" it expects 8: it learned to count.
    QCOMPARE(o[u"output_tokens"_s].toArray().last().toString(), u"8"_s);
}

// heads on a decoder-only model: one sentence per line (<s> sentence </s>, as eval reads them),
// decoder self-attention only. The NLL and each head's ΔNLL are computed again here from the
// model's teacher-forced passes with that head masked (Transformer::evaluate); the
// importances, confidences and entropies are the engine's scoreHeads on the same sentences.
void TestCliGenerate::headsOfALanguageModel()
{
    const QString text = dir_.filePath(u"heads.txt"_s);
    {
        QFile f(text);
        QVERIFY(f.open(QIODevice::WriteOnly));
        // an empty line and one longer than the context (max_len 24) are left out
        f.write("3 4 5 6\n\n10 11 12\r\n2 9\n" + QByteArray("1 ").repeated(30) + "\n7 8 9 10 11\n");
    }
    const test::ProcessRun r = cli({u"heads"_s, u"--model"_s, lm_, u"--data"_s, text, u"--json"_s,
                                    u"--threads"_s, u"1"_s});
    QVERIFY2(r.exitCode == 0, qPrintable(test::describeRun(u"heads"_s, r)));
    QVERIFY2(r.err.contains("2 sentence(s) without a token or longer"), r.err.constData());
    const QJsonObject got = QJsonDocument::fromJson(r.out.trimmed().split('\n').back()).object();
    QString error;
    std::optional<ModelBundle> b = loadModel(lm_, &error);
    QVERIFY2(b, qPrintable(error));
    const Vocab& v = b->tgtVocab;
    const std::vector<std::vector<int>> sentences{
        v.encode({u"3"_s, u"4"_s, u"5"_s, u"6"_s}), v.encode({u"10"_s, u"11"_s, u"12"_s}),
        v.encode({u"2"_s, u"9"_s}), v.encode({u"7"_s, u"8"_s, u"9"_s, u"10"_s, u"11"_s})};
    const Batch batch = makeSentenceLmBatch(sentences);
    const double nll = b->model->evaluate(batch).nll();
    QCOMPARE(got[u"pairs"_s].toInt(), 4);
    QCOMPARE(got[u"tokens"_s].toInt(), 5 + 4 + 3 + 6);
    QVERIFY2(std::abs(got[u"nll"_s].toDouble() - nll) < 1e-5,
             qPrintable(u"heads' NLL %1, the model's %2"_s.arg(got[u"nll"_s].toDouble()).arg(nll)));
    const QJsonArray heads = got[u"heads"_s].toArray();
    QCOMPARE(heads.size(), qsizetype(2 * 4));  // 2 layers of 4 heads, decoder.self only
    std::vector<EncodedPair> encoded;
    for (const std::vector<int>& s : sentences)
        encoded.push_back({{}, s, 0});
    const HeadReport engine = scoreHeads(*b->model, encoded, {}, false);
    QCOMPARE(engine.heads.size(), std::size_t(8));
    double largestDelta = 0;
    for (qsizetype k = 0; k < heads.size(); ++k) {
        const QJsonObject h = heads[k].toObject();
        QCOMPARE(h[u"kind"_s].toString(), u"decoder.self"_s);
        const HeadId id{AttentionKind::DecoderSelf, h[u"layer"_s].toInt(), h[u"head"_s].toInt()};
        maskHeads(*b->model, {id});
        const double masked = b->model->evaluate(batch).nll();
        maskHeads(*b->model, {});
        QVERIFY2(std::abs(h[u"delta_nll"_s].toDouble() - (masked - nll)) < 1e-5,
                 qPrintable(u"%1:%2 ΔNLL %3, masked by hand %4"_s.arg(id.layer).arg(id.head)
                                .arg(h[u"delta_nll"_s].toDouble()).arg(masked - nll)));
        largestDelta = std::max(largestDelta, std::abs(masked - nll));
        const HeadScore& e = engine.heads[std::size_t(k)];
        QVERIFY(e.id == id);
        QVERIFY(std::abs(h[u"importance"_s].toDouble() - e.importance) < 1e-6);
        QVERIFY(std::abs(h[u"confidence"_s].toDouble() - e.confidence) < 1e-6);
        QVERIFY(std::abs(h[u"entropy"_s].toDouble() - e.entropy) < 1e-6);
    }
    QVERIFY2(largestDelta > 1e-3, "no head of the trained model changes its NLL when masked");
    // eval and heads: a language model's text for a translator, a translator's corpus for a
    // language model, refused by the model's kind.
    test::ProcessRun bad;
    for (const QString& command : {u"eval"_s, u"heads"_s})
        for (const auto& [model, task, kind] : {std::tuple{lm_, u"zh-en"_s, "is a decoder-only model"},
                                                std::tuple{translator_, u"lm-en"_s, "is a translator"}}) {
            bad = cli({command, u"--model"_s, model, u"--task"_s, task});
            QVERIFY2(bad.exitCode == 2 && bad.err.contains(kind), qPrintable(test::describeRun(command, bad)));
        }
    // Heads it does not have.
    for (const QString& spec : {u"decoder.cross:0:1"_s, u"encoder.self:0:0"_s}) {
        bad = cli({u"heads"_s, u"--model"_s, lm_, u"--data"_s, text, u"--mask-heads"_s, spec});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("a decoder-only model has no"), bad.err.constData());
    }
}

void TestCliGenerate::attributeAPrompt()
{
    QString error;
    std::optional<ModelBundle> b = loadModel(lm_, &error);
    QVERIFY2(b, qPrintable(error));
    const Vocab& v = b->tgtVocab;
    const QByteArray longPrompt = QByteArray("1 ").repeated(30).trimmed();
    const test::ProcessRun r = cli({u"attribute"_s, u"--model"_s, lm_, u"--method"_s, u"ig"_s,
                                    u"--steps"_s, u"8"_s, u"--threads"_s, u"1"_s},
                                   "5 6 7\n3 4\t5 6 7\n" + longPrompt + "\n");
    QVERIFY2(r.exitCode == 0, qPrintable(test::describeRun(u"attribute"_s, r)));
    QVERIFY2(r.err.contains("line 3: the prompt has 30 tokens; only the last 22 are used"), r.err.constData());
    const QList<QByteArray> lines = r.out.trimmed().split('\n');
    QCOMPARE(lines.size(), 3);
    const std::vector<int> counting = v.encode({u"5"_s, u"6"_s, u"7"_s});
    const std::vector<std::vector<int>> prompts{counting, v.encode({u"3"_s, u"4"_s}),
                                                std::vector<int>(22, v.id(u"1"_s))};
    const std::vector<std::vector<int>> outputs{greedyDecode(*b->model, counting).nbest[0].tokens, counting,
                                                greedyDecode(*b->model, prompts[2]).nbest[0].tokens};
    QVERIFY(int(prompts[2].size() + outputs[2].size()) + 1 <= b->config.max_len);
    for (int k = 0; k < 3; ++k) {
        const QJsonObject o = QJsonDocument::fromJson(lines[k]).object();
        QCOMPARE(o[u"source_tokens"_s].toArray().size(), qsizetype(prompts[std::size_t(k)].size()));
        QStringList outTokens;
        for (const QJsonValue t : o[u"output_tokens"_s].toArray())
            outTokens << t.toString();
        QCOMPARE(outTokens, v.decode(outputs[std::size_t(k)]));
        const Attribution a = attribute(*b->model, prompts[std::size_t(k)], outputs[std::size_t(k)],
                                        AttributionMethod::IntegratedGradients, 8);
        const QJsonArray scores = o[u"scores"_s].toArray();
        QCOMPARE(scores.size(), qsizetype(a.scores.size()));
        for (qsizetype t = 0; t < scores.size(); ++t)
            for (qsizetype i = 0; i < qsizetype(prompts[std::size_t(k)].size()); ++i)
                QVERIFY(std::abs(scores[t].toArray()[i].toDouble() - a.scores[std::size_t(t)][std::size_t(i)]) < 1e-5);
    }
    // The model that learned to count continues "5 6 7" with 8: f is log p(8 | <s> 5 6 7) of
    // the model's own pass, and the prompt is what makes 8 likely (f(e) > f(0·e)).
    const QJsonObject first = QJsonDocument::fromJson(lines[0]).object();
    QCOMPARE(first[u"output_tokens"_s].toArray().first().toString(), u"8"_s);
    b->model->evaluate(makeSentenceLmBatch({counting}));
    Mat<float> logp = b->model->logits();
    logSoftmaxRows<float>(logp);
    const double f = first[u"f"_s].toArray()[0].toDouble(), f0 = first[u"f_baseline"_s].toArray()[0].toDouble();
    QVERIFY(std::abs(f - double(logp(3, v.id(u"8"_s)))) < 1e-5);
    QVERIFY2(f > f0, qPrintable(u"f %1, f with the prompt's embeddings at 0: %2"_s.arg(f).arg(f0)));
}

// bench --heads times a decoder-only model's questions (importance, ΔNLL, IG of a prompt, a
// muted head's continuation, the pruning curve) on its sentences. Its ΔNLL work is counted
// from the batch's shape: the four sentences below in one batch of B = 4 rows of T = 6
// positions (the longest, 5 tokens, and </s>), each head's pass from its layer on through a
// decoder layer without cross-attention, then the generator.
void TestCliGenerate::benchHeadsOfALanguageModel()
{
    const QString text = dir_.filePath(u"bench-heads.txt"_s);
    {
        QFile f(text);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("3 4 5 6\n10 11 12\n2 9\n7 8 9 10 11\n");
    }
    const test::ProcessRun r = cli({u"bench"_s, u"--heads"_s, lm_, u"--data"_s, text, u"--runs"_s,
                                    u"1"_s, u"--threads"_s, u"1"_s, u"--ig-tokens"_s, u"2"_s});
    QVERIFY2(r.exitCode == 0, qPrintable(test::describeRun(u"bench --heads"_s, r)));
    const QJsonObject o = QJsonDocument::fromJson(r.out.trimmed().split('\n').back()).object();
    QCOMPARE(o[u"pairs"_s].toInt(), 4);
    QCOMPARE(o[u"heads"_s].toInt(), 8);
    QCOMPARE(o[u"ig_src_tokens"_s].toInt(), 2);
    QVERIFY(o[u"ig_out_tokens"_s].toInt() > 0);
    QCOMPARE(o[u"pruning_points"_s].toInt(), int(pruningCounts(8).size()));
    const double d = 32, f = 64, V = 24, B = 4, T = 6, nt = B * T;
    const double layer = 2 * nt * d * d * 4 + 2 * nt * d * f * 2 + 2 * 2 * B * T * T * d;
    const double generator = 2 * nt * d * V;
    // 4 heads of layer 0 pass through both layers, 4 of layer 1 through one; each, the generator.
    const double flops = 4 * (2 * layer + generator) + 4 * (layer + generator);
    QVERIFY2(std::abs(o[u"delta_nll_gflop"_s].toDouble() - flops / 1e9) < 1e-12,
             qPrintable(u"%1 GFLOP counted, %2 by the formula"_s.arg(o[u"delta_nll_gflop"_s].toDouble()).arg(flops / 1e9)));
}

void TestCliGenerate::refusals()
{
    // A language model where a translator is needed, and the other way round: by name, with the
    // command that can use it.
    for (const QString& command : {u"translate"_s}) {
        const QStringList args{command, u"--model"_s, lm_};
        const test::ProcessRun r = cli(args, "3 4\n");
        QVERIFY2(r.exitCode == 1, qPrintable(test::describeRun(command, r)));
        QVERIFY2(r.err.contains("is a decoder-only model") && r.err.contains("generate --model"),
                 qPrintable(test::describeRun(command, r)));
    }
    test::ProcessRun r = cli({u"generate"_s, u"--model"_s, translator_}, "a\n");
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("is a translator") && r.err.contains("translate --model"), r.err.constData());
    // A translator's config on a language model's task.
    r = cli({u"train"_s, u"--task"_s, u"lm-brackets"_s, u"--config"_s, u"tiny"_s, u"--steps"_s, u"1"_s});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("arch=decoder-only"), r.err.constData());
    // Sampling's options.
    for (const QStringList& bad : {QStringList{u"--top-p"_s, u"0"_s}, QStringList{u"--top-p"_s, u"1.5"_s},
                                   QStringList{u"--temperature"_s, u"-1"_s},
                                   QStringList{u"--top-k"_s, u"-2"_s},
                                   QStringList{u"--temperature"_s, u"1"_s, u"--beam"_s, u"3"_s}}) {
        r = cli(QStringList{u"generate"_s, u"--model"_s, lm_} + bad, "3\n");
        QVERIFY2(r.exitCode == 2 && r.out.isEmpty(), qPrintable(test::describeRun(bad.join(u' '), r)));
    }
    r = cli({u"translate"_s, u"--model"_s, translator_, u"--top-k"_s, u"3"_s, u"--tree"_s, u"--json"_s}, "a\n");
    QCOMPARE(r.exitCode, 2);
}

AS_TEST_GUILESS_MAIN(TestCliGenerate)
#include "test_cli_generate.moc"
