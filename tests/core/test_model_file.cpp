// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Model files: bit-exact round trips (weights, configuration, vocabularies, tokenisers, and
// the loss the loaded model computes), the header of core/SPEC.md §8, refusal of every
// inconsistent file, a corruption sweep that must never crash, and an atomic save.
#include "gradcheck.h"
#include "io/bytes.h"
#include "io/model_file.h"
#include "model/memory.h"

#include "model/rng.h"
#include "skip.h"
#include "test_files.h"
#include "train/batch.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtEndian>
#include <QtTest>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>

#ifdef __linux__
#include <sys/fsuid.h>
#include <unistd.h>
#endif

using namespace as;
using namespace Qt::StringLiterals;

namespace {

ModelConfig smallConfig(NormPlacement norm)
{
    return test::gradCheckConfig(norm, 0.1, 40);
}

// Every value random, LayerNorms included, so that a swapped or zeroed tensor shows.
std::unique_ptr<Transformer<float>> randomModel(NormPlacement norm, std::uint64_t seed)
{
    auto m = std::make_unique<Transformer<float>>(smallConfig(norm));
    Rng rng(seed);
    for (Eigen::Index i = 0; i < m->params().valueVector().size(); ++i)
        m->params().valueVector()[i] = float(2.0 * rng.uniform() - 1.0);
    return m;
}

Vocab vocabOf(const QStringList& words)
{
    Vocab v;
    QString error;
    if (!Vocab::fromTokens(QStringList{u"<pad>"_s, u"<s>"_s, u"</s>"_s, u"<unk>"_s} + words, &v,
                           &error))
        qFatal("bad test vocabulary: %s", qPrintable(error));
    return v;
}

// 11 and 13 tokens, with characters JSON must escape and text beyond the BMP.
Vocab srcVocab()
{
    return vocabOf({u"\u732b"_s, u"\u72ac"_s, u"caf\u00e9"_s, u"\"q\""_s, u"back\\slash"_s,
                    u"new\nline"_s, u"\U0001F600"_s});
}
Vocab tgtVocab()
{
    return vocabOf({u"the"_s, u"cat"_s, u"dog"_s, u"sat"_s, u"."_s, u","_s, u"\t"_s, u"a b"_s,
                    u"</S>"_s});
}

Batch smallBatch()
{
    return makeBatch({{4, 5, 6, 10}, {7, 8}, {9, 4, 4, 5, 6}}, {{4, 5, 12}, {6, 7, 8, 9}, {10}});
}

std::uint64_t bits(double x)
{
    return std::bit_cast<std::uint64_t>(x);
}

using ::as::test::readAll;

using ::as::test::writeFile;

// A valid model file taken apart, to be edited and put together again.
struct Parts {
    std::vector<SafetensorsTensor> tensors;
    std::vector<std::vector<float>> values;
    SafetensorsMetadata meta;

    explicit Parts(const QByteArray& file)
    {
        QString error;
        const std::optional<SafetensorsFile> f = SafetensorsFile::parse(file, &error);
        if (!f)
            qFatal("%s", qPrintable(error));
        tensors = f->tensors();
        for (const SafetensorsTensor& t : tensors) {
            values.emplace_back(t.elements());
            f->copyValues(t, values.back().data());
        }
        meta = f->metadata();
    }
    std::size_t index(const std::string& name) const
    {
        for (std::size_t i = 0; i < tensors.size(); ++i)
            if (tensors[i].name == name)
                return i;
        qFatal("no tensor %s", name.c_str());
    }
    void remove(const std::string& name)
    {
        const std::size_t i = index(name);
        tensors.erase(tensors.begin() + std::ptrdiff_t(i));
        values.erase(values.begin() + std::ptrdiff_t(i));
    }
    void add(const std::string& name, std::vector<std::uint64_t> shape)
    {
        std::uint64_t n = 1;
        for (std::uint64_t d : shape)
            n *= d;
        tensors.push_back({name, std::move(shape), 0, 0});
        values.emplace_back(n, 0.5f);
    }
    QJsonObject config() const
    {
        return QJsonDocument::fromJson(meta.value(u"config"_s).toUtf8()).object();
    }
    void setConfig(const QJsonObject& c)
    {
        meta[u"config"_s] = QString::fromUtf8(QJsonDocument(c).toJson(QJsonDocument::Compact));
    }
    QByteArray bytes() const
    {
        std::vector<SafetensorsEntry> entries;
        for (std::size_t i = 0; i < tensors.size(); ++i)
            entries.push_back({tensors[i].name, tensors[i].shape, values[i].data()});
        QString error;
        const std::optional<QByteArray> b = serializeSafetensors(entries, meta, &error);
        if (!b)
            qFatal("%s", qPrintable(error));
        return *b;
    }
};

QByteArray validFile(NormPlacement norm = NormPlacement::Pre, std::uint64_t seed = 1)
{
    const auto m = randomModel(norm, seed);
    QString error;
    const std::optional<QByteArray> b = serializeModel(*m, srcVocab(), tgtVocab(),
                                                       TokenizerKind::CjkChar, TokenizerKind::Word,
                                                       &error);
    if (!b)
        qFatal("%s", qPrintable(error));
    return *b;
}

// Either a complete, usable model or a refusal with a message: never anything in between.
bool loadsCleanly(const QByteArray& bytes, bool* valid, QString* why)
{
    QString error;
    const std::optional<ModelBundle> b = loadModelFromBytes(bytes, &error);
    if (!b) {
        *valid = false;
        *why = u"refused without a message"_s;
        return !error.isEmpty();
    }
    *valid = true;
    *why = u"accepted an inconsistent model"_s;
    return b->model && b->config.validate().isEmpty()
           && b->model->config() == b->config
           && b->srcVocab.size() == b->config.src_vocab
           && b->tgtVocab.size() == b->config.tgt_vocab;
}

}  // namespace

