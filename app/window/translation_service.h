// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What runs the Translate tab's decoding: it holds the latest copy of the weights (from the
// training worker, TrainingWorker::modelCopyReady), runs a Translator (decode/translator.h) on
// it in a thread pool, and hands the records back to the GUI thread through a Mailbox (so that
// ThreadSanitizer sees the hand-over). The view (ui/translate_view.h) only asks and receives
// records; connectTranslateView() wires the two.
//
// Lives in the GUI thread; every public function is called there and every signal is emitted
// there. One decode per copy at a time (decoding writes the model's caches): a request for a
// copy that is still decoding waits for it. Only the newest request is answered: an older
// request still waiting is dropped, and an older decode's record is not emitted.
#include "decode/translator.h"
#include "mailbox.h"
#include "train/snapshot.h"

#include <QObject>
#include <QString>
#include <QThreadPool>

#include <memory>
#include <vector>

class QTimer;

namespace as {

namespace ui {
class TranslateView;
}

class TranslationService : public QObject {
    Q_OBJECT
public:
    static constexpr int kModelWaitMs = 3000;  // how long to wait for setModel() after modelWanted()

    explicit TranslationService(QObject* parent = nullptr);
    ~TranslationService() override;  // waits for a running decode

    // The weights to translate with (the answer to modelWanted(); null: there is no model).
    // A request waiting for weights starts at once.
    void setModel(ModelCopyPtr model);
    ModelCopyPtr model() const { return model_; }

    // Translates text (as typed; the caller cuts it to length) with the given options. With
    // modelWanted() connected, asks for fresh weights first (and uses the ones held if nobody
    // answers within kModelWaitMs). May answer before returning.
    void translate(const QString& text, const TranslationOptions& options);

    bool isBusy() const { return waitingForModel_ || running_ > 0; }
    // Heads masked in every translation from now on (the Heads view's mutes).
    void setMaskedHeads(const std::vector<HeadId>& heads) { masked_ = heads; }

signals:
    void modelWanted();  // answered by setModel() with a fresh copy of the current weights
    // On the way to an answer: copying the weights, waiting for the copy, translating.
    void progress(const QString& text);
    // The newest request's answer, one of the two: no model to translate with, or a record
    // (which may carry an error: no tokens, a failed decode).
    void refused(const QString& message);
    void finished(as::TranslationRecordPtr record);

private:
    struct Request {
        long id = 0;
        QString text;
        TranslationOptions options;
    };
    void startPending();
    void runPending();
    void onResult(long id, const Translator* translator, TranslationRecordPtr record);

    ModelCopyPtr model_;
    std::shared_ptr<Translator> translator_;  // over model_
    std::unique_ptr<Request> pending_;         // waiting for weights (or for its copy to be free)
    bool waitingForModel_ = false;
    long requestId_ = 0;  // of the newest request; older results are dropped
    std::vector<HeadId> masked_;
    int running_ = 0;     // decodes in flight
    std::vector<const Translator*> busy_;  // translators a decode is using (one decode each)
    QThreadPool pool_;
    Mailbox* results_ = nullptr;  // records come back to this thread through it
    QTimer* modelWait_ = nullptr;
};

// The view's requests go to the service, the service's answers to the view (all in the GUI
// thread, direct connections).
void connectTranslateView(TranslationService* service, ui::TranslateView* view);

}  // namespace as
