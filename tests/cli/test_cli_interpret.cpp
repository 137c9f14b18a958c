// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// attention-studio-cli heads, attribute and --mask-heads as a user runs them, against the core
// functions called here on the same model file: the JSON equals scoreHeads(), attribute() and
// (attribute --contrast) attributeContrast(),
// and --mask-heads gives eval the NLL of the model with those heads masked (and another one
// than without).
#include "skip.h"
#include "eval/interpret.h"
#include "io/model_file.h"
#include "text/tasks.h"
#include "cli_process.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace as;
using namespace Qt::StringLiterals;

namespace {

// Its standard output, or nothing (and the reason in the log) unless it exits with 0.
QByteArray runCliOut(const QStringList& args, const QByteArray& input = {})
{
    const test::ProcessRun r = test::runProgram(test::cliProgram(), args,
                                                QProcessEnvironment::systemEnvironment(), input);
    if (r.exitCode != 0) {
        qWarning("%s", qPrintable(test::describeRun(args.join(u' '), r)));
        return {};
    }
    return r.out;
}

}  // namespace

class TestCliInterpret : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void headsJsonEqualsTheEngine();
    void attributeJsonEqualsTheEngine();
    void attributeContrastJsonEqualsTheEngine();
    void maskHeadsChangesEvalAndTranslate();
    void badSpecsRefused();
    void helpSaysLayersAndHeadsCountFromZero();

private:
    QTemporaryDir dir_;
    QString model_, data_;
};

void TestCliInterpret::initTestCase()
{
    QVERIFY(dir_.isValid());
    model_ = dir_.filePath(u"toy.safetensors"_s);
    QVERIFY(test::runCli({u"train"_s, u"--threads"_s, u"1"_s, u"--task"_s, u"toy"_s, u"--steps"_s, u"120"_s, u"--out"_s, model_}));
    const Task toy = makeToyTask();
    QByteArray tsv;
    for (const TokenPair& p : toy.examples)
        tsv += (detokenize(toy.srcTokenizer, p.src) + u'\t' + detokenize(toy.tgtTokenizer, p.tgt) + u'\n').toUtf8();
    data_ = dir_.filePath(u"toy.tsv"_s);
    QFile f(data_);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(tsv);
}

void TestCliInterpret::headsJsonEqualsTheEngine()
{
    const QByteArray out = runCliOut({u"heads"_s, u"--model"_s, model_, u"--data"_s, data_, u"--json"_s,
                                      u"--threads"_s, u"1"_s});
    const QJsonObject o = QJsonDocument::fromJson(out).object();
    QVERIFY2(!o.isEmpty(), out.constData());
    QString error;
    std::optional<ModelBundle> b = loadModel(model_, &error);
    QVERIFY2(b, qPrintable(error));
    QList<SentencePair> pairs;
    const Task toy = makeToyTask();
    for (const TokenPair& p : toy.examples)
        pairs.append({detokenize(toy.srcTokenizer, p.src), detokenize(toy.tgtTokenizer, p.tgt), 0});
    const ParallelData codec = ParallelData::fromVocabularies(b->srcVocab, b->tgtVocab, b->srcTok, b->tgtTok);
    const HeadReport r = scoreHeads(*b->model, codec.encode(pairs).pairs);
    QCOMPARE(o.value("pairs").toInt(), r.pairs);
    QCOMPARE(o.value("nll").toDouble(), r.nll);
    const QJsonArray heads = o.value("heads").toArray();
    QCOMPARE(heads.size(), qsizetype(r.heads.size()));
    for (qsizetype i = 0; i < heads.size(); ++i) {
        const QJsonObject h = heads[i].toObject();
        const HeadScore& s = r.heads[std::size_t(i)];
        QCOMPARE(h.value("kind").toString(), attentionKindName(s.id.kind));
        QCOMPARE(h.value("layer").toInt(), s.id.layer);
        QCOMPARE(h.value("head").toInt(), s.id.head);
        QCOMPARE(h.value("importance").toDouble(), s.importance);
        QCOMPARE(h.value("delta_nll").toDouble(), s.deltaNll);
        QCOMPARE(h.value("confidence").toDouble(), s.confidence);
        QCOMPARE(h.value("entropy").toDouble(), s.entropy);
    }
}