class TestModelFile : public QObject {
    Q_OBJECT

private slots:
    void roundTrip_data();
    void roundTrip();
    void headerAsSpec();
    void saveRefusesUnloadableModels();
    void hostile_data();
    void hostile();
    void fileErrors();
    void corruptionSweep();
    void saveIntoReadOnlyFolderKeepsOldFile();
    void provenance();
    void decoderOnlyConfig();
    void decoderOnlyRoundTrip();
};

void TestModelFile::roundTrip_data()
{
    QTest::addColumn<bool>("pre");
    QTest::addColumn<int>("srcTok");
    QTest::addColumn<int>("tgtTok");
    QTest::newRow("pre-norm, cjk-char -> word")
        << true << int(TokenizerKind::CjkChar) << int(TokenizerKind::Word);
    QTest::newRow("post-norm, word -> cjk-char")
        << false << int(TokenizerKind::Word) << int(TokenizerKind::CjkChar);
}

void TestModelFile::roundTrip()
{
    QFETCH(bool, pre);
    QFETCH(int, srcTok);
    QFETCH(int, tgtTok);
    const NormPlacement norm = pre ? NormPlacement::Pre : NormPlacement::Post;
    const auto model = randomModel(norm, 42);
    const Vocab src = srcVocab(), tgt = tgtVocab();
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"model.safetensors"_s);
    QString error;
    QVERIFY2(saveModel(path, *model, src, tgt, TokenizerKind(srcTok), TokenizerKind(tgtTok),
                       &error),
             qPrintable(error));

    std::optional<ModelBundle> b = loadModel(path, &error);
    QVERIFY2(b, qPrintable(error));
    QVERIFY(b->model);
    QVERIFY(b->config == model->config());
    QVERIFY(b->model->config() == model->config());
    QCOMPARE(b->srcVocab.tokens(), src.tokens());
    QCOMPARE(b->tgtVocab.tokens(), tgt.tokens());
    QCOMPARE(int(b->srcTok.kind()), srcTok);
    QCOMPARE(int(b->tgtTok.kind()), tgtTok);

    // Same table, every value bit-identical.
    const ParamStore<float>& a = model->params();
    const ParamStore<float>& l = b->model->params();
    QCOMPARE(l.table().size(), a.table().size());
    for (std::size_t i = 0; i < a.table().size(); ++i) {
        QCOMPARE(l.table()[i].name, a.table()[i].name);
        QCOMPARE(l.table()[i].shape, a.table()[i].shape);
    }
    QCOMPARE(l.size(), a.size());
    QCOMPARE(std::memcmp(l.values(), a.values(), a.size() * sizeof(float)), 0);
    QCOMPARE(a.find("encoder.norm.weight") != nullptr, pre);

    // The loaded model computes exactly the same loss.
    const Batch batch = smallBatch();
    const LossStats before = model->evaluate(batch);
    const LossStats after = b->model->evaluate(batch);
    QVERIFY(before.ntokens > 0 && std::isfinite(before.loss_sum));
    QCOMPARE(bits(after.loss_sum), bits(before.loss_sum));
    QCOMPARE(bits(after.nll_sum), bits(before.nll_sum));
    QCOMPARE(after.correct, before.correct);

    // Deterministic bytes: saving again, or serialising, gives the same file.
    const QByteArray first = readAll(path);
    QVERIFY2(saveModel(path, *b->model, b->srcVocab, b->tgtVocab, b->srcTok, b->tgtTok, &error),
             qPrintable(error));
    QCOMPARE(readAll(path), first);
    const std::optional<QByteArray> mem = serializeModel(*model, src, tgt, TokenizerKind(srcTok),
                                                         TokenizerKind(tgtTok), &error);
    QVERIFY(mem);
    QCOMPARE(*mem, first);
}

