// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Beam search's tree (core/SPEC.md §5.5) as a value the window draws (issue 25 §2, the beam
// tree of the Translate view): every node with its token text, log-probability, score, state
// and length-penalised score, and the cross-attention behind it, so that clicking a node can
// show its prefix's cross-attention without touching the model.
//
// A node's cross-attention row is the one of the decoder position that produced its token: the
// position reading <s> + its parent's prefix. The decoder is causal, so the rows of the nodes on
// the path from the root to a node are exactly the cross-attention of a teacher-forced pass over
// that node's prefix (crossAttentionFor, decode/decode.h); tests/ui/test_ui_beam_tree checks this.
#include "decode/decode.h"
#include "text/vocab.h"

#include <QString>
#include <QStringList>

#include <vector>

namespace as {

struct BeamTreeRecord {
    int beam = 0;                 // 0: no tree
    int layers = 0, heads = 0;    // of the cross-attention
    QStringList source;           // the source tokens as the model read them
    std::vector<BeamNode> nodes;  // the core tree, as beamSearch made it
    QStringList tokens;           // nodes[i].token as the target vocabulary spells it
    // nodes[i]'s cross-attention row, [layer][head][source token]; empty at the root.
    std::vector<std::vector<float>> cross;
    // The nodes of the best hypothesis (nbest[0]) from the root down; empty when no tree.
    std::vector<int> best;

    int srcLen() const { return int(source.size()); }
    bool empty() const { return nodes.empty(); }
    // The node ids from the root (0) down to id.
    std::vector<int> path(int id) const;
    // The cross-attention of node id's prefix: one row per node on its path after the root,
    // [row][source token], for one layer and head. Empty for the root.
    std::vector<std::vector<float>> prefixCross(int id, int layer, int head) const;
};

// The tree of a beam search of width beam on src (ids without specials) with the model as it
// is (dropout off), and the cross-attention of every node (one teacher-forced pass per branch).
template <typename T>
BeamTreeRecord makeBeamTreeRecord(Transformer<T>& model, const Vocab& tgtVocab,
                                  const QStringList& sourceTokens, const std::vector<int>& src,
                                  DecodeOptions options);
// The same, of a tree already searched (DecodeOptions::tree) on src.
template <typename T>
BeamTreeRecord beamTreeRecordOf(Transformer<T>& model, const Vocab& tgtVocab,
                                const QStringList& sourceTokens, const std::vector<int>& src,
                                const BeamTree& tree);

}  // namespace as
