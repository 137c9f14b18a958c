// The attention view draws exactly the probabilities of a real forward pass (rows = queries,
// columns = keys) and replays recorded steps; the translate view decodes a trained toy model off
// the GUI thread and reports the translation, n-best list, cross-attention and top-5 tables.
#include "attention_view.h"
#include "translate_view.h"

#include "text/tasks.h"
#include "train/trainer.h"

#include <QSignalSpy>
#include <QTimer>
#include <QTest>


#include <cmath>
#include <memory>

using namespace as;
using as::ui::AttentionView;
using as::ui::TranslateView;

class TestUiAttentionTranslate : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void attentionMapsArePlottedAsRecorded_data();
    void attentionMapsArePlottedAsRecorded();
    void enlargeHead();
    void replayHistory();
    void historyCapKeepsTheRange();
    void translatesToySentence();
    void beamListsNBest();
    void unknownTokensAreListed();
    void emptyInputDoesNotDecode();
    void noModelGivesMessage();
    void longInputIsCut();
    void staleResultIsDropped();
    void modelWantedIsAnswered();

private:
    std::shared_ptr<AttentionRecord> probeRecord(long step);
    ModelCopyPtr copy() const;

    Task task_;
    std::unique_ptr<Trainer> trainer_;
};

void TestUiAttentionTranslate::initTestCase()
{
    task_ = makeToyTask();
    ModelConfig c;
    c.src_vocab = task_.srcVocab.size();
    c.tgt_vocab = task_.tgtVocab.size();
    c.d_model = 32;
    c.heads = 4;
    c.d_ff = 64;
    c.encoder_layers = c.decoder_layers = 2;
    c.max_len = 20;
    trainer_ = std::make_unique<Trainer>(c, TrainOptions{1.0, 50, 3});
    Rng data(3);
    for (int s = 0; s < 200; ++s)
        trainer_->step(task_.nextBatch(data));
}

// What the worker records: one teacher-forced pass (dropout off) over the first example.
std::shared_ptr<AttentionRecord> TestUiAttentionTranslate::probeRecord(long step)
{
    const TokenPair& probe = task_.examples[0];
    Transformer<float>& model = trainer_->model();
    model.evaluate(makeBatch({task_.srcVocab.encode(probe.src)}, {task_.tgtVocab.encode(probe.tgt)}));
    auto r = std::make_shared<AttentionRecord>();
    r->step = step;
    r->srcTokens = probe.src;
    r->tgtTokens = QStringList{QStringLiteral("<s>")} + probe.tgt;
    r->heads = model.config().heads;
    for (int l = 0; l < model.layers(AttentionKind::EncoderSelf); ++l)
        r->encoderSelf.push_back(model.attention(AttentionKind::EncoderSelf, l).probs);
    for (int l = 0; l < model.layers(AttentionKind::DecoderSelf); ++l) {
        r->decoderSelf.push_back(model.attention(AttentionKind::DecoderSelf, l).probs);
        r->cross.push_back(model.attention(AttentionKind::Cross, l).probs);
    }
    return r;
}

ModelCopyPtr TestUiAttentionTranslate::copy() const
{
    auto c = std::make_shared<ModelCopy>();
    c->step = trainer_->stepCount();
    c->model = std::shared_ptr<Transformer<float>>(trainer_->model().clone());
    c->srcVocab = task_.srcVocab;
    c->tgtVocab = task_.tgtVocab;
    c->srcTokenizer = task_.srcTokenizer;
    c->tgtTokenizer = task_.tgtTokenizer;
    return c;
}

void TestUiAttentionTranslate::attentionMapsArePlottedAsRecorded_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("layer");
    for (int l = 0; l < 2; ++l) {
        QTest::addRow("encoder self, layer %d", l) << int(AttentionKind::EncoderSelf) << l;
        QTest::addRow("decoder self, layer %d", l) << int(AttentionKind::DecoderSelf) << l;
        QTest::addRow("cross, layer %d", l) << int(AttentionKind::Cross) << l;
    }
}

