// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// core/run: the run as both programs see it. Progress (tokens/s, time left) against the same
// figures worked from the recorded history by hand, the session record a checkpoint stores
// against the settings it came from, the saved-run checks against data that is and is not the
// run's, and the settings parser's refusals.
#include "skip.h"
#include "io/checkpoint.h"
#include "run/make_session.h"
#include "run/resume.h"
#include "run/settings.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace as;
using namespace Qt::StringLiterals;

namespace {

SessionSettings toySettings(long steps)
{
    SessionSettings s = SessionSettings::defaultsFor(u"toy"_s);
    s.model.d_model = 16;
    s.model.heads = 2;
    s.model.d_ff = 32;
    s.model.encoder_layers = s.model.decoder_layers = 1;
    s.plannedSteps = steps;
    s.evalEvery = 0;
    return s;
}

std::unique_ptr<TrainingSession> toySession(SessionSettings* s)
{
    QString error;
    std::unique_ptr<SessionData> data = makeSessionData(*s, &error);
    if (!data)
        qFatal("toy data: %s", qPrintable(error));
    std::unique_ptr<TrainingSession> session = makeSession(std::move(data), s, &error);
    if (!session)
        qFatal("toy session: %s", qPrintable(error));
    return session;
}

Checkpoint checkpointOf(const TrainingSession& s, const QJsonObject& record)
{
    QString error;
    const std::optional<QByteArray> bytes = serializeCheckpoint(
        s.trainer(), s.data().srcVocab(), s.data().tgtVocab(), s.data().srcTokenizer(),
        s.data().tgtTokenizer(), s.checkpointRun(record), s.history(), &error);
    if (!bytes)
        qFatal("checkpoint: %s", qPrintable(error));
    std::optional<Checkpoint> ck = loadCheckpointFromBytes(*bytes, &error);
    if (!ck)
        qFatal("checkpoint: %s", qPrintable(error));
    return std::move(*ck);
}

}  // namespace

class TestRun : public QObject {
    Q_OBJECT
private slots:
    void makeSessionFillsTheVocabularySizes();
    void makeSessionRefusesAModelThatCannotBeBuilt();
    void tokensPerSecondIsTheRecentWindowOfTheHistory();
    void remainingSecondsFollowsThePlan();
    void sessionRecordRoundTrips();
    void readSessionRecordKeepsDefaultsForMissingKeys();
    void savedTaskSettingsNamesWhatIsWrong();
    void checkSavedRunDataAcceptsTheRunsDataOnly();
    void resumeSessionContinuesTheSavedRun();
    void settingsSpecRefusesNonFiniteValues();
    void comparisonKeepsAsDataAndPlan();
};

void TestRun::makeSessionFillsTheVocabularySizes()
{
    SessionSettings s = toySettings(10);
    s.model.src_vocab = s.model.tgt_vocab = 0;
    std::unique_ptr<TrainingSession> session = toySession(&s);
    QCOMPARE(s.model.src_vocab, session->data().srcVocab().size());
    QCOMPARE(s.model.tgt_vocab, session->data().tgtVocab().size());
    QCOMPARE(session->model().config().src_vocab, s.model.src_vocab);
    QCOMPARE(session->plan().steps, 10L);
    QCOMPARE(session->stepCount(), 0L);
}

void TestRun::makeSessionRefusesAModelThatCannotBeBuilt()
{
    SessionSettings s = toySettings(10);
    s.model.heads = 3;  // 16 is not a multiple of 3
    QString error;
    std::unique_ptr<SessionData> data = makeSessionData(s, &error);
    QVERIFY(data);
    QVERIFY(!makeSession(std::move(data), &s, &error));
    QVERIFY2(error.contains(u"heads"_s), qPrintable(error));

    s = toySettings(10);
    s.task = u"no-such-task"_s;
    error.clear();
    QVERIFY(!makeSessionData(s, &error));
    QVERIFY(!error.isEmpty());
}

