// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// TrainingSession (train/session.h), the one training loop of the command line and the window,
// checked against independent computations: a plain Trainer loop on the same batches, a
// straight run against a checkpointed-and-resumed one, the mean of the weights recorded by
// hand at the averaging points, a fault injected into a gradient, the validation cadence, and
// the run summary against evaluateLoss and corpusBleu of the final weights worked in the test.
#include "skip.h"
#include "decode/decode.h"
#include "eval/bleu.h"
#include "io/checkpoint.h"
#include "io/model_file.h"
#include "text/bundled_corpus.h"
#include "train/recipe.h"
#include "run/make_session.h"
#include "run/resume.h"
#include "train/session.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <limits>

using namespace as;
using namespace Qt::StringLiterals;

namespace {

ModelConfig tinyConfig(int srcVocab, int tgtVocab)
{
    ModelConfig c;
    c.d_model = 16;
    c.heads = 2;
    c.d_ff = 32;
    c.encoder_layers = c.decoder_layers = 1;
    c.dropout = 0.1;  // so that the dropout generator's state matters
    c.max_len = 32;
    c.src_vocab = srcVocab;
    c.tgt_vocab = tgtVocab;
    return c;
}

// 200 pairs over a 10-word vocabulary; the target reverses the source.
QList<SentencePair> reversedWords(int count, std::uint64_t seed)
{
    QList<SentencePair> pairs;
    std::uint64_t x = seed;
    for (int i = 0; i < count; ++i) {
        QStringList words;
        for (int k = 0; k < 2 + i % 4; ++k) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            words << u"w%1"_s.arg(int(x >> 60) % 10);
        }
        pairs.append({words.join(' '), QStringList(words.rbegin(), words.rend()).join(' '), i + 1});
    }
    return pairs;
}

// withValidation false: the same training data without a validation split.
std::unique_ptr<SessionData> corpusData(quint64 seed, bool withValidation = true)
{
    const QList<SentencePair> train = reversedWords(200, 7),
                              valid = withValidation ? reversedWords(20, 99) : QList<SentencePair>{};
    ParallelData data = ParallelData::build(train);
    EncodedSplit v = data.encode(valid);
    DataOptions o;
    o.batchTokens = 40;  // about 30 batches an epoch: a 50-step run crosses epochs
    o.seed = seed;
    return makeCorpusData(std::move(data), train, std::move(v.pairs), valid, {}, {}, o,
                          QJsonObject{{"kind", "corpus"}}, u"corpus"_s);
}

std::unique_ptr<TrainingSession> corpusSession(const SessionPlan& plan, quint64 seed = 5,
                                               bool withValidation = true)
{
    std::unique_ptr<SessionData> data = corpusData(seed, withValidation);
    TrainOptions t;
    t.seed = seed;
    t.warmup = 20;
    auto trainer = std::make_unique<Trainer>(
        tinyConfig(data->srcVocab().size(), data->tgtVocab().size()), t);
    return std::make_unique<TrainingSession>(std::move(data), std::move(trainer), plan);
}

bool sameBits(const Eigen::VectorXf& a, const Eigen::VectorXf& b)
{
    return a.size() == b.size()
           && std::memcmp(a.data(), b.data(), std::size_t(a.size()) * sizeof(float)) == 0;
}

}  // namespace

class TestSession : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { setEngineThreads(1); }
    void taskSessionEqualsPlainTrainerLoop();
    void resumedEqualsStraight_data();
    void resumedEqualsStraight();
    void averagingIsTheMeanOfTheRecordedWeights();
    void nonFiniteStepChangesAndRecordsNothing();
    void validationCadence();
    void summaryIsThatOfTheFinalWeights();
    void attentionHistoryThinning();
    void thinnedHistoryCoversTheRun_data();
    void thinnedHistoryCoversTheRun();
    void bundledTaskData();
    void unknownTask();
    void decoderOnlyBesideATranslatorReadsItsTargets();
};

