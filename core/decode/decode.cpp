// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "decode/decode.h"

#include "decode/incremental.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace as {

int DecodeOptions::limitFor(const ModelConfig& model, int srcLen) const
{
    if (!model.decoderOnly())
        return limitFor(srcLen, model.max_len);
    // <s>, the prompt and the new tokens all take positions of the model's context; without a
    // limit given, a continuation of max(64, 2n + 10) tokens (core/SPEC.md §2.10): GPT-2's 1,024
    // positions would otherwise make every Generate a thousand tokens long.
    const int room = model.max_len - 1 - srcLen;
    if (room < 1)
        throw std::invalid_argument("the prompt fills the model's context (max_len positions)");
    const int wanted = maxLen > 0 ? maxLen : std::max(kDefaultContinuation, int(maxLenA * srcLen) + maxLenB);
    return std::min(wanted, room);
}

int DecodeOptions::limitFor(int srcLen, int modelMaxLen) const
{
    if (maxLen > 0)
        return maxLen;
    int limit = modelMaxLen;
    if (maxLenA > 0.0)
        limit = std::min(limit, int(maxLenA * srcLen) + maxLenB);
    return std::max(limit, 1);
}

QString beamNodeStateName(BeamNode::State state)
{
    switch (state) {
    case BeamNode::State::Kept: return QStringLiteral("kept");
    case BeamNode::State::Pruned: return QStringLiteral("pruned");
    case BeamNode::State::Finished: break;
    }
    return QStringLiteral("finished");
}

double lengthPenalty(int length, double alpha)
{
    return std::pow((5.0 + length) / 6.0, alpha);
}

namespace {

std::vector<int> sourceOrPad(const std::vector<int>& src)
{
    // An empty sentence is one padded position: its attention row is then uniform, not NaN.
    return src.empty() ? std::vector<int>{kPad} : src;
}

template <typename T>
void forbidSpecials(Mat<T>& logp, bool eosToo)
{
    logp.col(kPad).setConstant(-std::numeric_limits<T>::infinity());
    logp.col(kBos).setConstant(-std::numeric_limits<T>::infinity());
    if (eosToo)
        logp.col(kEos).setConstant(-std::numeric_limits<T>::infinity());
}

// The next-token log-probabilities of a set of live hypotheses that all have the same length,
// by either path: incremental (cached keys and values) or the whole prefix each step.
template <typename T>
class Stepper {
public:
    // A decoder-only model (core/SPEC.md §2.10) reads srcIn as its prompt: every hypothesis is
    // <s> prompt … and the first step feeds the prompt whole.
    Stepper(Transformer<T>& model, const std::vector<int>& srcIn, int maxLen, bool cached)
        : model_(model), cached_(cached), inc_(model)
    {
        if (model.config().decoderOnly()) {
            prompt_ = srcIn;
            if (cached_)
                inc_.start({}, maxLen + 1 + int(prompt_.size()));
            return;
        }
        if (cached_) {
            inc_.start(srcIn, maxLen + 1);
            return;
        }
        src_ = sourceOrPad(srcIn);
        model_.encode(src_.data(), 1, int(src_.size()), Pass::eval());
        mem1_ = model_.memory();
        valid1_ = model_.sourceValid();
    }

