// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Marian (OPUS-MT) from the Hugging Face Hub's files (io/hub_model.h, core/SPEC.md §8.7), held
// to a PyTorch implementation of MarianMTModel and of MarianTokenizer's rules written from the
// published architecture (tests/reference/hub_marian.py) on random-weight files in the Hub's
// exact layout, with a tokenizer made from the bundled corpus (tests/data/marian-tokenizer):
// - config.json read, and what the engine cannot compute refused by name;
// - Marian's sinusoids in halves (§2.13) against the formula worked in double;
// - the same weights from pytorch_model.bin (zip), the legacy stream and model.safetensors,
//   with and without the embed_positions tables;
// - log-probabilities of sentence pairs within 1e-4 relative (every vocabulary entry of the
//   first and last target positions, and each label), greedy translations identical, and one
//   fine-tuning step's loss and gradients against autograd's;
// - the tokenizer's ids against MarianTokenizer's rules on every line of the bundled corpus;
// - folders that are not Marian's refused, naming the file or tensor.
#include "skip.h"
#include "hub_reference.h"
#include "decode/decode.h"
#include "io/hub_model.h"
#include "io/model_file.h"
#include "model/positional_encoding.h"
#include "model/rng.h"
#include "model/transformer.h"
#include "test_files.h"
#include "text/tokenizer.h"
#include "text/vocab.h"
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

class TestHubMarian : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString script_, tokenizer_;
    QJsonArray expected_[2];  // per folder: with the positions tables and safetensors; without
    QString folder(int f) const { return dir_.filePath(f ? u"plain"_s : u"positions"_s); }

private slots:
    void initTestCase();
    void config();
    void configRefusals_data();
    void configRefusals();
    void halves();
    void logProbs_data();
    void logProbs();
    void greedy();
    void fineTuningStep();
    void tokenizer();
    void notMarianFolders();
    void modelFileRoundTrip();
    void hubLayoutRoundTrip();
};

// Sentence pairs as a user types them: the corpus's kind, one with characters no piece has, one
// with a source piece vocab.json lacks (<unk>), and an empty target.
static const char* const kTexts = R"([["我们试试看！", "Let's try something."],
  ["他每天早上跑步。", "He runs every morning."],
  ["😀 你好 xyz ☃", "Hi there!"],
  ["汤姆不知道玛丽在哪里。", ""]])";

void TestHubMarian::initTestCase()
{
    QVERIFY(dir_.isValid());
    script_ = ::as::test::testFile("reference/hub_marian.py");
    tokenizer_ = QFileInfo(::as::test::testFile("data/marian-tokenizer/vocab.json")).absolutePath();
    QVERIFY2(!script_.isEmpty() && !tokenizer_.isEmpty(), "tests/reference/hub_marian.py or tests/data/marian-tokenizer not found");
    if (!::as::test::pythonImports(u"torch, numpy, sentencepiece"_s))
        AS_SKIP("/usr/bin/python3 cannot import torch, numpy and sentencepiece: install Debian's python3-torch and "
                "python3-sentencepiece (bash scripts/install-deps.sh --torch) to write Marian's files as PyTorch does");
    QVERIFY(::as::test::writeFile(dir_.filePath(u"texts.json"_s), kTexts));
    QString error;
    // Older saves: the embed_positions tables in, and a user's model.safetensors beside. Newer:
    // neither; 3 + 3 layers, ReLU, 40 positions.
    QVERIFY2(::as::test::runPython({script_, u"model"_s, folder(0), u"--tokenizer"_s, tokenizer_, u"--texts"_s,
                                    dir_.filePath(u"texts.json"_s), u"--positions"_s, u"--safetensors"_s},
                                   &error),
             qPrintable(error));
    QVERIFY2(::as::test::runPython({script_, u"model"_s, folder(1), u"--tokenizer"_s, tokenizer_, u"--texts"_s,
                                    dir_.filePath(u"texts.json"_s), u"--layers"_s, u"3"_s, u"--activation"_s,
                                    u"relu"_s, u"--max-pos"_s, u"40"_s, u"--seed"_s, u"2"_s},
                                   &error),
             qPrintable(error));
    for (int f : {0, 1}) {
        QFile e(folder(f) + u"/expected.json"_s);
        QVERIFY(e.open(QIODevice::ReadOnly));
        expected_[f] = QJsonDocument::fromJson(e.readAll()).array();
        QCOMPARE(expected_[f].size(), 4);
    }
}