// The session adds nothing to a step: with validations and attention records in between, the
// weights and Adam's moments are those of a bare Trainer fed the task's batches in order.
void TestSession::taskSessionEqualsPlainTrainerLoop()
{
    const TaskRecipe r = recipeFor(u"copy"_s);
    DataOptions o;
    o.batchSize = 8;
    o.seed = 11;
    QString error;
    std::unique_ptr<SessionData> data = makeTaskData(u"copy"_s, o, &error);
    QVERIFY2(data, qPrintable(error));
    ModelConfig c = r.model;
    c.src_vocab = data->srcVocab().size();
    c.tgt_vocab = data->tgtVocab().size();
    TrainOptions t = r.train;
    t.seed = 11;
    SessionPlan plan;
    plan.steps = 30;
    plan.validEvery = 5;
    TrainingSession s(std::move(data), std::make_unique<Trainer>(c, t), plan);
    const TokenPair probe = s.data().examples().front();
    int validations = 0;
    while (!s.finished()) {
        const SessionStep st = s.step();
        QVERIFY(st.stats.applied);
        if (st.validationDue) {
            s.validate();
            ++validations;
        }
        s.recordAttention(probe);
    }
    QCOMPARE(validations, 6);
    QCOMPARE(s.stepCount(), 30L);
    QCOMPARE(long(s.history().loss.size()), 30L);

    // The same run by hand: the copy task's batches from its generator, seeded as the
    // command line and the window always have (seed × golden ratio + 7).
    Task task = makeBuiltinTask(u"copy"_s, 8);
    Rng rng(11 * 0x9e3779b97f4a7c15ULL + 7);
    Trainer plain(c, t);
    for (int i = 0; i < 30; ++i) {
        const StepStats st = plain.step(task.nextBatch(rng));
        QCOMPARE(st.loss.loss(), s.history().loss[std::size_t(i)].loss);
    }
    QVERIFY(sameBits(plain.model().params().valueVector(), s.model().params().valueVector()));
    QVERIFY(sameBits(plain.adam().firstMoment(), s.trainer().adam().firstMoment()));
    QVERIFY(sameBits(plain.adam().secondMoment(), s.trainer().adam().secondMoment()));
}

void TestSession::resumedEqualsStraight_data()
{
    QTest::addColumn<int>("averagePoints");
    QTest::addColumn<int>("stopAt");
    QTest::newRow("no averaging") << 1 << 23;
    QTest::newRow("averaging 3 (after the resume point)") << 3 << 23;
    // Snapshots at 90 % (step 45) and 95 % (step 48): one taken before the stop, one after.
    QTest::newRow("averaging 3, stopped between its points") << 3 << 46;
    // At 80 % (40) and 85 % (43) before the stop; 90 % and 95 % after.
    QTest::newRow("averaging 5, stopped inside its window") << 5 << 44;
}

