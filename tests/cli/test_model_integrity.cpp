// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// Model and checkpoint files that are damaged or absurd are refused with a reason, never by an
// abort: the weights' checksum (CRC-32C in "__metadata__") catches a flipped bit, a file
// without one still loads with a note, and a 20 GB sparse file, or a header describing more
// data than the machine could hold, is refused before its data is read (issue 30, §1 and §5).
#include "skip.h"
#include "test_files.h"
#include "io/bytes.h"
#include "io/checkpoint.h"
#include "io/interop.h"
#include "io/model_file.h"
#include "model/memory.h"
#include "cli_process.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace as;
using namespace Qt::StringLiterals;

class TestModelIntegrity : public QObject {
    Q_OBJECT
private slots:
    void crc32cCheckValues();
    void savedModelCarriesItsChecksum();
    void flippedWeightBitIsRefused();
    void modelWithoutChecksumLoadsWithNote();
    void sparseFileIsRefused();
    void hugeDataIsRefusedBeforeReading();
    void hugeCheckpointIsRefusedBeforeReading();
};

namespace {

QString fixture(const QString& name)
{
    return ::as::test::testFile(u"data/v0.1/"_s + name);
}

// A model written by today's code: the old fixture loaded and saved again.
QString saveFreshModel(const QTemporaryDir& dir)
{
    QString error;
    std::optional<ModelBundle> b = loadModel(fixture(u"plain.safetensors"_s), &error);
    if (!b)
        return {};
    const QString path = dir.filePath(u"fresh.safetensors"_s);
    if (!saveModel(path, *b->model, b->srcVocab, b->tgtVocab, b->srcTok, b->tgtTok, &error))
        return {};
    return path;
}

using ::as::test::readAll;

// A sparse file of `size` bytes that begins with `head` (the rest reads as zeros).
bool writeSparse(const QString& path, const QByteArray& head, qint64 size)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(head) == head.size() && f.resize(size);
}

}  // namespace

void TestModelIntegrity::crc32cCheckValues()
{
    // The standard check value of CRC-32C (the "check" of the CRC catalogue, RFC 3720 B.4).
    QCOMPARE(crc32c("123456789"), quint32(0xE3069283));
    QCOMPARE(crc32c(QByteArrayView()), quint32(0));
    // RFC 3720 B.4: 32 bytes of zeros, of 0xFF, and 0x00 … 0x1F.
    QCOMPARE(crc32c(QByteArray(32, '\0')), quint32(0x8A9136AA));
    QCOMPARE(crc32c(QByteArray(32, '\xFF')), quint32(0x62A8AB43));
    QByteArray ascending;
    for (int i = 0; i < 32; ++i)
        ascending += char(i);
    QCOMPARE(crc32c(ascending), quint32(0x46DD794E));
    // In pieces (across the 8-byte rounds) as in one.
    const QByteArray text = "The quick brown fox jumps over the lazy dog, 0123456789";
    for (int cut : {0, 1, 7, 8, 9, 30, int(text.size())})
        QCOMPARE(crc32c(text.mid(cut), crc32c(text.left(cut))), crc32c(text));
    QCOMPARE(crc32cHex(0xE3069283), u"e3069283"_s);
}

void TestModelIntegrity::savedModelCarriesItsChecksum()
{
    QTemporaryDir dir;
    const QString path = saveFreshModel(dir);
    QVERIFY(!path.isEmpty());
    QString error;
    std::optional<SafetensorsFile> file = SafetensorsFile::read(path, &error);
    QVERIFY2(file, qPrintable(error));
    const QString stored = file->metadata().value(QLatin1String(kModelChecksumKey));
    QCOMPARE(stored.size(), 8);
    // Worked out here from the file's bytes: the CRC of everything after the header.
    const QByteArray bytes = readAll(path);
    QCOMPARE(stored, crc32cHex(crc32c(QByteArrayView(bytes).sliced(8 + qsizetype(file->headerSize())))));
    std::optional<ModelBundle> b = loadModel(path, &error);
    QVERIFY2(b, qPrintable(error));
    QVERIFY2(b->notes.isEmpty(), qPrintable(b->notes.join(u'\n')));
}

