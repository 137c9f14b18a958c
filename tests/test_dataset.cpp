#include "text/dataset.h"

#include <QElapsedTimer>
#include <QtTest>

#include <algorithm>

using namespace as;
using namespace Qt::StringLiterals;

namespace {

const QString kData = QStringLiteral(AS_SHARED_DATA);

SentencePair pair(const QString& src, const QString& tgt, int line)
{
    return SentencePair{src, tgt, line};
}

// Kept: lines 1-3. Source counts: 我 3, 爱 3, 。 3, 猫 2, 狗 1. Target counts: love 3, . 3,
// I 2, cats / dogs / Cats / me 1 each.
QList<SentencePair> smallCorpus()
{
    return {
        pair(u"我爱猫。"_s, u"I love cats."_s, 1),
        pair(u"我爱狗。"_s, u"I love dogs."_s, 2),
        pair(u"猫爱我。"_s, u"Cats love me."_s, 3),
        pair(u"  "_s, u"Hello."_s, 4),                    // empty source
        pair(u"鱼鱼鱼鱼鱼鱼鱼"_s, u"Fish."_s, 5),         // source 7 tokens > max_len 6
        pair(u"我。"_s, u"a b c d e f g"_s, 6),           // target 7 tokens > max_len 6
        pair(u""_s, u"a b c d e f g h i j k"_s, 7),      // both: counted once, as empty
    };
}

DatasetOptions smallOptions()
{
    DatasetOptions o;
    o.max_len = 6;
    return o;
}

QStringList withSpecials(const QStringList& tokens)
{
    return QStringList{u"<pad>"_s, u"<s>"_s, u"</s>"_s, u"<unk>"_s} + tokens;
}

std::optional<QList<SentencePair>> readShared(const QString& name)
{
    CorpusReport report;
    return readCorpus(kData + u"/zh-en/"_s + name, CorpusOptions{}, report);
}

} // namespace

class TestDataset : public QObject {
    Q_OBJECT

private slots:
    void guessedTokenizers()
    {
        const ParallelData d = ParallelData::build(smallCorpus(), smallOptions());
        QCOMPARE(d.srcTokenizer(), TokenizerKind::CjkChar);
        QCOMPARE(d.tgtTokenizer(), TokenizerKind::Word);
        QCOMPARE(d.maxLen(), 6);
    }

    void givenTokenizerWins()
    {
        DatasetOptions o = smallOptions();
        o.src_tok = TokenizerKind::Word;
        const ParallelData d = ParallelData::build(smallCorpus(), o);
        QCOMPARE(d.srcTokenizer(), TokenizerKind::Word);
        // Word keeps a run of letters of any script whole.
        QVERIFY2(d.srcVocab().contains(u"我爱猫"_s), qPrintable(d.srcVocab().tokens().join(u' ')));
        QVERIFY(!d.srcVocab().contains(u"猫"_s));
    }

    void vocabularyOrderAndMinFreq()
    {
        const ParallelData d = ParallelData::build(smallCorpus(), smallOptions());
        // Most frequent first, ties in code-point order (。 U+3002 < 我 U+6211 < 爱 U+7231).
        // 鱼 (7 times, only in a skipped pair) is not in: skipped pairs do not build vocabularies.
        QCOMPARE(d.srcVocab().tokens(), withSpecials({u"。"_s, u"我"_s, u"爱"_s, u"猫"_s, u"狗"_s}));
        // Target min_freq 2 by default: the words seen once are left out.
        QCOMPARE(d.tgtVocab().tokens(), withSpecials({u"."_s, u"love"_s, u"I"_s}));

        DatasetOptions o = smallOptions();
        o.src_min_freq = 3;
        o.tgt_min_freq = 1;
        const ParallelData e = ParallelData::build(smallCorpus(), o);
        QCOMPARE(e.srcVocab().tokens(), withSpecials({u"。"_s, u"我"_s, u"爱"_s}));
        QCOMPARE(e.tgtVocab().tokens(), withSpecials({u"."_s, u"love"_s, u"I"_s, u"Cats"_s,
                                                      u"cats"_s, u"dogs"_s, u"me"_s}));
    }

