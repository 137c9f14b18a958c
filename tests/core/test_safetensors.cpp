// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The safetensors container: byte-exact output (against hand-built bytes and the reference
// implementation's own test vectors), round trips, every refusal of a hostile header, and an
// interrupted write that must leave the previous file intact.
#include "skip.h"
#include "test_files.h"
#include "io/safetensors.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtEndian>
#include <QtTest>

#include <csignal>
#include <cstring>
#include <limits>
#include <sys/resource.h>

using namespace as;
using namespace Qt::StringLiterals;

namespace {

QByteArray le64(std::uint64_t n)
{
    QByteArray b(8, '\0');
    for (int i = 0; i < 8; ++i)
        b[i] = char((n >> (8 * i)) & 0xFF);
    return b;
}

// A file with the given header text (unpadded) and data bytes.
QByteArray rawFile(const QByteArray& header, const QByteArray& data = {})
{
    return le64(std::uint64_t(header.size())) + header + data;
}

QByteArray floatBytes(std::initializer_list<float> values)
{
    QByteArray b;
    for (float v : values) {
        std::uint32_t u;
        std::memcpy(&u, &v, 4);
        for (int i = 0; i < 4; ++i)
            b += char((u >> (8 * i)) & 0xFF);
    }
    return b;
}

using ::as::test::readAll;

}  // namespace

class TestSafetensors : public QObject {
    Q_OBJECT

private slots:
    void byteExactTwoTensors();
    void headerJsonAsSpec();
    void referenceVectors_data();
    void referenceVectors();
    void roundTrip();
    void metadataEscaping();
    void writerRefusesBadInput();
    void hostile_data();
    void hostile();
    void readErrors();
    void failedWriteKeepsOldFile();
};

// The layout proven against bytes written out by hand, not against our own reader.
void TestSafetensors::byteExactTwoTensors()
{
    const float a[] = {1.0f, 2.0f, 3.0f};
    const float b[] = {0.5f, -1.0f};
    // Given in reverse order: the file sorts tensors by name, as the reference does.
    const std::vector<SafetensorsEntry> entries = {{"b.bias", {2}, b}, {"a.weight", {1, 3}, a}};
    QString error;
    const std::optional<QByteArray> bytes =
        serializeSafetensors(entries, {{u"note"_s, u"two"_s}}, &error);
    QVERIFY2(bytes, qPrintable(error));

    const QByteArray expected =
        QByteArray("\xA0\0\0\0\0\0\0\0", 8)  // N = 160, little-endian
        + "{\"__metadata__\":{\"note\":\"two\"},"
          "\"a.weight\":{\"dtype\":\"F32\",\"shape\":[1,3],\"data_offsets\":[0,12]},"
          "\"b.bias\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[12,20]}}"
          "      "  // 154 bytes of JSON padded with spaces to 160
        + QByteArray("\x00\x00\x80\x3F"
                     "\x00\x00\x00\x40"
                     "\x00\x00\x40\x40"   // 1, 2, 3
                     "\x00\x00\x00\x3F"
                     "\x00\x00\x80\xBF",  // 0.5, -1
                     20);
    QCOMPARE(bytes->size(), 8 + 160 + 20);
    QCOMPARE(*bytes, expected);

    // The same bytes through the file writer.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"two.safetensors"_s);
    QVERIFY2(writeSafetensors(path, entries, {{u"note"_s, u"two"_s}}, &error), qPrintable(error));
    QCOMPARE(readAll(path), expected);

    const std::optional<SafetensorsFile> file = SafetensorsFile::read(path, &error);
    QVERIFY2(file, qPrintable(error));
    QCOMPARE(file->headerSize(), std::uint64_t(160));
    QCOMPARE(file->dataSize(), std::uint64_t(20));
    QCOMPARE(file->tensors().size(), std::size_t(2));
    QCOMPARE(file->tensors()[0].name, std::string("a.weight"));
    const SafetensorsTensor* t = file->find("b.bias");
    QVERIFY(t);
    QCOMPARE(t->begin, std::uint64_t(12));
    QCOMPARE(t->end, std::uint64_t(20));
    float got[2] = {0, 0};
    file->copyValues(*t, got);
    QCOMPARE(got[0], 0.5f);
    QCOMPARE(got[1], -1.0f);
    QVERIFY(!file->find("c"));
    QVERIFY(file->hasMetadata());
    QCOMPARE(file->metadata().value(u"note"_s), u"two"_s);
}

