// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "decode/translator.h"

#include "eval/interpret.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include <algorithm>
#include <cmath>
#include <exception>
#include <stdexcept>

namespace as {

namespace {

// The five likeliest next tokens of row t of log-probabilities, most likely first, with their
// probabilities. <pad> and <s> are left out: the decoder never emits them.
QList<QPair<QString, double>> topFiveAt(const Mat<float>& logp, int t, const Vocab& vocab)
{
    std::vector<int> ids;
    for (int i = 0; i < int(logp.cols()); ++i)
        if (i != Vocab::kPad && i != Vocab::kBos)
            ids.push_back(i);
    const int n = std::min<int>(5, int(ids.size()));
    std::partial_sort(ids.begin(), ids.begin() + n, ids.end(),
                      [&](int a, int b) { return logp(t, a) > logp(t, b); });
    QList<QPair<QString, double>> row;
    for (int i = 0; i < n; ++i)
        row.push_back({vocab.token(ids[i]), std::exp(double(logp(t, ids[i])))});
    return row;
}

// The five likeliest next tokens after every position of a teacher-forced pass over the output.
// <pad> and <s> are left out: the decoder never emits them.
std::vector<QList<QPair<QString, double>>> topFiveOf(Transformer<float>& model, const Vocab& tgt,
                                                     const std::vector<int>& src,
                                                     const Hypothesis& best)
{
    std::vector<int> tgtIn{Vocab::kBos};
    tgtIn.insert(tgtIn.end(), best.tokens.begin(), best.tokens.end());
    if (!best.finished)  // the last token was not followed by a prediction that was kept
        tgtIn.pop_back();
    std::vector<QList<QPair<QString, double>>> out;
    if (tgtIn.empty())
        return out;
    const int S = int(src.size()), T = int(tgtIn.size());
    model.encode(src.data(), 1, S, Pass::eval());
    model.decode(tgtIn.data(), 1, T, model.memory(), model.sourceValid().data(), S, Pass::eval());
    Mat<float> logp;  // [T, V_tgt]
    model.allLogProbs(logp);
    for (int t = 0; t < T; ++t)
        out.push_back(topFiveAt(logp, t, tgt));
    return out;
}

// A decoder-only model's continuation, teacher-forced in one pass over <s> prompt output
// (core/SPEC.md §2.10): each output step's self-attention over the positions before it, every
// layer and head, as *ca, and the five likeliest next tokens at each step.
void generatedStepsOf(Transformer<float>& model, const Vocab& vocab, const std::vector<int>& prompt,
                      const Hypothesis& best, CrossAttention* ca,
                      std::vector<QList<QPair<QString, double>>>* topFive)
{
    std::vector<int> in{Vocab::kBos};
    in.insert(in.end(), prompt.begin(), prompt.end());
    in.insert(in.end(), best.tokens.begin(), best.tokens.end());
    if (!best.finished)  // the last token was not followed by a prediction that was kept
        in.pop_back();
    const int P = int(prompt.size()), W = int(in.size()), steps = W - P;
    ca->layers = model.layers(AttentionKind::DecoderSelf);
    ca->heads = model.config().heads;
    ca->steps = steps;
    ca->srcLen = W;
    if (steps <= 0) {
        ca->steps = 0;
        return;
    }
    model.decode(in.data(), 1, W, Mat<float>(), nullptr, 0, Pass::eval());
    ca->weights.resize(std::size_t(ca->layers) * ca->heads * steps * W);
    float* w = ca->weights.data();
    for (int l = 0; l < ca->layers; ++l) {
        const Mat<float>& p = model.attention(AttentionKind::DecoderSelf, l).probs;  // [heads*W, W]
        for (int h = 0; h < ca->heads; ++h)
            for (int t = 0; t < steps; ++t)
                for (int k = 0; k < W; ++k)
                    *w++ = p(Eigen::Index(h) * W + P + t, k);
    }
    Mat<float> logp;  // [W, V]
    model.allLogProbs(logp);
    for (int t = P; t < W; ++t)
        topFive->push_back(topFiveAt(logp, t, vocab));
}

}  // namespace

Translator::Translator(std::shared_ptr<Transformer<float>> model, long step, Vocab srcVocab,
                       Vocab tgtVocab, Tokenizer srcTokenizer, Tokenizer tgtTokenizer)
    : model_(std::move(model)),
      step_(step),
      codec_(ParallelData::fromVocabularies(std::move(srcVocab), std::move(tgtVocab),
                                            srcTokenizer, tgtTokenizer))
{
    if (!model_)
        throw std::invalid_argument("Translator: no model");
    languageModel_ = model_->config().decoderOnly();
}

TranslationRecord Translator::translate(const QString& text, const TranslationOptions& options)
{
    return translate(encode(text), options);
}

TranslationRecord Translator::translate(const EncodedSentence& source,
                                        const TranslationOptions& options)
{
    TranslationRecord r;
    r.step = step_;
    r.options = options;
    if (!r.options.beam)
        r.options.k = r.options.nbest = 1;
    r.sourceTokens = source.tokens;
    r.unknown = source.unknown;
    r.generated = languageModel_;
    if (source.ids.empty() && !languageModel_) {  // a language model may start from <s> alone
        r.error = QCoreApplication::translate("as::Translator", "Nothing to translate: the input has no tokens.");
        return r;
    }
    QElapsedTimer clock;
    clock.start();
    try {
        DecodeOptions decodeOptions;
        decodeOptions.beam = r.options.k;
        decodeOptions.nbest = r.options.nbest;
        // The same search (core/SPEC.md §5.5); its tree's nodes carry cross-attention, which a
        // decoder-only model has not.
        decodeOptions.tree = r.options.beam && !languageModel_;
        Transformer<float>& model = *model_;
        maskHeads(model, r.options.masked);  // none masked: no gates at all
        if (r.options.beam)
            r.options.sampling.reset();
        const DecodeResult decoded =
            r.options.beam       ? beamSearch(model, source.ids, decodeOptions)
            : r.options.sampling ? sampleDecode(model, source.ids, decodeOptions, *r.options.sampling)
                                 : greedyDecode(model, source.ids);
        if (decoded.nbest.empty())
            throw std::runtime_error("the decoder returned no hypothesis");
        const Vocab& tgt = codec_.tgtVocab();
        for (const Hypothesis& h : decoded.nbest) {
            NbestEntry e;
            e.ids = h.tokens;
            for (int id : h.tokens)
                e.tokens.push_back(tgt.token(id));
            e.text = codec_.decodeTarget(h.tokens);
            e.score = h.score;
            e.logprob = h.logprob;
            e.finished = h.finished;
            r.nbest.push_back(std::move(e));
        }
        r.cross = decoded.cross;
        const Hypothesis& best = decoded.nbest.front();
        r.outputSteps = r.nbest.front().tokens;
        if (best.finished)
            r.outputSteps.push_back(QStringLiteral("</s>"));
        // A language model's continuation: the self-attention behind each new token, and its
        // prompt as the source its output is attributed to (core/SPEC.md §11.1).
        if (languageModel_) {
            generatedStepsOf(model, tgt, source.ids, best, &r.cross, &r.topFive);
        } else {
            r.topFive = topFiveOf(model, tgt, source.ids, best);
            if (r.options.beam)
                r.tree = beamTreeRecordOf(model, tgt, r.sourceTokens, source.ids, decoded.tree);
        }
        // A continuation of nothing (the empty prompt) rests on no token: nothing to attribute.
        const bool explainable = !best.tokens.empty() && !source.ids.empty();
        if (r.options.attribution && explainable) {
            std::vector<double> pooledAttention;
            for (AttributionMethod m : {AttributionMethod::Attention, AttributionMethod::Rollout,
                                        AttributionMethod::GradientXInput,
                                        AttributionMethod::IntegratedGradients}) {
                const Attribution a = attribute(model, source.ids, best.tokens, m, r.options.igSteps);
                AttributionMap map;
                map.method = attributionMethodName(m);
                map.scores = a.scores;
                map.completeness = a.completeness;
                std::vector<double> pooled;
                for (std::size_t t = 0; t < a.scores.size(); ++t) {
                    pooled.insert(pooled.end(), a.scores[t].begin(), a.scores[t].end());
                    map.spearman.push_back(
                        spearman(a.scores[t], r.attributions.empty() ? a.scores[t] : r.attributions.front().scores[t]));
                }
                if (r.attributions.empty())
                    pooledAttention = pooled;
                map.spearmanOverall = spearman(pooled, pooledAttention);
                r.attributions.push_back(std::move(map));
            }
        }
        if (r.options.contrastPosition >= 0) {
            const int t = r.options.contrastPosition;
            const int alt = tgt.contains(r.options.contrastToken) ? tgt.id(r.options.contrastToken) : -1;
            if (source.ids.empty())
                r.contrastError = QCoreApplication::translate("as::Translator", "the prompt is empty: there is nothing to attribute the continuation to");
            else if (t >= int(best.tokens.size()))
                r.contrastError = languageModel_
                    ? QCoreApplication::translate("as::Translator", "position %1 is past the continuation's %2 tokens").arg(t + 1).arg(best.tokens.size())
                    : QCoreApplication::translate("as::Translator", "position %1 is past the translation's %2 tokens").arg(t + 1).arg(best.tokens.size());
            else if (alt < 0 || alt == Vocab::kPad || alt == Vocab::kBos)  // </s> and <unk> may be asked about
                r.contrastError = QCoreApplication::translate("as::Translator", "'%1' is not a token of the target vocabulary").arg(r.options.contrastToken);
            else if (alt == best.tokens[std::size_t(t)])
                r.contrastError = QCoreApplication::translate("as::Translator", "'%1' is the token chosen there").arg(r.options.contrastToken);
            else {
                std::vector<int> alternative = best.tokens;
                alternative[std::size_t(t)] = alt;
                const Attribution g = attributeContrast(model, source.ids, best.tokens, alternative,
                                                        AttributionMethod::GradientXInput);
                const Attribution ig = attributeContrast(model, source.ids, best.tokens, alternative,
                                                         AttributionMethod::IntegratedGradients, r.options.igSteps);
                ContrastMap& c = r.contrast;
                c.position = t;
                c.chosen = tgt.token(best.tokens[std::size_t(t)]);
                c.alternative = tgt.token(alt);
                c.gradxinput = g.scores.at(0);
                c.ig = ig.scores.at(0);
                c.f = ig.f.at(0);
                c.igCompleteness = ig.completeness.at(0);
            }
        }
    } catch (const std::exception& e) {
        r.nbest.clear();
        r.cross = {};
        r.outputSteps.clear();
        r.topFive.clear();
        r.tree = {};
        r.attributions.clear();
        r.error = QCoreApplication::translate("as::Translator", "Translation failed: %1").arg(QString::fromUtf8(e.what()));
    }
    r.milliseconds = double(clock.nsecsElapsed()) / 1e6;
    return r;
}

}  // namespace as