// The figure the window's status line shows, worked here from the loss points themselves: the
// tokens of the steps within `window` seconds of the last one (after the step before the first
// of them), over the time between.
void TestRun::tokensPerSecondIsTheRecentWindowOfTheHistory()
{
    SessionSettings s = toySettings(40);
    std::unique_ptr<TrainingSession> session = toySession(&s);
    QCOMPARE(session->tokensPerSecond(), 0.0);
    session->step();
    QCOMPARE(session->tokensPerSecond(), 0.0);  // one step: no interval yet
    while (!session->finished())
        session->step();
    const std::vector<LossPoint>& loss = session->history().loss;
    const std::size_t n = loss.size();
    QCOMPARE(n, std::size_t(40));

    // A window longer than the run: every step after the first, over the whole time.
    long all = 0;
    for (std::size_t i = 1; i < n; ++i)
        all += loss[i].tokens;
    QCOMPARE(session->tokensPerSecond(1e9), double(all) / (loss[n - 1].seconds - loss[0].seconds));
    // A window of nothing: the last step alone, over its own time.
    QCOMPARE(session->tokensPerSecond(0.0),
             double(loss[n - 1].tokens) / (loss[n - 1].seconds - loss[n - 2].seconds));
    // A window that ends between steps: the first point inside it is the front.
    const double window = (loss[n - 1].seconds - loss[n / 2].seconds) * 0.999 + 1e-12;
    std::size_t front = 0;
    while (loss[n - 1].seconds - loss[front].seconds > window)
        ++front;
    long tokens = 0;
    for (std::size_t i = front + 1; i < n; ++i)
        tokens += loss[i].tokens;
    QVERIFY(front > 0 && front < n - 2);
    QCOMPARE(session->tokensPerSecond(window),
             double(tokens) / (loss[n - 1].seconds - loss[front].seconds));

    // A resumed session counts only its own steps: the restored points are another process's.
    Checkpoint ck = checkpointOf(*session, {});
    std::unique_ptr<SessionData> data = makeSessionData(s, nullptr);
    QString error;
    std::unique_ptr<TrainingSession> resumed = resumeSession(std::move(data), ck, s.plan(), &error);
    QVERIFY2(resumed, qPrintable(error));
    QCOMPARE(resumed->tokensPerSecond(1e9), 0.0);
}

void TestRun::remainingSecondsFollowsThePlan()
{
    SessionSettings s = toySettings(10);
    std::unique_ptr<TrainingSession> session = toySession(&s);
    QCOMPARE(session->remainingSeconds(), -1.0);  // no step, no planned time: unknown
    for (int i = 0; i < 4; ++i)
        session->step();
    // Training time per step so far, times the steps left.
    QCOMPARE(session->remainingSeconds(), session->trainSeconds() / 4.0 * 6.0);
    while (!session->finished())
        session->step();
    QCOMPARE(session->remainingSeconds(), 0.0);

    // Planned time only (the command line's --minutes without --steps): the time left.
    SessionPlan timed = s.plan();
    timed.steps = 0;
    timed.seconds = 1e6;
    session->setPlan(timed);
    const double left = session->remainingSeconds();
    QCOMPARE(left, 1e6 - session->elapsedSeconds());
    // Both: whichever ends first.
    timed.steps = 20;
    session->setPlan(timed);
    QCOMPARE(session->remainingSeconds(), session->trainSeconds() / 10.0 * 10.0);
    timed.seconds = session->elapsedSeconds();  // the time is up
    session->setPlan(timed);
    QVERIFY(session->finished());
    QCOMPARE(session->remainingSeconds(), 0.0);
}

void TestRun::sessionRecordRoundTrips()
{
    SessionSettings s = toySettings(1234);
    s.plannedMinutes = 2.5;
    s.evalEvery = 7;
    s.averagePoints = 3;
    s.probe = 2;
    const TokenPair probe{{u"a"_s, u"b"_s}, {u"c"_s}};
    const QJsonObject record = sessionRecord(s, probe);
    QCOMPARE(record.value("planned_steps").toDouble(), 1234.0);
    QCOMPARE(record.value("planned_minutes").toDouble(), 2.5);

    SessionSettings trained = toySettings(5);
    trained.train.warmup = 77;
    std::unique_ptr<TrainingSession> session = toySession(&trained);
    session->step();
    Checkpoint ck = checkpointOf(*session, record);
    SessionSettings read = SessionSettings::defaultsFor(u"toy"_s);
    TokenPair readProbe;
    readSessionRecord(ck, &read, &readProbe);
    QCOMPARE(read.plannedSteps, 1234L);
    QCOMPARE(read.plannedMinutes, 2.5);
    QCOMPARE(read.evalEvery, 7);
    QCOMPARE(read.averagePoints, 3);
    QCOMPARE(read.probe, 2);
    QCOMPARE(readProbe.src, probe.src);
    QCOMPARE(readProbe.tgt, probe.tgt);
    // The model and the training options are the checkpoint's own.
    QVERIFY(read.model == trained.model);
    QCOMPARE(read.train.warmup, 77L);
}

