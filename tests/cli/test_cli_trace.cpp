// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// attention-studio-cli trace as a user runs it: one JSON object per line with the keys and the
// tensor names and shapes of issue 25 §1, the numbers those of the core's traceForward on the
// same model file (each number the float itself), a source-only line traced with its greedy
// translation, --only, --mask-heads, and bad lines refused with the line's number and why, the
// good lines still traced.
#include "cli_process.h"
#include "decode/decode.h"
#include "eval/trace.h"
#include "io/model_file.h"
#include "skip.h"
#include "text/dataset.h"
#include "text/tasks.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace as;
using namespace Qt::StringLiterals;

namespace {

QStringList tokens(const QJsonValue& v)
{
    QStringList s;
    for (const QJsonValue& x : v.toArray())
        s << x.toString();
    return s;
}

QList<int> shape(const QJsonObject& tensor)
{
    QList<int> s;
    for (const QJsonValue& x : tensor[u"shape"_s].toArray())
        s << x.toInt();
    return s;
}

}  // namespace

class TestCliTrace : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void pairAndSourceOnly();
    void onlySelects();
    void maskHeadsHonoured();
    void badLinesRefused();

private:
    test::ProcessRun trace(const QStringList& extra, const QByteArray& input);
    QTemporaryDir dir_;
    QString model_, source_, target_;
};

test::ProcessRun TestCliTrace::trace(const QStringList& extra, const QByteArray& input)
{
    return test::runProgram(test::cliProgram(),
                            QStringList{u"trace"_s, u"--model"_s, model_, u"--threads"_s, u"1"_s}
                                + extra,
                            QProcessEnvironment::systemEnvironment(), input);
}

void TestCliTrace::initTestCase()
{
    QVERIFY(dir_.isValid());
    model_ = dir_.filePath(u"toy.safetensors"_s);
    QVERIFY(test::runCli({u"train"_s, u"--threads"_s, u"1"_s, u"--task"_s, u"toy"_s, u"--steps"_s, u"60"_s, u"--out"_s, model_}));
    const Task toy = makeToyTask();
    QVERIFY(!toy.examples.empty());
    source_ = detokenize(toy.srcTokenizer, toy.examples.front().src);
    target_ = detokenize(toy.tgtTokenizer, toy.examples.front().tgt);
}

