// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "worker_link.h"

#include <QThread>

namespace as {

namespace {

// Connects a signal to a function that runs in the mailbox's thread: the signal's arguments
// are copied into the posted closure in the emitting thread (see mailbox.h). The connection
// ends with the mailbox.
template <typename Sender, typename... Args, typename Slot>
void relay(Sender* sender, void (Sender::*signal)(Args...), Mailbox* box, Slot slot)
{
    QObject::connect(
        sender, signal, box,
        [box, slot](Args... args) { box->post([slot, ... args = std::move(args)] { slot(args...); }); },
        Qt::DirectConnection);
}

}  // namespace

WorkerLink::WorkerLink(QObject* parent) : QObject(parent)
{
    // Commands go out and answers come back through two mailboxes (mailbox.h), one in each
    // thread, so that ThreadSanitizer sees every hand-over.
    thread_ = new QThread(this);
    thread_->setObjectName("training");
    worker_ = new TrainingWorker;
    toWorker_ = new Mailbox(worker_);  // moves with the worker, dies with it
    toWindow_ = new Mailbox(this);
    worker_->moveToThread(thread_);
    connect(thread_, &QThread::finished, worker_, &QObject::deleteLater);
    // Each answer, emitted in the worker's thread, is emitted again here in this one.
    relay(worker_, &TrainingWorker::snapshotReady, toWindow_, [this](const SnapshotPtr& s) { emit snapshotReady(s); });
    relay(worker_, &TrainingWorker::runningChanged, toWindow_, [this](bool r) { emit runningChanged(r); });
    relay(worker_, &TrainingWorker::modelCopyReady, toWindow_, [this](const ModelCopyPtr& c) { emit modelCopyReady(c); });
    relay(worker_, &TrainingWorker::failed, toWindow_, [this](const QString& m) { emit failed(m); });
    relay(worker_, &TrainingWorker::checkpointSaved, toWindow_,
          [this](const QString& path, long step, bool autosave) { emit checkpointSaved(path, step, autosave); });
    relay(worker_, &TrainingWorker::checkpointFailed, toWindow_, [this](const QString& m) { emit checkpointFailed(m); });
    relay(worker_, &TrainingWorker::taskReady, toWindow_, [this](const TaskPtr& t) { emit taskReady(t); });
    relay(worker_, &TrainingWorker::sessionLoaded, toWindow_,
          [this](const SessionSettings& s, const TaskPtr& task, const QString& path, long step, bool untitled) {
              emit sessionLoaded(s, task, path, step, untitled);
          });
    relay(worker_, &TrainingWorker::weightsExported, toWindow_, [this](const QString& p) { emit weightsExported(p); });
    relay(worker_, &TrainingWorker::summaryReady, toWindow_, [this](const SummaryPtr& s) { emit summaryReady(s); });
    relay(worker_, &TrainingWorker::neuronReady, toWindow_, [this](const NeuronRecordPtr& r) { emit neuronReady(r); });
    relay(worker_, &TrainingWorker::comparisonFailed, toWindow_, [this](const QString& m) { emit comparisonFailed(m); });
    relay(worker_, &TrainingWorker::embeddingReady, toWindow_, [this](const EmbeddingRecordPtr& r) { emit embeddingReady(r); });
    relay(worker_, &TrainingWorker::neighboursReady, toWindow_, [this](const NeighboursRecordPtr& r) { emit neighboursReady(r); });
    relay(worker_, &TrainingWorker::decodingReady, toWindow_, [this](const DecodingRecordPtr& r) { emit decodingReady(r); });
}

WorkerLink::~WorkerLink()
{
    shutdown();
}

void WorkerLink::start()
{
    thread_->start();
}

void WorkerLink::send(std::function<void(TrainingWorker*)> f)
{
    if (stopped_)
        return;
    // The arguments are copied into the closure here, in the window's thread.
    TrainingWorker* w = worker_;
    toWorker_->post([w, f = std::move(f)] { f(w); });
}

void WorkerLink::configure(const SessionSettings& settings, const PreparedSessionPtr& prepared)
{
    emit sessionOrdered();
    send([settings, prepared](TrainingWorker* w) { w->configure(settings, prepared); });
}

void WorkerLink::resumeCorpus(const std::shared_ptr<const SessionData>& corpus, const CorpusSource& source,
                              const std::shared_ptr<Checkpoint>& checkpoint, const QString& path, bool autosave)
{
    emit sessionOrdered();
    send([=](TrainingWorker* w) { w->resumeCorpus(corpus, source, checkpoint, path, autosave); });
}

void WorkerLink::play()
{
    send([](TrainingWorker* w) { w->play(); });
}

void WorkerLink::pause()
{
    send([](TrainingWorker* w) { w->pause(); });
}

void WorkerLink::step(int n)
{
    send([n](TrainingWorker* w) { w->step(n); });
}

void WorkerLink::setStepsPerSecond(double stepsPerSecond)
{
    send([stepsPerSecond](TrainingWorker* w) { w->setStepsPerSecond(stepsPerSecond); });
}

void WorkerLink::setProbe(const QStringList& src, const QStringList& tgt)
{
    send([src, tgt](TrainingWorker* w) { w->setProbe(src, tgt); });
}

void WorkerLink::requestModelCopy()
{
    send([](TrainingWorker* w) { w->requestModelCopy(); });
}

void WorkerLink::setMutedHeads(const std::vector<HeadId>& heads)
{
    send([heads](TrainingWorker* w) { w->setMutedHeads(heads); });
}

void WorkerLink::setTraceWanted(bool wanted)
{
    send([wanted](TrainingWorker* w) { w->setTraceWanted(wanted); });
}

void WorkerLink::requestNeuron(AttentionKind kind, int layer, int head, int query)
{
    send([=](TrainingWorker* w) { w->requestNeuron(kind, layer, head, query); });
}

void WorkerLink::requestEmbedding(EmbeddingTable table)
{
    send([table](TrainingWorker* w) { w->requestEmbedding(table); });
}

void WorkerLink::requestNeighbours(EmbeddingTable table, int id)
{
    send([table, id](TrainingWorker* w) { w->requestNeighbours(table, id); });
}

void WorkerLink::setDecodingSampling(const std::optional<SamplingOptions>& sampling)
{
    send([sampling](TrainingWorker* w) { w->setDecodingSampling(sampling); });
}

void WorkerLink::setDecodingWanted(bool wanted)
{
    send([wanted](TrainingWorker* w) { w->setDecodingWanted(wanted); });
}

void WorkerLink::saveCheckpoint(const QString& path, bool autosave)
{
    send([path, autosave](TrainingWorker* w) { w->saveCheckpoint(path, autosave); });
}

void WorkerLink::loadCheckpoint(const QString& path, bool autosave)
{
    emit sessionOrdered();
    send([path, autosave](TrainingWorker* w) { w->loadCheckpoint(path, autosave); });
}

void WorkerLink::importWeights(const QString& path, const ImportOptions& options)
{
    emit sessionOrdered();
    send([path, options](TrainingWorker* w) { w->importWeights(path, options); });
}

void WorkerLink::openHubModel(const QString& path)
{
    emit sessionOrdered();
    send([path](TrainingWorker* w) { w->openHubModel(path); });
}

void WorkerLink::exportWeights(const QString& path)
{
    send([path](TrainingWorker* w) { w->exportWeights(path); });
}

void WorkerLink::requestSummary()
{
    send([](TrainingWorker* w) { w->requestSummary(); });
}

void WorkerLink::startComparison(const PreparedSessionPtr& b)
{
    emit sessionOrdered();
    send([b](TrainingWorker* w) { w->startComparison(b); });
}

void WorkerLink::stopComparison()
{
    send([](TrainingWorker* w) { w->stopComparison(); });
}

void WorkerLink::keepComparison()
{
    emit sessionOrdered();
    send([](TrainingWorker* w) { w->keepComparison(); });
}

void WorkerLink::sync()
{
    // The answer goes through the same mailbox as the worker's signals, after them.
    Mailbox* back = toWindow_;
    send([this, back](TrainingWorker*) { back->post([this] { emit synced(); }); });
}

void WorkerLink::close(const QString& autosavePath)
{
    if (stopped_)
        return;
    // Steps not saved anywhere go to the autosave (between two steps, in the worker).
    TrainingWorker* worker = worker_;
    toWorker_->call([worker] { worker->shutdown(); });
    if (!autosavePath.isEmpty())
        toWorker_->call([worker, autosavePath] { worker->saveCheckpoint(autosavePath, true); });
    shutdown();
}

void WorkerLink::shutdown()
{
    if (stopped_)
        return;
    stopped_ = true;
    // The answers end here, in this thread, so that the worker's objects, destroyed in its
    // thread, find no connection to this one (whose own destruction would otherwise look
    // unordered with that to ThreadSanitizer: QThread::wait() is a futex inside Qt). The
    // mailbox call after it orders both before everything the worker does next. Commands
    // stop at stopped_.
    disconnect(worker_, nullptr, toWindow_, nullptr);
    // Let the step in progress finish, then end the thread's loop; deleteLater runs there.
    TrainingWorker* worker = worker_;
    toWorker_->call([worker] { worker->shutdown(); });
    thread_->quit();
    thread_->wait();
}

}  // namespace as
