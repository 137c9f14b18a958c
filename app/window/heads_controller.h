#pragma once
// The Heads view's work: scoring the heads and the pruning curve (HeadService, off the GUI
// thread), and the heads muted with a click — masked in Translate, the samples and validation.
#include "eval/heads_record.h"

#include <QObject>

#include <functional>
#include <vector>

namespace as {
class HeadService;
class ViewSet;
class WorkerLink;

class HeadsController : public QObject {
    Q_OBJECT
public:
    // inspecting: whether the session is a model opened to look inside (no validation data).
    HeadsController(ViewSet* views, WorkerLink* link, std::function<bool()> inspecting,
                    QObject* parent = nullptr);

    HeadService* service() const { return service_; }
    const std::vector<HeadId>& mutedHeads() const { return muted_; }
    void setMutedHeads(const std::vector<HeadId>& heads);
    // A new model (the views were cleared): no mutes, no work under way.
    void clear();

private:
    ViewSet* views_;
    WorkerLink* link_;
    std::function<bool()> inspecting_;
    HeadService* service_ = nullptr;
    std::vector<HeadId> muted_;
};

}  // namespace as
