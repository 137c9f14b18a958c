// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// What the worker computes for the views on request (training_worker.h), with the current
// weights: a head's neurons on the probe, an embedding table's projection and a token's
// neighbours, the probe's decoding record, and a copy of the model for translation.
#include "training_worker.h"

namespace as {

void TrainingWorker::setDecodingWanted(bool wanted)
{
    decodingWanted_ = wanted;
    emitDecodingIfDue();
}

void TrainingWorker::setDecodingSampling(const std::optional<SamplingOptions>& sampling)
{
    decodingSampling_ = sampling;
    decodingStale_ = true;
    emitDecodingIfDue();
}

void TrainingWorker::emitDecodingIfDue()
{
    if (!decodingWanted_ || !session_ || !hasProbe())
        return;
    const long step = session_->stepCount();
    if (!decodingStale_ && step == decodingStep_)
        return;
    const bool training = running_ || pendingSteps_ > 0;
    if (!decodingStale_ && training && sinceDecoding_.isValid() && sinceDecoding_.elapsed() < 1000)
        return;  // the pause (or the next snapshot after a second) brings it
    const SessionData& data = session_->data();
    // A decoder-only model continues the probe's text (its target side), with no reference.
    const bool only = session_->model().config().decoderOnly();
    auto r = std::make_shared<DecodingRecord>(makeDecodingRecord(
        session_->model(), data.srcVocab(), data.tgtVocab(),
        only ? data.tgtVocab().encode(probe_.tgt) : data.srcVocab().encode(probe_.src),
        data.tgtVocab().encode(probe_.tgt), probeHasReference_ && !only, 5, decodingSampling_));
    r->step = step;
    decodingStale_ = false;
    decodingStep_ = step;
    sinceDecoding_.start();
    emit decodingReady(r);
}

void TrainingWorker::requestNeuron(AttentionKind kind, int layer, int head, int query)
{
    if (!session_ || !hasProbe())
        return;
    Transformer<float>& m = session_->model();
    if (m.layers(kind) == 0)  // a decoder-only model: causal self-attention alone
        kind = AttentionKind::DecoderSelf;
    const SessionData& data = session_->data();
    const ModelConfig& c = m.config();
    m.evaluate(encodePairs(data.description(), {probe_}));  // the probe, dropout off
    auto r = std::make_shared<NeuronRecord>();
    r->step = session_->stepCount();
    r->kind = kind;
    r->layer = std::clamp(layer, 0, m.layers(kind) - 1);
    r->head = std::clamp(head, 0, c.heads - 1);
    QStringList src = probe_.src;
    for (QString& t : src)
        if (!data.srcVocab().contains(t))
            t = QStringLiteral("<unk>");
    const QStringList tgt = QStringList{QStringLiteral("<s>")} + probe_.tgt;
    r->queryTokens = kind == AttentionKind::EncoderSelf ? src : tgt;
    r->keyTokens = kind == AttentionKind::DecoderSelf ? tgt : src;
    r->query = std::clamp(query, 0, int(r->queryTokens.size()) - 1);
    r->view = neuronView(m, kind, r->layer, 0, r->head, r->query);
    if (kind == AttentionKind::EncoderSelf && r->layer == 0)
        r->terms = firstLayerScoreTerms(m, data.srcVocab().encode(probe_.src));
    emit neuronReady(r);
}

void TrainingWorker::requestEmbedding(EmbeddingTable table)
{
    // A decoder-only model has no source table: the view stops offering it (setHasSource).
    if (!session_ || (table == EmbeddingTable::Source && session_->model().config().decoderOnly()))
        return;
    const SessionData& data = session_->data();
    const Vocab& vocab = table == EmbeddingTable::Source ? data.srcVocab() : data.tgtVocab();
    emit embeddingReady(projector_.project(embeddingRows(session_->model(), table), vocab, table,
                                           session_->stepCount(), EmbeddingProjector::kMaxShown,
                                           session_->model().config().tie));
}

void TrainingWorker::requestNeighbours(EmbeddingTable table, int id)
{
    // A decoder-only model has no source table: the view stops offering it (setHasSource).
    if (!session_ || (table == EmbeddingTable::Source && session_->model().config().decoderOnly()))
        return;
    const SessionData& data = session_->data();
    const Vocab& vocab = table == EmbeddingTable::Source ? data.srcVocab() : data.tgtVocab();
    emit neighboursReady(EmbeddingProjector::neighbours(embeddingRows(session_->model(), table), vocab,
                                                        table, id, session_->stepCount()));
}

void TrainingWorker::requestModelCopy()
{
    if (!session_)
        return;
    // The weights change only by a step or with the session: until then the last copy is
    // still theirs (a mute re-translating with paused weights need not copy 35 MB again).
    if (lastCopy_ && lastCopyGeneration_ == validations_->generation() && lastCopy_->step == session_->stepCount()) {
        emit modelCopyReady(lastCopy_);
        return;
    }
    auto copy = std::make_shared<ModelCopy>();
    const SessionData& data = session_->data();
    copy->step = session_->stepCount();
    copy->model = std::shared_ptr<Transformer<float>>(session_->model().clone());
    copy->srcVocab = data.srcVocab();
    copy->tgtVocab = data.tgtVocab();
    copy->srcTokenizer = data.srcTokenizer();
    copy->tgtTokenizer = data.tgtTokenizer();
    copy->data = session_->sharedData();
    lastCopy_ = copy;
    lastCopyGeneration_ = validations_->generation();
    emit modelCopyReady(copy);
}

}  // namespace as
