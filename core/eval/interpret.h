// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Questions to a trained model: which heads matter, and what each output word rests on.
// Definitions (dropout off, no label smoothing; L is the token NLL summed over a sentence
// pair's target tokens, teacher-forced):
//  - head gate ξ (MultiHeadAttention::gate): 1 by default, 0 masks the head;
//  - importance (Michel et al. 2019): I_h = mean over pairs of |∂L/∂ξ_h| at ξ = 1;
//  - ΔNLL: mean token NLL over the pairs with that head alone masked, minus the unmasked one;
//  - confidence (Voita et al. 2019): mean over query positions (not padding) of the largest
//    attention weight; entropy: mean over query positions of −Σ a log a (nats) (per query row:
//    eval/attention_stats.h, which the head dynamics view shares);
//  - attribution of source token i for output token t, with e_i = sqrt(d)·emb(src_i) and
//    f = log p(y_t | source, y_<t): gradient × input Σ_d e_i,d ∂f/∂e_i,d; integrated gradients
//    Σ_d e_i,d (1/m) Σ_j ∂f/∂e_i,d at α_j e (α_j = (j − ½)/m, positional encodings kept), with
//    the completeness residual Σ_i IG_i − (f(e) − f(0·e)); attention: the last decoder layer's
//    cross-attention, mean over heads; rollout (Abnar & Zuidema 2020): R = Ã_N ⋯ Ã_1 over the
//    encoder's self-attention, Ã = ½(Ā + I) rows renormalised, Ā the mean over heads, and the
//    output's score (last-layer mean cross-attention) · R.
//  A decoder-only model's source is its prompt: e_i = sqrt(d)·emb(prompt_i) at the positions
//  after <s>, f = log p(y_t | <s>, prompt, y_<t); attention is the last layer's self-attention
//  from y_t's query to the prompt, rollout R over every layer's self-attention.
//  (core/SPEC.md §11.1 states the gradient methods; §11.2 their contrastive form.)
#include "eval/evaluate.h"
#include "model/transformer.h"
#include "text/dataset.h"

#include <QString>

#include <optional>
#include <vector>