// `stopAt` steps, a checkpoint (bytes, read back), a new session resuming to 50: the same
// weights, Adam state, averaging and history as 50 steps straight, across epoch boundaries.
void TestSession::resumedEqualsStraight()
{
    QFETCH(int, averagePoints);
    QFETCH(int, stopAt);
    SessionPlan plan;
    plan.steps = 50;
    plan.validEvery = 10;
    plan.averagePoints = averagePoints;
    std::unique_ptr<TrainingSession> straight = corpusSession(plan);
    while (!straight->finished())
        if (straight->step().validationDue)
            straight->validate();
    QVERIFY(straight->epoch() >= 1);

    std::unique_ptr<TrainingSession> first = corpusSession(plan);
    for (int i = 0; i < stopAt; ++i)
        if (first->step().validationDue)
            first->validate();
    const int takenAtStop = first->averagedPoints() > 0 ? first->averagedPoints() - 1 : 0;
    const double busyAtStop = first->elapsedSeconds();
    QString error;
    // The plan as a driver records it (core/run/resume's sessionRecord): resumed with the same
    // plan, the averaging goes on.
    SessionSettings recorded;
    recorded.plannedSteps = plan.steps;
    recorded.averagePoints = plan.averagePoints;
    const CheckpointRun run = first->checkpointRun(sessionRecord(recorded));
    std::optional<QByteArray> bytes = serializeCheckpoint(
        first->trainer(), first->data().srcVocab(), first->data().tgtVocab(),
        first->data().srcTokenizer(), first->data().tgtTokenizer(), run, first->history(), &error);
    QVERIFY2(bytes, qPrintable(error));
    first.reset();
    std::optional<Checkpoint> ck = loadCheckpointFromBytes(*bytes, &error);
    QVERIFY2(ck, qPrintable(error));
    std::unique_ptr<TrainingSession> resumed =
        resumeSession(corpusData(5), *ck, plan, &error);
    QVERIFY2(resumed, qPrintable(error));
    QCOMPARE(resumed->stepCount(), long(stopAt));
    // The busy time goes on from the stop (the clock of a planned time).
    QCOMPARE(resumed->elapsedSeconds(), busyAtStop);
    QCOMPARE(resumed->averagedPoints(), takenAtStop > 0 ? takenAtStop + 1 : 0);
    while (!resumed->finished())
        if (resumed->step().validationDue)
            resumed->validate();

    QVERIFY(sameBits(straight->model().params().valueVector(), resumed->model().params().valueVector()));
    QVERIFY(sameBits(straight->trainer().adam().secondMoment(), resumed->trainer().adam().secondMoment()));
    QVERIFY(sameBits(straight->finalWeights(), resumed->finalWeights()));
    QCOMPARE(resumed->averagedPoints(), straight->averagedPoints());
    QCOMPARE(resumed->history().loss.size(), straight->history().loss.size());
    for (std::size_t i = 0; i < straight->history().loss.size(); ++i)
        QCOMPARE(resumed->history().loss[i].loss, straight->history().loss[i].loss);
    QCOMPARE(resumed->history().eval.size(), std::size_t(5));
    QCOMPARE(resumed->history().eval.back().loss, straight->history().eval.back().loss);

    // The control for a stop inside the averaging window: without the averaging state (as a
    // checkpoint from before it was recorded) the weights trained are the same, but the
    // average handed out is not the straight run's.
    if (takenAtStop > 0) {
        ck = loadCheckpointFromBytes(*bytes, &error);
        QVERIFY(ck);
        QCOMPARE(ck->run.averageTaken, takenAtStop);
        ck->run.averageKnown = false;
        QString note;
        std::unique_ptr<TrainingSession> fresh = resumeSession(corpusData(5), *ck, plan, &error, &note);
        QVERIFY2(fresh, qPrintable(error));
        QVERIFY2(note.contains(u"averaging starts afresh"_s), qPrintable(note));
        while (!fresh->finished())
            if (fresh->step().validationDue)
                fresh->validate();
        QVERIFY(sameBits(straight->model().params().valueVector(), fresh->model().params().valueVector()));
        QVERIFY(!sameBits(straight->finalWeights(), fresh->finalWeights()));
    }

    // The control: a position that is off by one batch gives other weights.
    ck = loadCheckpointFromBytes(*bytes, &error);
    QVERIFY(ck);
    ck->run.position = ck->run.position > 0 ? ck->run.position - 1 : 1;
    std::unique_ptr<TrainingSession> shifted = resumeSession(corpusData(5), *ck, plan, &error);
    QVERIFY2(shifted, qPrintable(error));
    while (!shifted->finished())
        shifted->step();
    QVERIFY(!sameBits(straight->model().params().valueVector(), shifted->model().params().valueVector()));
}

