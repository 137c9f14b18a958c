// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The Debian package, as Debian builds it and a user gets it. The ctest fixture package_deb
// (tests/make_package.sh) runs dpkg-buildpackage -us -uc -b (debhelper, debian/) on a copy of
// the source tree beforehand; ctest runs it whenever this test runs (also under -R). Then:
//
//   - Debian's lintian accepts the packages (the .changes: the package and its -dbgsym): no
//     error and no warning; what it says for information is printed;
//   - the package holds both programs (stripped, their debug symbols in the -dbgsym package,
//     hardened: PIE, immediate binding, fortified calls, no run path into the build tree), their
//     manual pages, the bash completion, the .desktop file with the icon it names, the AppStream
//     metadata, and the docs under /usr/share/doc/attention-studio as in the sources, every
//     relative link resolving there, with the DEP-5 copyright naming the corpus's licence;
//   - Depends names the Debian package of every shared library the programs are linked
//     against (readelf's NEEDED, found by ldd, owned per dpkg -S), and Recommends names
//     libopenblas0, which the engine loads with dlopen (no linker sees it);
//   - the installed attention-studio-cli trains the toy task and writes a model file that
//     loads; the installed window trains with --screenshot (offscreen) and writes its views
//     and summary.json; man shows the installed pages. HOME and the XDG folders point into
//     the temporary folder, so that the user's settings and autosaves are not touched.
#include "skip.h"
#include "cli_process.h"
#include "markdown_links.h"
#include "io/model_file.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace Qt::StringLiterals;

namespace {

using Run = as::test::ProcessRun;

Run run(const QString& program, const QStringList& args, int timeoutMs,
        const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment())
{
    return as::test::runProgram(program, args, env, {}, timeoutMs);
}

QString describe(const QString& what, const Run& r)
{
    return as::test::describeRun(what, r);
}

// "libc6 (>= 2.34), libqt6core6 (>= 6.4.0), a | b" -> {"libc6", "libqt6core6", "a", "b"}
QStringList packageNames(const QString& field)
{
    QStringList names;
    for (const QString& part : field.split(QRegularExpression(u"[,|]"_s), Qt::SkipEmptyParts)) {
        const QString name = part.trimmed().section(u' ', 0, 0).section(u':', 0, 0);
        if (!name.isEmpty())
            names << name;
    }
    return names;
}

}  // namespace

class TestPackage : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void lintianAccepts();
    void contents();
    void strippedAndHardened();
    void installedDocs();
    void dependencies();
    void cliTrains();
    void windowWritesScreenshots();
    void manShowsThePages();

private:
    QString bin(const QString& name) const { return root_.filePath(u"usr/bin/"_s + name); }
    QString field(const QString& name) const;
    QProcessEnvironment userEnvironment() const;

    QTemporaryDir dir_;
    QDir root_;
    QDir packages_;  // what dpkg-buildpackage wrote: the .deb, the -dbgsym .deb, the .changes
    QString deb_;
};

void TestPackage::initTestCase()
{
    QVERIFY(dir_.isValid());
    packages_ = QDir(QStringLiteral(AS_TEST_PACKAGE_DIR));
    const QStringList debs = packages_.entryList({u"attention-studio_*.deb"_s}, QDir::Files);
    QVERIFY2(debs.size() == 1,
             qPrintable(u"expected one attention-studio_*.deb in %1 (made by the ctest fixture "
                        "package_deb, tests/make_package.sh), found %2"_s.arg(packages_.path()).arg(debs.size())));
    deb_ = packages_.filePath(debs.front());
    root_ = QDir(dir_.filePath(u"root"_s));
    QVERIFY(QDir().mkpath(root_.path()));
    const Run x = run(u"dpkg-deb"_s, {u"-x"_s, deb_, root_.path()}, 120000);
    QVERIFY2(x.exitCode == 0, qPrintable(describe(u"dpkg-deb -x "_s + deb_, x)));
    for (const char* sub : {"home", "config", "data", "cache"})
        QVERIFY(QDir().mkpath(dir_.filePath(QString::fromLatin1(sub))));
}

