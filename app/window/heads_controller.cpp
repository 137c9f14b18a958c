// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "heads_controller.h"

#include "head_service.h"
#include "heads_view.h"
#include "induction_view.h"
#include "translate_view.h"
#include "translation_service.h"
#include "view_set.h"
#include "worker_link.h"

#include "run/settings.h"
#include "text/corpus.h"

#include <QFileDialog>
#include <QFileInfo>

namespace as {

HeadsController::HeadsController(ViewSet* views, WorkerLink* link,
                                 std::function<const SessionSettings&()> settings, QObject* parent)
    : QObject(parent), views_(views), link_(link), settings_(std::move(settings))
{
    ui::HeadsView* heads = views_->heads();
    service_ = new HeadService(this);
    // The service takes copies of the weights as Translate does.
    connect(link_, &WorkerLink::modelCopyReady, service_, &HeadService::setModel);
    connect(service_, &HeadService::modelWanted, link_, &WorkerLink::requestModelCopy);
    connect(service_, &HeadService::progress, heads, &ui::HeadsView::showProgress);
    connect(service_, &HeadService::refused, heads, &ui::HeadsView::showIdle);
    connect(service_, &HeadService::scored, this, [this, heads](const HeadsRecordPtr& r) {
        heads->setRecord(r);
        const QString on = service_->source().label;
        if (on.isEmpty())
            heads->showIdle(r->scored ? tr("Scored at step %1.").arg(r->step)
                                      : tr("Mutes evaluated at step %1.").arg(r->step));
        else
            heads->showIdle(r->scored ? tr("Scored at step %1 on %2 (%3 pairs).").arg(r->step).arg(on).arg(r->pairs)
                                      : tr("Mutes evaluated at step %1 on %2 (%3 pairs).").arg(r->step).arg(on).arg(r->pairs));
    });
    connect(service_, &HeadService::pruned, this, [heads](const PruningRecordPtr& r) {
        heads->setPruning(r);
        if (r->finished)
            heads->showIdle(tr("Pruning curve at step %1.").arg(r->step));
    });
    connect(heads, &ui::HeadsView::scoreRequested, this, &HeadsController::scoreRequested);
    connect(heads, &ui::HeadsView::scoreOnRequested, this, [this, heads] {
        const QString path = QFileDialog::getOpenFileName(
            heads, tr("Score heads on a corpus"), QString(),
            tr("Corpora: source<TAB>target per line, or an Anki file (*.tsv *.txt);;All files (*)"));
        if (!path.isEmpty())
            scoreOn(path);
    });
    connect(heads, &ui::HeadsView::pruningRequested, this, [this, heads] {
        const HeadsRecordPtr r = heads->record();
        if (!r || !r->scored) {
            heads->showIdle(tr("Score heads first: the curve masks them least important first."));
            return;
        }
        service_->prune(headsByImportance(r->report), {});
    });
    connect(heads, &ui::HeadsView::cancelRequested, this, [this, heads] {
        service_->cancel();
        heads->showIdle(tr("Cancelled."));
    });
    connect(heads, &ui::HeadsView::unmuteAllRequested, this, [this] { setMutedHeads({}); });
    // The Induction heads view's "Ablate …" and "Restore": the same mutes (the view asks for the
    // whole set).
    connect(views_->induction(), &ui::InductionView::ablationRequested, this,
            [this](const std::vector<HeadId>& heads) { setMutedHeads(heads); });
    connect(heads, &ui::HeadsView::headToggled, this, [this](const HeadId& id) {
        std::vector<HeadId> m = muted_;
        const auto it = std::find(m.begin(), m.end(), id);
        if (it == m.end())
            m.push_back(id);
        else
            m.erase(it);
        setMutedHeads(m);
    });
    connect(views_, &ViewSet::cleared, this, &HeadsController::clear);
}

void HeadsController::scoreRequested()
{
    const SessionSettings& s = settings_();
    if (s.inspecting() && !service_->source().isSet()) {
        const QString task = s.recordedTask();
        if (task.isEmpty()) {
            views_->heads()->showIdle(tr("This model has no validation pairs and its file names no "
                                         "built-in task: choose a corpus with Score on…"));
            return;
        }
        // The model's record names the task it was trained on: that task's validation split.
        service_->setSource({task, {}, tr("the %1 validation split").arg(task)});
    }
    service_->score(muted_, true);
}

bool HeadsController::scoreOn(const QString& path)
{
    CorpusOptions o;
    o.format = guessFormat(path);
    CorpusReport report;
    QString error;
    std::optional<QList<SentencePair>> pairs = readCorpus(path, o, report, &error);
    if (!pairs || pairs->isEmpty()) {
        views_->heads()->showIdle(tr("%1 was not read: %2")
                                      .arg(QFileInfo(path).fileName(),
                                           error.isEmpty() ? tr("no sentence pairs") : error));
        return false;
    }
    service_->setSource({{}, std::move(*pairs), QFileInfo(path).fileName()});
    service_->score(muted_, true);
    return true;
}

void HeadsController::clear()
{
    service_->cancel();
    service_->setSource({});
    if (!muted_.empty()) {
        muted_.clear();
        views_->translation()->setMaskedHeads(muted_);
        link_->setMutedHeads(muted_);
    }
}

void HeadsController::setMutedHeads(const std::vector<HeadId>& heads)
{
    muted_ = heads;
    views_->heads()->setMuted(muted_);
    views_->induction()->setMuted(muted_);
    views_->translation()->setMaskedHeads(muted_);
    link_->setMutedHeads(muted_);
    // What the mutes do: the validation NLL and BLEU with them against without, and the
    // sentence in Translate again.
    if (!settings_().inspecting() || service_->source().isSet())
        service_->score(muted_, false);
    ui::TranslateView* translate = views_->translate();
    if (!translate->inputText().trimmed().isEmpty())
        translate->translate(translate->inputText());
}

}  // namespace as