// Points 5 % apart ending at the last step: with 3 points over 20 steps, the weights after steps
// 18 (90 %), 19 (95 %) and 20, recorded here by hand from a plain trainer on the same batches.
void TestSession::averagingIsTheMeanOfTheRecordedWeights()
{
    SessionPlan plan;
    plan.steps = 20;
    plan.averagePoints = 3;
    std::unique_ptr<TrainingSession> s = corpusSession(plan);
    while (!s->finished())
        s->step();
    QCOMPARE(s->averagedPoints(), 3);

    std::unique_ptr<SessionData> data = corpusData(5);
    TrainOptions t;
    t.seed = 5;
    t.warmup = 20;
    Trainer plain(tinyConfig(data->srcVocab().size(), data->tgtVocab().size()), t);
    Eigen::VectorXd sum = Eigen::VectorXd::Zero(plain.model().params().size());
    for (int step = 1; step <= 20; ++step) {
        plain.step(data->next());
        if (step >= 18)
            sum += plain.model().params().valueVector().cast<double>();
    }
    const Eigen::VectorXf mean = (sum / 3.0).cast<float>();
    QVERIFY(sameBits(s->finalWeights(), mean));
    // Training itself goes on from the last weights, not the mean.
    QVERIFY(sameBits(s->model().params().valueVector(), plain.model().params().valueVector()));
    QVERIFY(!sameBits(mean, plain.model().params().valueVector()));

    // The model file holds the mean.
    QTemporaryDir dir;
    QString error;
    const QString path = dir.filePath(u"m.safetensors"_s);
    QVERIFY2(s->saveModel(path, &error), qPrintable(error));
    std::optional<ModelBundle> saved = loadModel(path, &error);
    QVERIFY2(saved, qPrintable(error));
    QVERIFY(sameBits(saved->model->params().valueVector(), mean));

    // Without averaging, the last weights.
    plan.averagePoints = 1;
    std::unique_ptr<TrainingSession> plainRun = corpusSession(plan);
    while (!plainRun->finished())
        plainRun->step();
    QCOMPARE(plainRun->averagedPoints(), 0);
    QVERIFY(sameBits(plainRun->finalWeights(), plain.model().params().valueVector()));
}

void TestSession::nonFiniteStepChangesAndRecordsNothing()
{
    SessionPlan plan;
    plan.steps = 10;
    plan.validEvery = 1;
    std::unique_ptr<TrainingSession> s = corpusSession(plan);
    for (int i = 0; i < 3; ++i)
        QVERIFY(s->step().stats.applied);
    const Eigen::VectorXf before = s->model().params().valueVector();
    s->trainer().afterBackward = [](ParamStore<float>& p) {
        p.grads()[7] = std::numeric_limits<float>::quiet_NaN();
    };
    const SessionStep st = s->step();
    QVERIFY(!st.stats.applied);
    QVERIFY(!st.validationDue);
    QVERIFY2(st.stats.fault.contains(u"step 4"_s), qPrintable(st.stats.fault));
    QCOMPARE(s->stepCount(), 3L);
    QCOMPARE(s->history().loss.size(), std::size_t(3));
    QVERIFY(sameBits(before, s->model().params().valueVector()));
    s->trainer().afterBackward = nullptr;
    QVERIFY(s->step().stats.applied);
    QCOMPARE(s->history().loss.back().step, 4L);
}

void TestSession::validationCadence()
{
    SessionPlan plan;
    plan.steps = 12;
    plan.validEvery = 4;
    std::unique_ptr<TrainingSession> s = corpusSession(plan);
    QList<long> due;
    while (!s->finished())
        if (s->step().validationDue)
            due << s->stepCount();
    QCOMPARE(due, (QList<long>{4, 8, 12}));
    QVERIFY(s->history().eval.empty());  // due, but the caller did not validate
    const EvalPoint p = s->validate().point;
    QCOMPARE(p.step, 12L);
    QVERIFY(p.loss > 0 && p.accuracy >= 0 && p.accuracy <= 1);
    QCOMPARE(s->history().eval.size(), std::size_t(1));

    // No validation pairs: never due, though the cadence asks at every step; the same run with
    // them is due at every step.
    SessionPlan every;
    every.steps = 6;
    every.validEvery = 1;
    std::unique_ptr<TrainingSession> without = corpusSession(every, 5, false), with = corpusSession(every);
    QVERIFY(without->data().trainable());
    QVERIFY(without->data().validation().empty());
    QCOMPARE(int(with->data().validation().size()), 20);
    int steps = 0, dueWithout = 0, dueWith = 0;
    while (!without->finished()) {
        const SessionStep st = without->step();
        QVERIFY(st.stats.applied);
        ++steps;
        dueWithout += st.validationDue ? 1 : 0;
        dueWith += with->step().validationDue ? 1 : 0;
    }
    QCOMPARE(steps, 6);
    QCOMPARE(dueWithout, 0);
    QCOMPARE(dueWith, 6);
    // Asked anyway: loss and accuracy 0 (train/session.h).
    const EvalPoint none = without->validate().point;
    QCOMPARE(none.loss, 0.0);
    QCOMPARE(none.accuracy, 0.0);

    // A model opened to look inside has no validation pairs either, and nothing to train.
    std::unique_ptr<SessionData> inspect = makeInspectionData(u"m"_s, Vocab(), Vocab(),
                                                              TokenizerKind::Word, TokenizerKind::Word);
    QVERIFY(!inspect->trainable());
    QVERIFY(inspect->validation().empty());
}

