// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The Decoding view (ui/decoding_view.h) fed a record made by hand: the decoder's input and the
// token fed back at each step, the top-k bars, the causal self-attention with its masked cells,
// the cross-attention of the new position, the logit lens table, Step / Back / Run / the slider
// / the keys, the teacher-forced column beside the free-running one and the step where they
// part marked; without a reference, one column and no marker.
#include "skip.h"
#include "decoding_view.h"

#include <QAction>
#include <QLabel>
#include <QSlider>
#include <QTableWidget>
#include <QTest>

#include <cmath>

using namespace as;
using ui::DecodingView;

namespace {

constexpr int kLayers = 2, kHeads = 2;
const QStringList kSource{QStringLiteral("x"), QStringLiteral("y"), QStringLiteral("z")};

// The cross weight of a step's layer, head and source token: distinct for each.
float crossValue(int step, int layer, int head, int src)
{
    return 0.01f * float(step) + 0.1f * float(layer) + 0.2f * float(head) + 0.05f * float(src);
}

// A run feeding `fed` (its last is </s>), each step's top candidates `top` with probabilities
// 0.6, 0.2, 0.1 (the fed token, when not among them, at 0.05), the lens of layer l "L<l>".
DecodingRun makeRun(const QStringList& fed, const std::vector<QStringList>& top)
{
    DecodingRun r;
    r.finished = true;
    r.input = QStringList{QStringLiteral("<s>")} + fed.mid(0, fed.size() - 1);
    const int T = int(r.input.size());
    for (int t = 0; t < T; ++t) {
        DecodingStep s;
        const double probs[] = {0.6, 0.2, 0.1};
        for (int i = 0; i < int(top[std::size_t(t)].size()); ++i)
            s.top.push_back({10 + i, top[std::size_t(t)][i], probs[i]});
        s.predicted = s.top.front();
        s.fed = {20 + t, fed[t], 0.05};
        for (const TokenProbability& p : s.top)
            if (p.token == fed[t])
                s.fed = p;
        for (int l = 0; l < kLayers; ++l)
            for (int h = 0; h < kHeads; ++h)
                for (int j = 0; j < int(kSource.size()); ++j)
                    s.cross.push_back(crossValue(t, l, h, j));
        for (int l = 0; l < kLayers; ++l)
            s.lens.push_back({30 + l, QStringLiteral("L%1").arg(l), l + 1 == kLayers ? 0.6 : 0.3});
        r.steps.push_back(s);
    }
    for (int l = 0; l < kLayers; ++l)
        for (int h = 0; h < kHeads; ++h)
            for (int q = 0; q < T; ++q)
                for (int k = 0; k < T; ++k)
                    r.self.push_back(k > q ? 0.0f : 1.0f / float(q + 1));
    return r;
}

std::shared_ptr<DecodingRecord> makeRecord(bool withReference)
{
    auto r = std::make_shared<DecodingRecord>();
    r->step = 42;
    r->layers = kLayers;
    r->heads = kHeads;
    r->topK = 3;
    r->source = kSource;
    // Free-running: A B </s>; teacher-forced on "A C D": they part at step 2 (index 1).
    r->free = makeRun({"A", "B", "</s>"}, {{"A", "B", "C"}, {"B", "C", "A"}, {"</s>", "B", "A"}});
    if (withReference) {
        r->hasReference = true;
        r->reference = QStringList{"A", "C", "D"};
        r->forced = makeRun({"A", "C", "D", "</s>"},
                            {{"A", "B", "C"}, {"B", "C", "A"}, {"B", "D", "A"}, {"</s>", "D", "A"}});
        r->divergence = 1;
    }
    return r;
}

}  // namespace

class TestUiDecoding : public QObject {
    Q_OBJECT
private slots:
    void emptyShowsWhatToDo();
    void stepsThroughTheRecord();
    void keysAndRun();
    void withoutReference();
};

void TestUiDecoding::emptyShowsWhatToDo()
{
    DecodingView v;
    v.resize(1300, 850);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    QCOMPARE(v.stepCount(), 0);
    QVERIFY(!v.stepAction()->isEnabled());
    QVERIFY(!v.backAction()->isEnabled());
    QVERIFY(!v.runAction()->isEnabled());
    QVERIFY(v.inputTokens(DecodingView::FreeRunning).isEmpty());
    QVERIFY(!v.divergenceLabel()->isVisible());
    QVERIFY(!v.lensTable(DecodingView::FreeRunning)->isVisible());
}

