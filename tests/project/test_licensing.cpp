// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The project's licensing, as the REUSE specification asks it to be said: every file names its
// licence and copyright (an SPDX header, or .reuse/dep5 for what cannot hold a comment), and
// every licence named has its text in LICENSES/. Debian's `reuse lint` (package reuse) decides;
// it reads the files git tracks, so it runs on the checkout's tracked files (the build tree,
// ignored by .gitignore, is not looked at).
#include "cli_process.h"
#include "skip.h"
#include "test_files.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QtTest>

using namespace Qt::StringLiterals;

class TestLicensing : public QObject {
    Q_OBJECT
private slots:
    void reuseLintPasses()
    {
        const QString reuse = QStandardPaths::findExecutable(u"reuse"_s);
        if (reuse.isEmpty())
            AS_SKIP("reuse is not installed: install Debian's reuse (scripts/install-deps.sh)");
        const QString root = QDir(as::test::testFile(u"."_s) + u"/.."_s).canonicalPath();
        if (!QFileInfo::exists(root + u"/.git"_s))
            AS_SKIP("not a git checkout: reuse lint tells the sources from a build tree by git");
        const as::test::ProcessRun r = as::test::runProgram(
            reuse, {u"--root"_s, root, u"lint"_s}, QProcessEnvironment::systemEnvironment(), {}, 120000);
        QVERIFY2(r.exitCode == 0, qPrintable(as::test::describeRun(u"reuse lint"_s, r)));
        QVERIFY2(r.out.contains("compliant"), r.out.constData());
    }

    // The licence named in the files is the one shipped: LICENSE is the GPL version 3 (the text
    // Debian keeps in /usr/share/common-licenses/GPL-3), and LICENSES/ holds the same text.
    void licenceIsGpl3()
    {
        QFile license(as::test::testFile(u"../LICENSE"_s));
        QVERIFY2(license.open(QIODevice::ReadOnly), "LICENSE is missing");
        const QByteArray text = license.readAll();
        QVERIFY(text.contains("GNU GENERAL PUBLIC LICENSE"));
        QVERIFY(text.contains("Version 3, 29 June 2007"));
        QFile spdx(as::test::testFile(u"../LICENSES/GPL-3.0-or-later.txt"_s));
        QVERIFY2(spdx.open(QIODevice::ReadOnly), "LICENSES/GPL-3.0-or-later.txt is missing");
        QCOMPARE(spdx.readAll(), text);
    }
};

AS_TEST_GUILESS_MAIN(TestLicensing)
#include "test_licensing.moc"
