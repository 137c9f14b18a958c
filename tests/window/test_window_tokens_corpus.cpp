// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The Tokens tab on a user's corpus (issue 27 §1): a generated task has no sentences to cut and
// says so; a corpus opened in the window (File > Open corpus…, here 40 Chinese–English pairs
// and a validation file, read with a target vocabulary limit) is cut from the training text the
// session keeps: the session's own tokeniser on each side gives the session's vocabulary, entry
// for entry, and the tokens per sentence and <unk> counts equal counts made here. Its A/B
// against BPE works there too: B is built from the text A read (the files are gone by then),
// its chosen side cut by bpe:8000 with as many pieces as the corpus gives, the other side and
// the split A's, pair for pair. It is refused on a generated task, on a side cut by bpe:8000
// already, and on a corpus read with one vocabulary for both sides.
// B is built off the GUI and worker threads with a busy progress dialog (a SentencePiece model is
// trained): A trains meanwhile, and Cancel drops B and leaves A as it was, still training; the
// next A/B starts as before. A kept B's BPE side stays through Settings > Apply, shown in the
// form's tokeniser boxes. A new session whose data trains a SentencePiece model (Reset during
// such an A/B, Apply of a BPE side) is built in the same way first, and the old one trains on
// until it is there (or for good, on Cancel); an A/B asked for meanwhile is B of the new one.
#include "form_field.h"
#include "language.h"
#include "skip.h"
#include "background_job.h"
#include "comparison_actions.h"
#include "corpus_actions.h"
#include "main_window.h"
#include "session_builder.h"
#include "settings_panel.h"
#include "tokens_controller.h"
#include "tokens_view.h"
#include "view_set.h"
#include "window_runs.h"
#include "worker_link.h"

#include "run/settings.h"

#include <QComboBox>
#include <QFile>
#include <QFormLayout>
#include <QJsonArray>
#include <QLabel>
#include <QMessageBox>
#include <QProgressDialog>
#include <QPushButton>
#include <QSemaphore>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>

using namespace as;
using namespace Qt::StringLiterals;