QString TestPackage::field(const QString& name) const
{
    const Run r = run(u"dpkg-deb"_s, {u"-f"_s, deb_, name}, 30000);
    return r.exitCode == 0 ? QString::fromUtf8(r.out).simplified() : QString();
}

QProcessEnvironment TestPackage::userEnvironment() const
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(u"QT_QPA_PLATFORM"_s, u"offscreen"_s);
    env.insert(u"HOME"_s, dir_.filePath(u"home"_s));
    env.insert(u"XDG_CONFIG_HOME"_s, dir_.filePath(u"config"_s));
    env.insert(u"XDG_DATA_HOME"_s, dir_.filePath(u"data"_s));
    env.insert(u"XDG_CACHE_HOME"_s, dir_.filePath(u"cache"_s));
    // The system's libraries only, as on a user's machine.
    env.remove(u"LD_LIBRARY_PATH"_s);
    return env;
}

void TestPackage::lintianAccepts()
{
    const QStringList changes = packages_.entryList({u"attention-studio_*.changes"_s}, QDir::Files);
    QCOMPARE(changes.size(), 1);
    // --fail-on error,warning: the exit status says whether any error or warning was found.
    // Informational tags stay, printed below: spelling-error-in-binary on the window, whose
    // "words" are bytes of the pictures and compressed pages of the user guide compiled into it
    // (Help > User guide; app/CMakeLists.txt's as_bundle_docs), not text of a message. They are
    // not overridden: the bytes change with every picture, and an override that no longer
    // matches is itself a warning (mismatched-override).
    const Run r = run(u"lintian"_s, {u"--fail-on"_s, u"error,warning"_s, u"--info"_s, u"--display-info"_s,
                                     packages_.filePath(changes.front())},
                      600000);
    if (r.exitCode < 0 && r.err.contains("No such file"))
        AS_SKIP("lintian is not installed: bash scripts/install-deps.sh");
    QVERIFY2(r.exitCode == 0, qPrintable(describe(u"lintian"_s, r)));
    static const QRegularExpression serious(u"^[EW]: "_s, QRegularExpression::MultilineOption);
    QVERIFY2(!serious.match(QString::fromUtf8(r.out)).hasMatch(), r.out.constData());
    if (!r.out.trimmed().isEmpty())
        qInfo("lintian, for information:\n%s", r.out.constData());
}

