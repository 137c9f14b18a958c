// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Checkpoints: exact resume (2N steps in one go = N steps, save, destroy, load, N steps, bit
// for bit), the history and settings round trip, a checkpoint read as a model file, refusal
// of damaged and hostile files with a message, atomic saves (abandoned, killed with SIGKILL,
// into a read-only folder); and training faults: a NaN loss or gradient skips the update and
// names the step and the layer; gradient clipping.
#include "io/checkpoint.h"
#include "run/make_session.h"
#include "run/resume.h"

#include "model/parallel.h"
#include "skip.h"
#include "test_files.h"
#include "train/batcher.h"

#include <QCryptographicHash>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QtEndian>
#include <QtTest>

#include <cmath>
#include <cstring>

#ifdef __linux__
#include <csignal>
#include <sys/fsuid.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

using namespace as;
using namespace Qt::StringLiterals;

namespace {

Vocab vocabOfSize(int n, const QString& prefix)
{
    QStringList t{"<pad>", "<s>", "</s>", "<unk>"};
    for (int i = 4; i < n; ++i)
        t << prefix + QString::number(i);
    Vocab v;
    QString error;
    if (!Vocab::fromTokens(t, &v, &error))
        qFatal("vocab: %s", qPrintable(error));
    return v;
}

ModelConfig tinyConfig(NormPlacement norm = NormPlacement::Pre)
{
    ModelConfig c;
    c.src_vocab = 17;
    c.tgt_vocab = 19;
    c.d_model = 16;
    c.heads = 4;
    c.d_ff = 32;
    c.encoder_layers = c.decoder_layers = 2;
    c.dropout = 0.1;
    c.label_smoothing = 0.1;
    c.norm = norm;
    c.max_len = 32;
    return c;
}

// Random pairs of lengths 1 … 7 over the real tokens of the vocabularies.
std::vector<EncodedPair> randomPairs(int n, const ModelConfig& c, std::uint64_t seed)
{
    Rng rng(seed);
    std::vector<EncodedPair> pairs(static_cast<std::size_t>(n));
    for (EncodedPair& p : pairs) {
        const int ls = 1 + int(rng.below(7)), lt = 1 + int(rng.below(7));
        for (int i = 0; i < ls; ++i)
            p.src.push_back(4 + int(rng.below(std::uint64_t(c.src_vocab - 4))));
        for (int i = 0; i < lt; ++i)
            p.tgt.push_back(4 + int(rng.below(std::uint64_t(c.tgt_vocab - 4))));
    }
    return pairs;
}

TrainOptions options()
{
    TrainOptions o;
    o.factor = 2.0;
    o.warmup = 4;
    o.seed = 0xfeedfacecafebeefULL;  // above 2^53: must survive the JSON
    o.clipNorm = 0.5;                // small enough to clip, so the setting matters
    return o;
}

bool sameBits(const float* a, const float* b, std::size_t n)
{
    return std::memcmp(a, b, n * sizeof(float)) == 0;
}

using ::as::test::readAll;

using ::as::test::writeFile;

// The attention of the batch's first pair, as the window records its probe.
std::shared_ptr<AttentionRecord> attentionOf(Transformer<float>& m, long step, const EncodedPair& p)
{
    const Batch b = makeBatch({p.src}, {p.tgt});
    auto rec = std::make_shared<AttentionRecord>();
    rec->step = step;
    rec->heads = m.config().heads;
    for (int i = 0; i < b.S; ++i)
        rec->srcTokens << QStringLiteral("s%1").arg(i);
    for (int i = 0; i < b.T; ++i)
        rec->tgtTokens << QStringLiteral("t%1").arg(i);
    m.evaluate(b);
    for (int l = 0; l < m.layers(AttentionKind::EncoderSelf); ++l)
        rec->encoderSelf.push_back(m.attention(AttentionKind::EncoderSelf, l).probs);
    for (int l = 0; l < m.layers(AttentionKind::DecoderSelf); ++l) {
        rec->decoderSelf.push_back(m.attention(AttentionKind::DecoderSelf, l).probs);
        rec->cross.push_back(m.attention(AttentionKind::Cross, l).probs);
    }
    return rec;
}

// A training run on a Batcher with everything a checkpoint holds.
struct Run {
    std::unique_ptr<Trainer> trainer;
    std::unique_ptr<Batcher> batcher;
    Vocab src, tgt;
    TrainingHistory history;
    double seconds = 0;

