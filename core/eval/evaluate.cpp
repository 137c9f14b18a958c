// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "eval/evaluate.h"

#include "eval/bleu.h"
#include "train/batcher.h"

#include <utility>

namespace as {

template <typename T>
LossStats evaluateLoss(Transformer<T>& model, const std::vector<EncodedPair>& pairs,
                       int tokenBudget, const Progress& progress, bool* cancelled)
{
    if (cancelled)
        *cancelled = false;
    const std::vector<std::vector<int>> batches = evaluationBatches(pairs, tokenBudget);
    const int total = int(batches.size());
    LossStats sum;
    for (int b = 0; b < total; ++b) {
        sum += model.evaluate(gatherBatch(pairs, batches[std::size_t(b)], model.config().decoderOnly()));
        if (progress && !progress(b + 1, total) && b + 1 < total) {
            if (cancelled)
                *cancelled = true;
            break;
        }
    }
    return sum;
}

template <typename T>
TranslateResult translate(Transformer<T>& model, const std::vector<std::vector<int>>& sources,
                          const DecodeOptions& options, const Progress& progress, bool keepNbest)
{
    TranslateResult r;
    const int total = int(sources.size());
    r.best.reserve(sources.size());
    for (int i = 0; i < total; ++i) {
        const std::vector<int>& src = sources[std::size_t(i)];
        DecodeResult d = options.beam <= 1
                             ? greedyDecode(model, src, options.limitFor(int(src.size()), model.config().max_len))
                                           : beamSearch(model, src, options);
        r.best.push_back(d.nbest.empty() ? std::vector<int>{} : d.nbest.front().tokens);
        if (keepNbest)
            r.nbest.push_back(std::move(d.nbest));
        r.done = i + 1;
        if (progress && !progress(r.done, total) && r.done < total) {
            r.cancelled = true;
            break;
        }
    }
    return r;
}

template LossStats evaluateLoss<float>(Transformer<float>&, const std::vector<EncodedPair>&, int,
                                       const Progress&, bool*);
template LossStats evaluateLoss<double>(Transformer<double>&, const std::vector<EncodedPair>&,
                                        int, const Progress&, bool*);
template TranslateResult translate<float>(Transformer<float>&,
                                          const std::vector<std::vector<int>>&,
                                          const DecodeOptions&, const Progress&, bool);
template TranslateResult translate<double>(Transformer<double>&,
                                           const std::vector<std::vector<int>>&,
                                           const DecodeOptions&, const Progress&, bool);

}  // namespace as

namespace as {

TranslationReport translateAndScore(Transformer<float>& model, const ParallelData& codec,
                                    const QList<SentencePair>& pairs,
                                    const DecodeOptions& options, const Progress& progress)
{
    std::vector<std::vector<int>> sources;
    sources.reserve(std::size_t(pairs.size()));
    for (const SentencePair& p : pairs)
        sources.push_back(codec.encodeSource(p.src).ids);
    const TranslateResult t = translate(model, sources, options, progress);
    TranslationReport r;
    r.cancelled = t.cancelled;
    QStringList hyps, refs;
    for (int i = 0; i < t.done; ++i) {
        const SentencePair& p = pairs[i];
        TranslationSample s{p.src, p.tgt, codec.decodeTarget(t.best[std::size_t(i)])};
        hyps << s.hypothesis;
        refs << s.reference;
        r.translations.push_back(std::move(s));
    }
    r.bleu = corpusBleu(hyps, refs).score;
    return r;
}

}  // namespace as
