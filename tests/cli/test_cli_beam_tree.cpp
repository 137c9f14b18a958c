// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// attention-studio-cli translate --beam K --tree --json as a user runs it (core/SPEC.md §5.5):
// every node's log_prob and score against a teacher-forced full pass of its prefix through the
// same model file (traceForward), k kept or finished nodes per step, finished ones ending in
// </s>, and the n-best read off the printed tree equal to what translate --nbest prints for the
// same lines; --tree and --json only together.
#include "skip.h"
#include "eval/trace.h"
#include "io/model_file.h"
#include "text/dataset.h"
#include "text/tasks.h"
#include "cli_process.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <map>

using namespace as;
using namespace Qt::StringLiterals;

class TestCliBeamTree : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void treeAgainstFullPassesAndNbest();
    void treeAndJsonOnlyTogether();

private:
    QTemporaryDir dir_;
    QString model_;
    QByteArray input_;
};

void TestCliBeamTree::initTestCase()
{
    QVERIFY(dir_.isValid());
    model_ = dir_.filePath(u"toy.safetensors"_s);
    QVERIFY(test::runCli({u"train"_s, u"--threads"_s, u"1"_s, u"--task"_s, u"toy"_s, u"--steps"_s, u"120"_s, u"--out"_s, model_}));
    const Task toy = makeToyTask();
    for (const TokenPair& p : toy.examples)
        input_ += (detokenize(toy.srcTokenizer, p.src) + u'\n').toUtf8();
    input_ += "\n";  // an empty line: an empty tree, the output stays aligned
}

