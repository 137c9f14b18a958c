// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Beam search's tree (core/SPEC.md §5.5) against an independent computation: every node's
// log_prob and score against the log-softmax of a full teacher-forced forward pass of its
// prefix (traceForward, in double), the states against the rules of §5.3 (k kept or finished
// per step, finished nodes end in </s>, pruned ones are never expanded), the length-penalised
// scores against lp of §5.1, and the n-best read off the tree against beamSearch's n-best; by
// both paths (cached and plain), on a trained and an untrained model. A control shows the
// check catches a score off by 1e-6, a wrong state and a wrong final score.
#include "skip.h"
#include "decode/decode.h"
#include "eval/trace.h"
#include "text/tasks.h"
#include "train/trainer.h"
#include "toy_model.h"

#include <QTest>

#include <cmath>
#include <map>

using namespace as;

namespace {

std::unique_ptr<Transformer<double>> asDouble(const Transformer<float>& f)
{
    auto m = std::make_unique<Transformer<double>>(f.config());
    m->params().valueVector() = f.params().valueVector().cast<double>();
    return m;
}

// The tokens after <s> on the path from the root to node id, the node's own token included.
std::vector<int> pathTo(const BeamTree& tree, int id)
{
    std::vector<int> out;
    for (int n = id; n > 0; n = tree.nodes[std::size_t(n)].parent)
        out.push_back(tree.nodes[std::size_t(n)].token);
    return {out.rbegin(), out.rend()};
}

bool close(double a, double b)
{
    return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b));
}

struct ReadHypothesis {
    std::vector<int> tokens;
    bool finished = false;
    double score = 0;
};

// The n-best list read off the tree as §5.5 says: the nodes with a final score, best first
// (ties: finished first, then by id), each read from the root down without </s>.
std::vector<ReadHypothesis> nbestOfTree(const BeamTree& tree, int nbest)
{
    std::vector<const BeamNode*> finals;
    for (const BeamNode& n : tree.nodes)
        if (n.final)
            finals.push_back(&n);
    std::sort(finals.begin(), finals.end(), [](const BeamNode* a, const BeamNode* b) {
        if (a->finalScore != b->finalScore)
            return a->finalScore > b->finalScore;
        const bool fa = a->state == BeamNode::State::Finished,
                   fb = b->state == BeamNode::State::Finished;
        return fa != fb ? fa : a->id < b->id;
    });
    std::vector<ReadHypothesis> out;
    for (int i = 0; i < nbest && i < int(finals.size()); ++i) {
        ReadHypothesis h;
        h.tokens = pathTo(tree, finals[std::size_t(i)]->id);
        h.finished = finals[std::size_t(i)]->state == BeamNode::State::Finished;
        if (h.finished)
            h.tokens.pop_back();
        h.score = finals[std::size_t(i)]->finalScore;
        out.push_back(std::move(h));
    }
    return out;
}

