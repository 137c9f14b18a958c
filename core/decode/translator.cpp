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
    std::vector<int> ids;
    for (int t = 0; t < T; ++t) {
        ids.clear();
        for (int i = 0; i < int(logp.cols()); ++i)
            if (i != Vocab::kPad && i != Vocab::kBos)
                ids.push_back(i);
        const int n = std::min<int>(5, int(ids.size()));
        std::partial_sort(ids.begin(), ids.begin() + n, ids.end(),
                          [&](int a, int b) { return logp(t, a) > logp(t, b); });
        QList<QPair<QString, double>> row;
        for (int i = 0; i < n; ++i)
            row.push_back({tgt.token(ids[i]), std::exp(double(logp(t, ids[i])))});
        out.push_back(row);
    }
    return out;
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
    if (source.ids.empty()) {
        r.error = QCoreApplication::translate("as::Translator", "Nothing to translate: the input has no tokens.");
        return r;
    }
    QElapsedTimer clock;
    clock.start();
    try {
        DecodeOptions decodeOptions;
        decodeOptions.beam = r.options.k;
        decodeOptions.nbest = r.options.nbest;
        decodeOptions.tree = r.options.beam;  // the same search (core/SPEC.md §5.5)
        Transformer<float>& model = *model_;
        maskHeads(model, r.options.masked);  // none masked: no gates at all
        const DecodeResult decoded = r.options.beam ? beamSearch(model, source.ids, decodeOptions)
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
        r.topFive = topFiveOf(model, tgt, source.ids, best);
        if (r.options.beam)
            r.tree = beamTreeRecordOf(model, tgt, r.sourceTokens, source.ids, decoded.tree);
        if (r.options.attribution && !best.tokens.empty()) {
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
            if (t >= int(best.tokens.size()))
                r.contrastError = QCoreApplication::translate("as::Translator", "position %1 is past the translation's %2 tokens").arg(t + 1).arg(best.tokens.size());
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