void TestCliInterpret::attributeJsonEqualsTheEngine()
{
    QString error;
    std::optional<ModelBundle> b = loadModel(model_, &error);
    QVERIFY(b);
    const ParallelData codec = ParallelData::fromVocabularies(b->srcVocab, b->tgtVocab, b->srcTok, b->tgtTok);
    const Task toy = makeToyTask();
    const QString src = detokenize(toy.srcTokenizer, toy.examples[0].src);
    const QString tgt = detokenize(toy.tgtTokenizer, toy.examples[1].tgt);  // another target: teacher-forced
    for (const QString& method : {u"ig"_s, u"gradxinput"_s, u"attention"_s, u"rollout"_s}) {
        const QByteArray out = runCliOut({u"attribute"_s, u"--model"_s, model_, u"--method"_s, method,
                                          u"--steps"_s, u"8"_s, u"--json"_s, u"--threads"_s, u"1"_s},
                                         (src + u"\n\n"_s + src + u'\t' + tgt + u'\n').toUtf8());
        const QList<QByteArray> lines = out.trimmed().split('\n');
        QCOMPARE(lines.size(), 3);  // one object per input line, the empty one included
        const std::vector<int> s = codec.encodeSource(src).ids;
        const std::vector<int> greedy = greedyDecode(*b->model, s, DecodeOptions{}.limitFor(int(s.size()), b->config.max_len)).nbest[0].tokens;
        const std::vector<int> forced = codec.encodeTarget(tgt).ids;
        const AttributionMethod m = *attributionMethodFromName(method);
        for (int k : {0, 2}) {
            const QJsonObject o = QJsonDocument::fromJson(lines[k]).object();
            const std::vector<int>& outIds = k == 0 ? greedy : forced;
            const Attribution a = attribute(*b->model, s, outIds, m, 8);
            QCOMPARE(o.value("method").toString(), method);
            QCOMPARE(o.value("output_tokens").toArray().size(), qsizetype(outIds.size()));
            QCOMPARE(o.value("source_tokens").toArray().size(), qsizetype(s.size()));
            const QJsonArray scores = o.value("scores").toArray();
            QCOMPARE(scores.size(), qsizetype(a.scores.size()));
            for (qsizetype t = 0; t < scores.size(); ++t)
                for (qsizetype i = 0; i < qsizetype(s.size()); ++i)
                    QCOMPARE(scores[t].toArray()[i].toDouble(), a.scores[std::size_t(t)][std::size_t(i)]);
            QCOMPARE(o.contains("completeness"), m == AttributionMethod::IntegratedGradients);
        }
        const QJsonObject empty = QJsonDocument::fromJson(lines[1]).object();
        QVERIFY(empty.value("scores").toArray().isEmpty());
    }
}

// attribute --contrast (core/SPEC.md §11.2): "why 'a good' and not 'zero boy'?" — the rows of
// the positions where they differ, as attributeContrast gives them on the same file.
void TestCliInterpret::attributeContrastJsonEqualsTheEngine()
{
    QString error;
    std::optional<ModelBundle> b = loadModel(model_, &error);
    QVERIFY(b);
    const ParallelData codec = ParallelData::fromVocabularies(b->srcVocab, b->tgtVocab, b->srcTok, b->tgtTok);
    const QString src = u"我有一个好朋友"_s, tgt = u"I have a good friend ."_s, alt = u"I have zero boy friend ."_s;
    const std::vector<int> s = codec.encodeSource(src).ids, forced = codec.encodeTarget(tgt).ids,
                           other = codec.encodeTarget(alt).ids;
    for (const QString& method : {u"ig"_s, u"gradxinput"_s}) {
        const QByteArray out = runCliOut({u"attribute"_s, u"--model"_s, model_, u"--method"_s, method,
                                          u"--steps"_s, u"8"_s, u"--contrast"_s, u"--json"_s,
                                          u"--threads"_s, u"1"_s},
                                         (src + u'\t' + tgt + u'\t' + alt + u'\n').toUtf8());
        const QJsonObject o = QJsonDocument::fromJson(out).object();
        QVERIFY2(!o.isEmpty(), out.constData());
        const AttributionMethod m = *attributionMethodFromName(method);
        const Attribution a = attributeContrast(*b->model, s, forced, other, m, 8);
        QCOMPARE(a.positions, (std::vector<int>{2, 3}));
        const QJsonArray positions = o.value("contrast_positions").toArray();
        QCOMPARE(positions, (QJsonArray{2, 3}));
        QCOMPARE(o.value("alternative_tokens").toArray(),
                 QJsonArray::fromStringList(b->tgtVocab.decode(other)));
        QCOMPARE(o.value("output_tokens").toArray().size(), qsizetype(forced.size()));
        const QJsonArray scores = o.value("scores").toArray();
        QCOMPARE(scores.size(), qsizetype(2));
        for (qsizetype r = 0; r < scores.size(); ++r)
            for (qsizetype i = 0; i < qsizetype(s.size()); ++i)
                QCOMPARE(scores[r].toArray()[i].toDouble(), a.scores[std::size_t(r)][std::size_t(i)]);
        QCOMPARE(o.contains("completeness"), m == AttributionMethod::IntegratedGradients);
        if (m == AttributionMethod::IntegratedGradients)
            for (qsizetype r = 0; r < 2; ++r) {
                QCOMPARE(o.value("f").toArray()[r].toDouble(), a.f[std::size_t(r)]);
                QVERIFY(a.f[std::size_t(r)] > 0);  // the trained model prefers the target
            }
    }
}