// The header as core/SPEC.md §8.1, §8.2 describes it, read with a plain JSON parser.
void TestModelFile::headerAsSpec()
{
    const QByteArray file = validFile(NormPlacement::Pre);
    const auto n = qFromLittleEndian<quint64>(file.constData());
    const QJsonObject root = QJsonDocument::fromJson(file.mid(8, qsizetype(n))).object();
    QVERIFY(!root.isEmpty());
    const QJsonObject meta = root[u"__metadata__"_s].toObject();
    QCOMPARE(meta.keys(), (QStringList{u"config"_s, u"data_crc32c"_s, u"format"_s, u"src_vocab"_s,
                                       u"tgt_vocab"_s, u"tokenizer"_s}));
    QCOMPARE(meta[u"format"_s].toString(), u"attention-studio/1"_s);
    // The CRC-32C of the bytes after the header (io/bytes.h), 8 hex digits.
    QCOMPARE(meta[u"data_crc32c"_s].toString(), crc32cHex(crc32c(QByteArrayView(file).sliced(8 + qsizetype(n)))));
    const QJsonObject config = QJsonDocument::fromJson(meta[u"config"_s].toString().toUtf8()).object();
    QCOMPARE(config, smallConfig(NormPlacement::Pre).toJson());
    QCOMPARE(config[u"norm"_s].toString(), u"pre"_s);
    QCOMPARE(config[u"d_model"_s].toInt(), 8);
    const QJsonArray srcTokens =
        QJsonDocument::fromJson(meta[u"src_vocab"_s].toString().toUtf8()).array();
    QCOMPARE(srcTokens.size(), 11);
    QCOMPARE(srcTokens[0].toString(), u"<pad>"_s);
    QCOMPARE(srcTokens[10].toString(), u"\U0001F600"_s);
    QCOMPARE(QJsonDocument::fromJson(meta[u"tgt_vocab"_s].toString().toUtf8()).array().size(), 13);
    QCOMPARE(QJsonDocument::fromJson(meta[u"tokenizer"_s].toString().toUtf8()).object(),
             (QJsonObject{{"src", "cjk-char"}, {"tgt", "word"}}));

    const struct {
        const char* name;
        QJsonArray shape;
    } spec[] = {{"src_embed.weight", {11, 8}},
                {"tgt_embed.weight", {13, 8}},
                {"encoder.layers.0.self_attn.q.weight", {8, 8}},
                {"encoder.layers.1.self_attn.o.bias", {8}},
                {"encoder.layers.1.ffn.w1.weight", {16, 8}},
                {"encoder.layers.1.ffn.w1.bias", {16}},
                {"encoder.layers.0.ffn.w2.weight", {8, 16}},
                {"encoder.layers.0.norm2.weight", {8}},
                {"encoder.norm.bias", {8}},
                {"decoder.layers.1.cross_attn.v.weight", {8, 8}},
                {"decoder.layers.0.norm3.bias", {8}},
                {"decoder.norm.weight", {8}},
                {"generator.weight", {13, 8}},
                {"generator.bias", {13}}};
    for (const auto& s : spec) {
        const QJsonObject t = root[QLatin1String(s.name)].toObject();
        QVERIFY2(!t.isEmpty(), s.name);
        QCOMPARE(t[u"dtype"_s].toString(), u"F32"_s);
        QCOMPARE(t[u"shape"_s].toArray(), s.shape);
        const QJsonArray off = t[u"data_offsets"_s].toArray();
        QCOMPARE(off.size(), 2);
        qint64 count = 1;
        for (const QJsonValue& d : s.shape)
            count *= d.toInteger();
        QCOMPARE(off[1].toInteger() - off[0].toInteger(), 4 * count);
    }
    // 2 embeddings, 16 per encoder layer, 26 per decoder layer, 2 final norms, the generator.
    QCOMPARE(root.size(), 1 + 2 + 2 * 16 + 2 * 26 + 4 + 2);

    const QByteArray post = validFile(NormPlacement::Post);
    const QJsonObject postRoot =
        QJsonDocument::fromJson(post.mid(8, qsizetype(qFromLittleEndian<quint64>(post.constData()))))
            .object();
    QVERIFY(!postRoot.contains(u"encoder.norm.weight"_s));
    QVERIFY(!postRoot.contains(u"decoder.norm.bias"_s));
    QVERIFY(postRoot.contains(u"decoder.layers.1.norm3.weight"_s));
    QCOMPARE(postRoot.size(), 1 + 2 + 2 * 16 + 2 * 26 + 2);
}