void TestRun::readSessionRecordKeepsDefaultsForMissingKeys()
{
    SessionSettings trained = toySettings(5);
    std::unique_ptr<TrainingSession> session = toySession(&trained);
    for (int i = 0; i < 3; ++i)
        session->step();
    Checkpoint ck = checkpointOf(*session, {});
    SessionSettings read = toySettings(99);
    read.evalEvery = 11;
    read.averagePoints = 4;
    TokenPair probe;
    readSessionRecord(ck, &read, &probe);
    QCOMPARE(read.plannedSteps, 3L);  // no plan recorded: the step it was saved at
    QCOMPARE(read.plannedMinutes, 0.0);
    QCOMPARE(read.evalEvery, 11);
    QCOMPARE(read.averagePoints, 4);
    QVERIFY(probe.src.isEmpty());
    // Out-of-range values are brought back into range.
    ck.run.session = QJsonObject{{"average", 500}, {"eval_every", -3}, {"planned_minutes", -1}};
    readSessionRecord(ck, &read, &probe);
    QCOMPARE(read.averagePoints, 20);
    QCOMPARE(read.evalEvery, 0);
    QCOMPARE(read.plannedMinutes, 0.0);
    // Planned in minutes alone (plannedLimits): no step limit, read back as none.
    ck.run.session = QJsonObject{{"planned_steps", 0}, {"planned_minutes", 3}};
    readSessionRecord(ck, &read, &probe);
    QCOMPARE(read.plannedSteps, 0L);
    QCOMPARE(read.plannedMinutes, 3.0);
    QCOMPARE(read.plan().steps, 0L);
    // Neither: a step limit still (the step it was saved at at least 1).
    ck.run.session = QJsonObject{{"planned_steps", 0}, {"planned_minutes", 0}};
    readSessionRecord(ck, &read, &probe);
    QCOMPARE(read.plannedSteps, 1L);
}

void TestRun::savedTaskSettingsNamesWhatIsWrong()
{
    SessionSettings trained = toySettings(5);
    trained.batchSize = 16;
    std::unique_ptr<TrainingSession> session = toySession(&trained);
    Checkpoint ck = checkpointOf(*session, sessionRecord(trained));
    QCOMPARE(savedRunKind(ck), SavedRunKind::Task);
    SessionSettings s;
    TokenPair probe;
    QString error;
    QVERIFY2(savedTaskSettings(ck, &s, &probe, &error), qPrintable(error));
    QCOMPARE(s.task, u"toy"_s);
    QCOMPARE(s.batchSize, 16);
    QCOMPARE(s.plannedSteps, 5L);

    ck.run.data.insert("task", u"toys"_s);
    QVERIFY(!savedTaskSettings(ck, &s, &probe, &error));
    QVERIFY2(error.contains(u"'toys'"_s), qPrintable(error));
    ck.run.data.insert("task", u"toy"_s);
    ck.run.data.insert("batch_size", 0);
    QVERIFY(!savedTaskSettings(ck, &s, &probe, &error));
    QVERIFY2(error.contains(u"batch_size 0"_s), qPrintable(error));

    ck.run.data.insert("kind", u"corpus"_s);
    QCOMPARE(savedRunKind(ck), SavedRunKind::Corpus);
    ck.run.data.insert("kind", u"model"_s);
    QCOMPARE(savedRunKind(ck), SavedRunKind::Inspection);
}

