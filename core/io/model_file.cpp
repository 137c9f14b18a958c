// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/model_file.h"

#include "io/hub_model.h"

#include "io/file_open.h"
#include "io/bytes.h"
#include "io/checkpoint.h"
#include "text/byte_bpe.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <exception>
#include <set>

using namespace Qt::StringLiterals;

namespace as {

namespace {

// Where value i of a tensor sits, for messages: "(row r, column c)" or "".
QString position(const std::vector<std::uint64_t>& shape, std::uint64_t i)
{
    if (shape.size() != 2 || shape[1] == 0)
        return {};
    return QCoreApplication::translate("as::ModelFile", " (row %1, column %2)").arg(i / shape[1]).arg(i % shape[1]);
}

// The first non-finite value of a tensor, described, or "".
QString nonFinite(const float* v, std::uint64_t n, const std::vector<std::uint64_t>& shape)
{
    for (std::uint64_t i = 0; i < n; ++i)
        if (!std::isfinite(v[i]))
            return QCoreApplication::translate("as::ModelFile", "value %1%2 is %3")
                .arg(i)
                .arg(position(shape, i))
                .arg(std::isnan(v[i]) ? u"NaN"_s : v[i] > 0 ? u"+Inf"_s : u"-Inf"_s);
    return {};
}

struct Expected {
    std::string name;
    std::vector<std::uint64_t> shape;
};

// The parameter names and shapes of core/SPEC.md §6.1 for a configuration, in the model's
// order.
std::vector<Expected> expectedParameters(const ModelConfig& c)
{
    const auto d = std::uint64_t(c.d_model), ff = std::uint64_t(c.d_ff);
    std::vector<Expected> out;
    auto linear = [&](const std::string& p, std::uint64_t in, std::uint64_t outDim) {
        out.push_back({p + ".weight", {outDim, in}});
        out.push_back({p + ".bias", {outDim}});
    };
    auto attention = [&](const std::string& p) {
        for (const char* w : {".q", ".k", ".v"})
            out.push_back({p + w + ".weight", {d, d}});
        for (const char* w : {".q", ".k", ".v"})
            out.push_back({p + w + ".bias", {d}});
        linear(p + ".o", d, d);
    };
    auto norm = [&](const std::string& p) {
        out.push_back({p + ".weight", {d}});
        out.push_back({p + ".bias", {d}});
    };
    const bool pre = c.norm == NormPlacement::Pre;
    const bool only = c.decoderOnly();  // core/SPEC.md §2.10: no source embedding, no encoder
    const bool learned = c.position == Position::Learned;  // §2.11: a table after each embedding
    if (!only) {
        out.push_back({"src_embed.weight", {std::uint64_t(c.src_vocab), d}});
        if (learned)
            out.push_back({"src_pos.weight", {std::uint64_t(c.max_len), d}});
    }
    out.push_back({"tgt_embed.weight", {std::uint64_t(c.tgt_vocab), d}});
    if (learned)
        out.push_back({"tgt_pos.weight", {std::uint64_t(c.max_len), d}});
    for (int i = 0; i < c.encoder_layers; ++i) {
        const std::string p = "encoder.layers." + std::to_string(i);
        attention(p + ".self_attn");
        if (ff > 0) {  // attention-only (§2.12): no feed-forward and no norm2
            linear(p + ".ffn.w1", d, ff);
            linear(p + ".ffn.w2", ff, d);
        }
        norm(p + ".norm1");
        if (ff > 0)
            norm(p + ".norm2");
    }
    if (pre && !only)
        norm("encoder.norm");
    for (int i = 0; i < c.decoder_layers; ++i) {
        const std::string p = "decoder.layers." + std::to_string(i);
        attention(p + ".self_attn");
        if (!only)
            attention(p + ".cross_attn");
        if (ff > 0) {  // attention-only (§2.12): no feed-forward and no norm after it
            linear(p + ".ffn.w1", d, ff);
            linear(p + ".ffn.w2", ff, d);
        }
        norm(p + ".norm1");
        if (!only || ff > 0)
            norm(p + ".norm2");
        if (!only && ff > 0)
            norm(p + ".norm3");
    }
    if (pre)
        norm("decoder.norm");
    linear("generator", d, std::uint64_t(c.tgt_vocab));
    if (!c.generator_bias)  // GPT-2's head has none (§2.6)
        std::erase_if(out, [](const Expected& e) { return e.name == "generator.bias"; });
    // A tied model stores the shared matrix once, under its first use's name.
    std::erase_if(out, [&](const Expected& e) { return c.storedName(e.name) != e.name; });
    return out;
}

SafetensorsMetadata modelMetadata(const ModelConfig& config, const Vocab& src, const Vocab& tgt,
                                  Tokenizer srcTok, Tokenizer tgtTok,
                                  const std::vector<SafetensorsEntry>& entries,
                                  const ModelProvenance& provenance = {})
{
    SafetensorsMetadata meta;
    meta.insert(QLatin1String(kModelChecksumKey), crc32cHex(safetensorsDataCrc32c(entries)));
    meta.insert(u"format"_s, QString::fromLatin1(modelFormat(config)));
    meta.insert(u"config"_s, compactJson(config.toJson()));
    meta.insert(u"src_vocab"_s, compactJson(QJsonArray::fromStringList(src.tokens())));
    meta.insert(u"tgt_vocab"_s, compactJson(QJsonArray::fromStringList(tgt.tokens())));
    meta.insert(u"tokenizer"_s, compactJson(QJsonObject{{"src", tokenizerName(srcTok)},
                                                        {"tgt", tokenizerName(tgtTok)}}));
    // A subword or Marian side's SentencePiece model, base64 (core/SPEC.md §8.2).
    for (auto [key, tok] : {std::pair{kSrcSentencePieceKey, &srcTok}, std::pair{kTgtSentencePieceKey, &tgtTok}})
        if (tok->isSubword() || tok->isMarian())
            meta.insert(QLatin1String(key), QString::fromLatin1(tok->modelProto().toBase64()));
    // A gpt2-bpe side's merges and <|endoftext|> (core/SPEC.md §8.2, §8.6); its pieces are the
    // vocabulary's, in the Hub's order once <|endoftext|> is put back.
    for (auto [key, tok] : {std::pair{kSrcByteBpeKey, &srcTok}, std::pair{kTgtByteBpeKey, &tgtTok}})
        if (const ByteLevelBpe* bpe = tok->byteLevel())
            meta.insert(QLatin1String(key),
                        compactJson(QJsonObject{{"end_of_text", bpe->endOfText()},
                                                {"end_of_text_piece", bpe->piece(bpe->endOfText())},
                                                {"merges", QString::fromUtf8(bpe->mergesText())}}));
    if (provenance.step >= 0)
        meta.insert(u"step"_s, QString::number(provenance.step));
    if (!provenance.run.isEmpty())
        meta.insert(u"run"_s, provenance.run);
    return meta;
}

// The tensors of a model, or std::nullopt and *error when the model cannot be saved.
std::optional<std::vector<SafetensorsEntry>> modelEntries(const Transformer<float>& model,
                                                          const Vocab& src, const Vocab& tgt,
                                                          QString* error)
{
    auto fail = [&](const QString& msg) -> std::optional<std::vector<SafetensorsEntry>> {
        if (error)
            *error = msg;
        return std::nullopt;
    };
    const ModelConfig& c = model.config();
    if (src.size() != c.src_vocab)
        return fail(QCoreApplication::translate("as::ModelFile", "the source vocabulary has %n tokens but the model's "
                                   "src_embed.weight has %1 rows", nullptr, src.size())
                        .arg(c.src_vocab));
    if (tgt.size() != c.tgt_vocab)
        return fail(QCoreApplication::translate("as::ModelFile", "the target vocabulary has %n tokens but the model's "
                                   "tgt_embed.weight has %1 rows", nullptr, tgt.size())
                        .arg(c.tgt_vocab));
    std::vector<SafetensorsEntry> entries;
    const ParamStore<float>& ps = model.params();
    for (const ParamInfo& p : ps.table()) {
        SafetensorsEntry e{p.name, {}, ps.values() + p.offset};
        for (int s : p.shape)
            e.shape.push_back(std::uint64_t(s));
        if (const QString bad = nonFinite(e.data, p.size, e.shape); !bad.isEmpty())
            return fail(QCoreApplication::translate("as::ModelFile", "tensor '%1': %2; a model whose weights are not finite "
                                       "(training diverged?) is not saved")
                            .arg(QString::fromStdString(p.name), bad));
        entries.push_back(std::move(e));
    }
    return entries;
}

// Why these tokenisers cannot be saved with these vocabularies (a subword side needs its model,
// and its vocabulary is that model's pieces); empty when they can.
QString tokenizerProblem(const Vocab& src, const Vocab& tgt, const Tokenizer& srcTok,
                         const Tokenizer& tgtTok)
{
    for (auto [side, tok, vocab] : {std::tuple{QT_TRANSLATE_NOOP("as::ModelFile", "source"), &srcTok, &src}, std::tuple{QT_TRANSLATE_NOOP("as::ModelFile", "target"), &tgtTok, &tgt}}) {
        if (!tok->isSubword() && !tok->isMarian())
            continue;
        if (!tok->ready())
            return QCoreApplication::translate("as::ModelFile", "the %1 tokenizer %2 has no SentencePiece model (not trained)")
                .arg(QCoreApplication::translate("as::ModelFile", side), tokenizerName(*tok));
        // A Marian side's pieces are looked up in the model's own vocabulary (§10.9).
        if (tok->isSubword() && tok->pieces() != vocab->tokens())
            return QCoreApplication::translate("as::ModelFile", "the %1 vocabulary is not the pieces of its tokenizer %2")
                .arg(QCoreApplication::translate("as::ModelFile", side), tokenizerName(*tok));
    }
    return {};
}

std::optional<QJsonDocument> parseJsonText(const QString& text, const QString& field,
                                           QString* error)
{
    QJsonParseError e;
    QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8(), &e);
    if (e.error != QJsonParseError::NoError) {
        *error = QCoreApplication::translate("as::ModelFile", "__metadata__ '%1' is not valid JSON: %2 at character %3")
                     .arg(field, e.errorString())
                     .arg(e.offset);
        return std::nullopt;
    }
    return doc;
}

bool parseVocab(const SafetensorsMetadata& meta, const QString& field, Vocab* out,
                QString* error)
{
    const std::optional<QJsonDocument> doc = parseJsonText(meta.value(field), field, error);
    if (!doc)
        return false;
    if (!doc->isArray()) {
        *error = QCoreApplication::translate("as::ModelFile", "__metadata__ '%1' must be a JSON array of token strings")
                     .arg(field);
        return false;
    }
    const QJsonArray a = doc->array();
    QStringList tokens;
    tokens.reserve(a.size());
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (!a[i].isString()) {
            *error = QCoreApplication::translate("as::ModelFile", "__metadata__ '%1': entry %2 is not a string").arg(field).arg(i);
            return false;
        }
        tokens.push_back(a[i].toString());
    }
    QString why;
    if (!Vocab::fromTokens(tokens, out, &why)) {
        *error = QStringLiteral("__metadata__ '%1': %2").arg(field, why);
        return false;
    }
    return true;
}

}  // namespace

