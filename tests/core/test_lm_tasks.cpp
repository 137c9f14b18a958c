// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Language-model tasks (text/lm_tasks.h, core/SPEC.md §10.7) and a decoder-only model learning
// from them (§2.10):
// - lm-brackets' rule checked by hand, its sentences all balanced, its batches whole sentences;
// - lm-en and lm-zh: one vocabulary, packed windows of kLmContext + 1 tokens of the stream (a
//   target is its input shifted by one; </s> is followed by <s>), the same batches from the same
//   seed, held-out sentences for validation, cut by the side's tokeniser;
// - the validation loss of a language model is that of its sentences as <s> … </s>;
// - trained on lm-brackets with its recipe's model for 600 steps, a decoder-only model samples
//   balanced strings far more often than before training (79 of 100 against 0 here).
#include "skip.h"
#include "decode/decode.h"
#include "eval/evaluate.h"
#include "test_files.h"
#include "text/bundled_corpus.h"
#include "text/lm_tasks.h"
#include "train/recipe.h"
#include "train/session_data.h"
#include "train/trainer.h"

#include <QCryptographicHash>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace as;
using namespace Qt::StringLiterals;

class TestLmTasks : public QObject {
    Q_OBJECT
private slots:
    void bracketRule();
    void bracketTask();
    void corpusSides_data();
    void corpusSides();
    void validationReadsSentences();
    void fineTunedModelsOwnText_data();
    void fineTunedModelsOwnText();
    void textFile();
    void learnsBalancedBrackets();
};

void TestLmTasks::bracketRule()
{
    const auto toks = [](const char* s) { return QString::fromLatin1(s).split(u' ', Qt::SkipEmptyParts); };
    QVERIFY(balancedBrackets(toks("( )")));
    QVERIFY(balancedBrackets(toks("( [ { } ] ) [ ]")));
    QVERIFY(balancedBrackets({}));
    QVERIFY(!balancedBrackets(toks("( ]")));
    QVERIFY(!balancedBrackets(toks("( [ ) ]")));
    QVERIFY(!balancedBrackets(toks("( (")));
    QVERIFY(!balancedBrackets(toks(")")));
    QVERIFY(!balancedBrackets(toks("( x )")));
}

void TestLmTasks::bracketTask()
{
    QString error;
    const Task t = makeLanguageModelTask(u"lm-brackets"_s, 16, std::nullopt, &error);
    QVERIFY2(!t.name.isEmpty(), qPrintable(error));
    QVERIFY(t.languageModel);
    QCOMPARE(t.srcVocab.tokens(), t.tgtVocab.tokens());
    QCOMPARE(t.tgtVocab.size(), 4 + 6);
    QCOMPARE(t.validation.size(), std::size_t(64));
    for (const TokenPair& p : t.validation) {
        QVERIFY(p.src.isEmpty());
        QVERIFY2(balancedBrackets(p.tgt), qPrintable(p.tgt.join(u' ')));
    }
    Rng rng(3);
    for (int b = 0; b < 50; ++b) {
        const Batch batch = t.nextBatch(rng);
        QCOMPARE(batch.B, 16);
        QCOMPARE(batch.S, 0);
        for (int i = 0; i < batch.B; ++i) {
            const int* in = batch.tgtIn.data() + std::size_t(i) * batch.T;
            const int* out = batch.tgtOut.data() + std::size_t(i) * batch.T;
            QCOMPARE(in[0], int(kBos));
            QStringList sentence;
            int t0 = 0;
            for (; t0 < batch.T && out[t0] != kEos; ++t0) {
                QCOMPARE(out[t0], in[t0 + 1]);  // the target is the input shifted by one
                sentence << t.tgtVocab.token(out[t0]);
            }
            QVERIFY(t0 < batch.T);  // each row a whole sentence, </s> at its end
            QVERIFY2(balancedBrackets(sentence), qPrintable(sentence.join(u' ')));
        }
    }
    QVERIFY(makeLanguageModelTask(u"lm-brackets"_s, 16, Tokenizer(TokenizerKind::Word), &error).name.isEmpty());
    QVERIFY(makeLanguageModelTask(u"lm-fr"_s, 16, std::nullopt, &error).name.isEmpty());
    QVERIFY(error.contains(u"lm-en"_s));
}