void TestPackage::contents()
{
    QCOMPARE(field(u"Package"_s), u"attention-studio"_s);
    for (const QString& name : {u"attention-studio"_s, u"attention-studio-cli"_s}) {
        QVERIFY2(QFileInfo(bin(name)).isExecutable(), qPrintable(bin(name) + u" is missing"_s));
        const Run r = run(u"readelf"_s, {u"-d"_s, bin(name)}, 30000);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(u"readelf -d"_s, r)));
        QVERIFY2(!r.out.contains("RUNPATH") && !r.out.contains("RPATH"),
                 qPrintable(name + u" has a run path: "_s + QString::fromUtf8(r.out)));
    }
    QFile desktop(root_.filePath(u"usr/share/applications/attention-studio.desktop"_s));
    QVERIFY2(desktop.open(QIODevice::ReadOnly), "the package has no .desktop file");
    const QString entry = QString::fromUtf8(desktop.readAll());
    QVERIFY2(entry.contains(u"\nExec=attention-studio %f\n"_s), qPrintable(entry));
    QVERIFY2(entry.contains(u"\nIcon=attention-studio\n"_s), qPrintable(entry));
    QVERIFY2(QFileInfo(root_.filePath(u"usr/share/icons/hicolor/scalable/apps/attention-studio.svg"_s))
                 .size() > 0,
             "the package has no icon named as the .desktop file names it");
    for (const QString& path :
         {u"usr/share/man/man1/attention-studio.1.gz"_s, u"usr/share/man/man1/attention-studio-cli.1.gz"_s,
          u"usr/share/bash-completion/completions/attention-studio"_s,
          u"usr/share/bash-completion/completions/attention-studio-cli"_s,
          u"usr/share/metainfo/io.github.attention_studio.AttentionStudio.metainfo.xml"_s,
          u"usr/share/doc/attention-studio/changelog.gz"_s})
        QVERIFY2(QFileInfo(root_.filePath(path)).size() > 0, qPrintable(path + u" is missing"_s));
    // The metadata names the .desktop file the package installs.
    QFile meta(root_.filePath(u"usr/share/metainfo/io.github.attention_studio.AttentionStudio.metainfo.xml"_s));
    QVERIFY(meta.open(QIODevice::ReadOnly));
    QVERIFY(meta.readAll().contains("<launchable type=\"desktop-id\">attention-studio.desktop</launchable>"));
    // The machine-readable copyright names the corpus's licence and where its credits are.
    QFile copyright(root_.filePath(u"usr/share/doc/attention-studio/copyright"_s));
    QVERIFY(copyright.open(QIODevice::ReadOnly));
    const QByteArray c = copyright.readAll();
    QVERIFY(c.startsWith("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"));
    QVERIFY(c.contains("License: CC-BY-2.0-FR") && c.contains("Files: resources/corpora/cmn.txt"));
    QVERIFY(c.contains("License: GPL-3+"));
}

void TestPackage::strippedAndHardened()
{
    const QStringList dbgsym = packages_.entryList({u"attention-studio-dbgsym_*.deb"_s}, QDir::Files);
    QVERIFY2(dbgsym.size() == 1, "no -dbgsym package");
    const Run list = run(u"dpkg-deb"_s, {u"-c"_s, packages_.filePath(dbgsym.front())}, 60000);
    QVERIFY2(list.out.count(".debug\n") >= 2, qPrintable(describe(u"dpkg-deb -c (dbgsym)"_s, list)));
    for (const QString& name : {u"attention-studio"_s, u"attention-studio-cli"_s}) {
        const Run sections = run(u"readelf"_s, {u"-S"_s, bin(name)}, 30000);
        QVERIFY2(sections.exitCode == 0, qPrintable(describe(u"readelf -S"_s, sections)));
        QVERIFY2(!sections.out.contains(".debug_info") && !sections.out.contains(".symtab"),
                 qPrintable(name + u" is not stripped"_s));
        const Run dynamic = run(u"readelf"_s, {u"-d"_s, u"-h"_s, bin(name)}, 30000);
        // Position-independent (an executable of type DYN), bound at load (BIND_NOW or FLAGS_1 NOW).
        QVERIFY2(dynamic.out.contains("DYN (Position-Independent Executable file)"), qPrintable(name + u": not PIE"_s));
        QVERIFY2(dynamic.out.contains("BIND_NOW") || dynamic.out.contains("Flags: NOW"),
                 qPrintable(name + u": no immediate binding"_s));
        // _FORTIFY_SOURCE: the checked variants of libc's string and memory functions.
        const Run symbols = run(u"readelf"_s, {u"--dyn-syms"_s, u"-W"_s, bin(name)}, 30000);
        QVERIFY2(symbols.out.contains("_chk@"), qPrintable(name + u": no fortified calls"_s));
    }
}