    void maxVocabularySize()
    {
        DatasetOptions o = smallOptions();
        o.src_max_vocab = 6; // the four specials and the two most frequent tokens
        o.tgt_max_vocab = 5;
        const ParallelData d = ParallelData::build(smallCorpus(), o);
        QCOMPARE(d.srcVocab().tokens(), withSpecials({u"。"_s, u"我"_s}));
        QCOMPARE(d.tgtVocab().tokens(), withSpecials({u"."_s}));
        // 爱 ×3, 猫 ×2, 狗 are now unknown in training.
        QCOMPARE(d.train().stats.src_unknown, qint64(6));
    }

    void trainingPairsAndCounts()
    {
        const ParallelData d = ParallelData::build(smallCorpus(), smallOptions());
        const DatasetStats& s = d.train().stats;
        QCOMPARE(s.pairs, 3);
        QCOMPARE(s.skipped_empty, 2);
        QCOMPARE(s.skipped_too_long, 2);
        QCOMPARE(s.skipped(), 4);
        QCOMPARE(s.src_tokens, qint64(12));
        QCOMPARE(s.tgt_tokens, qint64(12));
        QCOMPARE(s.src_unknown, qint64(0));
        QCOMPARE(s.tgt_unknown, qint64(4)); // cats, dogs, Cats, me: seen once
        QVERIFY2(s.summary().contains(u"3 pairs (4 skipped: 2 too long, 2 empty)"_s), qPrintable(s.summary()));
        QVERIFY2(s.summary().contains(u"4 unknown (33.33%)"_s), qPrintable(s.summary()));
        // Each pair left out is listed by its corpus line, with the reason.
        QCOMPARE(s.first_skipped.size(), 4);
        const QList<int> lines{s.first_skipped[0].line, s.first_skipped[1].line,
                               s.first_skipped[2].line, s.first_skipped[3].line};
        QCOMPARE(lines, (QList<int>{4, 5, 6, 7}));
        QCOMPARE(s.first_skipped[0].what, u"the source has no token"_s);
        QCOMPARE(s.first_skipped[1].what, u"the source has 7 tokens, over max_len 6"_s);
        QCOMPARE(s.first_skipped[2].what, u"the target has 7 tokens, over max_len 6"_s);

        const auto& p = d.train().pairs;
        QCOMPARE(int(p.size()), 3);
        QCOMPARE(p[0].line, 1);
        QCOMPARE(p[2].line, 3);
        // 我爱猫。 -> 我 5, 爱 6, 猫 7, 。 4; "I love cats." -> I 6, love 5, <unk>, . 4 (no <s>, </s>).
        QCOMPARE(p[0].src, (std::vector<int>{5, 6, 7, 4}));
        QCOMPARE(p[0].tgt, (std::vector<int>{6, 5, Vocab::kUnk, 4}));
        QCOMPARE(p[1].src, (std::vector<int>{5, 6, 8, 4}));
    }

    void noLengthLimit()
    {
        DatasetOptions o;
        o.max_len = 0;
        const ParallelData d = ParallelData::build(smallCorpus(), o);
        QCOMPARE(d.train().stats.skipped_too_long, 0);
        QCOMPARE(d.train().stats.pairs, 5);
        QVERIFY(d.srcVocab().contains(u"鱼"_s));
        QCOMPARE(d.srcVocab().id(u"鱼"_s), 4); // 7 times: now the most frequent
    }