    // live: n hypotheses of len tokens each -> logp: [n, V]
    void step(const std::vector<Hypothesis>& live, int len, Mat<T>& logp)
    {
        const int n = int(live.size());
        const bool only = model_.config().decoderOnly();
        if (cached_) {
            if (only && len == 0) {
                // One hypothesis: <s> and the prompt, one position at a time; the last
                // position's output is the first new token's distribution.
                if (n != 1)
                    throw std::logic_error("Stepper: one hypothesis at the first step");
                int id = kBos;
                for (int next : prompt_) {
                    inc_.step(&id, logp);
                    id = next;
                }
                inc_.step(&id, logp);
                return;
            }
            tokens_.resize(std::size_t(n));
            for (int i = 0; i < n; ++i)
                tokens_[std::size_t(i)] = len == 0 ? kBos : live[std::size_t(i)].tokens.back();
            inc_.step(tokens_.data(), logp);
            return;
        }
        if (only) {
            // <s> prompt tokens, for each hypothesis, as one batch of n without source.
            const int width = 1 + int(prompt_.size()) + len;
            tokens_.assign(std::size_t(n) * width, kBos);
            for (int i = 0; i < n; ++i) {
                auto row = tokens_.begin() + std::ptrdiff_t(i) * width + 1;
                row = std::copy(prompt_.begin(), prompt_.end(), row);
                std::copy(live[std::size_t(i)].tokens.begin(), live[std::size_t(i)].tokens.end(), row);
            }
            model_.decode(tokens_.data(), n, width, mem_, nullptr, 0, Pass::eval());
            model_.nextTokenLogProbs(logp);
            return;
        }
        // Every live hypothesis has len tokens: decode them as one batch of n.
        const int S = int(src_.size());
        mem_.resize(Eigen::Index(n) * S, mem1_.cols());
        valid_.resize(std::size_t(n) * S);
        tokens_.assign(std::size_t(n) * (len + 1), kBos);
        for (int i = 0; i < n; ++i) {
            mem_.middleRows(Eigen::Index(i) * S, S) = mem1_;
            std::copy(valid1_.begin(), valid1_.end(), valid_.begin() + std::size_t(i) * S);
            std::copy(live[i].tokens.begin(), live[i].tokens.end(),
                      tokens_.begin() + std::size_t(i) * (len + 1) + 1);
        }
        model_.decode(tokens_.data(), n, len + 1, mem_, valid_.data(), S, Pass::eval());
        model_.nextTokenLogProbs(logp);
    }

    // The hypotheses that go on: parents[i] of the last step's live ones.
    void keep(const std::vector<int>& parents)
    {
        if (!cached_)
            return;  // the plain path rebuilds everything from the tokens
        bool same = int(parents.size()) == inc_.hypotheses();
        for (std::size_t i = 0; same && i < parents.size(); ++i)
            same = parents[i] == int(i);
        if (!same)
            inc_.reorder(parents);
    }

    // The last step's cross-attention of hypothesis i (cached path only).
    void appendCross(int i, CrossAttention& ca, std::vector<float>& perStep) const
    {
        for (int l = 0; l < ca.layers; ++l) {
            const Mat<T>& p = inc_.crossProbs(l);  // [n*heads, S]
            for (int h = 0; h < ca.heads; ++h)
                for (int j = 0; j < ca.srcLen; ++j)
                    perStep.push_back(float(p(Eigen::Index(i) * ca.heads + h, j)));
        }
    }
    bool cached() const { return cached_; }

private:
    Transformer<T>& model_;
    bool cached_;
    IncrementalDecoder<T> inc_;
    std::vector<int> src_, tokens_, prompt_;
    Mat<T> mem1_, mem_;
    std::vector<std::uint8_t> valid1_, valid_;
};

}  // namespace

template <typename T>
CrossAttention crossAttentionFor(Transformer<T>& model, const std::vector<int>& srcIn,
                                 const std::vector<int>& output, bool finished)
{
    const std::vector<int> src = sourceOrPad(srcIn);
    const int S = int(src.size());
    std::vector<int> tgtIn{kBos};
    tgtIn.insert(tgtIn.end(), output.begin(), output.end());
    // Step t's query is decoder input t; the last input is needed only if </s> followed it.
    if (!finished)
        tgtIn.pop_back();
    CrossAttention ca;
    ca.layers = model.layers(AttentionKind::Cross);
    ca.heads = model.config().heads;
    ca.steps = int(tgtIn.size());
    ca.srcLen = S;
    if (ca.layers == 0) {  // decoder-only: nothing attends to a source
        ca.steps = 0;
        return ca;
    }
    if (ca.steps == 0)
        return ca;
    model.encode(src.data(), 1, S, Pass::eval());
    model.decode(tgtIn.data(), 1, ca.steps, model.memory(), model.sourceValid().data(), S,
                 Pass::eval());
    ca.weights.resize(std::size_t(ca.layers) * ca.heads * ca.steps * S);
    float* w = ca.weights.data();
    for (int l = 0; l < ca.layers; ++l) {
        const Mat<T>& p = model.attention(AttentionKind::Cross, l).probs;  // [heads*steps, S]
        for (Eigen::Index i = 0; i < p.size(); ++i)
            *w++ = float(p.data()[i]);
    }
    return ca;
}

