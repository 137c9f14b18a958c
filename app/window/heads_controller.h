// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Heads view's work: scoring the heads and the pruning curve (HeadService, off the GUI
// thread), and the heads muted with a click — masked in Translate, the samples and validation.
// The Induction heads view's ablation buttons set the same mutes.
#include "eval/heads_record.h"

#include <QObject>

#include <functional>
#include <vector>

namespace as {
struct SessionSettings;
class HeadService;
class ViewSet;
class WorkerLink;

class HeadsController : public QObject {
    Q_OBJECT
public:
    // settings: the session's (whether it is a model opened to look inside, without validation
    // data, and the task its file records).
    HeadsController(ViewSet* views, WorkerLink* link,
                    std::function<const SessionSettings&()> settings, QObject* parent = nullptr);

    HeadService* service() const { return service_; }
    const std::vector<HeadId>& mutedHeads() const { return muted_; }
    void setMutedHeads(const std::vector<HeadId>& heads);
    // A new model (the views were cleared): no mutes, no work under way, its own pairs.
    void clear();
    // Scores every head on the pairs of a corpus file (TSV or Anki, as `attention-studio-cli
    // heads --data` reads it), which the mutes' figures then use too; the Heads view's
    // "Score on…" asks for the file. False, and the view says why, if it cannot be read.
    bool scoreOn(const QString& path);

private:
    ViewSet* views_;
    WorkerLink* link_;
    // Score heads: on the session's validation pairs, or for a model opened without its data,
    // on the validation split of the task its file records (else the view asks for a file).
    void scoreRequested();
    std::function<const SessionSettings&()> settings_;
    HeadService* service_ = nullptr;
    std::vector<HeadId> muted_;
};

}  // namespace as
