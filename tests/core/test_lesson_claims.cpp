// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The bundled lessons' claims (resources/lessons): what each one tells the student happens,
// checked by numbers on the run it describes (A and B trained here as the window's A/B trains
// them: B's settings over A's data). Training runs, so apart from test_lesson (the files
// themselves) and left out of CI's sanitizer pass like test_lesson_runs.
#include "skip.h"
#include "run/lesson.h"
#include "run/make_session.h"
#include "model/parallel.h"
#include "eval/decoding_record.h"
#include "eval/induction.h"
#include "model/bf16.h"
#include "model/gemm.h"
#include "text/lm_tasks.h"
#include "text/tokenizer.h"

#include <QFile>
#include <QTest>

using namespace as;

class TestLessonClaims : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { setEngineThreads(1); }
    void threeSentencesAreLearned();
    void withoutWarmUpPostNormStalls();
    void postNormStallsAtAHighRate();
    void decodingLoopPartsEarlyAndAgreesLate();
    void gptClosesItsBrackets();
    void inductionHeadsForm();
    void bfloat16LearnsAsFloat32Does();

private:
    static Lesson bundled(const QString& name);
    // Trains `s` to its planned steps: the validation loss there, and the mean training loss
    // over steps 100-200 and 300-400.
    struct Run {
        double valid = 0, early = 0, late = 0, first = 0;  // first: step 1's loss
        // Each tensor's update ratio ‖Δw‖/‖w‖, the mean of steps 301-400 (health recorded).
        std::vector<double> lateRatios;
    };
    static Run train(SessionSettings s);
};