void TestModelFile::saveRefusesUnloadableModels()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"m.safetensors"_s);
    QString error;
    auto model = randomModel(NormPlacement::Pre, 3);
    QVERIFY(!saveModel(path, *model, vocabOf({u"x"_s}), tgtVocab(), TokenizerKind::Word,
                       TokenizerKind::Word, &error));
    QVERIFY2(error.contains(u"source vocabulary has 5 tokens but the model's src_embed.weight has "
                            "11 rows"_s),
             qPrintable(error));
    const ParamInfo* p = model->params().find("decoder.layers.1.ffn.w1.weight");
    QVERIFY(p);
    model->params().values()[p->offset + 9] = std::numeric_limits<float>::quiet_NaN();
    QVERIFY(!saveModel(path, *model, srcVocab(), tgtVocab(), TokenizerKind::Word,
                       TokenizerKind::Word, &error));
    QVERIFY2(error.contains(u"tensor 'decoder.layers.1.ffn.w1.weight': value 9 (row 1, column 1) "
                            "is NaN"_s),
             qPrintable(error));
    QVERIFY(!QFile::exists(path));
}

void TestModelFile::hostile_data()
{
    QTest::addColumn<QString>("edit");
    QTest::addColumn<QString>("message");
    QTest::newRow("no metadata (a bare weight file)") << u"no metadata"_s << u"no __metadata__"_s;
    QTest::newRow("no tokenizer entry") << u"no tokenizer"_s << u"__metadata__ has no 'tokenizer'"_s;
    QTest::newRow("other format")
        << u"format"_s << u"format is 'attention-studio/2'; this program reads "
                          "'attention-studio/1'"_s;
    QTest::newRow("missing parameter")
        << u"missing"_s << u"missing parameter 'decoder.norm.bias' (shape [8])"_s;
    QTest::newRow("extra parameter")
        << u"extra"_s << u"unexpected tensor 'encoder.layers.0.extra.bias'"_s;
    QTest::newRow("post-norm config with final norms")
        << u"post"_s << u"unexpected tensor 'decoder.norm.bias': a post-norm model has no "
                        "encoder.norm or decoder.norm"_s;
    QTest::newRow("wrong shape")
        << u"shape"_s << u"tensor 'encoder.layers.1.ffn.w1.weight' has shape [8, 16] but the "
                         "configuration needs [16, 8]"_s;
    QTest::newRow("source vocabulary larger than the embedding")
        << u"src vocab"_s << u"tensor 'src_embed.weight' has shape [11, 8] but the configuration "
                             "needs [12, 8]: the source vocabulary (12 tokens) does not fit the "
                             "weights"_s;
    QTest::newRow("target vocabulary smaller than the embedding")
        << u"tgt vocab"_s << u"target vocabulary (12 tokens) does not fit the weights"_s;
    QTest::newRow("NaN in a weight")
        << u"nan"_s << u"tensor 'encoder.layers.1.ffn.w2.weight': value 21 (row 1, column 5) is "
                       "NaN"_s;
    QTest::newRow("-Inf in a bias") << u"inf"_s << u"tensor 'generator.bias': value 2 is -Inf"_s;
    QTest::newRow("config not JSON") << u"config json"_s << u"'config' is not valid JSON"_s;
    QTest::newRow("config an array") << u"config array"_s << u"'config' must be a JSON object"_s;
    QTest::newRow("config wrong type")
        << u"config type"_s << u"config: 'd_model' must be a non-negative whole number"_s;
    QTest::newRow("config invalid")
        << u"config heads"_s << u"config: d_model (8) must be a multiple of heads (3)"_s;
    QTest::newRow("config unknown norm")
        << u"config norm"_s << u"config: 'norm' must be \"pre\" or \"post\""_s;
    QTest::newRow("config d_model not the weights'")
        << u"config d_model"_s << u"has shape [11, 8] but the configuration needs [11, 16]"_s;
    QTest::newRow("config with absurd layer count")
        << u"config layers"_s << u"asks for 100000000 encoder and 2 decoder layers but the file "
                                 "holds only 92 tensors"_s;
    QTest::newRow("config vocabulary size contradicts the vocabulary")
        << u"config vocab"_s << u"config says src_vocab is 99 but the vocabulary lists 11 tokens"_s;
    QTest::newRow("vocabulary not JSON") << u"vocab json"_s << u"'src_vocab' is not valid JSON"_s;
    QTest::newRow("vocabulary not an array")
        << u"vocab object"_s << u"'tgt_vocab' must be a JSON array of token strings"_s;
    QTest::newRow("vocabulary entry not a string")
        << u"vocab number"_s << u"'src_vocab': entry 5 is not a string"_s;
    QTest::newRow("vocabulary without specials")
        << u"vocab specials"_s << u"'src_vocab': a vocabulary must start with <pad>"_s;
    QTest::newRow("vocabulary token twice")
        << u"vocab twice"_s << u"'tgt_vocab': the vocabulary lists 'cat' twice"_s;
    QTest::newRow("unknown tokenizer")
        << u"tokenizer"_s << u"tokenizer: unknown source tokenizer 'bpe' (known: cjk-char, word)"_s;
    QTest::newRow("tokenizer without target")
        << u"tokenizer tgt"_s << u"tokenizer: no target tokenizer name ('tgt')"_s;
    QTest::newRow("tokenizer not JSON") << u"tokenizer json"_s << u"'tokenizer' is not valid JSON"_s;
}

