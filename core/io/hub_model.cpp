// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/hub_model.h"

#include "io/atomic_file.h"
#include "io/safetensors.h"
#include "io/torch_file.h"
#include "model/memory.h"
#include "model/positional_encoding.h"
#include "model/transformer.h"
#include "text/byte_bpe.h"
#include "text/tokenizer.h"
#include "text/vocab.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonValue>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <set>
#include <span>
#include <string_view>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace as {

using namespace Qt::StringLiterals;

namespace {

// A read-only file mapping's pages once their values are copied: out of the process's resident
// set (the kernel reads them from the file again if they are touched), so that opening a model
// holds its weights once, not twice (GPT-2 small: 500 MB). Only for a file mapping: on
// anonymous memory MADV_DONTNEED would zero it.
void releaseMappedPages(const char* data, std::uint64_t bytes)
{
#if defined(__linux__) && defined(MADV_DONTNEED)
    const std::uintptr_t page = std::uintptr_t(sysconf(_SC_PAGESIZE));
    const auto begin = reinterpret_cast<std::uintptr_t>(data) & ~(page - 1);
    const auto end = reinterpret_cast<std::uintptr_t>(data) + bytes;
    if (bytes > 0)
        madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
#else
    (void)data;
    (void)bytes;
#endif
}

QString hubText(const char* s) { return QCoreApplication::translate("as::HubModel", s); }

// The tensors of a weight file, by name without the "transformer." prefix, read on demand: a
// safetensors file's values are converted one tensor at a time, a PyTorch file's are there.
struct HubTensorSource {
    struct Entry {
        std::vector<std::uint64_t> shape;
        std::function<void(std::vector<float>&)> read;
    };
    std::map<std::string, Entry> entries;
    std::vector<std::string> order;  // the file's names, for messages
    // Held where the readers above point, whatever moves the source; the mapping (which the
    // safetensors file's bytes point into) outlives the file.
    std::shared_ptr<QFile> mapping;
    std::shared_ptr<const SafetensorsFile> safetensors;
    std::shared_ptr<const TorchFile> torch;
};

// A GPT-2 block's tensors as the Hub names them beside the engine's (core/SPEC.md §8.6), one
// table for reading and for writing back: its two LayerNorms, and its Conv1D layers (weights
// [in, out]) besides c_attn, which is split into q, k and v.
constexpr std::pair<const char*, const char*> kGpt2Norms[] = {{"ln_1", "norm1"}, {"ln_2", "norm2"}};
struct Gpt2Conv {
    const char* hub;
    const char* ours;
    int in, out;
};
std::array<Gpt2Conv, 3> gpt2Convs(int d, int ff)
{
    return {{{"attn.c_proj", "self_attn.o", d, d}, {"mlp.c_fc", "ffn.w1", d, ff}, {"mlp.c_proj", "ffn.w2", ff, d}}};
}

bool hubAddEntry(HubTensorSource& src, const std::string& prefix, const std::string& fileName,
                 std::vector<std::uint64_t> shape, std::function<void(std::vector<float>&)> read,
                 QString* error)
{
    const std::string name = fileName.starts_with(prefix) ? fileName.substr(prefix.size()) : fileName;
    if (src.entries.contains(name)) {
        *error = hubText(QT_TRANSLATE_NOOP("as::HubModel", "tensor '%1' is in the file twice (with and without '%2')"))
                     .arg(QString::fromStdString(name), QString::fromStdString(prefix));
        return false;
    }
    src.entries[name] = {std::move(shape), std::move(read)};
    src.order.push_back(name);
    return true;
}

// The weights of `file`, each tensor named without `prefix` (GPT-2's "transformer.", Marian's
// "model."), which the Hub's files have or not.
std::optional<HubTensorSource> hubOpenWeights(const QString& file, const std::string& prefix, QString* error)
{
    HubTensorSource src;
    QString why;
    if (file.endsWith(u".safetensors")) {
        // Mapped, not read: the values are copied once, from the page cache into the model
        // (reading the file first was a second 500 MB for GPT-2 small, and its page faults).
        std::optional<SafetensorsFile> read;
        auto mapped = std::make_shared<QFile>(file);
        if (mapped->open(QIODevice::ReadOnly) && mapped->size() > 0) {
            if (const uchar* p = mapped->map(0, mapped->size())) {
                read = SafetensorsFile::parse(
                    QByteArray::fromRawData(reinterpret_cast<const char*>(p), qsizetype(mapped->size())), &why);
                if (!read) {
                    *error = QFileInfo(file).fileName() + u": "_s + why;
                    return std::nullopt;
                }
                src.mapping = mapped;
            }
        }
        if (!read)  // not mappable here: read as every other file is
            read = SafetensorsFile::read(file, &why);
        if (!read) {
            *error = why;
            return std::nullopt;
        }
        src.safetensors = std::make_shared<const SafetensorsFile>(std::move(*read));
        const SafetensorsFile* f = src.safetensors.get();
        const bool isMapped = src.mapping != nullptr;
        for (const SafetensorsTensor& t : f->tensors()) {
            const SafetensorsTensor* tp = &t;
            if (!hubAddEntry(src, prefix, t.name, t.shape,
                             [f, tp, isMapped](std::vector<float>& out) {
                                 out.resize(std::size_t(tp->elements()));
                                 f->copyValues(*tp, out.data());
                                 if (isMapped)
                                     releaseMappedPages(f->valuesData(*tp), tp->end - tp->begin);
                             },
                             error))
                return std::nullopt;
        }
    } else {
        std::optional<TorchFile> read = readTorchFile(file, &why);
        if (!read) {
            *error = why;
            return std::nullopt;
        }
        src.torch = std::make_shared<const TorchFile>(std::move(*read));
        for (const TorchTensor& t : src.torch->tensors) {
            const TorchTensor* tp = &t;
            if (!hubAddEntry(src, prefix, t.name, t.shape,
                             [tp](std::vector<float>& out) { out = tp->values(); }, error))
                return std::nullopt;
        }
    }
    return src;
}

// A whole number ≥ 1 from config.json, or an error naming it.
bool hubInt(const QJsonObject& json, const char* key, int* out, QString* error, int fallback = -1)
{
    const QJsonValue v = json.value(QLatin1String(key));
    if (v.isUndefined() || v.isNull()) {
        if (fallback >= 0) {
            *out = fallback;
            return true;
        }
        *error = hubText(QT_TRANSLATE_NOOP("as::HubModel", "config.json has no '%1'")).arg(QLatin1String(key));
        return false;
    }
    const double d = v.toDouble(-1);
    if (!v.isDouble() || d != double(qint64(d)) || d < 1 || d > 1e8) {
        *error = hubText(QT_TRANSLATE_NOOP("as::HubModel", "config.json: '%1' must be a whole number ≥ 1")).arg(QLatin1String(key));
        return false;
    }
    *out = int(d);
    return true;
}

// A boolean of config.json that asks for what the engine cannot compute: refused when it has
// the value refusedWhen (or is not a boolean), naming the key, the value and what it asks for.
struct HubRefusal {
    const char* key;
    bool refusedWhen;  // the value that cannot be computed
    const char* why;   // what that value asks for (QT_TRANSLATE_NOOP)
};

QString hubRefusal(const QJsonObject& json, std::initializer_list<HubRefusal> refusals)
{
    for (const HubRefusal& r : refusals) {
        const QJsonValue v = json.value(QLatin1String(r.key));
        if (!v.isUndefined() && !v.isNull() && (!v.isBool() || v.toBool() == r.refusedWhen))
            return hubText(QT_TRANSLATE_NOOP("as::HubModel", "config.json: %1 = %2 asks for %3, which this program does not compute"))
                .arg(QLatin1String(r.key), v.isBool() ? (v.toBool() ? u"true"_s : u"false"_s) : v.toVariant().toString(),
                     hubText(r.why));
    }
    return {};
}

}  // namespace

