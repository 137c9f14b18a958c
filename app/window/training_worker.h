// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The model lives here, in its own thread. The window's WorkerLink (worker_link.h) posts its
// commands to it and receives immutable snapshots (at most ~10 a second) and model copies for
// translation. What a run is — its settings, making and resuming sessions, what a checkpoint
// records, progress and the plan's end — is core/run's and TrainingSession's: this class keeps
// the thread side (the step timer and slices, the throttle, validations in the background,
// snapshots, A/B's B).
#include "background_validations.h"
#include "compared_session.h"
#include "io/checkpoint.h"
#include "mailbox.h"
#include "eval/decoding_record.h"
#include "eval/neuron_record.h"
#include "io/interop.h"
#include "eval/embedding_space.h"
#include "eval/interpret.h"
#include "run/settings.h"
#include "train/corpus_run.h"
#include "train/session.h"
#include "train/snapshot.h"

#include <QElapsedTimer>
#include <QObject>
#include <QThreadPool>
#include <QTimer>

#include <atomic>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>

namespace as {

// The data side of a session as the window needs it: vocabularies, tokenisers, examples.
using TaskPtr = std::shared_ptr<const Task>;
using SummaryPtr = std::shared_ptr<const RunSummary>;

// A new session's data built off the worker's thread (TrainingWorker::buildData, by the
// window's SessionBuilder: a subword side trains a SentencePiece model, seconds on zh-en):
// A's on the settings `a` (configure: Settings > Apply, Reset), and A/B's B as the window asks
// for it (`asked`, comparisonOf's second argument) on A's settings `a`. Handed to the worker
// once. Data that is missing, or of B on other settings than the worker's own (the window's
// view of the session can be a moment old), the worker builds.
struct PreparedSession {
    SessionSettings a;
    std::unique_ptr<SessionData> aData;
    std::optional<SessionSettings> asked;
    std::unique_ptr<SessionData> bData;
};
using PreparedSessionPtr = std::shared_ptr<PreparedSession>;

class TrainingWorker : public QObject {
    Q_OBJECT
public:
    explicit TrainingWorker(QObject* parent = nullptr);
    ~TrainingWorker() override;

    static constexpr int kSnapshotIntervalMs = 100;
    static constexpr int kSliceMs = 10;  // longest run of back-to-back steps at full speed
    // Histograms of weights and gradients (the Health view) every this many steps.
    static constexpr int kHistogramEvery = 20;

