// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The Model view fed a traced pass by hand (a model with random weights, pre- and post-norm):
// the diagram holds the blocks the configuration has, in the paper's order, with LayerNorm where
// `norm` puts it; clicking a block (or the arrow keys) shows its tensors. The attention panel's
// maps are checked against each other by the formulas they show, computed here by loops from
// the plotted cells: scores = Q Kᵀ / √d_k (masked cells drawn as no number), weights = the
// row softmax of the scores (0 where masked), and the head's context = weights · V; so a map of
// the wrong head, layer, orientation or tensor fails. The generator's columns are the top tokens
// with exp(log_probs), each row's largest at the generator's argmax.
#include "skip.h"
#include "model_view.h"

#include "eval/trace.h"
#include "model/rng.h"
#include "model/transformer.h"

#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtTest>

#include <cmath>

using namespace as;
using namespace as::ui;

namespace {

std::shared_ptr<const TraceRecord> traced(NormPlacement norm)
{
    ModelConfig c;
    c.src_vocab = 19;
    c.tgt_vocab = 23;
    c.d_model = 16;
    c.heads = 2;
    c.d_ff = 24;
    c.encoder_layers = 2;
    c.decoder_layers = 2;
    c.max_len = 32;
    c.norm = norm;
    Transformer<float> m(c);
    Rng rng(5);
    m.initXavier(rng);
    auto r = std::make_shared<TraceRecord>();
    r->step = 7;
    r->config = c;
    const std::vector<int> src{4, 5, 6, 7, 8}, tgt{9, 10, 11};
    r->trace = traceForward(m, src, tgt);
    for (int id : src)
        r->srcTokens << QStringLiteral("s%1").arg(id);
    for (int id : r->trace.decoderInput)
        r->tgtTokens << QStringLiteral("t%1").arg(id);
    for (int id : r->trace.output)
        r->outTokens << QStringLiteral("t%1").arg(id);
    r->topTokens = topTraceTokens(*r->trace.find("log_probs"), 6);
    for (int id : r->topTokens)
        r->topLabels << QStringLiteral("t%1").arg(id);
    return r;
}

std::vector<ModelBlock> boxes(const ArchitectureDiagram& d)
{
    std::vector<ModelBlock> out;
    for (const ArchitectureDiagram::Drawn& x : d.drawn())
        if (!x.text && !x.normPart)
            out.push_back(x.block);
    return out;
}

bool isEncoderColumn(ModelBlock b)
{
    return b <= ModelBlock::EncNorm;
}

int normParts(const ArchitectureDiagram& d)
{
    int n = 0;
    for (const ArchitectureDiagram::Drawn& x : d.drawn())
        n += x.normPart;
    return n;
}

}  // namespace

class TestUiModelView : public QObject {
    Q_OBJECT
private slots:
    void diagramFollowsTheConfiguration();
    void attentionMapsAgreeWithTheirFormulas_data();
    void attentionMapsAgreeWithTheirFormulas();
    void headAndLayerChooseTheSlice();
    void generatorColumnsAreTheTopTokens();
    void keysAndTheAttentionLink();
};