namespace {

// "<who> <verb> <what>." and its Chinese: target tokens are the words and the full stop, source
// tokens every character (cjk-char). Two pairs bring words seen once (Grandpa, oolong).
QList<SentencePair> pairs(int first, int count)
{
    const QStringList whoEn = {u"Tom"_s, u"Mary"_s, u"I"_s, u"We"_s, u"They"_s, u"She"_s};
    const QStringList whoZh = {u"汤姆"_s, u"玛丽"_s, u"我"_s, u"我们"_s, u"他们"_s, u"她"_s};
    const QStringList verbEn = {u"likes"_s, u"drinks"_s, u"wants"_s};
    const QStringList verbZh = {u"喜欢"_s, u"喝"_s, u"要"_s};
    const QStringList whatEn = {u"green tea"_s, u"water"_s, u"coffee"_s, u"milk"_s};
    const QStringList whatZh = {u"绿茶"_s, u"水"_s, u"咖啡"_s, u"牛奶"_s};
    QList<SentencePair> out;
    for (int i = first; i < first + count; ++i) {
        const int who = i % 6, verb = (i / 6) % 3, what = (i * 5 + i / 18) % 4;
        out.append({whoZh[who] + verbZh[verb] + whatZh[what] + u"。"_s,
                    whoEn[who] + u' ' + verbEn[verb] + u' ' + whatEn[what] + u'.', int(out.size()) + 1});
    }
    return out;
}

QString write(const QString& path, const QList<SentencePair>& pairs)
{
    QByteArray bytes;
    for (const SentencePair& p : pairs)
        bytes += (p.src + u'\t' + p.tgt + u'\n').toUtf8();
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
    return path;
}

// The target's words and its full stop, counted by hand: "Tom likes green tea." is 5.
QStringList targetTokens(const QString& tgt)
{
    QStringList words = tgt.chopped(1).split(u' ');
    return words << u"."_s;
}

QString shownText(const ui::TokensView* v)
{
    QStringList texts;
    for (const QLabel* l : v->findChildren<QLabel*>())
        texts << l->text();
    return texts.join(u'\n');
}

QString tokName(const std::optional<Tokenizer>& t)
{
    return t ? tokenizerName(*t) : u"(as read)"_s;
}

// The tests' 40 training pairs, two of them with words seen once.
QList<SentencePair> trainingPairs()
{
    QList<SentencePair> train = pairs(0, 38);
    train.append({u"爷爷喜欢乌龙茶。"_s, u"Grandpa likes oolong tea."_s, 39});
    train.append({u"玛丽喝水。"_s, u"Mary drinks water."_s, 40});
    return train;
}

// The tests' corpus, written in `dir`: trainingPairs() in train.tsv and 6 validation pairs in
// valid.tsv.
CorpusSource writeCorpus(const QTemporaryDir& dir)
{
    CorpusSource source;
    source.train = write(dir.filePath(u"train.tsv"_s), trainingPairs());
    source.valid = write(dir.filePath(u"valid.tsv"_s), pairs(40, 6));
    return source;
}

// writeCorpus's corpus opened in the window as File > Open corpus… opens it; its data has come
// (taskReady).
bool openCorpus(MainWindow& w, const QTemporaryDir& dir)
{
    const CorpusSource source = writeCorpus(dir);
    QSignalSpy tasks(w.link(), &WorkerLink::taskReady);
    QSignalSpy opened(w.corpus(), &CorpusActions::corpusOpened);
    w.corpus()->openCorpus(source);
    return opened.wait(60000) && QTest::qWaitFor([&] {
        return !tasks.isEmpty() && tasks.last()[0].value<TaskPtr>()->name == u"corpus:train.tsv"_s;
    }, 60000);
}

// A window at 1280 × 800 on openCorpus's corpus, its Tokens view shown with the record of the
// target side built.
bool openInTokensView(MainWindow& w, const QTemporaryDir& dir)
{
    w.resize(1280, 800);
    w.show();
    if (!openCorpus(w, dir))
        return false;
    ui::TokensView* v = w.views()->tokens();
    w.views()->showView(v);
    return QTest::qWaitFor([&] { return v->record() && !v->busy(); }, 120000)
        && v->side() == CorpusSide::Target;
}

// A window of its own on openCorpus's corpus in a directory of its own, its Tokens view shown
// (openInTokensView).
struct TokensWindow {
    QTemporaryDir dir;
    MainWindow w;
    bool open() { return dir.isValid() && openInTokensView(w, dir); }
};

// A BackgroundJob's next work held in its thread until release(), so that what the window
// shows while a job is under way is seen whatever the machine's speed. The end of the scope
// releases it too: a failed check then does not leave the job's thread waiting forever.
class HeldJob {
public:
    explicit HeldJob(BackgroundJob* job) : job_(job)
    {
        job_->setBeforeWork([this] {
            held_ = true;
            gate_.acquire();
        });
    }
    ~HeldJob() { release(); }
    bool waitUntilHeld() { return QTest::qWaitFor([this] { return held_.load(); }, 60000); }
    // Lets the held work go on, and runs the next ones unheld.
    void release()
    {
        if (released_)
            return;
        released_ = true;
        job_->setBeforeWork({});
        gate_.release();
    }

private:
    BackgroundJob* job_;
    QSemaphore gate_;
    std::atomic<bool> held_{false};
    bool released_ = false;
};

// A and B restarted from step 0 (paused, B's series empty), B named `name`, and then both
// taking `steps` steps together.
bool restartedTogether(MainWindow& w, const QString& name, int steps)
{
    const auto b = [&] { return w.comparisons()->comparison(); };
    if (!QTest::qWaitFor([&] { return !w.isRunning() && w.currentStep() == 0 && b() && b()->loss.empty(); }, 60000)
        || b()->name != name)
        return false;
    w.link()->step(steps);
    return QTest::qWaitFor([&] { return w.currentStep() == steps && b()->loss.size() == std::size_t(steps); }, 60000);
}

}  // namespace

class TestWindowTokensCorpus : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void userCorpusIsCutFromItsTrainingText();
    void buildingBShowsProgressAndCancelLeavesA();
    void keptBpeSideStaysThroughApply();
    void cancelledCutLeavesTheRecordShown();
    void resetDuringBpeComparisonBuildsOffTheWorker();
    void comparisonWaitsForTheSessionBuiltBefore();
    void subwordSizeTooSmallSaysTheSizeThatWorks();
};