    void otherSplitUsesTrainingVocabulary()
    {
        const ParallelData d = ParallelData::build(smallCorpus(), smallOptions());
        const EncodedSplit v = d.encode({pair(u"我爱鱼。"_s, u"I love fish."_s, 10),
                                         pair(u"我。"_s, u"a b c d e f g"_s, 11),
                                         pair(u"狗"_s, u"\t"_s, 12)});
        QCOMPARE(v.stats.pairs, 1);
        QCOMPARE(v.stats.skipped_too_long, 1); // the same max_len as training
        QCOMPARE(v.stats.skipped_empty, 1);
        QCOMPARE(v.pairs[0].line, 10);
        QCOMPARE(v.pairs[0].src, (std::vector<int>{5, 6, Vocab::kUnk, 4}));
        QCOMPARE(v.pairs[0].tgt, (std::vector<int>{6, 5, Vocab::kUnk, 4}));
        QCOMPARE(v.stats.src_unknown, qint64(1));
        QCOMPARE(v.stats.tgt_unknown, qint64(1));
        QCOMPARE(v.stats.src_tokens, qint64(4));
        // The vocabularies are not touched by encoding another split.
        QVERIFY(!d.srcVocab().contains(u"鱼"_s));
    }

    void userSentence()
    {
        const ParallelData d = ParallelData::build(smallCorpus(), smallOptions());
        // NFKC: the full-width ！ becomes "!", which the source vocabulary lacks.
        const EncodedSentence e = d.encodeSource(u"我爱鱼！"_s);
        QCOMPARE(e.tokens, (QStringList{u"我"_s, u"爱"_s, u"鱼"_s, u"!"_s}));
        QCOMPARE(e.ids, (std::vector<int>{5, 6, Vocab::kUnk, Vocab::kUnk}));
        QCOMPARE(e.unknown, (QList<int>{2, 3}));

        const EncodedSentence known = d.encodeSource(u"猫爱狗。"_s);
        QVERIFY(known.unknown.isEmpty());
        QCOMPARE(d.decodeSource(known.ids), u"猫爱狗。"_s);

        const EncodedSentence t = d.encodeTarget(u"I love tea."_s);
        QCOMPARE(t.unknown, QList<int>{2});
        QVERIFY(d.encodeSource(QString()).ids.empty());
    }

    void decodeTarget()
    {
        const ParallelData d = ParallelData::build(smallCorpus(), smallOptions());
        // Specials other than <unk> are dropped; detokenize glues the full stop.
        QCOMPARE(d.decodeTarget({Vocab::kBos, 6, 5, Vocab::kUnk, 4, Vocab::kEos, Vocab::kPad}),
                 u"I love <unk>."_s);
        QCOMPARE(d.decodeTarget({}), QString());
    }

    void nothingKept()
    {
        // Not an error here (the Batcher refuses it): empty pairs, specials-only vocabularies.
        const ParallelData d = ParallelData::build({pair(u"  "_s, u"Hi."_s, 1)});
        QVERIFY(d.train().pairs.empty());
        QCOMPARE(d.train().stats.skipped_empty, 1);
        QCOMPARE(d.srcVocab().size(), int(Vocab::kSpecials));
        QCOMPARE(ParallelData::build({}).train().stats.pairs, 0);
    }

    void fromVocabularies()
    {
        const ParallelData d = ParallelData::build(smallCorpus(), smallOptions());
        const ParallelData e = ParallelData::fromVocabularies(d.srcVocab(), d.tgtVocab(), d.srcTokenizer(),
                                                              d.tgtTokenizer(), d.maxLen());
        QVERIFY(e.train().pairs.empty());
        QCOMPARE(e.srcVocab().tokens(), d.srcVocab().tokens());
        QCOMPARE(e.encodeSource(u"我爱猫。"_s).ids, d.train().pairs[0].src);
        QCOMPARE(e.encode(smallCorpus()).pairs.size(), d.train().pairs.size());
    }

