// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The Tokens tab in the window (issue 27 §1) on zh-en: shown, it builds its record off the GUI
// thread (progress, then the record) of the target side of the training split; the session's
// own tokeniser (word) there gives the session's target vocabulary, entry for entry; and its
// "Compare with BPE (A/B)" starts the A/B session whose B cuts the target side with bpe:8000.
// On lm-zh (a language model's text, the Chinese side of zh-en) it cuts that one side, its
// cjk-char choice the session's vocabulary, and its A/B is lm-zh cut by bpe:8000.
#include "skip.h"
#include "comparison_actions.h"
#include "main_window.h"
#include "tokens_controller.h"
#include "tokens_view.h"
#include "view_set.h"
#include "worker_link.h"

#include "run/settings.h"

#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QTableWidget>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

using namespace as;
using namespace Qt::StringLiterals;

namespace {

// Applies `task`'s defaults to the window and waits for that task's data (the toy task the
// window starts with may answer first) and its examples: the task as the worker built it.
TaskPtr applyTask(MainWindow& w, const QString& task)
{
    QSignalSpy tasks(w.link(), &WorkerLink::taskReady);
    w.applySettings(SessionSettings::defaultsFor(task));
    const auto ready = [&] { return !tasks.isEmpty() && tasks.last()[0].value<TaskPtr>()->name == task; };
    if (!QTest::qWaitFor([&] { return ready() && w.examplesShown() > 0; }, 120000))
        return nullptr;
    return tasks.last()[0].value<TaskPtr>();
}

}  // namespace

class TestWindowTokens : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void bpeComparisonSettings();
    void recordOfTheSessionAndAbAgainstBpe();
    void unavailableShowsNoTokeniser();
    void languageModelsOneSide();
};

void TestWindowTokens::unavailableShowsNoTokeniser()
{
    // A generated task has no corpus to cut: the view says why, and the merges' heading names
    // no tokeniser (it read "none for " with an empty name).
    ui::TokensView v;
    v.setUnavailable(u"copy is a generated task"_s);
    QCOMPARE(v.mergesLabel()->text(), u"BPE merges, in order:"_s);
    QCOMPARE(v.mergesList()->count(), 0);
    QCOMPARE(v.choicesTable()->rowCount(), 0);
}

void TestWindowTokens::bpeComparisonSettings()
{
    const SessionSettings a = SessionSettings::defaultsFor(u"zh-en"_s);
    const SessionSettings b = TokensController::bpeComparison(a, CorpusSide::Target);
    QCOMPARE(tokenizerName(*b.tgtTok), u"bpe:8000"_s);
    QCOMPARE(b.srcTok.has_value(), a.srcTok.has_value());
    // comparisonOf keeps B's tokenisers on a bundled corpus, and the legend says so.
    const SessionSettings c = comparisonOf(a, b);
    QCOMPARE(tokenizerName(*c.tgtTok), u"bpe:8000"_s);
    QCOMPARE(settingsDifferences(a, c), u"target bpe:8000"_s);
    const SessionSettings s = TokensController::bpeComparison(a, CorpusSide::Source);
    QCOMPARE(settingsDifferences(a, comparisonOf(a, s)), u"source bpe:8000"_s);
    // Not on a generated task: there the tokenisers stay A's.
    const SessionSettings toy = SessionSettings::defaultsFor(u"toy"_s);
    QVERIFY(!comparisonOf(toy, TokensController::bpeComparison(toy, CorpusSide::Target)).tgtTok);
    // The choices: the session's own in its place, trained already.
    const QList<Tokenizer> choices = TokensController::choicesFor(Tokenizer(TokenizerKind::Word));
    QStringList names;
    for (const Tokenizer& t : choices)
        names << tokenizerName(t);
    QCOMPARE(names, (QStringList{u"cjk-char"_s, u"word"_s, u"bpe:8000"_s, u"unigram:8000"_s}));
    QCOMPARE(TokensController::choicesFor(Tokenizer(TokenizerKind::Bpe, 4000)).size(), 5);
}