Lesson TestLessonClaims::bundled(const QString& name)
{
    QFile f(QStringLiteral(":/lessons/") + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("%s is not bundled", qPrintable(name));
    QString error;
    std::optional<Lesson> l = parseLesson(f.readAll(), &error);
    if (!l)
        qFatal("%s: %s", qPrintable(name), qPrintable(error));
    return *l;
}

TestLessonClaims::Run TestLessonClaims::train(SessionSettings s)
{
    QString error;
    std::unique_ptr<TrainingSession> session = makeSession(makeSessionData(s, &error), &s, &error);
    if (!session)
        qFatal("%s", qPrintable(error));
    session->trainer().setRecordHealth(true);
    double sum[2] = {0, 0}, first = 0;
    int n[2] = {0, 0};
    std::vector<double> ratios;
    int ratioSteps = 0;
    while (!session->finished()) {
        const SessionStep st = session->step();
        if (st.stats.step == 1)
            first = st.stats.loss.loss();
        if (st.stats.health && st.stats.step > 300 && st.stats.step <= 400) {
            ratios.resize(st.stats.health->size(), 0.0);
            for (std::size_t t = 0; t < ratios.size(); ++t)
                ratios[t] += (*st.stats.health)[t].updateRatio;
            ++ratioSteps;
        }
        for (int w = 0; w < 2; ++w)
            if (st.stats.step >= 100 + 200 * w && st.stats.step <= 200 + 200 * w) {
                sum[w] += st.stats.loss.loss();
                ++n[w];
            }
    }
    Run r;
    r.valid = session->validate().point.loss;
    r.early = n[0] > 0 ? sum[0] / n[0] : 0;
    r.late = n[1] > 0 ? sum[1] / n[1] : 0;
    r.first = first;
    for (double& x : ratios)
        x /= std::max(ratioSteps, 1);
    r.lateRatios = ratios;
    return r;
}

void TestLessonClaims::threeSentencesAreLearned()
{
    const Lesson l = bundled(QStringLiteral("01-three-sentences.json"));
    QString error;
    SessionSettings s = *lessonSettings(l, &error);
    std::unique_ptr<TrainingSession> session = makeSession(makeSessionData(s, &error), &s, &error);
    QVERIFY2(session, qPrintable(error));
    while (!session->finished())
        session->step();
    QCOMPARE(session->stepCount(), l.stops.back().step);
    // "all three sentences are translated exactly": the Samples view's translations.
    const RunSummary r = session->summarize();
    QCOMPARE(int(r.samples.size()), 3);
    for (const TranslationSample& t : r.samples)
        QVERIFY2(t.hypothesis == t.reference, qPrintable(t.source + " → " + t.hypothesis + " (" + t.reference + ")"));
}

void TestLessonClaims::withoutWarmUpPostNormStalls()
{
    const Lesson l = bundled(QStringLiteral("02-warm-up.json"));
    QString error;
    const SessionSettings a = *lessonSettings(l, &error), b = *lessonComparison(l, &error);
    QCOMPARE(a.plannedSteps, 400L);
    const Run ra = train(a), rb = train(b);
    qInfo("A (warm-up %ld): valid %.3f, train %.3f → %.3f over steps 100-200 → 300-400; B (warm-up %ld): valid %.3f, "
          "train %.3f → %.3f", a.train.warmup, ra.valid, ra.early, ra.late, b.train.warmup, rb.valid, rb.early, rb.late);
    // "B's loss has not moved since its first steps; A's is far below it."
    QVERIFY(std::abs(rb.late - rb.early) < 0.03 * rb.early);
    QVERIFY(ra.late < 0.8 * ra.early);
    QVERIFY(rb.valid > 1.5 * ra.valid);
}

void TestLessonClaims::postNormStallsAtAHighRate()
{
    const Lesson l = bundled(QStringLiteral("03-pre-and-post-norm.json"));
    QString error;
    const SessionSettings a = *lessonSettings(l, &error), b = *lessonComparison(l, &error);
    QVERIFY(a.model.norm == NormPlacement::Pre);
    QVERIFY(b.model.norm == NormPlacement::Post);
    const double aValid = train(a).valid, bValid = train(b).valid;
    qInfo("factor %.0f, warm-up %ld: pre-norm valid %.3f, post-norm valid %.3f", a.train.factor, a.train.warmup, aValid, bValid);
    // "pre-norm (A) has learned much of the task; post-norm (B) has stalled."
    QVERIFY(bValid > 2 * aValid);
}

void TestLessonClaims::decodingLoopPartsEarlyAndAgreesLate()
{
    const Lesson l = bundled(QStringLiteral("04-decoding-loop.json"));
    QString error;
    SessionSettings s = *lessonSettings(l, &error);
    std::unique_ptr<TrainingSession> session = makeSession(makeSessionData(s, &error), &s, &error);
    QVERIFY2(session, qPrintable(error));
    const Task& task = session->data().description();
    const std::vector<int> src = task.srcVocab.encode(tokenize(task.srcTokenizer, l.probe));
    const std::vector<int> ref = task.tgtVocab.encode(tokenize(task.tgtTokenizer, l.reference));
    QCOMPARE(int(src.size()), 7);
    QCOMPARE(int(ref.size()), 6);
    // The record the Decoding view shows at each stop (the probe with its reference).
    std::vector<int> divergence;
    for (const LessonStop& stop : l.stops) {
        while (session->stepCount() < stop.step)
            session->step();
        const DecodingRecord r = makeDecodingRecord(session->model(), task.srcVocab, task.tgtVocab, src, ref, true);
        divergence.push_back(r.divergence);
        qInfo("step %ld: greedy '%s', parts at step %d", stop.step, qPrintable(r.free.fedTokens().join(' ')), r.divergence);
    }
    // "The runs part" at the first stop; "they agree at every step" at the last.
    QVERIFY(divergence.front() >= 0);
    QCOMPARE(divergence.back(), -1);
}

namespace {

// How many of the samples' prompts are continued into balanced brackets (lm-brackets' rule).
int balancedContinuations(const SamplesRecord& r)
{
    int n = 0;
    for (const TranslationSample& s : r.samples) {
        QStringList chars;
        for (QChar c : s.source + s.hypothesis)
            if (!c.isSpace())
                chars << QString(c);
        n += balancedBrackets(chars);
    }
    return n;
}

}  // namespace

void TestLessonClaims::gptClosesItsBrackets()
{
    // "Trained: each of the five prompts is continued with the brackets it opened closed, in
    // order" — the Samples view's greedy continuations at the last stop; at step 0 they were not.
    const Lesson l = bundled(QStringLiteral("06-from-translator-to-gpt.json"));
    QString error;
    SessionSettings s = *lessonSettings(l, &error);
    QVERIFY(s.model.decoderOnly());
    std::unique_ptr<TrainingSession> session = makeSession(makeSessionData(s, &error), &s, &error);
    QVERIFY2(session, qPrintable(error));
    const auto before = translateExamples(session->model(), session->data(), 0);
    QCOMPARE(int(before->samples.size()), 5);
    while (!session->finished())
        session->step();
    QCOMPARE(session->stepCount(), l.stops.back().step);
    const auto after = translateExamples(session->model(), session->data(), session->stepCount());
    for (const TranslationSample& x : after->samples)
        qInfo("%s -> %s", qPrintable(x.source), qPrintable(x.hypothesis));
    qInfo("balanced continuations: %d of 5 at step 0, %d at step %ld", balancedContinuations(*before),
          balancedContinuations(*after), session->stepCount());
    QVERIFY(balancedContinuations(*before) < 5);
    QCOMPARE(balancedContinuations(*after), 5);
}

void TestLessonClaims::inductionHeadsForm()
{
    // 07-induction-heads.json's stops, on the Induction heads view's records (the validations'
    // induction measurements, core/SPEC.md §13) and the Attention view's probe.
    const Lesson l = bundled(QStringLiteral("07-induction-heads.json"));
    QString error;
    SessionSettings s = *lessonSettings(l, &error);
    QVERIFY(s.model.decoderOnly());
    QCOMPARE(s.model.d_ff, 0);
    std::unique_ptr<TrainingSession> session = makeSession(makeSessionData(s, &error), &s, &error);
    QVERIFY2(session, qPrintable(error));
    QCOMPARE(l.stops.size(), std::size_t(3));
    auto at = [&](long step) -> const InductionRecord& {
        for (const auto& r : session->history().induction)
            if (r->step == step)
                return *r;
        qFatal("no induction record at step %ld", step);
    };
    while (!session->finished()) {
        if (session->step().validationDue)
            session->validate();
    }
    QCOMPARE(session->stepCount(), l.stops.back().step);
    // "Before: … every induction score is under 0.15, and the later copies' loss is still
    // within a nat of the first copies'."
    const InductionRecord& before = at(l.stops[0].step);
    qInfo("step %ld: top induction %.3f, later copies %.3f against %.3f", before.step,
          before.topInduction(), before.laterCopyLoss, before.firstCopyLoss);
    QVERIFY(before.topInduction() < 0.15);
    QVERIFY(before.firstCopyLoss - before.laterCopyLoss < 1.0);
    // "After the phase change: a layer-2 head now scores over 0.4, a layer-1 head attends to the
    // previous token, and the later copies' loss has fallen at least 2 nats below the first
    // copies'. The first copies' loss has not moved."
    const InductionRecord& after = at(l.stops[1].step);
    const std::optional<long> phase = phaseChangeStep(session->history().induction);
    const int H = after.heads;
    const double previous = *std::max_element(after.previous.begin(), after.previous.begin() + H);
    qInfo("phase change at step %ld; step %ld: top induction %.3f (%d), layer 1's best previous-token "
          "%.3f, later copies %.3f against %.3f", phase.value_or(-1), after.step, after.topInduction(),
          after.top(), previous, after.laterCopyLoss, after.firstCopyLoss);
    QVERIFY(phase && *phase <= l.stops[1].step && *phase > l.stops[0].step);
    QVERIFY(after.topInduction() > 0.4 && after.top() >= H);  // in layer 2
    QVERIFY(previous > 0.3);
    QVERIFY(after.firstCopyLoss - after.laterCopyLoss >= 2.0);
    QVERIFY(std::abs(after.firstCopyLoss - before.firstCopyLoss) < 0.2);
    // "The stripe: in layer 2, each token of the probe's second copy looks at the token just
    // after its first occurrence." The probe: 17 tokens, then its first 13 again; decoder
    // position 0 is <s>, token i at position i + 1.
    const QStringList probe = l.probe.split(u' ');
    QCOMPARE(probe.size(), 30);
    for (int j = 0; j < 13; ++j)
        QCOMPARE(probe[17 + j], probe[j]);
    const auto rec = session->recordAttention(TokenPair{{}, probe});
    const Mat<float>& w = rec->decoderSelf.at(1);
    const int T = int(w.cols());
    QCOMPARE(T, 31);
    double best = 0;
    for (int h = 0; h < H; ++h) {
        double sum = 0;
        for (int j = 0; j < 12; ++j)  // the query at token 17 + j attends to token j + 1
            sum += w(h * T + (17 + j + 1), j + 2);
        best = std::max(best, sum / 12);
    }
    qInfo("layer 2's best mean weight on the token after the first occurrence: %.3f", best);
    QVERIFY(best > 0.3);
}

void TestLessonClaims::bfloat16LearnsAsFloat32Does()
{
    const Lesson l = bundled(QStringLiteral("08-bfloat16.json"));
    QString error;
    const SessionSettings a = *lessonSettings(l, &error), b = *lessonComparison(l, &error);
    QCOMPARE(a.train.precision, GemmPrecision::Float32);
    QCOMPARE(b.train.precision, GemmPrecision::BFloat16);
    if (!bf16Unavailable().isEmpty()) {
        // "On a CPU without bfloat16 units B cannot start": refused by name.
        SessionSettings s = b;
        QVERIFY(!makeSession(makeSessionData(s, &error), &s, &error));
        QVERIFY2(error.contains(QLatin1String("bfloat16")), qPrintable(error));
        qInfo("bfloat16 unavailable here: B refused (%s)", qPrintable(error));
        return;
    }
    const Run ra = train(a), rb = train(b);
    qInfo("float32: first loss %.6f, valid %.4f, train %.3f -> %.3f over steps 100-200 -> 300-400; bfloat16: "
          "first loss %.6f, valid %.4f, train %.3f -> %.3f",
          ra.first, ra.valid, ra.early, ra.late, rb.first, rb.valid, rb.early, rb.late);
    // "Their first losses already differ in the fourth digit": apart, by less than 1e-2 of it.
    QVERIFY(ra.first != rb.first && std::abs(ra.first - rb.first) < 1e-2 * ra.first);
    // "Both runs have learned to reverse the sequences" (the loss went on down in both, and the
    // validation loss is a small part of the first loss).
    QVERIFY(ra.late < 0.8 * ra.early && rb.late < 0.8 * rb.early);
    QVERIFY(ra.valid < 0.2 * ra.first && rb.valid < 0.2 * rb.first);
    QVERIFY(ra.valid != rb.valid);  // two runs, not one: the products were bfloat16's
    // "over the last hundred steps the typical tensor's [update ratio] is within a few per cent
    // of A's, about as close as a float32 run from another seed comes": tensor by tensor, the
    // mean ratio of steps 301-400, the median of |B/A - 1| over tensors, against the same of a
    // float32 run with the next seed.
    QCOMPARE(ra.lateRatios.size(), rb.lateRatios.size());
    QVERIFY(!ra.lateRatios.empty());
    const auto medianApart = [](const std::vector<double>& x, const std::vector<double>& y) {
        std::vector<double> apart;
        for (std::size_t t = 0; t < x.size(); ++t)
            apart.push_back(std::abs(y[t] / x[t] - 1.0));
        std::sort(apart.begin(), apart.end());
        return apart[apart.size() / 2];
    };
    SessionSettings otherSeed = a;
    otherSeed.train.seed = a.train.seed + 1;
    const Run rs = train(otherSeed);
    // "Their validation losses differ, but by no more than a float32 run's from another seed":
    // B from A against the farther of two float32 runs from the next seeds. Four hundred steps
    // of one seed are one path: float32's validation loss over seeds 1-6 ran from 0.152 to 0.281
    // on the Zen 5 here, bfloat16's from 0.191 to 0.342 in the engine's kernel and from 0.162 to
    // 0.235 in oneDNN's; a fixed share of A's (10 %, before) holds for one kernel's path and not
    // another's.
    SessionSettings thirdSeed = a;
    thirdSeed.train.seed = a.train.seed + 2;
    const Run rt = train(thirdSeed);
    const double seedsApart = std::max(std::abs(rs.valid - ra.valid), std::abs(rt.valid - ra.valid));
    qInfo("validation loss: float32 %.4f, bfloat16 %.4f (apart %.4f); float32 seeds %d and %d: %.4f and %.4f "
          "(the farther %.4f apart)",
          ra.valid, rb.valid, std::abs(rb.valid - ra.valid), int(otherSeed.train.seed), int(thirdSeed.train.seed),
          rs.valid, rt.valid, seedsApart);
    QVERIFY(std::abs(rb.valid - ra.valid) <= seedsApart);
    qInfo("update ratios of steps 301-400 over %zu tensors, median apart: bfloat16 from float32 %.3f, float32 "
          "seed %d from seed %d %.3f",
          ra.lateRatios.size(), medianApart(ra.lateRatios, rb.lateRatios), int(otherSeed.train.seed),
          int(a.train.seed), medianApart(ra.lateRatios, rs.lateRatios));
    QVERIFY(medianApart(ra.lateRatios, rb.lateRatios) <= 0.06);
    QVERIFY(medianApart(ra.lateRatios, rb.lateRatios) <= 1.5 * medianApart(ra.lateRatios, rs.lateRatios));
    QVERIFY(medianApart(ra.lateRatios, rb.lateRatios) > 0);  // B's steps were bfloat16's
}

AS_TEST_GUILESS_MAIN(TestLessonClaims)
#include "test_lesson_claims.moc"