void TestUiModelView::diagramFollowsTheConfiguration()
{
    ModelView v;
    v.resize(1200, 800);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    using B = ModelBlock;
    v.setRecord(traced(NormPlacement::Post));
    // Post-norm: Add & Norm after each sublayer, no final LayerNorm, no separate norm boxes.
    QCOMPARE(boxes(*v.diagram()), (std::vector<B>{B::SrcEmbed, B::SrcPosition, B::EncSelf, B::EncSelfAdd, B::EncFF,
                                                  B::EncFFAdd, B::TgtEmbed, B::TgtPosition, B::DecSelf, B::DecSelfAdd,
                                                  B::DecCross, B::DecCrossAdd, B::DecFF, B::DecFFAdd, B::Generator,
                                                  B::Softmax}));
    QCOMPARE(normParts(*v.diagram()), 0);
    for (const ArchitectureDiagram::Drawn& d : v.diagram()->drawn())
        if (d.block == B::EncSelfAdd && !d.text)
            QCOMPARE(d.label, QStringLiteral("Add & Norm"));
    // Pre-norm: a LayerNorm before each of the 5 sublayers, and a final one per stack.
    v.setRecord(traced(NormPlacement::Pre));
    QCOMPARE(boxes(*v.diagram()), (std::vector<B>{B::SrcEmbed, B::SrcPosition, B::EncSelf, B::EncSelfAdd, B::EncFF,
                                                  B::EncFFAdd, B::EncNorm, B::TgtEmbed, B::TgtPosition, B::DecSelf,
                                                  B::DecSelfAdd, B::DecCross, B::DecCrossAdd, B::DecFF, B::DecFFAdd,
                                                  B::DecNorm, B::Generator, B::Softmax}));
    QCOMPARE(normParts(*v.diagram()), 5);
    // Bottom-up: each box of a column above the one before it, none overlapping.
    const std::vector<ArchitectureDiagram::Drawn>& drawn = v.diagram()->drawn();
    for (std::size_t i = 1; i < drawn.size(); ++i)
        if (isEncoderColumn(drawn[i].block) == isEncoderColumn(drawn[i - 1].block))
            QVERIFY2(drawn[i].rect.bottom() <= drawn[i - 1].rect.top() + 0.01, qPrintable(drawn[i].label));
    for (const ArchitectureDiagram::Drawn& d : drawn)
        QVERIFY2(v.diagram()->rect().contains(d.rect.toRect()), qPrintable(d.label));
    // A click selects.
    QTest::mouseClick(v.diagram(), Qt::LeftButton, {}, v.diagram()->rectOf(B::DecFF).center().toPoint());
    QCOMPARE(v.block(), B::DecFF);
    QCOMPARE(v.plotCount(), 2);  // ReLU(x W1 + b1), then W2
    QCOMPARE(v.map(0).cols, 24);
    QCOMPARE(v.map(1).cols, 16);
    QVERIFY2(v.formula().contains(QStringLiteral("4×16 → 4×24 → 4×16")), qPrintable(v.formula()));
}

void TestUiModelView::attentionMapsAgreeWithTheirFormulas_data()
{
    QTest::addColumn<int>("norm");
    QTest::addColumn<int>("block");
    for (NormPlacement n : {NormPlacement::Pre, NormPlacement::Post})
        for (ModelBlock b : {ModelBlock::EncSelf, ModelBlock::DecSelf, ModelBlock::DecCross})
            QTest::addRow("%s %s", n == NormPlacement::Pre ? "pre" : "post", qPrintable(modelBlockName(b)))
                << int(n) << int(b);
}