void TestModelFile::hostile()
{
    QFETCH(QString, edit);
    QFETCH(QString, message);
    Parts p(validFile());
    QJsonObject config = p.config();
    auto setVocab = [&](const QString& key, const QByteArray& json) {
        p.meta[key] = QString::fromUtf8(json);
    };
    if (edit == u"no metadata") {
        p.meta.clear();
    } else if (edit == u"no tokenizer") {
        p.meta.remove(u"tokenizer"_s);
    } else if (edit == u"format") {
        p.meta[u"format"_s] = u"attention-studio/2"_s;
    } else if (edit == u"missing") {
        p.remove("decoder.norm.bias");
    } else if (edit == u"extra") {
        p.add("encoder.layers.0.extra.bias", {8});
    } else if (edit == u"post") {
        config[u"norm"_s] = u"post"_s;
        p.setConfig(config);
    } else if (edit == u"shape") {
        p.tensors[p.index("encoder.layers.1.ffn.w1.weight")].shape = {8, 16};
    } else if (edit == u"src vocab") {
        QJsonArray a = QJsonDocument::fromJson(p.meta[u"src_vocab"_s].toUtf8()).array();
        a.append(u"new"_s);
        setVocab(u"src_vocab"_s, QJsonDocument(a).toJson());
    } else if (edit == u"tgt vocab") {
        QJsonArray a = QJsonDocument::fromJson(p.meta[u"tgt_vocab"_s].toUtf8()).array();
        a.removeLast();
        setVocab(u"tgt_vocab"_s, QJsonDocument(a).toJson());
    } else if (edit == u"nan") {
        p.values[p.index("encoder.layers.1.ffn.w2.weight")][21] =
            std::numeric_limits<float>::quiet_NaN();
    } else if (edit == u"inf") {
        p.values[p.index("generator.bias")][2] = -std::numeric_limits<float>::infinity();
    } else if (edit == u"config json") {
        p.meta[u"config"_s] = u"{\"d_model\":"_s;
    } else if (edit == u"config array") {
        p.meta[u"config"_s] = u"[8, 2]"_s;
    } else if (edit == u"config type") {
        config[u"d_model"_s] = u"8"_s;
        p.setConfig(config);
    } else if (edit == u"config heads") {
        config[u"heads"_s] = 3;
        p.setConfig(config);
    } else if (edit == u"config norm") {
        config[u"norm"_s] = u"middle"_s;
        p.setConfig(config);
    } else if (edit == u"config d_model") {
        config[u"d_model"_s] = 16;
        p.setConfig(config);
    } else if (edit == u"config layers") {
        config[u"encoder_layers"_s] = 100000000;
        p.setConfig(config);
    } else if (edit == u"config vocab") {
        config[u"src_vocab"_s] = 99;
        p.setConfig(config);
    } else if (edit == u"vocab json") {
        setVocab(u"src_vocab"_s, "[\"<pad>\", \"<s>\"");
    } else if (edit == u"vocab object") {
        setVocab(u"tgt_vocab"_s, "{\"0\": \"<pad>\"}");
    } else if (edit == u"vocab number") {
        setVocab(u"src_vocab"_s, "[\"<pad>\",\"<s>\",\"</s>\",\"<unk>\",\"a\",5,\"b\"]");
    } else if (edit == u"vocab specials") {
        setVocab(u"src_vocab"_s, "[\"a\",\"b\",\"c\",\"d\",\"e\",\"f\",\"g\",\"h\",\"i\",\"j\",\"k\"]");
    } else if (edit == u"vocab twice") {
        QJsonArray a = QJsonDocument::fromJson(p.meta[u"tgt_vocab"_s].toUtf8()).array();
        a[12] = u"cat"_s;
        setVocab(u"tgt_vocab"_s, QJsonDocument(a).toJson());
    } else if (edit == u"tokenizer") {
        p.meta[u"tokenizer"_s] = uR"({"src":"bpe","tgt":"word"})"_s;
    } else if (edit == u"tokenizer tgt") {
        p.meta[u"tokenizer"_s] = uR"({"src":"word"})"_s;
    } else if (edit == u"tokenizer json") {
        p.meta[u"tokenizer"_s] = u"word"_s;
    } else {
        QFAIL("unknown edit");
    }
    QString error;
    const std::optional<ModelBundle> b = loadModelFromBytes(p.bytes(), &error);
    QVERIFY(!b);
    QVERIFY2(error.contains(message), qPrintable(u"got: "_s + error));

    // The unedited parts put back together do load: the edit alone is what is refused.
    const Parts untouched(validFile());
    QVERIFY2(loadModelFromBytes(untouched.bytes(), &error), qPrintable(error));
}

