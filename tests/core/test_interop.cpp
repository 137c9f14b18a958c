// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Weight files from elsewhere (core/io/interop): the configuration read from tensor shapes and
// from a partial "config", vocabularies and tokenisers filled in or given, torch_ref.py's
// quirks refused with the fix named, every import bit-exact, export equal to the model file.
#include "skip.h"
#include "io/interop.h"

#include "model/rng.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace as;
using namespace Qt::StringLiterals;

namespace {

ModelConfig config(NormPlacement norm)
{
    ModelConfig c;
    c.src_vocab = 9;
    c.tgt_vocab = 11;
    c.d_model = 8;
    c.heads = 2;
    c.d_ff = 12;
    c.encoder_layers = 2;
    c.decoder_layers = 3;  // unequal, so that the counts cannot be mixed up
    c.norm = norm;
    c.max_len = 30;
    c.dropout = 0.2;
    c.label_smoothing = 0.05;
    return c;
}

std::unique_ptr<Transformer<float>> randomModel(const ModelConfig& c)
{
    auto m = std::make_unique<Transformer<float>>(c);
    Rng rng(11);
    for (Eigen::Index i = 0; i < m->params().valueVector().size(); ++i)
        m->params().valueVector()[i] = float(2.0 * rng.uniform() - 1.0);
    return m;
}

// A weight file of the model's tensors as a plain PyTorch user would write it: whatever
// metadata is given (none by default), optionally with a tensor left out or one added.
QByteArray bareFile(const Transformer<float>& m, const SafetensorsMetadata& meta = {},
                    const std::string& leaveOut = {}, const std::string& extra = {})
{
    std::vector<SafetensorsEntry> entries;
    for (const ParamInfo& p : m.params().table()) {
        if (p.name == leaveOut)
            continue;
        SafetensorsEntry e{p.name, {}, m.params().values() + p.offset};
        for (int s : p.shape)
            e.shape.push_back(std::uint64_t(s));
        entries.push_back(std::move(e));
    }
    static const float pe[4] = {0, 1, 0, 1};
    if (!extra.empty())
        entries.push_back({extra, {2, 2}, pe});
    QString error;
    const std::optional<QByteArray> bytes = serializeSafetensors(entries, meta, &error);
    if (!bytes)
        qFatal("%s", qPrintable(error));
    return *bytes;
}

std::optional<WeightFileInfo> inspect(const QByteArray& bytes, QString* error)
{
    const std::optional<SafetensorsFile> f = SafetensorsFile::parse(bytes, error);
    return f ? inspectWeights(*f, error) : std::nullopt;
}

bool sameWeights(const Transformer<float>& a, const Transformer<float>& b)
{
    const auto& x = a.params().valueVector();
    const auto& y = b.params().valueVector();
    return x.size() == y.size()
           && std::memcmp(x.data(), y.data(), std::size_t(x.size()) * sizeof(float)) == 0;
}

QString configJson(const QJsonObject& o)
{
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact));
}

}  // namespace

class TestInterop : public QObject {
    Q_OBJECT
private slots:
    void shapesGiveTheConfiguration_data();
    void shapesGiveTheConfiguration();
    void bareFileNeedsHeadsAndVocabularies();
    void partialConfigOverShapes();
    void givenVocabulariesAndTokenizers();
    void torchRefQuirksRefused();
    void inconsistentFilesRefused();
    void modelFileImportsAsItIs();
    void exportEqualsTheModelFile();
    void vocabFiles();
    void tiedModels_data();
    void tiedModels();
};

void TestInterop::shapesGiveTheConfiguration_data()
{
    QTest::addColumn<bool>("pre");
    QTest::newRow("pre-norm") << true;
    QTest::newRow("post-norm") << false;
}