void TestWindowTokensCorpus::userCorpusIsCutFromItsTrainingText()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QList<SentencePair> train = trainingPairs();
    CorpusSource source = writeCorpus(dir);
    source.dataset.tgt_max_vocab = 14;  // 4 specials and the 10 most frequent target words

    MainWindow w;
    w.resize(1280, 800);
    w.show();
    ui::TokensView* v = w.views()->tokens();
    QSignalSpy tasks(w.link(), &WorkerLink::taskReady);
    // The toy task the window starts with: a generated task, nothing to cut, the reason shown.
    QCOMPARE(w.settings().task, u"toy"_s);
    w.views()->showView(v);
    QVERIFY(!v->record());
    QVERIFY2(shownText(v).contains(u"generated task"_s), qPrintable(shownText(v)));
    // … and no A/B against BPE: there are no pairs to cut another way.
    QVERIFY(!v->compareButton()->isEnabled());
    QVERIFY2(v->compareButton()->toolTip().contains(u"open a corpus"_s), qPrintable(v->compareButton()->toolTip()));

    // The corpus read as File > Open corpus… reads it; its data comes with taskReady.
    QSignalSpy opened(w.corpus(), &CorpusActions::corpusOpened);
    QSignalSpy shown(w.tokens(), &TokensController::recordShown);
    w.corpus()->openCorpus(source);
    QVERIFY(opened.wait(60000));
    const auto corpusTask = [&] {
        return !tasks.isEmpty() && tasks.last()[0].value<TaskPtr>()->name == u"corpus:train.tsv"_s;
    };
    QVERIFY(QTest::qWaitFor(corpusTask, 60000));
    const TaskPtr task = tasks.last()[0].value<TaskPtr>();
    QCOMPARE(tokenizerName(task->srcTokenizer), u"cjk-char"_s);
    QCOMPARE(tokenizerName(task->tgtTokenizer), u"word"_s);
    QCOMPARE(task->tgtVocab.size(), 14);

    // The view is shown: the target side is cut at once, with the session's tokenisers.
    QVERIFY(QTest::qWaitFor([&] { return v->record() && !v->busy(); }, 120000));
    const TokensRecord* r = v->record();
    QCOMPARE(r->corpus, u"corpus:train.tsv"_s);
    QCOMPARE(r->side, CorpusSide::Target);
    QCOMPARE(r->choices.size(), std::size_t(4));
    const TokenizerTokens& word = r->choices[1];
    QCOMPARE(word.name, u"word"_s);
    QVERIFY(word.error.isEmpty());
    // The session's target vocabulary, entry for entry (the size limit it was read with).
    QCOMPARE(word.vocabSize(), task->tgtVocab.size());
    for (int i = 0; i < word.vocab.size(); ++i)
        QCOMPARE(word.vocab[i].first, task->tgtVocab.token(i + 4));
    // Every training pair (none from the validation file), its tokens counted here.
    qint64 tokens = 0, unknown = 0;
    std::vector<qint64> lengths(6, 0);  // 4 or 5 tokens each
    for (const SentencePair& p : train) {
        const QStringList cut = targetTokens(p.tgt);
        ++lengths[std::size_t(cut.size())];
        for (const QString& t : cut) {
            ++tokens;
            unknown += task->tgtVocab.contains(t) ? 0 : 1;
        }
    }
    QCOMPARE(word.sentences, qint64(train.size()));
    QCOMPARE(word.tokens, tokens);
    QCOMPARE(word.tokensPerSentence(), double(tokens) / double(train.size()));
    QCOMPARE(word.unknown, unknown);
    QVERIFY(unknown >= 2);  // Grandpa, oolong at least
    QCOMPARE(word.lengths, lengths);
    for (const TokenizerTokens& t : r->choices)
        QCOMPARE(t.sentences, t.error.isEmpty() ? qint64(train.size()) : 0);
    QCOMPARE(v->choicesTable()->rowCount(), 4);

    // The source side: cjk-char, the session's own, gives the source vocabulary.
    shown.clear();
    w.tokens()->build(CorpusSide::Source);
    QVERIFY(shown.wait(120000));
    r = v->record();
    QCOMPARE(r->side, CorpusSide::Source);
    const TokenizerTokens& chars = r->choices[0];
    QCOMPARE(chars.name, u"cjk-char"_s);
    QCOMPARE(chars.vocabSize(), task->srcVocab.size());
    for (int i = 0; i < chars.vocab.size(); ++i)
        QCOMPARE(chars.vocab[i].first, task->srcVocab.token(i + 4));
    qint64 characters = 0;
    for (const SentencePair& p : train)
        characters += p.src.toUcs4().size();
    QCOMPARE(chars.tokens, characters);
    QCOMPARE(chars.unknown, 0);

    // The A/B against BPE on the source side: allowed, the button's tooltip says what it does.
    QCOMPARE(v->side(), CorpusSide::Source);
    QVERIFY(v->compareButton()->isEnabled());
    QVERIFY2(v->compareButton()->toolTip().startsWith(u"Start an A/B session"_s),
             qPrintable(v->compareButton()->toolTip()));
    // A's data, as the worker holds it.
    QSignalSpy copies(w.link(), &WorkerLink::modelCopyReady);
    w.link()->requestModelCopy();
    QVERIFY(copies.wait(60000));
    const std::shared_ptr<const SessionData> a = copies.last()[0].value<ModelCopyPtr>()->data;
    QVERIFY(a);
    QCOMPARE(a->trainingText().size(), train.size());
    // B is built from the text A read: the files are not read again.
    QVERIFY(QFile::remove(source.train));
    QVERIFY(QFile::remove(source.valid));
    v->compareButton()->click();
    QVERIFY(QTest::qWaitFor([&] { return w.comparisons()->comparison() != nullptr; }, 120000));
    QCOMPARE(w.comparisons()->comparison()->name, u"B: source bpe:8000"_s);

    // B's session, kept as the session to look at its data.
    QSignalSpy loaded(w.link(), &WorkerLink::sessionLoaded);
    w.comparisons()->keepComparison();
    QVERIFY(loaded.wait(60000));
    const SessionSettings bSettings = loaded.last()[0].value<SessionSettings>();
    QCOMPARE(bSettings.task, u"corpus:train.tsv"_s);
    QVERIFY(bSettings.srcTok);
    QCOMPARE(tokenizerName(*bSettings.srcTok), u"bpe:8000"_s);
    QVERIFY(!bSettings.tgtTok);
    copies.clear();
    w.link()->requestModelCopy();
    QVERIFY(copies.wait(60000));
    const std::shared_ptr<const SessionData> b = copies.last()[0].value<ModelCopyPtr>()->data;
    QVERIFY(b && b != a);
    QCOMPARE(b->name(), a->name());
    // The chosen side: bpe:8000 trained on A's training sources, with the pieces they give.
    QCOMPARE(tokenizerName(b->srcTokenizer()), u"bpe:8000"_s);
    QVERIFY(b->srcTokenizer().ready());
    QStringList sources;
    for (const SentencePair& p : a->trainingText())
        sources << p.src;
    QString error;
    const std::optional<Tokenizer> bpe = Tokenizer(TokenizerKind::Bpe, 8000).trained(sources, &error);
    QVERIFY2(bpe, qPrintable(error));
    QCOMPARE(b->srcVocab().tokens(), bpe->pieces());
    QVERIFY(b->srcVocab().size() < 8000);
    QCOMPARE(b->srcVocab().size(), loaded.last()[1].value<TaskPtr>()->srcVocab.size());
    // The other side as A cuts it: its tokeniser and vocabulary (the size limit it was read with).
    QCOMPARE(tokenizerName(b->tgtTokenizer()), tokenizerName(a->tgtTokenizer()));
    QCOMPARE(b->tgtVocab().tokens(), a->tgtVocab().tokens());
    QCOMPARE(b->tgtVocab().size(), 14);
    // The same split: the same pairs in train and valid, pair for pair, as A read them.
    QCOMPARE(b->trainingPairs()->size(), a->trainingPairs()->size());
    QCOMPARE(b->validation().size(), a->validation().size());
    QCOMPARE(b->trainingText().size(), a->trainingText().size());
    for (qsizetype i = 0; i < a->trainingText().size(); ++i) {
        QCOMPARE(b->trainingText()[i].src, a->trainingText()[i].src);
        QCOMPARE(b->trainingText()[i].tgt, a->trainingText()[i].tgt);
        QCOMPARE(b->trainingText()[i].line, a->trainingText()[i].line);
        QCOMPARE(b->trainingText()[i].src, train[i].src);
    }
    QCOMPARE(b->validationText().size(), a->validationText().size());
    for (qsizetype i = 0; i < a->validationText().size(); ++i) {
        QCOMPARE(b->validationText()[i].src, a->validationText()[i].src);
        QCOMPARE(b->validationText()[i].tgt, a->validationText()[i].tgt);
    }
    for (std::size_t i = 0; i < a->trainingPairs()->size(); ++i) {
        QCOMPARE((*b->trainingPairs())[i].line, (*a->trainingPairs())[i].line);
        QCOMPARE((*b->trainingPairs())[i].tgt, (*a->trainingPairs())[i].tgt);
    }
    // Its record names its tokeniser: a checkpoint of B is continued on the same pairs.
    const QJsonArray args = b->record().value(u"args"_s).toArray();
    qsizetype at = -1;
    for (qsizetype i = 0; i + 1 < args.size(); ++i)
        if (args[i].toString() == u"--src-tok"_s)
            at = i;
    QVERIFY(at >= 0);
    QCOMPARE(args[at + 1].toString(), u"bpe:8000"_s);
    QVERIFY(!args.contains(u"--tgt-tok"_s));

    // B as the session: its source side is cut by bpe:8000 already.
    QVERIFY(QTest::qWaitFor([&] { return !v->compareButton()->isEnabled(); }, 60000));
    QVERIFY2(v->compareButton()->toolTip().contains(u"already"_s), qPrintable(v->compareButton()->toolTip()));

    // A corpus read with one vocabulary for both sides: no BPE side, and the button says why.
    CorpusSource shared;
    shared.train = write(dir.filePath(u"shared.tsv"_s), train);
    shared.valid = write(dir.filePath(u"shared-valid.tsv"_s), pairs(40, 6));
    shared.dataset.shared_vocab = true;
    opened.clear();
    w.corpus()->openCorpus(shared);
    QVERIFY(opened.wait(60000));
    QVERIFY(QTest::qWaitFor([&] {
        return !tasks.isEmpty() && tasks.last()[0].value<TaskPtr>()->name == u"corpus:shared.tsv"_s;
    }, 60000));
    QVERIFY(w.settings().source.dataset.shared_vocab);
    QVERIFY2(QTest::qWaitFor([&] {
        return !v->compareButton()->isEnabled() && v->compareButton()->toolTip().contains(u"--shared-vocab"_s);
    }, 60000), qPrintable(v->compareButton()->toolTip()));
}

