// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "eval/trace.h"

#include "model/softmax.h"
#include "text/vocab.h"
#include "train/batch.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace as {

// A named namespace, not an anonymous one: traceForward's lambdas capture a Recorder, and a
// type of an anonymous namespace inside an exported template is a warning (-Wsubobject-linkage)
// wherever this file is compiled as part of a unity batch (CMakeLists.txt, AS_UNITY_BUILD).
namespace trace_detail {

const char* const kAttentionParts[] = {"q",       "k",       "v",   "scores",
                                       "weights", "context", "out", "residual"};

void addLayerNames(std::vector<std::string>& names, const std::string& layer, bool decoder)
{
    for (const char* block : decoder ? std::vector<const char*>{"self", "cross"}
                                     : std::vector<const char*>{"self"})
        for (const char* part : kAttentionParts)
            names.push_back(layer + "." + block + "." + part);
    names.push_back(layer + ".ff.hidden");
    names.push_back(layer + ".ff.out");
    names.push_back(layer + ".out");
}

// Collects the selected tensors in the order they are added.
template <typename T>
class Recorder {
public:
    Recorder(ForwardTrace& trace, const std::vector<std::string>& only) : t_(trace), only_(only) {}

    bool wants(const std::string& name) const { return traceNameSelected(name, only_); }

    // A [rows, cols] matrix (any Eigen expression).
    template <typename M>
    void matrix(const std::string& name, const M& m)
    {
        if (!wants(name))
            return;
        TraceTensor& x = add(name, {int(m.rows()), int(m.cols())});
        x.data.reserve(std::size_t(m.size()));
        for (Eigen::Index r = 0; r < m.rows(); ++r)
            for (Eigen::Index c = 0; c < m.cols(); ++c)
                x.data.push_back(double(m(r, c)));
    }

    // H×rows×d_k: head h's columns [h*d_k, (h+1)*d_k) of `rows` rows of stride ld from base.
    void heads(const std::string& name, const T* base, int ld, int rows, int H, int dk)
    {
        if (!wants(name))
            return;
        TraceTensor& x = add(name, {H, rows, dk});
        x.data.reserve(std::size_t(H) * rows * dk);
        for (int h = 0; h < H; ++h)
            for (int r = 0; r < rows; ++r)
                for (int c = 0; c < dk; ++c)
                    x.data.push_back(double(base[std::size_t(r) * ld + h * dk + c]));
    }

    // One attention block's parts, from what it keeps of the last forward (batch of one).
    void attention(const std::string& prefix, const MultiHeadAttention<T>& a, bool self,
                   const Mat<T>& out, const Mat<T>& residual)
    {
        const int d = a.d, H = a.heads, dk = a.dk;
        if (self) {
            const T* base = a.qkvBuf.data();
            heads(prefix + ".q", base, 3 * d, a.Sq, H, dk);
            heads(prefix + ".k", base + d, 3 * d, a.Sk, H, dk);
            heads(prefix + ".v", base + 2 * d, 3 * d, a.Sk, H, dk);
        } else {
            heads(prefix + ".q", a.qBuf.data(), d, a.Sq, H, dk);
            heads(prefix + ".k", a.kvBuf.data(), 2 * d, a.Sk, H, dk);
            heads(prefix + ".v", a.kvBuf.data() + d, 2 * d, a.Sk, H, dk);
        }
        if (wants(prefix + ".scores")) {
            TraceTensor& x = add(prefix + ".scores", {H, a.Sq, a.Sk});
            for (int h = 0; h < H; ++h)
                for (int i = 0; i < a.Sq; ++i)
                    for (int j = 0; j < a.Sk; ++j) {
                        const bool m = a.masked(0, i, j);
                        x.data.push_back(m ? 0.0 : double(a.scores(Eigen::Index(h) * a.Sq + i, j)));
                        x.masked.push_back(m);
                    }
        }
        if (wants(prefix + ".weights")) {
            TraceTensor& x = add(prefix + ".weights", {H, a.Sq, a.Sk});
            x.data.assign(a.probs.data(), a.probs.data() + a.probs.size());
        }
        matrix(prefix + ".context", a.ctx);
        matrix(prefix + ".out", out);
        matrix(prefix + ".residual", residual);
    }

private:
    TraceTensor& add(const std::string& name, std::vector<int> shape)
    {
        t_.tensors.push_back({name, std::move(shape), {}, {}});
        return t_.tensors.back();
    }

