// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The beam-search tree of the Translate view (ui/beam_tree_view.h) on a trained toy model: the
// nodes drawn against the tree core's beam search makes (count, parents, steps, states, tokens;
// core/SPEC.md §5.5), and the cross-attention shown for a clicked node against an independent
// teacher-forced pass over that node's prefix (crossAttentionFor), every layer and head, for a
// kept, a finished and a pruned node. Controls: a record with a wrong parent, and one with a
// node's cross-attention swapped for another's, fail the same checks. The Translate view gets
// the tree with a beam translation (Translator) and draws none after a greedy one; the arrow
// keys move through the tree; a node's tool tip carries its log-probability and scores.
#include "skip.h"
#include "beam_tree_view.h"
#include "decode/translator.h"
#include "translate_view.h"
#include "toy_model.h"

#include <QLabel>
#include <QTest>

#include <cmath>

using namespace as;
using ui::BeamTreeDiagram;
using ui::BeamTreeView;

namespace {

QString stateName(BeamNode::State s)
{
    return beamNodeStateName(s);
}

// What differs between the drawn nodes and core's tree (empty: nothing).
QString treeMismatch(const BeamTreeDiagram& d, const BeamTree& tree, const Vocab& tgt)
{
    const auto& drawn = d.drawn();
    if (drawn.size() != tree.nodes.size())
        return QStringLiteral("%1 nodes drawn, %2 in the tree").arg(drawn.size()).arg(tree.nodes.size());
    for (std::size_t i = 0; i < drawn.size(); ++i) {
        const BeamNode& n = tree.nodes[i];
        const BeamTreeDiagram::Drawn& g = drawn[i];
        if (g.id != n.id || g.parent != n.parent)
            return QStringLiteral("node %1: parent %2 drawn, %3 in the tree").arg(i).arg(g.parent).arg(n.parent);
        if (g.state != n.state)
            return QStringLiteral("node %1: state %2 drawn, %3").arg(i).arg(stateName(g.state), stateName(n.state));
        if (g.token != tgt.token(n.token))
            return QStringLiteral("node %1: token %2 drawn, %3").arg(i).arg(g.token, tgt.token(n.token));
        // Steps run left to right: a node's column is its step's.
        if (n.parent >= 0 && !(g.rect.left() > drawn[std::size_t(n.parent)].rect.right()))
            return QStringLiteral("node %1 is not right of its parent").arg(i);
        for (std::size_t j = 0; j < drawn.size(); ++j)
            if ((tree.nodes[j].step == n.step) != (std::abs(drawn[j].rect.left() - g.rect.left()) < 0.5))
                return QStringLiteral("nodes %1 and %2: columns and steps disagree").arg(i).arg(j);
    }
    return {};
}

// The tokens after <s> on the path to node id, its own included.
std::vector<int> prefixOf(const BeamTree& tree, int id)
{
    std::vector<int> out;
    for (int n = id; n > 0; n = tree.nodes[std::size_t(n)].parent)
        out.push_back(tree.nodes[std::size_t(n)].token);
    return {out.rbegin(), out.rend()};
}

}  // namespace

class TestUiBeamTree : public QObject {
    Q_OBJECT
    Task task_;
    std::unique_ptr<Trainer> trainer_;
    std::vector<int> src_;
    QStringList srcTokens_;
    BeamTree tree_;  // core's, searched apart from the record

    std::shared_ptr<BeamTreeRecord> makeRecord()
    {
        DecodeOptions o;
        o.beam = 3;
        return std::make_shared<BeamTreeRecord>(
            makeBeamTreeRecord(trainer_->model(), task_.tgtVocab, srcTokens_, src_, o));
    }

