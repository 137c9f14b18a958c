// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "io/hub_model.h"

#include "io/atomic_file.h"
#include "io/safetensors.h"
#include "io/torch_file.h"
#include "model/memory.h"
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
#include <map>
#include <memory>
#include <set>

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

std::string hubStripPrefix(const std::string& name)
{
    static const std::string prefix = "transformer.";
    return name.starts_with(prefix) ? name.substr(prefix.size()) : name;
}

bool hubAddEntry(HubTensorSource& src, const std::string& fileName,
                 std::vector<std::uint64_t> shape, std::function<void(std::vector<float>&)> read,
                 QString* error)
{
    const std::string name = hubStripPrefix(fileName);
    if (src.entries.contains(name)) {
        *error = hubText(QT_TRANSLATE_NOOP("as::HubModel", "tensor '%1' is in the file twice (with and without 'transformer.')"))
                     .arg(QString::fromStdString(name));
        return false;
    }
    src.entries[name] = {std::move(shape), std::move(read)};
    src.order.push_back(name);
    return true;
}

std::optional<HubTensorSource> hubOpenWeights(const QString& file, QString* error)
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
            if (!hubAddEntry(src, t.name, t.shape,
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
            if (!hubAddEntry(src, t.name, t.shape,
                             [tp](std::vector<float>& out) { out = tp->values; }, error))
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
        return fail(hubText(QT_TRANSLATE_NOOP("as::HubModel", "config.json: model_type '%1' is not one this program opens (gpt2)"))
                        .arg(type));
    // What the engine cannot compute, refused by name (core/SPEC.md §8.6).
    const QString act = json.value(u"activation_function").toString(u"gelu_new"_s);
    if (act != u"gelu_new" && act != u"gelu_pytorch_tanh")
        return fail(hubText(QT_TRANSLATE_NOOP("as::HubModel", "config.json: activation_function '%1' is not GPT-2's tanh GELU "
                            "(gelu_new), the one this program computes"))
                        .arg(act));
    struct Refused {
        const char* key;
        bool refusedWhen;  // the value that cannot be computed
        const char* why;
    };
    for (const Refused& r : {Refused{"scale_attn_by_inverse_layer_idx", true,
                                     QT_TRANSLATE_NOOP("as::HubModel", "attention scaled by 1/(layer + 1)")},
                             Refused{"reorder_and_upcast_attn", true,
                                     QT_TRANSLATE_NOOP("as::HubModel", "attention reordered and upcast")},
                             Refused{"add_cross_attention", true,
                                     QT_TRANSLATE_NOOP("as::HubModel", "cross-attention in GPT-2's blocks")},
                             Refused{"scale_attn_weights", false,
                                     QT_TRANSLATE_NOOP("as::HubModel", "attention scores not scaled by 1/√head_dim")},
                             Refused{"tie_word_embeddings", false,
                                     QT_TRANSLATE_NOOP("as::HubModel", "a head not tied to the token embedding")}}) {
        const QJsonValue v = json.value(QLatin1String(r.key));
        if (!v.isUndefined() && !v.isNull() && (!v.isBool() || v.toBool() == r.refusedWhen))
            return fail(hubText(QT_TRANSLATE_NOOP("as::HubModel", "config.json: %1 = %2 asks for %3, which this program does not compute"))
                            .arg(QLatin1String(r.key),
                                 v.isBool() ? (v.toBool() ? u"true"_s : u"false"_s) : v.toVariant().toString(),
                                 hubText(r.why)));
    }
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

namespace {

QString hubFolderOf(const QString& path)
{
    const QFileInfo info(path);
    return info.isDir() ? info.absoluteFilePath() : info.absolutePath();
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
    QFile cf(dir.filePath(u"config.json"_s));
    if (!cf.open(QIODevice::ReadOnly))
        return fail(hubText(QT_TRANSLATE_NOOP("as::HubModel", "%1: cannot read config.json (%2)")).arg(dir.path(), cf.errorString()));
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(cf.read(1 << 20), &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject())
        return fail(hubText(QT_TRANSLATE_NOOP("as::HubModel", "%1: config.json is not a JSON object (%2)"))
                        .arg(cf.fileName(), pe.errorString()));
    const std::optional<Gpt2HubConfig> g = gpt2HubConfig(doc.object(), &why);
    if (!g)
        return fail(dir.filePath(u"config.json"_s) + u": "_s + why);

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
    if (const QString big = memoryProblem(g->config); !big.isEmpty())
        return fail(file + u": "_s + big);
    std::optional<HubTensorSource> src = hubOpenWeights(file, &why);
    if (!src)
        return fail(why);

    HubModel m;
    m.family = u"gpt2"_s;
    m.weightsFile = file;
    m.config = g->config;
    m.ids = {g->vocab, g->endOfText};
    m.notes = g->notes;
    // The weights go straight into the model: no second copy of them is held.
    m.model = std::make_unique<Transformer<float>>(m.config);
    ParamStore<float>& ps = m.model->params();
    const int d = m.config.d_model, V = g->vocab;
    std::set<std::string> used;
    std::vector<float> buf;

    // Reads the Hub tensor `name` of `shape` into buf, or says what is wrong.
    const auto take = [&](const std::string& name, std::vector<std::uint64_t> shape) -> bool {
        const auto it = src->entries.find(name);
        if (it == src->entries.end()) {
            why = hubText(QT_TRANSLATE_NOOP("as::HubModel", "%1: tensor '%2' is missing")).arg(file, QString::fromStdString(name));
            return false;
        }
        if (it->second.shape != shape) {
            why = hubText(QT_TRANSLATE_NOOP("as::HubModel", "%1: tensor '%2' is %3, GPT-2 of this config.json has %4"))
                      .arg(file, QString::fromStdString(name), shapeText(it->second.shape),
                           shapeText(shape));
            return false;
        }
        it->second.read(buf);
        used.insert(name);
        return true;
    };
    const auto dest = [&](const std::string& name) {
        const ParamInfo* p = ps.find(name);
        if (!p)
            throw std::logic_error("hub model: no parameter " + name);
        return ps.values() + p->offset;
    };
    // out[r][c] = in[c][col0 + r] for r < rows, c < cols: a Conv1D weight ([in, out]) as a
    // Linear's ([out, in]), columns col0 … col0 + rows of it.
    const auto transposed = [&](float* out, int inRows, int inCols, int col0, int rows) {
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < inRows; ++c)
                out[std::size_t(r) * inRows + c] = buf[std::size_t(c) * inCols + col0 + r];
    };
    const auto copy = [&](float* out, std::size_t from, std::size_t n) {
        std::memcpy(out, buf.data() + from, n * sizeof(float));
    };
    const auto u = [](int v) { return std::uint64_t(v); };

    // Token embeddings, rows mapped (Gpt2IdMap); <pad> and <unk> rows zero.
    if (!take("wte.weight", {u(V), u(d)}))
        return fail(why);
    {
        float* e = dest("tgt_embed.weight");
        std::fill(e, e + std::size_t(V + 3) * d, 0.0f);
        for (int k = 0; k < V; ++k)
            copy(e + std::size_t(m.ids.toEngine(k)) * d, std::size_t(k) * d, std::size_t(d));
        copy(e + std::size_t(1) * d, std::size_t(g->endOfText) * d, std::size_t(d));  // <s>
    }
    if (const auto it = src->entries.find("lm_head.weight"); it != src->entries.end()) {
        const std::vector<float> wte = buf;
        if (!take("lm_head.weight", {u(V), u(d)}))
            return fail(why);
        if (buf != wte)
            return fail(hubText(QT_TRANSLATE_NOOP("as::HubModel", "%1: lm_head.weight differs from wte.weight: GPT-2's head is the "
                                "token embedding (tied), and this program computes only that"))
                            .arg(file));
    }
    if (!take("wpe.weight", {u(m.config.max_len), u(d)}))
        return fail(why);
    copy(dest("tgt_pos.weight"), 0, buf.size());
    const int ff = m.config.d_ff;
    for (int i = 0; i < m.config.decoder_layers; ++i) {
        const std::string h = "h." + std::to_string(i) + ".";
        const std::string l = "decoder.layers." + std::to_string(i) + ".";
        for (const auto& [hub, ours] : kGpt2Norms)
            for (const char* part : {".weight", ".bias"}) {
                if (!take(h + hub + part, {u(d)}))
                    return fail(why);
                copy(dest(l + ours + part), 0, std::size_t(d));
            }
        if (!take(h + "attn.c_attn.weight", {u(d), u(3 * d)}))
            return fail(why);
        for (int j = 0; j < 3; ++j)
            transposed(dest(l + "self_attn." + "qkv"[j] + ".weight"), d, 3 * d, j * d, d);
        if (!take(h + "attn.c_attn.bias", {u(3 * d)}))
            return fail(why);
        for (int j = 0; j < 3; ++j)
            copy(dest(l + "self_attn." + "qkv"[j] + ".bias"), std::size_t(j) * d, std::size_t(d));
        for (const Gpt2Conv& cv : gpt2Convs(d, ff)) {
            if (!take(h + cv.hub + ".weight", {u(cv.in), u(cv.out)}))
                return fail(why);
            transposed(dest(l + cv.ours + ".weight"), cv.in, cv.out, 0, cv.out);
            if (!take(h + cv.hub + ".bias", {u(cv.out)}))
                return fail(why);
            copy(dest(l + cv.ours + ".bias"), 0, std::size_t(cv.out));
        }
        // The causal mask and its fill value, as older transformers saved them: computed here.
        for (const char* buffer : {"attn.bias", "attn.masked_bias"})
            if (src->entries.contains(h + buffer))
                used.insert(h + buffer);
    }
    for (const char* part : {".weight", ".bias"}) {
        if (!take(std::string("ln_f") + part, {u(d)}))
            return fail(why);
        copy(dest(std::string("decoder.norm") + part), 0, std::size_t(d));
    }
    for (const std::string& name : src->order)
        if (!used.contains(name))
            return fail(hubText(QT_TRANSLATE_NOOP("as::HubModel", "%1: tensor '%2' is not part of GPT-2 of this config.json (%3 layers)"))
                            .arg(file, QString::fromStdString(name))
                            .arg(m.config.decoder_layers));
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
    std::optional<ByteLevelBpe> bpe = ByteLevelBpe::fromFolder(dir, &why);
    if (!bpe)
        return fail(dir + u": "_s + why);
    if (bpe->size() != hub->ids.vocab || bpe->endOfText() != hub->ids.endOfText)
        return fail(hubText(QT_TRANSLATE_NOOP("as::HubModel", "%1: the tokenizer has %2 entries with <|endoftext|> at %3; config.json says %4 and %5"))
                        .arg(dir).arg(bpe->size()).arg(bpe->endOfText()).arg(hub->ids.vocab)
                        .arg(hub->ids.endOfText));
    // The vocabulary in the engine's ids (Gpt2IdMap): the specials, then the pieces.
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

bool writeHubModel(const ModelBundle& bundle, const QString& dir, QString* error, QString* note)
{
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
        return fail(hubText(QT_TRANSLATE_NOOP("as::HubModel", "only a model opened from a GPT-2 folder (or fine-tuned from one) can be written in the Hub's layout: this one is %1")).arg(c.spec()));
    if (QDir(dir).exists() && !QDir(dir).isEmpty())
        return fail(hubText(QT_TRANSLATE_NOOP("as::HubModel", "%1 is a folder that is not empty: choose a new one")).arg(dir));
    const ParamStore<float>& ps = bundle.model->params();
    const int d = c.d_model, ff = c.d_ff, V = bpe->size();
    const Gpt2IdMap ids{V, bpe->endOfText()};
    const auto values = [&](const std::string& name) {
        const ParamInfo* p = ps.find(name);
        if (!p)
            throw std::logic_error("hub model: no parameter " + name);
        return ps.values() + p->offset;
    };
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

    // Into a sibling folder, renamed into place when every file is there.
    const QFileInfo target(dir);
    const QString partial = target.absoluteFilePath() + u".partial"_s;
    QDir(partial).removeRecursively();
    if (!QDir().mkpath(partial))
        return fail(hubText(QT_TRANSLATE_NOOP("as::HubModel", "cannot make the folder %1")).arg(partial));
    QString why;
    SafetensorsMetadata meta;
    meta.insert(u"format"_s, u"pt"_s);
    const QDir p(partial);
    bool ok = writeSafetensors(p.filePath(u"model.safetensors"_s), entries, meta, &why)
              && writeFileAtomically(p.filePath(u"config.json"_s), QJsonDocument(config).toJson(), &why)
              && writeFileAtomically(p.filePath(u"vocab.json"_s), QJsonDocument(vocab).toJson(QJsonDocument::Compact), &why)
              && writeFileAtomically(p.filePath(u"merges.txt"_s), bpe->mergesText(), &why);
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

}  // namespace as
