// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// PyTorch's weight files read without running anything (io/torch_file.h, issue 62):
// - files written by torch.save itself (tests/reference/torch_files.py), in the zip archive and
//   the legacy stream: every tensor's name, order, shape, dtype and values against what PyTorch
//   says they are, float16, bfloat16 and float64 converted exactly, views sharing one storage
//   (a transpose, a slice with an offset), a scalar, an empty tensor, an nn.Parameter, and an
//   nn.Module's state_dict() with its _metadata;
// - a state dict holding an object whose unpickling would call os.system: refused by the
//   global's name, in both containers, and the command never ran;
// - a tensor reading past its storage, and one of more elements than its storage (stride 0: a
//   small file asking for any amount of memory), refused;
// - every prefix of both files, and every single-byte change of the legacy one: refused or
//   read, never a crash (scripts/asan.sh runs this under AddressSanitizer).
#include "skip.h"
#include "io/torch_file.h"
#include "test_files.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace as;
using namespace Qt::StringLiterals;

class TestTorchFile : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString path(const QString& name) const { return dir_.filePath(name); }
    QByteArray bytes(const QString& name) const
    {
        QFile f(path(name));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

private slots:
    void initTestCase();
    void savedByTorch_data();
    void savedByTorch();
    void moduleStateDict();
    void codeIsRefused_data();
    void codeIsRefused();
    void pastItsStorage();
    void hostileFiles_data();
    void hostileFiles();
    void damagedFiles();
};

void TestTorchFile::initTestCase()
{
    QVERIFY(dir_.isValid());
    const QString script = ::as::test::testFile("reference/torch_files.py");
    QVERIFY2(!script.isEmpty(), "tests/reference/torch_files.py not found beside this test");
    if (!::as::test::pythonImports(u"torch"_s))
        AS_SKIP("/usr/bin/python3 cannot import torch: install Debian's python3-torch "
                "(bash scripts/install-deps.sh --torch) to write the files PyTorch writes");
    QString error;
    QVERIFY2(::as::test::runPython({script, dir_.path()}, &error), qPrintable(error));
}

void TestTorchFile::savedByTorch_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("legacy");
    QTest::newRow("zip archive (PyTorch ≥ 1.6)") << u"zip.bin"_s << false;
    QTest::newRow("legacy stream") << u"legacy.bin"_s << true;
}

void TestTorchFile::savedByTorch()
{
    QFETCH(QString, file);
    QFETCH(bool, legacy);
    QString error;
    const std::optional<TorchFile> f = readTorchFile(path(file), &error);
    QVERIFY2(f, qPrintable(error));
    QCOMPARE(f->legacy, legacy);
    QFile e(path(u"expected.json"_s));
    QVERIFY(e.open(QIODevice::ReadOnly));
    const QJsonObject expected = QJsonDocument::fromJson(e.readAll()).object();
    const QStringList order{u"w"_s, u"half"_s, u"bf16"_s, u"double"_s, u"scalar"_s, u"empty"_s,
                            u"base"_s, u"transposed"_s, u"slice"_s, u"tied"_s, u"param"_s};
    QCOMPARE(int(f->tensors.size()), order.size());
    for (int i = 0; i < order.size(); ++i) {
        const TorchTensor& t = f->tensors[std::size_t(i)];
        QCOMPARE(QString::fromStdString(t.name), order[i]);
        const QJsonObject x = expected[order[i]].toObject();
        QCOMPARE(torchDTypeName(t.dtype), x[u"dtype"_s].toString());
        const QJsonArray shape = x[u"shape"_s].toArray();
        QCOMPARE(int(t.shape.size()), shape.size());
        for (int d = 0; d < shape.size(); ++d)
            QCOMPARE(double(t.shape[std::size_t(d)]), shape[d].toDouble());
        const QJsonArray values = x[u"values"_s].toArray();
        QCOMPARE(int(t.values().size()), values.size());
        for (int k = 0; k < values.size(); ++k)  // PyTorch's float32 through JSON's double: exact
            QVERIFY2(t.values()[std::size_t(k)] == float(values[k].toDouble()),
                     qPrintable(u"%1[%2]: %3 against %4"_s.arg(order[i]).arg(k).arg(t.values()[std::size_t(k)]).arg(values[k].toDouble())));
    }
    QVERIFY(f->find("slice") && !f->find("nothing"));
    // The same view of a storage is one copy of its values (a tied model's embedding and head);
    // other views of that storage are their own.
    QCOMPARE(f->find("tied")->values().data(), f->find("base")->values().data());
    QVERIFY(f->find("transposed")->values().data() != f->find("base")->values().data());
}