    Run(const ModelConfig& c, const std::vector<EncodedPair>& pairs)
        : trainer(std::make_unique<Trainer>(c, options())),
          batcher(std::make_unique<Batcher>(pairs, 40, 7)), src(vocabOfSize(c.src_vocab, "s")),
          tgt(vocabOfSize(c.tgt_vocab, "t"))
    {
    }
    void steps(int n)
    {
        for (int i = 0; i < n; ++i) {
            const Batch b = batcher->next();
            const StepStats st = trainer->step(b);
            seconds += 0.25;
            history.loss.push_back({st.step, seconds, st.loss.loss(), st.lr, st.loss.ntokens});
            if (st.step % 3 == 0) {
                history.eval.push_back({st.step, seconds, st.loss.loss() + 1, 0.5,
                                        st.step % 2 == 0 ? 12.5 : std::numeric_limits<double>::quiet_NaN(),
                                        st.loss.loss() + 0.25});
                history.attention.push_back(attentionOf(trainer->model(), st.step,
                                                        batcher->pairs().front()));
            }
            history.lastBatch = recordOf(b, trainer->model().config().tgt_vocab, 0.1);
        }
    }
    CheckpointRun runState() const
    {
        CheckpointRun r;
        r.dataRng = Rng(99).state();
        r.epoch = batcher->epoch();
        r.position = batcher->position();
        r.trainSeconds = seconds;
        r.data = QJsonObject{{"kind", "corpus"}, {"train", "pairs.tsv"}};
        r.session = QJsonObject{{"valid_every", 3}, {"note", QString::fromUtf8("我有")}};
        return r;
    }
    bool save(const QString& path, QString* error) const
    {
        return saveCheckpoint(path, *trainer, src, tgt, TokenizerKind::CjkChar, TokenizerKind::Word,
                              runState(), history, error);
    }
    std::optional<QByteArray> bytes() const
    {
        QString error;
        return serializeCheckpoint(*trainer, src, tgt, TokenizerKind::CjkChar, TokenizerKind::Word,
                                   runState(), history, &error);
    }
};

// The sections of a checkpoint, to be edited and put together again with fresh checksums
// (so that the reader's checks behind the checksums are reached).
struct Sections {
    QList<QByteArray> names, data;
    static Sections of(const QByteArray& file)
    {
        Sections s;
        const quint32 n = qFromLittleEndian<quint32>(file.constData() + 12);
        for (quint32 i = 0; i < n; ++i) {
            const char* e = file.constData() + 16 + 64 * i;
            s.names << QByteArray(e, 16);
            const auto off = qFromLittleEndian<quint64>(e + 16);
            const auto len = qFromLittleEndian<quint64>(e + 24);
            s.data << file.mid(qsizetype(off), qsizetype(len));
        }
        return s;
    }
    QByteArray& operator[](const char* name)
    {
        for (int i = 0; i < names.size(); ++i)
            if (names[i].startsWith(name))
                return data[i];
        qFatal("no section %s", name);
    }
    // overrideOffset/Size: replace section k's table entry after the fact.
    QByteArray build(int k = -1, quint64 offset = 0, quint64 size = 0,
                     quint32 version = kCheckpointVersion) const
    {
        QByteArray h("\x89" "ASCKPT\n", 8);
        char w[8];
        qToLittleEndian<quint32>(version, w);
        h.append(w, 4);
        qToLittleEndian<quint32>(quint32(names.size()), w);
        h.append(w, 4);
        quint64 at = quint64(16 + 64 * names.size() + 32);
        for (int i = 0; i < names.size(); ++i) {
            h.append(names[i]);
            qToLittleEndian<quint64>(i == k ? offset : at, w);
            h.append(w, 8);
            qToLittleEndian<quint64>(i == k ? size : quint64(data[i].size()), w);
            h.append(w, 8);
            h.append(QCryptographicHash::hash(data[i], QCryptographicHash::Blake2b_256));
            at += quint64(data[i].size());
        }
        h.append(QCryptographicHash::hash(h, QCryptographicHash::Blake2b_256));
        for (const QByteArray& d : data)
            h.append(d);
        return h;
    }
};

QJsonObject metaOf(const QByteArray& file)
{
    return QJsonDocument::fromJson(Sections::of(file)["meta"]).object();
}

}  // namespace

class TestCheckpoint : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { setEngineThreads(2); }
    void resumeIsBitExact_data();
    void resumeIsBitExact();
    void resumeNeedsTheSavedGenerators();
    void historyAndSettingsRoundTrip();
    void decoderOnlyAttentionRoundTrip();
    void checkpointServesAsModelFile();
    void truncatedAtAnyOffset();
    void bitFlipsAreCaught();
    void wrongVersionAndRandomBytes();
    void readsVersion1();
    void readsVersion3();
    void hostileContentBehindValidChecksums_data();
    void hostileContentBehindValidChecksums();
    void abandonedSaveKeepsOldFile();
    void killedSaveKeepsOldFile();
    void saveIntoReadOnlyFolderFails();
    void smallConfigFigures();

    void forwardOrderFollowsTheForwardPass();
    void nanGradientSkipsTheStep();
    void nanLossSkipsTheStep();
    void clippingBoundsTheGradientNorm();
};

void TestCheckpoint::resumeIsBitExact_data()
{
    QTest::addColumn<int>("norm");
    QTest::addColumn<int>("n");
    QTest::newRow("pre-norm, 7 + 7 steps") << int(NormPlacement::Pre) << 7;
    QTest::newRow("post-norm, 5 + 5 steps") << int(NormPlacement::Post) << 5;
}

void TestCheckpoint::resumeIsBitExact()
{
    QFETCH(int, norm);
    QFETCH(int, n);
    const ModelConfig c = tinyConfig(NormPlacement(norm));
    const std::vector<EncodedPair> pairs = randomPairs(24, c, 3);
    QTemporaryDir dir;
    const QString path = dir.filePath("run.ckpt");

    Run straight(c, pairs);
    straight.steps(2 * n);
    QVERIFY2(straight.batcher->epoch() >= 1, "the run must cross an epoch boundary");

    {
        Run first(c, pairs);
        first.steps(n);
        QString error;
        QVERIFY2(first.save(path, &error), qPrintable(error));
    }  // everything of the first half is gone

    QString error;
    std::optional<Checkpoint> ck = loadCheckpoint(path, &error);
    QVERIFY2(ck, qPrintable(error));
    Run resumed(c, pairs);
    resumed.trainer = as::trainerFromCheckpoint(*ck);
    resumed.batcher->setPosition(ck->run.epoch, ck->run.position);
    QCOMPARE(resumed.trainer->stepCount(), long(n));
    QCOMPARE(resumed.trainer->options().clipNorm, options().clipNorm);
    QCOMPARE(resumed.trainer->options().seed, options().seed);
    resumed.steps(n);

    const Trainer& a = *straight.trainer;
    const Trainer& b = *resumed.trainer;
    const std::size_t size = a.model().params().size();
    QCOMPARE(b.stepCount(), a.stepCount());
    QCOMPARE(b.adam().steps(), a.adam().steps());
    QVERIFY2(sameBits(a.model().params().values(), b.model().params().values(), size),
             "parameters differ after resuming");
    QVERIFY2(sameBits(a.adam().firstMoment().data(), b.adam().firstMoment().data(), size),
             "Adam's first moment differs after resuming");
    QVERIFY2(sameBits(a.adam().secondMoment().data(), b.adam().secondMoment().data(), size),
             "Adam's second moment differs after resuming");
    QVERIFY(a.dropoutRngState() == b.dropoutRngState());
    QCOMPARE(resumed.batcher->epoch(), straight.batcher->epoch());
    QCOMPARE(resumed.batcher->position(), straight.batcher->position());
}