std::optional<QByteArray> serializeModel(const Transformer<float>& model, const Vocab& src,
                                         const Vocab& tgt, Tokenizer srcTok,
                                         Tokenizer tgtTok, QString* error)
{
    if (const QString why = tokenizerProblem(src, tgt, srcTok, tgtTok); !why.isEmpty()) {
        if (error)
            *error = why;
        return std::nullopt;
    }
    const auto entries = modelEntries(model, src, tgt, error);
    if (!entries)
        return std::nullopt;
    return serializeSafetensors(
        *entries, modelMetadata(model.config(), src, tgt, srcTok, tgtTok, *entries), error);
}

bool saveModel(const QString& path, const Transformer<float>& model, const Vocab& src,
               const Vocab& tgt, Tokenizer srcTok, Tokenizer tgtTok, QString* error,
               const ModelProvenance& provenance)
{
    if (const QString why = tokenizerProblem(src, tgt, srcTok, tgtTok); !why.isEmpty()) {
        if (error)
            *error = why;
        return false;
    }
    const auto entries = modelEntries(model, src, tgt, error);
    if (!entries)
        return false;
    return writeSafetensors(path, *entries,
                            modelMetadata(model.config(), src, tgt, srcTok, tgtTok, *entries,
                                          provenance),
                            error);
}

