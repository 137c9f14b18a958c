// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// A full disk loses nothing: on a small tmpfs filled up, `train --checkpoint` (resumed, saving
// back to its own file), `train --out` and `eval --out` fail with the system's reason ("No
// space left on device", not "Writing canceled by application") and a non-zero exit, and
// every file that was there before is left byte for byte as it was (QSaveFile: the new bytes
// go to a temporary file that replaces the old one only when complete). Mounting a tmpfs
// needs root, as on CI's machines; elsewhere the test skips, saying so.
#include "skip.h"
#include "cli_process.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace Qt::StringLiterals;

class TestFullDisk : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void checkpointKeepsTheOldFile();
    void modelKeepsTheOldFile();
    void evalOutputKeepsTheOldFile();

private:
    static QByteArray read(const QString& path);
    // Fills the tmpfs up, to the last byte it takes; unfill() frees it again.
    void fill();
    void unfill();
    QTemporaryDir dir_;
    QString disk_, ckpt_, model_;
    bool mounted_ = false;
};

QByteArray TestFullDisk::read(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

void TestFullDisk::initTestCase()
{
    QVERIFY(dir_.isValid());
    // A checkpoint and a model of a short run, written on the real disk.
    ckpt_ = dir_.filePath(u"toy.ckpt"_s);
    model_ = dir_.filePath(u"toy.safetensors"_s);
    QVERIFY(as::test::runCli({u"train"_s, u"--task"_s, u"toy"_s, u"--steps"_s, u"5"_s,
                              u"--threads"_s, u"1"_s, u"--checkpoint"_s, ckpt_, u"--out"_s, model_}));
    const qint64 ckptSize = QFileInfo(ckpt_).size();
    QVERIFY(ckptSize > 0);
    // A tmpfs with room for the old files and a little more, but not for a second checkpoint.
    disk_ = dir_.filePath(u"disk"_s);
    QVERIFY(QDir().mkpath(disk_));
    const qint64 kib = (ckptSize + QFileInfo(model_).size()) / 1024 + 64;
    QProcess mount;
    mount.start(u"mount"_s, {u"-t"_s, u"tmpfs"_s, u"-o"_s, u"size=%1k"_s.arg(kib), u"tmpfs"_s, disk_});
    if (geteuid() != 0 || !mount.waitForFinished(30000) || mount.exitCode() != 0)
        AS_SKIP("mounting a small tmpfs needs root (mount -t tmpfs): run the test as root to "
                "check what a full disk does");
    mounted_ = true;
}

void TestFullDisk::cleanupTestCase()
{
    if (mounted_)
        QProcess::execute(u"umount"_s, {u"-l"_s, disk_});
}

void TestFullDisk::fill()
{
    QFile filler(QDir(disk_).filePath(u"filler-%1"_s.arg(QDateTime::currentMSecsSinceEpoch())));
    QVERIFY(filler.open(QIODevice::WriteOnly));
    const QByteArray block(4096, 'x');
    while (filler.write(block) == block.size() && filler.flush()) {
    }
    filler.close();  // whatever did not fit is dropped
    QFile probe(QDir(disk_).filePath(u"probe"_s));
    QVERIFY(probe.open(QIODevice::WriteOnly));
    QVERIFY2(probe.write(block) != block.size() || !probe.flush(), "the tmpfs is not full");
    probe.close();
    probe.remove();
}

void TestFullDisk::unfill()
{
    for (const QFileInfo& f : QDir(disk_).entryInfoList({u"filler-*"_s}, QDir::Files))
        QVERIFY(QFile::remove(f.filePath()));
}

void TestFullDisk::checkpointKeepsTheOldFile()
{
    unfill();
    const QString ckpt = QDir(disk_).filePath(u"run.ckpt"_s);
    QVERIFY(QFile::copy(ckpt_, ckpt));
    const QByteArray before = read(ckpt);
    fill();
    const as::test::ProcessRun r = as::test::runProgram(
        as::test::cliProgram(), {u"train"_s, u"--resume"_s, ckpt, u"--steps"_s, u"8"_s,
                                 u"--threads"_s, u"1"_s});
    const QString what = as::test::describeRun(u"train --resume on a full disk"_s, r);
    QVERIFY2(r.finished && r.exitCode == 1, qPrintable(what));
    QVERIFY2(r.err.contains("No space left on device"), qPrintable(what));
    QVERIFY2(!r.err.contains("canceled"), qPrintable(what));
    QVERIFY2(read(ckpt) == before, "the checkpoint on the full disk changed");
}

void TestFullDisk::modelKeepsTheOldFile()
{
    unfill();
    const QString model = QDir(disk_).filePath(u"model.safetensors"_s);
    QVERIFY(QFile::copy(model_, model));
    const QByteArray before = read(model);
    fill();
    const as::test::ProcessRun r = as::test::runProgram(
        as::test::cliProgram(), {u"train"_s, u"--task"_s, u"toy"_s, u"--steps"_s, u"3"_s,
                                 u"--threads"_s, u"1"_s, u"--out"_s, model});
    const QString what = as::test::describeRun(u"train --out on a full disk"_s, r);
    QVERIFY2(r.finished && r.exitCode == 1, qPrintable(what));
    QVERIFY2(r.err.contains("No space left on device"), qPrintable(what));
    QVERIFY2(read(model) == before, "the model on the full disk changed");
}

void TestFullDisk::evalOutputKeepsTheOldFile()
{
    unfill();
    // A few sentence pairs to translate, on the real disk.
    const QString data = dir_.filePath(u"test.tsv"_s);
    QFile tsv(data);
    QVERIFY(tsv.open(QIODevice::WriteOnly));
    QVERIFY(tsv.write("a b c\tc b a\nd e\te d\nf g h i\ti h g f\n") > 0);
    tsv.close();
    const QString out = QDir(disk_).filePath(u"hyp.txt"_s);
    QFile old(out);
    QVERIFY(old.open(QIODevice::WriteOnly));
    QVERIFY(old.write("the hypotheses of an earlier run\n") > 0);
    old.close();
    const QByteArray before = read(out);
    fill();
    const as::test::ProcessRun r = as::test::runProgram(
        as::test::cliProgram(), {u"eval"_s, u"--model"_s, model_, u"--data"_s, data,
                                 u"--threads"_s, u"1"_s, u"--out"_s, out});
    const QString what = as::test::describeRun(u"eval --out on a full disk"_s, r);
    QVERIFY2(r.finished && r.exitCode != 0, qPrintable(what));
    QVERIFY2(r.err.contains("No space left on device"), qPrintable(what));
    QCOMPARE(read(out), before);
}

AS_TEST_GUILESS_MAIN(TestFullDisk)
#include "test_full_disk.moc"
