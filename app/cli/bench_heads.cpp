// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// attention-studio-cli bench --heads MODEL --data D.tsv: the speed of questioning a model
// (issue "which heads matter"), one JSON line of medians over --runs:
//   heads_importance_s  scoreHeads without ΔNLL (importance, confidence, entropy)
//   heads_s             scoreHeads with ΔNLL of every head (what `heads` does)
//   ig_ms               integrated gradients, 32 steps, of a source of --ig-tokens tokens (a
//                       decoder-only model: a prompt of that many from the sentence closest to
//                       twice as long, and its continuation)
//   mute_ms             one head masked, then the sentence translated greedily (median and
//                       worst over every head): what a click in the Heads view costs the engine
//   pruning_s           the window's pruning curve (pruningCounts points, NLL and BLEU each;
//                       a decoder-only model's NLL alone)
// With the matmul work of ΔNLL's passes (counted from the batches' shapes) and the rate it
// ran at, so that the time can be compared with what the machine can do (bench --gemm).
#include "commands.h"
#include "corpus_input.h"
#include "model_input.h"
#include "options.h"

#include "decode/decode.h"
#include "eval/evaluate.h"
#include "eval/interpret.h"
#include "io/model_file.h"
#include "model/gemm.h"
#include "model/parallel.h"
#include "text/dataset.h"
#include "train/batcher.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <chrono>
#include <functional>