void TestUiModelView::attentionMapsAgreeWithTheirFormulas()
{
    QFETCH(int, norm);
    QFETCH(int, block);
    ModelView v;
    v.resize(1200, 800);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    v.setRecord(traced(NormPlacement(norm)));
    const ModelBlock b = ModelBlock(block);
    QTest::mouseClick(v.diagram(), Qt::LeftButton, {}, v.diagram()->rectOf(b).center().toPoint());
    QCOMPARE(v.block(), b);
    v.setLayer(1);
    v.setHead(1);
    QCOMPARE(v.plotCount(), 6);
    const Heatmap &q = v.map(0), &k = v.map(1), &val = v.map(2), &scores = v.map(3), &weights = v.map(4),
                  &context = v.map(5);
    const int dk = 8;
    const int nq = b == ModelBlock::EncSelf ? 5 : 4, nk = b == ModelBlock::DecSelf ? 4 : 5;
    QCOMPARE(q.rows, nq);
    QCOMPARE(q.cols, dk);
    QCOMPARE(k.rows, nk);
    QCOMPARE(val.rows, nk);
    QCOMPARE(scores.rows, nq);
    QCOMPARE(scores.cols, nk);
    QCOMPARE(context.cols, dk);
    QCOMPARE(v.colLabels(3), b == ModelBlock::DecSelf ? v.record()->tgtTokens : v.record()->srcTokens);
    QVERIFY2(v.formula().contains(QStringLiteral("head 2 = softmax(Q Kᵀ / √8")), qPrintable(v.formula()));
    QCOMPARE(v.formula().contains(QStringLiteral("causal mask")), b == ModelBlock::DecSelf);
    int masked = 0;
    for (int i = 0; i < nq; ++i) {
        double max = -1e300;
        std::vector<double> s(static_cast<std::size_t>(nk));
        for (int j = 0; j < nk; ++j) {
            double dot = 0;
            for (int x = 0; x < dk; ++x)
                dot += heatmapCell(q, i, x) * heatmapCell(k, j, x);
            s[std::size_t(j)] = dot / std::sqrt(double(dk));
            const double shown = heatmapCell(scores, i, j);
            const bool future = b == ModelBlock::DecSelf && j > i;  // the causal mask
            if (future) {
                QVERIFY2(std::isnan(shown), qPrintable(QStringLiteral("(%1, %2) not masked").arg(i).arg(j)));
                ++masked;
                continue;
            }
            QVERIFY2(std::abs(shown - s[std::size_t(j)]) < 1e-4 * (1 + std::abs(shown)),
                     qPrintable(QStringLiteral("score (%1, %2): shown %3, Q Kᵀ/√d_k %4").arg(i).arg(j).arg(shown).arg(s[std::size_t(j)])));
            max = std::max(max, s[std::size_t(j)]);
        }
        double z = 0;
        for (int j = 0; j < nk; ++j)
            if (!(b == ModelBlock::DecSelf && j > i))
                z += std::exp(s[std::size_t(j)] - max);
        std::vector<double> p(static_cast<std::size_t>(nk), 0.0);
        for (int j = 0; j < nk; ++j) {
            if (!(b == ModelBlock::DecSelf && j > i))
                p[std::size_t(j)] = std::exp(s[std::size_t(j)] - max) / z;
            QVERIFY2(std::abs(heatmapCell(weights, i, j) - p[std::size_t(j)]) < 1e-5,
                     qPrintable(QStringLiteral("weight (%1, %2)").arg(i).arg(j)));
        }
        for (int x = 0; x < dk; ++x) {
            double c = 0;
            for (int j = 0; j < nk; ++j)
                c += p[std::size_t(j)] * heatmapCell(val, j, x);
            QVERIFY2(std::abs(heatmapCell(context, i, x) - c) < 1e-4 * (1 + std::abs(c)),
                     qPrintable(QStringLiteral("context (%1, %2)").arg(i).arg(x)));
        }
    }
    QCOMPARE(masked, b == ModelBlock::DecSelf ? nq * (nq - 1) / 2 : 0);
}

void TestUiModelView::headAndLayerChooseTheSlice()
{
    ModelView v;
    v.resize(1200, 800);
    v.show();
    v.setRecord(traced(NormPlacement::Pre));
    v.selectBlock(ModelBlock::EncSelf);
    const TraceRecord& r = *v.record();
    for (int layer : {0, 1})
        for (int head : {0, 1}) {
            v.setLayer(layer);
            v.setHead(head);
            const TraceTensor* t = r.trace.find("encoder." + std::to_string(layer) + ".self.v");
            QVERIFY(t);
            // V of head h: H×S×d_k, row-major.
            for (int i = 0; i < 5; ++i)
                for (int x = 0; x < 8; ++x)
                    QCOMPARE(heatmapCell(v.map(2), i, x), t->data[std::size_t((head * 5 + i) * 8 + x)]);
            QVERIFY(v.title().endsWith(QStringLiteral("layer %1").arg(layer + 1)));
        }
    // The spin boxes are the same choice.
    auto* headBox = v.findChildren<QSpinBox*>().at(1);
    headBox->setValue(1);
    QCOMPARE(v.head(), 0);
    // Blocks outside the layers ignore the layer; the embedding shows its rows × √d_model.
    v.selectBlock(ModelBlock::SrcEmbed);
    QCOMPARE(v.plotCount(), 1);
    QCOMPARE(v.rowLabels(0), r.srcTokens);
    QVERIFY2(v.formula().contains(QStringLiteral("√16 : 5×16")), qPrintable(v.formula()));
    // Positional encoding: input − embedding is sin/cos of the position (core/SPEC.md §2.2).
    v.selectBlock(ModelBlock::SrcPosition);
    QCOMPARE(v.plotCount(), 2);
    for (int pos = 0; pos < 5; ++pos)
        for (int i = 0; i < 8; ++i) {
            const double angle = pos / std::pow(10000.0, 2.0 * i / 16);
            QVERIFY(std::abs(heatmapCell(v.map(0), pos, 2 * i) - std::sin(angle)) < 1e-5);
            QVERIFY(std::abs(heatmapCell(v.map(0), pos, 2 * i + 1) - std::cos(angle)) < 1e-5);
        }
    // A post-norm model has no final LayerNorm: selecting it keeps the selection.
    v.setRecord(traced(NormPlacement::Post));
    v.selectBlock(ModelBlock::DecFF);
    v.selectBlock(ModelBlock::DecNorm);
    QCOMPARE(v.block(), ModelBlock::DecFF);
}