// The header parsed as plain JSON has the fields of core/SPEC.md §8.1: dtype, shape, data_offsets.
void TestSafetensors::headerJsonAsSpec()
{
    const float w[6] = {1, 2, 3, 4, 5, 6};
    const float bias[3] = {7, 8, 9};
    QString error;
    const std::optional<QByteArray> bytes = serializeSafetensors(
        {{"generator.weight", {3, 2}, w}, {"generator.bias", {3}, bias}},
        {{u"format"_s, u"attention-studio/1"_s}}, &error);
    QVERIFY2(bytes, qPrintable(error));
    const std::uint64_t n = qFromLittleEndian<quint64>(bytes->constData());
    QCOMPARE(n % 8, std::uint64_t(0));
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes->mid(8, qsizetype(n)), &pe);
    QCOMPARE(pe.error, QJsonParseError::NoError);
    const QJsonObject root = doc.object();
    QCOMPARE(root.keys(), (QStringList{u"__metadata__"_s, u"generator.bias"_s,
                                       u"generator.weight"_s}));
    QCOMPARE(root[u"__metadata__"_s].toObject()[u"format"_s].toString(),
             u"attention-studio/1"_s);
    const QJsonObject g = root[u"generator.weight"_s].toObject();
    QCOMPARE(g.keys(), (QStringList{u"data_offsets"_s, u"dtype"_s, u"shape"_s}));
    QCOMPARE(g[u"dtype"_s].toString(), u"F32"_s);
    QCOMPARE(g[u"shape"_s].toArray(), (QJsonArray{3, 2}));
    // Sorted by name: generator.bias first at 0..12, then the weight at 12..36.
    QCOMPARE(g[u"data_offsets"_s].toArray(), (QJsonArray{12, 36}));
    QCOMPARE(root[u"generator.bias"_s].toObject()[u"data_offsets"_s].toArray(),
             (QJsonArray{0, 12}));
    QCOMPARE(bytes->size(), qsizetype(8 + n + 36));
}

// The expected bytes of the reference implementation's own serialisation tests
// (safetensors/src/tensor.rs: test_serialization, test_empty, ..._forced_alignement).
void TestSafetensors::referenceVectors_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QList<quint64>>("shape");
    QTest::addColumn<bool>("withMetadata");
    QTest::addColumn<QByteArray>("expected");
    const QByteArray values = floatBytes({0, 1, 2, 3, 4, 5});
    QTest::newRow("attn.0 [1,2,3], no padding")
        << u"attn.0"_s << QList<quint64>{1, 2, 3} << false
        << le64(64) + "{\"attn.0\":{\"dtype\":\"F32\",\"shape\":[1,2,3],\"data_offsets\":[0,24]}}"
               + values;
    QTest::newRow("attn0 [1,1,2,3], 7 spaces")
        << u"attn0"_s << QList<quint64>{1, 1, 2, 3} << false
        << le64(72) + "{\"attn0\":{\"dtype\":\"F32\",\"shape\":[1,1,2,3],\"data_offsets\":[0,24]}}"
               + QByteArray(7, ' ') + values;
    QTest::newRow("empty") << QString() << QList<quint64>{} << false
                           << le64(8) + "{}" + QByteArray(6, ' ');
    QTest::newRow("empty with metadata")
        << QString() << QList<quint64>{} << true
        << le64(40) + "{\"__metadata__\":{\"framework\":\"pt\"}}" + QByteArray(5, ' ');
}

void TestSafetensors::referenceVectors()
{
    QFETCH(QString, name);
    QFETCH(QList<quint64>, shape);
    QFETCH(bool, withMetadata);
    QFETCH(QByteArray, expected);
    const float values[6] = {0, 1, 2, 3, 4, 5};
    std::vector<SafetensorsEntry> entries;
    if (!name.isEmpty())
        entries.push_back({name.toStdString(), {shape.begin(), shape.end()}, values});
    SafetensorsMetadata meta;
    if (withMetadata)
        meta.insert(u"framework"_s, u"pt"_s);
    QString error;
    const std::optional<QByteArray> bytes = serializeSafetensors(entries, meta, &error);
    QVERIFY2(bytes, qPrintable(error));
    QCOMPARE(*bytes, expected);
    QVERIFY2(SafetensorsFile::parse(*bytes, &error), qPrintable(error));
}