void TestModelFile::fileErrors()
{
    QTemporaryDir dir;
    QString error;
    QVERIFY(!loadModel(dir.filePath(u"none.safetensors"_s), &error));
    QVERIFY2(error.contains(u"cannot open"_s), qPrintable(error));
    QVERIFY(!loadModel(dir.path(), &error));
    QVERIFY2(error.contains(u"folder"_s), qPrintable(error));
    // Errors from the file's contents name the file.
    const QString path = dir.filePath(u"bare.safetensors"_s);
    Parts p(validFile());
    p.meta.clear();
    QVERIFY(writeFile(path, p.bytes()));
    QVERIFY(!loadModel(path, &error));
    QVERIFY2(error.startsWith(u"bare.safetensors: no __metadata__"_s), qPrintable(error));
    QVERIFY(writeFile(path, validFile().left(100)));
    QVERIFY(!loadModel(path, &error));
    QVERIFY2(error.startsWith(u"bare.safetensors: header length"_s), qPrintable(error));
}

// Truncation at every length, every single-bit flip of the length and header, and random bytes
// in the data: each load gives a complete model or a message, never a crash (run it under
// AS_SANITIZE=ON too).
void TestModelFile::corruptionSweep()
{
    const QByteArray good = validFile(NormPlacement::Pre, 7);
    QString why;
    bool valid = false;
    QVERIFY(loadsCleanly(good, &valid, &why) && valid);
    const auto headerEnd = qsizetype(8 + qFromLittleEndian<quint64>(good.constData()));
    QVERIFY(headerEnd > 8 && headerEnd < good.size());

    // A truncated file is never valid: its data no longer covers the tensors.
    for (qsizetype len = 0; len < good.size(); ++len) {
        if (!loadsCleanly(good.left(len), &valid, &why) || valid)
            QFAIL(qPrintable(QStringLiteral("truncated to %1 bytes: %2")
                                 .arg(len)
                                 .arg(valid ? u"accepted"_s : why)));
    }

    // A bit flipped in every byte of the header, bit 0 of the first, 1 of the second, ... 7 of
    // the eighth and so on: every byte and every bit position, one load a byte (all eight bits of
    // every byte took 22 s here, 80 s under ASan, for the same kinds of damage; fuzz/ has the
    // open-ended search).
    int accepted = 0, refused = 0;
    QByteArray bytes = good;
    for (qsizetype i = 0; i < headerEnd; ++i) {
        const int bit = int(i % 8);
        bytes[i] = char(good[i] ^ (1 << bit));
        if (!loadsCleanly(bytes, &valid, &why))
            QFAIL(qPrintable(QStringLiteral("bit %1 of byte %2 flipped: %3").arg(bit).arg(i).arg(why)));
        ++(valid ? accepted : refused);
        bytes[i] = good[i];
    }
    // Most flips break the JSON or a number; some only change a token of a vocabulary, which
    // is still a valid model.
    QVERIFY(refused > accepted);
    QVERIFY(accepted > 0);
    qInfo("header bit flips: %d refused, %d still valid models", refused, accepted);

    // Random bytes in the data of a file without the weights' checksum (written before there
    // was one, or by another tool).
    Parts unchecked(good);
    unchecked.meta.remove(QLatin1String(kModelChecksumKey));
    const QByteArray plain = unchecked.bytes();
    const auto plainHeaderEnd = qsizetype(8 + qFromLittleEndian<quint64>(plain.constData()));
    Rng rng(99);
    int dataAccepted = 0;
    for (int k = 0; k < 400; ++k) {
        bytes = plain;
        const auto at = plainHeaderEnd + qsizetype(rng.below(std::uint64_t(plain.size() - plainHeaderEnd)));
        bytes[at] = char(rng.below(256));
        if (!loadsCleanly(bytes, &valid, &why))
            QFAIL(qPrintable(QStringLiteral("byte %1 changed: %2").arg(at).arg(why)));
        dataAccepted += valid;
    }
    QVERIFY(dataAccepted > 300);  // only an exponent of all ones (NaN/Inf) is refused
    // With the checksum every change to the data is refused.
    for (int k = 0; k < 100; ++k) {
        bytes = good;
        const auto at = headerEnd + qsizetype(rng.below(std::uint64_t(good.size() - headerEnd)));
        bytes[at] = char(good[at] ^ (1 + rng.below(255)));
        QString error;
        if (loadModelFromBytes(bytes, &error) || error.isEmpty())
            QFAIL(qPrintable(QStringLiteral("byte %1 changed: accepted").arg(at)));
    }

    // The same through files on disk.
    QTemporaryDir dir;
    const QString path = dir.filePath(u"cut.safetensors"_s);
    for (qsizetype len : {qsizetype(0), qsizetype(5), headerEnd - 1, headerEnd, good.size() - 1}) {
        QVERIFY(writeFile(path, good.left(len)));
        QString error;
        QVERIFY(!loadModel(path, &error));
        QVERIFY2(error.startsWith(u"cut.safetensors: "_s), qPrintable(error));
    }
}