void TestInterop::shapesGiveTheConfiguration()
{
    QFETCH(bool, pre);
    const ModelConfig c = config(pre ? NormPlacement::Pre : NormPlacement::Post);
    auto m = randomModel(c);
    QString error;
    const std::optional<WeightFileInfo> info = inspect(bareFile(*m), &error);
    QVERIFY2(info, qPrintable(error));
    QVERIFY(!info->hasConfig && !info->hasVocab && !info->hasTokenizer);
    QCOMPARE(info->config.d_model, 8);
    QCOMPARE(info->config.d_ff, 12);
    QCOMPARE(info->config.encoder_layers, 2);
    QCOMPARE(info->config.decoder_layers, 3);
    QCOMPARE(info->config.src_vocab, 9);
    QCOMPARE(info->config.tgt_vocab, 11);
    QCOMPARE(info->config.norm, c.norm);
    QCOMPARE(info->config.heads, 0);  // weights do not show it
}

void TestInterop::bareFileNeedsHeadsAndVocabularies()
{
    const ModelConfig c = config(NormPlacement::Pre);
    auto m = randomModel(c);
    const QByteArray bytes = bareFile(*m);
    QString error;
    ImportOptions o;
    o.config = inspect(bytes, &error)->config;
    o.placeholderVocab = true;
    QVERIFY(!importWeightsFromBytes(bytes, o, nullptr, &error));
    QVERIFY2(error.contains(u"heads"_s), qPrintable(error));

    o.config.heads = 2;
    o.placeholderVocab = false;
    QVERIFY(!importWeightsFromBytes(bytes, o, nullptr, &error));
    QVERIFY2(error.contains(u"no source vocabulary"_s), qPrintable(error));

    o.placeholderVocab = true;
    QStringList notes;
    const std::optional<ModelBundle> b = importWeightsFromBytes(bytes, o, &notes, &error);
    QVERIFY2(b, qPrintable(error));
    QVERIFY(sameWeights(*b->model, *m));
    QCOMPARE(b->config.heads, 2);
    QCOMPARE(b->srcVocab.size(), 9);
    QCOMPARE(b->tgtVocab.token(10), u"tok10"_s);
    QCOMPARE(b->srcVocab.token(Vocab::kEos), u"</s>"_s);
    QCOMPARE(b->srcTok, TokenizerKind::Word);
    // two placeholder vocabularies, the default tokenizers, no checksum of the weights
    QCOMPARE(notes.size(), 4);
    QVERIFY(notes.join(u' ').contains(u"placeholder"_s));

    // A head count that does not divide d_model is refused by the configuration's checks.
    o.config.heads = 3;
    QVERIFY(!importWeightsFromBytes(bytes, o, nullptr, &error));
    QVERIFY2(error.contains(u"multiple of heads"_s), qPrintable(error));
}

void TestInterop::partialConfigOverShapes()
{
    const ModelConfig c = config(NormPlacement::Post);
    auto m = randomModel(c);
    // Only what the shapes cannot tell: heads, dropout, label smoothing.
    SafetensorsMetadata meta{{u"config"_s, configJson({{"heads", 2},
                                                        {"dropout", 0.2},
                                                        {"label_smoothing", 0.05},
                                                        {"max_len", 30}})}};
    QString error;
    std::optional<WeightFileInfo> info = inspect(bareFile(*m, meta), &error);
    QVERIFY2(info, qPrintable(error));
    QVERIFY(info->hasConfig);
    QVERIFY(info->config == c);

    // A file's config without heads leaves heads unknown.
    meta[u"config"_s] = configJson({{"d_model", 8}});
    info = inspect(bareFile(*m, meta), &error);
    QVERIFY2(info, qPrintable(error));
    QCOMPARE(info->config.heads, 0);

    // A config that contradicts the shapes is refused by the tensor that does not fit.
    meta[u"config"_s] = configJson({{"heads", 2}, {"d_ff", 16}});
    info = inspect(bareFile(*m, meta), &error);
    QVERIFY2(info, qPrintable(error));
    ImportOptions o;
    o.config = info->config;
    o.placeholderVocab = true;
    QVERIFY(!importWeightsFromBytes(bareFile(*m, meta), o, nullptr, &error));
    QVERIFY2(error.contains(u"encoder.layers.0.ffn.w1.weight' has shape [12, 8] but the "
                            "configuration needs [16, 8]"_s),
             qPrintable(error));

    // Vocabulary sizes in the config must be the embeddings'.
    meta[u"config"_s] = configJson({{"heads", 2}, {"src_vocab", 10}});
    QVERIFY(!inspect(bareFile(*m, meta), &error));
    QVERIFY2(error.contains(u"src_vocab is 10 but the embedding has 9 rows"_s), qPrintable(error));
}