void TestWindowTokensCorpus::buildingBShowsProgressAndCancelLeavesA()
{
    TokensWindow t;
    QVERIFY(t.open());
    MainWindow& w = t.w;
    ui::TokensView* v = w.views()->tokens();
    QVERIFY(v->compareButton()->isEnabled());
    // No snapshot carries a B until the second A/B below.
    bool sawB = false;
    connect(w.link(), &WorkerLink::snapshotReady, this, [&](const SnapshotPtr& s) {
        if (s->comparison)
            sawB = true;
    });

    // A trains.
    w.playAction()->trigger();
    QVERIFY(QTest::qWaitFor([&] { return w.isRunning() && w.currentStep() >= 2; }, 60000));
    const SessionSettings before = w.settings();
    QVERIFY(!before.srcTok && !before.tgtTok);

    // The build of B held in its thread until the test lets it go.
    BackgroundJob* builder = w.sessionBuilder()->job();
    HeldJob hold(builder);
    v->compareButton()->click();
    QVERIFY(builder->busy());
    QVERIFY(hold.waitUntilHeld());
    // The progress dialog: a busy bar (SentencePiece reports no progress), saying what B is.
    QProgressDialog* dialog = builder->progressDialog();
    QVERIFY(dialog);
    QVERIFY(QTest::qWaitFor([&] { return dialog->isVisible(); }, 60000));
    QCOMPARE(dialog->minimum(), 0);
    QCOMPARE(dialog->maximum(), 0);
    QVERIFY2(dialog->labelText().contains(u"target bpe:8000"_s), qPrintable(dialog->labelText()));
    // The status bar says B is being built, not that the Loss view shows both already.
    QVERIFY2(w.statusBar()->currentMessage().contains(u"building B"_s), qPrintable(w.statusBar()->currentMessage()));
    // A goes on training while B is built: the worker does not wait for it.
    const long during = w.currentStep();
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() > during; }, 60000));
    QVERIFY(w.isRunning());
    QVERIFY(!w.comparisons()->comparison());

    // Cancel: the dialog goes, B with it; A is as it was, training.
    auto* cancel = dialog->findChild<QPushButton*>();
    QVERIFY(cancel);
    cancel->click();
    QVERIFY(!dialog->isVisible());
    QVERIFY(!builder->busy());
    QVERIFY2(w.statusBar()->currentMessage().contains(u"cancelled"_s), qPrintable(w.statusBar()->currentMessage()));
    const long atCancel = w.currentStep();
    // The held build goes on to its end (SentencePiece cannot stop), unseen: nothing reaches
    // the worker.
    hold.release();
    builder->waitForDone();
    QVERIFY(test::settled(w));
    QVERIFY(!w.comparisons()->comparison());
    QVERIFY(!w.comparisons()->keepAction()->isEnabled());
    QVERIFY(!sawB);
    QVERIFY(w.isRunning());
    QVERIFY(w.currentStep() >= atCancel);  // not restarted from step 0
    QVERIFY(QTest::qWaitFor([&] { return w.currentStep() > atCancel; }, 60000));
    QCOMPARE(w.settings().task, before.task);
    QVERIFY(w.settings().corpus == before.corpus);
    QVERIFY(!w.settings().srcTok && !w.settings().tgtTok);
    QCOMPARE(w.settings().model.d_model, before.model.d_model);
    QCOMPARE(w.settings().train.seed, before.train.seed);

    // Compare again, not cancelled: B is built and both restart from step 0, as before.
    v->compareButton()->click();
    QVERIFY(QTest::qWaitFor([&] { return w.comparisons()->comparison() != nullptr; }, 120000));
    QVERIFY(sawB);
    QVERIFY(!builder->busy());
    QVERIFY(!dialog->isVisible());
    QVERIFY(restartedTogether(w, u"B: target bpe:8000"_s, 3));
}