// Saving over a model in a folder we may not write to fails with a message and leaves the
// old file byte-identical (QSaveFile cannot create its temporary file there).
void TestModelFile::saveIntoReadOnlyFolderKeepsOldFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"model.safetensors"_s);
    const auto oldModel = randomModel(NormPlacement::Pre, 5);
    const auto newModel = randomModel(NormPlacement::Pre, 6);
    QString error;
    QVERIFY2(saveModel(path, *oldModel, srcVocab(), tgtVocab(), TokenizerKind::Word,
                       TokenizerKind::Word, &error),
             qPrintable(error));
    const QByteArray before = readAll(path);

    const QFileDevice::Permissions readOnly = QFileDevice::ReadOwner | QFileDevice::ExeOwner
                                              | QFileDevice::ReadGroup | QFileDevice::ExeGroup
                                              | QFileDevice::ReadOther | QFileDevice::ExeOther;
    QVERIFY(QFile::setPermissions(dir.path(), readOnly));
    // Root ignores folder permissions; act as "nobody" for file access while saving.
    bool droppedFsuid = false;
#ifdef __linux__
    if (geteuid() == 0) {
        setfsuid(65534);
        droppedFsuid = setfsuid(65534) == 65534;
    }
#endif
    const bool writable = QFile(dir.filePath(u"probe"_s)).open(QIODevice::WriteOnly);
    bool saved = false;
    if (!writable)
        saved = saveModel(path, *newModel, srcVocab(), tgtVocab(), TokenizerKind::Word,
                          TokenizerKind::Word, &error);
#ifdef __linux__
    if (droppedFsuid)
        setfsuid(0);
#endif
    QVERIFY(QFile::setPermissions(dir.path(), readOnly | QFileDevice::WriteOwner));
    if (writable)
        AS_SKIP("folder permissions are not enforced for this user (root that cannot act as \"nobody\" "
                "with setfsuid): run the tests as a normal user, or as root with CAP_SETUID");

    QVERIFY(!saved);
    QVERIFY2(error.contains(u"cannot write"_s) && error.contains(path), qPrintable(error));
    QCOMPARE(readAll(path), before);
    const std::optional<ModelBundle> b = loadModel(path, &error);
    QVERIFY2(b, qPrintable(error));
    QCOMPARE(std::memcmp(b->model->params().values(), oldModel->params().values(),
                         oldModel->params().size() * sizeof(float)),
             0);
    qInfo("refused save reported: %s", qPrintable(error));
}

// The step and the run a file records: written, read back, absent in older files, a bad step
// refused with a message.
void TestModelFile::provenance()
{
    const auto model = randomModel(NormPlacement::Pre, 7);
    QTemporaryDir dir;
    QString error;
    const QString with = dir.filePath(u"with.safetensors"_s), without = dir.filePath(u"without.safetensors"_s);
    ModelProvenance p;
    p.step = 2752;
    p.run = u"zh-en, the mean of 5 checkpoints"_s;
    QVERIFY2(saveModel(with, *model, srcVocab(), tgtVocab(), TokenizerKind::CjkChar,
                       TokenizerKind::Word, &error, p),
             qPrintable(error));
    std::optional<ModelBundle> b = loadModel(with, &error);
    QVERIFY2(b, qPrintable(error));
    QCOMPARE(b->provenance.step, 2752L);
    QCOMPARE(b->provenance.run, p.run);
    // In the header as plain metadata strings.
    const QByteArray bytes = readAll(with);
    QVERIFY(bytes.contains("\"step\":\"2752\""));
    QVERIFY2(saveModel(without, *model, srcVocab(), tgtVocab(), TokenizerKind::CjkChar,
                       TokenizerKind::Word, &error),
             qPrintable(error));
    b = loadModel(without, &error);
    QVERIFY2(b, qPrintable(error));
    QCOMPARE(b->provenance.step, -1L);
    QVERIFY(b->provenance.run.isEmpty());
    // A step that is not a whole number: refused, saying so. The header is rewritten with the
    // same length ("2752" -> "-275"), so that only the value is wrong.
    QByteArray bad = bytes;
    bad.replace("\"step\":\"2752\"", "\"step\":\"-275\"");
    QVERIFY(!loadModelFromBytes(bad, &error));
    QVERIFY2(error.contains(u"'step'"_s), qPrintable(error));
}

