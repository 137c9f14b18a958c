// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// One translation of one typed sentence, as a value: everything the Translate view shows, and
// nothing that reaches back into the model. Made by Translator (decode/translator.h), read by
// the view through a shared pointer to const.
#include "decode/beam_tree_record.h"
#include "decode/decode.h"
#include "decode/sampling.h"

#include <QList>
#include <QMetaType>
#include <QPair>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>
#include <vector>

namespace as {

struct TranslationOptions {
    bool beam = false;  // false: greedy decoding (k and nbest are then ignored)
    // Not beam: one output drawn with sampling's temperature, top-k, top-p and seed (core/SPEC.md
    // §5.6) instead of the greedy one.
    std::optional<SamplingOptions> sampling;
    int k = 1;          // beam width
    int nbest = 1;      // hypotheses kept in the record (at most k)
    std::vector<HeadId> masked;  // attention heads masked while translating (the Heads view's mutes)
    // What each output token of the best translation rests on (eval/interpret.h): attention,
    // rollout, gradient × input and integrated gradients (igSteps steps), with their
    // agreement. Costs a backward pass per IG step: asked for only when shown.
    bool attribution = false;
    int igSteps = 32;
    // "Why this token and not that one?" (core/SPEC.md §11.2): at output position
    // contrastPosition of the best translation, the alternative target token contrastToken
    // (as the vocabulary spells it). -1 / empty: none.
    int contrastPosition = -1;
    QString contrastToken;
};

// The contrastive attribution of one output position to the source tokens: gradient × input
// and integrated gradients of f = log p(chosen) − log p(alternative), the same prefix.
struct ContrastMap {
    int position = -1;
    QString chosen, alternative;
    double f = 0;                    // log p(chosen) − log p(alternative)
    std::vector<double> gradxinput;  // [source token]
    std::vector<double> ig;          // [source token]
    double igCompleteness = 0;       // Σ_i IG_i − (f(e) − f(0·e))
};

// One attribution of nbest[0]'s output tokens (</s> not included) to the source tokens.
struct AttributionMap {
    QString method;                            // attention, rollout, gradxinput, ig
    std::vector<std::vector<double>> scores;   // [output token][source token]
    std::vector<double> completeness;          // ig: Σ_i IG_i − (f(e) − f(0·e)) per output token
    std::vector<double> spearman;              // per output token: rank correlation with attention
    double spearmanOverall = 0;                // every cell pooled (NaN: undefined)
};

struct NbestEntry {
    std::vector<int> ids;  // target ids, without <s> and </s>
    QStringList tokens;    // the token of each id
    QString text;          // detokenised, as the user reads it
    double score = 0;      // logprob / lp(length) (decode.h's Hypothesis::score)
    double logprob = 0;    // sum of log p over the tokens and </s>
    bool finished = false; // ended with </s> (else it reached the length limit)
};

struct TranslationRecord {
    long step = 0;               // of the weights that translated
    TranslationOptions options;  // as asked (greedy: k = nbest = 1)
    QStringList sourceTokens;    // as the source tokeniser cut the sentence
    QList<int> unknown;          // indices into sourceTokens of the tokens read as <unk>
    std::vector<NbestEntry> nbest;  // best first; empty when error is set
    // A decoder-only model's continuation of the text (core/SPEC.md §2.10): sourceTokens are
    // the prompt's, and `cross` is the decoder self-attention of each output step.
    bool generated = false;
    // The cross-attention behind nbest[0]: [layers][heads][steps][srcLen], one step per entry
    // of outputSteps. Generated: the self-attention of each output step's query (the position
    // that predicted it) over the keys attentionKeys() names.
    CrossAttention cross;
    QStringList outputSteps;  // the token of every output step of nbest[0]: y1 … yn, then </s> if finished
    // Step t (the step that produced outputSteps[t]): the five likeliest next tokens and their
    // probabilities, most likely first (teacher-forced on nbest[0]; <pad> and <s> left out).
    std::vector<QList<QPair<QString, double>>> topFive;
    // Beam search's tree with every node's cross-attention (options.beam only; else empty).
    BeamTreeRecord tree;
    std::vector<AttributionMap> attributions;  // when options.attribution; attention first
    // When options.contrastPosition names a position of nbest[0] and the token is another one
    // the vocabulary has; otherwise position -1 (and contrastError says why, when asked).
    ContrastMap contrast;
    QString contrastError;
    double milliseconds = 0;  // decoding and the top-5 pass (and the attributions)
    // Why there is no translation: the sentence has no token, or the decoder failed. A whole
    // sentence, shown as it is.
    QString error;

    bool ok() const { return error.isEmpty() && !nbest.empty(); }
    // The tokens `cross`'s columns are: the source's, or, generated, <s>, the prompt and the
    // output before its last step.
    QStringList attentionKeys() const
    {
        if (!generated)
            return sourceTokens;
        QStringList keys = QStringList{QStringLiteral("<s>")} + sourceTokens;
        if (!nbest.empty())
            keys += nbest.front().tokens;
        return keys.mid(0, cross.srcLen);
    }
    // Each distinct unknown token once, in order of first appearance.
    QStringList unknownTokens() const
    {
        QStringList out;
        for (int i : unknown)
            if (!out.contains(sourceTokens.value(i)))
                out.push_back(sourceTokens.value(i));
        return out;
    }
};

// As records travel: shared, immutable once made.
using TranslationRecordPtr = std::shared_ptr<const TranslationRecord>;

}  // namespace as

Q_DECLARE_METATYPE(as::TranslationRecordPtr)