void TestWindowTokensCorpus::keptBpeSideStaysThroughApply()
{
    TokensWindow t;
    QVERIFY(t.open());
    MainWindow& w = t.w;
    auto* panel = w.findChild<SettingsPanel*>();
    QVERIFY(panel);
    auto* srcTok = as::test::formField<QComboBox>(panel, SettingsPanel::tr("source tokens"));
    auto* tgtTok = as::test::formField<QComboBox>(panel, SettingsPanel::tr("target tokens"));
    auto* tgtPieces = as::test::formField<QSpinBox>(panel, SettingsPanel::tr("target pieces"));
    QVERIFY(srcTok && tgtTok && tgtPieces);
    // The corpus as read: its own tokenisers shown (not chosen here).
    QCOMPARE(srcTok->currentData().toString(), u"cjk-char"_s);
    QCOMPARE(tgtTok->currentData().toString(), u"word"_s);
    QVERIFY(!srcTok->isEnabled() && !tgtTok->isEnabled());
    QVERIFY(!panel->settings().srcTok && !panel->settings().tgtTok);

    // A/B against BPE on the target side, B kept as the session.
    ui::TokensView* v = w.views()->tokens();
    QVERIFY(QTest::qWaitFor([&] { return v->compareButton()->isEnabled(); }, 60000));
    QCOMPARE(v->side(), CorpusSide::Target);
    v->compareButton()->click();
    QVERIFY(QTest::qWaitFor([&] { return w.comparisons()->comparison() != nullptr; }, 120000));
    QSignalSpy loaded(w.link(), &WorkerLink::sessionLoaded);
    w.comparisons()->keepComparison();
    QVERIFY(loaded.wait(60000));
    QCOMPARE(tokName(w.settings().tgtTok), u"bpe:8000"_s);
    QVERIFY(!w.settings().srcTok);
    // The form shows the session's tokenisers: bpe with 8000 pieces on the target side.
    QCOMPARE(tgtTok->currentData().toString(), u"bpe"_s);
    QCOMPARE(tgtPieces->value(), 8000);
    QCOMPARE(srcTok->currentData().toString(), u"cjk-char"_s);
    QCOMPARE(tokName(panel->settings().tgtTok), u"bpe:8000"_s);
    QVERIFY(!panel->settings().srcTok);

    // Settings > Apply: the session is rebuilt with the target side still cut by bpe:8000.
    QSignalSpy tasks(w.link(), &WorkerLink::taskReady);
    auto* apply = panel->findChild<QPushButton*>();
    QVERIFY(apply && apply->isEnabled());
    apply->click();
    // The BPE side is trained in the session builder's job, not on the worker's thread.
    QVERIFY(w.sessionBuilder()->busy());
    QVERIFY(tasks.wait(120000));
    const TaskPtr task = tasks.last()[0].value<TaskPtr>();
    QCOMPARE(task->name, u"corpus:train.tsv"_s);
    QCOMPARE(tokenizerName(task->tgtTokenizer), u"bpe:8000"_s);
    QCOMPARE(tokenizerName(task->srcTokenizer), u"cjk-char"_s);
    QCOMPARE(tokName(w.settings().tgtTok), u"bpe:8000"_s);
    QSignalSpy copies(w.link(), &WorkerLink::modelCopyReady);
    w.link()->requestModelCopy();
    QVERIFY(copies.wait(60000));
    const std::shared_ptr<const SessionData> data = copies.last()[0].value<ModelCopyPtr>()->data;
    QVERIFY(data);
    QCOMPARE(tokenizerName(data->tgtTokenizer()), u"bpe:8000"_s);
    QVERIFY(data->tgtTokenizer().ready());
    QCOMPARE(w.currentStep(), 0L);
    // … and the form still shows it.
    QCOMPARE(tgtTok->currentData().toString(), u"bpe"_s);
    QCOMPARE(tgtPieces->value(), 8000);
}