// config.json read into the engine's configuration (core/SPEC.md §8.7).
void TestHubMarian::config()
{
    QString error;
    const std::optional<HubModel> m = readHubModel(folder(0), &error);
    QVERIFY2(m, qPrintable(error));
    const ModelConfig& c = m->config;
    QCOMPARE(m->family, u"marian"_s);
    QVERIFY(m->weightsFile.endsWith(u"model.safetensors"_s));  // preferred when both are there
    QVERIFY(!c.decoderOnly());
    QCOMPARE(c.encoder_layers, 2);
    QCOMPARE(c.decoder_layers, 2);
    QCOMPARE(c.d_model, 64);
    QCOMPARE(c.heads, 4);
    QCOMPARE(c.d_ff, 128);
    QCOMPARE(c.max_len, 64);
    QCOMPARE(c.norm_eps, 1e-5);
    QCOMPARE(int(c.norm), int(NormPlacement::Post));
    QCOMPARE(activationName(c.activation), u"silu"_s);
    QCOMPARE(positionName(c.position), u"sinusoidal-halves"_s);
    QCOMPARE(tieName(c.tie), u"all"_s);
    QVERIFY(c.generator_bias);
    QCOMPARE(c.label_smoothing, 0.0);
    QCOMPARE(int(c.masked_specials), 0b0011);  // <pad> and <s> (the pad token): never emitted
    QCOMPARE(m->numBeams, 4);
    // vocab.json: </s> 0, <unk> 1, <pad> last (5881); the engine's one row more.
    QCOMPARE(m->ids.vocab, 5882);
    QCOMPARE(c.tgt_vocab, 5883);
    QCOMPARE(c.src_vocab, 5883);
    QCOMPARE(m->ids.toEngine(0), 2);
    QCOMPARE(m->ids.toEngine(1), 3);
    QCOMPARE(m->ids.toEngine(5881), 0);
    QCOMPARE(m->ids.toEngine(2), 4);
    QCOMPARE(m->ids.toEngine(5880), 5882);
    for (int k : {0, 1, 2, 3, 100, 5880, 5881})
        QCOMPARE(m->ids.toHub(m->ids.toEngine(k)), k);
    QCOMPARE(m->ids.toHub(1), 5881);  // <s> reads decoder_start_token_id's row
    QCOMPARE(c.validate(), QString());
    // The configuration goes through our own files' JSON and back.
    QString why;
    const std::optional<ModelConfig> back = ModelConfig::fromJson(c.toJson(), &why, ModelConfig{});
    QVERIFY2(back, qPrintable(why));
    ModelConfig withVocab = *back;
    withVocab.src_vocab = c.src_vocab;
    withVocab.tgt_vocab = c.tgt_vocab;
    QVERIFY(withVocab == c);
}

void TestHubMarian::configRefusals_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QJsonValue>("value");
    QTest::addColumn<QString>("named");
    QTest::newRow("erf GELU") << u"activation_function"_s << QJsonValue(u"gelu"_s) << u"'gelu'"_s;
    QTest::newRow("pre-norm") << u"normalize_before"_s << QJsonValue(true) << u"normalize_before"_s;
    QTest::newRow("embedding norm") << u"normalize_embedding"_s << QJsonValue(true) << u"normalize_embedding"_s;
    QTest::newRow("final norm") << u"add_final_layer_norm"_s << QJsonValue(true) << u"add_final_layer_norm"_s;
    QTest::newRow("unscaled") << u"scale_embedding"_s << QJsonValue(false) << u"scale_embedding"_s;
    QTest::newRow("learned positions") << u"static_position_embeddings"_s << QJsonValue(false)
                                       << u"static_position_embeddings"_s;
    QTest::newRow("two vocabularies") << u"share_encoder_decoder_embeddings"_s << QJsonValue(false)
                                      << u"share_encoder_decoder_embeddings"_s;
    QTest::newRow("target vocabulary") << u"decoder_vocab_size"_s << QJsonValue(6000) << u"decoder_vocab_size"_s;
    QTest::newRow("heads differ") << u"decoder_attention_heads"_s << QJsonValue(8) << u"decoder_attention_heads"_s;
    QTest::newRow("ffn differ") << u"encoder_ffn_dim"_s << QJsonValue(256) << u"encoder_ffn_dim"_s;
    QTest::newRow("pad outside") << u"pad_token_id"_s << QJsonValue(99999) << u"pad_token_id"_s;
    QTest::newRow("pad is eos") << u"pad_token_id"_s << QJsonValue(0) << u"pad_token_id"_s;
    QTest::newRow("another family") << u"model_type"_s << QJsonValue(u"t5"_s) << u"'t5'"_s;
}