    // The data a session of `s` trains on (makeSessionData), or null and *error (a sentence
    // for the user). Any thread: the window's SessionBuilder builds in a job of its own.
    static std::unique_ptr<SessionData> buildData(const SessionSettings& s, QString* error);

public slots:
    // Builds a fresh model and data stream from the settings (step 0, paused), on the data
    // `prepared` carries when the window built it; an A/B's B restarts beside it.
    void configure(const as::SessionSettings& settings, const as::PreparedSessionPtr& prepared = nullptr);
    // Continues the corpus run saved in `checkpoint` (read from `path`) on `settings.corpus`,
    // which the window's corpus actions have read and checked to be the run's data; or emits checkpointFailed.
    void resumeCorpus(std::shared_ptr<const as::SessionData> corpus, const as::CorpusSource& source,
                      std::shared_ptr<as::Checkpoint> checkpoint, const QString& path,
                      bool autosave);
    void play();
    void pause();
    void step(int n = 1);  // n steps, then pause
    void reset();          // the same settings, from step 0
    void setStepsPerSecond(double stepsPerSecond);  // 0 = as fast as possible
    // A probe the user typed: tokens of the source and (optionally) the target.
    void setProbe(const QStringList& src, const QStringList& tgt);
    void requestModelCopy();
    // Heads muted in the Heads view: validations (loss, BLEU, samples) run with them masked.
    void setMutedHeads(const std::vector<as::HeadId>& heads);
    // Whether snapshots carry the probe's traced pass (the Model view is shown); turning it on
    // sends one at once.
    void setTraceWanted(bool wanted);
    // The neuron view of the probe for one head and query, with the current weights;
    // neuronReady answers.
    void requestNeuron(as::AttentionKind kind, int layer, int head, int query);
    // A table's token vectors on their first two principal components with the current
    // weights, oriented as the last projection of that table; embeddingReady answers.
    void requestEmbedding(as::EmbeddingTable table);
    // A token's nearest neighbours in a table by cosine similarity; neighboursReady answers.
    void requestNeighbours(as::EmbeddingTable table, int id);
    // Whether the Decoding view is shown: while it is, the probe's decoding record
    // (eval/decoding_record.h) follows the weights, computed with the snapshots (at most once
    // a second while training runs) and at once for a new probe or model; decodingReady answers.
    void setDecodingWanted(bool wanted);
    // How the Decoding view's record draws its output: greedy (nullopt), or sampled with these
    // (core/SPEC.md §5.6). A new record follows at once while the view is shown.
    void setDecodingSampling(const std::optional<as::SamplingOptions>& sampling);
    // Saves the whole session (weights, Adam, generators, history) between two steps;
    // checkpointSaved or checkpointFailed answers.
    void saveCheckpoint(const QString& path, bool autosave);
    // Replaces the session by the one in the file (paused), or — when the file cannot be
    // used — leaves everything as it was and emits checkpointFailed.
    void loadCheckpoint(const QString& path, bool autosave);
    // Replaces the session by the model of a weight file (io/interop.h), opened for
    // inspection; or emits checkpointFailed and leaves everything as it was.
    void importWeights(const QString& path, const as::ImportOptions& options);
    // A Hugging Face Hub model folder (io/hub_model.h), for inspection as an import is.
    void openHubModel(const QString& path);
    // Writes the current model as a weight file, core/SPEC.md §8 (with its configuration,
    // vocabularies and tokenisers); weightsExported or checkpointFailed answers.
    void exportWeights(const QString& path);
    // The session's summary (TrainingSession::summarize); summaryReady answers.
    void requestSummary();
    // A/B: a second session B with the settings b->asked (comparisonOf: A's data, order, seed
    // and plan) on the data b->bData (built by the window on this session's settings),
    // trained in alternation with this one, both restarted from step 0; each snapshot carries
    // B's new points (TrainingSnapshot::comparison). Reset and Apply restart B with A; opening
    // a file ends it. comparisonFailed answers a B that cannot be built (A is restarted alone),
    // or a session that does not train (left as it is).
    void startComparison(const as::PreparedSessionPtr& b);
    void stopComparison();
    // B becomes the session, paused, with its history (A is dropped): to keep training it,
    // save or export it. sessionLoaded answers, as for an opened file (untitled).
    void keepComparison();
    // Stops the step loop; called before the thread ends.
    void shutdown();

signals:
    void snapshotReady(as::SnapshotPtr snapshot);
    void modelCopyReady(as::ModelCopyPtr copy);
    void runningChanged(bool running);
    void failed(QString message);  // a fault that paused training (e.g. a non-finite loss)
    void checkpointSaved(QString path, long step, bool autosave);
    void checkpointFailed(QString message);
    // A checkpoint replaced the session; the snapshot with its history follows.
    // configure() built the session's data: its vocabularies, tokenisers and examples.
    void taskReady(as::TaskPtr task);
    // task: the session's vocabularies, tokenisers and examples. untitled: the session has no
    // file of its own to save back to (a restored autosave, imported weights).
    void sessionLoaded(as::SessionSettings settings, as::TaskPtr task, QString path, long step,
                       bool untitled);
    void weightsExported(QString path);
    void summaryReady(as::SummaryPtr summary);
    void neuronReady(as::NeuronRecordPtr record);
    void comparisonFailed(QString message);
    void embeddingReady(as::EmbeddingRecordPtr record);
    void neighboursReady(as::NeighboursRecordPtr record);
    void decodingReady(as::DecodingRecordPtr record);

private:
    // A fresh session of `s` (its vocabulary sizes filled in) on `data` (null: built here), or
    // null and *error.
    static std::unique_ptr<TrainingSession> buildSession(SessionSettings* s, QString* error,
                                                         std::unique_ptr<SessionData> data = nullptr);
    // A fresh session of `settings` (step 0, paused) on `data`, and, if `comparing`, A/B's B
    // beside it on `comparingData`: each built here when the window did not build it.
    void startSession(const SessionSettings& settings,
                      const std::optional<SessionSettings>& comparing,
                      std::unique_ptr<SessionData> comparingData = nullptr,
                      std::unique_ptr<SessionData> data = nullptr);
    // B's data in `p`, if it was built for the B that `asked` gives beside A's settings `a`.
    static std::unique_ptr<SessionData> takeComparisonData(PreparedSession* p, const SessionSettings& a,
                                                           const SessionSettings& asked);
    void buildComparison(const SessionSettings& asked, std::unique_ptr<SessionData> data);
    void endComparison();
    void scheduleNext();
    void runSteps();
    bool runOneStep();  // false: stop here (paused, done, or nothing to do)
    void emitSnapshot();
    // The probe's decoding record, when the Decoding view is shown and the one it has is of
    // other weights or another probe (while training runs, at most once a second).
    void emitDecodingIfDue();
    // Continues the run of `ck` on `data` with settings `s` (paused); false: failed, emitted.
    bool resumeOn(SessionSettings s, std::unique_ptr<SessionData> data, Checkpoint& ck,
                  TokenPair probe, const QString& path, bool autosave);
    // Replaces the session (stopped, paused) by this one; the next snapshot carries its
    // history whole. Returns whether training was running.
    bool adoptSession(const SessionSettings& s, std::unique_ptr<TrainingSession> session,
                      const TokenPair& probe);
    // Commits an inspection session: the trainer's model with the vocabularies, tokenisers
    // and configuration `described` names (its own model may be gone), and no data.
    void beginInspection(const ModelBundle& described, std::unique_ptr<Trainer> trainer,
                         TokenPair probe, TrainingHistory history, double trainSeconds,
                         const QString& path, bool untitled, const QJsonObject& corpusRecord = {});
    // A probe sentence for a model without examples: the source vocabulary's most frequent
    // tokens.
    TokenPair defaultProbe() const;
    // An inspected model's probe without a target gets the model's own greedy translation,
    // so that the decoder's attention shows what it does.
    void completeProbe();
    // Whether there is a probe to record: a source, or a decoder-only model's text (its probe
    // is the target side alone, as a language model's examples are).
    bool hasProbe() const;
    bool trainable() const { return session_ && session_->data().trainable(); }
    // A validation of a copy of the weights now, in the background (validations_).
    void startValidation();
    // Finished validations, in order: A's recorded (a snapshot each), B's handed to B (one
    // snapshot for them); a B's that has ended are dropped.
    void applyValidations(std::vector<BackgroundValidations::Done> done);