void TestUiAttentionTranslate::attentionMapsArePlottedAsRecorded()
{
    QFETCH(int, kind);
    QFETCH(int, layer);
    const auto k = AttentionKind(kind);
    const auto record = probeRecord(100);
    AttentionView view;
    TrainingSnapshot snap;
    snap.attention = record;
    view.applySnapshot(snap);
    view.setKind(k);
    view.setLayer(layer);

    const QStringList queries = k == AttentionKind::EncoderSelf ? record->srcTokens : record->tgtTokens;
    const QStringList keys = k == AttentionKind::DecoderSelf ? record->tgtTokens : record->srcTokens;
    const Mat<float>& probs = k == AttentionKind::EncoderSelf ? record->encoderSelf[layer]
                              : k == AttentionKind::DecoderSelf ? record->decoderSelf[layer]
                                                                : record->cross[layer];
    const int sq = int(queries.size()), sk = int(keys.size());
    QCOMPARE(view.headCount(), 4);
    for (int h = 0; h < view.headCount(); ++h) {
        QCOMPARE(view.headMapShape(h), QSize(sk, sq));
        QCOMPARE(view.rowLabels(h), queries);
        QCOMPARE(view.colLabels(h), keys);
        double entropy = 0;
        for (int q = 0; q < sq; ++q) {
            double sum = 0;
            for (int j = 0; j < sk; ++j) {
                const double w = view.weight(h, q, j);
                QVERIFY(std::abs(w - double(probs(h * sq + q, j))) < 1e-6);
                if (k == AttentionKind::DecoderSelf && j > q)
                    QCOMPARE(w, 0.0);  // causal: rows are queries
                sum += w;
                if (w > 0)
                    entropy -= w * std::log(w);
            }
            QVERIFY2(std::abs(sum - 1.0) < 1e-4, qPrintable(QString::number(sum)));
        }
        QVERIFY(std::abs(view.headEntropy(h) - entropy / sq) < 1e-6);
        QVERIFY(view.headEntropy(h) >= 0 && view.headEntropy(h) <= std::log(double(sk)) + 1e-9);
    }
    // The mean map is the mean of the heads.
    const double mean = (view.weight(0, 1, 0) + view.weight(1, 1, 0) + view.weight(2, 1, 0)
                         + view.weight(3, 1, 0)) / 4;
    QVERIFY(std::abs(view.weight(AttentionView::kMeanHead, 1, 0) - mean) < 1e-6);
    // A snapshot without attention keeps what is shown.
    view.applySnapshot(TrainingSnapshot{});
    QCOMPARE(view.historySize(), 1);
    QCOMPARE(view.headCount(), 4);
}

void TestUiAttentionTranslate::enlargeHead()
{
    AttentionView view;
    view.addRecord(probeRecord(5));
    QCOMPARE(view.enlargedHead(), int(AttentionView::kMeanHead));
    view.enlargeHead(2);
    QCOMPARE(view.enlargedHead(), 2);
    view.enlargeHead(4);  // no such head
    QCOMPARE(view.enlargedHead(), 2);
    view.setKind(AttentionKind::Cross);
    QCOMPARE(view.enlargedHead(), 2);
    view.enlargeHead(AttentionView::kMeanHead);
    QCOMPARE(view.enlargedHead(), int(AttentionView::kMeanHead));
}

void TestUiAttentionTranslate::replayHistory()
{
    AttentionView view;
    QCOMPARE(view.shownStep(), -1L);
    for (long s : {10, 20, 30})
        view.addRecord(probeRecord(s));
    QCOMPARE(view.historySize(), 3);
    QCOMPARE(view.shownStep(), 30L);
    QVERIFY(view.isLive());
    view.showHistoryIndex(0);
    QCOMPARE(view.shownStep(), 10L);
    QCOMPARE(view.headCount(), 4);
    view.addRecord(probeRecord(40));  // replaying: stays on step 10
    QCOMPARE(view.historySize(), 4);
    QCOMPARE(view.shownStep(), 10L);
    view.showHistoryIndex(3);  // the right end follows again
    view.addRecord(probeRecord(50));
    QCOMPARE(view.shownStep(), 50L);
    view.reset();
    QCOMPARE(view.historySize(), 0);
    QCOMPARE(view.headCount(), 0);
    QCOMPARE(view.shownStep(), -1L);
}

void TestUiAttentionTranslate::historyCapKeepsTheRange()
{
    AttentionView view;
    const auto base = probeRecord(0);
    for (long s = 1; s <= 1200; ++s) {
        auto r = std::make_shared<AttentionRecord>(*base);
        r->step = s;
        view.addRecord(r);
    }
    QVERIFY(view.historySize() <= AttentionView::kHistoryCapacity);
    QVERIFY(view.historySize() >= AttentionView::kHistoryCapacity / 2);
    QCOMPARE(view.shownStep(), 1200L);
    view.showHistoryIndex(0);
    QCOMPARE(view.shownStep(), 1L);
}

void TestUiAttentionTranslate::translatesToySentence()
{
    TranslateView view;
    view.setModel(copy());
    QSignalSpy done(&view, &TranslateView::translationFinished);
    view.translate(QStringLiteral("我有一个好朋友"));
    QVERIFY(done.wait(5000));
    QCOMPARE(done.takeFirst().at(0).toString(), QStringLiteral("I have a good friend."));
    QCOMPARE(view.lastTranslation(), QStringLiteral("I have a good friend."));
    QCOMPARE(view.lastSourceTokens(), QString::fromUtf8("我 有 一 个 好 朋 友").split(' '));
    QVERIFY(view.unknownTokens().isEmpty());
    QCOMPARE(view.nbestRows(), 1);
    QCOMPARE(view.crossAttentionShape(), QSize(7, 6 + 1));  // I have a good friend . </s>
    QCOMPARE(view.topFiveSteps(), 7);
    const QStringList emitted{"I", "have", "a", "good", "friend", ".", "</s>"};
    for (int t = 0; t < view.topFiveSteps(); ++t) {
        const auto five = view.topFive(t);
        QCOMPARE(five.size(), 5);
        QCOMPARE(five[0].first, emitted[t]);  // greedy emits the likeliest token
        double sum = 0;
        for (int i = 0; i < five.size(); ++i) {
            QVERIFY(five[i].second >= 0 && five[i].second <= 1);
            if (i > 0)
                QVERIFY(five[i].second <= five[i - 1].second);
            sum += five[i].second;
        }
        QVERIFY(sum <= 1 + 1e-6);
    }
    QVERIFY(view.topFive(7).isEmpty());
}

