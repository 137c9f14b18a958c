// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/interop.h"

#include "io/file_open.h"
#include "io/bytes.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringDecoder>

using namespace Qt::StringLiterals;

namespace as {

namespace {

// Larger dimensions than this are a corrupt or foreign file, not a model (as ModelConfig's).
constexpr std::uint64_t kMaxDim = 100'000'000;

// A matrix every weight file (core/SPEC.md §8) has; its shape as [rows, cols] of sensible size.
bool requiredMatrix(const SafetensorsFile& file, const char* name, std::uint64_t* rows,
                    std::uint64_t* cols, QString* error)
{
    const SafetensorsTensor* t = file.find(name);
    if (!t) {
        *error = QCoreApplication::translate("as::Interop", "no tensor '%1': not a weight file of this model (the "
                                "parameter names are those of core/SPEC.md §6.1 and "
                                "torch_ref.py)")
                     .arg(QLatin1String(name));
        return false;
    }
    if (t->shape.size() != 2 || t->shape[0] == 0 || t->shape[1] == 0 || t->shape[0] > kMaxDim
        || t->shape[1] > kMaxDim) {
        *error = QCoreApplication::translate("as::Interop", "tensor '%1' has shape %2; it must be a matrix [rows, columns] "
                                "of at most %3 each")
                     .arg(QLatin1String(name), shapeText(t->shape))
                     .arg(kMaxDim);
        return false;
    }
    *rows = t->shape[0];
    *cols = t->shape[1];
    return true;
}

int countLayers(const SafetensorsFile& file, const std::string& stack)
{
    int n = 0;
    while (file.find(stack + ".layers." + std::to_string(n) + ".self_attn.q.weight"))
        ++n;
    return n;
}

// The same tensors and data with a new "__metadata__": the header is rewritten, the data
// region is copied as it is (its offsets do not change).
QByteArray withMetadata(const SafetensorsFile& file, const QByteArray& bytes,
                        const SafetensorsMetadata& metadata)
{
    QJsonObject header;
    for (const SafetensorsTensor& t : file.tensors()) {
        QJsonArray shape;
        for (std::uint64_t d : t.shape)
            shape.append(qint64(d));
        header.insert(QString::fromStdString(t.name),
                      QJsonObject{{"dtype", "F32"},
                                  {"shape", shape},
                                  {"data_offsets", QJsonArray{qint64(t.begin), qint64(t.end)}}});
    }
    QJsonObject meta;
    for (auto it = metadata.cbegin(); it != metadata.cend(); ++it)
        meta.insert(it.key(), it.value());
    header.insert(u"__metadata__"_s, meta);
    QByteArray json = QJsonDocument(header).toJson(QJsonDocument::Compact);
    json.append(QByteArray((8 - json.size() % 8) % 8, ' '));
    QByteArray out;
    putU64(out, quint64(json.size()));
    out += json;
    out += QByteArrayView(bytes).sliced(qsizetype(8 + file.headerSize()));
    return out;
}

// One side's vocabulary as the metadata's JSON text: the caller's, the file's, placeholders,
// or std::nullopt and *error.
std::optional<QString> vocabText(const std::optional<QStringList>& given,
                                 const SafetensorsFile& file, const char* field,
                                 const char* embedding, const char* side, bool placeholders,
                                 QStringList* notes, QString* error)
{
    std::uint64_t rows = 0, cols = 0;
    if (!requiredMatrix(file, embedding, &rows, &cols, error))
        return std::nullopt;
    if (given) {
        Vocab check;
        QString why;
        if (!Vocab::fromTokens(*given, &check, &why)) {
            *error = QCoreApplication::translate("as::Interop", "the %1 vocabulary given: %2").arg(QCoreApplication::translate("as::Interop", side), why);
            return std::nullopt;
        }
        if (std::uint64_t(given->size()) != rows) {
            *error = QCoreApplication::translate("as::Interop", "the %1 vocabulary given lists %2 tokens but %3 has %4 rows "
                                    "(one per token id)")
                         .arg(QCoreApplication::translate("as::Interop", side))
                         .arg(given->size())
                         .arg(QLatin1String(embedding))
                         .arg(rows);
            return std::nullopt;
        }
        return compactJson(QJsonArray::fromStringList(*given));
    }
    const QString key = QLatin1String(field);
    if (file.metadata().contains(key))
        return file.metadata().value(key);
    if (!placeholders) {
        *error = QCoreApplication::translate("as::Interop", "the file has no %1 vocabulary (__metadata__ '%2'): give one "
                                "(one token per line, in id order, starting <pad> <s> </s> "
                                "<unk>) or ask for placeholder tokens")
                     .arg(QCoreApplication::translate("as::Interop", side), key);
        return std::nullopt;
    }
    if (notes)
        *notes << QCoreApplication::translate("as::Interop", "%1 vocabulary: %2 placeholder tokens (<pad> <s> </s> <unk> "
                                 "tok4 … tok%3): the file has none")
                      .arg(QCoreApplication::translate("as::Interop", side))
                      .arg(rows)
                      .arg(rows - 1);
    return compactJson(QJsonArray::fromStringList(placeholderVocab(int(rows))));
}

}  // namespace

bool exportWeights(const QString& modelPath, const QString& outPath, QString* error)
{
    const std::optional<ModelBundle> b = loadModel(modelPath, error);
    if (!b)
        return false;
    return saveModel(outPath, *b->model, b->srcVocab, b->tgtVocab, b->srcTok, b->tgtTok, error,
                     b->provenance);
}

std::optional<WeightFileInfo> inspectWeights(const SafetensorsFile& file, QString* error)
{
    QString why;
    auto fail = [&](const QString& msg) -> std::optional<WeightFileInfo> {
        if (error)
            *error = msg;
        return std::nullopt;
    };
    if (file.find("pe"))
        return fail(QCoreApplication::translate("as::Interop", "tensor 'pe' is torch_ref.py's registered positional-encoding buffer, not "
                    "a parameter (this program computes the sinusoid table itself): leave it "
                    "out when saving, e.g. {k: v for k, v in model.state_dict().items() if k != "
                    "\"pe\"}"));
    const SafetensorsMetadata& meta = file.metadata();
    if (meta.contains(u"format"_s) && meta.value(u"format"_s) != QLatin1String(kModelFormat)
        && meta.value(u"format"_s) != QLatin1String(kDecoderOnlyModelFormat))
        return fail(QCoreApplication::translate("as::Interop", "format is '%1'; a weight file has '%2' or no format (a "
                                   "training checkpoint? export its weights first)")
                        .arg(meta.value(u"format"_s), QLatin1String(kModelFormat) + u"', '"_s
                                                          + QLatin1String(kDecoderOnlyModelFormat)));

    // What the shapes show. The number of heads is not among it.
    WeightFileInfo info;
    info.tensors = qsizetype(file.tensors().size());
    ModelConfig& c = info.config;
    c.heads = 0;
    std::uint64_t vs = 0, vt = 0, d = 0, dt = 0, ff = 0, dff = 0;
    // Weight tying shows as absent tensors (core/SPEC.md §6.1): no generator.weight (tgt), and
    // no tgt_embed.weight either (all: the source embedding is the target's).
    c.tie = file.find("generator.weight") ? Tie::None
            : file.find("tgt_embed.weight") ? Tie::Tgt
                                            : Tie::All;
    // A decoder-only model (core/SPEC.md §2.10) shows as no source embedding and no encoder.
    if (!file.find("src_embed.weight") && !file.find("encoder.layers.0.self_attn.q.weight")
        && file.find("tgt_embed.weight")) {
        c.arch = Arch::DecoderOnly;
        if (!requiredMatrix(file, "tgt_embed.weight", &vt, &d, &why)
            || (file.find("decoder.layers.0.ffn.w1.weight")  // attention-only: none (§2.12)
                && !requiredMatrix(file, "decoder.layers.0.ffn.w1.weight", &ff, &dff, &why)))
            return fail(why);
        vs = vt;
        dt = d;
    } else if (!requiredMatrix(file, "src_embed.weight", &vs, &d, &why)
               || !requiredMatrix(file, c.storedName("tgt_embed.weight").c_str(), &vt, &dt, &why)
               || (file.find("encoder.layers.0.ffn.w1.weight")
                   && !requiredMatrix(file, "encoder.layers.0.ffn.w1.weight", &ff, &dff, &why))) {
        return fail(why);
    }
    if (dt != d)
        return fail(QCoreApplication::translate("as::Interop", "src_embed.weight is %1 wide but tgt_embed.weight is %2: both "
                                   "embeddings have d_model columns")
                        .arg(d)
                        .arg(dt));
    c.src_vocab = int(vs);
    c.tgt_vocab = int(vt);
    c.d_model = int(d);
    c.d_ff = int(ff);
    c.encoder_layers = countLayers(file, "encoder");
    c.decoder_layers = countLayers(file, "decoder");
    c.norm = file.find(c.decoderOnly() ? "decoder.norm.weight" : "encoder.norm.weight")
                 ? NormPlacement::Pre
                 : NormPlacement::Post;
    // A generator without its bias (§2.6, GPT-2's head) shows as no generator.bias.
    c.generator_bias = file.find("generator.bias") != nullptr;
    // Learned positions (§2.11) show as their table, max_len rows.
    if (const auto* pos = file.find("tgt_pos.weight"); pos && pos->shape.size() == 2) {
        c.position = Position::Learned;
        c.max_len = int(pos->shape[0]);
    }

    // The file's own configuration, over the shapes.
    if (meta.contains(u"config"_s)) {
        QJsonParseError e;
        const QJsonDocument doc = QJsonDocument::fromJson(meta.value(u"config"_s).toUtf8(), &e);
        if (e.error != QJsonParseError::NoError)
            return fail(QCoreApplication::translate("as::Interop", "__metadata__ 'config' is not valid JSON: %1 at character "
                                       "%2")
                            .arg(e.errorString())
                            .arg(e.offset));
        if (!doc.isObject())
            return fail(QCoreApplication::translate("as::Interop", "__metadata__ 'config' must be a JSON object"));
        const QJsonObject json = doc.object();
        if (json.contains(u"layers"_s)
            && !(json.contains(u"encoder_layers"_s) && json.contains(u"decoder_layers"_s)))
            return fail(QCoreApplication::translate("as::Interop", "config has 'layers' (torch_ref.py's name); weight files name "
                        "'encoder_layers' and 'decoder_layers' (core/SPEC.md §7.1; "
                        "scripts/torch_parity.py writes them)"));
        const std::optional<ModelConfig> parsed = ModelConfig::fromJson(json, &why, c);
        if (!parsed)
            return fail(why);
        for (auto [key, value, rows] : {std::tuple{"src_vocab", parsed->src_vocab, vs},
                                        std::tuple{"tgt_vocab", parsed->tgt_vocab, vt}})
            if (std::uint64_t(value) != rows)
                return fail(QCoreApplication::translate("as::Interop", "config says %1 is %2 but the embedding has %3 rows")
                                .arg(QLatin1String(key))
                                .arg(value)
                                .arg(rows));
        c = *parsed;
        info.hasConfig = true;
    }
    info.hasVocab = meta.contains(u"src_vocab"_s) && meta.contains(u"tgt_vocab"_s);
    info.hasTokenizer = meta.contains(u"tokenizer"_s);
    return info;
}

std::optional<WeightFileInfo> inspectWeights(const QString& path, QString* error)
{
    const std::optional<SafetensorsFile> file = SafetensorsFile::read(path, error);
    if (!file)
        return std::nullopt;
    QString why;
    std::optional<WeightFileInfo> info = inspectWeights(*file, &why);
    if (!info && error)
        *error = QFileInfo(path).fileName() + u": "_s + why;
    return info;
}

std::optional<ModelBundle> importWeightsFromBytes(const QByteArray& bytes,
                                                  const ImportOptions& o, QStringList* notes,
                                                  QString* error)
{
    auto fail = [&](const QString& msg) -> std::optional<ModelBundle> {
        if (error)
            *error = msg;
        return std::nullopt;
    };
    QString why;
    const std::optional<SafetensorsFile> file = SafetensorsFile::parse(bytes, &why);
    if (!file)
        return fail(why);
    if (!inspectWeights(*file, &why))
        return fail(why);
    if (o.config.heads <= 0)
        return fail(QCoreApplication::translate("as::Interop", "the number of attention heads is not in the file (the weights do not "
                    "show it): it must be given"));

    // Decoder-only: one vocabulary, the target embedding's rows, stored for both sides.
    const bool only = o.config.decoderOnly();
    const std::optional<QString> src = vocabText(only ? o.tgtVocab : o.srcVocab, *file,
                                                 only ? "tgt_vocab" : "src_vocab",
                                                 only ? "tgt_embed.weight" : "src_embed.weight",
                                                 QT_TRANSLATE_NOOP("as::Interop", "source"),
                                                 o.placeholderVocab, only ? nullptr : notes, &why);
    if (!src)
        return fail(why);
    // tie=all: the target's rows are the source embedding's (core/SPEC.md §6.1).
    const std::optional<QString> tgt = vocabText(o.tgtVocab, *file, "tgt_vocab",
                                                 o.config.storedName("tgt_embed.weight").c_str(),
                                                 QT_TRANSLATE_NOOP("as::Interop", "target"), o.placeholderVocab, notes, &why);
    if (!tgt)
        return fail(why);

    const SafetensorsMetadata& meta = file->metadata();
    QString tokenizer = meta.value(u"tokenizer"_s);
    if (o.srcTok || o.tgtTok || tokenizer.isEmpty()) {
        // Each side: the caller's, else the file's, else "word".
        const QJsonObject fileTok = QJsonDocument::fromJson(tokenizer.toUtf8()).object();
        QJsonObject tok;
        for (auto [key, given] : {std::pair{"src", o.srcTok}, std::pair{"tgt", o.tgtTok}}) {
            const QString k = QLatin1String(key);
            if (given)
                tok.insert(k, tokenizerName(*given));
            else if (fileTok.contains(k))
                tok.insert(k, fileTok.value(k));
            else
                tok.insert(k, tokenizerName(TokenizerKind::Word));
        }
        if (tokenizer.isEmpty() && notes && !(o.srcTok && o.tgtTok))
            *notes << QCoreApplication::translate("as::Interop", "tokenizers: the file names none; using %1 → %2")
                          .arg(tok.value(u"src"_s).toString(), tok.value(u"tgt"_s).toString());
        tokenizer = compactJson(tok);
    }

    SafetensorsMetadata complete;
    complete.insert(u"format"_s, QLatin1String(modelFormat(o.config)));
    complete.insert(u"config"_s, compactJson(o.config.toJson()));
    complete.insert(u"src_vocab"_s, *src);
    complete.insert(u"tgt_vocab"_s, *tgt);
    complete.insert(u"tokenizer"_s, tokenizer);
    // Provenance and the weights' checksum (the data is copied unchanged), when the file has
    // them.
    for (const QString& key : {u"step"_s, u"run"_s, QString::fromLatin1(kModelChecksumKey)})
        if (meta.contains(key))
            complete.insert(key, meta.value(key));
    // A subword side's SentencePiece model, when that side stays a subword one.
    const QJsonObject finalTok = QJsonDocument::fromJson(tokenizer.toUtf8()).object();
    for (auto [side, key] : {std::pair{"src", kSrcSentencePieceKey}, std::pair{"tgt", kTgtSentencePieceKey}}) {
        const std::optional<Tokenizer> t = tokenizerFromName(finalTok.value(QLatin1String(side)).toString());
        if (t && t->isSubword() && meta.contains(QLatin1String(key)))
            complete.insert(QLatin1String(key), meta.value(QLatin1String(key)));
    }
    std::optional<ModelBundle> b = loadModelFromBytes(withMetadata(*file, bytes, complete), error);
    if (b && notes) {
        *notes << b->notes;
        b->notes.clear();
    }
    return b;
}

std::optional<ModelBundle> importWeights(const QString& path, const ImportOptions& options,
                                         QStringList* notes, QString* error)
{
    const QFileInfo info(path);
    auto fail = [&](const QString& msg) -> std::optional<ModelBundle> {
        if (error)
            *error = msg;
        return std::nullopt;
    };
    // Read as the model loader reads: the header checked against the file's size first.
    const std::optional<SafetensorsFile> file = SafetensorsFile::read(path, error);
    if (!file)
        return std::nullopt;
    const QByteArray& bytes = file->bytes();
    QString why;
    std::optional<ModelBundle> b = importWeightsFromBytes(bytes, options, notes, &why);
    if (!b)
        return fail(info.fileName() + u": "_s + why);
    return b;
}

QStringList placeholderVocab(int size)
{
    QStringList tokens = Vocab().tokens();
    for (int i = int(tokens.size()); i < size; ++i)
        tokens << QStringLiteral("tok%1").arg(i);
    return tokens;
}

std::optional<QStringList> readVocabFile(const QString& path, QString* error)
{
    auto fail = [&](const QString& msg) -> std::optional<QStringList> {
        if (error)
            *error = QFileInfo(path).fileName() + u": "_s + msg;
        return std::nullopt;
    };
    QFile f(path);
    if (QString why; !openForReading(f, &why))
        return fail(QCoreApplication::translate("as::Interop", "cannot open: %1").arg(why));
    const QByteArray bytes = f.readAll();
    if (f.error() != QFileDevice::NoError)
        return fail(QCoreApplication::translate("as::Interop", "cannot read: %1").arg(f.errorString()));
    QStringDecoder utf8(QStringDecoder::Utf8);
    const QString text = utf8(bytes);
    if (utf8.hasError())
        return fail(QCoreApplication::translate("as::Interop", "not valid UTF-8"));
    QStringList lines = text.split(u'\n');
    if (!lines.isEmpty() && lines.back().isEmpty())
        lines.removeLast();  // the final newline
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (lines[i].endsWith(u'\r'))
            lines[i].chop(1);
        if (lines[i].isEmpty())
            return fail(QCoreApplication::translate("as::Interop", "line %1 is empty (one token per line)").arg(i + 1));
    }
    Vocab check;
    QString why;
    if (!Vocab::fromTokens(lines, &check, &why))
        return fail(why);
    return lines;
}

}  // namespace as