// What is wrong with the tree of a beam search of width k on src (empty: nothing). limit: the
// output length limit; ref: the same model in double, for the reference log-probabilities.
QString treeMismatch(Transformer<double>& ref, const std::vector<int>& src, const BeamTree& tree,
                     int k, int limit, double alpha)
{
    const auto& nodes = tree.nodes;
    if (nodes.empty() || nodes[0].parent != -1 || nodes[0].step != 0 || nodes[0].token != kBos
        || nodes[0].score != 0.0 || nodes[0].state != BeamNode::State::Kept)
        return QStringLiteral("no root <s>");
    if (tree.beam != k)
        return QStringLiteral("beam %1, not %2").arg(tree.beam).arg(k);
    // The reference: row |prefix| of the log-softmax of one teacher-forced pass of the prefix.
    std::map<int, std::vector<double>> nextLogProbs;  // by parent id
    const int V = ref.config().tgt_vocab;
    std::map<int, int> keptOrFinished, pruned, keptBefore;
    int lastStep = 0;
    for (std::size_t i = 1; i < nodes.size(); ++i) {
        const BeamNode& n = nodes[i];
        const QString at = QStringLiteral("node %1: ").arg(n.id);
        if (n.id != int(i) || n.parent < 0 || n.parent >= n.id)
            return at + QStringLiteral("id or parent out of order");
        const BeamNode& p = nodes[std::size_t(n.parent)];
        if (p.state != BeamNode::State::Kept)
            return at + QStringLiteral("its parent was not kept");
        if (n.step != p.step + 1 || n.step < lastStep)
            return at + QStringLiteral("step %1 after its parent's %2").arg(n.step).arg(p.step);
        lastStep = n.step;
        // Finished ones end in </s>, and </s> is never kept (a pruned </s> is one that lost).
        if ((n.state == BeamNode::State::Finished) != (n.token == kEos)
            && n.state != BeamNode::State::Pruned)
            return at + QStringLiteral("finished, but not </s> (or </s> kept)");
        if (n.token == kPad || n.token == kBos)
            return at + QStringLiteral("a forbidden token");
        if (!nextLogProbs.count(n.parent)) {
            const std::vector<int> prefix = pathTo(tree, n.parent);
            const ForwardTrace t = traceForward(ref, src, prefix, {"log_probs"});
            const TraceTensor* lp = t.find("log_probs");
            nextLogProbs[n.parent].assign(lp->data.begin() + std::ptrdiff_t(prefix.size()) * V,
                                          lp->data.begin() + std::ptrdiff_t(prefix.size() + 1) * V);
        }
        const double expected = nextLogProbs[n.parent][std::size_t(n.token)];
        if (!close(n.logProb, expected))
            return at + QStringLiteral("log_prob %1, a full pass gives %2").arg(n.logProb, 0, 'g', 17).arg(expected, 0, 'g', 17);
        // The cumulative score: the reference log-probabilities summed down the path.
        double sum = 0;
        for (int a = n.id; a > 0; a = nodes[std::size_t(a)].parent)
            sum += nextLogProbs[nodes[std::size_t(a)].parent][std::size_t(nodes[std::size_t(a)].token)];
        if (!close(n.score, sum))
            return at + QStringLiteral("score %1, the path sums to %2").arg(n.score, 0, 'g', 17).arg(sum, 0, 'g', 17);
        // Length-penalised scores: on finished nodes (|y| counts </s>) and on kept ones at the
        // limit, and nowhere else.
        const bool atLimit = n.state == BeamNode::State::Kept && n.step == limit;
        if (n.final != (n.state == BeamNode::State::Finished || atLimit))
            return at + QStringLiteral("final %1 in state %2").arg(n.final).arg(beamNodeStateName(n.state));
        if (n.final && !close(n.finalScore, n.score / std::pow((5.0 + n.step) / 6.0, alpha)))
            return at + QStringLiteral("final_score %1 is not score / lp").arg(n.finalScore);
        (n.state == BeamNode::State::Pruned ? pruned : keptOrFinished)[n.step] += 1;
        if (n.state == BeamNode::State::Kept)
            keptBefore[n.step] += 1;
    }
    // Every step: k kept or finished (the toy vocabulary offers more than 2k candidates), then
    // k pruned; a step follows only while something is kept.
    for (int s = 1; s <= lastStep; ++s) {
        if (keptOrFinished[s] != k || pruned[s] != k)
            return QStringLiteral("step %1: %2 kept or finished and %3 pruned, not %4 each")
                .arg(s).arg(keptOrFinished[s]).arg(pruned[s]).arg(k);
        if (s > 1 && keptBefore[s - 1] == 0)
            return QStringLiteral("step %1 follows a step that kept nothing").arg(s);
    }
    if (lastStep > limit)
        return QStringLiteral("steps past the limit %1").arg(limit);
    return {};
}

QString nbestMismatch(const BeamTree& tree, const DecodeResult& r, int nbest)
{
    const std::vector<ReadHypothesis> read = nbestOfTree(tree, nbest);
    if (read.size() != r.nbest.size())
        return QStringLiteral("%1 hypotheses read off the tree, the search gave %2")
            .arg(read.size()).arg(r.nbest.size());
    for (std::size_t i = 0; i < read.size(); ++i)
        if (read[i].tokens != r.nbest[i].tokens || read[i].finished != r.nbest[i].finished
            || read[i].score != r.nbest[i].score)
            return QStringLiteral("n-best %1 differs").arg(i + 1);
    return {};
}

}  // namespace

class TestBeamTree : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void treeAgainstFullPasses_data();
    void treeAgainstFullPasses();
    void theCheckCatchesAWrongTree();
    void noTreeNoNodes();

private:
    std::vector<std::vector<int>> sources(int count) const;

    Task task_;
    std::unique_ptr<Transformer<double>> trained_, random_;
};

void TestBeamTree::initTestCase()
{
    task_ = makeToyTask();
    trained_ = asDouble(test::trainedToyModel(task_)->model());
    ModelConfig c = test::toyModelConfig(task_);
    c.norm = NormPlacement::Post;
    random_ = std::make_unique<Transformer<double>>(c);
    Rng init(23);
    random_->initXavier(init);
}

std::vector<std::vector<int>> TestBeamTree::sources(int count) const
{
    std::vector<std::vector<int>> out;
    for (const TokenPair& ex : task_.examples)
        out.push_back(task_.srcVocab.encode(ex.src));
    Rng rng(5);
    for (int i = 0; i < count; ++i) {
        std::vector<int> s;
        for (int j = 0, n = 1 + int(rng.below(7)); j < n; ++j)
            s.push_back(4 + int(rng.below(std::uint64_t(task_.srcVocab.size() - 4))));
        out.push_back(s);
    }
    return out;
}