// summarize() (summary.json's figures) against the final weights evaluated here: the loss and
// accuracy of evaluateLoss over the validation pairs, the BLEU of corpusBleu over greedyDecode's
// translations of the validation text, the train loss the mean of the last 50 steps' losses.
// With averaging on, so that the final weights are not the current ones.
void TestSession::summaryIsThatOfTheFinalWeights()
{
    SessionPlan plan;
    plan.steps = 1000;
    plan.averagePoints = 5;
    std::unique_ptr<TrainingSession> s = corpusSession(plan);
    while (!s->finished())
        s->step();
    QCOMPARE(s->averagedPoints(), 5);
    const Eigen::VectorXf final = s->finalWeights();
    QVERIFY(!sameBits(final, s->model().params().valueVector()));
    const RunSummary r = s->summarize();

    std::unique_ptr<Transformer<float>> m = s->model().clone();
    m->params().valueVector() = final;
    const LossStats loss = evaluateLoss(*m, s->data().validation());
    QStringList hyps, refs;
    for (const SentencePair& p : s->data().validationText()) {
        const DecodeResult d = greedyDecode(*m, s->data().codec().encodeSource(p.src).ids, DecodeOptions{});
        hyps << s->data().codec().decodeTarget(d.nbest.front().tokens);
        refs << p.tgt;
    }
    QCOMPARE(int(hyps.size()), 20);
    const double bleu = corpusBleu(hyps, refs).score;
    double train = 0;
    for (std::size_t i = 950; i < 1000; ++i)
        train += s->history().loss[i].loss / 50.0;

    qInfo("final weights: validation loss %.4f, accuracy %.4f, BLEU %.2f; train loss %.4f", loss.loss(),
          loss.accuracy(), bleu, train);
    QCOMPARE(r.steps, 1000L);
    QVERIFY2(std::abs(r.validLoss - loss.loss()) < 1e-12,
             qPrintable(u"valid loss %1, of the final weights %2"_s.arg(r.validLoss, 0, 'g', 17).arg(loss.loss(), 0, 'g', 17)));
    QVERIFY2(std::abs(r.validAccuracy - loss.accuracy()) < 1e-12,
             qPrintable(u"valid accuracy %1, of the final weights %2"_s.arg(r.validAccuracy).arg(loss.accuracy())));
    QVERIFY2(std::abs(r.validBleu - bleu) < 1e-9,
             qPrintable(u"valid BLEU %1, of the final weights %2"_s.arg(r.validBleu).arg(bleu)));
    QVERIFY2(std::abs(r.trainLoss - train) < 1e-9, qPrintable(u"train loss %1 vs %2"_s.arg(r.trainLoss).arg(train)));
    // The run learnt something, so that BLEU tells weights apart: above 0, some 4-grams match.
    // BLEU on 20 sentences after 1,000 steps of `tiny` swings with the CPU's rounding: 11.7
    // with AVX-512, 5.2 with AVX2 and 4.2 with AVX2 under ASan, while the validation loss was
    // 1.20, 1.11 and 1.01 (earlier machines gave BLEU 20.45). The loss says it learnt: a
    // uniform guess over the 14 target tokens is ln 14 = 2.64, the words' frequencies about 2.3.
    QVERIFY2(bleu > 1, qPrintable(QString::number(bleu)));
    QVERIFY2(loss.loss() < 2.0, qPrintable(QString::number(loss.loss())));
    // The current weights score otherwise (else the check above could not tell them apart).
    const LossStats current = evaluateLoss(s->model(), s->data().validation());
    QVERIFY(current.loss() != loss.loss());
    // Training can go on: the session's weights are untouched.
    QVERIFY(!sameBits(final, s->model().params().valueVector()));
}

