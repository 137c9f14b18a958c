#include "heads_controller.h"

#include "head_service.h"
#include "heads_view.h"
#include "translate_view.h"
#include "translation_service.h"
#include "view_set.h"
#include "worker_link.h"

namespace as {

HeadsController::HeadsController(ViewSet* views, WorkerLink* link, std::function<bool()> inspecting,
                                 QObject* parent)
    : QObject(parent), views_(views), link_(link), inspecting_(std::move(inspecting))
{
    ui::HeadsView* heads = views_->heads();
    service_ = new HeadService(this);
    // The service takes copies of the weights as Translate does.
    connect(link_, &WorkerLink::modelCopyReady, service_, &HeadService::setModel);
    connect(service_, &HeadService::modelWanted, link_, &WorkerLink::requestModelCopy);
    connect(service_, &HeadService::progress, heads, &ui::HeadsView::showProgress);
    connect(service_, &HeadService::refused, heads, &ui::HeadsView::showIdle);
    connect(service_, &HeadService::scored, this, [heads](const HeadsRecordPtr& r) {
        heads->setRecord(r);
        heads->showIdle(r->scored ? tr("Scored at step %1.").arg(r->step)
                                  : tr("Mutes evaluated at step %1.").arg(r->step));
    });
    connect(service_, &HeadService::pruned, this, [heads](const PruningRecordPtr& r) {
        heads->setPruning(r);
        if (r->finished)
            heads->showIdle(tr("Pruning curve at step %1.").arg(r->step));
    });
    connect(heads, &ui::HeadsView::scoreRequested, this, [this] { service_->score(muted_, true); });
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

void HeadsController::clear()
{
    service_->cancel();
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
    views_->translation()->setMaskedHeads(muted_);
    link_->setMutedHeads(muted_);
    // What the mutes do: the validation NLL and BLEU with them against without, and the
    // sentence in Translate again.
    if (!inspecting_())
        service_->score(muted_, false);
    ui::TranslateView* translate = views_->translate();
    if (!translate->inputText().trimmed().isEmpty())
        translate->translate(translate->inputText());
}

}  // namespace as
