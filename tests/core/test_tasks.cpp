// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The built-in tasks generate what they say, reproducibly from a seed.
#include "skip.h"
#include "text/tasks.h"

#include <QTest>

using namespace as;

class TestTasks : public QObject {
    Q_OBJECT
private slots:
    void names();
    void toyPairs();
    void targetsFollowTheRule_data();
    void targetsFollowTheRule();
    void sameSeedSameBatches();
};

void TestTasks::names()
{
    QCOMPARE(builtinTaskNames(), (QStringList{"toy", "copy", "reverse", "sort"}));
    for (const QString& n : builtinTaskNames())
        QCOMPARE(makeBuiltinTask(n, 8).name, n);
    QVERIFY(makeBuiltinTask("nonsense", 8).name.isEmpty());
}

void TestTasks::toyPairs()
{
    const Task t = makeToyTask();
    QCOMPARE(t.examples.size(), std::size_t(3));
    QCOMPARE(t.examples[0].src.join(""), QString::fromUtf8("我有一个好朋友"));
    QCOMPARE(t.examples[1].tgt.join(' '), QString("I have zero girl friend ."));
    QCOMPARE(t.srcTokenizer, TokenizerKind::CjkChar);
    Rng rng(1);
    const Batch b = t.nextBatch(rng);
    QCOMPARE(b.B, 3);
}

void TestTasks::targetsFollowTheRule_data()
{
    QTest::addColumn<QString>("name");
    QTest::newRow("copy") << "copy";
    QTest::newRow("reverse") << "reverse";
    QTest::newRow("sort") << "sort";
}

void TestTasks::targetsFollowTheRule()
{
    QFETCH(QString, name);
    const Task t = makeBuiltinTask(name, 16);
    auto expected = [&](const std::vector<int>& src) {
        std::vector<int> e = src;
        if (name == "reverse")
            std::reverse(e.begin(), e.end());
        if (name == "sort")  // ids of "1".."10" are not in numeric order: sort by the symbol
            std::sort(e.begin(), e.end(), [&](int a, int b) {
                return t.srcVocab.token(a).toInt() < t.srcVocab.token(b).toInt();
            });
        return e;
    };
    Rng rng(3);
    const Batch b = t.nextBatch(rng);
    QCOMPARE(b.B, 16);
    for (int i = 0; i < b.B; ++i) {
        std::vector<int> src, tgt;
        for (int j = 0; j < b.S; ++j)
            if (b.src[i * b.S + j] != kPad)
                src.push_back(b.src[i * b.S + j]);
        for (int j = 0; j < b.T; ++j)
            if (b.tgtOut[i * b.T + j] != kPad && b.tgtOut[i * b.T + j] != kEos)
                tgt.push_back(b.tgtOut[i * b.T + j]);
        QVERIFY(src.size() >= 3);
        QCOMPARE(tgt, expected(src));
    }
    for (const TokenPair& ex : t.examples)
        QCOMPARE(t.tgtVocab.encode(ex.tgt), expected(t.srcVocab.encode(ex.src)));
    QVERIFY(!t.validation.empty());
}

void TestTasks::sameSeedSameBatches()
{
    const Task t = makeSortTask(8);
    Rng a(9), b(9), c(10);
    const Batch x = t.nextBatch(a), y = t.nextBatch(b), z = t.nextBatch(c);
    QCOMPARE(x.src, y.src);
    QVERIFY(x.src != z.src);
}

AS_TEST_APPLESS_MAIN(TestTasks)
#include "test_tasks.moc"