void TestCliInterpret::maskHeadsChangesEvalAndTranslate()
{
    const QString spec = u"decoder.cross:0:*,encoder.self:1:2"_s;
    const QJsonObject plain = QJsonDocument::fromJson(runCliOut({u"eval"_s, u"--threads"_s, u"1"_s, u"--model"_s, model_, u"--data"_s,
                                                                 data_, u"--json"_s})).object();
    const QJsonObject masked = QJsonDocument::fromJson(runCliOut({u"eval"_s, u"--model"_s, model_, u"--data"_s,
                                                                  data_, u"--json"_s, u"--mask-heads"_s, spec,
                                                                  u"--threads"_s, u"1"_s})).object();
    QVERIFY(!plain.isEmpty() && !masked.isEmpty());
    QString error;
    std::optional<ModelBundle> b = loadModel(model_, &error);
    QVERIFY(b);
    const ParallelData codec = ParallelData::fromVocabularies(b->srcVocab, b->tgtVocab, b->srcTok, b->tgtTok, 1000);
    QList<SentencePair> pairs;
    const Task toy = makeToyTask();
    for (const TokenPair& p : toy.examples)
        pairs.append({detokenize(toy.srcTokenizer, p.src), detokenize(toy.tgtTokenizer, p.tgt), 0});
    maskHeads(*b->model, *parseHeadSpec(spec, b->config, &error));
    const LossStats st = evaluateLoss(*b->model, codec.encode(pairs).pairs);
    QCOMPARE(masked.value("nll").toDouble(), st.nll());
    QVERIFY(masked.value("nll").toDouble() > plain.value("nll").toDouble() + 1e-3);
    // translate with the same heads masked answers as the engine does.
    const QString src = pairs[0].src;
    const QByteArray out = runCliOut({u"translate"_s, u"--threads"_s, u"1"_s, u"--model"_s, model_, u"--mask-heads"_s, spec}, (src + u'\n').toUtf8());
    const std::vector<int> ids = codec.encodeSource(src).ids;
    QCOMPARE(QString::fromUtf8(out).trimmed(),
             codec.decodeTarget(greedyDecode(*b->model, ids, DecodeOptions{}.limitFor(int(ids.size()), b->config.max_len)).nbest[0].tokens).trimmed());
}

void TestCliInterpret::badSpecsRefused()
{
    for (const QStringList& args : {QStringList{u"eval"_s, u"--threads"_s, u"1"_s, u"--model"_s, model_, u"--data"_s, data_, u"--mask-heads"_s, u"decoder.cross:9:0"_s},
                                    QStringList{u"translate"_s, u"--threads"_s, u"1"_s, u"--model"_s, model_, u"--mask-heads"_s, u"x:0:0"_s},
                                    QStringList{u"attribute"_s, u"--threads"_s, u"1"_s, u"--model"_s, model_, u"--method"_s, u"shap"_s}}) {
        QProcess p;
        p.start(test::cliProgram(), args);
        p.closeWriteChannel();
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 2);
        QVERIFY(!p.readAllStandardError().isEmpty());
    }
}

void TestCliInterpret::helpSaysLayersAndHeadsCountFromZero()
{
    // The window numbers layers and heads from 1; the command line's JSON and options from 0,
    // and its help says so.
    for (const QStringList& args : {QStringList{u"--help"_s}, QStringList{u"heads"_s, u"--help"_s}}) {
        const test::ProcessRun r = test::runProgram(test::cliProgram(), args,
                                                    QProcessEnvironment::systemEnvironment(), {});
        const QString text = QString::fromUtf8(r.out + r.err).simplified();
        QVERIFY2(text.contains(u"numbered from 0"_s) && text.contains(u"window numbers them from 1"_s),
                 qPrintable(args.join(u' ') + u": "_s + text));
    }
}

AS_TEST_GUILESS_MAIN(TestCliInterpret)
#include "test_cli_interpret.moc"
