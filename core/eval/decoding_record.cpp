// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "eval/decoding_record.h"

#include "decode/decode.h"
#include "eval/trace.h"
#include "train/batch.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace as {

namespace {

bool emittable(int id)
{
    return id != kPad && id != kBos;  // as greedy decoding forbids them (decode/decode.h)
}

TokenProbability entry(const Vocab& vocab, const double* logp, int id)
{
    return {id, vocab.token(id), std::exp(logp[id])};
}

// The k likeliest emittable ids of one row of V log-probabilities, most likely first.
std::vector<int> topIds(const double* logp, int V, int k)
{
    std::vector<int> ids;
    ids.reserve(std::size_t(V));
    for (int i = 0; i < V; ++i)
        if (emittable(i))
            ids.push_back(i);
    const int n = std::min<int>(k, int(ids.size()));
    std::partial_sort(ids.begin(), ids.begin() + n, ids.end(), [&](int a, int b) {
        return logp[a] > logp[b] || (logp[a] == logp[b] && a < b);
    });
    ids.resize(std::size_t(n));
    return ids;
}

// One traced pass whose decoder input is <s> + fed[0..n−2]: step t reads position t and feeds
// fed[t] (the last one, </s> or the length limit's token, is never read).
// A decoder-only model (core/SPEC.md §2.10) reads `source` as its prompt: its input is
// <s> + prompt + fed[0..n−2], and step t reads position P + t. cut: a sampled run's
// distributions drawn from, one per step (SamplingStep::cut); null when greedy.
template <typename T>
DecodingRun traceRun(Transformer<T>& model, const Vocab& tgtVocab, const std::vector<int>& source,
                     const std::vector<int>& fed, bool finished, int topK,
                     const std::vector<SamplingStep>* cut = nullptr)
{
    const ModelConfig& c = model.config();
    const bool only = c.decoderOnly();
    const int L = c.decoder_layers, H = c.heads, S = only ? 0 : int(source.size());
    const int P = only ? int(source.size()) : 0;
    DecodingRun run;
    run.finished = finished;
    run.promptLength = P;
    if (fed.empty())
        return run;
    std::vector<int> target = only ? source : std::vector<int>{};
    target.insert(target.end(), fed.begin(), fed.end() - 1);
    std::vector<std::string> names{"log_probs"};
    for (int l = 0; l < L; ++l) {
        const std::string p = "decoder." + std::to_string(l);
        names.insert(names.end(), {p + ".self.weights", "lens." + std::to_string(l)});
        if (!only)
            names.push_back(p + ".cross.weights");
    }
    const ForwardTrace trace = traceForward(model, only ? std::vector<int>{} : source, target, names);
    const int positions = int(trace.decoderInput.size());  // == P + fed.size()
    const int steps = positions - P;
    const TraceTensor* logp = trace.find("log_probs");
    const int V = logp->shape[1];
    for (int id : trace.decoderInput)
        run.input.push_back(tgtVocab.token(id));

    std::vector<const TraceTensor*> self, cross, lens;
    for (int l = 0; l < L; ++l) {
        self.push_back(trace.find("decoder." + std::to_string(l) + ".self.weights"));
        cross.push_back(only ? nullptr : trace.find("decoder." + std::to_string(l) + ".cross.weights"));
        lens.push_back(trace.find("lens." + std::to_string(l)));
    }
    for (int l = 0; l < L; ++l)
        run.self.insert(run.self.end(), self[std::size_t(l)]->data.begin(), self[std::size_t(l)]->data.end());

    for (int t = 0; t < steps; ++t) {
        const int at = P + t;  // the position step t reads
        DecodingStep s;
        const double* row = logp->data.data() + std::size_t(at) * V;
        for (int id : topIds(row, V, topK))
            s.top.push_back(entry(tgtVocab, row, id));
        s.predicted = entry(tgtVocab, row, topIds(row, V, 1).front());
        s.fed = entry(tgtVocab, row, fed[std::size_t(t)]);
        s.cross.reserve(std::size_t(L) * H * S);
        for (int l = 0; l < L && !only; ++l)
            for (int h = 0; h < H; ++h) {
                const double* w = cross[std::size_t(l)]->data.data() + (std::size_t(h) * positions + at) * S;
                for (int j = 0; j < S; ++j)
                    s.cross.push_back(float(w[j]));
            }
        for (int l = 0; l < L; ++l) {
            const double* lr = lens[std::size_t(l)]->data.data() + std::size_t(at) * V;
            s.lens.push_back(entry(tgtVocab, lr, topIds(lr, V, 1).front()));
        }
        if (cut && t < int(cut->size())) {
            const std::vector<double>& q = (*cut)[std::size_t(t)].cut;
            for (const TokenProbability& p : s.top)
                s.topCut.push_back(q[std::size_t(p.id)]);
            s.fedCut = q[std::size_t(s.fed.id)];
        }
        run.steps.push_back(std::move(s));
    }
    return run;
}

}  // namespace