std::optional<Gpt2HubConfig> gpt2HubConfig(const QJsonObject& json, QString* error)
{
    QString why;
    const auto fail = [&](const QString& msg) {
        if (error)
            *error = msg;
        return std::nullopt;
    };
    const QString type = json.value(u"model_type").toString();
    if (type != u"gpt2")
        return fail(hubText(QT_TRANSLATE_NOOP("as::HubModel", "config.json: model_type '%1' is not one this program opens (gpt2, marian)"))
                        .arg(type));
    // What the engine cannot compute, refused by name (core/SPEC.md §8.6).
    const QString act = json.value(u"activation_function").toString(u"gelu_new"_s);
    if (act != u"gelu_new" && act != u"gelu_pytorch_tanh")
        return fail(hubText(QT_TRANSLATE_NOOP("as::HubModel", "config.json: activation_function '%1' is not GPT-2's tanh GELU "
                            "(gelu_new), the one this program computes"))
                        .arg(act));
    if (const QString refused = hubRefusal(json, {HubRefusal{"scale_attn_by_inverse_layer_idx", true,
                                     QT_TRANSLATE_NOOP("as::HubModel", "attention scaled by 1/(layer + 1)")},
                             HubRefusal{"reorder_and_upcast_attn", true,
                                     QT_TRANSLATE_NOOP("as::HubModel", "attention reordered and upcast")},
                             HubRefusal{"add_cross_attention", true,
                                     QT_TRANSLATE_NOOP("as::HubModel", "cross-attention in GPT-2's blocks")},
                             HubRefusal{"scale_attn_weights", false,
                                     QT_TRANSLATE_NOOP("as::HubModel", "attention scores not scaled by 1/√head_dim")},
                             HubRefusal{"tie_word_embeddings", false,
                                     QT_TRANSLATE_NOOP("as::HubModel", "a head not tied to the token embedding")}}); !refused.isEmpty())
        return fail(refused);
    Gpt2HubConfig g;
    int d = 0, heads = 0, layers = 0, positions = 0, inner = 0;
    if (!hubInt(json, "n_embd", &d, &why) || !hubInt(json, "n_head", &heads, &why)
        || !hubInt(json, "n_layer", &layers, &why) || !hubInt(json, "n_positions", &positions, &why)
        || !hubInt(json, "vocab_size", &g.vocab, &why))
        return fail(why);
    if (!hubInt(json, "n_inner", &inner, &why, 4 * d))
        return fail(why);
    if (d % heads != 0)
        return fail(hubText(QT_TRANSLATE_NOOP("as::HubModel", "config.json: n_embd %1 is not a multiple of n_head %2")).arg(d).arg(heads));
    g.endOfText = g.vocab - 1;
    if (!hubInt(json, "eos_token_id", &g.endOfText, &why, g.vocab - 1) || g.endOfText >= g.vocab)
        return fail(why.isEmpty() ? hubText(QT_TRANSLATE_NOOP("as::HubModel", "config.json: eos_token_id %1 is outside the vocabulary of %2"))
                                        .arg(g.endOfText).arg(g.vocab)
                                  : why);
    const double eps = json.value(u"layer_norm_epsilon").toDouble(1e-5);
    ModelConfig& c = g.config;
    c.arch = Arch::DecoderOnly;
    c.encoder_layers = 0;
    c.decoder_layers = layers;
    c.d_model = d;
    c.heads = heads;
    c.d_ff = inner;
    c.norm = NormPlacement::Pre;
    c.position = Position::Learned;
    c.max_len = positions;
    c.norm_eps = eps;
    c.activation = Activation::GeluTanh;
    c.tie = Tie::Tgt;
    c.generator_bias = false;
    c.label_smoothing = 0.0;
    // <pad> and <unk> have no row in GPT-2, and <s> reads <|endoftext|>'s: none is predicted.
    c.masked_specials = (1u << 0) | (1u << 1) | (1u << 3);
    c.src_vocab = c.tgt_vocab = g.vocab + 3;
    // One dropout rate (core/SPEC.md §2.7): GPT-2 has three, 0.1 each in its released configs.
    const double resid = json.value(u"resid_pdrop").toDouble(0.1);
    c.dropout = resid;
    for (const char* key : {"embd_pdrop", "attn_pdrop"})
        if (const double p = json.value(QLatin1String(key)).toDouble(resid); p != resid)
            g.notes << hubText(QT_TRANSLATE_NOOP("as::HubModel", "%1 is %2 but this program uses one dropout rate: resid_pdrop's, %3"))
                           .arg(QLatin1String(key)).arg(p).arg(resid);
    if (const QString bad = c.validate(); !bad.isEmpty())
        return fail(hubText(QT_TRANSLATE_NOOP("as::HubModel", "config.json: %1")).arg(bad));
    return g;
}

int HubIdMap::toEngine(int hubId) const
{
    if (hubId == endOfText)
        return 2;
    if (hubId == unknown)
        return 3;
    if (hubId == pad)
        return 0;
    int below = 0;
    for (int special : {endOfText, unknown, pad})
        below += special >= 0 && special < hubId;
    return 4 + hubId - below;
}

int HubIdMap::toHub(int engineId) const
{
    switch (engineId) {
    case 0: return pad;
    case 1: return start >= 0 ? start : endOfText;
    case 2: return endOfText;
    case 3: return unknown;
    default: break;
    }
    std::array<int, 3> specials{endOfText, unknown, pad};
    std::sort(specials.begin(), specials.end());
    int k = engineId - 4;
    for (int special : specials)
        if (special >= 0 && special <= k)
            ++k;
    return k >= 0 && k < vocab ? k : -1;
}

int HubIdMap::engineVocab() const
{
    return vocab + 4 - (endOfText >= 0) - (unknown >= 0) - (pad >= 0);
}