// The one thinning policy of attention records, worked by hand at capacity 4.
void TestSession::attentionHistoryThinning()
{
    std::vector<std::shared_ptr<const AttentionRecord>> h;
    auto rec = [](long step) {
        auto r = std::make_shared<AttentionRecord>();
        r->step = step;
        return std::shared_ptr<const AttentionRecord>(r);
    };
    auto steps = [&] {
        QList<long> s;
        for (const auto& r : h)
            s << r->step;
        return s;
    };
    for (long step = 1; step <= 4; ++step)
        appendAttentionRecord(h, rec(step), 4);
    QCOMPARE(steps(), (QList<long>{1, 2, 3, 4}));
    appendAttentionRecord(h, rec(5), 4);  // full: keep 1 and 3, then 5
    QCOMPARE(steps(), (QList<long>{1, 3, 5}));
    const auto five = rec(5);
    appendAttentionRecord(h, five, 4);  // the same step: replaces
    QCOMPARE(steps(), (QList<long>{1, 3, 5}));
    QCOMPARE(h.back(), five);
    appendAttentionRecord(h, five, 4);  // the same record: nothing
    QCOMPARE(h.size(), std::size_t(3));
    appendAttentionRecord(h, rec(2), 4);  // an earlier step: a new run
    QCOMPARE(steps(), (QList<long>{2}));
}

void TestSession::thinnedHistoryCoversTheRun_data()
{
    QTest::addColumn<int>("count");
    QTest::addColumn<int>("capacity");
    QTest::addColumn<int>("pattern");  // 0: every step; 1: every 10; 2: irregular; 3: big first gap
    // The gaps compared: from the record with this index on (after a big first gap the next
    // kept record can be near it, the end of one bucket and the start of the next).
    QTest::addColumn<int>("fromRecord");
    // Compared once this many records are appended (before the stride is well above irregular
    // steps' gaps, they are the steps' own gaps: kept one by one).
    QTest::addColumn<int>("fromAppend");
    QTest::newRow("300 at 42") << 300 << 42 << 0 << 1 << 0;
    QTest::newRow("10000 at 500") << 10000 << 500 << 0 << 1 << 0;
    QTest::newRow("100 at 4") << 100 << 4 << 0 << 1 << 0;
    QTest::newRow("1000 at 2") << 1000 << 2 << 0 << 1 << 0;
    QTest::newRow("2000 at 300, every 10") << 2000 << 300 << 1 << 1 << 0;
    QTest::newRow("3000 at 100, irregular") << 3000 << 100 << 2 << 1 << 200;
    QTest::newRow("5000 at 500, irregular") << 5000 << 500 << 2 << 1 << 1000;
    QTest::newRow("2000 at 100, big first gap") << 2000 << 100 << 3 << 3 << 0;
}