// Scalars, empty tensors and awkward float bit patterns survive bit for bit.
void TestSafetensors::roundTrip()
{
    const float special[] = {-0.0f, std::numeric_limits<float>::denorm_min(),
                             std::numeric_limits<float>::max(),
                             std::numeric_limits<float>::lowest(), 1.0f / 3.0f,
                             std::numeric_limits<float>::quiet_NaN(),
                             std::numeric_limits<float>::infinity()};
    std::vector<float> big(1000);
    for (std::size_t i = 0; i < big.size(); ++i)
        big[i] = float(std::sin(double(i))) * 1e3f;
    const float scalar = 42.5f;
    const std::vector<SafetensorsEntry> entries = {{"special", {7}, special},
                                                   {"big.weight", {10, 10, 10}, big.data()},
                                                   {"scalar", {}, &scalar},
                                                   {"empty", {0, 3}, nullptr},
                                                   {"z\xC3\xA9ro \"quoted\"", {2}, special}};
    QString error;
    const std::optional<QByteArray> bytes = serializeSafetensors(entries, {}, &error);
    QVERIFY2(bytes, qPrintable(error));
    QVERIFY(!bytes->contains("__metadata__"));
    const std::optional<SafetensorsFile> file = SafetensorsFile::parse(*bytes, &error);
    QVERIFY2(file, qPrintable(error));
    QVERIFY(!file->hasMetadata());
    QCOMPARE(file->tensors().size(), entries.size());
    for (const SafetensorsEntry& e : entries) {
        const SafetensorsTensor* t = file->find(e.name);
        QVERIFY2(t, e.name.c_str());
        QCOMPARE(t->shape, e.shape);
        std::vector<float> got(t->elements() + 1, 7.0f);
        file->copyValues(*t, got.data());
        QCOMPARE(got.back(), 7.0f);  // nothing written past the end
        if (t->elements() > 0)
            QCOMPARE(std::memcmp(got.data(), e.data, t->elements() * 4), 0);
    }
    QCOMPARE(file->find("scalar")->elements(), std::uint64_t(1));
    QCOMPARE(file->find("empty")->elements(), std::uint64_t(0));
}

// Metadata strings with quotes, backslashes, control characters and non-ASCII text come back
// unchanged, and are escaped as serde_json escapes them.
void TestSafetensors::metadataEscaping()
{
    const QString tricky = u"\"q\" \\ \n\t\r\b\f \x01 \x1f / \u00e9 \u732b \U0001F600"_s;
    QString error;
    const std::optional<QByteArray> bytes =
        serializeSafetensors({}, {{u"k\"ey"_s, tricky}, {u"a"_s, u""_s}}, &error);
    QVERIFY2(bytes, qPrintable(error));
    QVERIFY(bytes->contains(R"("k\"ey":"\"q\" \\ \n\t\r\b\f \u0001 \u001f / )"));
    QVERIFY(bytes->contains("\xC3\xA9 \xE7\x8C\xAB \xF0\x9F\x98\x80"));  // raw UTF-8
    QVERIFY(bytes->indexOf("\"a\"") < bytes->indexOf("\"k\\\"ey\""));     // sorted keys
    const std::optional<SafetensorsFile> file = SafetensorsFile::parse(*bytes, &error);
    QVERIFY2(file, qPrintable(error));
    QCOMPARE(file->metadata().value(u"k\"ey"_s), tricky);
    QCOMPARE(file->metadata().value(u"a"_s), QString());
    QCOMPARE(file->metadata().size(), 2);
}

void TestSafetensors::writerRefusesBadInput()
{
    const float v[2] = {1, 2};
    QString error;
    QVERIFY(!serializeSafetensors({{"a", {2}, v}, {"a", {2}, v}}, {}, &error));
    QVERIFY2(error.contains(u"two tensors are named 'a'"_s), qPrintable(error));
    QVERIFY(!serializeSafetensors({{"__metadata__", {2}, v}}, {}, &error));
    QVERIFY2(error.contains(u"__metadata__"_s), qPrintable(error));
    QVERIFY(!serializeSafetensors({{"", {2}, v}}, {}, &error));
    QVERIFY(!serializeSafetensors({{"bad\xFF", {2}, v}}, {}, &error));
    QVERIFY2(error.contains(u"UTF-8"_s), qPrintable(error));
    QVERIFY(!serializeSafetensors({{"huge", {1ull << 40, 1ull << 40}, v}}, {}, &error));
    QVERIFY2(error.contains(u"overflows"_s), qPrintable(error));
    QVERIFY(!serializeSafetensors({{"null", {2}, nullptr}}, {}, &error));
    QVERIFY2(error.contains(u"no data"_s), qPrintable(error));

    QTemporaryDir dir;
    const QString path = dir.filePath(u"no/such/folder/x.safetensors"_s);
    error.clear();
    QVERIFY(!writeSafetensors(path, {{"a", {2}, v}}, {}, &error));
    QVERIFY2(error.contains(u"cannot write"_s), qPrintable(error));
}

