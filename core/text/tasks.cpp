// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "text/tasks.h"

#include <algorithm>

namespace as {

Batch encodePairs(const Task& task, const std::vector<TokenPair>& pairs)
{
    std::vector<std::vector<int>> src, tgt;
    for (const TokenPair& p : pairs) {
        src.push_back(task.srcVocab.encode(p.src));
        tgt.push_back(task.tgtVocab.encode(p.tgt));
    }
    return task.languageModel ? makeSentenceLmBatch(tgt) : makeBatch(src, tgt);
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

namespace {

// A task over random sequences of the symbols 1–10 whose target is transform(source).
Task makeSymbolTask(const QString& name, const QString& description, int batchSize,
                    int maxLength, std::uint64_t exampleSeed,
                    std::function<QStringList(const QStringList&)> transform)
{
    Task t;
    t.name = name;
    t.description = description;
    QStringList symbols;
    for (int i = 1; i <= 10; ++i)
        symbols.push_back(QString::number(i));
    t.srcVocab = Vocab::build({symbols});
    t.tgtVocab = t.srcVocab;
    auto draw = [maxLength](Rng& rng) {
        const int len = 3 + int(rng.below(std::uint64_t(std::max(1, maxLength - 2))));
        QStringList s;
        for (int i = 0; i < len; ++i)
            s.push_back(QString::number(1 + int(rng.below(10))));
        return s;
    };
    Rng ex(exampleSeed);
    for (int i = 0; i < 5; ++i) {
        const QStringList s = draw(ex);
        t.examples.push_back({s, transform(s)});
    }
    for (int i = 0; i < 64; ++i) {
        const QStringList s = draw(ex);
        t.validation.push_back({s, transform(s)});
    }
    const Vocab v = t.srcVocab;
    t.nextBatch = [v, batchSize, draw, transform](Rng& rng) {
        std::vector<std::vector<int>> src, tgt;
        for (int i = 0; i < batchSize; ++i) {
            const QStringList s = draw(rng);
            src.push_back(v.encode(s));
            tgt.push_back(v.encode(transform(s)));
        }
        return makeBatch(src, tgt);
    };
    return t;
}

}  // namespace

Task makeReverseTask(int batchSize, int maxLength, std::uint64_t exampleSeed)
{
    return makeSymbolTask("reverse", QStringLiteral("reverse random sequences of the symbols 1–10"),
                          batchSize, maxLength, exampleSeed, [](const QStringList& s) {
                              QStringList r(s.rbegin(), s.rend());
                              return r;
                          });
}

Task makeSortTask(int batchSize, int maxLength, std::uint64_t exampleSeed)
{
    return makeSymbolTask("sort", QStringLiteral("sort random sequences of the symbols 1–10"),
                          batchSize, maxLength, exampleSeed, [](const QStringList& s) {
                              QStringList r = s;
                              std::sort(r.begin(), r.end(), [](const QString& a, const QString& b) {
                                  return a.toInt() < b.toInt();
                              });
                              return r;
                          });
}

QStringList builtinTaskNames()
{
    return {QStringLiteral("toy"), QStringLiteral("copy"), QStringLiteral("reverse"),
            QStringLiteral("sort")};
}

Task makeBuiltinTask(const QString& name, int batchSize)
{
    if (name == "toy")
        return makeToyTask();
    if (name == "copy")
        return makeCopyTask(batchSize);
    if (name == "reverse")
        return makeReverseTask(batchSize);
    if (name == "sort")
        return makeSortTask(batchSize);
    return {};
}

}  // namespace as