std::optional<MarianHubConfig> marianHubConfig(const QJsonObject& json, QString* error)
{
    QString why;
    const auto fail = [&](const QString& msg) {
        if (error)
            *error = msg;
        return std::nullopt;
    };
    const QString type = json.value(u"model_type").toString();
    if (type != u"marian")
        return fail(hubText(QT_TRANSLATE_NOOP("as::HubModel", "config.json: model_type '%1' is not one this program opens (gpt2, marian)"))
                        .arg(type));
    MarianHubConfig g;
    ModelConfig& c = g.config;
    // The feed-forward's nonlinearity: Marian's swish (SiLU), or what the engine also has.
    const QString act = json.value(u"activation_function").toString(u"swish"_s);
    if (act == u"swish" || act == u"silu")
        c.activation = Activation::Silu;
    else if (act == u"relu")
        c.activation = Activation::Relu;
    else if (act == u"gelu_new" || act == u"gelu_pytorch_tanh")
        c.activation = Activation::GeluTanh;
    else
        return fail(hubText(QT_TRANSLATE_NOOP("as::HubModel", "config.json: activation_function '%1' is not one this program computes "
                            "(swish, relu, gelu_new)"))
                        .arg(act));
    // What the engine cannot compute, refused by name (core/SPEC.md §8.7).
    if (const QString refused = hubRefusal(json, {HubRefusal{"normalize_before", true,
                                     QT_TRANSLATE_NOOP("as::HubModel", "pre-norm layers (Marian's are post-norm)")},
                             HubRefusal{"normalize_embedding", true,
                                     QT_TRANSLATE_NOOP("as::HubModel", "a LayerNorm of the embeddings")},
                             HubRefusal{"add_final_layer_norm", true,
                                     QT_TRANSLATE_NOOP("as::HubModel", "a LayerNorm after each stack")},
                             HubRefusal{"scale_embedding", false,
                                     QT_TRANSLATE_NOOP("as::HubModel", "token embeddings not scaled by √d_model")},
                             HubRefusal{"static_position_embeddings", false,
                                     QT_TRANSLATE_NOOP("as::HubModel", "learned positions in place of the sinusoids")},
                             HubRefusal{"share_encoder_decoder_embeddings", false,
                                     QT_TRANSLATE_NOOP("as::HubModel", "a source vocabulary apart from the target's")},
                             HubRefusal{"tie_word_embeddings", false,
                                     QT_TRANSLATE_NOOP("as::HubModel", "a head not tied to the token embedding")}}); !refused.isEmpty())
        return fail(refused);
    int d = 0, encHeads = 0, decHeads = 0, encLayers = 0, decLayers = 0, encFf = 0, decFf = 0, positions = 0;
    HubIdMap& ids = g.ids;
    if (!hubInt(json, "d_model", &d, &why) || !hubInt(json, "encoder_attention_heads", &encHeads, &why)
        || !hubInt(json, "decoder_attention_heads", &decHeads, &why)
        || !hubInt(json, "encoder_layers", &encLayers, &why) || !hubInt(json, "decoder_layers", &decLayers, &why)
        || !hubInt(json, "encoder_ffn_dim", &encFf, &why) || !hubInt(json, "decoder_ffn_dim", &decFf, &why)
        || !hubInt(json, "max_position_embeddings", &positions, &why)
        || !hubInt(json, "vocab_size", &ids.vocab, &why))
        return fail(why);
    // One number each in the engine: the two stacks must agree.
    for (const auto& [a, b, ka, kb] : {std::tuple{encHeads, decHeads, "encoder_attention_heads", "decoder_attention_heads"},
                                       std::tuple{encFf, decFf, "encoder_ffn_dim", "decoder_ffn_dim"}})
        if (a != b)
            return fail(hubText(QT_TRANSLATE_NOOP("as::HubModel", "config.json: %1 %2 differs from %3 %4; this program's encoder and decoder have the same"))
                            .arg(QLatin1String(ka)).arg(a).arg(QLatin1String(kb)).arg(b));
    int decoderVocab = ids.vocab;
    if (!hubInt(json, "decoder_vocab_size", &decoderVocab, &why, ids.vocab))
        return fail(why);
    if (decoderVocab != ids.vocab)
        return fail(hubText(QT_TRANSLATE_NOOP("as::HubModel", "config.json: decoder_vocab_size %1 differs from vocab_size %2: a target vocabulary of its own, which this program does not open"))
                        .arg(decoderVocab).arg(ids.vocab));
    // The specials: ids in the vocabulary, each its own (eos_token_id may be 0: a whole number ≥ 0).
    const auto special = [&](const char* key, int* out, int fallback) {
        const QJsonValue v = json.value(QLatin1String(key));
        const double x = v.isUndefined() || v.isNull() ? fallback : v.toDouble(-1);
        if (x != double(qint64(x)) || x < 0 || x >= ids.vocab) {
            why = hubText(QT_TRANSLATE_NOOP("as::HubModel", "config.json: %1 must be an id of the vocabulary (0 … %2)"))
                      .arg(QLatin1String(key)).arg(ids.vocab - 1);
            return false;
        }
        *out = int(x);
        return true;
    };
    if (!special("eos_token_id", &ids.endOfText, 0) || !special("pad_token_id", &ids.pad, ids.vocab - 1))
        return fail(why);
    if (!special("decoder_start_token_id", &ids.start, ids.pad))
        return fail(why);
    if (ids.pad == ids.endOfText)
        return fail(hubText(QT_TRANSLATE_NOOP("as::HubModel", "config.json: pad_token_id and eos_token_id are both %1")).arg(ids.pad));
    if (const QJsonValue v = json.value(u"num_beams"); v.isDouble() && v.toInt() >= 1)
        g.numBeams = v.toInt();
    c.arch = Arch::EncoderDecoder;
    c.encoder_layers = encLayers;
    c.decoder_layers = decLayers;
    c.d_model = d;
    c.heads = encHeads;
    c.d_ff = encFf;
    c.norm = NormPlacement::Post;
    c.position = Position::SinusoidalHalves;
    c.max_len = positions;
    c.norm_eps = 1e-5;
    c.tie = Tie::All;
    c.generator_bias = true;  // the final_logits_bias
    c.label_smoothing = 0.0;
    // <pad> and <s> (the pad token's row) are never emitted: bad_words_ids [[pad]].
    c.masked_specials = (1u << 0) | (1u << 1);
    const double p = json.value(u"dropout").toDouble(0.1);
    c.dropout = p;
    QStringList others;
    for (const char* key : {"attention_dropout", "activation_dropout"})
        if (const double q = json.value(QLatin1String(key)).toDouble(0.0); q != p)
            others << u"%1 %2"_s.arg(QLatin1String(key)).arg(q);
    if (!others.isEmpty())
        g.notes << hubText(QT_TRANSLATE_NOOP("as::HubModel", "config.json has %1, but this program uses one dropout rate in training: dropout's, %2"))
                       .arg(others.join(u", "_s)).arg(p);
    c.src_vocab = c.tgt_vocab = ids.engineVocab() + 1;  // until the <unk> id is known
    if (const QString bad = c.validate(); !bad.isEmpty())
        return fail(hubText(QT_TRANSLATE_NOOP("as::HubModel", "config.json: %1")).arg(bad));
    return g;
}

namespace {

QString hubFolderOf(const QString& path)
{
    const QFileInfo info(path);
    return info.isDir() ? info.absoluteFilePath() : info.absolutePath();
}

// A JSON object file of the folder, or an error naming it.
std::optional<QJsonObject> hubJsonObject(const QDir& dir, const QString& name, qint64 limit, QString* error)
{
    QFile f(dir.filePath(name));
    if (!f.open(QIODevice::ReadOnly)) {
        *error = hubText(QT_TRANSLATE_NOOP("as::HubModel", "%1: cannot read %2 (%3)")).arg(dir.path(), name, f.errorString());
        return std::nullopt;
    }
    if (f.size() > limit) {
        *error = hubText(QT_TRANSLATE_NOOP("as::HubModel", "%1 is %2 bytes, over the %3 this program reads")).arg(f.fileName()).arg(f.size()).arg(limit);
        return std::nullopt;
    }
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
        *error = hubText(QT_TRANSLATE_NOOP("as::HubModel", "%1: %2 is not a JSON object (%3)")).arg(dir.path(), name, pe.errorString());
        return std::nullopt;
    }
    return doc.object();
}