void TestRun::checkSavedRunDataAcceptsTheRunsDataOnly()
{
    SessionSettings trained = toySettings(5);
    std::unique_ptr<TrainingSession> session = toySession(&trained);
    session->step();
    Checkpoint ck = checkpointOf(*session, {});
    std::unique_ptr<SessionData> same = makeSessionData(trained, nullptr);
    QCOMPARE(checkSavedRunData(*same, ck), QString());

    SessionSettings other = trained;
    other.task = u"reverse"_s;
    std::unique_ptr<SessionData> reverse = makeSessionData(other, nullptr);
    QVERIFY(reverse);
    if (reverse->srcVocab().tokens() != same->srcVocab().tokens()
        || reverse->tgtVocab().tokens() != same->tgtVocab().tokens()) {
        const QString why = checkSavedRunData(*reverse, ck);
        QVERIFY2(why.contains(u"built-in task 'toy'"_s), qPrintable(why));
    }
    // A recorded digest of other pairs: the same vocabularies, another corpus.
    ck.run.data.insert("pairs_sha1", u"0123"_s);
    QVERIFY(!checkSavedRunData(*same, ck).isEmpty());
    // A corpus run: the corpus check (vocabularies, pairs, digest).
    ck.run.data.insert("kind", u"corpus"_s);
    const QString why = checkSavedRunData(*same, ck);
    QVERIFY2(why.contains(u"corpus file changed"_s), qPrintable(why));
}

void TestRun::resumeSessionContinuesTheSavedRun()
{
    SessionSettings s = toySettings(12);
    std::unique_ptr<TrainingSession> straight = toySession(&s);
    while (!straight->finished())
        straight->step();

    std::unique_ptr<TrainingSession> first = toySession(&s);
    for (int i = 0; i < 5; ++i)
        first->step();
    Checkpoint ck = checkpointOf(*first, sessionRecord(s));
    first.reset();
    SessionSettings again;
    TokenPair probe;
    QString error;
    QVERIFY2(savedTaskSettings(ck, &again, &probe, &error), qPrintable(error));
    std::unique_ptr<SessionData> data = makeSessionData(again, &error);
    QVERIFY2(data, qPrintable(error));
    QCOMPARE(checkSavedRunData(*data, ck), QString());
    std::unique_ptr<TrainingSession> resumed = resumeSession(std::move(data), ck, again.plan(), &error);
    QVERIFY2(resumed, qPrintable(error));
    QCOMPARE(resumed->stepCount(), 5L);
    QCOMPARE(resumed->history().loss.size(), std::size_t(5));
    while (!resumed->finished())
        resumed->step();
    QCOMPARE(resumed->stepCount(), 12L);
    QVERIFY(resumed->model().params().valueVector() == straight->model().params().valueVector());
}

void TestRun::settingsSpecRefusesNonFiniteValues()
{
    SessionSettings s = toySettings(5);
    QString error;
    QVERIFY2(applySettingsSpec(u"norm=post,warmup=3,factor=2,clip_norm=1.5"_s, &s, &error),
             qPrintable(error));
    QCOMPARE(s.model.norm, NormPlacement::Post);
    QCOMPARE(s.train.warmup, 3L);
    QCOMPARE(s.train.factor, 2.0);
    QCOMPARE(s.train.clipNorm, 1.5);
    for (const QString& bad : {u"clip_norm=nan"_s, u"clip_norm=inf"_s, u"factor=inf"_s,
                               u"factor=nan"_s, u"warmup=1.5"_s, u"factor=0"_s}) {
        const SessionSettings before = s;
        error.clear();
        QVERIFY2(!applySettingsSpec(bad, &s, &error), qPrintable(bad));
        QVERIFY2(error.contains(bad.section(u'=', 0, 0)), qPrintable(error));
        QCOMPARE(s.train.clipNorm, before.train.clipNorm);
        QCOMPARE(s.train.factor, before.train.factor);
    }
}

void TestRun::comparisonKeepsAsDataAndPlan()
{
    SessionSettings a = toySettings(300);
    a.train.seed = 9;
    a.batchSize = 12;
    a.plannedMinutes = 3;
    SessionSettings b = toySettings(50);
    b.task = u"copy"_s;
    b.train.seed = 1;
    b.train.warmup = 1;
    b.model.norm = NormPlacement::Post;
    const SessionSettings c = comparisonOf(a, b);
    QCOMPARE(c.task, a.task);
    QCOMPARE(c.train.seed, std::uint64_t(9));
    QCOMPARE(c.batchSize, 12);
    QCOMPARE(c.plannedSteps, 300L);
    QCOMPARE(c.plannedMinutes, 3.0);
    QCOMPARE(c.train.warmup, 1L);  // B's own
    QCOMPARE(c.model.norm, NormPlacement::Post);
    QCOMPARE(settingsDifferences(a, c), u"post-norm, warm-up 1"_s);
    QCOMPARE(settingsDifferences(a, a), u"the same settings"_s);
}

AS_TEST_GUILESS_MAIN(TestRun)
#include "test_run.moc"