template <typename T>
DecodeResult greedyDecode(Transformer<T>& model, const std::vector<int>& src, int maxLen)
{
    DecodeOptions o;
    o.maxLen = maxLen;
    return greedyDecode(model, src, o);
}

template <typename T>
DecodeResult greedyDecode(Transformer<T>& model, const std::vector<int>& srcIn,
                          const DecodeOptions& o)
{
    const int maxLen = o.limitFor(model.config(), int(srcIn.size()));
    Stepper<T> stepper(model, srcIn, maxLen, o.cached);
    Hypothesis h;
    std::vector<Hypothesis> live(1);
    Mat<T> logp;
    // Cross-attention per step, [step][layers][heads][srcLen], from the cached path's steps.
    CrossAttention ca;
    ca.layers = model.layers(AttentionKind::Cross);
    ca.heads = model.config().heads;
    ca.srcLen = int(std::max<std::size_t>(srcIn.size(), 1));
    std::vector<float> perStep;
    while (int(h.tokens.size()) < maxLen) {
        stepper.step(live, int(h.tokens.size()), logp);
        if (stepper.cached())
            stepper.appendCross(0, ca, perStep);
        forbidSpecials(logp, int(h.tokens.size()) < o.minLen);
        Eigen::Index best = 0;
        logp.row(0).maxCoeff(&best);  // the first maximum: ties go to the lowest id
        h.logprob += double(logp(0, best));
        if (best == kEos) {
            h.finished = true;
            break;
        }
        h.tokens.push_back(int(best));
        live[0].tokens.push_back(int(best));
    }
    h.score = h.logprob / lengthPenalty(int(h.tokens.size()) + (h.finished ? 1 : 0), 0.6);
    DecodeResult r;
    if (stepper.cached()) {
        // Reorder [step][layer][head][src] into CrossAttention's [layer][head][step][src].
        ca.steps = ca.layers == 0 ? 0 : int(perStep.size() / (std::size_t(ca.layers) * ca.heads * ca.srcLen));
        ca.weights.resize(perStep.size());
        const std::size_t block = std::size_t(ca.srcLen);
        for (int t = 0; t < ca.steps; ++t)
            for (int l = 0; l < ca.layers; ++l)
                for (int hd = 0; hd < ca.heads; ++hd) {
                    const float* from = perStep.data()
                                        + ((std::size_t(t) * ca.layers + l) * ca.heads + hd) * block;
                    float* to = ca.weights.data()
                                + ((std::size_t(l) * ca.heads + hd) * ca.steps + t) * block;
                    std::copy(from, from + block, to);
                }
        r.cross = std::move(ca);
    } else {
        r.cross = crossAttentionFor(model, srcIn, h.tokens, h.finished);
    }
    r.nbest.push_back(std::move(h));
    return r;
}