// Marian's vocab.json: the pieces by id, ids 0 … vocab-1 each once; </s> and <pad> at the
// config's ids; its <unk> into ids.unknown.
std::optional<QStringList> marianPieces(const QDir& dir, HubIdMap* ids, QString* error)
{
    const std::optional<QJsonObject> vocab = hubJsonObject(dir, u"vocab.json"_s, qint64(256) << 20, error);
    if (!vocab)
        return std::nullopt;
    const QString file = dir.filePath(u"vocab.json"_s);
    if (vocab->size() != ids->vocab) {
        *error = hubText(QT_TRANSLATE_NOOP("as::HubModel", "%1 has %2 pieces; config.json's vocab_size is %3"))
                     .arg(file).arg(vocab->size()).arg(ids->vocab);
        return std::nullopt;
    }
    QStringList pieces(ids->vocab);
    std::vector<bool> seen(std::size_t(ids->vocab), false);
    for (auto it = vocab->begin(); it != vocab->end(); ++it) {
        const double x = it.value().toDouble(-1);
        if (!it.value().isDouble() || x != double(qint64(x)) || x < 0 || x >= ids->vocab) {
            *error = hubText(QT_TRANSLATE_NOOP("as::HubModel", "%1: the id of '%2' is not one of 0 … %3 (the embedding's rows)"))
                         .arg(file, it.key()).arg(ids->vocab - 1);
            return std::nullopt;
        }
        const auto id = std::size_t(x);
        if (seen[id]) {
            *error = hubText(QT_TRANSLATE_NOOP("as::HubModel", "%1: '%2' and '%3' have the same id %4"))
                         .arg(file, pieces[qsizetype(id)], it.key()).arg(id);
            return std::nullopt;
        }
        seen[id] = true;
        pieces[qsizetype(id)] = it.key();
    }
    ids->unknown = int(pieces.indexOf(u"<unk>"_s));
    for (const auto& [piece, want] : {std::pair{u"</s>"_s, ids->endOfText}, std::pair{u"<pad>"_s, ids->pad}})
        if (pieces.indexOf(piece) != want) {
            *error = hubText(QT_TRANSLATE_NOOP("as::HubModel", "%1: '%2' is at %3; config.json says %4"))
                         .arg(file, piece).arg(pieces.indexOf(piece)).arg(want);
            return std::nullopt;
        }
    if (ids->unknown < 0) {
        *error = hubText(QT_TRANSLATE_NOOP("as::HubModel", "%1 has no '<unk>'")).arg(file);
        return std::nullopt;
    }
    return pieces;
}

// The tensors of one Hub weight file as they are read into the engine's parameters: take()
// finds a tensor with its shape and reads it into buf, or says what is wrong in *why.
// The values of the engine's parameter `name` (a name the code itself spells: a missing one is
// a bug, not a file's fault).
template <typename Store>  // ParamStore<float>, const or not
auto parameterValues(Store& ps, const std::string& name)
{
    const ParamInfo* p = ps.find(name);
    if (!p)
        throw std::logic_error("hub model: no parameter " + name);
    return ps.values() + p->offset;
}

struct HubWeights {
    HubTensorSource& src;
    const QString& file;
    const QString family;  // for messages: "GPT-2", "Marian"
    ParamStore<float>& ps;
    std::set<std::string> used;
    std::vector<float> buf;
    QString why;

    bool take(const std::string& name, const std::vector<std::uint64_t>& shape)
    {
        const auto it = src.entries.find(name);
        if (it == src.entries.end()) {
            why = hubText(QT_TRANSLATE_NOOP("as::HubModel", "%1: tensor '%2' is missing")).arg(file, QString::fromStdString(name));
            return false;
        }
        if (it->second.shape != shape) {
            why = hubText(QT_TRANSLATE_NOOP("as::HubModel", "%1: tensor '%2' is %3, %5 of this config.json has %4"))
                      .arg(file, QString::fromStdString(name), shapeText(it->second.shape), shapeText(shape), family);
            return false;
        }
        it->second.read(buf);
        used.insert(name);
        return true;
    }
    bool has(const std::string& name) const { return src.entries.contains(name); }
    float* dest(const std::string& name) { return parameterValues(ps, name); }
    void copy(float* out, std::size_t from, std::size_t n) const
    {
        std::memcpy(out, buf.data() + from, n * sizeof(float));
    }
    // Reads `name` of `shape` straight into the parameter `ours`.
    bool into(const std::string& name, const std::vector<std::uint64_t>& shape, const std::string& ours)
    {
        if (!take(name, shape))
            return false;
        copy(dest(ours), 0, buf.size());
        return true;
    }
};

std::uint64_t u64(int v) { return std::uint64_t(v); }

// GPT-2's tensors into the engine's decoder-only model (core/SPEC.md §8.6).
bool readGpt2Weights(HubWeights& w, const HubModel& m)
{
    const int d = m.config.d_model, V = m.ids.vocab;
    // out[r][c] = in[c][col0 + r] for r < rows, c < cols: a Conv1D weight ([in, out]) as a
    // Linear's ([out, in]), columns col0 … col0 + rows of it.
    const auto transposed = [&](float* out, int inRows, int inCols, int col0, int rows) {
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < inRows; ++c)
                out[std::size_t(r) * inRows + c] = w.buf[std::size_t(c) * inCols + col0 + r];
    };
    // Token embeddings, rows mapped (HubIdMap); <pad> and <unk> rows zero.
    if (!w.take("wte.weight", {u64(V), u64(d)}))
        return false;
    {
        float* e = w.dest("tgt_embed.weight");
        std::fill(e, e + std::size_t(V + 3) * d, 0.0f);
        for (int k = 0; k < V; ++k)
            w.copy(e + std::size_t(m.ids.toEngine(k)) * d, std::size_t(k) * d, std::size_t(d));
        w.copy(e + std::size_t(1) * d, std::size_t(m.ids.endOfText) * d, std::size_t(d));  // <s>
    }
    if (w.has("lm_head.weight")) {
        const std::vector<float> wte = w.buf;
        if (!w.take("lm_head.weight", {u64(V), u64(d)}))
            return false;
        if (w.buf != wte) {
            w.why = hubText(QT_TRANSLATE_NOOP("as::HubModel", "%1: lm_head.weight differs from wte.weight: GPT-2's head is the "
                                "token embedding (tied), and this program computes only that"))
                        .arg(w.file);
            return false;
        }
    }
    if (!w.into("wpe.weight", {u64(m.config.max_len), u64(d)}, "tgt_pos.weight"))
        return false;
    const int ff = m.config.d_ff;
    for (int i = 0; i < m.config.decoder_layers; ++i) {
        const std::string h = "h." + std::to_string(i) + ".";
        const std::string l = "decoder.layers." + std::to_string(i) + ".";
        for (const auto& [hub, ours] : kGpt2Norms)
            for (const char* part : {".weight", ".bias"})
                if (!w.into(h + hub + part, {u64(d)}, l + ours + part))
                    return false;
        if (!w.take(h + "attn.c_attn.weight", {u64(d), u64(3 * d)}))
            return false;
        for (int j = 0; j < 3; ++j)
            transposed(w.dest(l + "self_attn." + "qkv"[j] + ".weight"), d, 3 * d, j * d, d);
        if (!w.take(h + "attn.c_attn.bias", {u64(3 * d)}))
            return false;
        for (int j = 0; j < 3; ++j)
            w.copy(w.dest(l + "self_attn." + "qkv"[j] + ".bias"), std::size_t(j) * d, std::size_t(d));
        for (const Gpt2Conv& cv : gpt2Convs(d, ff)) {
            if (!w.take(h + cv.hub + ".weight", {u64(cv.in), u64(cv.out)}))
                return false;
            transposed(w.dest(l + cv.ours + ".weight"), cv.in, cv.out, 0, cv.out);
            if (!w.into(h + cv.hub + ".bias", {u64(cv.out)}, l + cv.ours + ".bias"))
                return false;
        }
        // The causal mask and its fill value, as older transformers saved them: computed here.
        for (const char* buffer : {"attn.bias", "attn.masked_bias"})
            if (w.has(h + buffer))
                w.used.insert(h + buffer);
    }
    for (const char* part : {".weight", ".bias"})
        if (!w.into(std::string("ln_f") + part, {u64(d)}, std::string("decoder.norm") + part))
            return false;
    return true;
}