void TestCliBeamTree::treeAgainstFullPassesAndNbest()
{
    const int k = 4;
    const QStringList common{u"translate"_s, u"--threads"_s, u"1"_s, u"--model"_s, model_, u"--beam"_s, QString::number(k),
                             u"--nbest"_s, QString::number(k)};
    const test::ProcessRun treeRun = test::runProgram(
        test::cliProgram(), common + QStringList{u"--tree"_s, u"--json"_s},
        QProcessEnvironment::systemEnvironment(), input_);
    QVERIFY2(treeRun.exitCode == 0, qPrintable(test::describeRun(u"translate --tree"_s, treeRun)));
    const test::ProcessRun nbestRun = test::runProgram(test::cliProgram(), common,
                                                       QProcessEnvironment::systemEnvironment(), input_);
    QVERIFY2(nbestRun.exitCode == 0, qPrintable(test::describeRun(u"translate --nbest"_s, nbestRun)));

    QString error;
    std::optional<ModelBundle> b = loadModel(model_, &error);
    QVERIFY2(b, qPrintable(error));
    const ParallelData codec = ParallelData::fromVocabularies(b->srcVocab, b->tgtVocab, b->srcTok, b->tgtTok);
    const int V = b->config.tgt_vocab;

    const QList<QByteArray> trees = treeRun.out.split('\n');
    const QList<QByteArray> inputs = input_.split('\n');
    // --nbest: k lines "rank<TAB>score<TAB>translation" then an empty line, per input line.
    const QStringList nbestLines = QString::fromUtf8(nbestRun.out).split(u'\n');
    int nbestAt = 0, checkedNodes = 0, finishedNodes = 0;
    for (qsizetype line = 0; line + 1 < inputs.size(); ++line) {
        const QJsonObject o = QJsonDocument::fromJson(trees.value(line)).object();
        QVERIFY2(o.contains(u"nodes"_s), trees.value(line).constData());
        const QJsonArray nodes = o[u"nodes"_s].toArray();
        const std::vector<int> src = codec.encodeSource(QString::fromUtf8(inputs[line])).ids;
        if (src.empty()) {
            QVERIFY(nodes.isEmpty());
            QCOMPARE(nbestLines.value(nbestAt++), QString());
            continue;
        }
        QCOMPARE(o[u"beam"_s].toInt(), k);
        // Each node's prefix, its token ids and the reference log-probabilities after it.
        std::vector<std::vector<int>> prefix(std::size_t(nodes.size()));
        std::map<int, std::vector<double>> after;  // by parent id
        std::map<int, int> keptOrFinished;
        struct Final {
            double score;
            bool finished;
            int id;
        };
        std::vector<Final> finals;
        for (qsizetype i = 0; i < nodes.size(); ++i) {
            const QJsonObject n = nodes[i].toObject();
            const QString at = u"line %1, node %2: "_s.arg(line + 1).arg(i);
            QCOMPARE(n[u"id"_s].toInt(), int(i));
            const int parent = n[u"parent"_s].toInt();
            const QString state = n[u"state"_s].toString();
            const int token = b->tgtVocab.id(n[u"token"_s].toString());
            if (i == 0) {
                QCOMPARE(parent, -1);
                QCOMPARE(token, kBos);
                continue;
            }
            QVERIFY(parent >= 0 && parent < i);
            QCOMPARE(nodes[parent].toObject()[u"state"_s].toString(), u"kept"_s);
            QCOMPARE(n[u"step"_s].toInt(), nodes[parent].toObject()[u"step"_s].toInt() + 1);
            if (state == u"finished"_s)
                QVERIFY2(token == kEos, qPrintable(at + u"finished without </s>"_s));
            else
                QVERIFY2(state == u"pruned"_s || (state == u"kept"_s && token != kEos), qPrintable(at + state));
            if (state != u"pruned"_s)
                keptOrFinished[n[u"step"_s].toInt()] += 1;
            prefix[std::size_t(i)] = prefix[std::size_t(parent)];
            prefix[std::size_t(i)].push_back(token);
            if (!after.count(parent)) {
                const std::vector<int>& p = prefix[std::size_t(parent)];
                const ForwardTrace t = traceForward(*b->model, src, p, {"log_probs"});
                const TraceTensor* lp = t.find("log_probs");
                after[parent].assign(lp->data.begin() + std::ptrdiff_t(p.size()) * V,
                                     lp->data.begin() + std::ptrdiff_t(p.size() + 1) * V);
            }
            double sum = 0;  // the path's reference log-probabilities
            for (int a = int(i); a > 0; a = nodes[a].toObject()[u"parent"_s].toInt())
                sum += after[nodes[a].toObject()[u"parent"_s].toInt()][std::size_t(prefix[std::size_t(a)].back())];
            // Float: the cached path against the full pass differs by rounding only.
            const double lp = n[u"log_prob"_s].toDouble(), expected = after[parent][std::size_t(token)];
            QVERIFY2(std::abs(lp - expected) <= 1e-4 * std::max(1.0, std::abs(expected)),
                     qPrintable(at + u"log_prob %1, the full pass %2"_s.arg(lp).arg(expected)));
            QVERIFY2(std::abs(n[u"score"_s].toDouble() - sum) <= 1e-4 * std::max(1.0, std::abs(sum)),
                     qPrintable(at + u"score %1, the path %2"_s.arg(n[u"score"_s].toDouble()).arg(sum)));
            ++checkedNodes;
            if (n.contains(u"final_score"_s))
                finals.push_back({n[u"final_score"_s].toDouble(), state == u"finished"_s, int(i)});
            finishedNodes += state == u"finished"_s;
        }
        for (const auto& [step, count] : keptOrFinished)
            QVERIFY2(count == k, qPrintable(u"line %1, step %2: %3 kept or finished"_s.arg(line + 1).arg(step).arg(count)));
        // The n-best read off the tree (§5.5) against --nbest's lines and the JSON's own list.
        std::sort(finals.begin(), finals.end(), [](const Final& a, const Final& c) {
            if (a.score != c.score)
                return a.score > c.score;
            return a.finished != c.finished ? a.finished : a.id < c.id;
        });
        const QJsonArray nbest = o[u"nbest"_s].toArray();
        QCOMPARE(nbest.size(), qsizetype(std::min<std::size_t>(finals.size(), std::size_t(k))));
        for (qsizetype r = 0; r < nbest.size(); ++r) {
            std::vector<int> ids = prefix[std::size_t(finals[std::size_t(r)].id)];
            if (finals[std::size_t(r)].finished)
                ids.pop_back();
            const QString translation = codec.decodeTarget(ids);
            const QString expected = u"%1\t%2\t%3"_s.arg(r + 1).arg(finals[std::size_t(r)].score, 0, 'f', 4).arg(translation);
            QCOMPARE(nbestLines.value(nbestAt++), expected);
            QCOMPARE(nbest[r].toObject()[u"translation"_s].toString(), translation);
            QCOMPARE(nbest[r].toObject()[u"score"_s].toDouble(), finals[std::size_t(r)].score);
        }
        QCOMPARE(nbestLines.value(nbestAt++), QString());
    }
    QVERIFY(checkedNodes > 50);
    QVERIFY(finishedNodes > 3);
}

void TestCliBeamTree::treeAndJsonOnlyTogether()
{
    for (const QStringList& extra : {QStringList{u"--tree"_s}, QStringList{u"--json"_s}}) {
        const test::ProcessRun r = test::runProgram(
            test::cliProgram(), QStringList{u"translate"_s, u"--threads"_s, u"1"_s, u"--model"_s, model_, u"--beam"_s, u"3"_s} + extra,
            QProcessEnvironment::systemEnvironment(), input_);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--tree") && r.err.contains("--json"), r.err.constData());
        QVERIFY(r.out.isEmpty());
    }
}

AS_TEST_GUILESS_MAIN(TestCliBeamTree)
#include "test_cli_beam_tree.moc"