namespace as::cli {
namespace {

double seconds(const std::function<void()>& work)
{
    const auto t0 = std::chrono::steady_clock::now();
    work();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Matmul FLOPs of the ΔNLL passes of scoreHeads (Transformer::evaluateFrom from each head's
// layer on; whole: a whole evaluation per head instead), from the shapes of the evaluation
// batches, padding included.
double deltaNllFlops(const as::ModelConfig& c, const std::vector<as::EncodedPair>& pairs,
                     const std::vector<as::HeadId>& heads, bool whole)
{
    const double d = c.d_model, f = c.d_ff, V = c.tgt_vocab;
    double total = 0;
    const bool only = c.decoderOnly();  // no encoder, no cross-attention (core/SPEC.md §2.10)
    for (const std::vector<int>& idx : as::evaluationBatches(pairs, 2000)) {
        const as::Batch b = as::gatherBatch(pairs, idx, only);
        const double B = b.B, S = b.S, T = b.T, ns = B * S, nt = B * T;
        const double enc = 2 * ns * d * d * 4 + 2 * ns * d * f * 2 + 2 * 2 * B * S * S * d;
        const double cross = only ? 0.0 : 2 * nt * d * d * 2 + 2 * ns * d * d * 2 + 2 * 2 * B * T * S * d;
        const double dec = 2 * nt * d * d * 4 + cross + 2 * nt * d * f * 2 + 2 * 2 * B * T * T * d;
        const double gen = 2 * nt * d * V;
        for (const as::HeadId& h : heads) {
            if (whole)
                total += c.encoder_layers * enc + c.decoder_layers * dec + gen;
            else if (h.kind == as::AttentionKind::EncoderSelf)
                total += (c.encoder_layers - h.layer) * enc + c.decoder_layers * dec + gen;
            else
                total += (c.decoder_layers - h.layer) * dec + gen;
        }
    }
    return total;
}

}  // namespace

int benchHeads(Options& p, QTextStream& out, QTextStream& err)
{
    const QString data = p.required("data");
    const int runs = int(p.intOption("runs", 1, 1000000, 3));
    const int maxSentences = int(p.intOption("max-sentences", 1, 1000000000));
    const int igTokens = int(p.intOption("ig-tokens", 1, 1000000));
    const int threads = p.threads();
    if (!p.ok())
        return 2;
    setMathThreads(threads, false);
    std::optional<as::ModelBundle> b = loadModelFile(p.value("heads"), p.command(), err, ModelUse::Any);
    if (!b)
        return 1;
    const as::ParallelData codec = codecOf(*b);
    // A translator's pairs; a decoder-only model's sentences, one per line, read as heads and
    // eval read them (its output explained is the continuation of its prompt).
    QList<as::SentencePair> text;
    std::vector<as::EncodedPair> encoded;
    if (b->config.decoderOnly()) {
        const std::optional<QStringList> sentences = languageModelSentences(p.command(), {}, {}, data, err);
        if (!sentences)
            return 1;
        int skipped = 0;
        encoded = encodeLanguageModelText(codec, b->config.max_len, sentences->mid(0, maxSentences), &skipped);
    } else {
        std::optional<QList<as::SentencePair>> pairs = readPairs(data, err);
        if (!pairs)
            return 1;
        text = pairs->mid(0, maxSentences);
        encoded = codec.encode(text).pairs;
    }
    if (encoded.empty()) {
        err << "bench: no usable pair in " << p.value("data") << "\n";
        return 1;
    }
    as::Transformer<float>& model = *b->model;

    // The sentence to explain and re-translate: the first source with --ig-tokens tokens, or
    // else the one closest to it.
    std::vector<int> src;
    if (b->config.decoderOnly()) {
        // A decoder-only model's prompt: the first --ig-tokens tokens (at most all but one) of
        // the sentence closest to twice as long, so that a continuation follows it.
        const as::EncodedPair* chosen = &encoded.front();
        for (const as::EncodedPair& e : encoded)
            if (std::abs(int(e.tgt.size()) - 2 * igTokens) < std::abs(int(chosen->tgt.size()) - 2 * igTokens))
                chosen = &e;
        const int n = std::max(1, std::min(igTokens, int(chosen->tgt.size()) - 1));
        src.assign(chosen->tgt.begin(), chosen->tgt.begin() + n);
    } else {
        for (const as::EncodedPair& e : encoded)
            if (src.empty() || std::abs(int(e.src.size()) - igTokens) < std::abs(int(src.size()) - igTokens))
                src = e.src;
    }
    const std::vector<int> output = as::greedyDecode(model, src).nbest.at(0).tokens;

    std::vector<double> importance, full, ig, pruning, mute;
    as::HeadReport report;
    for (int r = 0; r < runs; ++r) {
        importance.push_back(seconds([&] { report = as::scoreHeads(model, encoded, {}, false); }));
        full.push_back(seconds([&] { report = as::scoreHeads(model, encoded); }));
        ig.push_back(1000 * seconds([&] {
            as::attribute(model, src, output, as::AttributionMethod::IntegratedGradients, 32);
        }));
    }
    const std::vector<as::HeadId> order = as::headsByImportance(report);
    for (const as::HeadId& h : order) {
        mute.push_back(1000 * seconds([&] {
            as::maskHeads(model, {h});
            as::greedyDecode(model, src);
        }));
    }
    as::maskHeads(model, {});
    const std::vector<int> counts = as::pruningCounts(int(order.size()));
    for (int r = 0; r < runs; ++r)
        pruning.push_back(seconds([&] {
            as::pruningCurve(model, order, counts, encoded, codec, text);
        }));

    const double flops = deltaNllFlops(model.config(), encoded, order, false);
    const double wholeFlops = deltaNllFlops(model.config(), encoded, order, true);
    const double deltaSeconds = medianOf(full) - medianOf(importance);
    QJsonObject o{{"impl", "attention-studio"}, {"bench", "heads"}, {"runs", runs},
                  {"threads", as::engineThreads()}, {"gemm_backend", as::gemmBackend()},
                  {"pairs", int(encoded.size())}, {"heads", int(order.size())},
                  {"heads_importance_s", medianOf(importance)}, {"heads_s", medianOf(full)},
                  {"delta_nll_gflop", flops / 1e9},
                  {"delta_nll_gflop_whole_passes", wholeFlops / 1e9},
                  {"delta_nll_gflop_per_s", deltaSeconds > 0 ? flops / deltaSeconds / 1e9 : 0.0},
                  {"ig_src_tokens", int(src.size())}, {"ig_out_tokens", int(output.size())},
                  {"ig_ms", medianOf(ig)}, {"mute_ms", medianOf(mute)},
                  {"mute_worst_ms", *std::max_element(mute.begin(), mute.end())},
                  {"pruning_points", int(counts.size())}, {"pruning_s", medianOf(pruning)}};
    out << QJsonDocument(o).toJson(QJsonDocument::Compact) << "\n";
    return 0;
}

}  // namespace as::cli