void TestInterop::givenVocabulariesAndTokenizers()
{
    const ModelConfig c = config(NormPlacement::Pre);
    auto m = randomModel(c);
    const QByteArray bytes = bareFile(*m);
    QString error;
    ImportOptions o;
    o.config = inspect(bytes, &error)->config;
    o.config.heads = 2;
    const QStringList specials = Vocab().tokens();
    o.srcVocab = specials + QStringList{u"猫"_s, u"狗"_s, u"鱼"_s, u"鸟"_s, u"马"_s};
    o.tgtVocab = specials + QStringList{u"a"_s, u"b"_s, u"c"_s, u"d"_s, u"e"_s, u"f"_s, u"g"_s};
    o.srcTok = TokenizerKind::CjkChar;
    QStringList notes;
    std::optional<ModelBundle> b = importWeightsFromBytes(bytes, o, &notes, &error);
    QVERIFY2(b, qPrintable(error));
    QCOMPARE(b->srcVocab.token(5), u"狗"_s);
    QCOMPARE(b->tgtVocab.token(10), u"g"_s);
    QCOMPARE(b->srcTok, TokenizerKind::CjkChar);
    QCOMPARE(b->tgtTok, TokenizerKind::Word);
    QCOMPARE(notes.size(), 2);  // only the target tokenizer was filled in; no checksum
    QVERIFY(sameWeights(*b->model, *m));

    // One token short of the embedding.
    o.tgtVocab->removeLast();
    QVERIFY(!importWeightsFromBytes(bytes, o, nullptr, &error));
    QVERIFY2(error.contains(u"target vocabulary given lists 10 tokens but tgt_embed.weight has "
                            "11 rows"_s),
             qPrintable(error));
    // Without the specials first.
    o.tgtVocab = QStringList{u"x"_s} + specials + QStringList{u"a"_s, u"b"_s, u"c"_s, u"d"_s,
                                                             u"e"_s, u"f"_s};
    QVERIFY(!importWeightsFromBytes(bytes, o, nullptr, &error));
    QVERIFY2(error.contains(u"must start with <pad>"_s), qPrintable(error));
}

void TestInterop::torchRefQuirksRefused()
{
    auto m = randomModel(config(NormPlacement::Pre));
    QString error;
    // torch_ref.py's state_dict() holds its sinusoid buffer.
    QVERIFY(!inspect(bareFile(*m, {}, {}, "pe"), &error));
    QVERIFY2(error.contains(u"'pe'"_s) && error.contains(u"buffer"_s), qPrintable(error));
    // torch_ref.py's configuration names one depth for both stacks.
    const SafetensorsMetadata meta{{u"config"_s, configJson({{"heads", 2}, {"layers", 2}})}};
    QVERIFY(!inspect(bareFile(*m, meta), &error));
    QVERIFY2(error.contains(u"'layers'"_s) && error.contains(u"encoder_layers"_s),
             qPrintable(error));
}