void TestUiModelView::generatorColumnsAreTheTopTokens()
{
    ModelView v;
    v.resize(1200, 800);
    v.show();
    v.setRecord(traced(NormPlacement::Pre));
    v.selectBlock(ModelBlock::Softmax);
    const TraceRecord& r = *v.record();
    QCOMPARE(v.plotCount(), 1);
    QCOMPARE(v.colLabels(0), r.topLabels);
    QCOMPARE(v.rowLabels(0), r.tgtTokens);
    const TraceTensor* lp = r.trace.find("log_probs");
    const int V = lp->shape[1];
    for (int t = 0; t < 4; ++t) {
        // By hand: the argmax over the whole vocabulary, and each shown column's probability.
        int arg = 0;
        for (int y = 1; y < V; ++y)
            if (lp->data[std::size_t(t * V + y)] > lp->data[std::size_t(t * V + arg)])
                arg = y;
        QCOMPARE(r.trace.output[std::size_t(t)], arg);
        const auto at = std::find(r.topTokens.begin(), r.topTokens.end(), arg);
        QVERIFY(at != r.topTokens.end());
        for (int c = 0; c < int(r.topTokens.size()); ++c)
            QVERIFY(std::abs(heatmapCell(v.map(0), t, c) - std::exp(lp->data[std::size_t(t * V + r.topTokens[std::size_t(c)])])) < 1e-9);
    }
    QVERIFY2(v.formula().contains(r.outTokens.join(' ')), qPrintable(v.formula()));
    v.selectBlock(ModelBlock::Generator);
    const TraceTensor* logits = r.trace.find("logits");
    QCOMPARE(heatmapCell(v.map(0), 2, 1), logits->data[std::size_t(2 * V + r.topTokens[1])]);
}

void TestUiModelView::keysAndTheAttentionLink()
{
    ModelView v;
    v.resize(1200, 800);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    v.setRecord(traced(NormPlacement::Post));
    v.selectBlock(ModelBlock::DecSelf);
    v.diagram()->setFocus();
    QTest::keyClick(v.diagram(), Qt::Key_Up);  // the data flows up: the residual after it
    QCOMPARE(v.block(), ModelBlock::DecSelfAdd);
    QTest::keyClick(v.diagram(), Qt::Key_Up);
    QCOMPARE(v.block(), ModelBlock::DecCross);
    QTest::keyClick(v.diagram(), Qt::Key_Down);
    QTest::keyClick(v.diagram(), Qt::Key_Up);
    QCOMPARE(v.block(), ModelBlock::DecCross);
    v.setLayer(1);
    v.setHead(1);
    QSignalSpy asked(&v, &ModelView::attentionRequested);
    QPushButton* button = nullptr;
    for (QPushButton* b : v.findChildren<QPushButton*>())
        if (b->text().contains(QStringLiteral("Attention view")))
            button = b;
    QVERIFY(button && button->isEnabled());
    button->click();
    QCOMPARE(asked.size(), 1);
    const HeadId id = asked.first().first().value<HeadId>();
    QVERIFY((id == HeadId{AttentionKind::Cross, 1, 1}));
    v.selectBlock(ModelBlock::DecFF);
    QVERIFY(!button->isEnabled());
    // Without a record: a hint, no maps.
    v.reset();
    QCOMPARE(v.plotCount(), 0);
}

AS_TEST_MAIN(TestUiModelView)
#include "test_ui_model_view.moc"