// A Marian layer's tensors as the Hub names them beside the engine's (core/SPEC.md §8.7): its
// attentions (q_proj … out_proj) and sublayer norms, for the encoder's and the decoder's layers.
struct MarianPart {
    const char* hub;
    const char* ours;
};
constexpr MarianPart kMarianAttention[] = {{"q_proj", "q"}, {"k_proj", "k"}, {"v_proj", "v"}, {"out_proj", "o"}};
constexpr MarianPart kMarianEncoder[] = {{"self_attn_layer_norm", "norm1"}, {"final_layer_norm", "norm2"}};
constexpr MarianPart kMarianDecoder[] = {{"self_attn_layer_norm", "norm1"},
                                         {"encoder_attn_layer_norm", "norm2"},
                                         {"final_layer_norm", "norm3"}};

// Marian's tensors into the engine's encoder-decoder (core/SPEC.md §8.7).
bool readMarianWeights(HubWeights& w, const HubModel& m)
{
    const ModelConfig& c = m.config;
    const int d = c.d_model, V = m.ids.vocab, ff = c.d_ff;
    if (!w.take("shared.weight", {u64(V), u64(d)}))
        return false;
    {
        float* e = w.dest("src_embed.weight");
        for (int k = 0; k < V; ++k)
            w.copy(e + std::size_t(m.ids.toEngine(k)) * d, std::size_t(k) * d, std::size_t(d));
        w.copy(e + std::size_t(1) * d, std::size_t(m.ids.toHub(1)) * d, std::size_t(d));  // <s>
    }
    // One embedding for the encoder, the decoder and the head: copies of it must equal it.
    const std::vector<float> shared = w.buf;
    for (const char* copy : {"encoder.embed_tokens.weight", "decoder.embed_tokens.weight", "lm_head.weight"}) {
        if (!w.has(copy))
            continue;
        if (!w.take(copy, {u64(V), u64(d)}))
            return false;
        if (w.buf != shared) {
            w.why = hubText(QT_TRANSLATE_NOOP("as::HubModel", "%1: %2 differs from model.shared.weight: Marian's encoder, decoder and head "
                                "share one embedding, and this program computes only that"))
                        .arg(w.file, QLatin1String(copy));
            return false;
        }
    }
    if (!w.take("final_logits_bias", {1, u64(V)}))
        return false;
    {
        float* b = w.dest("generator.bias");
        for (int e = 0; e < c.tgt_vocab; ++e)
            b[e] = w.buf[std::size_t(m.ids.toHub(e))];
    }
    // The sinusoids (§2.13), which older files hold: they must be the engine's.
    const Mat<float> pe = positionalEncoding<float>(c.max_len, d, /*halves=*/true);
    for (const char* side : {"encoder", "decoder"}) {
        const std::string name = std::string(side) + ".embed_positions.weight";
        if (!w.has(name))
            continue;
        if (!w.take(name, {u64(c.max_len), u64(d)}))
            return false;
        double worst = 0;
        for (int p = 0; p < c.max_len; ++p)
            for (int j = 0; j < d; ++j)
                worst = std::max(worst, double(std::abs(w.buf[std::size_t(p) * d + j] - pe(p, j))));
        if (!(worst <= 1e-5)) {
            w.why = hubText(QT_TRANSLATE_NOOP("as::HubModel", "%1: %2 is not Marian's sinusoidal table (it differs by up to %3): "
                                "this program computes the positions and does not learn them"))
                        .arg(w.file, QString::fromStdString(name)).arg(worst);
            return false;
        }
    }
    const auto linear = [&](const std::string& hub, const std::string& ours, int out, int in) {
        return w.into(hub + ".weight", {u64(out), u64(in)}, ours + ".weight")
               && w.into(hub + ".bias", {u64(out)}, ours + ".bias");
    };
    const auto norm = [&](const std::string& hub, const std::string& ours) {
        return w.into(hub + ".weight", {u64(d)}, ours + ".weight") && w.into(hub + ".bias", {u64(d)}, ours + ".bias");
    };
    for (const bool decoder : {false, true}) {
        const int layers = decoder ? c.decoder_layers : c.encoder_layers;
        for (int i = 0; i < layers; ++i) {
            const std::string side = decoder ? "decoder.layers." : "encoder.layers.";
            const std::string h = side + std::to_string(i) + ".", l = h;
            for (const auto& [hubAttn, ourAttn] : {std::pair{"self_attn", "self_attn"}, std::pair{"encoder_attn", "cross_attn"}}) {
                if (!decoder && std::string_view(hubAttn) == "encoder_attn")
                    continue;
                for (const MarianPart& p : kMarianAttention)
                    if (!linear(h + hubAttn + "." + p.hub, l + ourAttn + "." + p.ours, d, d))
                        return false;
            }
            if (!linear(h + "fc1", l + "ffn.w1", ff, d) || !linear(h + "fc2", l + "ffn.w2", d, ff))
                return false;
            for (const MarianPart& p : decoder ? std::span<const MarianPart>(kMarianDecoder) : std::span<const MarianPart>(kMarianEncoder))
                if (!norm(h + p.hub, l + p.ours))
                    return false;
        }
    }
    return true;
}

}  // namespace

bool isHubModelPath(const QString& path)
{
    const QFileInfo info(path);
    if (!info.isDir()
        && !QStringList{u"config.json"_s, u"model.safetensors"_s, u"pytorch_model.bin"_s}.contains(info.fileName()))
        return false;
    const QDir dir(hubFolderOf(path));
    // config.json alone, named as a file, may be anything's (a lesson): with weights beside it.
    if (info.fileName() == u"config.json"
        && !QFileInfo::exists(dir.filePath(u"model.safetensors"_s))
        && !QFileInfo::exists(dir.filePath(u"pytorch_model.bin"_s)))
        return false;
    return QFileInfo::exists(dir.filePath(u"config.json"_s));
}