void TestInterop::inconsistentFilesRefused()
{
    auto m = randomModel(config(NormPlacement::Pre));
    QString error;
    ImportOptions o;
    o.config = config(NormPlacement::Pre);
    o.placeholderVocab = true;
    QVERIFY(importWeightsFromBytes(bareFile(*m), o, nullptr, &error));

    struct Case {
        const char* what;
        QByteArray bytes;
        QString message;
    };
    const Case cases[] = {
        {"missing tensor", bareFile(*m, {}, "decoder.layers.2.ffn.w2.bias"),
         u"missing parameter 'decoder.layers.2.ffn.w2.bias'"_s},
        {"unknown tensor", bareFile(*m, {}, {}, "encoder.extra"),
         u"unexpected tensor 'encoder.extra'"_s},
        {"no embedding", bareFile(*m, {}, "src_embed.weight"), u"no tensor 'src_embed.weight'"_s},
        {"foreign format", bareFile(*m, {{u"format"_s, u"other/2"_s}}), u"format is 'other/2'"_s},
        {"bad config JSON", bareFile(*m, {{u"config"_s, u"{heads"_s}}), u"not valid JSON"_s},
        {"not safetensors", QByteArray("abc"), u"only 3 bytes long"_s},
    };
    for (const Case& k : cases) {
        error.clear();
        QVERIFY2(!importWeightsFromBytes(k.bytes, o, nullptr, &error), k.what);
        QVERIFY2(error.contains(k.message), qPrintable(QLatin1String(k.what) + u": "_s + error));
    }
    // A non-finite weight, caught by the model file's checks.
    m->params().values()[3] = std::numeric_limits<float>::quiet_NaN();
    QVERIFY(!importWeightsFromBytes(bareFile(*m), o, nullptr, &error));
    QVERIFY2(error.contains(u"NaN"_s), qPrintable(error));

    // From a path: the file name leads the message; a missing file is named.
    QTemporaryDir dir;
    QVERIFY(!importWeights(dir.filePath(u"none.safetensors"_s), o, nullptr, &error));
    QVERIFY2(error.contains(u"none.safetensors"_s), qPrintable(error));
}

void TestInterop::modelFileImportsAsItIs()
{
    const ModelConfig c = config(NormPlacement::Post);
    auto m = randomModel(c);
    const Vocab src = [] {
        Vocab v;
        Vocab::fromTokens(Vocab().tokens() + QStringList{u"猫"_s, u"狗"_s, u"鱼"_s, u"鸟"_s,
                                                         u"马"_s},
                          &v, nullptr);
        return v;
    }();
    const Vocab tgt = [] {
        Vocab v;
        Vocab::fromTokens(placeholderVocab(11), &v, nullptr);
        return v;
    }();
    QString error;
    const std::optional<QByteArray> bytes = serializeModel(*m, src, tgt, TokenizerKind::CjkChar,
                                                           TokenizerKind::Word, &error);
    QVERIFY2(bytes, qPrintable(error));
    const std::optional<WeightFileInfo> info = inspect(*bytes, &error);
    QVERIFY2(info, qPrintable(error));
    QVERIFY(info->hasConfig && info->hasVocab && info->hasTokenizer);
    QVERIFY(info->config == c);
    ImportOptions o;
    o.config = info->config;
    QStringList notes;
    const std::optional<ModelBundle> b = importWeightsFromBytes(*bytes, o, &notes, &error);
    QVERIFY2(b, qPrintable(error));
    QVERIFY(notes.isEmpty());
    QVERIFY(b->config == c);
    QCOMPARE(b->srcVocab.tokens(), src.tokens());
    QCOMPARE(b->tgtVocab.tokens(), tgt.tokens());
    QCOMPARE(b->srcTok, TokenizerKind::CjkChar);
    QVERIFY(sameWeights(*b->model, *m));
    // Saved again, the same bytes.
    const std::optional<QByteArray> again = serializeModel(*b->model, b->srcVocab, b->tgtVocab,
                                                           b->srcTok, b->tgtTok, &error);
    QVERIFY(again);
    QCOMPARE(*again, *bytes);
}