template <typename T>
DecodeResult beamSearch(Transformer<T>& model, const std::vector<int>& srcIn,
                        const DecodeOptions& o)
{
    const int k = std::max(1, o.beam);
    const double alpha = std::max(0.0, o.alpha);  // the stopping bound needs lp to grow
    const int maxLen = o.limitFor(model.config(), int(srcIn.size()));
    Stepper<T> stepper(model, srcIn, maxLen, o.cached);

    auto finish = [&](Hypothesis h, bool eos) {
        h.finished = eos;
        h.score = h.logprob / lengthPenalty(int(h.tokens.size()) + (eos ? 1 : 0), alpha);
        return h;
    };

    DecodeResult r;
    // The tree (§5.5), when asked for: liveNode[i] is live[i]'s node.
    BeamTree* tree = o.tree ? &r.tree : nullptr;
    std::vector<int> liveNode, nextNode;
    auto addNode = [&](int parent, int step, int token, double logProb, double score,
                       BeamNode::State state) {
        BeamNode node;
        node.id = int(tree->nodes.size());
        node.parent = parent;
        node.step = step;
        node.token = token;
        node.logProb = logProb;
        node.score = score;
        node.state = state;
        tree->nodes.push_back(node);
        return node.id;
    };
    if (tree) {
        tree->beam = k;
        liveNode = {addNode(-1, 0, kBos, 0.0, 0.0, BeamNode::State::Kept)};
    }

    std::vector<Hypothesis> live(1), finished;
    Mat<T> logp;
    std::vector<int> parents;
    struct Candidate {
        double logprob;
        int hyp, token;
    };
    std::vector<Candidate> cands;
    for (int len = 0; len < maxLen && !live.empty(); ++len) {
        const int n = int(live.size());
        stepper.step(live, len, logp);
        forbidSpecials(logp, len < o.minLen);

        // The best k continuations by total log-probability.
        cands.clear();
        const int V = int(logp.cols());
        for (int i = 0; i < n; ++i)
            for (int t = 0; t < V; ++t)
                if (std::isfinite(double(logp(i, t))))
                    cands.push_back({live[i].logprob + double(logp(i, t)), i, t});
        const auto better = [](const Candidate& a, const Candidate& b) {
            if (a.logprob != b.logprob)
                return a.logprob > b.logprob;
            return a.hyp != b.hyp ? a.hyp < b.hyp : a.token < b.token;
        };
        const std::size_t keep = std::min(cands.size(), std::size_t(k));
        // The tree also shows the k best of the rest, as pruned.
        const std::size_t shown = tree ? std::min(cands.size(), std::size_t(2 * k)) : keep;
        std::partial_sort(cands.begin(), cands.begin() + shown, cands.end(), better);

        // The k best candidates go on; those that end with </s> finish and take their slot
        // (with k = 1 this is exactly greedy decoding).
        std::vector<Hypothesis> next;
        parents.clear();
        nextNode.clear();
        for (std::size_t rank = 0; rank < shown; ++rank) {
            const Candidate& c = cands[rank];
            const bool eos = c.token == kEos;
            if (tree) {
                const BeamNode::State state = rank >= keep ? BeamNode::State::Pruned
                                              : eos        ? BeamNode::State::Finished
                                                           : BeamNode::State::Kept;
                const int id = addNode(liveNode[std::size_t(c.hyp)], len + 1, c.token,
                                       double(logp(c.hyp, c.token)), c.logprob, state);
                if (state == BeamNode::State::Kept)
                    nextNode.push_back(id);
            }
            if (rank >= keep)
                continue;
            Hypothesis h = live[c.hyp];
            h.logprob = c.logprob;
            if (eos) {
                finished.push_back(finish(std::move(h), true));
                if (tree) {
                    tree->nodes.back().final = true;
                    tree->nodes.back().finalScore = finished.back().score;
                }
                continue;
            }
            h.tokens.push_back(c.token);
            next.push_back(std::move(h));
            parents.push_back(c.hyp);
        }
        live = std::move(next);
        std::swap(liveNode, nextNode);
        stepper.keep(parents);
        if (int(finished.size()) >= k && !live.empty()) {
            // Stop once no live hypothesis can beat the k-th best finished one. Its log-prob
            // can only fall and lp only grows, so logprob / lp(maxLen) bounds its final score.
            std::vector<double> scores;
            for (const Hypothesis& f : finished)
                scores.push_back(f.score);
            std::nth_element(scores.begin(), scores.begin() + (k - 1), scores.end(),
                             std::greater<double>());
            const double kth = scores[std::size_t(k - 1)];
            double bestBound = -std::numeric_limits<double>::infinity();
            for (const Hypothesis& h : live)
                bestBound = std::max(bestBound, h.logprob / lengthPenalty(maxLen + 1, alpha));
            if (bestBound <= kth)
                live.clear();
        }
    }
    for (std::size_t i = 0; i < live.size(); ++i) {  // reached maxLen without </s>
        finished.push_back(finish(std::move(live[i]), false));
        if (tree) {
            tree->nodes[std::size_t(liveNode[i])].final = true;
            tree->nodes[std::size_t(liveNode[i])].finalScore = finished.back().score;
        }
    }

    std::stable_sort(finished.begin(), finished.end(),
                     [](const Hypothesis& a, const Hypothesis& b) { return a.score > b.score; });
    const int nb = std::clamp(o.nbest, 1, k);
    for (int i = 0; i < nb && i < int(finished.size()); ++i)
        r.nbest.push_back(finished[i]);
    if (!r.nbest.empty())
        r.cross = crossAttentionFor(model, srcIn, r.nbest[0].tokens, r.nbest[0].finished);
    return r;
}

