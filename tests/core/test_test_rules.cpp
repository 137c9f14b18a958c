// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The rules every test here lives by, checked: a skip is an exit status (77, CTest's
// SKIP_RETURN_CODE), given only when nothing failed — so that CTest reports a failure beside a
// skip as a failure, which it did not when a skip was read from the output — and every test
// executable ends through skip.h's AS_TEST_*MAIN and skips only through AS_SKIP.
#include "skip.h"
#include "test_files.h"

#include <QDirIterator>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

class TestTestRules : public QObject {
    Q_OBJECT
private slots:
    void exitStatusIsFailuresThenSkips();
    void ctestReportsAFailureBesideASkipAsAFailure();
    void everyTestUsesTheRules();
};

void TestTestRules::exitStatusIsFailuresThenSkips()
{
    const int before = as::test::skipCount();
    as::test::skipCount() = 0;
    QCOMPARE(as::test::exitStatus(0), 0);
    QCOMPARE(as::test::exitStatus(2), 2);
    as::test::skipCount() = 1;
    QCOMPARE(as::test::exitStatus(0), as::test::kSkipExitCode);
    QCOMPARE(as::test::exitStatus(1), 1);  // a failure beside a skip stays a failure
    as::test::skipCount() = before;
}

// The probe's runs through CTest itself, with the property tests/CMakeLists.txt gives every
// test — and, as the control, with the rule it replaced, under which the same failure passes
// as a skip.
void TestTestRules::ctestReportsAFailureBesideASkipAsAFailure()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString probe = QStringLiteral(AS_SKIP_PROBE);
    QVERIFY2(QFileInfo(probe).isExecutable(), qPrintable(probe));
    struct Case {
        const char* name;
        QStringList functions;
        QString property;
    };
    const QString now = u"SKIP_RETURN_CODE 77"_s;
    const QString old = u"SKIP_REGULAR_EXPRESSION \"SKIP   : \""_s;
    const QList<Case> cases = {{"probe_pass", {u"passes"_s}, now},
                               {"probe_skip", {u"passes"_s, u"skips"_s}, now},
                               {"probe_fail_and_skip", {u"passes"_s, u"skips"_s, u"fails"_s}, now},
                               {"probe_old_rule", {u"passes"_s, u"skips"_s, u"fails"_s}, old}};
    QString testfile;
    for (const Case& c : cases) {
        testfile += u"add_test(%1 \"%2\" %3)\n"_s.arg(QLatin1String(c.name), probe, c.functions.join(u' '));
        testfile += u"set_tests_properties(%1 PROPERTIES %2 ENVIRONMENT \"AS_REQUIRE_ALL_TESTS=0\")\n"_s
                        .arg(QLatin1String(c.name), c.property);
    }
    QFile f(dir.filePath(u"CTestTestfile.cmake"_s));
    QVERIFY(f.open(QIODevice::WriteOnly));
    QVERIFY(f.write(testfile.toUtf8()) > 0);
    f.close();

    QProcess ctest;
    ctest.setWorkingDirectory(dir.path());
    ctest.start(QStringLiteral(AS_CTEST_COMMAND), {u"--output-on-failure"_s});
    QVERIFY(ctest.waitForFinished(120000));
    const QString out = QString::fromUtf8(ctest.readAllStandardOutput());
    QVERIFY2(ctest.exitCode() != 0, qPrintable(out));  // a test failed
    auto status = [&](const char* name) {
        const QRegularExpression line(u"Test +#\\d+: %1 \\.*[^\\n]*"_s.arg(QLatin1String(name)));
        return line.match(out).captured(0);
    };
    QVERIFY2(status("probe_pass").contains(u"Passed"_s), qPrintable(out));
    QVERIFY2(status("probe_skip").contains(u"Skipped"_s), qPrintable(out));
    QVERIFY2(status("probe_fail_and_skip").contains(u"Failed"_s), qPrintable(out));
    // The old rule: the same failure reported as a skip (which CI counted as a pass).
    QVERIFY2(status("probe_old_rule").contains(u"Skipped"_s), qPrintable(out));
}

void TestTestRules::everyTestUsesTheRules()
{
    // The patterns are built so that this file does not match them itself.
    const QRegularExpression rawSkip(u"\\bQ"_s + u"SKIP\\s*\\("_s);
    const QRegularExpression qtMain(u"\\bQ"_s + u"TEST_(MAIN|GUILESS_MAIN|APPLESS_MAIN)\\s*\\("_s);
    const QRegularExpression ourMain(u"\\bAS_TEST_(MAIN|GUILESS_MAIN|APPLESS_MAIN)\\s*\\("_s);
    QStringList wrong;
    int files = 0;
    QDirIterator it(as::test::testFile(u"."_s), {u"test_*.cpp"_s}, QDir::Files,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(f.readAll());
        ++files;
        const QString name = QFileInfo(path).fileName();
        if (text.contains(rawSkip))
            wrong << name + u": QSKIP used directly (use AS_SKIP)"_s;
        if (text.contains(qtMain))
            wrong << name + u": Qt's main macro (use AS_TEST_MAIN and its kin)"_s;
        if (!text.contains(ourMain))
            wrong << name + u": no AS_TEST_*MAIN"_s;
    }
    QVERIFY2(files >= 60, qPrintable(u"only %1 test files found"_s.arg(files)));
    QVERIFY2(wrong.isEmpty(), qPrintable(wrong.join(u'\n')));
}

AS_TEST_GUILESS_MAIN(TestTestRules)
#include "test_test_rules.moc"