void TestInterop::exportEqualsTheModelFile()
{
    QTemporaryDir dir;
    auto m = randomModel(config(NormPlacement::Pre));
    Vocab src, tgt;
    Vocab::fromTokens(placeholderVocab(9), &src, nullptr);
    Vocab::fromTokens(placeholderVocab(11), &tgt, nullptr);
    const QString model = dir.filePath(u"model.safetensors"_s);
    const QString out = dir.filePath(u"weights.safetensors"_s);
    QString error;
    // With its provenance (the step and run in the metadata), which the exported file keeps.
    QVERIFY2(saveModel(model, *m, src, tgt, TokenizerKind::Word, TokenizerKind::CjkChar, &error,
                       ModelProvenance{1234, u"copy"_s}),
             qPrintable(error));
    QVERIFY2(exportWeights(model, out, &error), qPrintable(error));
    const std::optional<ModelBundle> exported = loadModel(out, &error);
    QVERIFY2(exported, qPrintable(error));
    QCOMPARE(exported->provenance.step, 1234L);
    QCOMPARE(exported->provenance.run, u"copy"_s);
    QFile a(model), b(out);
    QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
    QCOMPARE(b.readAll(), a.readAll());

    QVERIFY(!exportWeights(dir.filePath(u"missing.safetensors"_s), out, &error));
    QVERIFY2(error.contains(u"missing.safetensors"_s), qPrintable(error));
    QVERIFY(!exportWeights(model, dir.filePath(u"no/such/dir/w.safetensors"_s), &error));
    QVERIFY2(error.contains(u"w.safetensors"_s), qPrintable(error));
}

void TestInterop::vocabFiles()
{
    QTemporaryDir dir;
    auto write = [&](const char* name, const QByteArray& bytes) {
        QFile f(dir.filePath(QLatin1String(name)));
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
            qFatal("cannot write %s", name);
        return f.fileName();
    };
    QString error;
    std::optional<QStringList> v = readVocabFile(
        write("crlf.txt", "<pad>\r\n<s>\r\n</s>\r\n<unk>\r\n\xe7\x8c\xab\r\na b\r\n"), &error);
    QVERIFY2(v, qPrintable(error));
    QCOMPARE(*v, Vocab().tokens() + QStringList({u"猫"_s, u"a b"_s}));
    v = readVocabFile(write("nofinal.txt", "<pad>\n<s>\n</s>\n<unk>\nx"), &error);
    QVERIFY2(v, qPrintable(error));
    QCOMPARE(v->size(), 5);

    QVERIFY(!readVocabFile(write("empty-line.txt", "<pad>\n<s>\n</s>\n<unk>\n\nx\n"), &error));
    QVERIFY2(error.contains(u"line 5 is empty"_s), qPrintable(error));
    QVERIFY(!readVocabFile(write("nospecials.txt", "a\nb\n"), &error));
    QVERIFY2(error.contains(u"must start with <pad>"_s), qPrintable(error));
    QVERIFY(!readVocabFile(write("twice.txt", "<pad>\n<s>\n</s>\n<unk>\nx\nx\n"), &error));
    QVERIFY2(error.contains(u"'x' twice"_s), qPrintable(error));
    QVERIFY(!readVocabFile(write("latin1.txt", "<pad>\n<s>\n</s>\n<unk>\ncaf\xe9\n"), &error));
    QVERIFY2(error.contains(u"UTF-8"_s), qPrintable(error));
    QVERIFY(!readVocabFile(dir.filePath(u"absent.txt"_s), &error));
    QVERIFY2(error.contains(u"absent.txt"_s), qPrintable(error));
}

void TestInterop::tiedModels_data()
{
    QTest::addColumn<Tie>("tie");
    QTest::newRow("tie=tgt") << Tie::Tgt;
    QTest::newRow("tie=all") << Tie::All;
}