    SessionSettings settings_;
    std::unique_ptr<TrainingSession> session_;
    QTimer* timer_ = nullptr;
    bool running_ = false;
    long pendingSteps_ = 0;
    double stepsPerSecond_ = 0;
    TokenPair probe_;
    // The probe's target is a reference (an example's, or typed), not the model's own
    // translation that completeProbe filled in.
    bool probeHasReference_ = false;
    bool decodingWanted_ = false;
    bool decodingStale_ = true;
    std::optional<SamplingOptions> decodingSampling_;  // the Decoding view's (setDecodingSampling)     // the probe or the model changed since the last record
    long decodingStep_ = -1;        // of the last record
    QElapsedTimer sinceDecoding_;
    bool restoreHistory_ = false;  // the next snapshot carries the session's history whole
    std::vector<HeadId> muted_;    // masked in validations
    bool traceWanted_ = false;
    EmbeddingProjector projector_; // the last components of each table, for their signs

    // Collected between snapshots.
    std::vector<LossPoint> newLoss_;
    std::vector<EvalPoint> newEval_;
    std::shared_ptr<const InductionRecord> induction_;  // the last validation's, not yet sent
    double lastLoss_ = 0, lastLr_ = 0;
    QElapsedTimer sinceSnapshot_;
    std::shared_ptr<const SamplesRecord> samples_;  // of the last validation
    HealthUpdate health_;  // the session's tensors, and the health records since the last snapshot
    std::unique_ptr<BackgroundValidations> validations_;
    std::unique_ptr<ComparedSession> compared_;  // A/B's B, while there is one
    int lastLane_ = 0;  // of the last B: each B's validations have a lane of their own
    ModelCopyPtr lastCopy_;   // requestModelCopy's last answer, of session generation…
    quint64 lastCopyGeneration_ = 0;
};

}  // namespace as
