// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "train/history.h"

namespace as {

const std::vector<Mat<float>>& attentionLayers(const AttentionRecord& r, AttentionKind kind)
{
    switch (kind) {
    case AttentionKind::EncoderSelf: return r.encoderSelf;
    case AttentionKind::DecoderSelf: return r.decoderSelf;
    case AttentionKind::Cross: break;
    }
    return r.cross;
}

std::shared_ptr<const BatchRecord> recordOf(const Batch& batch, int tgtVocab, double labelSmoothing)
{
    auto r = std::make_shared<BatchRecord>();
    r->B = batch.B;
    r->S = batch.S;
    r->T = batch.T;
    r->src = batch.src;
    r->tgtIn = batch.tgtIn;
    r->tgtOut = batch.tgtOut;
    r->tgtVocab = tgtVocab;
    r->labelSmoothing = labelSmoothing;
    return r;
}

Batch batchOf(const BatchRecord& r)
{
    return Batch{r.B, r.S, r.T, r.src, r.tgtIn, r.tgtOut};
}

}  // namespace as
