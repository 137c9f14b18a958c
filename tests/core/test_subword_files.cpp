// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The subword tokenisers' models in the program's files (core/SPEC.md §8.2, §8.3): save/load,
// bytes, export/import and a checkpoint give back the same tokeniser; a file whose model is
// missing, damaged, on the wrong side or not its vocabulary is refused with a message. Small
// models trained on part of the bundled corpus; SentencePiece's own segmentation at full sizes
// is test_subword's (a test of its own, which the sanitized pass leaves out: scripts/asan.sh).
#include "io/checkpoint.h"
#include "io/interop.h"
#include "io/safetensors.h"
#include "skip.h"
#include "subword_training.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

#include <cstring>
#include <functional>

using namespace as;
using namespace as::test;
using namespace Qt::StringLiterals;

namespace {

// A safetensors file's bytes with its __metadata__ changed by `change` (the data unchanged).
QByteArray withMetadata(const QByteArray& file, const std::function<void(QJsonObject&)>& change)
{
    quint64 n = 0;
    std::memcpy(&n, file.constData(), 8);
    QJsonObject header = QJsonDocument::fromJson(file.mid(8, qsizetype(n))).object();
    QJsonObject meta = header.value(u"__metadata__"_s).toObject();
    change(meta);
    header.insert(u"__metadata__"_s, meta);
    QByteArray json = QJsonDocument(header).toJson(QJsonDocument::Compact);
    while (json.size() % 8)
        json += ' ';
    QByteArray out(8, '\0');
    const quint64 m = quint64(json.size());
    std::memcpy(out.data(), &m, 8);
    return out + json + file.mid(8 + qsizetype(n));
}

}  // namespace

class TestSubwordFiles : public QObject {
    Q_OBJECT
    QList<SentencePair> train_;
    QTemporaryDir tmp_;

private slots:
    void initTestCase();
    void modelFileRoundTrip();
    void refusesBadModels();
};

void TestSubwordFiles::initTestCase()
{
    train_ = bundledZhEn().split.train;
    QVERIFY(train_.size() > 5000);
    QVERIFY(tmp_.isValid());
}

void TestSubwordFiles::modelFileRoundTrip()
{
    const Tokenizer src = trainedTokenizer(u"unigram:2500"_s, side(train_.mid(0, 5000), true));
    const Tokenizer tgt = trainedTokenizer(u"bpe:1200"_s, side(train_.mid(0, 5000), false));
    Vocab sv, tv;
    QVERIFY(Vocab::fromTokens(src.pieces(), &sv, nullptr));
    QVERIFY(Vocab::fromTokens(tgt.pieces(), &tv, nullptr));
    const auto m = tinySubwordModel(sv.size(), tv.size());
    QString error;
    auto same = [&](const ModelBundle& b) {
        return b.srcTok == src && b.tgtTok == tgt && b.srcVocab.tokens() == sv.tokens()
               && b.tgtVocab.tokens() == tv.tokens()
               && b.model->params().valueVector() == m->params().valueVector();
    };

    const QString path = tmp_.filePath(u"subword.safetensors"_s);
    QVERIFY2(saveModel(path, *m, sv, tv, src, tgt, &error), qPrintable(error));
    const std::optional<ModelBundle> loaded = loadModel(path, &error);
    QVERIFY2(loaded, qPrintable(error));
    QVERIFY(same(*loaded));
    QCOMPARE(tokenizerName(loaded->tgtTok), u"bpe:1200"_s);
    QCOMPARE(tokenize(loaded->tgtTok, u"My friends are friendly."_s),
             tokenize(tgt, u"My friends are friendly."_s));

    const std::optional<QByteArray> bytes = serializeModel(*m, sv, tv, src, tgt, &error);
    QVERIFY2(bytes, qPrintable(error));
    const std::optional<ModelBundle> fromBytes = loadModelFromBytes(*bytes, &error);
    QVERIFY2(fromBytes, qPrintable(error));
    QVERIFY(same(*fromBytes));

    // export, then import as a weight file from elsewhere: the models come along.
    const QString exported = tmp_.filePath(u"subword-export.safetensors"_s);
    QVERIFY2(exportWeights(path, exported, &error), qPrintable(error));
    const std::optional<WeightFileInfo> info = inspectWeights(exported, &error);
    QVERIFY2(info, qPrintable(error));
    ImportOptions io;
    io.config = info->config;
    const std::optional<ModelBundle> imported = importWeights(exported, io, nullptr, &error);
    QVERIFY2(imported, qPrintable(error));
    QVERIFY(same(*imported));

    // A checkpoint holds a model file: the same.
    Trainer trainer(m->config(), TrainOptions{});
    trainer.model().params().valueVector() = m->params().valueVector();
    const std::optional<QByteArray> ck = serializeCheckpoint(trainer, sv, tv, src, tgt, {}, {}, &error);
    QVERIFY2(ck, qPrintable(error));
    const std::optional<Checkpoint> back = loadCheckpointFromBytes(*ck, &error);
    QVERIFY2(back, qPrintable(error));
    QVERIFY(same(back->model));

    // An untrained subword tokeniser, or a vocabulary that is not its pieces, is not saved.
    QVERIFY(!saveModel(path, *m, sv, tv, *tokenizerFromName(u"unigram:2500"_s), tgt, &error));
    QVERIFY2(error.contains(u"not trained"_s), qPrintable(error));
    const Tokenizer other = trainedTokenizer(u"bpe:1200"_s, side(train_.mid(0, 4000), false));
    QVERIFY(other.pieces() != tgt.pieces());
    QVERIFY(!serializeModel(*m, sv, tv, src, other, &error));
    QVERIFY2(error.contains(u"not the pieces"_s), qPrintable(error));
}

