// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// GPT-2 from the Hugging Face Hub's files (io/hub_model.h, core/SPEC.md §8.6), held to a
// PyTorch implementation of GPT2LMHeadModel written from the published architecture
// (tests/reference/hub_gpt2.py) on random-weight files in the Hub's exact layout:
// - config.json read, and what the engine cannot compute refused by name;
// - the same weights from model.safetensors, pytorch_model.bin (zip) and the legacy stream, with
//   the keys of GPT2Model (openai-community/gpt2's files, mask buffers in) and of
//   GPT2LMHeadModel ("transformer." prefix, lm_head.weight sharing wte's storage);
// - log-probabilities of texts within 1e-4 relative (every vocabulary entry of the first and
//   last positions, and each next token), greedy continuations identical, and one fine-tuning
//   step's loss and gradients against autograd's;
// - files that are not GPT-2's refused, naming the tensor.
#include "skip.h"
#include "hub_reference.h"
#include "io/hub_model.h"
#include "io/model_file.h"
#include "text/tokenizer.h"
#include "text/vocab.h"
#include "decode/decode.h"
#include "model/transformer.h"
#include "test_files.h"
#include "model/rng.h"
#include "train/batch.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace as;
using namespace Qt::StringLiterals;
using as::test::engineModel;
using as::test::intsOf;
using as::test::toEngine;

class TestHubGpt2 : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString script_;
    QJsonArray expected_[2];  // per layout: GPT2Model's keys, GPT2LMHeadModel's
    QString folder(int layout) const { return dir_.filePath(layout ? u"lmhead"_s : u"plain"_s); }
    bool writeFolder(const QString& out, const QStringList& extra, QString* error);

private slots:
    void initTestCase();
    void config();
    void configRefusals_data();
    void configRefusals();
    void logProbs_data();
    void logProbs();
    void greedy();
    void fineTuningStep();
    void notGpt2Files();
    void filesRoundTrip();
};

// The texts, in the Hub's ids (50256 is <|endoftext|>): some of GPT-2's own ids, the first
// text starting at <|endoftext|> as GPT-2's documents do, one with it in the middle.
static const char* const kTexts = "[[50256, 464, 3290, 318, 257, 1332, 13, 632],"
                                  " [40, 588, 2509, 50256, 15496, 995, 0, 1, 2, 50255],"
                                  " [50256, 7, 7, 7, 7]]";

bool TestHubGpt2::writeFolder(const QString& out, const QStringList& extra, QString* error)
{
    QFile texts(dir_.filePath(u"texts.json"_s));
    if (!texts.exists() && !(texts.open(QIODevice::WriteOnly) && texts.write(kTexts) > 0)) {
        *error = u"cannot write texts.json"_s;
        return false;
    }
    texts.close();
    return ::as::test::runPython(QStringList{script_, out, u"--texts"_s, texts.fileName()} + extra, error);
}

void TestHubGpt2::initTestCase()
{
    QVERIFY(dir_.isValid());
    script_ = ::as::test::testFile("reference/hub_gpt2.py");
    QVERIFY2(!script_.isEmpty(), "tests/reference/hub_gpt2.py not found beside this test");
    if (!::as::test::pythonImports(u"torch, numpy"_s))
        AS_SKIP("/usr/bin/python3 cannot import torch and numpy: install Debian's python3-torch "
                "(bash scripts/install-deps.sh --torch) to write GPT-2's files as PyTorch does");
    QString error;
    // openai-community/gpt2's layout: GPT2Model's keys with the mask buffers; and today's
    // transformers: the prefix and lm_head.weight. 3 layers, d 64, 4 heads, GPT-2's vocabulary.
    QVERIFY2(writeFolder(folder(0), {u"--layers"_s, u"3"_s, u"--buffers"_s}, &error), qPrintable(error));
    QVERIFY2(writeFolder(folder(1), {u"--layers"_s, u"2"_s, u"--prefix"_s, u"--seed"_s, u"2"_s, u"--ctx"_s, u"40"_s},
                         &error),
             qPrintable(error));
    for (int layout : {0, 1}) {
        QFile f(folder(layout) + u"/expected.json"_s);
        QVERIFY(f.open(QIODevice::ReadOnly));
        expected_[layout] = QJsonDocument::fromJson(f.readAll()).array();
        QCOMPARE(expected_[layout].size(), 3);
    }
}

