#pragma once
// The model lives here, in its own thread. The window sends commands as queued signals and
// receives immutable snapshots (at most ~10 a second) and model copies for translation.
#include "io/checkpoint.h"
#include "io/interop.h"
#include "train/snapshot.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <deque>
#include <memory>

namespace as {

struct SessionSettings {
    QString task = QStringLiteral("toy");  // a built-in task
    ModelConfig model;                      // vocabulary sizes come from the task
    TrainOptions train;
    int batchSize = 32;
    long plannedSteps = 300;
    int evalEvery = 25;  // steps between validation evaluations (0 = never)
    int probe = 0;       // index of the task example whose attention is recorded

    // Settings that learn each built-in task in seconds.
    static SessionSettings defaultsFor(const QString& task);
    // Not a built-in task: a model opened to look inside (imported weights, or a checkpoint
    // of a corpus run), with its vocabularies but no training data.
    bool inspecting() const { return !builtinTaskNames().contains(task); }
};

// The data side of a session as the window needs it: vocabularies, tokenisers, examples.
using TaskPtr = std::shared_ptr<const Task>;

class TrainingWorker : public QObject {
    Q_OBJECT
public:
    explicit TrainingWorker(QObject* parent = nullptr);
    ~TrainingWorker() override;

    static constexpr int kSnapshotIntervalMs = 100;
    static constexpr int kSliceMs = 10;  // longest run of back-to-back steps at full speed

public slots:
    // Builds a fresh model and data stream from the settings (step 0, paused).
    void configure(const as::SessionSettings& settings);
    void play();
    void pause();
    void step(int n = 1);  // n steps, then pause
    void reset();          // the same settings, from step 0
    void setStepsPerSecond(double stepsPerSecond);  // 0 = as fast as possible
    // A probe the user typed: tokens of the source and (optionally) the target.
    void setProbe(const QStringList& src, const QStringList& tgt);
    void requestModelCopy();
    // Saves the whole session (weights, Adam, generators, history) between two steps;
    // checkpointSaved or checkpointFailed answers.
    void saveCheckpoint(const QString& path, bool autosave);
    // Replaces the session by the one in the file (paused), or — when the file cannot be
    // used — leaves everything as it was and emits checkpointFailed.
    void loadCheckpoint(const QString& path, bool autosave);
    // Replaces the session by the model of a weight file (io/interop.h), opened for
    // inspection; or emits checkpointFailed and leaves everything as it was.
    void importWeights(const QString& path, const as::ImportOptions& options);
    // Writes the current model as SPEC.md's weight file (with its configuration, vocabularies
    // and tokenisers); weightsExported or checkpointFailed answers.
    void exportWeights(const QString& path);
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
    // task: the session's vocabularies, tokenisers and examples. untitled: the session has no
    // file of its own to save back to (a restored autosave, imported weights).
    void sessionLoaded(as::SessionSettings settings, as::TaskPtr task, QString path, long step,
                       bool untitled);
    void weightsExported(QString path);

private:
    void scheduleNext();
    void runSteps();
    bool runOneStep();  // false: stop here (paused, done, or nothing to do)
    void emitSnapshot();
    void evaluateValidation();
    std::shared_ptr<AttentionRecord> recordAttention();
    CheckpointRun checkpointRun() const;
    // Replaces the session (stopped, paused) by these; the next snapshot carries the history
    // whole. Returns whether training was running.
    bool adoptSession(const SessionSettings& s, Task task, std::unique_ptr<Trainer> trainer,
                      const TokenPair& probe, TrainingHistory history, double trainSeconds);
    // Commits an inspection session: the trainer's model with the vocabularies, tokenisers
    // and configuration `described` names (its own model may be gone), and no data.
    void beginInspection(const ModelBundle& described, std::unique_ptr<Trainer> trainer,
                         TokenPair probe, TrainingHistory history, double trainSeconds,
                         const QString& path, bool untitled);
    // A probe sentence for a model without examples: the source vocabulary's most frequent
    // tokens.
    TokenPair defaultProbe() const;
    // An inspected model's probe without a target gets the model's own greedy translation,
    // so that the decoder's attention shows what it does.
    void completeProbe();

    SessionSettings settings_;
    Task task_;
    std::unique_ptr<Trainer> trainer_;
    Rng dataRng_;
    QTimer* timer_ = nullptr;
    bool running_ = false;
    long pendingSteps_ = 0;
    double stepsPerSecond_ = 0;
    TokenPair probe_;
    Batch lastBatch_;

    TrainingHistory history_;  // everything since step 0, for checkpoints
    bool restoreHistory_ = false;  // the next snapshot carries history_ whole

    // Collected between snapshots.
    std::vector<LossPoint> newLoss_;
    std::vector<EvalPoint> newEval_;
    double lastLoss_ = 0, lastLr_ = 0;
    double trainSeconds_ = 0;  // accumulated while stepping
    std::deque<std::pair<double, long>> recentTokens_;  // (train seconds, tokens) for tokens/s
    QElapsedTimer sinceSnapshot_;
    bool haveSnapshot_ = false;
};

}  // namespace as

Q_DECLARE_METATYPE(as::SessionSettings)
