#pragma once
// What a training run records as it goes: the loss of every step, the validations, the
// attention of a probe sentence at intervals, the last batch. A checkpoint stores it and the
// window draws it; TrainingSession (train/session.h) is what fills it.
#include "model/head_id.h"
#include "model/tensor.h"
#include "train/batch.h"

#include <QStringList>

#include <algorithm>
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
};

// The one policy for a run's records kept at a bounded density (the attention history — the
// session's record and the Attention view's replay slider — and the Health view's records):
// a record with an earlier step than the last one starts a new run; one at the same step
// replaces it (a new probe); when `capacity` records are held, every other one is dropped
// first, so that the whole run stays covered at half the density. Record has a `step`.
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
    if (int(history.size()) >= std::max(2, capacity)) {
        std::vector<std::shared_ptr<const Record>> kept;
        kept.reserve(history.size() / 2 + 1);
        for (std::size_t i = 0; i < history.size(); i += 2)
            kept.push_back(history[i]);
        history.swap(kept);
    }
    history.push_back(std::move(record));
}

inline constexpr int kAttentionHistoryCapacity = 500;
inline void appendAttentionRecord(std::vector<std::shared_ptr<const AttentionRecord>>& history,
                                  std::shared_ptr<const AttentionRecord> record,
                                  int capacity = kAttentionHistoryCapacity)
{
    appendThinned(history, std::move(record), capacity);
}

}  // namespace as