    void sharedZhEn()
    {
        const auto train = readShared(u"train.tsv"_s);
        if (!train) QSKIP("shared data absent: " AS_SHARED_DATA "/zh-en/train.tsv");
        QElapsedTimer timer;
        timer.start();
        const ParallelData d = ParallelData::build(*train);
        QCOMPARE(d.srcTokenizer(), TokenizerKind::CjkChar);
        QCOMPARE(d.tgtTokenizer(), TokenizerKind::Word);
        const DatasetStats& s = d.train().stats;
        QCOMPARE(s.pairs, 27555);
        QCOMPARE(s.skipped(), 0); // longest sides: 44 source, 34 target tokens
        QCOMPARE(s.src_unknown, qint64(0)); // min_freq 1: every training token is known
        // Source, min_freq 1: the brief expects 2,826 + 4 (the README's "2,826 distinct Chinese
        // characters"); we get 2,880 + 4. The README counts something else: the distinct
        // non-space characters of the raw Chinese side of all three splits (train + valid +
        // test: 2,826). Train alone has 2,804 distinct characters (2,718 of them Han), 2,794
        // after NFKC, which merges the full-width ！：＂％﹐（，）？－ with their ASCII forms;
        // the tokens are then those characters plus the ASCII words and digit runs kept whole
        // ("Tom", "iPad", "1988"). bleu.py's tok_zh gives 2,882 distinct tokens: it cuts
        // "Björk" into "Bj", "ö", "rk" where our tokeniser keeps a word of any script whole
        // (see tokenizer.cpp), the one difference on this file.
        QCOMPARE(d.srcVocab().size(), 2880 + 4);
        QVERIFY(d.srcVocab().contains(u"Björk"_s));
        QVERIFY(!d.srcVocab().contains(u"！"_s)); // NFKC: "!"
        QVERIFY(d.srcVocab().contains(u"!"_s));
        // Target, min_freq 2: the README's "4,523 seen twice or more" (of 7,250) is again over
        // all three splits and, it seems, lower-cased (tok_en on lower-cased train + valid +
        // test: 4,525 of 7,256). On train as it is, case kept as the model sees it, tok_en gives
        // 4,793 and we 4,791: tok_en cuts "sauté", "André", "nattō", "Ryūtarō" at the non-ASCII
        // letter, so "é" and "ō" are tokens seen twice there; here those words stay whole and
        // are seen once. On ASCII English the two agree token for token (test_tokenizer
        // checks this file line by line against bleu.py).
        QCOMPARE(d.tgtVocab().size(), 4791 + 4);
        QVERIFY(!d.tgtVocab().contains(u"é"_s));
        // The 7,873 - 4,791 tokens seen once, each counted once as unknown.
        QCOMPARE(s.tgt_unknown, qint64(7873 - 4791));
        QVERIFY(d.tgtVocab().tokens().mid(4, 3).contains(u"."_s));
        qInfo("zh-en train: %s (%lld ms)", qPrintable(s.summary()), timer.elapsed());

        const auto test = readShared(u"test.tsv"_s);
        if (!test) QSKIP("shared data absent: " AS_SHARED_DATA "/zh-en/test.tsv");
        const EncodedSplit t = d.encode(*test);
        QCOMPARE(t.stats.pairs, 1009);
        int withUnknownSource = 0;
        for (const EncodedPair& p : t.pairs)
            withUnknownSource += std::count(p.src.begin(), p.src.end(), int(Vocab::kUnk)) > 0;
        // 17 test sentences hold a Han character that train lacks (辍, 蔼, 垄, …) and 2 more an
        // unseen ASCII word or number; bleu.py's tok_zh gives the same 19. (The README says 22
        // for the first kind: not so for these files, by raw characters or by tokens.)
        QCOMPARE(withUnknownSource, 19);
        qInfo("zh-en test: %s; %d sentences with an unknown source token", qPrintable(t.stats.summary()),
              withUnknownSource);
    }
};

QTEST_APPLESS_MAIN(TestDataset)
#include "test_dataset.moc"