// What the engine cannot compute is refused, naming the key (and the value where it says).
void TestHubMarian::configRefusals()
{
    QFETCH(QString, key);
    QFETCH(QJsonValue, value);
    QFETCH(QString, named);
    QFile f(folder(0) + u"/config.json"_s);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QJsonObject json = QJsonDocument::fromJson(f.readAll()).object();
    QString error;
    QVERIFY2(marianHubConfig(json, &error), qPrintable(error));  // as written: accepted
    json.insert(key, value);
    QVERIFY(!marianHubConfig(json, &error));
    QVERIFY2(error.contains(named), qPrintable(error));
}

// Marian's table (core/SPEC.md §2.13) against the formula worked in double, the interleaved
// table's columns in another order, and the table older files hold (the reference's numpy).
void TestHubMarian::halves()
{
    for (int d : {64, 10}) {
        const Mat<double> h = positionalEncoding<double>(50, d, true);
        const Mat<double> inter = positionalEncoding<double>(50, d);
        for (int p = 0; p < 50; ++p)
            for (int i = 0; i < d / 2; ++i) {
                const double angle = p / std::pow(10000.0, 2.0 * i / d);
                QCOMPARE(h(p, i), std::sin(angle));
                QCOMPARE(h(p, d / 2 + i), std::cos(angle));
                QCOMPARE(h(p, i), inter(p, 2 * i));
                QCOMPARE(h(p, d / 2 + i), inter(p, 2 * i + 1));
            }
    }
    // The Hub's tensor, as PyTorch saved it: the engine reads it, and refuses a changed one.
    QString error;
    QVERIFY2(readHubModel(folder(0) + u"/pytorch_model.bin"_s, &error), qPrintable(error));
}

void TestHubMarian::logProbs_data()
{
    QTest::addColumn<int>("folder");
    QTest::addColumn<QString>("file");
    for (int f : {0, 1})
        for (const char* file : {"pytorch_model.bin", "pytorch_model.legacy.bin", "model.safetensors"})
            if (f == 0 || std::string_view(file) != "model.safetensors")
                QTest::addRow("%s, %s", f ? "3 + 3 layers, ReLU, no positions" : "2 + 2 layers, SiLU, positions", file)
                    << f << QString::fromLatin1(file);
}

namespace {

// The engine's log-probabilities [T, V_engine] of a pair: the source as the Hub's ids say (its
// </s> included), the decoder fed <s> (the pad token's row) and the labels but the last.
Mat<float> engineLogProbs(Transformer<float>& m, const HubModel& hub, const std::vector<int>& src,
                          const std::vector<int>& labels)
{
    const std::vector<int> s = toEngine(hub, src);
    std::vector<int> in{Vocab::kBos};
    for (std::size_t i = 0; i + 1 < labels.size(); ++i)
        in.push_back(hub.ids.toEngine(labels[i]));
    m.encode(s.data(), 1, int(s.size()), Pass::eval());
    m.decode(in.data(), 1, int(in.size()), m.memory(), m.sourceValid().data(), int(s.size()), Pass::eval());
    Mat<float> logp;
    m.allLogProbs(logp);
    return logp;
}


}  // namespace