void TestSafetensors::hostile_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("message");
    const QByteArray d16(16, '\0');
    auto one = [](const char* entry) {
        return QByteArray("{\"a\":") + entry + "}";
    };
    const char* ok = R"({"dtype":"F32","shape":[2,2],"data_offsets":[0,16]})";

    QTest::newRow("empty file") << QByteArray() << u"the file is empty"_s;
    QTest::newRow("7 bytes") << QByteArray(7, '\0') << u"only 7 bytes long"_s;
    QTest::newRow("header length huge")
        << le64(~0ull) + "{}" << u"header length 18446744073709551615 bytes is over"_s;
    QTest::newRow("header length just over 100 MB")
        << le64(100'000'001) + "{}" << u"over the format's limit of 100000000"_s;
    QTest::newRow("header length past end")
        << le64(100) + QByteArray("{}        ") << u"header length 100 bytes runs past the end"_s;
    QTest::newRow("header not UTF-8") << rawFile("{\"\xC3\x28\":1}") << u"not valid UTF-8 (byte 2"_s;
    QTest::newRow("header UTF-8 surrogate")
        << rawFile("{\"\xED\xA0\x80\":1}") << u"not valid UTF-8"_s;
    QTest::newRow("header not JSON") << rawFile("{\"a\": nope}") << u"header is not valid JSON"_s;
    QTest::newRow("header empty") << rawFile("") << u"header is not valid JSON"_s;
    QTest::newRow("header garbage after object")
        << rawFile("{} {}") << u"header is not valid JSON"_s;
    QTest::newRow("header JSON array") << rawFile("[]") << u"header is a JSON array"_s;
    QTest::newRow("header nested 100000 deep")
        << rawFile(QByteArray(100000, '[') + QByteArray(100000, ']'))
        << u"header is not valid JSON"_s;
    QTest::newRow("entry not an object") << rawFile(one("5")) << u"tensor 'a': the entry is a number"_s;
    QTest::newRow("no dtype") << rawFile(one(R"({"shape":[1],"data_offsets":[0,4]})"), d16.left(4))
                              << u"tensor 'a': no dtype"_s;
    QTest::newRow("dtype not a string")
        << rawFile(one(R"({"dtype":32,"shape":[1],"data_offsets":[0,4]})"), d16.left(4))
        << u"tensor 'a': dtype is a number"_s;
    QTest::newRow("dtype F16")
        << rawFile(one(R"({"dtype":"F16","shape":[2,2],"data_offsets":[0,8]})"), d16.left(8))
        << u"tensor 'a': dtype 'F16' is not supported (only F32"_s;
    QTest::newRow("dtype BF16")
        << rawFile(one(R"({"dtype":"BF16","shape":[2],"data_offsets":[0,4]})"), d16.left(4))
        << u"dtype 'BF16' is not supported"_s;
    QTest::newRow("no shape") << rawFile(one(R"({"dtype":"F32","data_offsets":[0,16]})"), d16)
                              << u"tensor 'a': no shape"_s;
    QTest::newRow("shape not an array")
        << rawFile(one(R"({"dtype":"F32","shape":4,"data_offsets":[0,16]})"), d16)
        << u"tensor 'a': shape is a number, not an array"_s;
    QTest::newRow("shape negative")
        << rawFile(one(R"({"dtype":"F32","shape":[-2,-2],"data_offsets":[0,16]})"), d16)
        << u"tensor 'a': shape[0] is -2, not a non-negative integer"_s;
    QTest::newRow("shape fractional")
        << rawFile(one(R"({"dtype":"F32","shape":[4,0.5],"data_offsets":[0,8]})"), d16.left(8))
        << u"tensor 'a': shape[1] is 0.5"_s;
    QTest::newRow("shape string")
        << rawFile(one(R"({"dtype":"F32","shape":["4"],"data_offsets":[0,16]})"), d16)
        << u"tensor 'a': shape[0] is \"4\""_s;
    QTest::newRow("shape above 2^64")
        << rawFile(one(R"({"dtype":"F32","shape":[18446744073709551617],"data_offsets":[0,4]})"),
                   d16.left(4))
        << u"tensor 'a': shape[0] is 1.8446744073709552e+19"_s;
    QTest::newRow("shape product overflows 64 bits")
        << rawFile(one(R"({"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,0]})"))
        << u"tensor 'a': shape [4294967296, 4294967296] has more elements than 64 bits"_s;
    QTest::newRow("shape bytes overflow 64 bits")
        << rawFile(one(R"({"dtype":"F32","shape":[4611686018427387904],"data_offsets":[0,0]})"))
        << u"needs more bytes than 64 bits"_s;
    QTest::newRow("no data_offsets") << rawFile(one(R"({"dtype":"F32","shape":[4]})"), d16)
                                     << u"tensor 'a': no data_offsets"_s;
    QTest::newRow("data_offsets three numbers")
        << rawFile(one(R"({"dtype":"F32","shape":[4],"data_offsets":[0,8,16]})"), d16)
        << u"tensor 'a': data_offsets must be an array [begin, end]"_s;
    QTest::newRow("data_offsets negative")
        << rawFile(one(R"({"dtype":"F32","shape":[4],"data_offsets":[-16,0]})"), d16)
        << u"tensor 'a': data_offsets begin is -16"_s;
    QTest::newRow("offsets reversed")
        << rawFile(one(R"({"dtype":"F32","shape":[4],"data_offsets":[16,0]})"), d16)
        << u"tensor 'a': data_offsets [16, 0] are reversed"_s;
    QTest::newRow("offsets past end")
        << rawFile(one(R"({"dtype":"F32","shape":[4],"data_offsets":[1218,1234]})"), d16)
        << u"tensor 'a': data_offsets end 1234 past the end of the data (16 bytes)"_s;
    QTest::newRow("size mismatch with shape")
        << rawFile(one(R"({"dtype":"F32","shape":[3],"data_offsets":[0,16]})"), d16)
        << u"tensor 'a': data_offsets [0, 16] hold 16 bytes but shape [3] of F32 needs 12"_s;
    QTest::newRow("overlapping tensors")
        << rawFile(R"({"a":{"dtype":"F32","shape":[3],"data_offsets":[0,12]},)"
                   R"("b":{"dtype":"F32","shape":[2],"data_offsets":[8,16]}})",
                   d16)
        << u"tensor 'b' (bytes 8-16) overlaps tensor 'a' (bytes 0-12)"_s;
    QTest::newRow("same bytes twice")
        << rawFile(R"({"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]},)"
                   R"("b":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}})",
                   d16)
        << u"overlaps"_s;
    QTest::newRow("gap between tensors")
        << rawFile(R"({"a":{"dtype":"F32","shape":[1],"data_offsets":[0,4]},)"
                   R"("b":{"dtype":"F32","shape":[2],"data_offsets":[8,16]}})",
                   d16)
        << u"gap in the data: bytes 4-8 before tensor 'b'"_s;
    QTest::newRow("gap at the start")
        << rawFile(one(R"({"dtype":"F32","shape":[3],"data_offsets":[4,16]})"), d16)
        << u"gap in the data: bytes 0-4 before tensor 'a'"_s;
    QTest::newRow("bytes after the last tensor")
        << rawFile(one(R"({"dtype":"F32","shape":[3],"data_offsets":[0,12]})"), d16)
        << u"its last 4 bytes (12-16) belong to no tensor"_s;
    QTest::newRow("data without tensors") << rawFile("{}", d16) << u"belong to no tensor"_s;
    QTest::newRow("duplicate key")
        << rawFile(QByteArray("{\"a\":") + ok + ",\"a\":" + ok + "}", d16)
        << u"the header lists 'a' twice"_s;
    QTest::newRow("duplicate key, escaped")
        << rawFile(QByteArray("{\"a\":") + ok + ",\"\\u0061\":" + ok + "}", d16)
        << u"the header lists 'a' twice"_s;
    QTest::newRow("duplicate field")
        << rawFile(one(R"({"dtype":"F32","dtype":"F16","shape":[2,2],"data_offsets":[0,16]})"), d16)
        << u"tensor 'a': field 'dtype' appears twice"_s;
    QTest::newRow("duplicate metadata key")
        << rawFile(QByteArray(R"({"__metadata__":{"k":"1","k":"2"},"a":)") + ok + "}", d16)
        << u"__metadata__: key 'k' appears twice"_s;
    QTest::newRow("duplicate __metadata__")
        << rawFile(R"({"__metadata__":{},"__metadata__":{}})") << u"lists '__metadata__' twice"_s;
    QTest::newRow("metadata value not a string")
        << rawFile(QByteArray(R"({"__metadata__":{"n":3},"a":)") + ok + "}", d16)
        << u"__metadata__: the value of 'n' is a number, not a string"_s;
    QTest::newRow("metadata value an object")
        << rawFile(R"({"__metadata__":{"n":{"x":"y"}}})")
        << u"__metadata__: the value of 'n' is an object"_s;
    QTest::newRow("tensor name a lone surrogate")
        << rawFile(R"({"\ud800":{"dtype":"F32","shape":[0],"data_offsets":[0,0]}})")
        << u"the name is not valid Unicode"_s;
    QTest::newRow("metadata not an object")
        << rawFile(R"({"__metadata__":["a","b"]})") << u"__metadata__ is an array"_s;
}