// arch (core/SPEC.md §7.1, §2.10): how --config and the JSON take it, and what is refused.
void TestModelFile::decoderOnlyConfig()
{
    QString error;
    std::optional<ModelConfig> c = ModelConfig::fromSpec(u"tiny,arch=decoder-only"_s, &error, {});
    QVERIFY2(c, qPrintable(error));
    QVERIFY(c->decoderOnly());
    QCOMPARE(c->encoder_layers, 0);  // the preset's encoder dropped
    QCOMPARE(c->decoder_layers, 2);
    c->src_vocab = c->tgt_vocab = 9;
    QCOMPARE(c->validate(), QString());
    // The spec and the JSON round-trip it; an encoder–decoder's JSON has no "arch" key.
    const std::optional<ModelConfig> again = ModelConfig::fromSpec(c->spec(), &error, {});
    QVERIFY2(again, qPrintable(error));
    QCOMPARE(again->spec(), c->spec());
    QVERIFY(c->spec().contains(u"arch=decoder-only"_s));
    QCOMPARE(c->toJson().value(u"arch"_s).toString(), u"decoder-only"_s);
    QVERIFY(!ModelConfig::preset(u"tiny"_s)->toJson().contains(u"arch"_s));
    std::optional<ModelConfig> back = ModelConfig::fromSpec(u"arch=encoder-decoder"_s, &error, *c);
    QVERIFY2(back, qPrintable(error));
    QCOMPARE(back->encoder_layers, 2);  // an encoder as deep as the decoder
    // Refused: an encoder, tie=all, two vocabularies, an unknown architecture.
    ModelConfig bad = *c;
    bad.encoder_layers = 1;
    QVERIFY(bad.validate().contains(u"encoder_layers must be 0"_s));
    bad = *c;
    bad.tie = Tie::All;
    QVERIFY(bad.validate().contains(u"tie=all"_s));
    bad = *c;
    bad.src_vocab = 10;
    QVERIFY(bad.validate().contains(u"one vocabulary"_s));
    QVERIFY(!ModelConfig::fromSpec(u"tiny,arch=gpt"_s, &error, {}));
    QVERIFY2(error.contains(u"'arch'"_s), qPrintable(error));
    // The parameter count (memory estimates) is the model's own.
    const Transformer<float> m(*c);
    QCOMPARE(parameterCount(*c), double(m.params().size()));
    ModelConfig tied = *c;
    tied.tie = Tie::Tgt;
    QCOMPARE(parameterCount(tied), double(Transformer<float>(tied).params().size()));
}

// A decoder-only model's file: its own format tag, the one vocabulary under both keys, the
// same loss after loading; a format that does not go with the config is refused.
void TestModelFile::decoderOnlyRoundTrip()
{
    ModelConfig c = smallConfig(NormPlacement::Pre);
    c.arch = Arch::DecoderOnly;
    c.encoder_layers = 0;
    c.src_vocab = c.tgt_vocab;
    c.tie = Tie::Tgt;
    Transformer<float> m(c);
    Rng rng(8);
    m.initXavier(rng);
    const Vocab v = tgtVocab();
    QString error;
    const std::optional<QByteArray> bytes = serializeModel(m, v, v, TokenizerKind::Word,
                                                           TokenizerKind::Word, &error);
    QVERIFY2(bytes, qPrintable(error));
    const std::optional<ModelBundle> b = loadModelFromBytes(*bytes, &error);
    QVERIFY2(b, qPrintable(error));
    QVERIFY(b->config == c);
    QVERIFY(!b->model->params().find("src_embed.weight"));
    QVERIFY(!b->model->params().find("decoder.layers.0.cross_attn.q.weight"));
    const Batch batch = makeLmBatch({{kBos, 4, 5, 6, kEos}, {kBos, 7, 8}});
    QCOMPARE(bits(b->model->evaluate(batch).loss_sum), bits(m.evaluate(batch).loss_sum));
    const std::optional<SafetensorsFile> file = SafetensorsFile::parse(*bytes, &error);
    QVERIFY(file);
    QCOMPARE(file->metadata().value(u"format"_s), QLatin1String(kDecoderOnlyModelFormat));
    QCOMPARE(file->metadata().value(u"src_vocab"_s), file->metadata().value(u"tgt_vocab"_s));
    // A translator's file under the decoder-only tag, and the other way round: refused.
    for (const auto& [data, tag] : {std::pair{validFile(), QLatin1String(kDecoderOnlyModelFormat)},
                                    std::pair{*bytes, QLatin1String(kModelFormat)}}) {
        const std::optional<SafetensorsFile> f = SafetensorsFile::parse(data, &error);
        QVERIFY(f);
        SafetensorsMetadata meta = f->metadata();
        meta.insert(u"format"_s, tag);
        std::vector<std::vector<float>> values;
        values.reserve(f->tensors().size());
        std::vector<SafetensorsEntry> entries;
        for (const SafetensorsTensor& t : f->tensors()) {
            values.emplace_back(t.elements());
            f->copyValues(t, values.back().data());
            entries.push_back({t.name, t.shape, values.back().data()});
        }
        const std::optional<QByteArray> retagged = serializeSafetensors(entries, meta, &error);
        QVERIFY2(retagged, qPrintable(error));
        QVERIFY(!loadModelFromBytes(*retagged, &error));
        QVERIFY2(error.contains(u"does not go with"_s), qPrintable(error));
    }
}

AS_TEST_APPLESS_MAIN(TestModelFile)
#include "test_model_file.moc"