// config.json read into the engine's configuration (core/SPEC.md §8.6).
void TestHubGpt2::config()
{
    QString error;
    const std::optional<HubModel> m = readHubModel(folder(0), &error);
    QVERIFY2(m, qPrintable(error));
    const ModelConfig& c = m->config;
    QCOMPARE(m->family, u"gpt2"_s);
    QVERIFY(m->weightsFile.endsWith(u"model.safetensors"_s));  // preferred when both are there
    QVERIFY(c.decoderOnly());
    QCOMPARE(c.decoder_layers, 3);
    QCOMPARE(c.d_model, 64);
    QCOMPARE(c.heads, 4);
    QCOMPARE(c.d_ff, 256);  // n_inner null: 4 n_embd
    QCOMPARE(c.max_len, 64);
    QCOMPARE(c.norm_eps, 1e-5);
    QCOMPARE(activationName(c.activation), u"gelu-tanh"_s);
    QCOMPARE(positionName(c.position), u"learned"_s);
    QCOMPARE(tieName(c.tie), u"tgt"_s);
    QVERIFY(!c.generator_bias);
    QCOMPARE(c.label_smoothing, 0.0);
    QCOMPARE(c.tgt_vocab, 50257 + 3);
    QCOMPARE(int(c.masked_specials), 0b1011);  // <pad>, <s>, <unk>: not </s>
    QCOMPARE(c.validate(), QString());
    // The id map, both ways.
    QCOMPARE(m->ids.toEngine(0), 4);
    QCOMPARE(m->ids.toEngine(50255), 50259);
    QCOMPARE(m->ids.toEngine(50256), 2);
    for (int k : {0, 1, 17, 50255, 50256})
        QCOMPARE(m->ids.toHub(m->ids.toEngine(k)), k);
    QCOMPARE(m->ids.toHub(1), 50256);
    QCOMPARE(m->ids.toHub(0), -1);
    QCOMPARE(m->ids.toHub(3), -1);
    // The configuration goes through our own files' JSON and back.
    QString why;
    const std::optional<ModelConfig> back = ModelConfig::fromJson(c.toJson(), &why, ModelConfig{});
    QVERIFY2(back, qPrintable(why));
    ModelConfig withVocab = *back;
    withVocab.src_vocab = c.src_vocab;
    withVocab.tgt_vocab = c.tgt_vocab;
    QVERIFY(withVocab == c);
}

void TestHubGpt2::configRefusals_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QJsonValue>("value");
    QTest::addColumn<QString>("named");
    QTest::newRow("another activation") << u"activation_function"_s << QJsonValue(u"relu"_s) << u"relu"_s;
    QTest::newRow("scaled by layer") << u"scale_attn_by_inverse_layer_idx"_s << QJsonValue(true)
                                     << u"scale_attn_by_inverse_layer_idx"_s;
    QTest::newRow("reordered") << u"reorder_and_upcast_attn"_s << QJsonValue(true) << u"reorder_and_upcast_attn"_s;
    QTest::newRow("unscaled") << u"scale_attn_weights"_s << QJsonValue(false) << u"scale_attn_weights"_s;
    QTest::newRow("untied") << u"tie_word_embeddings"_s << QJsonValue(false) << u"tie_word_embeddings"_s;
    QTest::newRow("cross-attention") << u"add_cross_attention"_s << QJsonValue(true) << u"add_cross_attention"_s;
    QTest::newRow("another family") << u"model_type"_s << QJsonValue(u"llama"_s) << u"llama"_s;
    QTest::newRow("heads do not divide") << u"n_head"_s << QJsonValue(5) << u"n_head"_s;
    QTest::newRow("no layers") << u"n_layer"_s << QJsonValue(0) << u"n_layer"_s;
    QTest::newRow("eos outside") << u"eos_token_id"_s << QJsonValue(60000) << u"eos_token_id"_s;
}

// What the engine cannot compute is refused, naming the key (and the value where it says).
void TestHubGpt2::configRefusals()
{
    QFETCH(QString, key);
    QFETCH(QJsonValue, value);
    QFETCH(QString, named);
    QFile f(folder(0) + u"/config.json"_s);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QJsonObject json = QJsonDocument::fromJson(f.readAll()).object();
    QString error;
    QVERIFY2(gpt2HubConfig(json, &error), qPrintable(error));  // as written: accepted
    json.insert(key, value);
    const std::optional<Gpt2HubConfig> g = gpt2HubConfig(json, &error);
    QVERIFY(!g);
    QVERIFY2(error.contains(named) || error.contains(u"n_embd"_s), qPrintable(error));
}