// Every log-probability of the first and last target position over the whole vocabulary, and
// each label's, against the reference's; <pad> and <s> have none.
void TestHubMarian::logProbs()
{
    QFETCH(int, folder);
    QFETCH(QString, file);
    QString error;
    const std::optional<HubModel> hub = readHubModel(this->folder(folder) + u'/' + file, &error);
    QVERIFY2(hub, qPrintable(error));
    QCOMPARE(QFileInfo(hub->weightsFile).fileName(), file);
    auto m = engineModel(*hub);
    double worstRel = 0;
    int compared = 0;
    const auto check = [&](double ours, double ref) {
        const double rel = std::abs(ours - ref) / std::max(1.0, std::abs(ref));
        worstRel = std::max(worstRel, rel);
        ++compared;
        return rel <= 1e-4;
    };
    for (const QJsonValue& tv : expected_[folder]) {
        const QJsonObject t = tv.toObject();
        const std::vector<int> src = intsOf(t.value(u"src_ids"_s)), labels = intsOf(t.value(u"tgt_ids"_s));
        const Mat<float> logp = engineLogProbs(*m, *hub, src, labels);
        QCOMPARE(int(logp.rows()), int(labels.size()));
        const QJsonArray next = t.value(u"next_logp"_s).toArray();
        for (int i = 0; i < int(labels.size()); ++i) {
            const float ours = logp(i, hub->ids.toEngine(labels[std::size_t(i)]));
            QVERIFY2(check(ours, next[i].toDouble()),
                     qPrintable(u"position %1: %2 against %3"_s.arg(i).arg(ours).arg(next[i].toDouble())));
        }
        for (const auto& [key, row] : {std::pair{u"first_row"_s, 0}, std::pair{u"last_row"_s, int(labels.size()) - 1}}) {
            const QJsonArray ref = t.value(key).toArray();
            QCOMPARE(int(ref.size()), hub->ids.vocab);
            for (int k = 0; k < int(ref.size()); ++k) {
                if (k == hub->ids.pad) {
                    QVERIFY(ref[k].isNull());
                    continue;
                }
                if (!check(logp(row, hub->ids.toEngine(k)), ref[k].toDouble()))
                    QFAIL(qPrintable(u"%1 id %2: %3 against %4"_s.arg(key).arg(k)
                                         .arg(logp(row, hub->ids.toEngine(k))).arg(ref[k].toDouble())));
            }
            // <pad> and <s> have no probability at all: the rows sum to 1 without them.
            for (int special : {0, 1})
                QCOMPARE(std::exp(double(logp(row, special))), 0.0);
            QVERIFY(std::abs(logp.row(row).array().exp().sum() - 1.0f) < 1e-4f);
        }
    }
    qInfo("%s: %d log-probabilities, worst relative difference %.2e", QTest::currentDataTag(), compared, worstRel);
}

// Greedy translations (core/SPEC.md §5.2) equal the reference's, token for token to its </s>.
void TestHubMarian::greedy()
{
    int checked = 0;
    for (int f : {0, 1}) {
        QString error;
        const std::optional<HubModel> hub = readHubModel(folder(f), &error);
        QVERIFY2(hub, qPrintable(error));
        auto m = engineModel(*hub);
        for (const QJsonValue& tv : expected_[f]) {
            const QJsonObject t = tv.toObject();
            std::vector<int> want;
            for (int k : intsOf(t.value(u"greedy"_s))) {
                if (k == hub->ids.endOfText)
                    break;  // </s>: the engine stops there and does not return it
                want.push_back(hub->ids.toEngine(k));
            }
            const DecodeResult r = greedyDecode(*m, toEngine(*hub, intsOf(t.value(u"src_ids"_s))), 10);
            QVERIFY(!r.nbest.empty());
            QCOMPARE(r.nbest.front().tokens, want);
            ++checked;
        }
    }
    QCOMPARE(checked, 8);
}