    // What differs between the cross-attention the view shows for node id (clicked) and a
    // teacher-forced pass over its prefix, every layer and head (empty: nothing).
    QString crossMismatch(BeamTreeView& v, int id)
    {
        const QRectF r = v.diagram()->drawn()[std::size_t(id)].rect;
        QTest::mouseClick(v.diagram(), Qt::LeftButton, {}, r.center().toPoint());
        if (v.selectedNode() != id)
            return QStringLiteral("node %1 not selected by its click").arg(id);
        const std::vector<int> prefix = prefixOf(tree_, id);
        const CrossAttention ca = crossAttentionFor(trainer_->model(), src_, prefix, false);
        if (v.crossRows() != int(prefix.size()) || v.crossCols() != int(src_.size()))
            return QStringLiteral("node %1: %2×%3 shown, prefix %4×%5")
                .arg(id).arg(v.crossRows()).arg(v.crossCols()).arg(prefix.size()).arg(src_.size());
        for (int l = 0; l < ca.layers; ++l)
            for (int h = 0; h < ca.heads; ++h) {
                v.setLayer(l);
                v.setHead(h);
                for (int t = 0; t < ca.steps; ++t) {
                    if (v.crossRowLabels().value(t) != task_.tgtVocab.token(prefix[std::size_t(t)]))
                        return QStringLiteral("node %1: row %2 labelled %3").arg(id).arg(t).arg(v.crossRowLabels().value(t));
                    for (int s = 0; s < ca.srcLen; ++s)
                        if (std::abs(v.crossCell(t, s) - double(ca.at(l, h, t, s))) > 1e-6)
                            return QStringLiteral("node %1, layer %2, head %3, row %4, source %5: %6 shown, %7")
                                .arg(id).arg(l).arg(h).arg(t).arg(s).arg(v.crossCell(t, s)).arg(ca.at(l, h, t, s));
                }
            }
        return {};
    }

    int firstOf(BeamNode::State state, int minStep) const
    {
        for (const BeamNode& n : tree_.nodes)
            if (n.state == state && n.step >= minStep)
                return n.id;
        return -1;
    }

private slots:
    void initTestCase()
    {
        task_ = makeToyTask();
        trainer_ = test::trainedToyModel(task_);
        srcTokens_ = task_.examples[0].src;
        src_ = task_.srcVocab.encode(task_.examples[0].src);
        QCOMPARE(int(src_.size()), int(srcTokens_.size()));
        DecodeOptions o;
        o.beam = 3;
        o.tree = true;
        tree_ = beamSearch(trainer_->model(), src_, o).tree;
        QVERIFY(tree_.nodes.size() > 7);
    }

    void nodesAreTheTree()
    {
        BeamTreeView v;
        v.resize(900, 700);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        auto record = makeRecord();
        v.setRecord(record);
        const QString bad = treeMismatch(*v.diagram(), tree_, task_.tgtVocab);
        QVERIFY2(bad.isEmpty(), qPrintable(bad));
        // The best path is the n-best's first hypothesis, selected at first.
        QVERIFY(!record->best.empty());
        QCOMPARE(v.selectedNode(), record->best.back());
        QVERIFY(v.diagram()->drawn()[std::size_t(record->best.back())].best);

        // A wrong parent fails the check.
        auto wrong = std::make_shared<BeamTreeRecord>(*record);
        const int deep = firstOf(BeamNode::State::Kept, 2);
        QVERIFY(deep > 0);
        wrong->nodes[std::size_t(deep)].parent = 0;
        v.setRecord(wrong);
        QVERIFY(treeMismatch(*v.diagram(), tree_, task_.tgtVocab).contains(QStringLiteral("parent")));
    }