void TestHubGpt2::logProbs_data()
{
    QTest::addColumn<int>("layout");
    QTest::addColumn<QString>("file");
    for (int layout : {0, 1})
        for (const char* file : {"model.safetensors", "pytorch_model.bin", "pytorch_model.legacy.bin"})
            QTest::addRow("%s, %s", layout ? "GPT2LMHeadModel's keys" : "GPT2Model's keys with buffers", file)
                << layout << QString::fromLatin1(file);
}

namespace {

// The engine's log-probabilities [T, V_engine] of a text of Hub ids, read as it is (no <s>).
Mat<float> engineLogProbs(Transformer<float>& m, const HubModel& hub, const std::vector<int>& hubIds)
{
    std::vector<int> ids;
    for (int k : hubIds)
        ids.push_back(hub.ids.toEngine(k));
    m.decode(ids.data(), 1, int(ids.size()), Mat<float>(0, m.config().d_model), nullptr, 0, Pass::eval());
    Mat<float> logp;
    m.allLogProbs(logp);
    return logp;
}


}  // namespace

// Every log-probability of the first and last position over the whole vocabulary, and each next
// token's, against the reference's; the masked specials have none.
void TestHubGpt2::logProbs()
{
    QFETCH(int, layout);
    QFETCH(QString, file);
    QString error;
    const std::optional<HubModel> hub = readHubModel(folder(layout) + u'/' + file, &error);
    QVERIFY2(hub, qPrintable(error));
    QCOMPARE(QFileInfo(hub->weightsFile).fileName(), file);
    auto m = engineModel(*hub);
    double worstRel = 0;
    int compared = 0;
    for (const QJsonValue& tv : expected_[layout]) {
        const QJsonObject t = tv.toObject();
        const std::vector<int> ids = intsOf(t.value(u"ids"_s));
        const Mat<float> logp = engineLogProbs(*m, *hub, ids);
        const auto check = [&](double ours, double ref) {
            const double rel = std::abs(ours - ref) / std::max(1.0, std::abs(ref));
            worstRel = std::max(worstRel, rel);
            ++compared;
            return rel <= 1e-4;
        };
        const QJsonArray next = t.value(u"next_logp"_s).toArray();
        for (int i = 0; i + 1 < int(ids.size()); ++i)
            QVERIFY2(check(logp(i, hub->ids.toEngine(ids[std::size_t(i) + 1])), next[i].toDouble()),
                     qPrintable(u"position %1: %2 against %3"_s.arg(i)
                                    .arg(logp(i, hub->ids.toEngine(ids[std::size_t(i) + 1])))
                                    .arg(next[i].toDouble())));
        for (const auto& [key, row] : {std::pair{u"first_row"_s, 0}, std::pair{u"last_row"_s, int(ids.size()) - 1}}) {
            const QJsonArray ref = t.value(key).toArray();
            QCOMPARE(ref.size(), 50257);
            for (int k = 0; k < int(ref.size()); ++k)
                if (!check(logp(row, hub->ids.toEngine(k)), ref[k].toDouble()))
                    QFAIL(qPrintable(u"%1 id %2: %3 against %4"_s.arg(key).arg(k)
                                         .arg(logp(row, hub->ids.toEngine(k))).arg(ref[k].toDouble())));
            // <pad>, <s> and <unk> have no probability at all: the rows sum to 1 without them.
            for (int special : {0, 1, 3})
                QCOMPARE(std::exp(double(logp(row, special))), 0.0);
            QVERIFY(std::abs(logp.row(row).array().exp().sum() - 1.0f) < 1e-4f);
        }
    }
    qInfo("%s: %d log-probabilities, worst relative difference %.2e", QTest::currentDataTag(),
          compared, worstRel);
}