QStringList DecodingRun::fedTokens() const
{
    QStringList out;
    for (const DecodingStep& s : steps)
        out.push_back(s.fed.token);
    return out;
}

template <typename T>
DecodingRecord makeDecodingRecord(Transformer<T>& model, const Vocab& srcVocab,
                                  const Vocab& tgtVocab, const std::vector<int>& source,
                                  const std::vector<int>& reference, bool hasReference, int topK,
                                  const std::optional<SamplingOptions>& sampling)
{
    const bool only = model.config().decoderOnly();
    if (source.empty() && !only)
        throw std::invalid_argument("makeDecodingRecord: the source is empty");
    if (topK < 1)
        throw std::invalid_argument("makeDecodingRecord: topK must be at least 1");
    DecodingRecord r;
    const ModelConfig& c = model.config();
    r.layers = c.decoder_layers;
    r.heads = c.heads;
    r.topK = topK;
    r.generated = only;
    r.sampling = sampling;
    for (int id : source)
        r.source.push_back((only ? tgtVocab : srcVocab).token(id));

    std::vector<SamplingStep> drawn;
    const DecodeResult decoded = sampling ? sampleDecode(model, source, DecodeOptions{}, *sampling, &drawn)
                                          : greedyDecode(model, source);
    const Hypothesis& best = decoded.nbest.front();
    std::vector<int> fed = best.tokens;
    if (best.finished)
        fed.push_back(kEos);
    r.free = traceRun(model, tgtVocab, source, fed, best.finished, topK, sampling ? &drawn : nullptr);

    r.hasReference = hasReference && !only;  // a language model's text has no reference
    if (!hasReference)
        return r;
    for (int id : reference)
        r.reference.push_back(tgtVocab.token(id));
    std::vector<int> forcedFed = reference;
    forcedFed.push_back(kEos);
    r.forced = traceRun(model, tgtVocab, source, forcedFed, true, topK);
    const std::size_t common = std::min(r.free.steps.size(), r.forced.steps.size());
    for (std::size_t t = 0; t < common && r.divergence < 0; ++t)
        if (r.free.steps[t].fed.id != r.forced.steps[t].fed.id)
            r.divergence = int(t);
    if (r.divergence < 0 && r.free.steps.size() != r.forced.steps.size())
        r.divergence = int(common);  // one ran out of length limit on the other's prefix
    return r;
}

template DecodingRecord makeDecodingRecord(Transformer<float>&, const Vocab&, const Vocab&,
                                           const std::vector<int>&, const std::vector<int>&, bool, int,
                                           const std::optional<SamplingOptions>&);
template DecodingRecord makeDecodingRecord(Transformer<double>&, const Vocab&, const Vocab&,
                                           const std::vector<int>&, const std::vector<int>&, bool, int,
                                           const std::optional<SamplingOptions>&);

}  // namespace as
