// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The Tokens view (issue 27 §1) shows its record's numbers: a row per tokeniser with its
// vocabulary size, tokens per sentence and <unk> rate and the probe's and typed text's pieces;
// the vocabulary table of the choice chosen, entry by entry with its count; the histogram's
// bars, bin by bin, the record's sentence lengths; the BPE merges in order.
#include "skip.h"
#include "tokens_view.h"

#include "text/tokens_record.h"

#include <QComboBox>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QtTest>
#include <qcustomplot.h>

using namespace as;
using namespace Qt::StringLiterals;

class TestUiTokens : public QObject {
    Q_OBJECT
private slots:
    void showsTheRecordsNumbers();
    void histogramBinsLongSentences();
    void asksForRecordsAndComparison();
};

namespace {

std::shared_ptr<TokensRecord> record()
{
    QStringList sentences;
    const QStringList words = {u"lower"_s, u"lowest"_s, u"newer"_s, u"newest"_s, u"wider"_s,
                               u"widest"_s, u"low"_s, u"new"_s, u"wide"_s, u"slow"_s};
    for (int i = 0; i < 60; ++i) {
        QString s = words[i % words.size()];
        for (int k = 0; k < i % 5; ++k)
            s += u' ' + words[(i * 7 + k) % words.size()];
        sentences << s;
    }
    auto r = std::make_shared<TokensRecord>(buildTokensRecord(
        sentences, {Tokenizer(TokenizerKind::Word), *tokenizerFromName(u"bpe:40"_s)}, 2, 0, u"lowest new"_s,
        u"slower"_s));
    r->corpus = u"test"_s;
    r->side = CorpusSide::Target;
    return r;
}

}  // namespace

void TestUiTokens::showsTheRecordsNumbers()
{
    const std::shared_ptr<TokensRecord> r = record();
    QCOMPARE(r->choices.size(), std::size_t(2));
    QVERIFY2(r->choices[1].error.isEmpty(), qPrintable(r->choices[1].error));
    ui::TokensView v;
    v.resize(1200, 700);
    v.show();
    v.setRecord(r);
    const QLocale locale;

    QTableWidget* choices = v.choicesTable();
    QCOMPARE(choices->rowCount(), 2);
    for (int i = 0; i < 2; ++i) {
        const TokenizerTokens& t = r->choices[std::size_t(i)];
        QCOMPARE(choices->item(i, 0)->text(), t.name);
        QCOMPARE(choices->item(i, 1)->text(), locale.toString(t.vocabSize()));
        QCOMPARE(choices->item(i, 2)->text(), locale.toString(t.tokensPerSentence(), 'f', 2));
        QCOMPARE(choices->item(i, 3)->text(), locale.toString(100.0 * t.unknownRate(), 'f', 2) + u'%');
        auto* probe = qobject_cast<QLabel*>(choices->cellWidget(i, 4));
        auto* typed = qobject_cast<QLabel*>(choices->cellWidget(i, 5));
        QVERIFY(probe && typed);
        QCOMPARE(probe->toolTip(), t.probe.join(u' '));
        QCOMPARE(typed->toolTip(), t.typed.join(u' '));
        for (const QString& piece : t.probe)
            QVERIFY(probe->text().contains(piece.toHtmlEscaped()));
    }
    QVERIFY(r->choices[1].probe.join(QString()).contains(u"▁"_s));  // SentencePiece's spaces are shown

    // The vocabulary of each choice, entry by entry.
    for (int i = 0; i < 2; ++i) {
        v.detailChooser()->setCurrentIndex(i);
        const TokenizerTokens& t = r->choices[std::size_t(i)];
        QTableWidget* vocab = v.vocabTable();
        QCOMPARE(vocab->rowCount(), int(t.vocab.size()));
        for (int row = 0; row < vocab->rowCount(); ++row) {
            QCOMPARE(vocab->item(row, 0)->text(), t.vocab[row].first);
            QCOMPARE(vocab->item(row, 1)->text(), locale.toString(t.vocab[row].second));
        }
        // The merges, for BPE only, in order.
        QCOMPARE(v.mergesList()->count(), int(t.merges.size()));
        for (int k = 0; k < t.merges.size(); ++k)
            QVERIFY(v.mergesList()->item(k)->text().endsWith(t.merges[k].piece));
    }
    QVERIFY(!r->choices[1].merges.isEmpty());

    // The histogram: one series of bars per choice, each bar a bin's sentences.
    QCOMPARE(v.binWidth(), 1);  // short sentences: a bar per length
    for (int i = 0; i < 2; ++i) {
        const TokenizerTokens& t = r->choices[std::size_t(i)];
        QCPBars* bars = v.bars(i);
        QVERIFY(bars);
        QCOMPARE(bars->name(), t.name);
        QCOMPARE(bars->data()->size(), int(t.lengths.size()));
        qint64 sentences = 0;
        for (std::size_t n = 0; n < t.lengths.size(); ++n) {
            QCOMPARE(bars->data()->at(int(n))->key, double(n));
            QCOMPARE(bars->data()->at(int(n))->value, double(t.lengths[n]));
            sentences += qint64(bars->data()->at(int(n))->value);
        }
        QCOMPARE(sentences, t.sentences);
    }

    // Nothing to show: every table empty, the reason said.
    v.setUnavailable(u"no corpus here"_s);
    QCOMPARE(v.choicesTable()->rowCount(), 0);
    QCOMPARE(v.vocabTable()->rowCount(), 0);
    QVERIFY(!v.bars(0));
    QVERIFY(v.findChild<QLabel*>() != nullptr);
    bool said = false;
    for (QLabel* l : v.findChildren<QLabel*>())
        said = said || l->text() == u"no corpus here"_s;
    QVERIFY(said);
}