// Greedy continuations (core/SPEC.md §5.2) equal the reference's: the texts that start with
// <|endoftext|> are the engine's <s> and a prompt.
void TestHubGpt2::greedy()
{
    int checked = 0;
    for (int layout : {0, 1}) {
        QString error;
        const std::optional<HubModel> hub = readHubModel(folder(layout), &error);
        QVERIFY2(hub, qPrintable(error));
        auto m = engineModel(*hub);
        for (const QJsonValue& tv : expected_[layout]) {
            const QJsonObject t = tv.toObject();
            const std::vector<int> ids = intsOf(t.value(u"ids"_s));
            if (ids.front() != 50256)
                continue;
            std::vector<int> prompt;
            for (std::size_t i = 1; i < ids.size(); ++i)
                prompt.push_back(hub->ids.toEngine(ids[i]));
            std::vector<int> want;
            for (int k : intsOf(t.value(u"greedy"_s))) {
                if (k == 50256)
                    break;  // </s>: the engine stops there
                want.push_back(hub->ids.toEngine(k));
            }
            const DecodeResult r = greedyDecode(*m, prompt, 8);
            QVERIFY(!r.nbest.empty());
            std::vector<int> got = r.nbest.front().tokens;
            if (got.size() > want.size())
                got.resize(want.size());
            QCOMPARE(got, want);
            ++checked;
        }
    }
    QCOMPARE(checked, 4);
}

// One fine-tuning step (dropout off): the loss and gradients of a text as a language-model
// batch, against autograd's, mapped back to the Hub's names and layouts.
void TestHubGpt2::fineTuningStep()
{
    for (int layout : {0, 1}) {
        QString error;
        std::optional<HubModel> hub = readHubModel(folder(layout) + u"/pytorch_model.bin"_s, &error);
        QVERIFY2(hub, qPrintable(error));
        hub->config.dropout = 0;
        auto m = engineModel(*hub);
        const QJsonObject t = expected_[layout][1].toObject();
        std::vector<int> ids;
        for (int k : intsOf(t.value(u"ids"_s)))
            ids.push_back(hub->ids.toEngine(k));
        const Batch batch = makeLmBatch({ids});
        m->params().zeroGrads();
        Rng rng(1);
        const LossStats st = m->forwardBackward(batch, Pass::training(rng));
        QVERIFY(std::abs(st.loss() - t.value(u"loss"_s).toDouble()) <= 1e-5 * t.value(u"loss"_s).toDouble());
        const ParamStore<float>& ps = m->params();
        const auto grad = [&](const std::string& name) {
            const ParamInfo* p = ps.find(name);
            return p ? ps.grads() + p->offset : nullptr;
        };
        const QJsonObject grads = t.value(u"grads"_s).toObject();
        const QString pre = t.value(u"prefix"_s).toString();
        const int d = hub->config.d_model, L = hub->config.decoder_layers, ff = hub->config.d_ff;
        double worst = 0, scale = 0;
        int compared = 0;
        const auto compare = [&](double ours, double ref) {
            worst = std::max(worst, std::abs(ours - ref));
            scale = std::max(scale, std::abs(ref));
            ++compared;
        };
        // wte: some rows (the text's and two it does not use: the head's gradient alone).
        const QJsonObject wte = grads.value(pre + u"wte.weight"_s).toObject();
        const std::vector<int> rows = intsOf(wte.value(u"rows"_s));
        const QJsonArray wv = wte.value(u"values"_s).toArray();
        QCOMPARE(qsizetype(rows.size()) * d, wv.size());
        for (std::size_t r = 0; r < rows.size(); ++r)
            for (int j = 0; j < d; ++j)
                compare(grad("tgt_embed.weight")[std::size_t(hub->ids.toEngine(rows[r])) * d + j],
                        wv[qsizetype(r) * d + j].toDouble());
        const QJsonArray wpe = grads.value(pre + u"wpe.weight"_s).toArray();
        for (qsizetype i = 0; i < wpe.size(); ++i)
            compare(grad("tgt_pos.weight")[i], wpe[i].toDouble());
        // c_attn [d, 3d]: q, k, v weights transposed.
        const QJsonArray qkv = grads.value(pre + u"h.0.attn.c_attn.weight"_s).toArray();
        QCOMPARE(qkv.size(), 3 * d * d);
        for (int j = 0; j < 3; ++j) {
            const float* g = grad(std::string("decoder.layers.0.self_attn.") + "qkv"[j] + ".weight");
            for (int r = 0; r < d; ++r)
                for (int c = 0; c < d; ++c)
                    compare(g[std::size_t(r) * d + c], qkv[qsizetype(c) * 3 * d + j * d + r].toDouble());
        }
        const QJsonArray qkvb = grads.value(pre + u"h.0.attn.c_attn.bias"_s).toArray();
        for (int j = 0; j < 3; ++j)
            for (int r = 0; r < d; ++r)
                compare(grad(std::string("decoder.layers.0.self_attn.") + "qkv"[j] + ".bias")[r],
                        qkvb[j * d + r].toDouble());
        const QJsonArray fc = grads.value(pre + u"h.%1.mlp.c_fc.weight"_s.arg(L - 1)).toArray();
        QCOMPARE(fc.size(), d * ff);
        const float* g1 = grad("decoder.layers." + std::to_string(L - 1) + ".ffn.w1.weight");
        for (int r = 0; r < ff; ++r)
            for (int c = 0; c < d; ++c)
                compare(g1[std::size_t(r) * d + c], fc[qsizetype(c) * ff + r].toDouble());
        const QJsonArray ln1 = grads.value(pre + u"h.0.ln_1.weight"_s).toArray();
        const QJsonArray lnf = grads.value(pre + u"ln_f.bias"_s).toArray();
        for (int j = 0; j < d; ++j) {
            compare(grad("decoder.layers.0.norm1.weight")[j], ln1[j].toDouble());
            compare(grad("decoder.norm.bias")[j], lnf[j].toDouble());
        }
        qInfo("layout %d: loss %.6f (reference %.6f); %d gradient entries, worst |Δ| %.2e of max %.2e",
              layout, st.loss(), t.value(u"loss"_s).toDouble(), compared, worst, scale);
        QVERIFY2(worst <= 1e-4 * scale, qPrintable(u"worst %1 of %2"_s.arg(worst).arg(scale)));
    }
}

