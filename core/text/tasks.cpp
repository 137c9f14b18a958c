#include "text/tasks.h"

namespace as {

Batch encodePairs(const Task& task, const std::vector<TokenPair>& pairs)
{
    std::vector<std::vector<int>> src, tgt;
    for (const TokenPair& p : pairs) {
        src.push_back(task.srcVocab.encode(p.src));
        tgt.push_back(task.tgtVocab.encode(p.tgt));
    }
    return makeBatch(src, tgt);
}

Task makeToyTask()
{
    Task t;
    t.name = "toy";
    t.description = QStringLiteral("three Chinese→English sentence pairs");
    t.srcTokenizer = TokenizerKind::CjkChar;
    t.tgtTokenizer = TokenizerKind::Word;
    const char* pairs[3][2] = {{"我 有 一 个 好 朋 友", "I have a good friend ."},
                               {"我 有 零 个 女 朋 友", "I have zero girl friend ."},
                               {"我 有 一 个 男 朋 友", "I have a boy friend ."}};
    std::vector<QStringList> src, tgt;
    for (const auto& p : pairs) {
        TokenPair tp{QString::fromUtf8(p[0]).split(' '), QString::fromUtf8(p[1]).split(' ')};
        src.push_back(tp.src);
        tgt.push_back(tp.tgt);
        t.examples.push_back(tp);
    }
    t.srcVocab = Vocab::build(src);
    t.tgtVocab = Vocab::build(tgt);
    t.validation = t.examples;  // three pairs: there is nothing else to hold out
    t.batchesPerEpoch = 1;
    const std::vector<TokenPair> all = t.examples;
    const Vocab sv = t.srcVocab, tv = t.tgtVocab;
    t.nextBatch = [sv, tv, all](Rng&) {
        std::vector<std::vector<int>> s, g;
        for (const TokenPair& p : all) {
            s.push_back(sv.encode(p.src));
            g.push_back(tv.encode(p.tgt));
        }
        return makeBatch(s, g);
    };
    return t;
}

QStringList randomCopySequence(Rng& rng, int length)
{
    QStringList seq{QStringLiteral("1")};
    for (int i = 1; i < length; ++i)
        seq.push_back(QString::number(1 + int(rng.below(10))));
    return seq;
}

Task makeCopyTask(int batchSize, int length, std::uint64_t exampleSeed)
{
    Task t;
    t.name = "copy";
    t.description = QStringLiteral("copy random sequences of the symbols 1–10");
    QStringList symbols;
    for (int i = 1; i <= 10; ++i)
        symbols.push_back(QString::number(i));
    // Every symbol once, so all frequencies tie and ids follow code-point order.
    t.srcVocab = Vocab::build({symbols});
    t.tgtVocab = t.srcVocab;
    Rng ex(exampleSeed);
    for (int i = 0; i < 5; ++i) {
        const QStringList s = randomCopySequence(ex, length);
        t.examples.push_back({s, s});
    }
    for (int i = 0; i < 64; ++i) {
        const QStringList s = randomCopySequence(ex, length);
        t.validation.push_back({s, s});
    }
    const Vocab v = t.srcVocab;
    t.nextBatch = [v, batchSize, length](Rng& rng) {
        std::vector<std::vector<int>> s;
        for (int i = 0; i < batchSize; ++i)
            s.push_back(v.encode(randomCopySequence(rng, length)));
        return makeBatch(s, s);
    };
    return t;
}

QStringList builtinTaskNames()
{
    return {QStringLiteral("toy"), QStringLiteral("copy")};
}

Task makeBuiltinTask(const QString& name, int batchSize)
{
    if (name == "toy")
        return makeToyTask();
    if (name == "copy")
        return makeCopyTask(batchSize);
    return {};
}

}  // namespace as
