// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Every bundled lesson run as a teacher would preview it: `attention-studio --screenshot DIR
// LESSON.json` trains its planned steps (with its B when it has one) in the program itself, and
// what the lesson tells the student is checked on the numbers the program reports — the
// summary.json of A and the printed figures of B. (test_lesson_claims checks the same claims on sessions
// in the engine; this is the window's path: File > Open lesson…, its A/B, the panel.)
#include "skip.h"
#include "cli_process.h"

#include "model/bf16.h"
#include "run/lesson.h"
#include "text/lm_tasks.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace Qt::StringLiterals;

class TestLessonRuns : public QObject {
    Q_OBJECT
private slots:
    void bundledLessonsRunAndHoldTrue();
};

void TestLessonRuns::bundledLessonsRunAndHoldTrue()
{
    const QString program = QDir(QCoreApplication::applicationDirPath()).filePath(u"attention-studio"_s);
    QVERIFY2(QFileInfo(program).isExecutable(), "attention-studio is not built");
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
    int runs = 0;
    for (const QString& resource : as::bundledLessonPaths()) {
        QTemporaryDir dir;
        const QString name = QFileInfo(resource).fileName();
        const QString lesson = dir.filePath(name);
        QVERIFY(QFile::copy(resource, lesson));
        const QString shots = dir.filePath(u"shots"_s);
        const as::test::ProcessRun r = as::test::runProgram(
            program, {u"--screenshot"_s, shots, u"--threads"_s, u"1"_s, lesson}, env, {}, 600000);
        QVERIFY2(r.finished && r.exitCode == 0, qPrintable(as::test::describeRun(name, r)));
        const QString out = QString::fromUtf8(r.out);
        QFile f(QDir(shots).filePath(u"summary.json"_s));
        QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(name));
        const QJsonObject summary = QJsonDocument::fromJson(f.readAll()).object();
        QString error;
        QFile lf(resource);
        QVERIFY(lf.open(QIODevice::ReadOnly));
        const std::optional<as::Lesson> l = as::parseLesson(lf.readAll(), &error);
        QVERIFY2(l, qPrintable(error));
        QCOMPARE(long(summary.value("steps"_L1).toDouble()), as::lessonSettings(*l, &error)->plannedSteps);
        const double aValid = summary.value("valid_loss"_L1).toDouble();
        // B's figures as the program prints them: "B: …: N steps, train loss (last 50) X, valid loss Y".
        const QRegularExpressionMatch b = QRegularExpression(u"B: .*: (\\d+) steps, train loss \\(last 50\\) ([0-9.]+), valid loss ([0-9.]+)"_s).match(out);
        // A bfloat16 B needs the CPU's bfloat16 units: elsewhere the lesson goes on with A alone,
        // saying why.
        const bool bf16Lesson = l->ab.contains(u"precision=bf16"_s);
        const bool bRuns = !l->ab.isEmpty() && (!bf16Lesson || as::bf16Unavailable().isEmpty());
        QCOMPARE(b.hasMatch(), bRuns);
        const double bValid = b.hasMatch() ? b.captured(3).toDouble() : 0;
        qInfo("%s: A valid loss %.4f%s", qPrintable(name), aValid,
              b.hasMatch() ? qPrintable(u", B valid loss %1"_s.arg(bValid)) : "");
        if (name == u"01-three-sentences.json"_s || name == u"04-decoding-loop.json"_s) {
            // "all three sentences are translated exactly"; "trained, free-running and
            // teacher-forced feed back the same tokens" (the probe is one of them)
            const QJsonArray samples = summary.value("samples"_L1).toArray();
            QCOMPARE(samples.size(), 3);
            for (const QJsonValue& s : samples)
                QCOMPARE(s["hypothesis"_L1].toString(), s["reference"_L1].toString());
        } else if (name == u"02-warm-up.json"_s) {
            // "B's loss … sits at the loss of the word frequencies; A goes on down"
            QVERIFY2(bValid > 1.5 * aValid, qPrintable(out));
        } else if (name == u"03-pre-and-post-norm.json"_s) {
            // "post-norm stalls while pre-norm goes on down"
            QVERIFY2(bValid > 2 * aValid, qPrintable(out));
        } else if (name == u"05-what-heads-learn.json"_s) {
            // At step 300: "one encoder self-attention head now puts at least 4 times the
            // punctuation share on 。. At step 0 no head put even 3 times." At step 400: "one
            // encoder self-attention head now puts nearly all its weight on one key, and one
            // decoder self-attention head on the token itself or the one before it; in the
            // cross-attention one head puts over 0.4 of its weight within ±1 of the diagonal, up
            // from under 0.3. At step 0 none did." — the Head dynamics view's stats of the probe
            // (eval/attention_stats.h, core/SPEC.md §12) at its first record and at the stops, as
            // the program prints them: "heads at step N: KIND diagonal X (l,h) confidence X (l,h)
            // punctuation Xx (l,h) alignment X (l,h); …", each the largest over the kind's heads.
            const QRegularExpression line(u"heads at step (\\d+): (.*)"_s);
            const QRegularExpression stat(u"(\\w+) (-?[0-9.]+)x? \\(\\d+,\\d+\\)"_s);
            QMap<long, QMap<QString, double>> at;  // step -> "kind statistic" -> largest
            for (auto it = line.globalMatch(out); it.hasNext();) {
                const QRegularExpressionMatch m = it.next();
                for (const QString& kind : m.captured(2).split(u"; "_s)) {
                    const QString k = kind.section(u' ', 0, 0);
                    for (auto st = stat.globalMatch(kind); st.hasNext();) {
                        const QRegularExpressionMatch v = st.next();
                        at[m.captured(1).toLong()][k + u' ' + v.captured(1)] = v.captured(2).toDouble();
                    }
                }
            }
            QVERIFY2(at.keys() == (QList<long>{0, 300, 400}), qPrintable(out));
            for (long step : at.keys())
                QVERIFY2(at[step].size() == 12, qPrintable(out));  // 3 kinds × 4 statistics
            auto of = [&](long step, const char* stat) { return at[step].value(QString::fromLatin1(stat), -1); };
            qInfo("encoder self-attention's largest confidence %.3f -> %.3f; decoder self-attention's "
                  "largest diagonal ±1 %.3f -> %.3f; encoder self-attention's largest punctuation "
                  "ratio %.3f -> %.3f (step 300); cross-attention's largest diagonal ±1 %.3f -> %.3f",
                  of(0, "encoder.self confidence"), of(400, "encoder.self confidence"),
                  of(0, "decoder.self diagonal"), of(400, "decoder.self diagonal"),
                  of(0, "encoder.self punctuation"), of(300, "encoder.self punctuation"),
                  of(0, "decoder.cross diagonal"), of(400, "decoder.cross diagonal"));
            QVERIFY2(of(0, "encoder.self confidence") < 0.5 && of(400, "encoder.self confidence") > 0.9, qPrintable(out));
            QVERIFY2(of(0, "decoder.self diagonal") < 0.85 && of(400, "decoder.self diagonal") > 0.95, qPrintable(out));
            QVERIFY2(of(0, "encoder.self punctuation") < 3 && of(300, "encoder.self punctuation") >= 4, qPrintable(out));
            QVERIFY2(of(0, "decoder.cross diagonal") < 0.3 && of(400, "decoder.cross diagonal") > 0.4, qPrintable(out));
        } else if (name == u"06-from-translator-to-gpt.json"_s) {
            // "Trained: each of the five prompts is continued with the brackets it opened
            // closed, in order" (the samples are a language model's: prompt and continuation)
            const QJsonArray samples = summary.value("samples"_L1).toArray();
            QCOMPARE(samples.size(), 5);
            for (const QJsonValue& s : samples) {
                QStringList chars;
                for (QChar c : s["source"_L1].toString() + s["hypothesis"_L1].toString())
                    if (!c.isSpace())
                        chars << QString(c);
                QVERIFY2(as::balancedBrackets(chars), qPrintable(chars.join(QString())));
            }
        } else if (name == u"07-induction-heads.json"_s) {
            // "After the phase change … a layer-2 head now scores over 0.4 … and the later
            // copies' loss has fallen at least 2 nats below the first copies'" — the run's
            // detected phase change and the final weights' induction record, as the program
            // writes them.
            const QJsonValue phase = summary.value("phase_change_step"_L1);
            QVERIFY2(phase.isDouble() && phase.toDouble() > l->stops[0].step
                         && phase.toDouble() <= l->stops[1].step,
                     qPrintable(out));
            const QJsonObject ind = summary.value("induction"_L1).toObject();
            qInfo("phase change at step %.0f; at the end %s scores %.3f, later copies %.3f against %.3f",
                  phase.toDouble(), qPrintable(ind["top_head"_L1].toString()), ind["top_induction"_L1].toDouble(),
                  ind["later_copy_loss"_L1].toDouble(), ind["first_copy_loss"_L1].toDouble());
            QVERIFY(ind["top_head"_L1].toString().startsWith(u"decoder.self:1:"_s));
            QVERIFY(ind["top_induction"_L1].toDouble() > 0.4);
            QVERIFY(ind["first_copy_loss"_L1].toDouble() - ind["later_copy_loss"_L1].toDouble() >= 2.0);
        } else if (name == u"08-bfloat16.json"_s) {
            // "Both runs have learned to reverse the sequences" (both validation losses below a
            // fifth of the first loss, about 2.5; how close they are against other seeds' float32
            // runs is test_lesson_claims's, which trains those); without bfloat16 units, B
            // refused by name and A trained alone.
            if (bRuns) {
                QVERIFY2(aValid > 0 && aValid < 0.5 && bValid > 0 && bValid < 0.5, qPrintable(out));
            } else {
                QVERIFY2(r.err.contains("B did not start") && r.err.contains("bfloat16"), r.err.constData());
                qInfo("bfloat16 unavailable here: B refused, A trained alone");
            }
        } else {
            QFAIL(qPrintable(u"%1 has no claim checked here: add one"_s.arg(name)));
        }
        // The pictures, the lesson's first view among them.
        QVERIFY(QFileInfo::exists(QDir(shots).filePath(u"0-window.png"_s)));
        ++runs;
    }
    QCOMPARE(runs, 8);
}

AS_TEST_MAIN(TestLessonRuns)
#include "test_lesson_runs.moc"