void TestWindowTokensCorpus::cancelledCutLeavesTheRecordShown()
{
    // The Tokens view's cut runs in a job of its own (BackgroundJob): Cancel ends the wait at
    // once, the record shown stays, the cancelled cut's answer never arrives, and the next cut
    // completes.
    TokensWindow t;
    QVERIFY(t.open());
    MainWindow& w = t.w;
    ui::TokensView* v = w.views()->tokens();
    BackgroundJob* builder = w.tokens()->builder();
    HeldJob hold(builder);
    QSignalSpy shown(w.tokens(), &TokensController::recordShown);
    w.tokens()->build(CorpusSide::Source);
    QVERIFY(hold.waitUntilHeld());
    QVERIFY(v->busy());
    QVERIFY(builder->busy());
    emit v->cancelRequested();  // the view's Cancel
    QVERIFY(!v->busy());
    QVERIFY(!builder->busy());
    hold.release();
    builder->waitForDone();  // the cancelled cut has ended and posted what it had
    QTest::qWait(100);       // … which the event loop has now delivered, and dropped
    QCOMPARE(shown.count(), 0);
    QVERIFY(v->record());
    QCOMPARE(v->record()->side, CorpusSide::Target);

    w.tokens()->build(CorpusSide::Source);
    QVERIFY(QTest::qWaitFor([&] { return shown.count() == 1; }, 120000));
    QVERIFY(!v->busy());
    QCOMPARE(v->record()->side, CorpusSide::Source);
}