// Files that are not GPT-2 of their config.json are refused, naming the tensor.
void TestHubGpt2::notGpt2Files()
{
    QString error;
    // A layer fewer in config.json than in the weights: h.2.* is not part of it.
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    QFile::copy(folder(0) + u"/model.safetensors"_s, tmp.filePath(u"model.safetensors"_s));
    QFile f(folder(0) + u"/config.json"_s);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QJsonObject json = QJsonDocument::fromJson(f.readAll()).object();
    const auto writeConfig = [&](const QJsonObject& o) {
        QFile out(tmp.filePath(u"config.json"_s));
        return out.open(QIODevice::WriteOnly | QIODevice::Truncate)
               && out.write(QJsonDocument(o).toJson()) > 0;
    };
    json.insert(u"n_layer"_s, 2);
    QVERIFY(writeConfig(json));
    QVERIFY(!readHubModel(tmp.path(), &error));
    QVERIFY2(error.contains(u"'h.2."_s), qPrintable(error));
    // A layer more: h.3.ln_1.weight is missing.
    json.insert(u"n_layer"_s, 4);
    QVERIFY(writeConfig(json));
    QVERIFY(!readHubModel(tmp.path(), &error));
    QVERIFY2(error.contains(u"'h.3.ln_1.weight' is missing"_s), qPrintable(error));
    // Another width: wte's shape named.
    json.insert(u"n_layer"_s, 3);
    json.insert(u"n_embd"_s, 128);
    QVERIFY(writeConfig(json));
    QVERIFY(!readHubModel(tmp.path(), &error));
    QVERIFY2(error.contains(u"'wte.weight' is [50257, 64]"_s), qPrintable(error));
    // No weights at all.
    QFile::remove(tmp.filePath(u"model.safetensors"_s));
    QVERIFY(!readHubModel(tmp.path(), &error));
    QVERIFY2(error.contains(u"pytorch_model.bin"_s), qPrintable(error));
    // Not a folder with config.json.
    QVERIFY(!readHubModel(dir_.filePath(u"nowhere"_s), &error));
    QVERIFY2(error.contains(u"config.json"_s), qPrintable(error));
    QVERIFY(isHubModelPath(folder(0)));
    QVERIFY(isHubModelPath(folder(0) + u"/pytorch_model.bin"_s));
    QVERIFY(!isHubModelPath(dir_.filePath(u"texts.json"_s)));
}

