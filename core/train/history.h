// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a training run records as it goes: the loss of every step, the validations, the
// attention of a probe sentence at intervals, the last batch. A checkpoint stores it and the
// window draws it; TrainingSession (train/session.h) is what fills it.
#include "eval/induction_record.h"
#include "model/head_id.h"
#include "model/tensor.h"
#include "train/batch.h"

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <limits>

#include <memory>
#include <vector>

namespace as {

struct LossPoint {
    long step = 0;
    double seconds = 0;  // wall time of training when the step ended (paused time excluded)
    double loss = 0;     // label-smoothed loss of the step's batch
    double lr = 0;       // rate applied in the step
    long tokens = 0;     // target tokens of the batch
};

struct EvalPoint {
    long step = 0;
    double seconds = 0;
    double loss = 0;      // label-smoothed loss on the validation set
    double accuracy = 0;  // teacher-forced token accuracy on the validation set
    // BLEU of greedy translations of the validation set, 0 … 100; NaN when not computed.
    double bleu = std::numeric_limits<double>::quiet_NaN();
    // NLL per target token on the validation set, without label smoothing: a language model's
    // perplexity is exp(nll) (core/SPEC.md §3.4). NaN when not recorded (files of format 3 and
    // older).
    double nll = std::numeric_limits<double>::quiet_NaN();
    double perplexity() const { return std::exp(nll); }  // NaN when nll is
};

// The attention of every head of every layer for one probe pair (teacher-forced, dropout off).
struct AttentionRecord {
    long step = 0;
    QStringList srcTokens;  // encoder positions (keys of encoder self and cross attention)
    QStringList tgtTokens;  // decoder input positions: "<s>", y1, …, yn
    int heads = 0;
    // [layer] -> [heads * Sq, Sk]: head h's map is rows h*Sq … h*Sq+Sq-1 (query rows, key columns)
    std::vector<Mat<float>> encoderSelf, decoderSelf, cross;
};
// The record's layers of one kind.
const std::vector<Mat<float>>& attentionLayers(const AttentionRecord& record, AttentionKind kind);

// A training batch, for the masks view.
struct BatchRecord {
    int B = 0, S = 0, T = 0;
    std::vector<int> src, tgtIn, tgtOut;  // [B*S], [B*T], [B*T]
    int tgtVocab = 0;
    double labelSmoothing = 0;
};

// One sentence pair translated: the source and reference as the corpus has them, the
// hypothesis as the model's output detokenised.
struct TranslationSample {
    QString source, reference, hypothesis;
};

// The session's example pairs translated (greedy, dropout off) at one step: the samples panel.
struct SamplesRecord {
    long step = 0;
    // A decoder-only model's (core/SPEC.md §2.10): each source is a prompt (the examples' first
    // words), the hypothesis its greedy continuation, and there is no reference.
    bool generated = false;
    std::vector<TranslationSample> samples;
};

// A batch as the history keeps it (with what the masks view needs to draw its smoothing), and
// back: the one conversion between the two.
std::shared_ptr<const BatchRecord> recordOf(const Batch& batch, int tgtVocab, double labelSmoothing);
Batch batchOf(const BatchRecord& record);

struct TrainingHistory {
    std::vector<LossPoint> loss;
    std::vector<EvalPoint> eval;
    std::vector<std::shared_ptr<const AttentionRecord>> attention;  // oldest first
    std::shared_ptr<const BatchRecord> lastBatch;                   // may be null
    // A decoder-only model's induction-head measurement at each validation (core/SPEC.md §13).
    std::vector<std::shared_ptr<const InductionRecord>> induction;
};

// The one policy for a run's records kept at a bounded density (the attention history — the
// session's record and the Attention view's replay slider — the Health view's records and the
// Model view's traces): a record with an earlier step than the last one starts a new run; one at
// the same step replaces it (a new probe); the same record twice is ignored. Record has a `step`.
//
// Thinning keeps the whole run covered evenly at any time: the run's steps from the first
// record's on are cut into buckets of `stride` steps (a power of two), and the history is the
// first record of every bucket plus the newest record (the live end: when it is not the first of
// its bucket, the next record replaces it). The stride is the smallest that keeps at most
// `capacity` records; it only grows as the run goes on (a longer span, or a full last bucket),
// so a coarser bucket's first record is always still held, and nothing is kept denser than the
// rest. No state besides the records: a history read back from a checkpoint goes on the same.
template <class Record>
void appendThinned(std::vector<std::shared_ptr<const Record>>& history,
                   std::shared_ptr<const Record> record, int capacity)
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
    if (history.empty()) {
        history.push_back(std::move(record));
        return;
    }
    const long cap = std::max(2, capacity);
    const long first = history.front()->step;
    const long span = record->step - first;
    const long previous = history.back()->step - first;
    // Fits: the buckets up to the newest record's, plus the newest when its bucket already has
    // a first record (it then stands in as the live end).
    auto fits = [&](long stride) {
        const long buckets = span / stride + 1;
        return buckets < cap || (buckets == cap && previous / stride != span / stride);
    };
    long stride = 1;
    while (!fits(stride))
        stride *= 2;
    history.push_back(std::move(record));
    // Keep the first record of every bucket, and the newest.
    std::size_t kept = 1;
    long lastBucket = 0;
    for (std::size_t i = 1; i < history.size(); ++i) {
        const long bucket = (history[i]->step - first) / stride;
        if (bucket != lastBucket || i + 1 == history.size()) {
            history[kept++] = std::move(history[i]);
            lastBucket = bucket;
        }
    }
    history.resize(kept);
}

inline constexpr int kAttentionHistoryCapacity = 500;
inline void appendAttentionRecord(std::vector<std::shared_ptr<const AttentionRecord>>& history,
                                  std::shared_ptr<const AttentionRecord> record,
                                  int capacity = kAttentionHistoryCapacity)
{
    appendThinned(history, std::move(record), capacity);
}

}  // namespace as