std::optional<HubModel> readHubModel(const QString& path, QString* error)
{
    QString why;
    const auto fail = [&](const QString& msg) {
        if (error)
            *error = msg;
        return std::nullopt;
    };
    const QDir dir(hubFolderOf(path));
    const std::optional<QJsonObject> json = hubJsonObject(dir, u"config.json"_s, 1 << 20, &why);
    if (!json)
        return fail(why);
    HubModel m;
    m.family = json->value(u"model_type").toString();
    std::string prefix;
    QString familyName;
    if (m.family == u"marian") {
        std::optional<MarianHubConfig> g = marianHubConfig(*json, &why);
        if (!g)
            return fail(dir.filePath(u"config.json"_s) + u": "_s + why);
        if (!marianPieces(dir, &g->ids, &why))
            return fail(why);
        m.config = g->config;
        m.ids = g->ids;
        m.config.src_vocab = m.config.tgt_vocab = m.ids.engineVocab();
        m.numBeams = g->numBeams;
        m.notes = g->notes;
        prefix = "model.";
        familyName = u"Marian"_s;
    } else {
        // GPT-2's, or the message that names the families this program opens.
        const std::optional<Gpt2HubConfig> g = gpt2HubConfig(*json, &why);
        if (!g)
            return fail(dir.filePath(u"config.json"_s) + u": "_s + why);
        m.family = u"gpt2"_s;
        m.config = g->config;
        m.ids = {g->vocab, g->endOfText};
        m.notes = g->notes;
        prefix = "transformer.";
        familyName = u"GPT-2"_s;
    }

    // The weights: the file named, else model.safetensors, else pytorch_model.bin.
    QString file;
    if (QFileInfo(path).isFile() && !path.endsWith(u"config.json"))
        file = QFileInfo(path).absoluteFilePath();
    for (const char* name : {"model.safetensors", "pytorch_model.bin"})
        if (file.isEmpty() && QFileInfo::exists(dir.filePath(QLatin1String(name))))
            file = dir.filePath(QLatin1String(name));
    if (file.isEmpty())
        return fail(hubText(QT_TRANSLATE_NOOP("as::HubModel", "%1: neither model.safetensors nor pytorch_model.bin is there"))
                        .arg(dir.path()));
    // Too large for this machine: said before a byte of the weights is read.
    if (const QString big = memoryProblem(m.config); !big.isEmpty())
        return fail(file + u": "_s + big);
    std::optional<HubTensorSource> src = hubOpenWeights(file, prefix, &why);
    if (!src)
        return fail(why);

    m.weightsFile = file;
    // The weights go straight into the model: no second copy of them is held.
    m.model = std::make_unique<Transformer<float>>(m.config);
    HubWeights w{*src, file, familyName, m.model->params(), {}, {}, {}};
    if (!(m.family == u"marian" ? readMarianWeights(w, m) : readGpt2Weights(w, m)))
        return fail(w.why);
    for (const std::string& name : src->order)
        if (!w.used.contains(name))
            return fail(hubText(QT_TRANSLATE_NOOP("as::HubModel", "%1: tensor '%2' is not part of %4 of this config.json (%3 layers)"))
                            .arg(file, QString::fromStdString(name))
                            .arg(m.config.decoder_layers)
                            .arg(familyName));
    const ParamStore<float>& ps = m.model->params();
    for (std::size_t i = 0; i < ps.size(); ++i)
        if (!std::isfinite(ps.values()[i]))
            return fail(hubText(QT_TRANSLATE_NOOP("as::HubModel", "%1: a weight is not a finite number")).arg(file));
    return m;
}

std::optional<ModelBundle> loadHubModel(const QString& path, QString* error)
{
    std::optional<HubModel> hub = readHubModel(path, error);
    if (!hub)
        return std::nullopt;
    const auto fail = [&](const QString& msg) {
        if (error)
            *error = msg;
        return std::nullopt;
    };
    const QString dir = hubFolderOf(path);
    QString why;
    if (hub->family == u"marian") {
        // vocab.json's pieces in the engine's ids; source.spm and target.spm cut the text.
        HubIdMap ids = hub->ids;
        const std::optional<QStringList> pieces = marianPieces(QDir(dir), &ids, &why);
        if (!pieces)
            return fail(why);
        QStringList tokens{u"<pad>"_s, u"<s>"_s, u"</s>"_s, u"<unk>"_s};
        for (int id = Vocab::kSpecials; id < hub->config.tgt_vocab; ++id)
            tokens << (*pieces)[ids.toHub(id)];
        ModelBundle b;
        if (!Vocab::fromTokens(tokens, &b.tgtVocab, &why))
            return fail(dir + u"/vocab.json: "_s + why);
        b.srcVocab = b.tgtVocab;
        for (auto [name, side, out] : {std::tuple{u"source.spm"_s, TokenizerKind::MarianSource, &b.srcTok},
                                       std::tuple{u"target.spm"_s, TokenizerKind::MarianTarget, &b.tgtTok}}) {
            QFile f(QDir(dir).filePath(name));
            if (!f.open(QIODevice::ReadOnly))
                return fail(hubText(QT_TRANSLATE_NOOP("as::HubModel", "%1: cannot read %2 (%3)")).arg(dir, name, f.errorString()));
            if (f.size() > (qint64(64) << 20))
                return fail(hubText(QT_TRANSLATE_NOOP("as::HubModel", "%1 is %2 bytes, over the %3 this program reads"))
                                .arg(f.fileName()).arg(f.size()).arg(qint64(64) << 20));
            const std::optional<Tokenizer> t = Tokenizer::marian(side, f.readAll(), &why);
            if (!t)
                return fail(f.fileName() + u": "_s + why);
            *out = *t;
        }
        b.config = hub->config;
        b.model = std::move(hub->model);
        b.provenance.run = QFileInfo(dir).fileName();
        b.numBeams = hub->numBeams;
        b.notes = hub->notes;
        return b;
    }
    std::optional<ByteLevelBpe> bpe = ByteLevelBpe::fromFolder(dir, &why);
    if (!bpe)
        return fail(dir + u": "_s + why);
    if (bpe->size() != hub->ids.vocab || bpe->endOfText() != hub->ids.endOfText)
        return fail(hubText(QT_TRANSLATE_NOOP("as::HubModel", "%1: the tokenizer has %2 entries with <|endoftext|> at %3; config.json says %4 and %5"))
                        .arg(dir).arg(bpe->size()).arg(bpe->endOfText()).arg(hub->ids.vocab)
                        .arg(hub->ids.endOfText));
    // The vocabulary in the engine's ids (HubIdMap): the specials, then the pieces.
    QStringList tokens{u"<pad>"_s, u"<s>"_s, u"</s>"_s, u"<unk>"_s};
    for (int id = Vocab::kSpecials; id < hub->config.tgt_vocab; ++id)
        tokens << bpe->piece(hub->ids.toHub(id));
    ModelBundle b;
    if (!Vocab::fromTokens(tokens, &b.tgtVocab, &why))
        return fail(dir + u": "_s + why);
    b.srcVocab = b.tgtVocab;
    b.srcTok = b.tgtTok = Tokenizer(std::make_shared<const ByteLevelBpe>(std::move(*bpe)));
    b.config = hub->config;
    b.model = std::move(hub->model);
    b.provenance.run = QFileInfo(dir).fileName();
    b.notes = hub->notes;
    return b;
}

namespace {

// Writes a Hub folder: `files` into the sibling FOLDER.partial, renamed to `dir` (new, or an
// empty folder) when every file is there; nothing is left behind on failure.
bool hubWriteFolder(const QString& dir, const std::function<bool(const QDir&, QString*)>& files, QString* error)
{
    QString why;
    const auto fail = [&](const QString& msg) {
        if (error)
            *error = msg;
        return false;
    };
    if (QDir(dir).exists() && !QDir(dir).isEmpty())
        return fail(hubText(QT_TRANSLATE_NOOP("as::HubModel", "%1 is a folder that is not empty: choose a new one")).arg(dir));
    const QFileInfo target(dir);
    const QString partial = target.absoluteFilePath() + u".partial"_s;
    QDir(partial).removeRecursively();
    if (!QDir().mkpath(partial))
        return fail(hubText(QT_TRANSLATE_NOOP("as::HubModel", "cannot make the folder %1")).arg(partial));
    bool ok = files(QDir(partial), &why);
    if (ok && QDir(dir).exists())
        ok = QDir().rmdir(dir) || (why = hubText(QT_TRANSLATE_NOOP("as::HubModel", "cannot replace the empty folder %1")).arg(dir), false);
    if (ok && !QDir().rename(partial, target.absoluteFilePath())) {
        ok = false;
        why = hubText(QT_TRANSLATE_NOOP("as::HubModel", "cannot rename %1 to %2")).arg(partial, dir);
    }
    if (!ok) {
        QDir(partial).removeRecursively();
        return fail(why);
    }
    return true;
}

bool writeMarianHubModel(const ModelBundle& bundle, const QString& dir, QString* error, QString* note);

}  // namespace

