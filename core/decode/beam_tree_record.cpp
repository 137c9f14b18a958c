// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "decode/beam_tree_record.h"

#include <algorithm>

namespace as {

std::vector<int> BeamTreeRecord::path(int id) const
{
    std::vector<int> out;
    for (int n = id; n >= 0 && n < int(nodes.size()); n = nodes[std::size_t(n)].parent)
        out.push_back(n);
    return {out.rbegin(), out.rend()};
}

std::vector<std::vector<float>> BeamTreeRecord::prefixCross(int id, int layer, int head) const
{
    std::vector<std::vector<float>> rows;
    if (layer < 0 || layer >= layers || head < 0 || head >= heads)
        return rows;
    const std::size_t S = std::size_t(srcLen());
    for (int n : path(id)) {
        const std::vector<float>& c = cross[std::size_t(n)];
        if (c.empty())
            continue;  // the root
        const std::size_t at = (std::size_t(layer) * std::size_t(heads) + std::size_t(head)) * S;
        rows.emplace_back(c.begin() + std::ptrdiff_t(at), c.begin() + std::ptrdiff_t(at + S));
    }
    return rows;
}

template <typename T>
BeamTreeRecord beamTreeRecordOf(Transformer<T>& model, const Vocab& tgtVocab,
                                const QStringList& sourceTokens, const std::vector<int>& src,
                                const BeamTree& tree)
{
    BeamTreeRecord r;
    r.beam = tree.beam;
    r.source = sourceTokens;
    r.nodes = tree.nodes;
    r.layers = model.layers(AttentionKind::Cross);
    r.heads = model.config().heads;
    const std::size_t N = r.nodes.size();
    for (const BeamNode& n : r.nodes)
        r.tokens.push_back(tgtVocab.token(n.token));
    // The row each node's children share: the cross-attention at the position reading <s> + its
    // prefix. Deepest parents first: one teacher-forced pass over a parent's prefix gives the
    // rows of every ancestor too.
    std::vector<bool> hasChildren(N, false);
    for (const BeamNode& n : r.nodes)
        if (n.parent >= 0)
            hasChildren[std::size_t(n.parent)] = true;
    std::vector<std::vector<float>> childRow(N);
    for (int p = int(N) - 1; p >= 0; --p) {
        if (!hasChildren[std::size_t(p)] || !childRow[std::size_t(p)].empty())
            continue;
        std::vector<int> onPath = r.path(p);  // root first
        std::vector<int> prefix;
        for (std::size_t i = 1; i < onPath.size(); ++i)
            prefix.push_back(r.nodes[std::size_t(onPath[i])].token);
        // finished = true: the pass reads <s> + prefix whole, one row per position.
        const CrossAttention ca = crossAttentionFor(model, src, prefix, true);
        for (std::size_t i = 0; i < onPath.size(); ++i) {
            std::vector<float>& row = childRow[std::size_t(onPath[i])];
            if (!row.empty())
                continue;
            const int step = int(i);  // the query position of node onPath[i]'s children
            for (int l = 0; l < ca.layers; ++l)
                for (int h = 0; h < ca.heads; ++h)
                    for (int s = 0; s < ca.srcLen; ++s)
                        row.push_back(ca.at(l, h, step, s));
        }
    }
    r.cross.resize(N);
    for (std::size_t i = 0; i < N; ++i)
        if (r.nodes[i].parent >= 0)
            r.cross[i] = childRow[std::size_t(r.nodes[i].parent)];
    // The best hypothesis: the first final node in the n-best order of §5.5.
    int best = -1;
    for (const BeamNode& n : r.nodes) {
        if (!n.final)
            continue;
        if (best < 0)
            best = n.id;
        else {
            const BeamNode& b = r.nodes[std::size_t(best)];
            const bool fn = n.state == BeamNode::State::Finished,
                       fb = b.state == BeamNode::State::Finished;
            if (n.finalScore > b.finalScore || (n.finalScore == b.finalScore && fn && !fb))
                best = n.id;
        }
    }
    if (best >= 0)
        r.best = r.path(best);
    return r;
}

template <typename T>
BeamTreeRecord makeBeamTreeRecord(Transformer<T>& model, const Vocab& tgtVocab,
                                  const QStringList& sourceTokens, const std::vector<int>& src,
                                  DecodeOptions options)
{
    options.tree = true;
    const DecodeResult d = beamSearch(model, src, options);
    return beamTreeRecordOf(model, tgtVocab, sourceTokens, src, d.tree);
}

template BeamTreeRecord beamTreeRecordOf<float>(Transformer<float>&, const Vocab&,
                                                const QStringList&, const std::vector<int>&,
                                                const BeamTree&);
template BeamTreeRecord beamTreeRecordOf<double>(Transformer<double>&, const Vocab&,
                                                 const QStringList&, const std::vector<int>&,
                                                 const BeamTree&);
template BeamTreeRecord makeBeamTreeRecord<float>(Transformer<float>&, const Vocab&,
                                                  const QStringList&, const std::vector<int>&,
                                                  DecodeOptions);
template BeamTreeRecord makeBeamTreeRecord<double>(Transformer<double>&, const Vocab&,
                                                   const QStringList&, const std::vector<int>&,
                                                   DecodeOptions);

}  // namespace as