// A tied model (core/SPEC.md §2.6, §6.1): the shared matrix stored once under its first use's
// name, "tie" in the config; a bare file shows the tying by the tensors it lacks.
void TestInterop::tiedModels()
{
    QFETCH(Tie, tie);
    ModelConfig c = config(NormPlacement::Pre);
    c.tie = tie;
    if (tie == Tie::All)
        c.src_vocab = c.tgt_vocab;
    auto m = randomModel(c);
    QCOMPARE(m->params().find("generator.weight"), nullptr);
    QCOMPARE(m->params().find("tgt_embed.weight") != nullptr, tie == Tie::Tgt);
    QString error;

    // As plain PyTorch writes it (stored_state_dict(), no metadata): the shapes show the tying.
    const QByteArray bare = bareFile(*m);
    const std::optional<WeightFileInfo> shown = inspect(bare, &error);
    QVERIFY2(shown, qPrintable(error));
    QCOMPARE(shown->config.tie, tie);
    QCOMPARE(shown->config.src_vocab, c.src_vocab);
    QCOMPARE(shown->config.tgt_vocab, c.tgt_vocab);
    ImportOptions o;
    o.config = shown->config;
    o.config.heads = 2;
    o.placeholderVocab = true;
    std::optional<ModelBundle> b = importWeightsFromBytes(bare, o, nullptr, &error);
    QVERIFY2(b, qPrintable(error));
    QCOMPARE(b->config.tie, tie);
    QVERIFY(sameWeights(*b->model, *m));

    // The model file: "tie" in its config, and it loads and saves again as the same bytes.
    Vocab src, tgt;
    Vocab::fromTokens(placeholderVocab(c.src_vocab), &src, nullptr);
    Vocab::fromTokens(placeholderVocab(c.tgt_vocab), &tgt, nullptr);
    const std::optional<QByteArray> bytes = serializeModel(*m, src, tgt, TokenizerKind::Word,
                                                           TokenizerKind::Word, &error);
    QVERIFY2(bytes, qPrintable(error));
    const std::optional<SafetensorsFile> file = SafetensorsFile::parse(*bytes, &error);
    QVERIFY2(file, qPrintable(error));
    QCOMPARE(file->tensors().size(), m->params().table().size());
    const QJsonObject written = QJsonDocument::fromJson(file->metadata().value(u"config"_s).toUtf8())
                                    .object();
    QCOMPARE(written.value(u"tie"_s).toString(), tieName(tie));
    b = loadModelFromBytes(*bytes, &error);
    QVERIFY2(b, qPrintable(error));
    QVERIFY(b->config == c);
    QVERIFY(sameWeights(*b->model, *m));
    const std::optional<QByteArray> again = serializeModel(*b->model, b->srcVocab, b->tgtVocab,
                                                           b->srcTok, b->tgtTok, &error);
    QVERIFY(again);
    QCOMPARE(*again, *bytes);

    // The untied generator.weight in a tied model's file is not a parameter of it.
    const std::string extraName = "generator.weight";
    std::vector<float> extra(std::size_t(c.tgt_vocab) * std::size_t(c.d_model), 0.5f);
    std::vector<SafetensorsEntry> entries;
    for (const ParamInfo& p : m->params().table()) {
        SafetensorsEntry e{p.name, {}, m->params().values() + p.offset};
        for (int s : p.shape)
            e.shape.push_back(std::uint64_t(s));
        entries.push_back(std::move(e));
    }
    entries.push_back({extraName, {std::uint64_t(c.tgt_vocab), std::uint64_t(c.d_model)},
                       extra.data()});
    SafetensorsMetadata meta = file->metadata();
    meta.remove(QLatin1String(kModelChecksumKey));
    const std::optional<QByteArray> withGenerator = serializeSafetensors(entries, meta, &error);
    QVERIFY2(withGenerator, qPrintable(error));
    QVERIFY(!loadModelFromBytes(*withGenerator, &error));
    QVERIFY2(error.contains(u"unexpected tensor 'generator.weight'"_s), qPrintable(error));

    if (tie == Tie::All) {
        // tie=all with two vocabularies of the same size: one row per id cannot serve both.
        Vocab other;
        QStringList tokens = placeholderVocab(c.tgt_vocab);
        tokens.last() = u"other"_s;
        Vocab::fromTokens(tokens, &other, nullptr);
        const std::optional<QByteArray> mixed = serializeModel(*m, src, other, TokenizerKind::Word,
                                                               TokenizerKind::Word, &error);
        QVERIFY2(mixed, qPrintable(error));
        QVERIFY(!loadModelFromBytes(*mixed, &error));
        QVERIFY2(error.contains(u"shared vocabulary"_s), qPrintable(error));
    }
}

AS_TEST_GUILESS_MAIN(TestInterop)
#include "test_interop.moc"