// The comparison above can fail: resuming with a fresh dropout generator gives other weights.
void TestCheckpoint::resumeNeedsTheSavedGenerators()
{
    const ModelConfig c = tinyConfig();
    const std::vector<EncodedPair> pairs = randomPairs(24, c, 3);
    Run straight(c, pairs);
    straight.steps(8);
    Run first(c, pairs);
    first.steps(4);
    const std::optional<QByteArray> bytes = first.bytes();
    QVERIFY(bytes);
    QString error;
    std::optional<Checkpoint> ck = loadCheckpointFromBytes(*bytes, &error);
    QVERIFY2(ck, qPrintable(error));
    Run resumed(c, pairs);
    resumed.trainer = as::trainerFromCheckpoint(*ck);
    resumed.trainer->restoreState(4, Rng(1).state());
    resumed.batcher->setPosition(ck->run.epoch, ck->run.position);
    resumed.steps(4);
    QVERIFY(!sameBits(straight.trainer->model().params().values(),
                      resumed.trainer->model().params().values(),
                      straight.trainer->model().params().size()));
}

void TestCheckpoint::historyAndSettingsRoundTrip()
{
    const ModelConfig c = tinyConfig();
    Run run(c, randomPairs(24, c, 5));
    run.steps(7);
    const std::optional<QByteArray> bytes = run.bytes();
    QVERIFY(bytes);
    QString error;
    const std::optional<Checkpoint> ck = loadCheckpointFromBytes(*bytes, &error);
    QVERIFY2(ck, qPrintable(error));
    QCOMPARE(ck->model.config, c);
    QCOMPARE(ck->model.srcVocab.tokens(), run.src.tokens());
    QCOMPARE(ck->model.tgtVocab.tokens(), run.tgt.tokens());
    QCOMPARE(ck->model.srcTok, TokenizerKind::CjkChar);
    QCOMPARE(ck->model.tgtTok, TokenizerKind::Word);
    const CheckpointRun want = run.runState();
    QVERIFY(ck->run.dataRng == want.dataRng);
    QCOMPARE(ck->run.epoch, want.epoch);
    QCOMPARE(ck->run.position, want.position);
    QCOMPARE(ck->run.trainSeconds, want.trainSeconds);
    QCOMPARE(ck->run.data, want.data);
    QCOMPARE(ck->run.session, want.session);
    QCOMPARE(ck->options.factor, options().factor);
    QCOMPARE(ck->options.warmup, options().warmup);

    const TrainingHistory& h = ck->history;
    QCOMPARE(h.loss.size(), run.history.loss.size());
    for (std::size_t i = 0; i < h.loss.size(); ++i) {
        QCOMPARE(h.loss[i].step, run.history.loss[i].step);
        QCOMPARE(h.loss[i].loss, run.history.loss[i].loss);
        QCOMPARE(h.loss[i].lr, run.history.loss[i].lr);
        QCOMPARE(h.loss[i].tokens, run.history.loss[i].tokens);
        QCOMPARE(h.loss[i].seconds, run.history.loss[i].seconds);
    }
    QCOMPARE(h.eval.size(), std::size_t(2));
    QCOMPARE(h.eval[1].step, 6L);
    QCOMPARE(h.eval[1].accuracy, 0.5);
    QCOMPARE(h.eval[1].bleu, 12.5);            // step 6
    QVERIFY(std::isnan(h.eval[0].bleu));       // step 3: not computed
    QCOMPARE(h.eval[0].nll, run.history.eval[0].nll);
    QCOMPARE(h.eval[1].nll, run.history.eval[1].nll);
    QCOMPARE(h.attention.size(), std::size_t(2));
    for (std::size_t i = 0; i < h.attention.size(); ++i) {
        const AttentionRecord &x = *h.attention[i], &y = *run.history.attention[i];
        QCOMPARE(x.step, y.step);
        QCOMPARE(x.srcTokens, y.srcTokens);
        QCOMPARE(x.tgtTokens, y.tgtTokens);
        QCOMPARE(x.encoderSelf.size(), y.encoderSelf.size());
        for (std::size_t l = 0; l < x.cross.size(); ++l) {
            QVERIFY(x.encoderSelf[l] == y.encoderSelf[l]);
            QVERIFY(x.decoderSelf[l] == y.decoderSelf[l]);
            QVERIFY(x.cross[l] == y.cross[l]);
        }
    }
    QVERIFY(h.lastBatch);
    QCOMPARE(h.lastBatch->src, run.history.lastBatch->src);
    QCOMPARE(h.lastBatch->tgtOut, run.history.lastBatch->tgtOut);
    QCOMPARE(h.lastBatch->T, run.history.lastBatch->T);
}