// One fine-tuning step (dropout off, no label smoothing): the loss and gradients of each pair as
// a batch of one, against autograd's, mapped back to the Hub's names and rows.
void TestHubMarian::fineTuningStep()
{
    for (int f : {0, 1}) {
        QString error;
        std::optional<HubModel> hub = readHubModel(folder(f) + u"/pytorch_model.bin"_s, &error);
        QVERIFY2(hub, qPrintable(error));
        hub->config.dropout = 0;
        auto m = engineModel(*hub);
        const ModelConfig& c = hub->config;
        const int d = c.d_model, ff = c.d_ff, L = c.decoder_layers;
        double worst = 0, scale = 0;
        int compared = 0;
        for (const QJsonValue& tv : expected_[f]) {
            const QJsonObject t = tv.toObject();
            const std::vector<int> src = toEngine(*hub, intsOf(t.value(u"src_ids"_s)));
            std::vector<int> tgt = toEngine(*hub, intsOf(t.value(u"tgt_ids"_s)));
            QCOMPARE(tgt.back(), int(Vocab::kEos));
            tgt.pop_back();  // the engine's batch ends the target with </s> itself
            const Batch batch = makeBatch({src}, {tgt});
            m->params().zeroGrads();
            Rng rng(1);
            const LossStats st = m->forwardBackward(batch, Pass::training(rng));
            const double refLoss = t.value(u"loss"_s).toDouble();
            QVERIFY2(std::abs(st.loss() - refLoss) <= 1e-5 * refLoss,
                     qPrintable(u"loss %1 against %2"_s.arg(st.loss()).arg(refLoss)));
            const ParamStore<float>& ps = m->params();
            const auto grad = [&](const std::string& name) {
                const ParamInfo* p = ps.find(name);
                if (!p)
                    qFatal("no parameter %s", name.c_str());
                return ps.grads() + p->offset;
            };
            const QJsonObject grads = t.value(u"grads"_s).toObject();
            const auto compare = [&](double ours, double ref) {
                worst = std::max(worst, std::abs(ours - ref));
                scale = std::max(scale, std::abs(ref));
                ++compared;
            };
            const auto all = [&](const QString& hubName, const std::string& ours, int n) {
                const QJsonArray ref = grads.value(hubName).toArray();
                QCOMPARE(int(ref.size()), n);
                for (int i = 0; i < n; ++i)
                    compare(grad(ours)[i], ref[i].toDouble());
            };
            // The shared embedding (encoder, decoder and head at once): rows mapped.
            const QJsonObject shared = grads.value(u"model.shared.weight"_s).toObject();
            const std::vector<int> rows = intsOf(shared.value(u"rows"_s));
            const QJsonArray sv = shared.value(u"values"_s).toArray();
            QCOMPARE(qsizetype(rows.size()) * d, sv.size());
            for (std::size_t r = 0; r < rows.size(); ++r)
                for (int j = 0; j < d; ++j)
                    compare(grad("src_embed.weight")[std::size_t(hub->ids.toEngine(rows[r])) * d + j],
                            sv[qsizetype(r) * d + j].toDouble());
            const std::string last = std::to_string(L - 1);
            all(u"model.encoder.layers.0.self_attn.q_proj.weight"_s, "encoder.layers.0.self_attn.q.weight", d * d);
            all(u"model.encoder.layers.0.self_attn.q_proj.bias"_s, "encoder.layers.0.self_attn.q.bias", d);
            all(u"model.encoder.layers.0.fc1.weight"_s, "encoder.layers.0.ffn.w1.weight", ff * d);
            all(u"model.decoder.layers.%1.encoder_attn.k_proj.weight"_s.arg(L - 1),
                "decoder.layers." + last + ".cross_attn.k.weight", d * d);
            all(u"model.decoder.layers.%1.encoder_attn.v_proj.bias"_s.arg(L - 1),
                "decoder.layers." + last + ".cross_attn.v.bias", d);
            all(u"model.decoder.layers.0.self_attn_layer_norm.weight"_s, "decoder.layers.0.norm1.weight", d);
            all(u"model.decoder.layers.%1.final_layer_norm.bias"_s.arg(L - 1), "decoder.layers." + last + ".norm3.bias", d);
        }
        qInfo("folder %d: %d gradient entries, worst |Δ| %.2e of max %.2e", f, compared, worst, scale);
        QVERIFY2(worst <= 1e-4 * scale, qPrintable(u"worst %1 of %2"_s.arg(worst).arg(scale)));
    }
}