void TestUiDecoding::stepsThroughTheRecord()
{
    DecodingView v;
    v.resize(1300, 850);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    v.setRecord(makeRecord(true));
    QCOMPARE(v.stepCount(), 4);  // the longer run: the reference's three tokens and </s>
    QCOMPARE(v.step(), 0);
    QVERIFY(v.sideShown(DecodingView::TeacherForced));
    QVERIFY(v.lensTable(DecodingView::TeacherForced)->isVisible());
    QCOMPARE(v.stepLabel()->text(), QStringLiteral("step 1 of 4"));

    // Step 1: <s> read, A chosen by both.
    QCOMPARE(v.inputTokens(DecodingView::FreeRunning), QStringList{"<s>"});
    QCOMPARE(v.fedToken(DecodingView::FreeRunning), QStringLiteral("A"));
    QCOMPARE(v.topTokens(DecodingView::FreeRunning), (QStringList{"A", "B", "C"}));
    QCOMPARE(v.topProbabilities(DecodingView::FreeRunning), (std::vector<double>{0.6, 0.2, 0.1}));
    QCOMPARE(v.selfWeight(DecodingView::FreeRunning, 0, 0), 1.0);
    QVERIFY(v.chosenLabel(DecodingView::FreeRunning)->text().contains(QStringLiteral("<b>A</b>")));

    // The divergence is marked, with both tokens.
    QVERIFY(v.divergenceLabel()->isVisible());
    const QString marker = v.divergenceLabel()->text();
    QVERIFY2(marker.contains(QStringLiteral("step 2")) && marker.contains(QStringLiteral("<b>B</b>"))
                 && marker.contains(QStringLiteral("<b>C</b>")),
             qPrintable(marker));

    // Step 2 (Step): the input grows, the mask with it; the runs feed different tokens.
    v.stepAction()->trigger();
    QCOMPARE(v.step(), 1);
    QCOMPARE(v.slider()->value(), 1);
    QCOMPARE(v.inputTokens(DecodingView::FreeRunning), (QStringList{"<s>", "A"}));
    QCOMPARE(v.inputTokens(DecodingView::TeacherForced), (QStringList{"<s>", "A"}));
    QCOMPARE(v.fedToken(DecodingView::FreeRunning), QStringLiteral("B"));
    QCOMPARE(v.fedToken(DecodingView::TeacherForced), QStringLiteral("C"));
    QVERIFY(std::isnan(v.selfWeight(DecodingView::FreeRunning, 0, 1)));  // masked: a later token
    QCOMPARE(v.selfWeight(DecodingView::FreeRunning, 1, 0), 0.5);
    QCOMPARE(v.selfWeight(DecodingView::FreeRunning, 1, 1), 0.5);
    QVERIFY(v.chosenLabel(DecodingView::TeacherForced)->text().contains(QStringLiteral("<b>C</b>")));
    // The token fed back where the runs part is underlined in both columns.
    QVERIFY(v.inputLabel(DecodingView::FreeRunning)->text().contains(QStringLiteral("<u>B</u>")));
    QVERIFY(v.inputLabel(DecodingView::TeacherForced)->text().contains(QStringLiteral("<u>C</u>")));
    for (int h = 0; h < kHeads; ++h)
        for (int j = 0; j < int(kSource.size()); ++j)
            QCOMPARE(v.crossWeight(DecodingView::FreeRunning, h, j), double(crossValue(1, 0, h, j)));
    v.setLayer(1);
    QCOMPARE(v.crossWeight(DecodingView::TeacherForced, 1, 2), double(crossValue(1, 1, 1, 2)));

    // The lens: layers × positions so far.
    QTableWidget* lens = v.lensTable(DecodingView::FreeRunning);
    QCOMPARE(lens->rowCount(), kLayers);
    QCOMPARE(lens->columnCount(), 2);
    QCOMPARE(lens->horizontalHeaderItem(1)->text(), QStringLiteral("A"));
    QCOMPARE(lens->item(0, 1)->text(), QStringLiteral("L0 0.30"));
    QCOMPARE(lens->item(1, 0)->text(), QStringLiteral("L1 0.60"));

    // Step 3 by the slider: the teacher-forced top-3 lacks nothing; the free run ends.
    v.slider()->setValue(2);
    QCOMPARE(v.step(), 2);
    QCOMPARE(v.fedToken(DecodingView::FreeRunning), QStringLiteral("</s>"));
    QCOMPARE(v.fedToken(DecodingView::TeacherForced), QStringLiteral("D"));
    QCOMPARE(v.topTokens(DecodingView::TeacherForced), (QStringList{"B", "D", "A"}));
    // Step 4: the free run stays at its last step; the reference feeds </s>.
    v.stepAction()->trigger();
    QCOMPARE(v.step(), 3);
    QVERIFY(!v.stepAction()->isEnabled());
    QCOMPARE(v.inputTokens(DecodingView::FreeRunning), (QStringList{"<s>", "A", "B"}));
    QCOMPARE(v.inputTokens(DecodingView::TeacherForced), (QStringList{"<s>", "A", "C", "D"}));
    QCOMPARE(v.fedToken(DecodingView::TeacherForced), QStringLiteral("</s>"));
    QVERIFY(v.chosenLabel(DecodingView::FreeRunning)->text().contains(QStringLiteral("ended")));
    // Past the divergence, the input read from there on is in italics.
    QVERIFY(v.inputLabel(DecodingView::FreeRunning)->text().contains(QStringLiteral("<u><i>B</i></u>")));
    // Back.
    v.backAction()->trigger();
    QCOMPARE(v.step(), 2);
    // A new record of the same sentence keeps the step.
    v.setRecord(makeRecord(true));
    QCOMPARE(v.step(), 2);
    // The marker's link goes to the step where the runs part.
    QVERIFY(v.divergenceLabel()->text().contains(QStringLiteral("<a href")));
    emit v.divergenceLabel()->linkActivated(QStringLiteral("divergence"));
    QCOMPARE(v.step(), 1);
    v.reset();
    QCOMPARE(v.stepCount(), 0);
    QCOMPARE(v.step(), 0);
}