void TestUiAttentionTranslate::beamListsNBest()
{
    TranslateView view;
    view.setModel(copy());
    view.setDecoding(true, 4, 3);
    QSignalSpy done(&view, &TranslateView::translationFinished);
    view.translate(QStringLiteral("我有一个男朋友"));
    QVERIFY(done.wait(5000));
    QCOMPARE(view.lastTranslation(), QStringLiteral("I have a boy friend."));
    QCOMPARE(view.nbestRows(), 3);
}

void TestUiAttentionTranslate::unknownTokensAreListed()
{
    TranslateView view;
    view.setModel(copy());
    QSignalSpy done(&view, &TranslateView::translationFinished);
    view.translate(QString::fromUtf8("我有一个好朋友😀"));
    QVERIFY(done.wait(5000));
    QCOMPARE(view.unknownTokens(), QStringList{QString::fromUtf8("😀")});
    QVERIFY(!view.lastTranslation().isEmpty());
    QCOMPARE(view.crossAttentionShape().width(), 8);
    QVERIFY(view.message().contains(QString::fromUtf8("😀")));

    view.translate(QString::fromUtf8("猫狗"));  // nothing known at all still translates
    QVERIFY(done.wait(5000));
    QCOMPARE(view.unknownTokens().size(), 2);
}

void TestUiAttentionTranslate::emptyInputDoesNotDecode()
{
    TranslateView view;
    view.setModel(copy());
    QSignalSpy done(&view, &TranslateView::translationFinished);
    for (const QString& text : {QString(), QStringLiteral("   \t ")}) {
        view.translate(text);
        QVERIFY(!view.isBusy());
        QVERIFY(view.message().contains(QStringLiteral("Nothing to translate")));
    }
    QTest::qWait(100);
    QCOMPARE(done.count(), 0);
}

void TestUiAttentionTranslate::noModelGivesMessage()
{
    TranslateView view;
    QSignalSpy done(&view, &TranslateView::translationFinished);
    view.translate(QStringLiteral("我有一个好朋友"));
    QVERIFY(!view.isBusy());
    QVERIFY(view.message().contains(QStringLiteral("No model")));
    QTest::qWait(100);
    QCOMPARE(done.count(), 0);
}

void TestUiAttentionTranslate::longInputIsCut()
{
    TranslateView view;
    view.setModel(copy());
    QSignalSpy done(&view, &TranslateView::translationFinished);
    view.translate(QString(1500, QChar(0x6211)));  // 我 × 1500
    QVERIFY(done.wait(10000));
    QCOMPARE(view.lastSourceTokens().size(), TranslateView::kMaxInputChars);
    QVERIFY(view.message().contains(QStringLiteral("1000 characters")));
}

void TestUiAttentionTranslate::staleResultIsDropped()
{
    TranslateView view;
    view.setModel(copy());
    QSignalSpy done(&view, &TranslateView::translationFinished);
    view.translate(QString::fromUtf8("我有零个女朋友"));
    view.translate(QString::fromUtf8("我有一个好朋友"));  // waits for the same copy, then runs
    QVERIFY(done.wait(5000));
    QTRY_VERIFY_WITH_TIMEOUT(!view.isBusy(), 5000);
    QTest::qWait(50);
    QCOMPARE(done.count(), 1);
    QCOMPARE(done.at(0).at(0).toString(), QStringLiteral("I have a good friend."));
}

void TestUiAttentionTranslate::modelWantedIsAnswered()
{
    TranslateView view;
    int asked = 0;
    connect(&view, &TranslateView::modelWanted, &view, [&] {
        ++asked;
        QTimer::singleShot(10, &view, [&] { view.setModel(copy()); });  // as from the worker
    });
    QSignalSpy done(&view, &TranslateView::translationFinished);
    view.translate(QString::fromUtf8("我有零个女朋友"));
    QVERIFY(view.isBusy());
    QVERIFY(done.wait(5000));
    QCOMPARE(asked, 1);
    QCOMPARE(view.lastTranslation(), QStringLiteral("I have zero girl friend."));
}

QTEST_MAIN(TestUiAttentionTranslate)
#include "test_ui_attention_translate.moc"