// The program's ids on every line of the bundled corpus, both sides through both tokenizers,
// against MarianTokenizer's rules (the reference, with Debian's python3-sentencepiece), and the
// target side's ids decoded back.
void TestHubMarian::tokenizer()
{
    QString error;
    const std::optional<ModelBundle> b = loadModel(folder(1), &error);
    QVERIFY2(b, qPrintable(error));
    QCOMPARE(tokenizerName(b->srcTok), u"marian-source"_s);
    QCOMPARE(tokenizerName(b->tgtTok), u"marian-target"_s);
    const std::optional<HubModel> hub = readHubModel(folder(1), &error);
    QVERIFY2(hub, qPrintable(error));

    QFile corpus(::as::test::testFile("../resources/corpora/cmn.txt"));
    QVERIFY2(corpus.open(QIODevice::ReadOnly), "resources/corpora/cmn.txt");
    QStringList lines;
    for (const QString& line : QString::fromUtf8(corpus.readAll()).split(u'\n', Qt::SkipEmptyParts)) {
        const QStringList cols = line.split(u'\t');
        lines << cols.value(0) << cols.value(1);
    }
    // Hard cases: a language code, nothing, spaces, emoji, a control character, NFKC's kind.
    lines << u">>fra<< Bonjour"_s << QString() << u"   "_s << u"👍🏽 ok"_s << u"a\tb"_s << u"ﬁ ①２"_s;
    QProcess p;
    p.setProgram(::as::test::kTorchPython);
    p.setArguments({script_, u"tokenize"_s, tokenizer_});
    p.start();
    QVERIFY(p.waitForStarted());
    p.write(lines.join(u'\n').toUtf8());
    p.closeWriteChannel();
    QVERIFY(p.waitForFinished(300000));
    QCOMPARE(p.exitCode(), 0);
    const QList<QByteArray> out = p.readAllStandardOutput().split('\n');
    QVERIFY(out.size() >= lines.size());
    int agreed = 0, unknown = 0;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QJsonObject ref = QJsonDocument::fromJson(out[i]).object();
        const std::vector<int> src = b->srcVocab.encode(tokenize(b->srcTok, lines[i]));
        std::vector<int> tgt = b->tgtVocab.encode(tokenize(b->tgtTok, lines[i]));
        tgt.push_back(Vocab::kEos);  // the labels' </s>, which the engine's batch adds
        const std::vector<int> wantSrc = toEngine(*hub, intsOf(ref.value(u"src"_s)));
        const std::vector<int> wantTgt = toEngine(*hub, intsOf(ref.value(u"tgt"_s)));
        if (src != wantSrc || tgt != wantTgt)
            QFAIL(qPrintable(u"line %1 '%2': ids differ"_s.arg(i).arg(lines[i])));
        tgt.pop_back();
        const QString back = detokenize(b->tgtTok, b->tgtVocab.decode(tgt));
        if (back != ref.value(u"back"_s).toString())
            QFAIL(qPrintable(u"line %1 '%2': decoded '%3', the reference '%4'"_s.arg(i).arg(lines[i], back,
                                                                                        ref.value(u"back"_s).toString())));
        unknown += int(std::count(src.begin(), src.end(), int(Vocab::kUnk)));
        ++agreed;
    }
    qInfo("%d texts, ids and decoding equal on both sides (%d <unk> in the sources)", agreed, unknown);
    QVERIFY(unknown > 0);  // the pieces vocab.json lacks were met
    QCOMPARE(agreed, int(lines.size()));
}