bool writeHubModel(const ModelBundle& bundle, const QString& dir, QString* error, QString* note)
{
    if (bundle.srcTok.isMarian())
        return writeMarianHubModel(bundle, dir, error, note);
    const auto fail = [&](const QString& msg) {
        if (error)
            *error = msg;
        return false;
    };
    const ModelConfig& c = bundle.config;
    const ByteLevelBpe* bpe = bundle.tgtTok.byteLevel();
    const bool gpt2 = c.decoderOnly() && c.norm == NormPlacement::Pre
                      && c.position == Position::Learned && c.activation == Activation::GeluTanh
                      && c.tie == Tie::Tgt && !c.generator_bias && c.masked_specials == 0b1011
                      && c.d_ff > 0 && bpe && bpe->endOfText() >= 0
                      && bpe->size() + 3 == c.tgt_vocab;
    if (!gpt2)
        return fail(hubText(QT_TRANSLATE_NOOP("as::HubModel", "only a model opened from a GPT-2 or Marian folder (or fine-tuned from one) can be written in the Hub's layout: this one is %1")).arg(c.spec()));
    const ParamStore<float>& ps = bundle.model->params();
    const int d = c.d_model, ff = c.d_ff, V = bpe->size();
    const HubIdMap ids{V, bpe->endOfText()};
    const auto values = [&](const std::string& name) { return parameterValues(ps, name); };
    // Every tensor in its own buffer, named as transformers names GPT2LMHeadModel's.
    std::vector<std::pair<std::string, std::pair<std::vector<std::uint64_t>, std::vector<float>>>> out;
    const auto add = [&](const std::string& name, std::vector<std::uint64_t> shape, std::vector<float> v) {
        out.push_back({"transformer." + name, {std::move(shape), std::move(v)}});
    };
    const auto u = [](int v) { return std::uint64_t(v); };
    {
        std::vector<float> wte(std::size_t(V) * d);
        const float* e = values("tgt_embed.weight");
        for (int k = 0; k < V; ++k)
            std::copy_n(e + std::size_t(ids.toEngine(k)) * d, d, wte.begin() + std::ptrdiff_t(k) * d);
        if (note && !std::equal(e + d, e + 2 * std::size_t(d), e + 2 * std::size_t(d)))
            *note = hubText(QT_TRANSLATE_NOOP("as::HubModel", "<s>'s embedding row differs from </s>'s (fine-tuning moved them apart); the Hub's layout keeps </s>'s, as <|endoftext|>"));
        add("wte.weight", {u(V), u(d)}, std::move(wte));
    }
    const float* wpe = values("tgt_pos.weight");
    add("wpe.weight", {u(c.max_len), u(d)}, std::vector<float>(wpe, wpe + std::size_t(c.max_len) * d));
    const auto vec = [&](const std::string& name, int n) {
        const float* v = values(name);
        return std::vector<float>(v, v + n);
    };
    // A Linear's [out, in] weight as a Conv1D's [in, out].
    const auto conv = [&](const std::string& name, int in, int outDim) {
        const float* w = values(name);
        std::vector<float> t(std::size_t(in) * outDim);
        for (int r = 0; r < outDim; ++r)
            for (int col = 0; col < in; ++col)
                t[std::size_t(col) * outDim + r] = w[std::size_t(r) * in + col];
        return t;
    };
    for (int i = 0; i < c.decoder_layers; ++i) {
        const std::string h = "h." + std::to_string(i) + ".";
        const std::string l = "decoder.layers." + std::to_string(i) + ".";
        for (const auto& [hub, ours] : kGpt2Norms)
            for (const char* part : {".weight", ".bias"})
                add(h + hub + part, {u(d)}, vec(l + ours + part, d));
        std::vector<float> qkv(std::size_t(d) * 3 * d), qkvBias;
        for (int j = 0; j < 3; ++j) {
            const std::vector<float> t = conv(l + "self_attn." + "qkv"[j] + ".weight", d, d);
            for (int r = 0; r < d; ++r)
                std::copy_n(t.begin() + std::ptrdiff_t(r) * d, d, qkv.begin() + std::ptrdiff_t(r) * 3 * d + j * d);
            const std::vector<float> b = vec(l + "self_attn." + "qkv"[j] + ".bias", d);
            qkvBias.insert(qkvBias.end(), b.begin(), b.end());
        }
        add(h + "attn.c_attn.weight", {u(d), u(3 * d)}, std::move(qkv));
        add(h + "attn.c_attn.bias", {u(3 * d)}, std::move(qkvBias));
        for (const Gpt2Conv& cv : gpt2Convs(d, ff)) {
            add(h + cv.hub + ".weight", {u(cv.in), u(cv.out)}, conv(l + cv.ours + ".weight", cv.in, cv.out));
            add(h + cv.hub + ".bias", {u(cv.out)}, vec(l + cv.ours + ".bias", cv.out));
        }
    }
    for (const char* part : {".weight", ".bias"})
        add(std::string("ln_f") + part, {u(d)}, vec(std::string("decoder.norm") + part, d));
    std::vector<SafetensorsEntry> entries;
    for (const auto& [name, t] : out)
        entries.push_back({name, t.first, t.second.data()});

    const QJsonObject config{
        {"activation_function", "gelu_new"},
        {"architectures", QJsonArray{"GPT2LMHeadModel"}},
        {"attn_pdrop", c.dropout},
        {"bos_token_id", ids.endOfText},
        {"embd_pdrop", c.dropout},
        {"eos_token_id", ids.endOfText},
        {"initializer_range", 0.02},
        {"layer_norm_epsilon", c.norm_eps},
        {"model_type", "gpt2"},
        {"n_ctx", c.max_len},
        {"n_embd", d},
        {"n_head", c.heads},
        {"n_inner", ff == 4 * d ? QJsonValue() : QJsonValue(ff)},
        {"n_layer", c.decoder_layers},
        {"n_positions", c.max_len},
        {"resid_pdrop", c.dropout},
        {"scale_attn_weights", true},
        {"scale_attn_by_inverse_layer_idx", false},
        {"reorder_and_upcast_attn", false},
        {"tie_word_embeddings", true},
        {"vocab_size", V},
    };
    QJsonObject vocab;
    for (int k = 0; k < V; ++k)
        vocab.insert(bpe->piece(k), k);

    return hubWriteFolder(dir, [&](const QDir& p, QString* why) {
        SafetensorsMetadata meta;
        meta.insert(u"format"_s, u"pt"_s);
        return writeSafetensors(p.filePath(u"model.safetensors"_s), entries, meta, why)
               && writeFileAtomically(p.filePath(u"config.json"_s), QJsonDocument(config).toJson(), why)
               && writeFileAtomically(p.filePath(u"vocab.json"_s), QJsonDocument(vocab).toJson(QJsonDocument::Compact), why)
               && writeFileAtomically(p.filePath(u"merges.txt"_s), bpe->mergesText(), why);
    }, error);
}