void TestModelIntegrity::flippedWeightBitIsRefused()
{
    QTemporaryDir dir;
    const QString path = saveFreshModel(dir);
    QVERIFY(!path.isEmpty());
    QString error;
    std::optional<SafetensorsFile> file = SafetensorsFile::read(path, &error);
    QVERIFY2(file, qPrintable(error));
    QByteArray bytes = readAll(path);
    // The lowest mantissa bit of the first weight: still a finite number, so only the checksum
    // can tell.
    const qsizetype at = qsizetype(8 + file->headerSize());
    bytes[at] = char(bytes[at] ^ 1);
    const QString damaged = dir.filePath(u"damaged.safetensors"_s);
    QFile f(damaged);
    QVERIFY(f.open(QIODevice::WriteOnly));
    QCOMPARE(f.write(bytes), bytes.size());
    f.close();
    QVERIFY(!loadModel(damaged, &error));
    QVERIFY2(error.startsWith(u"damaged.safetensors: "_s), qPrintable(error));
    QVERIFY2(error.contains(u"checksum"_s) && error.contains(u"damaged"_s), qPrintable(error));
    // The command line says the same and exits with an error, not a crash.
    const test::ProcessRun r = test::runProgram(
        test::cliProgram(), {u"translate"_s, u"--threads"_s, u"1"_s, u"--model"_s, damaged},
        QProcessEnvironment::systemEnvironment(), "1 2 3\n", 60000);
    QVERIFY2(r.finished && r.exitCode > 0, qPrintable(test::describeRun(u"translate"_s, r)));
    QVERIFY2(r.err.contains("damaged.safetensors: ") && r.err.contains("checksum"),
             qPrintable(test::describeRun(u"translate"_s, r)));
}

void TestModelIntegrity::modelWithoutChecksumLoadsWithNote()
{
    // Written before models carried a checksum (as a file from another tool carries none).
    const QString old = fixture(u"plain.safetensors"_s);
    QString error;
    std::optional<ModelBundle> b = loadModel(old, &error);
    QVERIFY2(b, qPrintable(error));
    QCOMPARE(b->notes.size(), 1);
    QVERIFY2(b->notes[0].contains(u"no checksum"_s), qPrintable(b->notes[0]));
    // Imported as a foreign weight file: loaded, with the note among the import's notes.
    ImportOptions o;
    std::optional<WeightFileInfo> info = inspectWeights(old, &error);
    QVERIFY2(info, qPrintable(error));
    o.config = info->config;
    QStringList notes;
    std::optional<ModelBundle> imported = importWeights(old, o, &notes, &error);
    QVERIFY2(imported, qPrintable(error));
    QVERIFY2(notes.join(u'\n').contains(u"no checksum"_s), qPrintable(notes.join(u'\n')));
    // The command line translates with it and prints the note.
    const test::ProcessRun r = test::runProgram(
        test::cliProgram(), {u"translate"_s, u"--threads"_s, u"1"_s, u"--model"_s, old},
        QProcessEnvironment::systemEnvironment(), "1 2 3\n", 60000);
    QVERIFY2(r.finished && r.exitCode == 0, qPrintable(test::describeRun(u"translate"_s, r)));
    QVERIFY2(r.err.contains("note: plain.safetensors: the file carries no checksum"),
             qPrintable(test::describeRun(u"translate"_s, r)));
}