void TestCliTrace::pairAndSourceOnly()
{
    const test::ProcessRun r = trace({u"--json"_s}, (source_ + u'\t' + target_ + u'\n' + source_
                                                     + u'\n').toUtf8());
    QVERIFY2(r.exitCode == 0, qPrintable(test::describeRun(u"trace"_s, r)));
    const QList<QByteArray> lines = r.out.trimmed().split('\n');
    QCOMPARE(lines.size(), 2);

    QString error;
    std::optional<ModelBundle> b = loadModel(model_, &error);
    QVERIFY2(b, qPrintable(error));
    const ModelConfig& c = b->config;
    const ParallelData codec = ParallelData::fromVocabularies(b->srcVocab, b->tgtVocab, b->srcTok,
                                                              b->tgtTok);
    const std::vector<int> src = codec.encodeSource(source_).ids;
    const std::vector<int> tgt = codec.encodeTarget(target_).ids;
    const int S = int(src.size()), H = c.heads, dk = c.d_model / c.heads;

    for (int line = 0; line < 2; ++line) {
        const QJsonObject o = QJsonDocument::fromJson(lines[line]).object();
        const QStringList keys = o.keys();
        QCOMPARE(QSet<QString>(keys.begin(), keys.end()),
                 (QSet<QString>{u"source_tokens"_s, u"target_tokens"_s, u"output_tokens"_s,
                                u"tensors"_s}));
        QCOMPARE(tokens(o[u"source_tokens"_s]), b->srcVocab.decode(src));
        const QStringList in = tokens(o[u"target_tokens"_s]);
        const QStringList outTokens = tokens(o[u"output_tokens"_s]);
        QCOMPARE(in.front(), u"<s>"_s);
        QCOMPARE(outTokens.size(), in.size());
        const int T = int(in.size());
        // The pair's decoder input is <s> + its target; a source alone is traced with its
        // greedy translation, which the traced pass then predicts token for token, then </s>.
        std::vector<int> target = tgt;
        if (line == 1) {
            target = greedyDecode(*b->model, src, DecodeOptions().limitFor(S, c.max_len)).nbest[0].tokens;
            QCOMPARE(outTokens.mid(0, T - 1), in.mid(1));
            QCOMPARE(outTokens.back(), u"</s>"_s);
        }
        QCOMPARE(in.mid(1), b->tgtVocab.decode(target));

        const QJsonObject tensors = o[u"tensors"_s].toObject();
        const std::vector<std::string> names = traceTensorNames(c);
        QCOMPARE(tensors.size(), qsizetype(names.size()));
        const ForwardTrace t = traceForward(*b->model, src, target);
        for (const TraceTensor& x : t.tensors) {
            const QJsonObject j = tensors[QString::fromStdString(x.name)].toObject();
            QVERIFY2(!j.isEmpty(), x.name.c_str());
            QCOMPARE(shape(j), QList<int>(x.shape.begin(), x.shape.end()));
            const QJsonArray data = j[u"data"_s].toArray();
            QCOMPARE(data.size(), qsizetype(x.data.size()));
            for (qsizetype i = 0; i < data.size(); ++i) {
                if (!x.masked.empty() && x.masked[std::size_t(i)]) {
                    QVERIFY2(data[i].isNull(), x.name.c_str());
                    continue;
                }
                // Written as the shortest text of the float: it reads back as that float.
                QVERIFY2(float(data[i].toDouble()) == float(x.data[std::size_t(i)]), x.name.c_str());
            }
        }
        // The shapes of issue 25 §1.
        QCOMPARE(shape(tensors[u"encoder.embed"_s].toObject()), (QList<int>{S, c.d_model}));
        QCOMPARE(shape(tensors[u"encoder.0.self.q"_s].toObject()), (QList<int>{H, S, dk}));
        QCOMPARE(shape(tensors[u"encoder.0.ff.hidden"_s].toObject()), (QList<int>{S, c.d_ff}));
        QCOMPARE(shape(tensors[u"decoder.0.self.scores"_s].toObject()), (QList<int>{H, T, T}));
        QCOMPARE(shape(tensors[u"decoder.0.cross.k"_s].toObject()), (QList<int>{H, S, dk}));
        QCOMPARE(shape(tensors[u"decoder.0.cross.weights"_s].toObject()), (QList<int>{H, T, S}));
        QCOMPARE(shape(tensors[u"logits"_s].toObject()), (QList<int>{T, c.tgt_vocab}));
        QCOMPARE(shape(tensors[u"lens.%1"_s.arg(c.decoder_layers - 1)].toObject()),
                 (QList<int>{T, c.tgt_vocab}));
        // Masked scores are null: the decoder's future positions.
        const QJsonArray scores = tensors[u"decoder.0.self.scores"_s].toObject()[u"data"_s].toArray();
        for (int i = 0; i < T; ++i)
            for (int k = 0; k < T; ++k)
                QCOMPARE(scores[i * T + k].isNull(), k > i);
    }
}

void TestCliTrace::onlySelects()
{
    const test::ProcessRun r = trace({u"--only"_s, u"encoder.0.self,logits, lens.1"_s},
                                     (source_ + u'\n').toUtf8());
    QVERIFY2(r.exitCode == 0, qPrintable(test::describeRun(u"trace --only"_s, r)));
    const QJsonObject tensors = QJsonDocument::fromJson(r.out).object()[u"tensors"_s].toObject();
    QStringList keys = tensors.keys();
    keys.sort();
    QStringList want{u"logits"_s, u"lens.1"_s};
    for (const char* part : {"q", "k", "v", "scores", "weights", "context", "out", "residual"})
        want << u"encoder.0.self."_s + QLatin1StringView(part);
    want.sort();
    QCOMPARE(keys, want);

    const test::ProcessRun unknown = trace({u"--only"_s, u"encoder.0.sel"_s}, (source_ + u'\n').toUtf8());
    QCOMPARE(unknown.exitCode, 2);
    QVERIFY2(unknown.err.contains("--only: no tensor is called or starts with 'encoder.0.sel'"),
             unknown.err.constData());
    QVERIFY(unknown.out.isEmpty());
}

