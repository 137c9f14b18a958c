// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <string>

namespace as {

enum class NormPlacement { Pre, Post };  // Pre: The Annotated Transformer; Post: the 2017 paper

// Weight tying (core/SPEC.md §2.6, the paper's §3.4): none; the generator's weight is the target
// embedding (tgt); the source embedding is that matrix too (all: one shared vocabulary).
enum class Tie { None, Tgt, All };

// The architecture (core/SPEC.md §2.10): the 2017 paper's encoder–decoder, or a decoder-only
// language model (GPT): decoder layers without cross-attention, no encoder, one vocabulary.
enum class Arch { EncoderDecoder, DecoderOnly };
// Sinusoidal: the paper's fixed encodings, embeddings scaled by sqrt(d_model) (core/SPEC.md §2.1).
// Learned: GPT-2's table of max_len positions, a parameter, embeddings unscaled (§2.11).
// SinusoidalHalves: Marian's sinusoids, the same numbers with the sines in the first half of
// the columns and the cosines in the second (§2.13); embeddings scaled by sqrt(d_model).
enum class Position { Sinusoidal, Learned, SinusoidalHalves };
// The feed-forward's nonlinearity (core/SPEC.md §2.3): the paper's ReLU; GPT-2's tanh
// approximation of GELU ("gelu_new"); SiLU, x·σ(x) (Marian's "swish").
enum class Activation { Relu, GeluTanh, Silu };

struct ModelConfig {
    int src_vocab = 0, tgt_vocab = 0;  // set from the vocabularies
    int d_model = 256;
    int heads = 8;
    int d_ff = 1024;
    int encoder_layers = 3;
    int decoder_layers = 3;
    double dropout = 0.1;
    double label_smoothing = 0.1;
    NormPlacement norm = NormPlacement::Pre;
    int max_len = 256;  // longest sequence decoded (and the positional-encoding range)
    Tie tie = Tie::None;
    // Decoder-only: encoder_layers is 0 and src_vocab equals tgt_vocab (the one vocabulary).
    Arch arch = Arch::EncoderDecoder;
    Position position = Position::Sinusoidal;
    double norm_eps = 1e-6;  // every LayerNorm's ε (core/SPEC.md §2.4; GPT-2's is 1e-5)
    Activation activation = Activation::Relu;
    // The generator's bias (§2.6): ours have one; GPT-2's head (its tied wte) has none.
    bool generator_bias = true;
    // Special ids (core/SPEC.md §1.1) an imported model has no output for (§2.6, §8.6): bit i
    // for id i. Their logits are set to −10⁹ wherever logits are made: never predicted, no
    // probability. GPT-2 (its <|endoftext|> is </s>) has no <pad>, <s> nor <unk> to predict.
    std::uint8_t masked_specials = 0;
    bool decoderOnly() const { return arch == Arch::DecoderOnly; }

    // Empty when the configuration can be built; otherwise what is wrong with it.
    QString validate() const;
    // What tie=all on two different vocabularies of one size is told (validate() sees sizes
    // only; fitModelToData compares the tokens), in the window's language.
    static QString sharedVocabularyNeeded();

    // The "config" object of weight files (core/SPEC.md §7.1, §8.2); vocabulary sizes are not
    // part of it.
    QJsonObject toJson() const;
    // Keys absent from json keep the values of `base`; a key of the wrong type is an error.
    static std::optional<ModelConfig> fromJson(const QJsonObject& json, QString* error,
                                               const ModelConfig& base);
    static std::optional<ModelConfig> fromJson(const QJsonObject& json, QString* error);
    // The presets of core/SPEC.md §7.2, §7.3: "tiny", "small", "base".
    static std::optional<ModelConfig> preset(const QString& name);
    static QStringList presetNames();  // {"tiny", "small", "base"}
    // As the command line's --config takes it: "small", "small,dropout=0.2" or
    // "d_model=256,heads=8,…", applied over `base` (a preset replaces everything before it).
    static std::optional<ModelConfig> fromSpec(const QString& spec, QString* error,
                                               const ModelConfig& base);
    // The spec of this configuration with every key written out (vocabulary sizes aside).
    QString spec() const;

    // The parameter that holds `name`'s values (core/SPEC.md §6.1): `name` itself, or in a tied
    // model the shared matrix ("tgt_embed.weight" for tie=tgt's generator.weight,
    // "src_embed.weight" for tie=all's tgt_embed.weight and generator.weight).
    std::string storedName(const std::string& name) const;
    // The number of weights tying removes: V_tgt·d for tgt, 2·V_tgt·d for all.
    double tiedWeights() const;

    bool operator==(const ModelConfig&) const = default;
};

// "encoder-decoder", "decoder-only" (core/SPEC.md §7.1) and back.
QString archName(Arch arch);
std::optional<Arch> archFromName(const QString& name);

// "sinusoidal", "learned", "sinusoidal-halves" (core/SPEC.md §7.1) and back.
QString positionName(Position position);
std::optional<Position> positionFromName(const QString& name);

// "relu", "gelu-tanh", "silu" (core/SPEC.md §7.1) and back.
QString activationName(Activation activation);
std::optional<Activation> activationFromName(const QString& name);

// "none", "tgt", "all" (core/SPEC.md §7.1) and back.
QString tieName(Tie tie);
std::optional<Tie> tieFromName(const QString& name);

inline std::optional<ModelConfig> ModelConfig::fromJson(const QJsonObject& json, QString* error)
{
    return fromJson(json, error, ModelConfig{});
}

}  // namespace as