// A decoder-only model's attention records have no cross-attention (core/SPEC.md §2.10): its
// checkpoint reads back with them (a window-saved language model was refused, "cross-attention:
// 0 layers, but the model has 2").
void TestCheckpoint::decoderOnlyAttentionRoundTrip()
{
    SessionSettings s = SessionSettings::defaultsFor(u"lm-brackets"_s);
    s.model.d_model = 16;
    s.model.heads = 2;
    s.model.d_ff = 32;
    s.model.decoder_layers = 2;
    QString error;
    std::unique_ptr<TrainingSession> session = makeSession(makeSessionData(s, &error), &s, &error);
    QVERIFY2(session, qPrintable(error));
    session->step();
    const TokenPair probe{{}, {u"("_s, u"["_s, u"]"_s, u")"_s}};
    const std::shared_ptr<const AttentionRecord> rec = session->recordAttention(probe);
    QCOMPARE(rec->decoderSelf.size(), std::size_t(2));
    QVERIFY(rec->cross.empty());
    QTemporaryDir dir;
    const QString path = dir.filePath(u"lm.ckpt"_s);
    QVERIFY2(session->saveCheckpoint(path, sessionRecord(s, probe), &error), qPrintable(error));
    const std::optional<Checkpoint> ck = loadCheckpoint(path, &error);
    QVERIFY2(ck, qPrintable(error));
    QCOMPARE(ck->history.attention.size(), std::size_t(1));
    const AttentionRecord& back = *ck->history.attention[0];
    QCOMPARE(back.tgtTokens, rec->tgtTokens);
    QVERIFY(back.cross.empty());
    QCOMPARE(back.decoderSelf.size(), std::size_t(2));
    for (std::size_t l = 0; l < 2; ++l)
        QVERIFY(back.decoderSelf[l] == rec->decoderSelf[l]);
}

void TestCheckpoint::checkpointServesAsModelFile()
{
    const ModelConfig c = tinyConfig();
    Run run(c, randomPairs(24, c, 5));
    run.steps(3);
    QTemporaryDir dir;
    const QString path = dir.filePath("run.ckpt");
    QString error;
    QVERIFY2(run.save(path, &error), qPrintable(error));
    std::optional<ModelBundle> b = loadModel(path, &error);
    QVERIFY2(b, qPrintable(error));
    QCOMPARE(b->config, c);
    QVERIFY(sameBits(b->model->params().values(), run.trainer->model().params().values(),
                     run.trainer->model().params().size()));
    QCOMPARE(b->srcTok, TokenizerKind::CjkChar);
    std::optional<ModelBundle> fromBytes = loadModelFromBytes(readAll(path), &error);
    QVERIFY2(fromBytes, qPrintable(error));
    // A damaged checkpoint is refused by loadModel with the checkpoint reader's message.
    QByteArray bad = readAll(path);
    bad[bad.size() / 2] = char(bad[bad.size() / 2] ^ 0x10);
    QVERIFY(writeFile(path, bad));
    QVERIFY(!loadModel(path, &error));
    QVERIFY2(error.contains("checksum") && error.contains("run.ckpt"), qPrintable(error));
}

void TestCheckpoint::truncatedAtAnyOffset()
{
    const ModelConfig c = tinyConfig();
    Run run(c, randomPairs(24, c, 5));
    run.steps(3);
    const QByteArray file = *run.bytes();
    QTemporaryDir dir;
    const QString path = dir.filePath("cut.ckpt");
    int tried = 0;
    // Every offset through the table, then about 400 spread over the rest.
    for (qsizetype len = 0; len < file.size();
         len += len < 400 ? 1 : std::max<qsizetype>(1, file.size() / 400)) {
        QString error;
        const QByteArray cut = file.left(len);
        QVERIFY2(!loadCheckpointFromBytes(cut, &error), qPrintable(QString::number(len)));
        QVERIFY2(!error.isEmpty(), qPrintable(QString::number(len)));
        if (len % 7 == 0) {  // the file reader has its own early checks
            QVERIFY(writeFile(path, cut));
            QVERIFY(!loadCheckpoint(path, &error));
            QVERIFY2(error.startsWith("cut.ckpt: "), qPrintable(error));
        }
        ++tried;
    }
    QString error;
    QVERIFY(writeFile(path, file.left(file.size() - 1)));
    QVERIFY(!loadCheckpoint(path, &error));
    QVERIFY2(error.contains("truncated"), qPrintable(error));
    QVERIFY(tried > 700);
}

void TestCheckpoint::bitFlipsAreCaught()
{
    const ModelConfig c = tinyConfig();
    Run run(c, randomPairs(24, c, 5));
    run.steps(3);
    const QByteArray file = *run.bytes();
    Rng rng(11);
    int checksumMessages = 0;
    for (int i = 0; i < 600; ++i) {
        QByteArray bad = file;
        // The first 300 flips cover the header and table byte by byte.
        const qsizetype at = i < 300 ? i : qsizetype(rng.below(std::uint64_t(file.size())));
        bad[at] = char(bad[at] ^ (1 << rng.below(8)));
        QString error;
        QVERIFY2(!loadCheckpointFromBytes(bad, &error), qPrintable(QStringLiteral("flip at %1").arg(at)));
        QVERIFY(!error.isEmpty());
        checksumMessages += error.contains("checksum");
    }
    QVERIFY(checksumMessages > 400);
}

