// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/memory.h"

#include <QCoreApplication>

#include <unistd.h>

namespace as {

std::uint64_t physicalMemoryBytes()
{
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long pageSize = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || pageSize <= 0)
        return 0;
    return std::uint64_t(pages) * std::uint64_t(pageSize);
}

QString formatBytes(double bytes)
{
    struct Unit {
        double size;
        const char* name;
    };
    for (const Unit u : {Unit{1e12, "TB"}, Unit{1e9, "GB"}, Unit{1e6, "MB"}, Unit{1e3, "kB"}})
        if (bytes >= u.size) {
            const double v = bytes / u.size;
            return QStringLiteral("%1 %2").arg(v, 0, 'f', v < 10 ? 1 : 0).arg(QLatin1String(u.name));
        }
    return QStringLiteral("%1 bytes").arg(qint64(bytes));
}

double parameterCount(const ModelConfig& c)
{
    const double d = c.d_model, ff = c.d_ff;
    const double attention = 4 * (d * d + d);
    // Attention-only layers (d_ff = 0, §2.12) have no feed-forward and no norm after it.
    const double feedForward = ff > 0 ? d * ff + ff + ff * d + d + 2 * d : 0;
    const double norm = 2 * d;
    const double encoderLayer = attention + feedForward + norm;
    // A decoder-only layer has no cross-attention and one LayerNorm fewer; the model no source
    // embedding and no encoder norm (core/SPEC.md §2.10).
    const bool only = c.decoderOnly();
    const double decoderLayer = only ? encoderLayer : 2 * attention + feedForward + 2 * norm;
    const double finalNorms = c.norm == NormPlacement::Pre ? (only ? 1 : 2) * norm : 0;
    // Learned positions (§2.11): a [max_len, d] table beside each embedding.
    const double positions = c.position == Position::Learned ? (only ? 1 : 2) * double(c.max_len) * d : 0;
    return positions + (only ? 0.0 : double(c.src_vocab) * d) + double(c.tgt_vocab) * d + c.encoder_layers * encoderLayer
           + c.decoder_layers * decoderLayer + finalNorms + d * double(c.tgt_vocab)
           + (c.generator_bias ? c.tgt_vocab : 0)
           - c.tiedWeights();
}

// Activations, per token of a layer, the [n, d] matrices the layers keep for backward (inputs,
// norm outputs, sublayer outputs, Q, K, V, contexts, dropout masks: 12 in an encoder layer, 20
// in a decoder layer), the feed-forward hidden layer with its mask (2 x d_ff), and the attention
// probabilities with their dropout mask (2 x heads x keys per query); then the generator's
// logits, probabilities and their gradient (3 x target vocabulary per target token). A rough
// count (within a factor of about two of what is allocated), enough to refuse what cannot fit.
MemoryEstimate estimateTrainingMemory(const ModelConfig& c, int batch, int srcLen, int tgtLen)
{
    const double n = parameterCount(c), d = c.d_model, ff = c.d_ff, h = c.heads;
    const double S = double(batch) * srcLen, T = double(batch) * tgtLen;
    MemoryEstimate e;
    e.weights = 4 * n;
    e.gradients = 4 * n;
    e.adam = 8 * n;
    const double encoder = S * (12 * d + 2 * ff + 2 * h * srcLen);
    const double decoder = c.decoderOnly() ? T * (12 * d + 2 * ff + 2 * h * tgtLen)
                                           : T * (20 * d + 2 * ff + 2 * h * (tgtLen + srcLen));
    e.activations = 4 * (c.encoder_layers * encoder + c.decoder_layers * decoder
                         + 3 * T * double(c.tgt_vocab));
    return e;
}

QString memoryProblem(const ModelConfig& c)
{
    const std::uint64_t machine = physicalMemoryBytes();
    const MemoryEstimate e = estimateTrainingMemory(c, 0, 0, 0);
    const double need = e.total();
    if (machine == 0 || need <= double(machine))
        return {};
    // In the window's language (as ModelConfig::validate(): English on the command line).
    return QCoreApplication::translate(
               "as::ModelConfig",
               "this model would need %1 of memory (%2 parameters: %3 of weights, as much for their "
               "gradients and twice as much for Adam's moments, before any batch); this machine has %4")
        .arg(formatBytes(need), QString::number(parameterCount(c), 'g', 3),
             formatBytes(e.weights), formatBytes(double(machine)));
}

}  // namespace as