namespace {

// Marian's layout (core/SPEC.md §8.7) written back: vocab.json as opus-mt's is laid out (</s> 0,
// <unk> 1, the pieces in the engine's order, <pad> last), model.safetensors with
// MarianMTModel's keys ("model." and final_logits_bias; one shared embedding, no embed_tokens,
// lm_head nor embed_positions, as transformers saves a tied model), config.json with
// opus-mt-zh-en's fields, and both SentencePiece models.
bool writeMarianHubModel(const ModelBundle& bundle, const QString& dir, QString* error, QString* note)
{
    const auto fail = [&](const QString& msg) {
        if (error)
            *error = msg;
        return false;
    };
    const ModelConfig& c = bundle.config;
    const bool marian = !c.decoderOnly() && c.norm == NormPlacement::Post
                        && c.position == Position::SinusoidalHalves && c.tie == Tie::All && c.generator_bias
                        && c.masked_specials == 0b0011 && c.d_ff > 0 && c.encoder_layers > 0
                        && bundle.srcTok.kind() == TokenizerKind::MarianSource && bundle.srcTok.ready()
                        && bundle.tgtTok.kind() == TokenizerKind::MarianTarget && bundle.tgtTok.ready()
                        && bundle.srcVocab.tokens() == bundle.tgtVocab.tokens() && c.tgt_vocab == bundle.tgtVocab.size();
    if (!marian)
        return fail(hubText(QT_TRANSLATE_NOOP("as::HubModel", "only a model opened from a GPT-2 or Marian folder (or fine-tuned from one) can be written in the Hub's layout: this one is %1")).arg(c.spec()));
    const ParamStore<float>& ps = bundle.model->params();
    const int d = c.d_model, ff = c.d_ff, V = c.tgt_vocab - 1;
    // The Hub's ids: </s> 0, <unk> 1, the engine's pieces from id 4 on, <pad> last.
    const HubIdMap ids{V, 0, 1, V - 1, V - 1};
    const auto values = [&](const std::string& name) { return parameterValues(ps, name); };
    std::vector<std::pair<std::string, std::pair<std::vector<std::uint64_t>, std::vector<float>>>> out;
    const auto add = [&](const std::string& name, std::vector<std::uint64_t> shape, std::vector<float> v) {
        out.push_back({name, {std::move(shape), std::move(v)}});
    };
    const auto vec = [&](const std::string& name, std::size_t n) {
        const float* v = values(name);
        return std::vector<float>(v, v + n);
    };
    {
        // The pad token's row is the one decoding starts from: the engine's <s>.
        std::vector<float> shared(std::size_t(V) * d), bias(static_cast<std::size_t>(V));
        const float* e = values("src_embed.weight");
        const float* b = values("generator.bias");
        for (int k = 0; k < V; ++k) {
            const int engine = k == ids.pad ? Vocab::kBos : ids.toEngine(k);
            std::copy_n(e + std::size_t(engine) * d, d, shared.begin() + std::ptrdiff_t(k) * d);
            bias[std::size_t(k)] = b[engine];
        }
        if (note && !std::equal(e, e + d, e + d))
            *note = hubText(QT_TRANSLATE_NOOP("as::HubModel", "<s>'s embedding row differs from <pad>'s (fine-tuning moved it); the Hub's layout has one row for both, the pad token's, and keeps <s>'s, where decoding starts"));
        add("model.shared.weight", {std::uint64_t(V), std::uint64_t(d)}, std::move(shared));
        add("final_logits_bias", {1, std::uint64_t(V)}, std::move(bias));
    }
    for (const bool decoder : {false, true}) {
        const int layers = decoder ? c.decoder_layers : c.encoder_layers;
        for (int i = 0; i < layers; ++i) {
            const std::string l = (decoder ? "decoder.layers." : "encoder.layers.") + std::to_string(i) + ".";
            const std::string h = "model." + l;
            for (const auto& [hubAttn, ourAttn] : {std::pair{"self_attn", "self_attn"}, std::pair{"encoder_attn", "cross_attn"}}) {
                if (!decoder && std::string_view(hubAttn) == "encoder_attn")
                    continue;
                for (const MarianPart& p : kMarianAttention) {
                    add(h + hubAttn + "." + p.hub + ".weight", {std::uint64_t(d), std::uint64_t(d)},
                        vec(l + ourAttn + "." + p.ours + ".weight", std::size_t(d) * d));
                    add(h + hubAttn + "." + p.hub + ".bias", {std::uint64_t(d)}, vec(l + ourAttn + "." + p.ours + ".bias", std::size_t(d)));
                }
            }
            add(h + "fc1.weight", {std::uint64_t(ff), std::uint64_t(d)}, vec(l + "ffn.w1.weight", std::size_t(ff) * d));
            add(h + "fc1.bias", {std::uint64_t(ff)}, vec(l + "ffn.w1.bias", std::size_t(ff)));
            add(h + "fc2.weight", {std::uint64_t(d), std::uint64_t(ff)}, vec(l + "ffn.w2.weight", std::size_t(ff) * d));
            add(h + "fc2.bias", {std::uint64_t(d)}, vec(l + "ffn.w2.bias", std::size_t(d)));
            for (const MarianPart& p : decoder ? std::span<const MarianPart>(kMarianDecoder) : std::span<const MarianPart>(kMarianEncoder))
                for (const char* part : {".weight", ".bias"})
                    add(h + p.hub + part, {std::uint64_t(d)}, vec(l + p.ours + part, std::size_t(d)));
        }
    }
    std::vector<SafetensorsEntry> entries;
    for (const auto& [name, t] : out)
        entries.push_back({name, t.first, t.second.data()});

    const QString act = c.activation == Activation::Silu ? u"swish"_s
                        : c.activation == Activation::Relu ? u"relu"_s : u"gelu_new"_s;
    const QJsonObject config{
        {"activation_dropout", 0.0},
        {"activation_function", act},
        {"add_bias_logits", false},
        {"add_final_layer_norm", false},
        {"architectures", QJsonArray{"MarianMTModel"}},
        {"attention_dropout", 0.0},
        {"bad_words_ids", QJsonArray{QJsonArray{ids.pad}}},
        {"bos_token_id", 0},
        {"d_model", d},
        {"decoder_attention_heads", c.heads},
        {"decoder_ffn_dim", ff},
        {"decoder_layers", c.decoder_layers},
        {"decoder_start_token_id", ids.pad},
        {"decoder_vocab_size", V},
        {"dropout", c.dropout},
        {"encoder_attention_heads", c.heads},
        {"encoder_ffn_dim", ff},
        {"encoder_layers", c.encoder_layers},
        {"eos_token_id", 0},
        {"forced_eos_token_id", 0},
        {"is_encoder_decoder", true},
        {"max_length", c.max_len},
        {"max_position_embeddings", c.max_len},
        {"model_type", "marian"},
        {"normalize_before", false},
        {"normalize_embedding", false},
        {"num_beams", 4},
        {"num_hidden_layers", c.encoder_layers},
        {"pad_token_id", ids.pad},
        {"scale_embedding", true},
        {"share_encoder_decoder_embeddings", true},
        {"static_position_embeddings", true},
        {"tie_word_embeddings", true},
        {"vocab_size", V},
    };
    QJsonObject vocab;
    for (int k = 0; k < V; ++k) {
        const int engine = ids.toEngine(k);
        vocab.insert(k == ids.pad ? u"<pad>"_s : bundle.tgtVocab.token(engine), k);
    }
    if (vocab.size() != V)
        return fail(hubText(QT_TRANSLATE_NOOP("as::HubModel", "the vocabulary has a piece twice: it cannot be a vocab.json")));
    return hubWriteFolder(dir, [&](const QDir& p, QString* why) {
        SafetensorsMetadata meta;
        meta.insert(u"format"_s, u"pt"_s);
        return writeSafetensors(p.filePath(u"model.safetensors"_s), entries, meta, why)
               && writeFileAtomically(p.filePath(u"config.json"_s), QJsonDocument(config).toJson(), why)
               && writeFileAtomically(p.filePath(u"vocab.json"_s), QJsonDocument(vocab).toJson(QJsonDocument::Compact), why)
               && writeFileAtomically(p.filePath(u"source.spm"_s), bundle.srcTok.modelProto(), why)
               && writeFileAtomically(p.filePath(u"target.spm"_s), bundle.tgtTok.modelProto(), why);
    }, error);
}

}  // namespace

}  // namespace as