void TestLmTasks::corpusSides_data()
{
    QTest::addColumn<QString>("name");
    QTest::newRow("lm-en") << u"lm-en"_s;
    QTest::newRow("lm-zh") << u"lm-zh"_s;
}

void TestLmTasks::corpusSides()
{
    QFETCH(QString, name);
    QString error;
    DataOptions o;
    o.batchSize = 24;
    o.seed = 5;
    const std::unique_ptr<SessionData> a = makeTaskData(name, o, &error);
    QVERIFY2(a, qPrintable(error));
    const std::unique_ptr<SessionData> b = makeTaskData(name, o, &error);
    const Task& t = a->description();
    QVERIFY(t.languageModel);
    QCOMPARE(t.srcVocab.tokens(), t.tgtVocab.tokens());
    QCOMPARE(tokenizerName(t.tgtTokenizer), name == u"lm-en" ? u"word"_s : u"cjk-char"_s);
    // Every sentence of the validation split (zh-en's 583 have a token each on both sides).
    QCOMPARE(a->validation().size(), std::size_t(583));
    for (const EncodedPair& p : a->validation())
        QVERIFY(p.src.empty() && !p.tgt.empty());
    QVERIFY(t.batchesPerEpoch > 10);
    int boundaries = 0;
    for (int k = 0; k < 20; ++k) {
        const Batch x = a->next(), y = b->next();
        QVERIFY(x.tgtIn == y.tgtIn && x.tgtOut == y.tgtOut);  // the same seed, the same batches
        QCOMPARE(x.B, 24);
        QCOMPARE(x.S, 0);
        QCOMPARE(x.T, kLmContext);
        for (int i = 0; i < x.B; ++i) {
            const int* in = x.tgtIn.data() + std::size_t(i) * x.T;
            const int* out = x.tgtOut.data() + std::size_t(i) * x.T;
            for (int s = 0; s + 1 < x.T; ++s)
                QCOMPARE(out[s], in[s + 1]);
            for (int s = 0; s < x.T; ++s) {
                QVERIFY(in[s] != kPad && out[s] != kPad);  // packed: no padding
                if (in[s] == kEos) {
                    QCOMPARE(out[s], int(kBos));  // the next sentence starts at once
                    ++boundaries;
                }
            }
        }
    }
    QVERIFY(boundaries > 20 * 24);  // Tatoeba's sentences are short: several per window
    // Chinese is cut into characters, English into words.
    const QStringList first = a->description().validation.front().tgt;
    for (const QString& tok : first)
        QVERIFY2(name == u"lm-en" || tok.size() == 1 || tok.at(0).isHighSurrogate(), qPrintable(tok));
    QVERIFY(!a->description().examples.empty());
}

void TestLmTasks::validationReadsSentences()
{
    QString error;
    const Task t = makeLanguageModelTask(u"lm-brackets"_s, 8, std::nullopt, &error);
    TaskRecipe r = recipeFor(u"lm-brackets"_s);
    r.model.src_vocab = r.model.tgt_vocab = t.tgtVocab.size();
    QVERIFY(r.model.decoderOnly());
    Transformer<double> m(r.model);
    Rng init(2);
    m.initXavier(init);
    std::vector<EncodedPair> pairs;
    std::vector<std::vector<int>> sentences;
    for (const TokenPair& p : t.validation) {
        pairs.push_back({{}, t.tgtVocab.encode(p.tgt), 0});
        sentences.push_back(t.tgtVocab.encode(p.tgt));
    }
    // Evaluated in batches of a small budget, summed: the one batch of every sentence.
    const LossStats batched = evaluateLoss(m, pairs, 64);
    const LossStats whole = m.evaluate(makeSentenceLmBatch(sentences));
    QCOMPARE(batched.ntokens, whole.ntokens);
    QVERIFY(std::abs(batched.nll_sum - whole.nll_sum) < 1e-9 * std::abs(whole.nll_sum));
    long tokens = 0;
    for (const auto& s : sentences)
        tokens += long(s.size()) + 1;  // each token and </s>
    QCOMPARE(whole.ntokens, tokens);
}

