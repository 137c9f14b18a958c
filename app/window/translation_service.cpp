// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "translation_service.h"

#include "translate_view.h"

#include <QMetaMethod>
#include <QTimer>

#include <algorithm>
#include <functional>

namespace as {

TranslationService::TranslationService(QObject* parent) : QObject(parent)
{
    qRegisterMetaType<as::TranslationRecordPtr>();
    pool_.setMaxThreadCount(2);
    results_ = new Mailbox(this);
    modelWait_ = new QTimer(this);
    modelWait_->setSingleShot(true);
    modelWait_->setInterval(kModelWaitMs);
    connect(modelWait_, &QTimer::timeout, this, [this] {
        // Nobody answered modelWanted(): translate with the weights held, if any.
        waitingForModel_ = false;
        startPending();
    });
}

TranslationService::~TranslationService()
{
    pool_.waitForDone();
}

void TranslationService::translate(const QString& text, const TranslationOptions& options)
{
    auto request = std::make_unique<Request>();
    request->id = ++requestId_;
    request->text = text;
    request->options = options;
    request->options.masked = masked_;
    pending_ = std::move(request);  // an older request still waiting is dropped
    if (isSignalConnected(QMetaMethod::fromSignal(&TranslationService::modelWanted))) {
        waitingForModel_ = true;
        emit progress(tr("Copying the current weights…"));
        modelWait_->start();
        emit modelWanted();  // setModel() may answer right here or later
    } else {
        startPending();
    }
}

void TranslationService::setModel(ModelCopyPtr model)
{
    if (model && !model->model)
        model.reset();
    if (model != model_) {
        // The same copy keeps its translator: one decode at a time per model.
        translator_ = model ? std::make_shared<Translator>(model->model, model->step,
                                                           model->srcVocab, model->tgtVocab,
                                                           model->srcTokenizer,
                                                           model->tgtTokenizer)
                            : nullptr;
        model_ = std::move(model);
    }
    if (waitingForModel_) {
        waitingForModel_ = false;
        modelWait_->stop();
        startPending();
    }
}

void TranslationService::startPending()
{
    if (!pending_ || waitingForModel_)
        return;
    if (!translator_) {
        pending_.reset();
        emit refused(tr("No model yet: start training or open a model, then translate."));
        return;
    }
    if (std::find(busy_.begin(), busy_.end(), translator_.get()) != busy_.end()) {
        // One decode per copy: this one starts when the copy is free (see onResult).
        emit progress(tr("Waiting for the previous translation to finish…"));
        return;
    }
    runPending();
}

void TranslationService::runPending()
{
    const std::unique_ptr<Request> request = std::move(pending_);
    const std::shared_ptr<Translator> translator = translator_;
    // Tokenising reads the vocabularies only: done here, so that input without a token is
    // answered at once, without a thread.
    EncodedSentence source = translator->encode(request->text);
    if (source.ids.empty()) {
        // The translator answers this without touching the model.
        emit finished(std::make_shared<const TranslationRecord>(
            translator->translate(source, request->options)));
        return;
    }
    busy_.push_back(translator.get());
    ++running_;
    emit progress(tr("Translating with the weights of step %1…").arg(translator->step()));
    // QThreadPool wakes an idle thread through a lock inside Qt, which TSan cannot see: the
    // annotations order building this closure before running it. The record comes back
    // through the mailbox, which TSan does see.
    static char handOff;
    std::function<void()> job = [this, id = request->id, translator, source = std::move(source),
                                 options = request->options] {
        AS_TSAN_ACQUIRE(&handOff);
        TranslationRecordPtr record =
            std::make_shared<const TranslationRecord>(translator->translate(source, options));
        results_->post([this, id, translator, record] { onResult(id, translator.get(), record); });
    };
    AS_TSAN_RELEASE(&handOff);
    pool_.start(std::move(job));
}

void TranslationService::onResult(long id, const Translator* translator, TranslationRecordPtr record)
{
    busy_.erase(std::find(busy_.begin(), busy_.end(), translator));
    --running_;
    if (id == requestId_)  // older requests' records are dropped
        emit finished(std::move(record));
    startPending();  // a request that waited for this copy
}

void connectTranslateView(TranslationService* service, ui::TranslateView* view)
{
    QObject::connect(view, &ui::TranslateView::translationRequested, service,
                     &TranslationService::translate, Qt::DirectConnection);
    QObject::connect(service, &TranslationService::progress, view,
                     &ui::TranslateView::showProgress, Qt::DirectConnection);
    QObject::connect(service, &TranslationService::refused, view,
                     &ui::TranslateView::showRefusal, Qt::DirectConnection);
    QObject::connect(service, &TranslationService::finished, view,
                     &ui::TranslateView::showRecord, Qt::DirectConnection);
}

}  // namespace as
