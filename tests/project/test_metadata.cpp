// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// What software centres and desktop menus read, as Debian's own checkers read it: the AppStream
// metadata (resources/attention-studio.metainfo.xml) passes `appstreamcli validate --no-net`
// without an error or a warning, and the .desktop file passes desktop-file-validate without a
// word (its hints too: one main category). test_package checks the same files installed.
#include "cli_process.h"
#include "skip.h"
#include "test_files.h"

#include <QFile>
#include <QStandardPaths>
#include <QtTest>

using namespace Qt::StringLiterals;

class TestMetadata : public QObject {
    Q_OBJECT
private slots:
    void appstream()
    {
        const QString tool = QStandardPaths::findExecutable(u"appstreamcli"_s);
        if (tool.isEmpty())
            AS_SKIP("appstreamcli is not installed: install Debian's appstream (scripts/install-deps.sh)");
        const QString file = as::test::testFile(u"../resources/attention-studio.metainfo.xml"_s);
        QVERIFY(!file.isEmpty());
        const as::test::ProcessRun r = as::test::runProgram(tool, {u"validate"_s, u"--no-net"_s, u"--explain"_s, file});
        QVERIFY2(r.exitCode == 0, qPrintable(as::test::describeRun(u"appstreamcli validate"_s, r)));
        // Errors and warnings fail the validation; infos (I:) and pedantic notes do not.
        QVERIFY2(!r.out.contains("\nE: ") && !r.out.startsWith("E: ") && !r.out.contains("\nW: ")
                     && !r.out.startsWith("W: "),
                 r.out.constData());
    }

    void desktopEntry()
    {
        const QString tool = QStandardPaths::findExecutable(u"desktop-file-validate"_s);
        if (tool.isEmpty())
            AS_SKIP("desktop-file-validate is not installed: install Debian's desktop-file-utils (scripts/install-deps.sh)");
        const QString file = as::test::testFile(u"../resources/attention-studio.desktop"_s);
        QVERIFY(!file.isEmpty());
        const as::test::ProcessRun r = as::test::runProgram(tool, {file});
        QVERIFY2(r.exitCode == 0 && r.out.trimmed().isEmpty() && r.err.trimmed().isEmpty(),
                 qPrintable(as::test::describeRun(u"desktop-file-validate"_s, r)));
    }
};

AS_TEST_GUILESS_MAIN(TestMetadata)
#include "test_metadata.moc"