// After many appends the kept records still cover the whole run at (nearly) even spacing:
// the first and the newest are kept, at most `capacity`, and the gaps between kept steps (the
// live end's excepted) within a factor of 2 of each other — at every append, not only the last.
void TestSession::thinnedHistoryCoversTheRun()
{
    QFETCH(int, count);
    QFETCH(int, capacity);
    QFETCH(int, pattern);
    QFETCH(int, fromRecord);
    QFETCH(int, fromAppend);
    std::vector<std::shared_ptr<const AttentionRecord>> h;
    std::uint32_t seed = 12345;
    auto nextGap = [&]() -> long {
        seed = seed * 1664525u + 1013904223u;
        return 1 + long((seed >> 16) % 3);  // 1, 2 or 3 steps
    };
    long step = 0;
    for (int i = 0; i < count; ++i) {
        if (i > 0)
            step += pattern == 0 ? 1 : pattern == 1 ? 10 : pattern == 2 ? nextGap() : i == 1 ? 1000 : 10;
        auto r = std::make_shared<AttentionRecord>();
        r->step = step;
        const std::shared_ptr<const AttentionRecord> record = r;
        appendAttentionRecord(h, record, capacity);
        QVERIFY(int(h.size()) <= capacity);
        QCOMPARE(h.front()->step, 0L);
        QCOMPARE(h.back(), record);
        for (std::size_t k = 1; k < h.size(); ++k)
            QVERIFY(h[k - 1]->step < h[k]->step);
        if (i < fromAppend)
            continue;
        const std::size_t from = std::size_t(fromRecord);
        long least = std::numeric_limits<long>::max(), most = 0;
        for (std::size_t k = from; k + 1 < h.size(); ++k) {
            const long gap = h[k]->step - h[k - 1]->step;
            least = std::min(least, gap);
            most = std::max(most, gap);
        }
        if (most > 0 && most > 2 * least)
            QFAIL(qPrintable(u"append %1: gaps from %2 to %3 steps"_s.arg(i).arg(least).arg(most)));
    }
    // Thinned at all (a long run), and not thinned below half the capacity.
    if (count > capacity)
        QVERIFY(int(h.size()) < count);
    if (capacity >= 4)
        QVERIFY(int(h.size()) >= capacity / 4);
    if (pattern == 0 && count == 300 && capacity == 42) {
        // The case the old policy got wrong ([0, 200, 221, …]): step 150's neighbourhood kept.
        const auto at150 = std::find_if(h.begin(), h.end(), [](const auto& r) { return r->step >= 150; });
        QVERIFY(at150 != h.end());
        QVERIFY((*at150)->step - 150 <= 16);
        QVERIFY(h[1]->step <= 16);
    }
}

// zh-en: the bundled corpus as a task, with the corpus recipe.
void TestSession::bundledTaskData()
{
    QVERIFY(trainingTaskNames().contains(u"zh-en"_s));
    QVERIFY(isBundledCorpusTask(u"zh-en"_s));
    QVERIFY(!isBundledCorpusTask(u"toy"_s));
    DataOptions o;
    o.batchTokens = 1500;
    QString error;
    std::unique_ptr<SessionData> d = makeTaskData(u"zh-en"_s, o, &error);
    QVERIFY2(d, qPrintable(error));
    std::optional<BundledCorpus> corpus = loadBundledCorpus(u"zh-en"_s, &error);
    QVERIFY(corpus);
    QCOMPARE(d->validationText().size(), corpus->split.valid.size());
    // The training split as text (the Tokens view cuts it), kept by every restart of the data.
    const auto sameText = [&](const QList<SentencePair>& text) {
        return std::equal(text.begin(), text.end(), corpus->split.train.begin(), corpus->split.train.end(),
                          [](const SentencePair& a, const SentencePair& b) {
                              return a.src == b.src && a.tgt == b.tgt && a.line == b.line;
                          });
    };
    QVERIFY(sameText(d->trainingText()));
    QVERIFY(sameText(d->restart(o, {})->trainingText()));
    QCOMPARE(int(d->examples().size()), kSamplePairs);
    // The examples are validation pairs spread over the split: the k-th (0-based) is the pair at
    // (k + 1) / 9 of the way, cut into characters on the source side and words on the target's.
    const QList<SentencePair>& valid = corpus->split.valid;
    for (int k : {0, 7}) {
        const SentencePair& p = valid[valid.size() * (k + 1) / 9];
        QCOMPARE(d->examples()[std::size_t(k)].src, tokenize(TokenizerKind::CjkChar, p.src));
        QCOMPARE(d->examples()[std::size_t(k)].tgt, tokenize(TokenizerKind::Word, p.tgt));
    }
    QVERIFY(d->srcTokenizer() == TokenizerKind::CjkChar);
    QVERIFY(d->tgtTokenizer() == TokenizerKind::Word);
    QVERIFY(d->description().batchesPerEpoch > 100);
    const QJsonObject record = d->record();
    QCOMPARE(record.value("task").toString(), u"zh-en"_s);
    QCOMPARE(record.value("batch_tokens").toInt(), 1500);
    QCOMPARE(record.value("pairs_sha1").toString().size(), 40);
    const Batch b = d->next();
    QVERIFY(b.B > 0 && long(b.B) * std::max(b.S, b.T) <= 1500);
    const TaskRecipe r = recipeFor(u"zh-en"_s);
    QCOMPARE(r.model.d_model, 256);
    QCOMPARE(r.model.d_ff, 1024);
    QCOMPARE(r.model.encoder_layers, 2);
    QCOMPARE(r.model.decoder_layers, 2);
    QCOMPARE(r.model.dropout, 0.1);
    QCOMPARE(r.batchTokens, 1500);
    QCOMPARE(r.train.warmup, 800L);
    QCOMPARE(r.averagePoints, 5);
}

