// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the Heads view's questions run on: a copy of the current weights (asked from the
// training worker with modelWanted(), answered by setModel()), cloned again for each job so
// that no other user of the copy (Translate) is disturbed, in a thread of its own. One job at a
// time; a new request or cancel() drops the one under way (it stops at its next unit of work).
// Lives in the GUI thread; its signals come there.
#include "eval/interpret.h"
#include "eval/heads_record.h"
#include "mailbox.h"
#include "train/snapshot.h"

#include <QObject>
#include <QThreadPool>

#include <atomic>
#include <memory>

namespace as {

class HeadService : public QObject {
    Q_OBJECT
public:
    static constexpr int kMaxPairs = 500;  // validation pairs scored (the first ones)

    explicit HeadService(QObject* parent = nullptr);
    ~HeadService() override;  // cancels and waits

    void setModel(ModelCopyPtr model);
    // Every head's scores (full), or only the validation NLL and BLEU with `muted` against
    // without (mutes changed); scored() answers.
    void score(const std::vector<HeadId>& muted, bool full);
    // The pruning curve over `order` (least important first), `muted` kept masked; pruned()
    // answers after every point.
    void prune(const std::vector<HeadId>& order, const std::vector<HeadId>& muted);
    void cancel();
    bool busy() const { return busy_; }

    // What the jobs score on instead of the session's validation pairs, for a model opened
    // without its data (as `attention-studio-cli heads --data` does): the validation split of
    // the built-in task `task` (made in the job's thread), or `pairs` read from a file, named
    // `label`; both encoded with the model's own vocabularies. Default (empty): the session's.
    struct Source {
        QString task;
        QList<SentencePair> pairs;
        QString label;
        bool isSet() const { return !task.isEmpty() || !pairs.isEmpty(); }
    };
    void setSource(Source source);
    const Source& source() const { return source_; }

signals:
    void modelWanted();
    void progress(const QString& text, int done, int total);
    void scored(as::HeadsRecordPtr record);
    void pruned(as::PruningRecordPtr record);
    void refused(const QString& message);

private:
    enum class Kind { Full, Figures, Prune };
    struct Job {
        Kind kind = Kind::Full;
        std::vector<HeadId> muted, order;
    };
    void start();

    ModelCopyPtr model_;
    Source source_;
    std::unique_ptr<Job> pending_;
    bool waiting_ = false, busy_ = false;
    quint64 generation_ = 0;
    std::shared_ptr<std::atomic<bool>> stop_;
    QThreadPool pool_;
    Mailbox* results_ = nullptr;
};

}  // namespace as