// A version 1 file (validation points without BLEU) still loads: its points read as not
// computed, everything else as written.
void TestCheckpoint::readsVersion1()
{
    const ModelConfig c = tinyConfig();
    Run run(c, randomPairs(24, c, 5));
    run.steps(6);
    Sections s = Sections::of(*run.bytes());
    QByteArray& h = s["history"];
    const qsizetype lossBytes = 8 + 40 * qsizetype(run.history.loss.size());
    const auto nEval = qFromLittleEndian<quint64>(h.constData() + lossBytes);
    QCOMPARE(nEval, quint64(2));
    for (quint64 i = nEval; i-- > 0;)  // drop each point's last two f64 (BLEU, NLL), back to front
        h.remove(lossBytes + 8 + qsizetype(i) * 48 + 32, 16);
    h.chop(8);  // and the induction records' count (version 5)
    QString error;
    std::optional<Checkpoint> ck = loadCheckpointFromBytes(s.build(-1, 0, 0, 1), &error);
    QVERIFY2(ck, qPrintable(error));
    QCOMPARE(ck->history.eval.size(), std::size_t(2));
    QCOMPARE(ck->history.eval[1].loss, run.history.eval[1].loss);
    QCOMPARE(ck->history.eval[1].accuracy, 0.5);
    QVERIFY(std::isnan(ck->history.eval[1].bleu));
    QVERIFY(std::isnan(ck->history.eval[1].nll));
    QCOMPARE(ck->history.attention.size(), std::size_t(2));
    // The same bytes read as version 2 do not fit: refused.
    QVERIFY(!loadCheckpointFromBytes(s.build(), &error));
}

// A version 3 file (validation points without their NLL) loads with the NLL not recorded, a
// version 4 file (no induction records) with none; a
// version 4 point whose NLL is negative or infinite is refused by name.
void TestCheckpoint::readsVersion3()
{
    const ModelConfig c = tinyConfig();
    Run run(c, randomPairs(24, c, 5));
    run.steps(6);
    const QByteArray file = *run.bytes();
    Sections s = Sections::of(file);
    QByteArray& h = s["history"];
    const qsizetype lossBytes = 8 + 40 * qsizetype(run.history.loss.size());
    const auto nEval = qFromLittleEndian<quint64>(h.constData() + lossBytes);
    QCOMPARE(nEval, quint64(2));
    const QByteArray v5 = h;
    for (quint64 i = nEval; i-- > 0;)  // drop each point's last f64 (its NLL), back to front
        h.remove(lossBytes + 8 + qsizetype(i) * 48 + 40, 8);
    h.chop(8);  // and the induction records' count (version 5)
    QString error;
    std::optional<Checkpoint> ck = loadCheckpointFromBytes(s.build(-1, 0, 0, 3), &error);
    QVERIFY2(ck, qPrintable(error));
    QCOMPARE(ck->history.eval.size(), std::size_t(2));
    QCOMPARE(ck->history.eval[1].bleu, 12.5);
    QVERIFY(std::isnan(ck->history.eval[0].nll));
    QVERIFY(std::isnan(ck->history.eval[1].nll));
    QVERIFY(!loadCheckpointFromBytes(s.build(-1, 0, 0, 4), &error));  // the same bytes as version 4: refused
    // Version 4: the NLL, and no induction records (version 5 adds their count, 0 here).
    h = v5;
    h.chop(8);
    ck = loadCheckpointFromBytes(s.build(-1, 0, 0, 4), &error);
    QVERIFY2(ck, qPrintable(error));
    QCOMPARE(ck->history.eval[1].nll, run.history.eval[1].nll);
    QVERIFY(ck->history.induction.empty());
    QVERIFY(!loadCheckpointFromBytes(s.build(), &error));  // the same bytes as version 5: refused

    for (const double bad : {-0.5, std::numeric_limits<double>::infinity()}) {
        h = v5;
        char w[8];
        qToLittleEndian<double>(bad, w);
        h.replace(lossBytes + 8 + 48 + 40, 8, QByteArray(w, 8));  // the second point's NLL
        QVERIFY(!loadCheckpointFromBytes(s.build(), &error));
        QVERIFY2(error.contains("NLL") && error.contains("step 6"), qPrintable(error));
    }
    h = v5;
    QVERIFY2(loadCheckpointFromBytes(s.build(), &error), qPrintable(error));  // the rebuild is sound
}

void TestCheckpoint::wrongVersionAndRandomBytes()
{
    const ModelConfig c = tinyConfig();
    Run run(c, randomPairs(24, c, 5));
    run.steps(2);
    const QByteArray file = *run.bytes();
    QString error;
    QVERIFY(!loadCheckpointFromBytes(Sections::of(file).build(-1, 0, 0, 6), &error));
    QVERIFY2(error.contains("version 6") && error.contains("versions 1 to 5"), qPrintable(error));
    QVERIFY(!loadCheckpointFromBytes(Sections::of(file).build(-1, 0, 0, 0), &error));
    QVERIFY(loadCheckpointFromBytes(Sections::of(file).build(), &error));  // the rebuild is sound

    Rng rng(5);
    for (int i = 0; i < 200; ++i) {
        QByteArray junk(qsizetype(rng.below(5000)), '\0');
        for (char& ch : junk)
            ch = char(rng.next());
        if (i % 2)  // with the magic, so the reader goes further
            junk.prepend(QByteArray("\x89" "ASCKPT\n", 8));
        QVERIFY(!loadCheckpointFromBytes(junk, &error));
        QVERIFY(!error.isEmpty());
    }
    QVERIFY(!loadCheckpointFromBytes(QByteArray(), &error));
    QVERIFY2(error.contains("not an Attention Studio checkpoint"), qPrintable(error));
}