void TestUiDecoding::keysAndRun()
{
    DecodingView v;
    v.resize(1300, 850);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    v.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&v));
    v.setRecord(makeRecord(true));
    v.setFocus();
    QTest::keyClick(&v, Qt::Key_Right);
    QCOMPARE(v.step(), 1);
    QTest::keyClick(&v, Qt::Key_End);
    QCOMPARE(v.step(), 3);
    QTest::keyClick(&v, Qt::Key_Left);
    QCOMPARE(v.step(), 2);
    QTest::keyClick(&v, Qt::Key_Home);
    QCOMPARE(v.step(), 0);
    // Run steps to the end by itself, then stops; from the end it starts over.
    QTest::keyClick(&v, Qt::Key_R);
    QVERIFY(v.running());
    QCOMPARE(v.runAction()->text(), QStringLiteral("Pause"));
    QVERIFY(QTest::qWaitFor([&] { return v.step() == 3 && !v.running(); }, 5000));
    QCOMPARE(v.runAction()->text(), QStringLiteral("Run"));
    v.run();
    QCOMPARE(v.step(), 0);
    QVERIFY(v.running());
    v.run();  // pauses
    QVERIFY(!v.running());
}

void TestUiDecoding::withoutReference()
{
    DecodingView v;
    v.resize(1300, 850);
    v.show();
    QVERIFY(QTest::qWaitForWindowExposed(&v));
    v.setRecord(makeRecord(false));
    QCOMPARE(v.stepCount(), 3);
    QVERIFY(!v.sideShown(DecodingView::TeacherForced));
    QVERIFY(!v.lensTable(DecodingView::TeacherForced)->isVisible());
    QVERIFY(v.lensTable(DecodingView::FreeRunning)->isVisible());
    QVERIFY(!v.divergenceLabel()->isVisible());
    QVERIFY(v.inputTokens(DecodingView::TeacherForced).isEmpty());
    v.setStep(10);
    QCOMPARE(v.step(), 2);
    QCOMPARE(v.fedToken(DecodingView::FreeRunning), QStringLiteral("</s>"));
}

AS_TEST_MAIN(TestUiDecoding)
#include "test_ui_decoding.moc"