void TestPackage::installedDocs()
{
    const QDir doc(root_.filePath(u"usr/share/doc/attention-studio"_s));
    for (const QString& page : {u"README.md"_s, u"core/SPEC.md"_s, u"docs/user-guide/index.md"_s,
                                u"docs/user-guide/zh_CN/index.md"_s, u"docs/command-line.md"_s})
        QVERIFY2(QFileInfo(doc.filePath(page)).size() > 0, qPrintable(page + u" is not installed (uncompressed)"_s));
    QStringList problems;
    int links = 0;
    for (QDirIterator it(doc.path(), {u"*.md"_s}, QDir::Files, QDirIterator::Subdirectories); it.hasNext();) {
        const QString page = it.next();
        QFile f(page);
        QVERIFY(f.open(QIODevice::ReadOnly));
        for (const as::test::MarkdownLink& l : as::test::markdownLinks(QString::fromUtf8(f.readAll()))) {
            if (as::test::externalLink(l.target) || l.target.isEmpty())
                continue;
            ++links;
            // The GPL's text is Debian's /usr/share/common-licenses/GPL-3, which copyright names.
            if (QFileInfo(l.target).fileName() == u"LICENSE"_s)
                continue;
            if (!QFileInfo::exists(QFileInfo(page).absoluteDir().filePath(l.target)))
                problems << u"%1:%2: %3"_s.arg(doc.relativeFilePath(page)).arg(l.line).arg(l.target);
        }
    }
    QVERIFY2(problems.isEmpty(), qPrintable(u"links that do not resolve where the docs are installed:\n"_s + problems.join(u'\n')));
    QVERIFY(links > 200);
}

void TestPackage::dependencies()
{
    const QStringList depends = packageNames(field(u"Depends"_s));
    const QStringList recommends = packageNames(field(u"Recommends"_s));
    QVERIFY2(!depends.isEmpty(), "the package has no Depends");
    // The engine's OpenBLAS, loaded with dlopen("libopenblas.so.0") by core/model/gemm.cpp.
    QVERIFY2((depends + recommends).contains(u"libopenblas0"_s),
             qPrintable(u"neither Depends nor Recommends names libopenblas0: "_s
                        + (depends + recommends).join(u", "_s)));
    for (const QString& name : {u"attention-studio"_s, u"attention-studio-cli"_s}) {
        const Run elf = run(u"readelf"_s, {u"-d"_s, bin(name)}, 30000);
        QVERIFY2(elf.exitCode == 0, qPrintable(describe(u"readelf -d"_s, elf)));
        QStringList needed;
        static const QRegularExpression neededLine(u"\\(NEEDED\\).*\\[([^\\]]+)\\]"_s);
        for (auto m = neededLine.globalMatch(QString::fromUtf8(elf.out)); m.hasNext();)
            needed << m.next().captured(1);
        QVERIFY2(needed.contains(u"libQt6Core.so.6"_s), qPrintable(needed.join(u' ')));
        // Where the loader finds each: "\tlibQt6Core.so.6 => /lib/…/libQt6Core.so.6 (0x…)".
        const Run ldd = run(u"ldd"_s, {bin(name)}, 30000);
        QVERIFY2(ldd.exitCode == 0, qPrintable(describe(u"ldd"_s, ldd)));
        QHash<QString, QString> found;
        static const QRegularExpression lddLine(u"^\\s*(\\S+)\\s+=>\\s+(/\\S+)"_s,
                                                QRegularExpression::MultilineOption);
        for (auto m = lddLine.globalMatch(QString::fromUtf8(ldd.out)); m.hasNext();) {
            const auto match = m.next();
            found.insert(match.captured(1), match.captured(2));
        }
        for (const QString& soname : needed) {
            if (soname.startsWith(u"ld-linux"_s))
                continue;  // the loader itself, libc6's like libc.so.6
            QVERIFY2(found.contains(soname),
                     qPrintable(u"%1 needs %2, which ldd does not find:\n%3"_s.arg(
                         name, soname, QString::fromUtf8(ldd.out))));
            // dpkg -S knows the path a package ships, which usrmerge may have moved.
            QString owner;
            for (const QString& path : {found[soname], QFileInfo(found[soname]).canonicalFilePath(),
                                        found[soname].startsWith(u"/lib/"_s)
                                            ? u"/usr"_s + found[soname]
                                            : found[soname].mid(4)}) {
                const Run s = run(u"dpkg"_s, {u"-S"_s, path}, 30000);
                if (s.exitCode == 0) {
                    owner = QString::fromUtf8(s.out).section(u':', 0, 0).trimmed();
                    break;
                }
            }
            QVERIFY2(!owner.isEmpty(),
                     qPrintable(u"no Debian package owns %1 (%2)"_s.arg(found[soname], soname)));
            QVERIFY2(depends.contains(owner),
                     qPrintable(u"%1 needs %2 of the package %3, which Depends does not name: %4"_s
                                    .arg(name, soname, owner, depends.join(u", "_s))));
        }
    }
}