void TestSubwordFiles::refusesBadModels()
{
    const Tokenizer tgt = trainedTokenizer(u"bpe:600"_s, side(train_.mid(0, 3000), false));
    Vocab sv, tv;
    QVERIFY(Vocab::fromTokens({u"<pad>"_s, u"<s>"_s, u"</s>"_s, u"<unk>"_s, u"我"_s}, &sv, nullptr));
    QVERIFY(Vocab::fromTokens(tgt.pieces(), &tv, nullptr));
    const auto m = tinySubwordModel(sv.size(), tv.size());
    QString error;
    const std::optional<QByteArray> good = serializeModel(*m, sv, tv, TokenizerKind::CjkChar, tgt, &error);
    QVERIFY2(good, qPrintable(error));
    QVERIFY2(loadModelFromBytes(*good, &error), qPrintable(error));

    struct Case {
        const char* what;
        std::function<void(QJsonObject&)> change;
        QString expected;
    };
    const Case cases[] = {
        {"no model", [](QJsonObject& m) { m.remove(u"tgt_sentencepiece"_s); },
         u"has no 'tgt_sentencepiece'"_s},
        {"not base64", [](QJsonObject& m) { m.insert(u"tgt_sentencepiece"_s, u"@@@"_s); },
         u"not base64"_s},
        {"not a model", [](QJsonObject& m) { m.insert(u"tgt_sentencepiece"_s, u"AAAA"_s); },
         u"tgt_sentencepiece"_s},
        {"model on a cjk-char side",
         [](QJsonObject& m) { m.insert(u"src_sentencepiece"_s, m.value(u"tgt_sentencepiece"_s)); },
         u"'src_sentencepiece' but the source tokenizer is cjk-char"_s},
        {"N under the pieces",
         [](QJsonObject& m) { m.insert(u"tokenizer"_s, u"{\"src\":\"cjk-char\",\"tgt\":\"bpe:599\"}"_s); },
         u"over 599"_s},
        {"named unigram, a BPE model",
         [](QJsonObject& m) { m.insert(u"tokenizer"_s, u"{\"src\":\"cjk-char\",\"tgt\":\"unigram:600\"}"_s); },
         u"it is a BPE model"_s},
        {"N over the pieces: at most N",
         [](QJsonObject& m) { m.insert(u"tokenizer"_s, u"{\"src\":\"cjk-char\",\"tgt\":\"bpe:700\"}"_s); },
         QString()},
    };
    for (const Case& c : cases) {
        error.clear();
        const std::optional<ModelBundle> b = loadModelFromBytes(withMetadata(*good, c.change), &error);
        if (c.expected.isEmpty()) {
            QVERIFY2(b, qPrintable(u"%1: %2"_s.arg(QLatin1String(c.what), error)));
            continue;
        }
        QVERIFY2(!b, c.what);
        QVERIFY2(error.contains(c.expected), qPrintable(u"%1: %2"_s.arg(QLatin1String(c.what), error)));
    }
    // The vocabulary must be the pieces: one piece renamed is refused.
    QStringList renamed = tv.tokens();
    renamed[10] = u"▁renamed"_s;
    error.clear();
    QVERIFY(!loadModelFromBytes(withMetadata(*good, [&](QJsonObject& m) {
                                    m.insert(u"tgt_vocab"_s,
                                             QString::fromUtf8(QJsonDocument(QJsonArray::fromStringList(renamed))
                                                                   .toJson(QJsonDocument::Compact)));
                                }),
                                &error));
    QVERIFY2(error.contains(u"not the pieces"_s), qPrintable(error));
}

AS_TEST_GUILESS_MAIN(TestSubwordFiles)
#include "test_subword_files.moc"