template <typename T>
DecodeResult sampleDecode(Transformer<T>& model, const std::vector<int>& srcIn,
                          const DecodeOptions& o, const SamplingOptions& sampling,
                          std::vector<SamplingStep>* steps)
{
    if (const QString bad = sampling.validate(); !bad.isEmpty())
        throw std::invalid_argument(bad.toStdString());
    const int maxLen = o.limitFor(model.config(), int(srcIn.size()));
    Stepper<T> stepper(model, srcIn, maxLen, o.cached);
    Rng rng(sampling.seed);
    Hypothesis h;
    std::vector<Hypothesis> live(1);
    Mat<T> logp;
    std::vector<double> row;
    if (steps)
        steps->clear();
    while (int(h.tokens.size()) < maxLen) {
        stepper.step(live, int(h.tokens.size()), logp);
        std::vector<double> model;  // the model's own distribution, before anything is forbidden
        if (steps)
            for (Eigen::Index i = 0; i < logp.cols(); ++i)
                model.push_back(std::exp(double(logp(0, i))));
        forbidSpecials(logp, int(h.tokens.size()) < o.minLen);
        row.assign(logp.data(), logp.data() + logp.cols());  // row 0 of a [1, V] matrix
        std::vector<double> cut = samplingDistribution(row, sampling);
        const int token = drawToken(cut, rng);
        if (steps)
            steps->push_back({std::move(model), std::move(cut), token});
        h.logprob += double(logp(0, token));
        if (token == kEos) {
            h.finished = true;
            break;
        }
        h.tokens.push_back(token);
        live[0].tokens.push_back(token);
    }
    h.score = h.logprob / lengthPenalty(int(h.tokens.size()) + (h.finished ? 1 : 0), 0.6);
    DecodeResult r;
    r.cross = crossAttentionFor(model, srcIn, h.tokens, h.finished);
    r.nbest.push_back(std::move(h));
    return r;
}

template DecodeResult sampleDecode<float>(Transformer<float>&, const std::vector<int>&,
                                          const DecodeOptions&, const SamplingOptions&,
                                          std::vector<SamplingStep>*);
template DecodeResult sampleDecode<double>(Transformer<double>&, const std::vector<int>&,
                                           const DecodeOptions&, const SamplingOptions&,
                                           std::vector<SamplingStep>*);
template CrossAttention crossAttentionFor<float>(Transformer<float>&, const std::vector<int>&,
                                                 const std::vector<int>&, bool);
template CrossAttention crossAttentionFor<double>(Transformer<double>&, const std::vector<int>&,
                                                  const std::vector<int>&, bool);
template DecodeResult greedyDecode<float>(Transformer<float>&, const std::vector<int>&, int);
template DecodeResult greedyDecode<double>(Transformer<double>&, const std::vector<int>&, int);
template DecodeResult greedyDecode<float>(Transformer<float>&, const std::vector<int>&,
                                          const DecodeOptions&);
template DecodeResult greedyDecode<double>(Transformer<double>&, const std::vector<int>&,
                                           const DecodeOptions&);
template DecodeResult beamSearch<float>(Transformer<float>&, const std::vector<int>&,
                                        const DecodeOptions&);
template DecodeResult beamSearch<double>(Transformer<double>&, const std::vector<int>&,
                                         const DecodeOptions&);

}  // namespace as