    ForwardTrace& t_;
    const std::vector<std::string>& only_;
};

}  // namespace trace_detail

using namespace trace_detail;

const TraceTensor* ForwardTrace::find(const std::string& name) const
{
    for (const TraceTensor& t : tensors)
        if (t.name == name)
            return &t;
    return nullptr;
}

std::vector<std::string> traceTensorNames(const ModelConfig& config)
{
    // A decoder-only model (core/SPEC.md §2.10): no encoder, no cross-attention.
    const bool only = config.decoderOnly();
    std::vector<std::string> names;
    if (!only) {
        names = {"encoder.embed", "encoder.input"};
        for (int l = 0; l < config.encoder_layers; ++l)
            addLayerNames(names, "encoder." + std::to_string(l), false);
        names.push_back("encoder.out");
    }
    names.insert(names.end(), {"decoder.embed", "decoder.input"});
    for (int l = 0; l < config.decoder_layers; ++l)
        addLayerNames(names, "decoder." + std::to_string(l), !only);
    names.insert(names.end(), {"decoder.out", "logits", "log_probs"});
    for (int l = 0; l < config.decoder_layers; ++l)
        names.push_back("lens." + std::to_string(l));
    return names;
}

bool traceNameSelected(const std::string& name, const std::vector<std::string>& selection)
{
    if (selection.empty())
        return true;
    for (const std::string& p : selection)
        if (!p.empty() && name.starts_with(p)
            && (name.size() == p.size() || p.back() == '.' || name[p.size()] == '.'))
            return true;
    return false;
}