namespace as {

// "encoder.self", "decoder.self", "decoder.cross"
QString attentionKindName(AttentionKind kind);
std::optional<AttentionKind> attentionKindFromName(const QString& name);

// "encoder.self:0:3,decoder.cross:2:*": kind:layer:head, 0-based, * for every head of the
// layer. nullopt and *error for a bad item, an empty one (",,") or one outside the model; an
// empty spec is no heads.
std::optional<std::vector<HeadId>> parseHeadSpec(const QString& spec, const ModelConfig& config,
                                                 QString* error);
QString headSpec(const std::vector<HeadId>& heads);

// Masks exactly these heads (gate 0), every other head unmasked (no gates where none is
// masked). An empty list unmasks everything.
template <typename T>
void maskHeads(Transformer<T>& model, const std::vector<HeadId>& heads);

struct HeadScore {
    HeadId id;
    double importance = 0, deltaNll = 0, confidence = 0, entropy = 0;
};

struct HeadReport {
    double nll = 0;  // mean token NLL of the pairs, nothing masked (or `masked` masked)
    long tokens = 0;
    int pairs = 0;
    std::vector<HeadScore> heads;  // every head: encoder.self, decoder.self, decoder.cross, by layer
    bool cancelled = false;
};

// Every head's scores over `pairs` (teacher-forced, in evaluation batches). `masked`: heads
// kept masked throughout (the window's mutes): NLL, importance and ΔNLL are then those of the
// model with them masked. progress counts units of work (one for importance and the attention
// scores, then one per batch and head for ΔNLL). The model's gates are left as `masked` made them.
HeadReport scoreHeads(Transformer<float>& model, const std::vector<EncodedPair>& pairs,
                      const std::vector<HeadId>& masked = {}, bool deltaNll = true,
                      const Progress& progress = {});

// Michel et al. (2019), Fig. 3: heads masked in `order` (increasing importance), the first k of
// them for each k in `counts`: the mean token NLL of `pairs` and the BLEU of greedy
// translations of `text` (its sources encoded with `codec`, against its targets; NaN for a
// decoder-only model, which reads `pairs`' targets alone, as scoreHeads does). progress
// counts the points; cancelled, the points done are returned. `alsoMasked`: heads kept masked
// throughout. The model's gates are left unmasked but for those.
struct PruningPoint {
    int masked = 0;
    double nll = 0, bleu = 0;
};
struct PruningCurve {
    std::vector<PruningPoint> points;
    bool cancelled = false;
};
// The numbers of heads masked at which the window draws its pruning curve: 0, k, 2k, … and
// all `heads`, k = max(1, heads / 12) (about 13 points).
std::vector<int> pruningCounts(int heads);
PruningCurve pruningCurve(Transformer<float>& model, const std::vector<HeadId>& order,
                          const std::vector<int>& counts, const std::vector<EncodedPair>& pairs,
                          const ParallelData& codec, const QList<SentencePair>& text,
                          const std::vector<HeadId>& alsoMasked = {}, const Progress& progress = {});
// The heads in increasing order of importance (ties in the report's order).
std::vector<HeadId> headsByImportance(const HeadReport& report);

enum class AttributionMethod { GradientXInput, IntegratedGradients, Attention, Rollout };
QString attributionMethodName(AttributionMethod m);  // gradxinput, ig, attention, rollout
std::optional<AttributionMethod> attributionMethodFromName(const QString& name);

struct Attribution {
    AttributionMethod method = AttributionMethod::Attention;
    // [output tokens][source tokens]: how much output token t rests on source token i. A
    // contrastive attribution: [positions][source tokens], row r for output position
    // positions[r].
    std::vector<std::vector<double>> scores;
    // Integrated gradients: per row, Σ_i IG_i − (f(e) − f(0·e)); and f(e), f(0·e).
    std::vector<double> completeness, f, fBaseline;
    // Contrastive attribution only: the output positions explained (where the output and the
    // alternative differ), increasing. Empty otherwise (every output position, in order).
    std::vector<int> positions;
};

// Attribution of each output token y_t (target ids without specials, teacher-forced) to the
// source tokens (ids without specials). steps: m for integrated gradients. Dropout off; the
// model's head gates apply.
template <typename T>
Attribution attribute(Transformer<T>& model, const std::vector<int>& src,
                      const std::vector<int>& out, AttributionMethod method, int steps = 32);

// Contrastive attribution (core/SPEC.md §11.2): "why out[t] and not alternative[t]?" At each
// position t where they differ, gradient × input or integrated gradients (method; other
// methods throw std::invalid_argument) of f = log p(out_t | source, out_<t) − log p(alternative_t
// | source, out_<t), both teacher-forced on out's prefix. out and alternative must be equally
// long (std::invalid_argument otherwise); identical ones give no rows.
template <typename T>
Attribution attributeContrast(Transformer<T>& model, const std::vector<int>& src,
                              const std::vector<int>& out, const std::vector<int>& alternative,
                              AttributionMethod method, int steps = 32);

// BertViz's neuron view of one head at one query position of the model's last forward pass
// (from the block's cached projections): the query vector, each key vector, their element-wise
// products, the scaled scores q·k/sqrt(d_k) (a masked key: the -1e9 the softmax saw) and the
// softmax. batchRow: the sequence of the batch.
struct NeuronView {
    std::vector<double> query;                   // [d_k]
    std::vector<std::vector<double>> keys;       // [keys][d_k]
    std::vector<std::vector<double>> products;   // [keys][d_k]  q ⊙ k
    std::vector<double> scores, probs;           // [keys]
};
template <typename T>
NeuronView neuronView(const Transformer<T>& model, AttentionKind kind, int layer, int batchRow,
                      int head, int query);

// The first encoder layer's scores split by what they come from. The layer's input is
// x_i = e_i + p_i (e_i = sqrt(d)·E[src_i], p_i the positional encoding); its attention sees x
// itself (post-norm) or LayerNorm(x) (pre-norm), and LayerNorm's per-token centring and scale
// apply to both parts alike: γ⊙(e − mean e)/σ and γ⊙(p − mean p)/σ, with σ that of x, β apart.
// With q = W_q a + b_q and k likewise, score(i, j) = q_i·k_j / sqrt(d_k) is exactly the sum of
// token·token (e's query, e's key), token·position, position·token, position·position and the
// bias terms (every product with W β + b). positionalShare: of the four terms' absolute values
// summed over the sentence's query-key pairs, the share of the three with a position in them.
struct ScoreTerms {
    Mat<double> tokenToken, tokenPosition, positionToken, positionPosition, bias;  // [S, S]
    double positionalShare = 0;
};
// One per head, for the source ids (without specials).
template <typename T>
std::vector<ScoreTerms> firstLayerScoreTerms(const Transformer<T>& model, const std::vector<int>& src);

// Spearman's rank correlation of two equally long lists (ties get their mean rank); NaN for
// fewer than two items or a constant list.
double spearman(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace as