void TestModelIntegrity::sparseFileIsRefused()
{
    // `truncate -s 20G big.safetensors`: 20 GB of zeros that take no disk space.
    QTemporaryDir dir;
    const QString big = dir.filePath(u"big.safetensors"_s);
    QVERIFY(writeSparse(big, {}, 20LL << 30));
    QCOMPARE(QFileInfo(big).size(), 20LL << 30);
    QString error;
    QVERIFY(!loadModel(big, &error));
    QVERIFY2(error.startsWith(u"big.safetensors: header is not valid JSON: it is empty"_s),
             qPrintable(error));
    QVERIFY(!SafetensorsFile::read(big, &error));
    QVERIFY(!inspectWeights(big, &error));
    QVERIFY(!importWeights(big, ImportOptions{}, nullptr, &error));
    QVERIFY2(error.contains(u"big.safetensors"_s), qPrintable(error));
    QVERIFY(!loadCheckpoint(big, &error));
    QVERIFY2(error.contains(u"not an Attention Studio checkpoint"_s), qPrintable(error));
    // The command line refuses it with the reason instead of aborting.
    const test::ProcessRun r = test::runProgram(
        test::cliProgram(), {u"translate"_s, u"--threads"_s, u"1"_s, u"--model"_s, big},
        QProcessEnvironment::systemEnvironment(), "1 2 3\n", 60000);
    QVERIFY2(r.finished && r.exitCode > 0, qPrintable(test::describeRun(u"translate"_s, r)));
    QVERIFY2(r.err.contains("translate: big.safetensors: header is not valid JSON: it is empty"),
             qPrintable(test::describeRun(u"translate"_s, r)));
}

void TestModelIntegrity::hugeDataIsRefusedBeforeReading()
{
    // A valid header whose one tensor is twice the machine's memory: refused with the figures
    // before any of the data is read.
    const std::uint64_t memory = physicalMemoryBytes();
    QVERIFY(memory > 0);
    const std::uint64_t elements = (2 * memory) / 4 + 1;
    QByteArray json = "{\"w\":{\"dtype\":\"F32\",\"shape\":[" + QByteArray::number(quint64(elements))
                      + "],\"data_offsets\":[0," + QByteArray::number(quint64(elements * 4)) + "]}}";
    json.append((8 - json.size() % 8) % 8, ' ');
    QByteArray head;
    putU64(head, quint64(json.size()));
    head += json;
    QTemporaryDir dir;
    const QString big = dir.filePath(u"huge.safetensors"_s);
    QVERIFY(writeSparse(big, head, qint64(head.size() + elements * 4)));
    QString error;
    QVERIFY(!SafetensorsFile::read(big, &error));
    QVERIFY2(error.startsWith(u"huge.safetensors: its "_s)
                 && error.contains(u"cannot be held in this machine's"_s),
             qPrintable(error));
    QVERIFY(!loadModel(big, &error));
    QVERIFY2(error.contains(u"cannot be held in this machine's"_s), qPrintable(error));
}

void TestModelIntegrity::hugeCheckpointIsRefusedBeforeReading()
{
    // A checkpoint's table whose sections add up to the file's size, which is twice the
    // machine's memory: refused before the sections are read.
    const QByteArray real = readAll(fixture(u"plain.ckpt"_s));
    QVERIFY(real.size() > 16 + 4 * 64 + 32);
    const std::uint64_t memory = physicalMemoryBytes();
    QVERIFY(memory > 0);
    const quint32 n = readU32(real.constData() + 12);
    const qint64 table = 16 + 64 * qint64(n) + 32;
    // Make the last section huge (its digest no longer matters: nothing may get that far).
    QByteArray head = real.left(table);
    const qint64 lastSize = qint64(readU64(head.constData() + 16 + 64 * (n - 1) + 24));
    const qint64 grown = lastSize + qint64(2 * memory);
    QByteArray le;
    putU64(le, quint64(grown));
    head.replace(16 + 64 * (n - 1) + 24, 8, le);
    QTemporaryDir dir;
    const QString big = dir.filePath(u"huge.ckpt"_s);
    QVERIFY(writeSparse(big, head, real.size() - lastSize + grown));
    QString error;
    QVERIFY(!loadCheckpoint(big, &error));
    QVERIFY2(error.startsWith(u"huge.ckpt: "_s) && error.contains(u"cannot be held in this machine's"_s),
             qPrintable(error));
}

AS_TEST_GUILESS_MAIN(TestModelIntegrity)
#include "test_model_integrity.moc"
