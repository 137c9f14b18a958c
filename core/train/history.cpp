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

void appendAttentionRecord(std::vector<std::shared_ptr<const AttentionRecord>>& history,
                           std::shared_ptr<const AttentionRecord> record, int capacity)
{
    if (!record)
        return;
    if (!history.empty()) {
        if (history.back() == record)
            return;
        if (record->step < history.back()->step)
            history.clear();
        else if (record->step == history.back()->step)
            history.pop_back();
    }
    if (int(history.size()) >= std::max(2, capacity)) {
        std::vector<std::shared_ptr<const AttentionRecord>> kept;
        kept.reserve(history.size() / 2 + 1);
        for (std::size_t i = 0; i < history.size(); i += 2)
            kept.push_back(history[i]);
        history.swap(kept);
    }
    history.push_back(std::move(record));
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
