// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/config.h"

#include "model/memory.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonValue>
#include <QLocale>
#include <QStringList>

#include <cmath>

namespace as {

namespace {
// The special tokens' names by id (core/SPEC.md §1.1), as masked_specials lists them.
constexpr const char* kSpecialNames[4] = {"<pad>", "<s>", "</s>", "<unk>"};
}  // namespace

// The messages are English unless a translation is installed (the window's, language.h; the
// command line installs none): QCoreApplication::translate, context "as::ModelConfig".
QString ModelConfig::validate() const
{
    const auto text = [](const char* s) { return QCoreApplication::translate("as::ModelConfig", s); };
    if (d_model <= 0 || heads <= 0)
        return text(QT_TRANSLATE_NOOP("as::ModelConfig", "d_model and heads must be positive"));
    if (d_model % heads != 0)
        return text(QT_TRANSLATE_NOOP("as::ModelConfig", "d_model (%1) must be a multiple of heads (%2)"))
            .arg(d_model)
            .arg(heads);
    if (d_model % 2 != 0 && position != Position::Learned)
        return text(QT_TRANSLATE_NOOP("as::ModelConfig",
                                      "d_model (%1) must be even for the sinusoidal positional encoding"))
            .arg(d_model);
    if (d_ff < 0)
        return text(QT_TRANSLATE_NOOP("as::ModelConfig",
                                      "d_ff must be positive, or 0 for attention-only layers"));
    if (decoderOnly()) {
        if (encoder_layers != 0)
            return text(QT_TRANSLATE_NOOP("as::ModelConfig",
                                          "a decoder-only model has no encoder: encoder_layers must be 0"));
        if (decoder_layers < 1)
            return text(QT_TRANSLATE_NOOP("as::ModelConfig", "the decoder needs at least one layer"));
        if (tie == Tie::All)
            return text(QT_TRANSLATE_NOOP("as::ModelConfig",
                                          "a decoder-only model has one embedding: tie=all has nothing "
                                          "more to share than tie=tgt"));
        if (src_vocab != tgt_vocab)
            return text(QT_TRANSLATE_NOOP("as::ModelConfig",
                                          "a decoder-only model has one vocabulary (src_vocab = tgt_vocab)"));
    } else if (encoder_layers < 1 || decoder_layers < 1) {
        return text(QT_TRANSLATE_NOOP("as::ModelConfig",
                                      "the encoder and the decoder need at least one layer each"));
    }
    if (!(dropout >= 0.0 && dropout < 1.0))
        return text(QT_TRANSLATE_NOOP("as::ModelConfig", "dropout must be in [0, 1)"));
    if (!(norm_eps > 0.0 && norm_eps < 1.0))
        return text(QT_TRANSLATE_NOOP("as::ModelConfig", "norm_eps must be in (0, 1)"));
    if (!(label_smoothing >= 0.0 && label_smoothing < 1.0))
        return text(QT_TRANSLATE_NOOP("as::ModelConfig", "label_smoothing must be in [0, 1)"));
    // The smoothed target would put probability on a masked logit (§3.1).
    if (masked_specials != 0 && label_smoothing != 0.0)
        return text(QT_TRANSLATE_NOOP("as::ModelConfig", "label_smoothing must be 0 for a model with masked special ids (an imported model)"));
    if (masked_specials & (1u << 2))
        return text(QT_TRANSLATE_NOOP("as::ModelConfig", "masked_specials cannot hold </s>: a model must be able to end its text"));
    if (max_len < 1)
        return text(QT_TRANSLATE_NOOP("as::ModelConfig", "max_len must be at least 1"));
    if (src_vocab < 5 || tgt_vocab < 5)
        return text(QT_TRANSLATE_NOOP("as::ModelConfig",
                                      "each vocabulary needs the 4 special tokens and at least one more"));
    if (tie == Tie::All && src_vocab != tgt_vocab)
        return text(QT_TRANSLATE_NOOP("as::ModelConfig",
                                      "tie=all shares one embedding between source and target: it "
                                      "needs a shared vocabulary (--shared-vocab), here %1 source "
                                      "and %2 target tokens"))
            .arg(src_vocab)
            .arg(tgt_vocab);
    // Before anything is allocated: a model the machine cannot hold is refused with the figures.
    return memoryProblem(*this);
}

QString ModelConfig::sharedVocabularyNeeded()
{
    return QCoreApplication::translate(
        "as::ModelConfig",
        "tie=all shares one embedding between source and target: it needs one vocabulary for "
        "both sides (--shared-vocab)");
}

QString archName(Arch arch)
{
    return arch == Arch::DecoderOnly ? QStringLiteral("decoder-only")
                                     : QStringLiteral("encoder-decoder");
}

QString positionName(Position position)
{
    switch (position) {
    case Position::Learned:
        return QStringLiteral("learned");
    case Position::SinusoidalHalves:
        return QStringLiteral("sinusoidal-halves");
    case Position::Sinusoidal:
        break;
    }
    return QStringLiteral("sinusoidal");
}

std::optional<Position> positionFromName(const QString& name)
{
    for (Position p : {Position::Sinusoidal, Position::Learned, Position::SinusoidalHalves})
        if (name == positionName(p))
            return p;
    return std::nullopt;
}

QString activationName(Activation activation)
{
    switch (activation) {
    case Activation::GeluTanh: return QStringLiteral("gelu-tanh");
    case Activation::Silu: return QStringLiteral("silu");
    case Activation::Relu: break;
    }
    return QStringLiteral("relu");
}

std::optional<Activation> activationFromName(const QString& name)
{
    for (Activation a : {Activation::Relu, Activation::GeluTanh, Activation::Silu})
        if (name == activationName(a))
            return a;
    return std::nullopt;
}

std::optional<Arch> archFromName(const QString& name)
{
    for (Arch a : {Arch::EncoderDecoder, Arch::DecoderOnly})
        if (name == archName(a))
            return a;
    return std::nullopt;
}

QString tieName(Tie tie)
{
    switch (tie) {
    case Tie::None: return QStringLiteral("none");
    case Tie::Tgt: return QStringLiteral("tgt");
    case Tie::All: return QStringLiteral("all");
    }
    return {};
}

std::optional<Tie> tieFromName(const QString& name)
{
    for (Tie t : {Tie::None, Tie::Tgt, Tie::All})
        if (name == tieName(t))
            return t;
    return std::nullopt;
}

std::string ModelConfig::storedName(const std::string& name) const
{
    if (tie == Tie::None)
        return name;
    if (name == "generator.weight")
        return tie == Tie::All ? "src_embed.weight" : "tgt_embed.weight";
    if (name == "tgt_embed.weight" && tie == Tie::All)
        return "src_embed.weight";
    return name;
}

double ModelConfig::tiedWeights() const
{
    const double d = d_model;
    switch (tie) {
    case Tie::None: return 0;
    case Tie::Tgt: return double(tgt_vocab) * d;
    case Tie::All: return 2.0 * double(tgt_vocab) * d;  // the target embedding and the generator
    }
    return 0;
}

QJsonObject ModelConfig::toJson() const
{
    QJsonObject json{{"d_model", d_model},
                       {"heads", heads},
                       {"d_ff", d_ff},
                       {"encoder_layers", encoder_layers},
                       {"decoder_layers", decoder_layers},
                       {"dropout", dropout},
                       {"label_smoothing", label_smoothing},
                       {"norm", norm == NormPlacement::Pre ? "pre" : "post"},
                       {"max_len", max_len}};
    // Untied: no key, as files were before tying existed (they load as "none").
    if (tie != Tie::None)
        json.insert("tie", tieName(tie));
    // Encoder–decoder: no key, as files were before decoder-only models existed.
    if (decoderOnly())
        json.insert("arch", archName(arch));
    // Sinusoidal: no key, as files were before learned positions existed.
    if (position != Position::Sinusoidal)
        json.insert("position", positionName(position));
    // 1e-6: no key, as files were before the ε could be set.
    if (norm_eps != 1e-6)
        json.insert("norm_eps", norm_eps);
    // ReLU, and a generator with its bias: no keys, as files were before either could be set.
    if (activation != Activation::Relu)
        json.insert("activation", activationName(activation));
    if (!generator_bias)
        json.insert("generator_bias", false);
    if (masked_specials != 0) {
        QJsonArray names;
        for (int id = 0; id < 4; ++id)
            if (masked_specials & (1u << id))
                names.append(QString::fromLatin1(kSpecialNames[id]));
        json.insert("masked_specials", names);
    }
    return json;
}

std::optional<ModelConfig> ModelConfig::fromJson(const QJsonObject& json, QString* error,
                                                 const ModelConfig& base)
{
    ModelConfig c = base;
    auto fail = [&](const QString& msg) {
        if (error)
            *error = msg;
        return std::nullopt;
    };
    struct IntKey {
        const char* name;
        int* field;
    };
    for (IntKey k : {IntKey{"d_model", &c.d_model}, {"heads", &c.heads}, {"d_ff", &c.d_ff},
                     {"encoder_layers", &c.encoder_layers}, {"decoder_layers", &c.decoder_layers},
                     {"max_len", &c.max_len}, {"src_vocab", &c.src_vocab},
                     {"tgt_vocab", &c.tgt_vocab}}) {
        if (!json.contains(k.name))
            continue;
        const QJsonValue v = json.value(k.name);
        const double d = v.toDouble(-1.0);
        if (!v.isDouble() || d != double(int(d)) || d < 0 || d > 1e8)
            return fail(QCoreApplication::translate("as::ModelConfig", "config: '%1' must be a non-negative whole number").arg(k.name));
        *k.field = int(d);
    }
    for (auto [name, field] : {std::pair{"dropout", &c.dropout},
                               std::pair{"label_smoothing", &c.label_smoothing},
                               std::pair{"norm_eps", &c.norm_eps}}) {
        if (!json.contains(name))
            continue;
        if (!json.value(name).isDouble())
            return fail(QCoreApplication::translate("as::ModelConfig", "config: '%1' must be a number").arg(name));
        *field = json.value(name).toDouble();
    }
    if (json.contains("norm")) {
        const QString n = json.value("norm").toString();
        if (n == "pre")
            c.norm = NormPlacement::Pre;
        else if (n == "post")
            c.norm = NormPlacement::Post;
        else
            return fail(QCoreApplication::translate("as::ModelConfig", "config: 'norm' must be \"pre\" or \"post\""));
    }
    if (json.contains("tie")) {
        const std::optional<Tie> t = tieFromName(json.value("tie").toString());
        if (!t)
            return fail(QCoreApplication::translate("as::ModelConfig", "config: 'tie' must be \"none\", \"tgt\" or \"all\""));
        c.tie = *t;
    }
    if (json.contains("position")) {
        const std::optional<Position> p = positionFromName(json.value("position").toString());
        if (!p)
            return fail(QCoreApplication::translate("as::ModelConfig", "config: 'position' must be \"sinusoidal\", \"learned\" or \"sinusoidal-halves\""));
        c.position = *p;
    }
    if (json.contains("activation")) {
        const std::optional<Activation> a = activationFromName(json.value("activation").toString());
        if (!a)
            return fail(QCoreApplication::translate("as::ModelConfig", "config: 'activation' must be \"relu\", \"gelu-tanh\" or \"silu\""));
        c.activation = *a;
    }
    if (json.contains("generator_bias")) {
        if (!json.value("generator_bias").isBool())
            return fail(QCoreApplication::translate("as::ModelConfig", "config: 'generator_bias' must be true or false"));
        c.generator_bias = json.value("generator_bias").toBool();
    }
    if (json.contains("masked_specials")) {
        const QJsonValue v = json.value("masked_specials");
        c.masked_specials = 0;
        bool ok = v.isArray();
        for (const QJsonValue& name : v.toArray()) {
            int id = 0;
            while (id < 4 && name.toString() != QLatin1String(kSpecialNames[id]))
                ++id;
            ok = ok && name.isString() && id < 4;
            if (ok)
                c.masked_specials |= std::uint8_t(1u << id);
        }
        if (!ok)
            return fail(QCoreApplication::translate("as::ModelConfig", "config: 'masked_specials' must be a list of \"<pad>\", \"<s>\", \"</s>\", \"<unk>\""));
    }
    if (json.contains("arch")) {
        const std::optional<Arch> a = archFromName(json.value("arch").toString());
        if (!a)
            return fail(QCoreApplication::translate("as::ModelConfig", "config: 'arch' must be \"encoder-decoder\" or \"decoder-only\""));
        // A preset's encoder is dropped when the architecture has none (tiny,arch=decoder-only);
        // back to encoder–decoder, a missing encoder gets as many layers as the decoder.
        if (*a == Arch::DecoderOnly && c.arch != *a && !json.contains("encoder_layers"))
            c.encoder_layers = 0;
        if (*a == Arch::EncoderDecoder && c.encoder_layers == 0 && !json.contains("encoder_layers"))
            c.encoder_layers = c.decoder_layers;
        c.arch = *a;
    }
    return c;
}

QStringList ModelConfig::presetNames()
{
    return {QStringLiteral("tiny"), QStringLiteral("small"), QStringLiteral("base")};
}

std::optional<ModelConfig> ModelConfig::preset(const QString& name)
{
    ModelConfig c;
    if (name == "tiny") {
        c.d_model = 128; c.heads = 4; c.d_ff = 512; c.encoder_layers = c.decoder_layers = 2;
    } else if (name == "small") {
        c.d_model = 256; c.heads = 8; c.d_ff = 1024; c.encoder_layers = c.decoder_layers = 3;
    } else if (name == "base") {
        c.d_model = 512; c.heads = 8; c.d_ff = 2048; c.encoder_layers = c.decoder_layers = 6;
    } else {
        return std::nullopt;
    }
    return c;
}

namespace {
// The keys a spec takes after (or instead of) a preset.
const QStringList kSpecKeys = {"d_model", "heads", "d_ff", "encoder_layers", "decoder_layers",
                               "dropout", "label_smoothing", "norm", "max_len", "tie", "arch",
                               "position", "norm_eps", "activation", "generator_bias"};
}  // namespace

QString ModelConfig::spec() const
{
    QStringList parts;
    const QJsonObject json = toJson();
    for (const QString& key : kSpecKeys)
        parts << key + u'=' + (key == u"tie"    ? tieName(tie)
                               : key == u"arch" ? archName(arch)
                               : key == u"position" ? positionName(position)
                               : key == u"norm_eps" ? QString::number(norm_eps, 'g', QLocale::FloatingPointShortest)
                               : key == u"activation" ? activationName(activation)
                               : key == u"generator_bias" ? (generator_bias ? QStringLiteral("true") : QStringLiteral("false"))
                                                : json.value(key).toVariant().toString());
    return parts.join(u',');
}

std::optional<ModelConfig> ModelConfig::fromSpec(const QString& spec, QString* error,
                                                 const ModelConfig& base)
{
    ModelConfig c = base;
    QJsonObject json;
    for (const QString& part : spec.split(u',', Qt::SkipEmptyParts)) {
        const qsizetype eq = part.indexOf(u'=');
        if (eq < 0) {
            auto p = preset(part.trimmed());
            if (!p) {
                *error = QStringLiteral("--config: '%1' is neither tiny, small, base nor key=value").arg(part);
                return std::nullopt;
            }
            c = *p;
            continue;
        }
        const QString key = part.left(eq).trimmed(), value = part.mid(eq + 1).trimmed();
        bool isNumber = false;
        const double num = value.toDouble(&isNumber);
        if (isNumber && !std::isfinite(num)) {  // nan, inf: never a size nor a rate
            *error = QStringLiteral("--config: %1=%2 is not a finite number").arg(key, value);
            return std::nullopt;
        }
        if (value == u"true" || value == u"false")  // generator_bias
            json.insert(key, value == u"true");
        else
            json.insert(key, isNumber ? QJsonValue(num) : QJsonValue(value));
    }
    for (const QString& k : json.keys())
        if (!kSpecKeys.contains(k)) {
            *error = QStringLiteral("--config: unknown key '%1' (known: %2)").arg(k, kSpecKeys.join(", "));
            return std::nullopt;
        }
    return fromJson(json, error, c);
}

}  // namespace as