void TestWindowTokensCorpus::resetDuringBpeComparisonBuildsOffTheWorker()
{
    // Reset while an A/B whose B cuts a side by bpe:8000 trains: B's SentencePiece model is
    // trained again for the new session in the session builder's job, with a busy dialog; the
    // old A and B train on meanwhile, Cancel leaves both as they were, and a Reset let through
    // restarts both from step 0.
    TokensWindow t;
    QVERIFY(t.open());
    MainWindow& w = t.w;
    ui::TokensView* v = w.views()->tokens();
    v->compareButton()->click();
    QVERIFY(QTest::qWaitFor([&] { return w.comparisons()->comparison() != nullptr; }, 120000));
    QVERIFY(w.comparisons()->runningComparison());
    QCOMPARE(tokName(w.comparisons()->runningComparison()->tgtTok), u"bpe:8000"_s);
    w.playAction()->trigger();
    QVERIFY(QTest::qWaitFor([&] {
        return w.currentStep() >= 3 && w.comparisons()->comparison()->loss.size() >= 3;
    }, 60000));

    QAction* reset = nullptr;
    for (QAction* a : w.findChildren<QAction*>())
        if (a->text() == MainWindow::tr("Reset"))
            reset = a;
    QVERIFY(reset);
    BackgroundJob* job = w.sessionBuilder()->job();
    {
        HeldJob hold(job);
        reset->trigger();
        QVERIFY(w.sessionBuilder()->busy());
        // The status bar says what happens now, not the A/B's "building B" of before.
        QVERIFY2(w.statusBar()->currentMessage().startsWith(u"Building the new session"_s),
                 qPrintable(w.statusBar()->currentMessage()));
        QVERIFY(hold.waitUntilHeld());
        QProgressDialog* dialog = job->progressDialog();
        QVERIFY(dialog);
        QVERIFY(QTest::qWaitFor([&] { return dialog->isVisible(); }, 60000));
        QCOMPARE(dialog->maximum(), 0);
        QVERIFY2(dialog->labelText().contains(u"B: target bpe:8000"_s), qPrintable(dialog->labelText()));
        // The session there is goes on, A and B, while the new one is built.
        const long during = w.currentStep();
        const std::size_t bDuring = w.comparisons()->comparison()->loss.size();
        QVERIFY(QTest::qWaitFor([&] {
            return w.currentStep() > during && w.comparisons()->comparison()->loss.size() > bDuring;
        }, 60000));
        QVERIFY(w.isRunning());

        auto* cancel = dialog->findChild<QPushButton*>();
        QVERIFY(cancel);
        cancel->click();
        QVERIFY(!dialog->isVisible());
        QVERIFY(!w.sessionBuilder()->busy());
        QVERIFY2(w.statusBar()->currentMessage().contains(u"Cancelled"_s), qPrintable(w.statusBar()->currentMessage()));
        const long atCancel = w.currentStep();
        hold.release();
        job->waitForDone();
        QVERIFY(test::settled(w));
        // Nothing reached the worker: A and B go on from where they were.
        QVERIFY(w.isRunning());
        QVERIFY(w.currentStep() >= atCancel);
        QVERIFY(w.comparisons()->comparison());
        const std::size_t bAt = w.comparisons()->comparison()->loss.size();
        QVERIFY(bAt >= bDuring);
        QVERIFY(QTest::qWaitFor([&] {
            return w.currentStep() > atCancel && w.comparisons()->comparison()->loss.size() > bAt;
        }, 60000));
    }

    // Reset let through: both restart from step 0, B still cut by bpe:8000.
    QSignalSpy tasks(w.link(), &WorkerLink::taskReady);
    reset->trigger();
    QVERIFY(w.sessionBuilder()->busy());
    QVERIFY(tasks.wait(120000));
    QVERIFY2(!w.statusBar()->currentMessage().startsWith(u"Building the new session"_s),
             qPrintable(w.statusBar()->currentMessage()));
    QVERIFY(restartedTogether(w, u"B: target bpe:8000"_s, 2));
}