// Folders that are not Marian's of their config.json are refused, naming the file or tensor.
void TestHubMarian::notMarianFolders()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    for (const char* name : {"config.json", "vocab.json", "source.spm", "target.spm", "pytorch_model.bin"})
        QVERIFY(QFile::copy(folder(0) + u'/' + QLatin1String(name), tmp.filePath(QLatin1String(name))));
    QString error;
    QVERIFY2(loadModel(tmp.path(), &error), qPrintable(error));
    QFile cf(tmp.filePath(u"config.json"_s));
    QVERIFY(cf.open(QIODevice::ReadOnly));
    const QJsonObject config = QJsonDocument::fromJson(cf.readAll()).object();
    cf.close();
    const auto writeJson = [&](const QString& name, const QJsonObject& o) {
        QFile out(tmp.filePath(name));
        return out.open(QIODevice::WriteOnly | QIODevice::Truncate) && out.write(QJsonDocument(o).toJson()) > 0;
    };
    const auto refused = [&](const QString& named) {
        QString why;
        if (loadModel(tmp.path(), &why))
            return QStringLiteral("opened");
        return why.contains(named) ? QString() : why;
    };
    // A config that lies about sizes: a layer fewer, a layer more, another width.
    QJsonObject c = config;
    c.insert(u"encoder_layers"_s, 1);
    QVERIFY(writeJson(u"config.json"_s, c));
    QCOMPARE(refused(u"'encoder.layers.1."_s), QString());
    c.insert(u"encoder_layers"_s, 3);
    QVERIFY(writeJson(u"config.json"_s, c));
    QCOMPARE(refused(u"'encoder.layers.2.self_attn.q_proj.weight' is missing"_s), QString());
    c = config;
    c.insert(u"d_model"_s, 128);
    QVERIFY(writeJson(u"config.json"_s, c));
    QCOMPARE(refused(u"'shared.weight' is [5882, 64]"_s), QString());
    // A vocabulary of another size than the config's.
    c = config;
    c.insert(u"vocab_size"_s, 6000);
    c.insert(u"decoder_vocab_size"_s, 6000);
    c.insert(u"pad_token_id"_s, 5999);
    c.insert(u"decoder_start_token_id"_s, 5999);
    QVERIFY(writeJson(u"config.json"_s, c));
    QCOMPARE(refused(u"vocab.json has 5882 pieces"_s), QString());
    QVERIFY(writeJson(u"config.json"_s, config));
    // vocab.json: two pieces with one id; an id past the embedding; <unk> missing.
    QFile vf(folder(0) + u"/vocab.json"_s);
    QVERIFY(vf.open(QIODevice::ReadOnly));
    const QJsonObject vocab = QJsonDocument::fromJson(vf.readAll()).object();
    const QStringList keys = vocab.keys();
    QJsonObject v = vocab;
    v.insert(keys.value(10), vocab.value(keys.value(11)));
    QVERIFY(writeJson(u"vocab.json"_s, v));
    QCOMPARE(refused(u"have the same id"_s), QString());
    v = vocab;
    v.insert(keys.value(10), 9000);
    QVERIFY(writeJson(u"vocab.json"_s, v));
    QCOMPARE(refused(u"is not one of 0 … 5881"_s), QString());
    v = vocab;
    const int unk = v.value(u"<unk>"_s).toInt();
    v.remove(u"<unk>"_s);
    v.insert(u"<unknown>"_s, unk);
    QVERIFY(writeJson(u"vocab.json"_s, v));
    QCOMPARE(refused(u"no '<unk>'"_s), QString());
    QVERIFY(writeJson(u"vocab.json"_s, vocab));
    // An spm file that is not one; a missing one.
    QVERIFY(::as::test::writeFile(tmp.filePath(u"source.spm"_s), "not a SentencePiece model"));
    QCOMPARE(refused(u"source.spm"_s), QString());
    QFile::remove(tmp.filePath(u"source.spm"_s));
    QCOMPARE(refused(u"source.spm"_s), QString());
    QVERIFY(QFile::copy(folder(0) + u"/source.spm"_s, tmp.filePath(u"source.spm"_s)));
    QVERIFY2(loadModel(tmp.path(), &error), qPrintable(error));
    QVERIFY(isHubModelPath(tmp.path()));
}

// The opened model saved as the program's model file and read back (core/SPEC.md §8.2): the
// weights bit for bit, both Marian sides with their SentencePiece models, the vocabulary, and
// so the same ids and the same translation.
void TestHubMarian::modelFileRoundTrip()
{
    QString error;
    const std::optional<ModelBundle> b = loadModel(folder(0), &error);
    QVERIFY2(b, qPrintable(error));
    const QString file = dir_.filePath(u"marian.safetensors"_s);
    QVERIFY2(saveModel(file, *b->model, b->srcVocab, b->tgtVocab, b->srcTok, b->tgtTok, &error), qPrintable(error));
    const std::optional<ModelBundle> back = loadModel(file, &error);
    QVERIFY2(back, qPrintable(error));
    QVERIFY(back->config == b->config);
    QVERIFY(back->model->params().valueVector() == b->model->params().valueVector());
    QCOMPARE(back->srcVocab.tokens(), b->srcVocab.tokens());
    QVERIFY(back->srcTok == b->srcTok);
    QVERIFY(back->tgtTok == b->tgtTok);
    QVERIFY(back->srcTok != back->tgtTok);
    const QString text = u"他每天早上跑步。"_s;
    const std::vector<int> src = back->srcVocab.encode(tokenize(back->srcTok, text));
    QCOMPARE(src, b->srcVocab.encode(tokenize(b->srcTok, text)));
    QCOMPARE(src.back(), int(Vocab::kEos));
    QCOMPARE(greedyDecode(*back->model, src, 10).nbest.front().tokens, greedyDecode(*b->model, src, 10).nbest.front().tokens);
    // A Marian side without its SentencePiece model is not a file that can be read back.
    QVERIFY(!saveModel(file, *b->model, b->srcVocab, b->tgtVocab, Tokenizer(TokenizerKind::MarianSource), b->tgtTok, &error));
    QVERIFY2(error.contains(u"marian-source"_s), qPrintable(error));
}