template <typename T>
ForwardTrace traceForward(Transformer<T>& model, const std::vector<int>& source,
                          const std::vector<int>& target, const std::vector<std::string>& only)
{
    const ModelConfig& c = model.config();
    const bool decoderOnly = c.decoderOnly();
    if (decoderOnly && !source.empty())
        throw std::invalid_argument("traceForward: a decoder-only model reads no source (its text is the target)");
    if (!decoderOnly && source.empty())
        throw std::invalid_argument("traceForward: the source is empty");
    const Batch batch = decoderOnly ? makeSentenceLmBatch({target}) : makeBatch({source}, {target});

    // The model's own forward pass, dropout off, with the attention scores kept.
    struct ScoresKept {
        Transformer<T>& m;
        ~ScoresKept() { m.setKeepScores(false); }
    } kept{model};
    model.setKeepScores(true);
    model.forwardLoss(batch, Pass::eval());

    ForwardTrace t;
    t.source = source;
    t.decoderInput = batch.tgtIn;
    const Mat<T>& logits = model.logits();
    for (Eigen::Index r = 0; r < logits.rows(); ++r) {
        Eigen::Index best = 0;
        logits.row(r).maxCoeff(&best);
        t.output.push_back(int(best));
    }

    Recorder<T> rec(t, only);
    auto embedded = [&](const char* name, bool targetSide, const std::vector<int>& ids) {
        if (!rec.wants(name))
            return;
        const Embedding<T>& e = model.embedding(targetSide);
        const ConstMatMap<T> table(e.ps->values() + e.w, e.vocab, e.d);
        const T scale = e.scale();  // as Embedding::forward scales
        Mat<T> x(Eigen::Index(ids.size()), e.d);
        for (std::size_t i = 0; i < ids.size(); ++i)
            x.row(Eigen::Index(i)) = table.row(ids[i]) * scale;
        rec.matrix(name, x);
    };

    if (!decoderOnly) {
        embedded("encoder.embed", false, t.source);
        rec.matrix("encoder.input", model.encoderState(0));
        for (int l = 0; l < c.encoder_layers; ++l) {
            const EncoderLayer<T>& L = model.encoderLayer(l);
            const std::string p = "encoder." + std::to_string(l);
            rec.attention(p + ".self", L.self_attn, true, L.sub1.s, L.x1);
            if (L.feedForward) {  // attention-only layers have none (§2.12)
                rec.matrix(p + ".ff.hidden", L.ffn.h);
                rec.matrix(p + ".ff.out", L.sub2.s);
            }
            rec.matrix(p + ".out", model.encoderState(l + 1));
        }
        rec.matrix("encoder.out", model.memory());
    }

    embedded("decoder.embed", true, t.decoderInput);
    rec.matrix("decoder.input", model.decoderState(0));
    for (int l = 0; l < c.decoder_layers; ++l) {
        const DecoderLayer<T>& L = model.decoderLayer(l);
        const std::string p = "decoder." + std::to_string(l);
        rec.attention(p + ".self", L.self_attn, true, L.sub1.s, L.y1);
        if (!decoderOnly)
            rec.attention(p + ".cross", L.cross_attn, false, L.sub2.s, L.y2);
        if (L.feedForward) {  // attention-only layers have none (§2.12)
            rec.matrix(p + ".ff.hidden", L.ffn.h);
            rec.matrix(p + ".ff.out", L.sub3.s);
        }
        rec.matrix(p + ".out", model.decoderState(l + 1));
    }
    rec.matrix("decoder.out", model.decoderOutput());
    rec.matrix("logits", logits);
    if (rec.wants("log_probs")) {
        Mat<T> logp = logits;
        logSoftmaxRows<T>(logp);
        rec.matrix("log_probs", logp);
    }
    for (int l = 0; l < c.decoder_layers; ++l) {
        const std::string name = "lens." + std::to_string(l);
        if (!rec.wants(name))
            continue;
        Mat<T> lens;
        model.lensLogProbs(model.decoderState(l + 1), lens);
        rec.matrix(name, lens);
    }
    return t;
}

template ForwardTrace traceForward(Transformer<float>&, const std::vector<int>&,
                                   const std::vector<int>&, const std::vector<std::string>&);
template ForwardTrace traceForward(Transformer<double>&, const std::vector<int>&,
                                   const std::vector<int>&, const std::vector<std::string>&);

std::vector<std::string> traceNamesWithoutLens(const ModelConfig& config)
{
    std::vector<std::string> names;
    for (std::string& n : traceTensorNames(config))
        if (n.rfind("lens.", 0) != 0)
            names.push_back(std::move(n));
    return names;
}

std::vector<int> topTraceTokens(const TraceTensor& logProbs, int k)
{
    std::vector<int> ids;
    if (logProbs.shape.size() != 2)
        return ids;
    const int T = logProbs.shape[0], V = logProbs.shape[1];
    std::vector<double> best(std::size_t(V), -std::numeric_limits<double>::infinity());
    for (int t = 0; t < T; ++t) {
        const double* row = logProbs.data.data() + std::size_t(t) * std::size_t(V);
        const int arg = int(std::max_element(row, row + V) - row);
        if (std::find(ids.begin(), ids.end(), arg) == ids.end() && int(ids.size()) < k)
            ids.push_back(arg);
        for (int v = 0; v < V; ++v)
            best[std::size_t(v)] = std::max(best[std::size_t(v)], row[v]);
    }
    std::vector<int> order(static_cast<std::size_t>(V));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return best[std::size_t(a)] > best[std::size_t(b)]; });
    for (int v : order) {
        if (int(ids.size()) >= k)
            break;
        if (std::find(ids.begin(), ids.end(), v) == ids.end())
            ids.push_back(v);
    }
    return ids;
}

}  // namespace as