void TestCheckpoint::hostileContentBehindValidChecksums_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("expected");
    QTest::newRow("huge loss-point count") << 0 << "entries cannot fit";
    QTest::newRow("section offset past the end") << 1 << "starts at byte";
    QTest::newRow("section size past the end") << 2 << "runs past the end";
    QTest::newRow("adam moments of the wrong size") << 3 << "section 'adam'";
    QTest::newRow("attention map of the wrong shape") << 4 << "by keys is";
    QTest::newRow("vocabulary does not fit the weights") << 5 << "does not fit the weights";
    QTest::newRow("meta: step not a number") << 6 << "'step'";
    QTest::newRow("meta: zero random state") << 7 << "rng.dropout";
    QTest::newRow("batch ids outside the vocabulary") << 8 << "outside the vocabulary";
    QTest::newRow("a section twice") << 9 << "appears twice";
    QTest::newRow("huge token count") << 10 << "tokens cannot fit";
    QTest::newRow("trailing bytes") << 11 << "unexpected bytes";
}

void TestCheckpoint::hostileContentBehindValidChecksums()
{
    QFETCH(int, kind);
    QFETCH(QString, expected);
    const ModelConfig c = tinyConfig();
    Run run(c, randomPairs(24, c, 5));
    run.steps(3);
    const QByteArray file = *run.bytes();
    Sections s = Sections::of(file);
    QByteArray out;
    auto setU64 = [](QByteArray& b, qsizetype at, quint64 v) { qToLittleEndian(v, b.data() + at); };
    auto setU32 = [](QByteArray& b, qsizetype at, quint32 v) { qToLittleEndian(v, b.data() + at); };
    const qsizetype lossBytes = 8 + 40 * qsizetype(run.history.loss.size());
    const qsizetype evalBytes = 8 + 48 * qsizetype(run.history.eval.size());
    switch (kind) {
    case 0:
        setU64(s["history"], 0, quint64(1) << 60);
        out = s.build();
        break;
    case 1:
        out = s.build(2, quint64(1) << 40, quint64(s["adam"].size()));
        break;
    case 2:
        out = s.build(3, quint64(file.size() - s["history"].size()), quint64(1) << 62);
        break;
    case 3:
        s["adam"].chop(4);
        out = s.build();
        break;
    case 4: {
        // The first record's first encoder map: one more column than keys.
        const qsizetype rec = lossBytes + evalBytes + 8;
        const qsizetype srcAt = rec + 12;
        qsizetype at = srcAt + 4;
        for (int i = 0, n = int(qFromLittleEndian<quint32>(s["history"].constData() + srcAt)); i < n; ++i)
            at += 4 + qFromLittleEndian<quint32>(s["history"].constData() + at);
        const quint32 nt = qFromLittleEndian<quint32>(s["history"].constData() + at);
        at += 4;
        for (quint32 i = 0; i < nt; ++i)
            at += 4 + qFromLittleEndian<quint32>(s["history"].constData() + at);
        // at: encoder self layer count, then rows, cols
        setU32(s["history"], at + 8, qFromLittleEndian<quint32>(s["history"].constData() + at + 8) + 1);
        out = s.build();
        break;
    }
    case 5: {
        // A model section whose source vocabulary lists one token fewer than the embedding.
        QByteArray& m = s["model"];
        const auto n = qFromLittleEndian<quint64>(m.constData());
        QByteArray header = m.mid(8, qsizetype(n));
        const QByteArray from = "\\\"s16\\\"";  // the last source token, inside a JSON string
        const qsizetype at = header.indexOf(from);
        QVERIFY(at > 0);
        header.remove(at - 1, from.size() + 1);  // and its comma
        header.append(QByteArray(from.size() + 1, ' '));
        m.replace(8, qsizetype(n), header);
        out = s.build();
        break;
    }
    case 6: {
        QJsonObject meta = metaOf(file);
        meta["step"] = "many";
        s["meta"] = QJsonDocument(meta).toJson();
        out = s.build();
        break;
    }
    case 7: {
        QJsonObject meta = metaOf(file);
        QJsonObject rng = meta["rng"].toObject();
        rng["dropout"] = QString(64, '0');
        meta["rng"] = rng;
        s["meta"] = QJsonDocument(meta).toJson();
        out = s.build();
        break;
    }
    case 8: {
        QByteArray& h = s["history"];
        // The last target id (before the induction records' count, 0) becomes V.
        setU32(h, h.size() - 8 - 4, quint32(c.tgt_vocab));
        out = s.build();
        break;
    }
    case 9:
        s.names[3] = s.names[2];
        out = s.build();
        break;
    case 10: {
        // The first record's source token count.
        setU32(s["history"], lossBytes + evalBytes + 8 + 12, 0x7fffffff);
        out = s.build();
        break;
    }
    case 11:
        out = s.build() + QByteArray("xyz");
        break;
    }
    QString error;
    QVERIFY(!loadCheckpointFromBytes(out, &error));
    QVERIFY2(error.contains(expected), qPrintable(error));
}

void TestCheckpoint::abandonedSaveKeepsOldFile()
{
    const ModelConfig c = tinyConfig();
    Run run(c, randomPairs(24, c, 5));
    run.steps(2);
    QTemporaryDir dir;
    const QString path = dir.filePath("run.ckpt");
    QString error;
    QVERIFY2(run.save(path, &error), qPrintable(error));
    const QByteArray before = readAll(path);
    run.steps(2);
    CheckpointSaveOptions o;
    bool called = false;
    o.progress = [&](qint64 written, qint64 total) {
        called = true;
        return written < total / 2;  // gives up partway, as a crash would
    };
    QVERIFY(!saveCheckpoint(path, *run.trainer, run.src, run.tgt, TokenizerKind::Word,
                            TokenizerKind::Word, run.runState(), run.history, &error, o));
    QVERIFY(called);
    QVERIFY2(error.contains("abandoned") && error.contains(path), qPrintable(error));
    QCOMPARE(readAll(path), before);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"run.ckpt"});  // no leftovers
    QVERIFY(loadCheckpoint(path, &error));
}