void TestCliTrace::maskHeadsHonoured()
{
    const QByteArray line = (source_ + u'\t' + target_ + u'\n').toUtf8();
    const QStringList only{u"--only"_s, u"encoder.0.self.context,logits"_s};
    const test::ProcessRun plain = trace(only, line);
    const test::ProcessRun masked = trace(only + QStringList{u"--mask-heads"_s, u"encoder.self:0:1"_s},
                                          line);
    QVERIFY2(plain.exitCode == 0 && masked.exitCode == 0,
             qPrintable(test::describeRun(u"trace --mask-heads"_s, masked)));
    const QJsonObject a = QJsonDocument::fromJson(plain.out).object()[u"tensors"_s].toObject();
    const QJsonObject b = QJsonDocument::fromJson(masked.out).object()[u"tensors"_s].toObject();
    QString error;
    const std::optional<ModelBundle> m = loadModel(model_, &error);
    QVERIFY2(m, qPrintable(error));
    const int d = m->config.d_model, dk = d / m->config.heads;
    const QJsonArray ctx = b[u"encoder.0.self.context"_s].toObject()[u"data"_s].toArray();
    QVERIFY(!ctx.isEmpty());
    // Head 1's part of the context is 0 in every row; the logits move.
    for (qsizetype r = 0; r < ctx.size() / d; ++r)
        for (int c = dk; c < 2 * dk; ++c)
            QCOMPARE(ctx[r * d + c].toDouble(), 0.0);
    QVERIFY(a[u"logits"_s] != b[u"logits"_s]);
}

void TestCliTrace::badLinesRefused()
{
    const QByteArray input = "\n" + source_.toUtf8() + "\ta\tb\n   \n\t" + target_.toUtf8() + "\n"
                             + source_.toUtf8() + "\t"
                             + target_.toUtf8() + "\n";
    const test::ProcessRun r = trace({u"--only"_s, u"logits"_s}, input);
    QCOMPARE(r.exitCode, 1);
    const QString err = QString::fromUtf8(r.err);
    QVERIFY2(err.contains(u"trace: line 1: the line is empty (expected 'source' or "
                          "'source<TAB>target'); nothing written for it"_s),
             qPrintable(err));
    QVERIFY2(err.contains(u"trace: line 2: more than one tab"_s), qPrintable(err));
    QVERIFY2(err.contains(u"trace: line 3: the line is empty"_s), qPrintable(err));
    QVERIFY2(err.contains(u"trace: line 4: the source has no tokens"_s), qPrintable(err));
    // The good line is still traced.
    const QList<QByteArray> lines = r.out.trimmed().split('\n');
    QCOMPARE(lines.size(), 1);
    QVERIFY(QJsonDocument::fromJson(lines[0]).object()[u"tensors"_s].toObject().contains(u"logits"_s));

    // No input, no output (and no complaint).
    const test::ProcessRun none = trace({}, {});
    QCOMPARE(none.exitCode, 0);
    QVERIFY(none.out.isEmpty() && none.err.isEmpty());

    const test::ProcessRun noModel = test::runProgram(test::cliProgram(), {u"trace"_s});
    QCOMPARE(noModel.exitCode, 2);
    QVERIFY2(noModel.err.contains("--model"), noModel.err.constData());
}

AS_TEST_GUILESS_MAIN(TestCliTrace)
#include "test_cli_trace.moc"