void TestWindowTokensCorpus::comparisonWaitsForTheSessionBuiltBefore()
{
    // A lesson applies its settings and then starts its A/B, one call after the other. When the
    // settings train a SentencePiece model (here the target side by bpe:8000), the A/B waits
    // for that session and is B of it (source bpe:8000 beside the new A), not of the one before.
    TokensWindow t;
    QVERIFY(t.open());
    MainWindow& w = t.w;
    SessionSettings a = w.settings();
    a.tgtTok = tokenizerFromName(u"bpe:8000"_s);
    QVERIFY(a.tgtTok);
    const SessionSettings b = TokensController::bpeComparison(a, CorpusSide::Source);
    QSignalSpy tasks(w.link(), &WorkerLink::taskReady);
    w.applySettings(a);
    QVERIFY(w.sessionBuilder()->busy());
    w.comparisons()->startComparison(b);
    QVERIFY(!w.comparisons()->comparison());
    QVERIFY(QTest::qWaitFor([&] { return w.comparisons()->comparison() != nullptr; }, 180000));
    QCOMPARE(w.comparisons()->comparison()->name, u"B: source bpe:8000"_s);
    QVERIFY(!tasks.isEmpty());
    QCOMPARE(tokenizerName(tasks.last()[0].value<TaskPtr>()->tgtTokenizer), u"bpe:8000"_s);
    QCOMPARE(tokName(w.settings().tgtTok), u"bpe:8000"_s);
    // B kept as the session: both sides cut by bpe:8000, A's target side among them.
    QSignalSpy loaded(w.link(), &WorkerLink::sessionLoaded);
    w.comparisons()->keepComparison();
    QVERIFY(loaded.wait(60000));
    const TaskPtr task = loaded.last()[1].value<TaskPtr>();
    QCOMPARE(tokenizerName(task->srcTokenizer), u"bpe:8000"_s);
    QCOMPARE(tokenizerName(task->tgtTokenizer), u"bpe:8000"_s);
}

// Settings > Apply with a SentencePiece size below what the text's characters need (bpe:1000 on
// zh-en's Chinese side): the window says so in its words and its language, with the smallest
// size that trains (the one the engine finds, core/text/subword.cpp), and the session there
// was goes on.
void TestWindowTokensCorpus::subwordSizeTooSmallSaysTheSizeThatWorks()
{
    MainWindow w;
    w.show();
    for (const QString& language : {u"en"_s, u"zh_CN"_s}) {
        QVERIFY(setLanguage(language));
        QCoreApplication::processEvents();
        SessionSettings s = SessionSettings::defaultsFor(u"zh-en"_s);
        s.srcTok = tokenizerFromName(u"bpe:1000"_s);
        QSignalSpy errors(&w, &MainWindow::fileError);
        w.applySettings(s);
        QVERIFY(errors.wait(120000));
        const QString message = errors.first().first().toString();
        QVERIFY2(message.contains(language == u"en"_s ? u"bpe:1000 is too small for this text"_s
                                                       : u"bpe:1000 对这段文本太小了"_s),
                 qPrintable(message));
        QVERIFY2(message.contains(u"bpe:3434"_s), qPrintable(message));
        QVERIFY2(!message.contains(u"character_coverage"_s), qPrintable(message));
        for (QMessageBox* box : w.findChildren<QMessageBox*>())
            box->close();
    }
    setLanguage(u"en"_s);
}

AS_TEST_MAIN(TestWindowTokensCorpus)
#include "test_window_tokens_corpus.moc"