// A real kill -9 in the middle of a save: a child process starts saving over the file, stops
// halfway (its progress callback tells the parent, then waits), and is killed.
void TestCheckpoint::killedSaveKeepsOldFile()
{
#ifndef __linux__
    AS_SKIP("needs Linux (fork, SIGKILL): a killed save is not checked on this system");
#else
    const ModelConfig c = tinyConfig();
    Run run(c, randomPairs(24, c, 5));
    run.steps(2);
    QTemporaryDir dir;
    const QString path = dir.filePath("run.ckpt");
    QString error;
    QVERIFY2(run.save(path, &error), qPrintable(error));
    const QByteArray before = readAll(path);
    run.steps(2);
    int fds[2];
    QCOMPARE(pipe(fds), 0);
    const pid_t child = fork();
    QVERIFY(child >= 0);
    if (child == 0) {
        CheckpointSaveOptions o;
        o.progress = [&](qint64 written, qint64 total) {
            if (written >= total / 2) {
                const char ready = 'k';
                (void)!write(fds[1], &ready, 1);
                for (;;)
                    pause();
            }
            return true;
        };
        QString e;
        saveCheckpoint(path, *run.trainer, run.src, run.tgt, TokenizerKind::Word,
                       TokenizerKind::Word, run.runState(), run.history, &e, o);
        _exit(3);  // not reached unless the save did not stop
    }
    close(fds[1]);
    char got = 0;
    const bool halfway = read(fds[0], &got, 1) == 1;
    close(fds[0]);
    kill(child, SIGKILL);
    int status = 0;
    waitpid(child, &status, 0);
    QVERIFY2(halfway && got == 'k', "the child did not reach the middle of its save");
    QVERIFY(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
    QCOMPARE(readAll(path), before);
    QVERIFY2(loadCheckpoint(path, &error), qPrintable(error));
#endif
}

void TestCheckpoint::saveIntoReadOnlyFolderFails()
{
    const ModelConfig c = tinyConfig();
    Run run(c, randomPairs(24, c, 5));
    run.steps(1);
    QTemporaryDir dir;
    const QString path = dir.filePath("run.ckpt");
    QString error;
    QVERIFY2(run.save(path, &error), qPrintable(error));
    const QByteArray before = readAll(path);
    run.steps(1);
    const QFileDevice::Permissions readOnly = QFileDevice::ReadOwner | QFileDevice::ExeOwner;
    QVERIFY(QFile::setPermissions(dir.path(), readOnly));
    bool droppedFsuid = false;  // root ignores folder permissions: act as "nobody"
#ifdef __linux__
    if (geteuid() == 0) {
        setfsuid(65534);
        droppedFsuid = setfsuid(65534) == 65534;
    }
#endif
    const bool writable = QFile(dir.filePath("probe")).open(QIODevice::WriteOnly);
    bool saved = false;
    if (!writable)
        saved = run.save(path, &error);
#ifdef __linux__
    if (droppedFsuid)
        setfsuid(0);
#endif
    QVERIFY(QFile::setPermissions(dir.path(), readOnly | QFileDevice::WriteOwner));
    if (writable)
        AS_SKIP("folder permissions are not enforced for this user (root that cannot act as \"nobody\" "
                "with setfsuid): run the tests as a normal user, or as root with CAP_SETUID");
    QVERIFY(!saved);
    QVERIFY2(error.contains("cannot save") && error.contains(path), qPrintable(error));
    QCOMPARE(readAll(path), before);
}

// The small configuration of core/SPEC.md §7.2 with tiny's vocabularies: the size and time figures.
void TestCheckpoint::smallConfigFigures()
{
    ModelConfig c = *ModelConfig::preset("small");
    c.src_vocab = 3000;
    c.tgt_vocab = 5000;
    Trainer t(c, options());
    t.adam().firstMoment().setConstant(0.25f);
    t.adam().secondMoment().setConstant(0.5f);
    t.restoreState(1234, Rng(3).state());
    const Vocab src = vocabOfSize(c.src_vocab, "s"), tgt = vocabOfSize(c.tgt_vocab, "t");
    TrainingHistory h;
    for (long i = 1; i <= 1234; ++i)
        h.loss.push_back({i, double(i), 1.0 / double(i), 1e-4, 700});
    QTemporaryDir dir;
    const QString path = dir.filePath("small.ckpt");
    QString error;
    QElapsedTimer timer;
    timer.start();
    QVERIFY2(saveCheckpoint(path, t, src, tgt, TokenizerKind::CjkChar, TokenizerKind::Word, {},
                            h, &error),
             qPrintable(error));
    const qint64 saveMs = timer.restart();
    std::optional<Checkpoint> ck = loadCheckpoint(path, &error);
    const qint64 loadMs = timer.elapsed();
    QVERIFY2(ck, qPrintable(error));
    QVERIFY(sameBits(ck->model.model->params().values(), t.model().params().values(),
                     t.model().params().size()));
    QCOMPARE(ck->adamV[7], 0.5f);
    qInfo("small (%zu parameters): checkpoint %.1f MB, saved in %lld ms, loaded in %lld ms",
          t.model().params().size(), double(QFileInfo(path).size()) / 1e6, saveMs, loadMs);
}

void TestCheckpoint::forwardOrderFollowsTheForwardPass()
{
    for (NormPlacement norm : {NormPlacement::Pre, NormPlacement::Post}) {
        Transformer<float> m(tinyConfig(norm));
        std::vector<std::string> names;
        for (std::size_t i : forwardOrder(m))
            names.push_back(m.params().table()[i].name);
        QCOMPARE(names.size(), m.params().table().size());
        auto pos = [&](const std::string& n) {
            return std::find(names.begin(), names.end(), n) - names.begin();
        };
        QCOMPARE(names.front(), std::string("src_embed.weight"));
        QCOMPARE(names.back(), std::string("generator.bias"));
        QVERIFY(pos("encoder.layers.1.ffn.w2.bias") < pos("tgt_embed.weight"));
        QVERIFY(pos("decoder.layers.0.cross_attn.o.bias") < pos("decoder.layers.0.ffn.w1.weight"));
        QVERIFY(pos("decoder.layers.0.ffn.w2.bias") < pos("decoder.layers.1.self_attn.q.weight"));
        const bool pre = norm == NormPlacement::Pre;
        QCOMPARE(pos("encoder.layers.0.norm1.weight") < pos("encoder.layers.0.self_attn.q.weight"), pre);
        QCOMPARE(pos("decoder.layers.1.norm3.bias") < pos("decoder.layers.1.ffn.w1.weight"), pre);
    }
}

void TestCheckpoint::nanGradientSkipsTheStep()
{
    const ModelConfig c = tinyConfig();
    Run run(c, randomPairs(24, c, 5));
    run.steps(2);
    Trainer& t = *run.trainer;
    const std::size_t n = t.model().params().size();
    const std::vector<float> values(t.model().params().values(), t.model().params().values() + n);
    const Eigen::VectorXf m = t.adam().firstMoment(), v = t.adam().secondMoment();
    const Rng::State rngBefore = t.dropoutRngState();
    // Two poisoned gradients: tgt_embed comes first in the parameter table, the encoder layer
    // first in the forward pass.
    t.afterBackward = [](ParamStore<float>& ps) {
        ps.grads()[ps.find("tgt_embed.weight")->offset + 5] = NAN;
        ps.grads()[ps.find("encoder.layers.1.ffn.w2.bias")->offset + 3] = INFINITY;
    };
    const StepStats st = t.step(run.batcher->next());
    QVERIFY(!st.applied);
    QCOMPARE(st.step, 3L);
    QCOMPARE(t.stepCount(), 2L);
    QVERIFY2(st.fault.contains("step 3") && st.fault.contains("encoder.layers.1.ffn.w2.bias")
                 && st.fault.contains("+Inf") && st.fault.contains("2 of ")
                 && st.fault.contains("skipped"),
             qPrintable(st.fault));
    QVERIFY(sameBits(values.data(), t.model().params().values(), n));
    QVERIFY(sameBits(m.data(), t.adam().firstMoment().data(), n));
    QVERIFY(sameBits(v.data(), t.adam().secondMoment().data(), n));
    QCOMPARE(t.adam().steps(), 2L);
    QVERIFY(rngBefore != t.dropoutRngState());  // dropout was drawn: the batch did run
    t.afterBackward = nullptr;
    const StepStats next = t.step(run.batcher->next());
    QVERIFY(next.applied);
    QCOMPARE(next.step, 3L);
    QVERIFY(!sameBits(values.data(), t.model().params().values(), n));
}

void TestCheckpoint::nanLossSkipsTheStep()
{
    const ModelConfig c = tinyConfig();
    Run run(c, randomPairs(24, c, 5));
    run.steps(1);
    Trainer& t = *run.trainer;
    ParamStore<float>& ps = t.model().params();
    ps.values()[ps.find("generator.bias")->offset + 4] = NAN;  // every position's logits
    const std::size_t n = ps.size();
    const std::vector<float> values(ps.values(), ps.values() + n);
    const Eigen::VectorXf v = t.adam().secondMoment();
    const StepStats st = t.step(run.batcher->next());
    QVERIFY(!st.applied);
    QVERIFY2(st.fault.startsWith("step 2: the loss is NaN") && st.fault.contains("the gradient of "),
             qPrintable(st.fault));
    QVERIFY(sameBits(values.data(), ps.values(), n));
    QVERIFY(sameBits(v.data(), t.adam().secondMoment().data(), n));
    QCOMPARE(t.stepCount(), 1L);
}

void TestCheckpoint::clippingBoundsTheGradientNorm()
{
    const ModelConfig c = tinyConfig();
    const std::vector<EncodedPair> pairs = randomPairs(24, c, 5);
    Batcher batcher(pairs, 40, 7);
    const Batch b = batcher.next();
    TrainOptions o = options();
    o.clipNorm = 0;
    Trainer free(c, o);
    const StepStats unclipped = free.step(b);
    QVERIFY(!unclipped.clipped && unclipped.gradNorm > 0.01);
    o.clipNorm = unclipped.gradNorm / 10;
    Trainer clipped(c, o);
    const StepStats st = clipped.step(b);
    QVERIFY(st.clipped);
    QCOMPARE(st.gradNorm, unclipped.gradNorm);
    const double after = clipped.model().params().gradVector().cast<double>().norm();
    QVERIFY2(std::abs(after - o.clipNorm) < 1e-4 * o.clipNorm, qPrintable(QString::number(after)));
    // Adam's second moment after one step is (1 - b2) g^2: a tenth of the gradient gives a
    // hundredth of it.
    const float ratio = clipped.adam().secondMoment().sum() / free.adam().secondMoment().sum();
    QVERIFY2(std::abs(ratio - 0.01f) < 1e-4f, qPrintable(QString::number(ratio)));
}

AS_TEST_GUILESS_MAIN(TestCheckpoint)
#include "test_checkpoint.moc"