void TestUiTokens::histogramBinsLongSentences()
{
    // 70 sentences of 1 … 70 words: bins of 3 tokens (at most 30 bins).
    QStringList sentences;
    QString s;
    for (int i = 1; i <= 70; ++i) {
        s += (i > 1 ? u" w"_s : u"w"_s) + QString::number(i % 4);
        sentences << s;
    }
    auto r = std::make_shared<TokensRecord>(buildTokensRecord(sentences, {Tokenizer(TokenizerKind::Word)}, 1, 0, {}, {}));
    ui::TokensView v;
    v.setRecord(r);
    const std::vector<qint64>& lengths = r->choices[0].lengths;
    QCOMPARE(lengths.size(), std::size_t(71));
    QCOMPARE(v.binWidth(), 3);
    QCPBars* bars = v.bars(0);
    QCOMPARE(bars->data()->size(), 24);  // 0-2, 3-5, …, 69-70
    for (int b = 0; b < 24; ++b) {
        qint64 sum = 0;
        for (int n = 3 * b; n < std::min(3 * b + 3, 71); ++n)
            sum += lengths[std::size_t(n)];
        QCOMPARE(bars->data()->at(b)->value, double(sum));
        QCOMPARE(bars->data()->at(b)->key, 3.0 * b + 1.0);
    }
    QCOMPARE(bars->data()->at(0)->value, 2.0);  // 1 and 2 tokens
}

void TestUiTokens::asksForRecordsAndComparison()
{
    ui::TokensView v;
    QSignalSpy wanted(&v, &ui::TokensView::recordWanted);
    QSignalSpy compare(&v, &ui::TokensView::comparisonRequested);
    QSignalSpy typed(&v, &ui::TokensView::typedChanged);
    QSignalSpy cancel(&v, &ui::TokensView::cancelRequested);
    v.sideChooser()->setCurrentIndex(0);
    emit v.sideChooser()->activated(0);
    QCOMPARE(wanted.size(), 1);
    QCOMPARE(wanted[0][0].value<CorpusSide>(), CorpusSide::Source);
    v.typedEdit()->setText(u"hello"_s);
    QCOMPARE(typed.size(), 1);
    QCOMPARE(typed[0][0].toString(), u"hello"_s);
    v.setComparisonAllowed(false, u"no"_s);
    QVERIFY(!v.compareButton()->isEnabled());
    QCOMPARE(v.compareButton()->toolTip(), u"no"_s);
    v.setComparisonAllowed(true);
    v.compareButton()->click();
    QCOMPARE(compare.size(), 1);
    QCOMPARE(compare[0][0].value<CorpusSide>(), CorpusSide::Source);
    v.setProgress(10, 200);
    QVERIFY(v.busy());
    QList<QPushButton*> buttons = v.findChildren<QPushButton*>();
    for (QPushButton* b : buttons)
        if (b->text() == ui::TokensView::tr("Cancel"))
            b->click();
    QCOMPARE(cancel.size(), 1);
    v.setProgress(0, 0);
    QVERIFY(!v.busy());
}

AS_TEST_MAIN(TestUiTokens)
#include "test_ui_tokens.moc"