// Written back in the Hub's layout (core/SPEC.md §8.7): read again, the same model bit for bit
// with the same tokenisers; the folder holds the files a Marian folder has; and the PyTorch
// MarianMTModel loads it (every key and shape) and computes the original folder's logits.
void TestHubMarian::hubLayoutRoundTrip()
{
    QString error;
    const std::optional<ModelBundle> b = loadModel(folder(1), &error);
    QVERIFY2(b, qPrintable(error));
    const QString back = dir_.filePath(u"written"_s);
    QString note;
    QVERIFY2(writeHubModel(*b, back, &error, &note), qPrintable(error));
    QVERIFY2(note.isEmpty(), qPrintable(note));  // <s> still reads the pad token's row
    for (const char* name : {"config.json", "model.safetensors", "vocab.json", "source.spm", "target.spm"})
        QVERIFY2(QFileInfo::exists(back + u'/' + QLatin1String(name)), name);
    QVERIFY(!QFileInfo::exists(back + u".partial"_s));
    const std::optional<ModelBundle> again = loadModel(back, &error);
    QVERIFY2(again, qPrintable(error));
    QVERIFY(again->config == b->config);
    QVERIFY(again->srcTok == b->srcTok);
    QVERIFY(again->tgtTok == b->tgtTok);
    QCOMPARE(again->tgtVocab.tokens(), b->tgtVocab.tokens());
    QVERIFY(again->model->params().valueVector() == b->model->params().valueVector());
    // The config.json fields that matter, as the original's.
    QFile oc(folder(1) + u"/config.json"_s), nc(back + u"/config.json"_s);
    QVERIFY(oc.open(QIODevice::ReadOnly) && nc.open(QIODevice::ReadOnly));
    const QJsonObject o = QJsonDocument::fromJson(oc.readAll()).object(), n = QJsonDocument::fromJson(nc.readAll()).object();
    for (const char* key : {"activation_function", "model_type", "d_model", "encoder_layers", "decoder_layers",
                            "encoder_attention_heads", "encoder_ffn_dim", "max_position_embeddings", "vocab_size",
                            "eos_token_id", "pad_token_id", "decoder_start_token_id", "scale_embedding"})
        QVERIFY2(n.value(QLatin1String(key)) == o.value(QLatin1String(key)), key);
    // Not over a folder that holds something; a model that is not Marian's is not written so.
    QVERIFY(!writeHubModel(*b, back, &error));
    QVERIFY2(error.contains(u"not empty"_s), qPrintable(error));
    // The reference loads it and computes the same logits as from the original folder (the pad
    // token's, -inf in both, left out).
    QProcess p;
    p.setWorkingDirectory(QFileInfo(script_).absolutePath());
    p.start(::as::test::kTorchPython, {u"-c"_s, u"import sys, torch, hub_marian\n"
                                                "a = hub_marian.load_folder(sys.argv[1]).eval()\n"
                                                "b = hub_marian.load_folder(sys.argv[2]).eval()\n"
                                                "s = torch.tensor([[33, 1003, 59, 67, 0]]); y = torch.tensor([[5881, 4090, 3939, 2145]])\n"
                                                "with torch.no_grad(): print(float((a(s, y) - b(s, y))[..., :-1].abs().max()))"_s,
                                       folder(1), back});
    QVERIFY(p.waitForFinished(300'000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    QCOMPARE(p.readAllStandardOutput().trimmed(), QByteArray("0.0"));
}

AS_TEST_GUILESS_MAIN(TestHubMarian)
#include "test_hub_marian.moc"