// Fine-tuning (ModelText): lm-en read with a model's own vocabulary and tokeniser, none built.
// The packed stream is made here again by hand from the bundled corpus: each training sentence
// cut by the tokeniser, looked up in the vocabulary, kept when shorter than the window, then
// </s>, with <s> before it only when the model can predict <s>. Every window of a batch must be
// a slice of it; validation holds the validation sentences cut the same way.
void TestLmTasks::fineTunedModelsOwnText_data()
{
    QTest::addColumn<bool>("sentenceStart");
    QTest::addColumn<int>("context");
    QTest::newRow("<s> sentence </s>, 64") << true << 64;
    QTest::newRow("sentence </s> (GPT-2's), 24") << false << 24;
}

void TestLmTasks::fineTunedModelsOwnText()
{
    QFETCH(bool, sentenceStart);
    QFETCH(int, context);
    ModelText m;
    m.tokenizer = Tokenizer(TokenizerKind::Word);
    m.vocab = Vocab::build({{u"I"_s, u"you"_s, u"Tom"_s, u"."_s, u"?"_s, u"the"_s}});
    m.sentenceStart = sentenceStart;
    m.context = context;
    QString error;
    const Task t = makeLanguageModelTask(u"lm-en"_s, 6, std::nullopt, &error, &m);
    QVERIFY2(!t.name.isEmpty(), qPrintable(error));
    QCOMPARE(t.tgtVocab.tokens(), m.vocab.tokens());
    QCOMPARE(t.srcVocab.tokens(), m.vocab.tokens());
    QCOMPARE(tokenizerName(t.tgtTokenizer), u"word"_s);

    std::optional<BundledCorpus> corpus = loadBundledCorpus(u"zh-en"_s, &error);
    QVERIFY2(corpus, qPrintable(error));
    std::vector<int> stream;
    for (const SentencePair& p : corpus->split.train) {
        const QStringList tokens = tokenize(m.tokenizer, p.tgt);
        if (tokens.isEmpty() || tokens.size() >= context)
            continue;
        if (sentenceStart)
            stream.push_back(kBos);
        for (const QString& token : tokens)
            stream.push_back(m.vocab.id(token));
        stream.push_back(kEos);
    }
    QVERIFY(std::count(stream.begin(), stream.end(), kUnk) > 0);  // most words are not in it
    Rng rng(5);
    for (int b = 0; b < 3; ++b) {
        const Batch batch = t.nextBatch(rng);
        QCOMPARE(batch.B, 6);
        QCOMPARE(batch.T, context);
        for (int r = 0; r < batch.B; ++r) {
            std::vector<int> window(batch.tgtIn.begin() + r * context, batch.tgtIn.begin() + (r + 1) * context);
            window.push_back(batch.tgtOut[std::size_t((r + 1) * context - 1)]);
            QVERIFY(std::search(stream.begin(), stream.end(), window.begin(), window.end()) != stream.end());
            QCOMPARE(std::count(window.begin(), window.end(), kBos) > 0, sentenceStart);
        }
    }
    int expected = 0;
    for (const SentencePair& p : corpus->split.valid) {
        const QStringList tokens = tokenize(m.tokenizer, p.tgt);
        if (!tokens.isEmpty() && tokens.size() < context)
            QCOMPARE(t.validation.at(std::size_t(expected++)).tgt, tokens);
    }
    QCOMPARE(int(t.validation.size()), expected);

    // Only lm-en and lm-zh are text to fine-tune on; the model's own tokeniser, no other.
    QVERIFY(makeLanguageModelTask(u"lm-brackets"_s, 6, std::nullopt, &error, &m).name.isEmpty());
    QVERIFY2(error.contains(u"lm-en, lm-zh or text:FILE"_s), qPrintable(error));
    QVERIFY(makeLanguageModelTask(u"lm-en"_s, 6, Tokenizer(TokenizerKind::CjkChar), &error, &m).name.isEmpty());
    QVERIFY2(error.contains(u"its own tokeniser"_s), qPrintable(error));
}