void TestPackage::cliTrains()
{
    const QString model = dir_.filePath(u"toy.safetensors"_s);
    const Run r = run(bin(u"attention-studio-cli"_s),
                      {u"train"_s, u"--threads"_s, u"1"_s, u"--task"_s, u"toy"_s, u"--steps"_s, u"20"_s, u"--out"_s, model},
                      300000, userEnvironment());
    QVERIFY2(r.exitCode == 0, qPrintable(describe(u"attention-studio-cli train"_s, r)));
    QString error;
    const std::optional<as::ModelBundle> b = as::loadModel(model, &error);
    QVERIFY2(b, qPrintable(error));
    QCOMPARE(b->provenance.step, 20L);
    QVERIFY(b->model->params().size() > 0);
}

void TestPackage::windowWritesScreenshots()
{
    const QString shots = dir_.filePath(u"shots"_s);
    const Run r = run(bin(u"attention-studio"_s),
                      {u"--screenshot"_s, shots, u"--task"_s, u"toy"_s, u"--steps"_s, u"5"_s,
                       u"--threads"_s, u"1"_s},
                      300000, userEnvironment());
    QVERIFY2(r.exitCode == 0, qPrintable(describe(u"attention-studio --screenshot"_s, r)));
    const QStringList pngs = QDir(shots).entryList({u"*.png"_s}, QDir::Files);
    for (const QString& name : {u"0-window.png"_s, u"1-loss.png"_s, u"4-attention.png"_s}) {
        QVERIFY2(pngs.contains(name), qPrintable(name + u" missing; written: "_s + pngs.join(u' ')));
        QVERIFY(QFileInfo(QDir(shots).filePath(name)).size() > 1000);
    }
    QFile summary(QDir(shots).filePath(u"summary.json"_s));
    QVERIFY2(summary.open(QIODevice::ReadOnly), "no summary.json");
    const QJsonObject o = QJsonDocument::fromJson(summary.readAll()).object();
    QCOMPARE(o.value(u"steps"_s).toInt(), 5);
    QVERIFY(std::isfinite(o.value(u"train_loss"_s).toDouble(NAN)));
}

void TestPackage::manShowsThePages()
{
    for (const QString& name : {u"attention-studio"_s, u"attention-studio-cli"_s}) {
        QProcessEnvironment env = userEnvironment();
        env.insert(u"MANWIDTH"_s, u"100"_s);
        env.insert(u"MAN_KEEP_FORMATTING"_s, u"0"_s);
        const Run r = run(u"man"_s, {u"-l"_s, root_.filePath(u"usr/share/man/man1/"_s + name + u".1.gz"_s)}, 60000, env);
        if (r.exitCode < 0 && r.err.contains("No such file"))
            AS_SKIP("man is not installed: install Debian's man-db (scripts/install-deps.sh)");
        QVERIFY2(r.exitCode == 0, qPrintable(describe(u"man -l"_s, r)));
        // Bold and underline as a terminal's overstrikes ("S\bSY\bY…"): the letters alone.
        const QString text = QString::fromUtf8(r.out).remove(QRegularExpression(u".\b"_s));
        QVERIFY2(text.contains(u"SYNOPSIS"_s) && text.contains(name), qPrintable(text.left(2000)));
    }
}

AS_TEST_GUILESS_MAIN(TestPackage)
#include "test_package.moc"