void TestSafetensors::hostile()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, message);
    QString error;
    const std::optional<SafetensorsFile> file = SafetensorsFile::parse(bytes, &error);
    QVERIFY(!file);
    QVERIFY2(error.contains(message), qPrintable(u"got: "_s + error));
}

void TestSafetensors::readErrors()
{
    QTemporaryDir dir;
    QString error;
    QVERIFY(!SafetensorsFile::read(dir.filePath(u"missing.safetensors"_s), &error));
    QVERIFY2(error.contains(u"cannot open"_s) && error.contains(u"missing.safetensors"_s),
             qPrintable(error));
    QVERIFY(!SafetensorsFile::read(dir.path(), &error));
    QVERIFY2(error.contains(u"folder"_s), qPrintable(error));
    if (QFileInfo(u"/dev/zero"_s).exists()) {  // endless: must not be read
        QVERIFY(!SafetensorsFile::read(u"/dev/zero"_s, &error));
        QVERIFY2(error.contains(u"not a regular file"_s), qPrintable(error));
    }
    // A parse error read from disk names the file.
    const QString path = dir.filePath(u"short.safetensors"_s);
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("abc");
    f.close();
    QVERIFY(!SafetensorsFile::read(path, &error));
    QVERIFY2(error.startsWith(u"short.safetensors: the file is only 3 bytes"_s), qPrintable(error));
}

