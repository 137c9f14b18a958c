// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Tokens view's work (issue 27 §1): its record is built in a thread of the global pool
// (training a SentencePiece model on a side of zh-en takes seconds), with progress and Cancel,
// when the view is shown and its record is not of the session's corpus and side; the probe and
// typed text are cut again on the GUI thread (the models are in the record). The corpus is the
// bundled one the session trains on, or a user's (File > Open corpus…), whose training split
// the session keeps as text. Its "Compare with BPE (A/B)" starts the A/B session
// (comparison_actions.h) with B = the session with bpe:8000 on the side chosen, on the same
// pairs: a bundled corpus split again as A's was, a user's built again from the training and
// validation text A read (makeSessionData; the file is not read again), the other side cut as
// A cuts it. Not with a shared vocabulary, on a side cut by bpe:8000 already, or without a
// corpus (a generated task, a model opened alone).
#include "text/corpus.h"
#include "text/tasks.h"
#include "text/tokens_record.h"

#include <QObject>

#include <atomic>
#include <memory>
#include <optional>

namespace as {
class BackgroundJob;
class MainWindow;
struct SessionSettings;
namespace ui {
class TokensView;
}

class TokensController : public QObject {
    Q_OBJECT
public:
    TokensController(MainWindow* window, ui::TokensView* view);
    ~TokensController() override;

    // The tokenisers compared on a side: cjk-char, word, bpe:8000 and unigram:8000, the
    // session's own in its place (already trained) or added when it is none of them.
    static QList<Tokenizer> choicesFor(const Tokenizer& session);
    // B of "Compare with BPE (A/B)": the session's settings with bpe:8000 on `side` (srcTok or
    // tgtTok, on a bundled corpus and a user's alike; comparisonOf keeps it).
    static SessionSettings bpeComparison(const SessionSettings& a, CorpusSide side);
    // Builds the record of `side` now (the view need not be shown); a build under way is
    // cancelled first.
    void build(CorpusSide side);
    void cancel();
    // Tests: the job that builds the record (to hold one under way).
    BackgroundJob* builder() const { return builder_; }

signals:
    // A record reached the view (tests and --screenshot wait on it).
    void recordShown();

private:
    void setTask(const Task& task);
    void refresh();  // builds a record when the view is shown and has none of this session
    void recut();    // the probe and typed text again, into the record shown
    void updateComparison();
    void showBuilt(TokensRecord record);  // a finished build, on the GUI thread
    QString sessionKey(CorpusSide side) const;
    // The training split's pairs the view cuts: a user's corpus as the session read it
    // (SessionData::trainingText), a bundled one as loadBundledCorpus splits it (lm-en and
    // lm-zh: zh-en's, of which they read one side). Empty, and *why, for a session with no
    // sentences (a generated task, a model opened alone).
    QList<SentencePair> trainingText(QString* why) const;
    bool hasText() const;  // trainingText() would give pairs (without making them)
    // lm-en's and lm-zh's one side of zh-en; nullopt for a translation task.
    std::optional<CorpusSide> languageModelSide() const;
    QString probeFor(CorpusSide side) const;  // the probe's text on that side

    MainWindow* window_;
    ui::TokensView* view_;
    Task task_;
    QString probe_;         // the probe's text on each side
    QString probeTarget_;
    QString builtFor_;      // the session (task, tokenisers) and side of the record shown
    QString buildingFor_;   // … and of the one being built
    BackgroundJob* builder_ = nullptr;  // the record being built, in a thread of its own
    std::shared_ptr<const TokensRecord> shown_;
};

}  // namespace as