void TestBeamTree::treeAgainstFullPasses_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<bool>("cached");
    QTest::newRow("trained, cached") << "trained" << true;
    QTest::newRow("trained, plain") << "trained" << false;
    QTest::newRow("random post-norm, cached") << "random" << true;
    QTest::newRow("random post-norm, plain") << "random" << false;
}

void TestBeamTree::treeAgainstFullPasses()
{
    QFETCH(QString, model);
    QFETCH(bool, cached);
    Transformer<double>& m = model == "trained" ? *trained_ : *random_;
    QVERIFY(m.config().tgt_vocab - 2 > 2 * 5);  // more than 2k candidates at every step
    int nodes = 0, finals = 0, pruned = 0;
    for (const std::vector<int>& src : sources(4))
        for (int k : {1, 3, 5})
            for (int maxLen : {0, 4}) {  // the default limit, and one the search reaches
                DecodeOptions o;
                o.beam = o.nbest = k;
                o.cached = cached;
                o.maxLen = maxLen;
                o.tree = true;
                const DecodeResult r = beamSearch(m, src, o);
                const int limit = o.limitFor(int(src.size()), m.config().max_len);
                const QString what = QStringLiteral("k %1, limit %2: ").arg(k).arg(limit);
                QString bad = treeMismatch(m, src, r.tree, k, limit, o.alpha);
                QVERIFY2(bad.isEmpty(), qPrintable(what + bad));
                bad = nbestMismatch(r.tree, r, k);
                QVERIFY2(bad.isEmpty(), qPrintable(what + bad));
                // The search is the same without the tree.
                o.tree = false;
                const DecodeResult plain = beamSearch(m, src, o);
                QVERIFY(plain.tree.nodes.empty());
                QCOMPARE(plain.nbest.size(), r.nbest.size());
                for (std::size_t i = 0; i < r.nbest.size(); ++i) {
                    QCOMPARE(plain.nbest[i].tokens, r.nbest[i].tokens);
                    QCOMPARE(plain.nbest[i].score, r.nbest[i].score);
                }
                nodes += int(r.tree.nodes.size());
                for (const BeamNode& n : r.tree.nodes) {
                    finals += n.final;
                    pruned += n.state == BeamNode::State::Pruned;
                }
            }
    // The cases covered something: trees of many nodes, finished and pruned ones.
    QVERIFY(nodes > 500);
    QVERIFY(finals > 50);
    QVERIFY(pruned > 200);
}

// The control: the same check on trees changed by one thing each fails, naming it.
void TestBeamTree::theCheckCatchesAWrongTree()
{
    const std::vector<int> src = task_.srcVocab.encode(task_.examples[0].src);
    DecodeOptions o;
    o.beam = o.nbest = 3;
    o.tree = true;
    const DecodeResult r = beamSearch(*trained_, src, o);
    const int limit = o.limitFor(int(src.size()), trained_->config().max_len);
    QVERIFY(treeMismatch(*trained_, src, r.tree, 3, limit, o.alpha).isEmpty());
    QVERIFY(nbestMismatch(r.tree, r, 3).isEmpty());
    QVERIFY(r.tree.nodes.size() > 8);

    BeamTree t = r.tree;
    t.nodes[5].score += 1e-6;
    QVERIFY(treeMismatch(*trained_, src, t, 3, limit, o.alpha).contains("score"));
    t = r.tree;
    t.nodes[4].logProb -= 1e-6;
    QVERIFY(treeMismatch(*trained_, src, t, 3, limit, o.alpha).contains("log_prob"));
    t = r.tree;
    for (BeamNode& n : t.nodes)
        if (n.step == 1 && n.state == BeamNode::State::Pruned && n.token != kEos) {
            n.state = BeamNode::State::Kept;
            break;
        }
    const QString wrongState = treeMismatch(*trained_, src, t, 3, limit, o.alpha);
    QVERIFY2(wrongState.contains("kept or finished"), qPrintable(wrongState));
    // The best hypothesis's final score a little lower: the check of final scores and the
    // n-best read off the tree both fail.
    t = r.tree;
    BeamNode* best = nullptr;
    for (BeamNode& n : t.nodes)
        if (n.final && (!best || n.finalScore > best->finalScore))
            best = &n;
    QVERIFY(best);
    best->finalScore -= 1e-3;
    const QString bad = treeMismatch(*trained_, src, t, 3, limit, o.alpha);
    QVERIFY2(bad.contains("final_score"), qPrintable(bad));
    QVERIFY(!nbestMismatch(t, r, 3).isEmpty());
}

void TestBeamTree::noTreeNoNodes()
{
    DecodeOptions o;
    o.beam = 4;
    const DecodeResult r = beamSearch(*trained_, task_.srcVocab.encode(task_.examples[0].src), o);
    QVERIFY(r.tree.nodes.empty());
    QCOMPARE(r.tree.beam, 0);
}

AS_TEST_GUILESS_MAIN(TestBeamTree)
#include "test_beam_tree.moc"
