// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Whatever a user types into the Translate view (or feeds the translate path) gets an answer or
// a clear message, never a crash or a hang: empty input, only spaces or invisible characters,
// characters the vocabulary lacks (listed as unknown), 10,000 characters (cut, with a notice),
// mixed scripts, emoji, control characters, an unpaired surrogate.
#include "skip.h"
#include "translate_view.h"
#include "translation_service.h"
#include "translating.h"

#include "eval/evaluate.h"
#include "text/dataset.h"
#include "text/tasks.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace as;
using namespace Qt::StringLiterals;
using as::ui::TranslateView;
using as::test::Translating;

namespace {

// Typed inputs. expectTokens: whether the toy source tokeniser finds anything to translate;
// unknown: a token that must be reported as not in the vocabulary ("" = none checked).
void addTypedRows()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("expectTokens");
    QTest::addColumn<QString>("unknown");
    const QChar lone[] = {QChar(0x6211), QChar(0xD800), QChar(0x6709)};  // 我, lone high surrogate, 有
    QTest::newRow("empty") << QString() << false << QString();
    QTest::newRow("spaces") << u"   \t  "_s << false << QString();
    QTest::newRow("ideographic spaces") << u"\u3000\u3000"_s << false << QString();
    QTest::newRow("only invisible") << u"\u200b\u200d\u2060\u0001\u007f"_s << false << QString();
    QTest::newRow("unknown characters") << u"我有一只猫"_s << true << u"猫"_s;
    QTest::newRow("mixed scripts") << u"我 Hello привет مرحبا γειά שלום 好"_s << true << u"привет"_s;
    QTest::newRow("emoji") << u"我有👍🏽🇨🇳😀"_s << true << u"👍🏽"_s;
    QTest::newRow("control characters") << u"我\u0001\u0002\u001b[31m有\u007f\u0085朋友"_s << true << QString();
    QTest::newRow("newline and tab") << u"我\n有\t朋友\r\n"_s << true << QString();
    QTest::newRow("combining marks") << u"e\u0301\u0301\u0301 我"_s << true << QString();
    QTest::newRow("unpaired surrogate") << QString(lone, 3) << true << QString();
    QTest::newRow("10000 Han") << QString(10000, QChar(0x6211)) << true << QString();
    QTest::newRow("10000 letters") << QString(10000, u'a') << true << QString();
    QTest::newRow("10000 words") << u"friend "_s.repeated(1429) << true << u"friend"_s;
}

}  // namespace

class TestTranslateInput : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void encodeAndTranslate_data() { addTypedRows(); }
    void encodeAndTranslate();
    void translateView_data() { addTypedRows(); }
    void translateView();

private:
    ModelCopyPtr copy() const;

    Task task_;
    std::unique_ptr<Transformer<float>> model_;
};

void TestTranslateInput::initTestCase()
{
    // Untrained weights are enough: the point is what the input does, not the translation.
    task_ = makeToyTask();
    ModelConfig c;
    c.src_vocab = task_.srcVocab.size();
    c.tgt_vocab = task_.tgtVocab.size();
    c.d_model = 16;
    c.heads = 2;
    c.d_ff = 32;
    c.encoder_layers = c.decoder_layers = 1;
    c.max_len = 20;
    model_ = std::make_unique<Transformer<float>>(c);
    Rng rng(7);
    model_->initXavier(rng);
}

ModelCopyPtr TestTranslateInput::copy() const
{
    auto c = std::make_shared<ModelCopy>();
    c->model = std::shared_ptr<Transformer<float>>(model_->clone());
    c->srcVocab = task_.srcVocab;
    c->tgtVocab = task_.tgtVocab;
    c->srcTokenizer = task_.srcTokenizer;
    c->tgtTokenizer = task_.tgtTokenizer;
    return c;
}

// The engine's path (what the command line uses): tokens, <unk> for what the vocabulary
// lacks, and greedy and beam decoding within the length limit.
void TestTranslateInput::encodeAndTranslate()
{
    QFETCH(QString, text);
    QFETCH(bool, expectTokens);
    QFETCH(QString, unknown);
    const ParallelData data = ParallelData::fromVocabularies(
        task_.srcVocab, task_.tgtVocab, task_.srcTokenizer, task_.tgtTokenizer, 20);
    // The callers cut long input (the view at TranslateView::kMaxInputChars characters).
    const EncodedSentence s = data.encodeSource(text.left(TranslateView::kMaxInputChars));
    QCOMPARE(!s.ids.empty(), expectTokens);
    QCOMPARE(qsizetype(s.ids.size()), s.tokens.size());
    for (int i = 0; i < int(s.ids.size()); ++i)
        QCOMPARE(s.ids[std::size_t(i)] == Vocab::kUnk, s.unknown.contains(i));
    if (!unknown.isEmpty()) {
        const qsizetype at = s.tokens.indexOf(unknown);
        QVERIFY2(at >= 0, qPrintable(s.tokens.join(u" | "_s)));
        QVERIFY(s.unknown.contains(int(at)));
    }
    if (!expectTokens)
        return;
    QElapsedTimer clock;
    clock.start();
    for (int beam : {1, 3}) {
        DecodeOptions o;
        o.beam = beam;
        o.nbest = beam;
        const TranslateResult r = translate(*model_, {s.ids}, o, {}, true);
        QCOMPARE(r.done, 1);
        QVERIFY(!r.cancelled);
        QVERIFY(!r.nbest[0].empty());
        QVERIFY(int(r.best[0].size()) <= o.limitFor(int(s.ids.size()), 20));
        (void)data.decodeTarget(r.best[0]);
    }
    QVERIFY2(clock.elapsed() < 60000, qPrintable(u"took %1 ms"_s.arg(clock.elapsed())));
}

// The window's Translate view: a translation, or a message saying why there is none.
void TestTranslateInput::translateView()
{
    QFETCH(QString, text);
    QFETCH(bool, expectTokens);
    QFETCH(QString, unknown);
    Translating t(copy());
    TranslateView& view = t.view;
    QSignalSpy done(&view, &TranslateView::translationFinished);
    view.translate(text);
    if (!expectTokens) {
        QVERIFY(!view.isBusy());
        QVERIFY2(view.message().contains(u"Nothing to translate"_s), qPrintable(view.message()));
        QVERIFY(!t.service.isBusy());  // no decode was started, so none can answer
        QCoreApplication::sendPostedEvents();
        QCOMPARE(done.count(), 0);
        return;
    }
    QVERIFY2(done.wait(60000), qPrintable(view.message()));
    QVERIFY2(!view.message().contains(u"failed"_s), qPrintable(view.message()));
    QVERIFY(!view.lastSourceTokens().isEmpty());
    QCOMPARE(view.crossAttentionShape().width(), view.lastSourceTokens().size());
    if (!unknown.isEmpty()) {
        QVERIFY2(view.unknownTokens().contains(unknown), qPrintable(view.unknownTokens().join(u' ')));
        QVERIFY2(view.message().contains(unknown), qPrintable(view.message()));
    }
    const bool cut = text.size() > TranslateView::kMaxInputChars;
    QCOMPARE(view.message().contains(u"only the first %1"_s.arg(TranslateView::kMaxInputChars)), cut);
}

AS_TEST_MAIN(TestTranslateInput)
#include "test_translate_input.moc"