// GPT-2 with its tokenizer written as our model file and back (the gpt2-bpe side's merges in
// __metadata__, core/SPEC.md §8.2), and in the Hub's layout and back (§8.6): the same weights bit
// for bit, the same tokenizer, the same ids; the Hub-layout folder loads into the PyTorch
// GPT2LMHeadModel with strict keys and shapes and gives its logits.
void TestHubGpt2::filesRoundTrip()
{
    const QString vocab = ::as::test::testFile("data/gpt2-tokenizer/encoder.json");
    const QString merges = ::as::test::testFile("data/gpt2-tokenizer/vocab.bpe");
    QVERIFY2(!vocab.isEmpty() && !merges.isEmpty(), "tests/data/gpt2-tokenizer not found");
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    const QString hub = tmp.filePath(u"hub"_s);
    QVERIFY(QDir().mkpath(hub));
    for (const char* f : {"config.json", "model.safetensors"})
        QVERIFY(QFile::copy(folder(1) + u'/' + QLatin1String(f), hub + u'/' + QLatin1String(f)));
    QVERIFY(QFile::copy(vocab, hub + u"/vocab.json"_s));
    QVERIFY(QFile::copy(merges, hub + u"/merges.txt"_s));
    QString error;
    std::optional<ModelBundle> b = loadModel(hub, &error);
    QVERIFY2(b, qPrintable(error));
    QCOMPARE(tokenizerName(b->tgtTok), u"gpt2-bpe"_s);
    const QString text = u"Hello world: 你好 🙂 <|endoftext|> again"_s;
    const std::vector<int> ids = b->tgtVocab.encode(tokenize(b->tgtTok, text));

    // Our model file.
    const QString file = tmp.filePath(u"gpt2.safetensors"_s);
    QVERIFY2(saveModel(file, *b->model, b->srcVocab, b->tgtVocab, b->srcTok, b->tgtTok, &error), qPrintable(error));
    std::optional<ModelBundle> ours = loadModel(file, &error);
    QVERIFY2(ours, qPrintable(error));
    QVERIFY(ours->config == b->config);
    QVERIFY(ours->tgtTok == b->tgtTok);
    QCOMPARE(ours->tgtVocab.encode(tokenize(ours->tgtTok, text)), ids);
    QStringList tokens;  // </s> included: it reads back as <|endoftext|>
    for (int id : ids)
        tokens << ours->tgtVocab.token(id);
    QCOMPARE(detokenize(ours->tgtTok, tokens), text);
    QVERIFY(ours->model->params().valueVector() == b->model->params().valueVector());

    // The Hub's layout, from our file.
    const QString back = tmp.filePath(u"back"_s);
    QString note;
    QVERIFY2(writeHubModel(*ours, back, &error, &note), qPrintable(error));
    QVERIFY2(note.isEmpty(), qPrintable(note));  // <s> and </s> rows equal: nothing lost
    QVERIFY(!QFileInfo::exists(back + u".partial"_s));
    std::optional<ModelBundle> again = loadModel(back, &error);
    QVERIFY2(again, qPrintable(error));
    QVERIFY(again->config == b->config);
    QVERIFY(again->tgtTok == b->tgtTok);
    QVERIFY(again->model->params().valueVector() == b->model->params().valueVector());
    // The same config.json fields the Hub's has, with the same values where they matter.
    QFile oc(folder(1) + u"/config.json"_s), nc(back + u"/config.json"_s);
    QVERIFY(oc.open(QIODevice::ReadOnly) && nc.open(QIODevice::ReadOnly));
    const QJsonObject o = QJsonDocument::fromJson(oc.readAll()).object(), n = QJsonDocument::fromJson(nc.readAll()).object();
    for (const char* key : {"activation_function", "model_type", "n_embd", "n_head", "n_layer", "n_positions",
                            "n_ctx", "vocab_size", "eos_token_id", "bos_token_id", "layer_norm_epsilon"})
        QVERIFY2(n.value(QLatin1String(key)) == o.value(QLatin1String(key)), key);
    // Not over a folder that holds something.
    QVERIFY(!writeHubModel(*ours, back, &error));
    QVERIFY2(error.contains(u"not empty"_s), qPrintable(error));
    // PyTorch's GPT2LMHeadModel loads it (strict: every key and shape) and computes the same
    // log-probabilities as from the original folder.
    QProcess p;
    p.setWorkingDirectory(QFileInfo(script_).absolutePath());
    p.start(u"/usr/bin/python3"_s, {u"-c"_s, u"import sys, torch, hub_gpt2\n"
                                             "a = hub_gpt2.load_folder(sys.argv[1]).eval()\n"
                                             "b = hub_gpt2.load_folder(sys.argv[2]).eval()\n"
                                             "x = torch.tensor([[50256, 15496, 995, 11, 262]])\n"
                                             "with torch.no_grad(): print(float((a(x) - b(x)).abs().max()))"_s,
                                    folder(1), back});
    QVERIFY(p.waitForFinished(300'000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    QCOMPARE(p.readAllStandardOutput().trimmed(), QByteArray("0.0"));
}

AS_TEST_GUILESS_MAIN(TestHubGpt2)
#include "test_hub_gpt2.moc"