void TestWindowTokens::recordOfTheSessionAndAbAgainstBpe()
{
    MainWindow w;
    w.resize(1280, 800);
    w.show();
    const TaskPtr task = applyTask(w, u"zh-en"_s);
    QVERIFY(task && task->tgtVocab.size() > 1000);

    ui::TokensView* v = w.views()->tokens();
    QSignalSpy shown(w.tokens(), &TokensController::recordShown);
    w.views()->showView(v);
    // built in the background (once the session's data has reached the controller)
    QVERIFY(QTest::qWaitFor([&] { return v->busy() || !shown.isEmpty(); }, 60000));
    QVERIFY(!shown.isEmpty() || shown.wait(300000));
    QVERIFY(!v->busy());
    const TokensRecord* r = v->record();
    QVERIFY(r);
    QCOMPARE(r->corpus, u"zh-en"_s);
    QCOMPARE(r->side, CorpusSide::Target);
    QCOMPARE(r->choices.size(), std::size_t(4));
    QVERIFY(!r->probeText.isEmpty());
    const TokenizerTokens& word = r->choices[1];
    QCOMPARE(word.name, u"word"_s);
    // The session's target vocabulary: its entries, in its order, after the specials.
    QCOMPARE(word.vocabSize(), task->tgtVocab.size());
    for (int i = 0; i < word.vocab.size(); ++i)
        QCOMPARE(word.vocab[i].first, task->tgtVocab.token(i + 4));
    QCOMPARE(word.probe, tokenize(task->tgtTokenizer, r->probeText));
    for (const TokenizerTokens& t : r->choices)
        QVERIFY2(t.error.isEmpty(), qPrintable(t.name + u": "_s + t.error));
    QVERIFY(!r->choices[2].merges.isEmpty());
    QCOMPARE(v->choicesTable()->rowCount(), 4);

    // Typed text is cut by every choice at once (no new build).
    v->typedEdit()->setText(u"newest printers"_s);
    QCOMPARE(v->record()->choices[2].typed, tokenize(v->record()->choices[2].tokenizer, u"newest printers"_s));
    QCOMPARE(shown.size(), 1);

    // One click: the A/B whose B cuts the target side with bpe:8000.
    QVERIFY(v->compareButton()->isEnabled());
    v->compareButton()->click();
    QVERIFY(QTest::qWaitFor([&] { return w.comparisons()->comparison() != nullptr; }, 300000));
    QCOMPARE(w.comparisons()->comparison()->name, u"B: target bpe:8000"_s);
}

void TestWindowTokens::languageModelsOneSide()
{
    MainWindow w;
    w.resize(1280, 800);
    w.show();
    const TaskPtr task = applyTask(w, u"lm-zh"_s);
    QVERIFY(task);

    ui::TokensView* v = w.views()->tokens();
    QSignalSpy shown(w.tokens(), &TokensController::recordShown);
    w.views()->showView(v);
    QVERIFY(shown.wait(300000));
    const TokensRecord* r = v->record();
    QVERIFY(r);
    QCOMPARE(r->corpus, u"lm-zh"_s);
    QCOMPARE(r->side, CorpusSide::Source);  // zh-en's Chinese side
    QVERIFY(!v->sideChooser()->isEnabled());
    QCOMPARE(v->side(), CorpusSide::Source);
    // The probe is the task's prompt, cut by the session's tokeniser.
    QCOMPARE(r->probeText, detokenize(task->tgtTokenizer, task->examples.front().tgt));
    const TokenizerTokens& chars = r->choices[0];
    QCOMPARE(chars.name, u"cjk-char"_s);
    QCOMPARE(chars.probe, task->examples.front().tgt);
    // The session's one vocabulary: its entries, in its order, after the specials.
    QCOMPARE(chars.vocabSize(), task->tgtVocab.size());
    for (int i = 0; i < chars.vocab.size(); ++i)
        QCOMPARE(chars.vocab[i].first, task->tgtVocab.token(i + 4));

    QVERIFY(v->compareButton()->isEnabled());
    const SessionSettings b = TokensController::bpeComparison(w.settings(), CorpusSide::Source);
    QCOMPARE(tokenizerName(*b.tgtTok), u"bpe:8000"_s);
    QCOMPARE(tokenizerName(*b.srcTok), u"bpe:8000"_s);
    v->compareButton()->click();
    QVERIFY(QTest::qWaitFor([&] { return w.comparisons()->comparison() != nullptr; }, 300000));
    QVERIFY2(w.comparisons()->comparison()->name.contains(u"bpe:8000"_s),
             qPrintable(w.comparisons()->comparison()->name));

    // A translation task gives the side back.
    w.comparisons()->stopComparison();
    w.applySettings(SessionSettings::defaultsFor(u"zh-en"_s));
    QVERIFY(QTest::qWaitFor([&] { return v->sideChooser()->isEnabled(); }, 120000));
}

AS_TEST_MAIN(TestWindowTokens)
#include "test_window_tokens.moc"