void TestSession::unknownTask()
{
    QString error;
    // Generated data has no training text.
    QVERIFY(makeTaskData(u"copy"_s, {}, &error)->trainingText().isEmpty());
    QVERIFY(!makeTaskData(u"nonsense"_s, {}, &error));
    QVERIFY2(error.contains(u"unknown task 'nonsense'"_s), qPrintable(error));
}

AS_TEST_GUILESS_MAIN(TestSession)
// A/B's decoder-only B beside a translator (makeSessionData, targetSideData): B draws A's
// batches in A's order with the sources dropped, validates on A's validation targets, and its
// validation NLL is that of each target <s> y </s> read alone, worked out here position by
// position from the model's log-probabilities (no batching, no loss code).
void TestSession::decoderOnlyBesideATranslatorReadsItsTargets()
{
    SessionSettings a = SessionSettings::defaultsFor(u"toy"_s);
    SessionSettings asked = a;
    QString error;
    QVERIFY2(applySettingsSpec(u"arch=decoder-only"_s, &asked, &error), qPrintable(error));
    SessionSettings b = comparisonOf(a, asked);
    QVERIFY(b.model.decoderOnly());
    QCOMPARE(b.model.encoder_layers, 0);
    QCOMPARE(b.task, a.task);
    QVERIFY(settingsDifferences(a, b).contains(u"decoder-only"_s));
    std::unique_ptr<SessionData> da = makeSessionData(a, &error), db = makeSessionData(b, &error);
    QVERIFY2(da && db, qPrintable(error));
    QVERIFY(db->description().languageModel);
    QCOMPARE(db->srcVocab().tokens(), da->tgtVocab().tokens());
    QCOMPARE(db->validation().size(), da->validation().size());
    for (std::size_t i = 0; i < da->validation().size(); ++i) {
        QVERIFY(db->validation()[i].src.empty());
        QCOMPARE(db->validation()[i].tgt, da->validation()[i].tgt);
    }
    for (int step = 0; step < 20; ++step) {
        const Batch x = da->next(), y = db->next();
        QCOMPARE(y.S, 0);
        QVERIFY(y.src.empty());
        QCOMPARE(y.B, x.B);
        QCOMPARE(y.T, x.T);
        QCOMPARE(y.tgtIn, x.tgtIn);
        QCOMPARE(y.tgtOut, x.tgtOut);
    }
    // B trains (the model takes no source) and validates per target token.
    std::unique_ptr<TrainingSession> session = makeSession(makeSessionData(b, &error), &b, &error);
    QVERIFY2(session, qPrintable(error));
    QCOMPARE(b.model.src_vocab, b.model.tgt_vocab);
    for (int i = 0; i < 30; ++i)
        session->step();
    const Validation v = session->validate();
    Transformer<float>& m = session->model();
    double nll = 0;
    long tokens = 0;
    for (const EncodedPair& p : session->data().validation()) {
        std::vector<int> in{kBos};
        in.insert(in.end(), p.tgt.begin(), p.tgt.end());
        std::vector<int> out(p.tgt.begin(), p.tgt.end());
        out.push_back(kEos);
        m.decode(in.data(), 1, int(in.size()), Mat<float>(), nullptr, 0, Pass::eval());
        Mat<float> logp;
        m.allLogProbs(logp);
        for (std::size_t t = 0; t < out.size(); ++t)
            nll -= double(logp(Eigen::Index(t), out[t]));
        tokens += long(out.size());
    }
    QVERIFY2(std::abs(v.point.nll - nll / double(tokens)) < 1e-5,
             qPrintable(u"%1 vs %2"_s.arg(v.point.nll).arg(nll / double(tokens))));
}

#include "test_session.moc"