// A write that fails half-way (here: the file-size limit, as a full disk would) leaves the
// previous file byte-identical and no temporary file behind.
void TestSafetensors::failedWriteKeepsOldFile()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(u"model.safetensors"_s);
    const float small[4] = {1, 2, 3, 4};
    QString error;
    QVERIFY2(writeSafetensors(path, {{"old", {4}, small}}, {}, &error), qPrintable(error));
    const QByteArray before = readAll(path);
    QVERIFY(!before.isEmpty());

    std::vector<float> big(1 << 16, 0.25f);  // 256 KiB of data
    rlimit old{};
    QCOMPARE(getrlimit(RLIMIT_FSIZE, &old), 0);
    rlimit limited = old;
    limited.rlim_cur = 64 * 1024;
    const auto oldHandler = std::signal(SIGXFSZ, SIG_IGN);
    QCOMPARE(setrlimit(RLIMIT_FSIZE, &limited), 0);
    const bool ok = writeSafetensors(path, {{"new", {big.size()}, big.data()}}, {}, &error);
    setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, oldHandler);

    QVERIFY(!ok);
    QVERIFY2(error.contains(u"cannot write"_s) && error.contains(path), qPrintable(error));
    QVERIFY2(!error.contains(u"Unknown error"_s), qPrintable(error));  // says why (EFBIG)
    QCOMPARE(readAll(path), before);
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden),
             QStringList{u"model.safetensors"_s});
    qInfo("interrupted write reported: %s", qPrintable(error));
}

AS_TEST_APPLESS_MAIN(TestSafetensors)
#include "test_safetensors.moc"