// text:FILE: a user's lines, trimmed, the empty ones skipped, every 50th held out; its digest
// recorded; a file that cannot be used says why.
void TestLmTasks::textFile()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(u"notes.txt"_s);
    QByteArray bytes;
    for (int i = 1; i <= 130; ++i)
        bytes += (i % 13 == 0 ? QByteArray("   \n") : "  line " + QByteArray::number(i) + " of the notes\r\n");
    QVERIFY(test::writeFile(path, bytes));
    QString error;
    const Task t = makeLanguageModelTask(u"text:"_s + path, 4, std::nullopt, &error);
    QVERIFY2(!t.name.isEmpty(), qPrintable(error));
    QVERIFY(t.languageModel);
    QCOMPARE(t.sourceDigest, QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha1).toHex()));
    // 130 lines, 10 of them blank: 120 non-empty; the 50th and 100th (lines 54 and 108, the
    // blanks at 13, 26, … not counted) are held out.
    QCOMPARE(int(t.validation.size()), 2);
    QCOMPARE(t.validation[0].tgt, tokenize(Tokenizer(TokenizerKind::Word), u"line 54 of the notes"_s));
    QCOMPARE(t.validation[1].tgt, tokenize(Tokenizer(TokenizerKind::Word), u"line 108 of the notes"_s));
    QVERIFY(t.tgtVocab.contains(u"notes"_s));
    QVERIFY(isTrainingTask(u"text:"_s + path));
    // What cannot be read is said.
    QVERIFY(makeLanguageModelTask(u"text:"_s + dir.filePath(u"missing.txt"_s), 4, std::nullopt, &error).name.isEmpty());
    QVERIFY2(error.contains(u"cannot read"_s), qPrintable(error));
    const QString blank = dir.filePath(u"blank.txt"_s);
    QVERIFY(test::writeFile(blank, "\n  \n\t\n"));
    QVERIFY(makeLanguageModelTask(u"text:"_s + blank, 4, std::nullopt, &error).name.isEmpty());
    QVERIFY2(error.contains(u"no line of text"_s), qPrintable(error));
    const QString huge = dir.filePath(u"huge.txt"_s);
    QFile f(huge);
    QVERIFY(f.open(QIODevice::WriteOnly) && f.resize(kMaxTextFileBytes + 1));  // sparse
    f.close();
    QVERIFY(makeLanguageModelTask(u"text:"_s + huge, 4, std::nullopt, &error).name.isEmpty());
    QVERIFY2(error.contains(u"up to 64 MB"_s), qPrintable(error));
}

void TestLmTasks::learnsBalancedBrackets()
{
    QString error;
    const Task t = makeLanguageModelTask(u"lm-brackets"_s, 32, std::nullopt, &error);
    TaskRecipe r = recipeFor(u"lm-brackets"_s);
    r.model.src_vocab = r.model.tgt_vocab = t.tgtVocab.size();
    Trainer trainer(r.model, r.train);
    auto balancedShare = [&] {
        int ok = 0;
        DecodeOptions o;
        o.maxLen = 30;
        for (std::uint64_t seed = 1; seed <= 100; ++seed) {
            SamplingOptions s;
            s.seed = seed;
            const Hypothesis h = sampleDecode(trainer.model(), {}, o, s).nbest[0];
            ok += h.finished && !h.tokens.empty() && balancedBrackets(t.tgtVocab.decode(h.tokens));
        }
        return ok;
    };
    const int before = balancedShare();
    Rng data(1);
    for (int step = 0; step < 600; ++step)
        trainer.step(t.nextBatch(data));
    const int after = balancedShare();
    qInfo("balanced samples of 100 (temperature 1): %d before training, %d after 600 steps", before, after);
    QVERIFY2(before <= 30, qPrintable(QString::number(before)));
    QVERIFY2(after >= 70, qPrintable(QString::number(after)));
}

AS_TEST_APPLESS_MAIN(TestLmTasks)
#include "test_lm_tasks.moc"
