// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The window's line to the training worker: the worker's thread, the two mailboxes (mailbox.h)
// that carry every command out and every answer back, and the end of both. Commands are typed
// calls, run in the worker's thread in the order they were made; the worker's answers come
// back as this object's signals, in the window's thread. After shutdown() commands do nothing.
#include "mailbox.h"
#include "training_worker.h"

#include <QObject>

#include <functional>
#include <memory>
#include <vector>

class QThread;

namespace as {

class WorkerLink : public QObject {
    Q_OBJECT
public:
    explicit WorkerLink(QObject* parent = nullptr);
    ~WorkerLink() override;  // shutdown()

    void start();
    QThread* thread() const { return thread_; }

    // Commands (TrainingWorker's slots of the same names say what each does).
    void configure(const SessionSettings& settings, const PreparedSessionPtr& prepared = nullptr);
    void resumeCorpus(const std::shared_ptr<const SessionData>& corpus, const CorpusSource& source,
                      const std::shared_ptr<Checkpoint>& checkpoint, const QString& path,
                      bool autosave);
    void play();
    void pause();
    void step(int n);
    void setStepsPerSecond(double stepsPerSecond);
    void setProbe(const QStringList& src, const QStringList& tgt);
    void requestModelCopy();
    void setMutedHeads(const std::vector<HeadId>& heads);
    void setTraceWanted(bool wanted);
    void requestNeuron(AttentionKind kind, int layer, int head, int query);
    void requestEmbedding(EmbeddingTable table);
    void requestNeighbours(EmbeddingTable table, int id);
    void setDecodingWanted(bool wanted);
    void setDecodingSampling(const std::optional<as::SamplingOptions>& sampling);
    void saveCheckpoint(const QString& path, bool autosave);
    void loadCheckpoint(const QString& path, bool autosave);
    void importWeights(const QString& path, const ImportOptions& options);
    void openHubModel(const QString& path);
    void exportWeights(const QString& path);
    // Validation loss, accuracy, BLEU and sample translations of the weights the run hands
    // out, computed in the worker (training waits meanwhile); summaryReady answers.
    void requestSummary();
    void startComparison(const PreparedSessionPtr& b);
    void stopComparison();
    void keepComparison();
    // Answered by synced() once the worker has run every command sent before it and everything
    // it sent back meanwhile has arrived here: what a test waits for instead of a sleep when it
    // checks that nothing more comes (a step, a snapshot). Not answered after shutdown().
    void sync();

    // On quit: the step in progress finishes, the session is saved to autosavePath (unless
    // empty) and waited for, then shutdown().
    void close(const QString& autosavePath);
    // Lets the step in progress finish, then ends the worker's thread (waited for). Once.
    void shutdown();

signals:
    // The worker's answers (training_worker.h), in this object's thread.
    void snapshotReady(as::SnapshotPtr snapshot);
    void modelCopyReady(as::ModelCopyPtr copy);
    void runningChanged(bool running);
    void failed(QString message);
    void checkpointSaved(QString path, long step, bool autosave);
    void checkpointFailed(QString message);
    void taskReady(as::TaskPtr task);
    void sessionLoaded(as::SessionSettings settings, as::TaskPtr task, QString path, long step,
                       bool untitled);
    void weightsExported(QString path);
    void summaryReady(as::SummaryPtr summary);
    void neuronReady(as::NeuronRecordPtr record);
    void comparisonFailed(QString message);
    void embeddingReady(as::EmbeddingRecordPtr record);
    void neighboursReady(as::NeighboursRecordPtr record);
    void synced();
    void decodingReady(as::DecodingRecordPtr record);
    // A command that replaces the session was sent (configure, resumeCorpus, loadCheckpoint,
    // importWeights, startComparison, keepComparison): what the window builds for the session
    // it had (A/B's B) is of another one now. Emitted in the window's thread, at the command.
    void sessionOrdered();

private:
    // Runs f(worker) in the worker's thread, after every command sent before it.
    void send(std::function<void(TrainingWorker*)> f);

    QThread* thread_ = nullptr;
    TrainingWorker* worker_ = nullptr;
    Mailbox* toWorker_ = nullptr;  // lives in the worker's thread
    Mailbox* toWindow_ = nullptr;  // lives in this one
    bool stopped_ = false;
};

}  // namespace as