// A gpt2-bpe side's tokenizer from its __metadata__ key and the vocabulary (core/SPEC.md §8.2).
std::optional<Tokenizer> byteLevelFromMetadata(const SafetensorsMetadata& meta, const QString& key,
                                               const Vocab& vocab, QString* error);

std::optional<ModelBundle> loadModelFrom(const SafetensorsFile& file, QString* error)
{
    QString why;
    auto fail = [&](const QString& msg) -> std::optional<ModelBundle> {
        if (error)
            *error = msg;
        return std::nullopt;
    };
    if (!file.hasMetadata())
        return fail(QCoreApplication::translate("as::ModelFile", "no __metadata__: a model file needs its format, "
                                   "configuration, vocabularies and tokenizers (a bare weight "
                                   "file from other tools cannot be loaded as a model)"));
    const SafetensorsMetadata& meta = file.metadata();
    for (const QString& key : {u"format"_s, u"config"_s, u"src_vocab"_s, u"tgt_vocab"_s,
                               u"tokenizer"_s})
        if (!meta.contains(key))
            return fail(QCoreApplication::translate("as::ModelFile", "__metadata__ has no '%1': not an Attention Studio model "
                                       "file")
                            .arg(key));
    const QString format = meta.value(u"format"_s);
    if (format != QLatin1String(kModelFormat) && format != QLatin1String(kDecoderOnlyModelFormat))
        return fail(QCoreApplication::translate("as::ModelFile", "format is '%1'; this program reads '%2'")
                        .arg(format, QLatin1String(kModelFormat) + u"' or '"_s
                                         + QLatin1String(kDecoderOnlyModelFormat)));

    ModelBundle b;
    // Provenance (optional).
    if (meta.contains(u"step"_s)) {
        bool ok = false;
        b.provenance.step = meta.value(u"step"_s).toLong(&ok);
        if (!ok || b.provenance.step < 0)
            return fail(QCoreApplication::translate("as::ModelFile", "__metadata__ 'step' is '%1', not a whole number ≥ 0")
                            .arg(meta.value(u"step"_s).left(40)));
    }
    b.provenance.run = meta.value(u"run"_s).left(1000);
    // Configuration.
    const std::optional<QJsonDocument> configDoc = parseJsonText(meta.value(u"config"_s),
                                                                 u"config"_s, &why);
    if (!configDoc)
        return fail(why);
    if (!configDoc->isObject())
        return fail(QCoreApplication::translate("as::ModelFile", "__metadata__ 'config' must be a JSON object"));
    const QJsonObject configJson = configDoc->object();
    const std::optional<ModelConfig> config = ModelConfig::fromJson(configJson, &why);
    if (!config)
        return fail(why);
    b.config = *config;
    if (format != QLatin1String(modelFormat(b.config)))
        return fail(QCoreApplication::translate("as::ModelFile", "format '%1' does not go with config's arch '%2'")
                        .arg(format, archName(b.config.arch)));

    // Vocabularies: their sizes are the model's vocabulary sizes.
    if (!parseVocab(meta, u"src_vocab"_s, &b.srcVocab, &why)
        || !parseVocab(meta, u"tgt_vocab"_s, &b.tgtVocab, &why))
        return fail(why);
    for (auto [key, field, vocab] : {std::tuple{"src_vocab", &b.config.src_vocab, &b.srcVocab},
                                     std::tuple{"tgt_vocab", &b.config.tgt_vocab, &b.tgtVocab}}) {
        if (configJson.contains(QLatin1String(key)) && *field != vocab->size())
            return fail(QCoreApplication::translate("as::ModelFile", "config says %1 is %2 but the vocabulary lists %3 tokens")
                            .arg(QLatin1String(key))
                            .arg(*field)
                            .arg(vocab->size()));
        *field = vocab->size();
    }
    // Each layer has at least 16 tensors, so a layer count above the file's tensor count is wrong
    // before any list is built (a corrupt count must not make us allocate).
    const auto fileTensors = std::uint64_t(file.tensors().size());
    if (std::uint64_t(b.config.encoder_layers) > fileTensors
        || std::uint64_t(b.config.decoder_layers) > fileTensors)
        return fail(QCoreApplication::translate("as::ModelFile", "config asks for %1 encoder and %2 decoder layers but the "
                                   "file holds only %3 tensors")
                        .arg(b.config.encoder_layers)
                        .arg(b.config.decoder_layers)
                        .arg(fileTensors));
    if (const QString bad = b.config.validate(); !bad.isEmpty())
        return fail(u"config: "_s + bad);
    if (b.config.tie == Tie::All && b.srcVocab.tokens() != b.tgtVocab.tokens())
        return fail(QCoreApplication::translate("as::ModelFile", "config says tie=all (one embedding for both sides) but src_vocab and "
                    "tgt_vocab differ: tie=all needs one shared vocabulary"));
    if (b.config.decoderOnly() && b.srcVocab.tokens() != b.tgtVocab.tokens())
        return fail(QCoreApplication::translate("as::ModelFile", "a decoder-only model has one vocabulary, but src_vocab "
                    "and tgt_vocab differ"));

    // Tokenisers.
    const std::optional<QJsonDocument> tokDoc = parseJsonText(meta.value(u"tokenizer"_s),
                                                              u"tokenizer"_s, &why);
    if (!tokDoc)
        return fail(why);
    if (!tokDoc->isObject())
        return fail(QCoreApplication::translate("as::ModelFile", "__metadata__ 'tokenizer' must be a JSON object {\"src\": …, \"tgt\": …}"));
    for (auto [key, side, kind, modelKey, vocab] :
         {std::tuple{"src", QT_TRANSLATE_NOOP("as::ModelFile", "source"), &b.srcTok, kSrcSentencePieceKey, &b.srcVocab},
          std::tuple{"tgt", QT_TRANSLATE_NOOP("as::ModelFile", "target"), &b.tgtTok, kTgtSentencePieceKey, &b.tgtVocab}}) {
        const QJsonValue v = tokDoc->object().value(QLatin1String(key));
        if (!v.isString())
            return fail(QCoreApplication::translate("as::ModelFile", "tokenizer: no %1 tokenizer name ('%2')")
                            .arg(QCoreApplication::translate("as::ModelFile", side), QLatin1String(key)));
        const std::optional<Tokenizer> k = tokenizerFromName(v.toString());
        if (!k)
            return fail(QCoreApplication::translate("as::ModelFile", "tokenizer: unknown %1 tokenizer '%2' (known: %3, %4), "
                                       "nor a subword one, bpe:N or unigram:N with N from %5 to %6")
                            .arg(QCoreApplication::translate("as::ModelFile", side), v.toString(),
                                 tokenizerName(TokenizerKind::CjkChar),
                                 tokenizerName(TokenizerKind::Word))
                            .arg(kMinSubwordVocab)
                            .arg(kMaxSubwordVocab));
        *kind = *k;
        const QString bk = QLatin1String(std::string_view(key) == "src" ? kSrcByteBpeKey : kTgtByteBpeKey);
        if (kind->kind() == TokenizerKind::ByteLevel) {
            const std::optional<Tokenizer> t = byteLevelFromMetadata(meta, bk, *vocab, &why);
            if (!t)
                return fail(why);
            *kind = *t;
            continue;
        }
        if (meta.contains(bk))
            return fail(QCoreApplication::translate("as::ModelFile", "__metadata__ has '%1' but the %2 tokenizer is %3")
                            .arg(bk, QCoreApplication::translate("as::ModelFile", side), tokenizerName(*kind)));
        // A subword side carries its SentencePiece model, whose pieces are its vocabulary.
        const QString mk = QLatin1String(modelKey);
        if (!kind->isSubword() && !kind->isMarian()) {
            if (meta.contains(mk))
                return fail(QCoreApplication::translate("as::ModelFile", "__metadata__ has '%1' but the %2 tokenizer is %3")
                                .arg(mk, QCoreApplication::translate("as::ModelFile", side), tokenizerName(*kind)));
            continue;
        }
        if (!meta.contains(mk))
            return fail(QCoreApplication::translate("as::ModelFile", "__metadata__ has no '%1': the %2 tokenizer %3 needs its "
                                       "SentencePiece model")
                            .arg(mk, QCoreApplication::translate("as::ModelFile", side), tokenizerName(*kind)));
        const QByteArray::FromBase64Result proto = QByteArray::fromBase64Encoding(
            meta.value(mk).toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
        if (!proto)
            return fail(QCoreApplication::translate("as::ModelFile", "__metadata__ '%1' is not base64").arg(mk));
        const std::optional<Tokenizer> trained = kind->withModel(*proto, &why);
        if (!trained)
            return fail(QStringLiteral("__metadata__ '%1': %2").arg(mk, why));
        *kind = *trained;
        if (kind->isSubword() && kind->pieces() != vocab->tokens())
            return fail(QCoreApplication::translate("as::ModelFile", "the %1 vocabulary is not the pieces of its SentencePiece "
                                       "model ('%2')")
                            .arg(QCoreApplication::translate("as::ModelFile", side), mk));
    }

    // Parameters: exactly the names of core/SPEC.md §6.1, with the shapes the configuration implies.
    const std::vector<Expected> expected = expectedParameters(b.config);
    std::set<std::string> expectedNames;
    for (const Expected& e : expected) {
        expectedNames.insert(e.name);
        const SafetensorsTensor* t = file.find(e.name);
        if (!t)
            return fail(QCoreApplication::translate("as::ModelFile", "missing parameter '%1' (shape %2)")
                            .arg(QString::fromStdString(e.name), shapeText(e.shape)));
        if (t->shape != e.shape) {
            QString msg = QCoreApplication::translate("as::ModelFile", "tensor '%1' has shape %2 but the configuration needs %3")
                              .arg(QString::fromStdString(e.name), shapeText(t->shape),
                                   shapeText(e.shape));
            const bool src = e.name == "src_embed.weight";
            const bool tgt = e.name == "tgt_embed.weight" || e.name.starts_with("generator.");
            if ((src || tgt) && !t->shape.empty() && t->shape[0] != e.shape[0])
                msg += QCoreApplication::translate("as::ModelFile", ": the %1 vocabulary (%2 tokens) does not fit the weights")
                           .arg(src ? QCoreApplication::translate("as::ModelFile", "source") : QCoreApplication::translate("as::ModelFile", "target"))
                           .arg(e.shape[0]);
            return fail(msg);
        }
    }
    for (const SafetensorsTensor& t : file.tensors()) {
        if (expectedNames.count(t.name))
            continue;
        const QString name = QString::fromStdString(t.name);
        if (b.config.norm == NormPlacement::Post
            && (t.name.starts_with("encoder.norm.") || t.name.starts_with("decoder.norm.")))
            return fail(QCoreApplication::translate("as::ModelFile", "unexpected tensor '%1': a post-norm model has no "
                                       "encoder.norm or decoder.norm")
                            .arg(name));
        return fail(QCoreApplication::translate("as::ModelFile", "unexpected tensor '%1' (not a parameter of this model)")
                        .arg(name));
    }

    // Every shape matches the file, so the model is no larger than the file.
    try {
        b.model = std::make_unique<Transformer<float>>(b.config);
    } catch (const std::exception& e) {
        return fail(QCoreApplication::translate("as::ModelFile", "cannot build the model: %1").arg(QString::fromUtf8(e.what())));
    }
    ParamStore<float>& ps = b.model->params();
    if (ps.table().size() != expected.size())
        return fail(QCoreApplication::translate("as::ModelFile", "internal error: the model's parameters differ from the names of "
                    "core/SPEC.md §6.1"));
    for (const ParamInfo& p : ps.table()) {
        const SafetensorsTensor* t = file.find(p.name);
        if (!t || t->elements() != p.size)
            return fail(QCoreApplication::translate("as::ModelFile", "internal error: the model's parameter '%1' differs from "
                                       "core/SPEC.md §6.1")
                            .arg(QString::fromStdString(p.name)));
        float* v = ps.values() + p.offset;
        file.copyValues(*t, v);
        if (const QString bad = nonFinite(v, p.size, t->shape); !bad.isEmpty())
            return fail(QCoreApplication::translate("as::ModelFile", "tensor '%1': %2 (weights must be finite)")
                            .arg(QString::fromStdString(p.name), bad));
    }
    // Last, the weights' checksum (every check above names what is wrong more precisely): a
    // mismatch is damage; a file written before there was one (or by another tool) loads, with
    // a note.
    if (meta.contains(QLatin1String(kModelChecksumKey))) {
        const QString stored = meta.value(QLatin1String(kModelChecksumKey));
        const QString actual = crc32cHex(file.dataCrc32c());
        if (stored.toLower() != actual)
            return fail(QCoreApplication::translate("as::ModelFile", "the weights do not match their checksum (%1 %2, the data's "
                                       "is %3): the file is damaged")
                            .arg(QLatin1String(kModelChecksumKey), stored.left(40), actual));
    } else {
        b.notes << QCoreApplication::translate("as::ModelFile", "the file carries no checksum of its weights (written by an "
                                  "older version or another tool): damage to them cannot be "
                                  "detected");
    }
    return b;
}

std::optional<ModelBundle> loadModelFromBytes(QByteArray bytes, QString* error)
{
    // A training checkpoint holds a model file as one of its sections.
    if (looksLikeCheckpoint(bytes)) {
        std::optional<Checkpoint> c = loadCheckpointFromBytes(bytes, error);
        if (!c)
            return std::nullopt;
        return std::move(c->model);
    }
    const std::optional<SafetensorsFile> file = SafetensorsFile::parse(std::move(bytes), error);
    if (!file)
        return std::nullopt;
    return loadModelFrom(*file, error);
}

std::optional<Tokenizer> byteLevelFromMetadata(const SafetensorsMetadata& meta, const QString& key,
                                               const Vocab& vocab, QString* error)
{
    const auto text = [](const char* s) { return QCoreApplication::translate("as::ModelFile", s); };
    if (!meta.contains(key)) {
        *error = text(QT_TRANSLATE_NOOP("as::ModelFile", "__metadata__ has no '%1': a gpt2-bpe tokenizer needs its merges")).arg(key);
        return std::nullopt;
    }
    const QJsonObject o = QJsonDocument::fromJson(meta.value(key).toUtf8()).object();
    const int eot = o.value(u"end_of_text"_s).toInt(-1);
    const QString eotPiece = o.value(u"end_of_text_piece"_s).toString();
    const int hubSize = vocab.size() - 3;  // the engine's specials but </s>, which is <|endoftext|>
    if (eot < 0 || eot >= hubSize || eotPiece.isEmpty() || !o.value(u"merges"_s).isString()) {
        *error = text(QT_TRANSLATE_NOOP("as::ModelFile", "__metadata__ '%1' must be {\"end_of_text\": id, \"end_of_text_piece\": text, \"merges\": text} with the id inside the vocabulary")).arg(key);
        return std::nullopt;
    }
    // vocab.json again: the engine's tokens after the specials are the Hub's in order, without
    // <|endoftext|> (HubIdMap).
    const HubIdMap ids{hubSize, eot};
    QJsonObject pieces;
    for (int id = Vocab::kSpecials; id < vocab.size(); ++id)
        pieces.insert(vocab.token(id), ids.toHub(id));
    pieces.insert(eotPiece, eot);
    QString why;
    std::optional<ByteLevelBpe> bpe = ByteLevelBpe::fromFiles(
        QJsonDocument(pieces).toJson(QJsonDocument::Compact), o.value(u"merges"_s).toString().toUtf8(), &why);
    if (!bpe || bpe->size() != hubSize || bpe->endOfText() != eot) {
        *error = QStringLiteral("__metadata__ '%1': %2").arg(key, bpe ? text(QT_TRANSLATE_NOOP("as::ModelFile", "the vocabulary is not the tokenizer's")) : why);
        return std::nullopt;
    }
    return Tokenizer(std::make_shared<const ByteLevelBpe>(std::move(*bpe)));
}

std::optional<ModelBundle> loadModel(const QString& path, QString* error)
{
    // A model folder from the Hugging Face Hub (core/SPEC.md §8.6).
    if (isHubModelPath(path))
        return loadHubModel(path, error);
    // A training checkpoint (detected by its magic number) serves as a model file too.
    QFile probe(path);
    QString unopened;
    if (openForReading(probe, &unopened) && looksLikeCheckpoint(probe.read(8))) {
        probe.close();
        std::optional<Checkpoint> c = loadCheckpoint(path, error);
        if (!c)
            return std::nullopt;
        return std::move(c->model);
    }
    const std::optional<SafetensorsFile> file = SafetensorsFile::read(path, error);
    if (!file)
        return std::nullopt;
    QString why;
    std::optional<ModelBundle> b = loadModelFrom(*file, &why);
    if (!b && error)
        *error = QFileInfo(path).fileName() + u": "_s + why;
    if (b)
        for (QString& note : b->notes)
            note.prepend(QFileInfo(path).fileName() + u": "_s);
    return b;
}

}  // namespace as