void TestTorchFile::moduleStateDict()
{
    QString error;
    const std::optional<TorchFile> f = readTorchFile(path(u"module.bin"_s), &error);
    QVERIFY2(f, qPrintable(error));
    QCOMPARE(int(f->tensors.size()), 4);
    QCOMPARE(f->tensors[0].name, std::string("0.weight"));
    QCOMPARE(f->tensors[0].shape, (std::vector<std::uint64_t>{2, 3}));
    QCOMPARE(f->tensors[3].name, std::string("1.bias"));
    QCOMPARE(f->tensors[2].values(), (std::vector<float>{1.0f, 1.0f}));  // LayerNorm's weight
}

void TestTorchFile::codeIsRefused_data()
{
    QTest::addColumn<QString>("file");
    QTest::newRow("zip archive") << u"evil-zip.bin"_s;
    QTest::newRow("legacy stream") << u"evil-legacy.bin"_s;
}

void TestTorchFile::codeIsRefused()
{
    QFETCH(QString, file);
    QString error;
    QVERIFY(!readTorchFile(path(file), &error));
    qInfo("%s", qPrintable(error));
    QVERIFY2(error.contains(u"global posix.system is not allowed"_s), qPrintable(error));
    QVERIFY(error.contains(file));
    QVERIFY(!QFileInfo::exists(path(u"pwned"_s)));
}

void TestTorchFile::pastItsStorage()
{
    QString error;
    QVERIFY(!readTorchFile(path(u"past-storage.bin"_s), &error));
    QVERIFY2(error.contains(u"w reads past the end of its storage 0 (4 elements)"_s), qPrintable(error));
    QVERIFY(!readTorchFile(path(u"zero-stride.bin"_s), &error));
    QVERIFY2(error.contains(u"w has 1000000 elements, more than its storage 0 holds (4)"_s), qPrintable(error));
}

// The rest of the hostile files: each refused by name, nothing run, nothing written.
void TestTorchFile::hostileFiles_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("refusal");  // empty: read (harmlessly)
    QTest::newRow("negative stride") << u"negative-stride.bin"_s << u"size or stride is not a whole number ≥ 0"_s;
    QTest::newRow("a size that overflows") << u"overflow-size.bin"_s << u"more than its storage 0 holds"_s;
    QTest::newRow("deflated entries (a zip bomb's kind)") << u"deflated.bin"_s << u"is compressed (method 8)"_s;
    QTest::newRow("an unknown global") << u"unknown-global.bin"_s << u"global collections.Counter is not allowed"_s;
    QTest::newRow("entry names climbing out") << u"traversal.bin"_s << QString();
}

void TestTorchFile::hostileFiles()
{
    QFETCH(QString, file);
    QFETCH(QString, refusal);
    const QStringList before = QDir(dir_.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot);
    QString error;
    const std::optional<TorchFile> f = readTorchFile(path(file), &error);
    if (refusal.isEmpty()) {
        // Read as the same state dict as zip.bin: the names inside are only looked up.
        QVERIFY2(f, qPrintable(error));
        QVERIFY(f->find("w") && f->find("slice"));
    } else {
        QVERIFY(!f);
        qInfo("%s", qPrintable(error));
        QVERIFY2(error.contains(refusal), qPrintable(error));
        QVERIFY(error.contains(file));
    }
    QCOMPARE(QDir(dir_.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot), before);
    QVERIFY(!QFileInfo::exists(QDir(dir_.path()).filePath(u"../../evil"_s)));
}

void TestTorchFile::damagedFiles()
{
    for (const QString& name : {u"zip.bin"_s, u"legacy.bin"_s}) {
        const QByteArray whole = bytes(name);
        QVERIFY(!whole.isEmpty());
        int refused = 0;
        for (qsizetype n = 0; n < whole.size(); ++n) {
            QString error;
            if (!parseTorchFile(QByteArrayView(whole.constData(), n), &error)) {
                QVERIFY(!error.isEmpty());
                ++refused;
            }
        }
        // A zip cut anywhere loses its directory; a legacy stream its storages' bytes.
        QCOMPARE(refused, int(whole.size()));
    }
    // Each byte of the legacy stream changed in turn (to its complement): read or refused with
    // a message, and what is read is still consistent.
    const QByteArray legacy = bytes(u"legacy.bin"_s);
    int read = 0;
    for (qsizetype i = 0; i < legacy.size(); ++i) {
        QByteArray b = legacy;
        b[i] = char(~b[i]);
        QString error;
        const std::optional<TorchFile> f = parseTorchFile(b, &error);
        if (!f) {
            QVERIFY(!error.isEmpty());
            continue;
        }
        ++read;
        for (const TorchTensor& t : f->tensors) {
            std::uint64_t n = 1;
            for (std::uint64_t d : t.shape)
                n *= d;
            QCOMPARE(std::uint64_t(t.values().size()), n);
        }
    }
    qInfo("legacy.bin: %d of %lld one-byte changes still read (values' bytes), the rest refused", read,
          qlonglong(legacy.size()));
}

AS_TEST_APPLESS_MAIN(TestTorchFile)
#include "test_torch_file.moc"