    void clickedNodeShowsItsPrefixCrossAttention()
    {
        BeamTreeView v;
        v.resize(900, 700);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        auto record = makeRecord();
        v.setRecord(record);
        const int kept = firstOf(BeamNode::State::Kept, 2);
        const int finished = firstOf(BeamNode::State::Finished, 1);
        const int pruned = firstOf(BeamNode::State::Pruned, 2);
        QVERIFY(kept > 0 && finished > 0 && pruned > 0);
        for (int id : {kept, finished, pruned}) {
            const QString bad = crossMismatch(v, id);
            QVERIFY2(bad.isEmpty(), qPrintable(bad));
        }
        // The root has no row of its own.
        QTest::mouseClick(v.diagram(), Qt::LeftButton, {}, v.diagram()->drawn()[0].rect.center().toPoint());
        QCOMPARE(v.crossRows(), 0);

        // Node i's attention given for node j (parents at different places) fails the check.
        auto wrong = std::make_shared<BeamTreeRecord>(*record);
        int other = -1;
        for (const BeamNode& n : tree_.nodes)
            if (n.step == tree_.nodes[std::size_t(pruned)].step && n.parent != tree_.nodes[std::size_t(pruned)].parent)
                other = n.id;
        QVERIFY(other > 0);
        std::swap(wrong->cross[std::size_t(pruned)], wrong->cross[std::size_t(other)]);
        v.setRecord(wrong);
        QVERIFY(crossMismatch(v, pruned).contains(QStringLiteral("shown")));
    }

    void keysAndToolTips()
    {
        BeamTreeView v;
        v.resize(900, 700);
        v.show();
        QVERIFY(QTest::qWaitForWindowExposed(&v));
        auto record = makeRecord();
        v.setRecord(record);
        const int node = firstOf(BeamNode::State::Kept, 2);
        v.selectNode(node);
        QTest::keyClick(v.diagram(), Qt::Key_Left);
        QCOMPARE(v.selectedNode(), tree_.nodes[std::size_t(node)].parent);
        QTest::keyClick(v.diagram(), Qt::Key_Right);
        QCOMPARE(tree_.nodes[std::size_t(v.selectedNode())].parent, tree_.nodes[std::size_t(node)].parent);
        QCOMPARE(v.crossRows(), tree_.nodes[std::size_t(node)].step);
        const BeamNode& n = tree_.nodes[std::size_t(node)];
        const QString tip = v.diagram()->toolTipOf(node);
        QVERIFY2(tip.contains(QString::number(n.logProb, 'f', 3)) && tip.contains(QString::number(n.score, 'f', 3)),
                 qPrintable(tip));
        const int fin = firstOf(BeamNode::State::Finished, 1);
        QVERIFY(v.diagram()->toolTipOf(fin).contains(QString::number(tree_.nodes[std::size_t(fin)].finalScore, 'f', 3)));
    }

    void translateViewShowsTheTreeOfABeamTranslation()
    {
        auto model = std::make_shared<Transformer<float>>(trainer_->model().config());
        model->params().valueVector() = trainer_->model().params().valueVector();
        Translator translator(model, 200, task_.srcVocab, task_.tgtVocab, task_.srcTokenizer, task_.tgtTokenizer);
        TranslationOptions o;
        o.beam = true;
        o.k = 3;
        o.nbest = 2;
        auto r = std::make_shared<TranslationRecord>(translator.translate(task_.examples[0].src.join(QLatin1Char(' ')), o));
        QVERIFY(r->ok());
        ui::TranslateView view;
        view.resize(1400, 900);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.showRecord(r);
        view.showBeamTree();
        QVERIFY(view.beamTreeView()->record());
        const QString bad = treeMismatch(*view.beamTreeView()->diagram(), tree_, task_.tgtVocab);
        QVERIFY2(bad.isEmpty(), qPrintable(bad));
        // The best path ends where the n-best's first hypothesis does.
        const std::vector<int>& best = view.beamTreeView()->record()->best;
        QStringList tokens;
        for (int id : best)
            if (id > 0 && tree_.nodes[std::size_t(id)].token != Vocab::kEos)
                tokens << task_.tgtVocab.token(tree_.nodes[std::size_t(id)].token);
        QCOMPARE(tokens, r->nbest.front().tokens);

        o.beam = false;
        view.showRecord(std::make_shared<TranslationRecord>(translator.translate(task_.examples[0].src.join(QLatin1Char(' ')), o)));
        QVERIFY(!view.beamTreeView()->record());
        QVERIFY(view.beamTreeView()->diagram()->drawn().empty());
    }
};

AS_TEST_MAIN(TestUiBeamTree)
#include "test_ui_beam_tree.moc"
