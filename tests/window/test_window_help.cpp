// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The Help menu (app/window/help_actions.h) in the window:
//   - every view has its user-guide page in both languages, compiled into the program, and F1
//     shows the page of the view shown, in the window's language (switching the language while
//     it is open shows the same page in the other);
//   - every relative link and picture of the bundled pages resolves inside the bundle (the
//     window reads nothing from the disk), and pictures are drawn at most the page's width;
//   - Keyboard shortcuts lists every key of the window's actions, buttons and view keys, read
//     from the window itself; no key does two things in one place;
//   - About names the version, the licence, the libraries (Qt, Eigen: as their headers say;
//     OpenBLAS: as the library, opened here, describes itself) and the corpus's attribution;
//     Copy diagnostics puts the same facts and the machine's on the clipboard.
#include "skip.h"
#include "help_actions.h"
#include "help_browser.h"
#include "language.h"
#include "main_window.h"
#include "markdown_links.h"
#include "view_set.h"

#include <QAction>
#include <QClipboard>
#include <QDialog>
#include <QDirIterator>
#include <QFile>
#include <QGuiApplication>
#include <QMap>
#include <QShortcut>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTest>
#include <QTextBrowser>
#include <QTextDocument>
#include <QToolButton>

#include <Eigen/Core>
#include <dlfcn.h>

using namespace as;
using namespace Qt::StringLiterals;

namespace {

// The page's "# Title", read from the bundled Markdown itself.
QString firstHeading(const QUrl& page)
{
    QFile f(u':' + page.path());
    if (!f.open(QIODevice::ReadOnly))
        return {};
    for (const QString& line : QString::fromUtf8(f.readAll()).split(u'\n'))
        if (line.startsWith(u"# "_s))
            return line.mid(2).trimmed();
    return {};
}

}  // namespace

class TestWindowHelp : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanup() { setLanguage(u"en"_s); }
    void everyViewHasItsPage();
    void f1ShowsThePageOfTheViewShown();
    void inTheWindowsLanguage();
    void bundledLinksResolve();
    void picturesFitThePage();
    void shortcutsListEveryKey();
    void aboutAndDiagnostics();

private:
    std::unique_ptr<MainWindow> w_;
};

void TestWindowHelp::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    w_ = std::make_unique<MainWindow>();
    w_->resize(1280, 800);
    w_->show();
    QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
}

void TestWindowHelp::everyViewHasItsPage()
{
    HelpActions* help = w_->help();
    const QList<QWidget*> views = w_->views()->viewPages();
    QCOMPARE(views.size(), 15);
    for (QWidget* view : views) {
        const QString name = w_->views()->fileName(view);
        QVERIFY(!name.isEmpty());
        QCOMPARE(help->pageFor(view, u"en"_s), QUrl(u"qrc:/docs/user-guide/"_s + name + u".md"_s));
        QCOMPARE(help->pageFor(view, u"zh_CN"_s), QUrl(u"qrc:/docs/user-guide/zh_CN/"_s + name + u".md"_s));
        for (const QString& language : {u"en"_s, u"zh_CN"_s})
            QVERIFY2(!firstHeading(help->pageFor(view, language)).isEmpty(), qPrintable(name + u' ' + language));
    }
    QCOMPARE(help->pageFor(nullptr, u"en"_s), QUrl(u"qrc:/docs/user-guide/index.md"_s));
    QCOMPARE(help->pageFor(nullptr, u"zh_CN"_s), QUrl(u"qrc:/docs/user-guide/zh_CN/index.md"_s));
}

void TestWindowHelp::f1ShowsThePageOfTheViewShown()
{
    HelpActions* help = w_->help();
    QCOMPARE(help->userGuideAction()->shortcut(), QKeySequence(Qt::Key_F1));
    for (QWidget* view : w_->views()->viewPages()) {
        w_->views()->showView(view);
        w_->activateWindow();
        QTest::keyClick(w_.get(), Qt::Key_F1);
        ui::HelpBrowser* browser = help->browser();
        QVERIFY(browser);
        QTRY_VERIFY(browser->isVisible());
        const QUrl expected = help->pageFor(view, u"en"_s);
        QCOMPARE(browser->page(), expected);
        // What the browser shows is the page: its first heading, rendered.
        QCOMPARE(browser->pageTitle(), firstHeading(expected));
        QVERIFY(browser->windowTitle().startsWith(firstHeading(expected)));
        QVERIFY(browser->text()->document()->characterCount() > 500);
    }
    // Contents, then Back: the front page, and the page before it again.
    ui::HelpBrowser* browser = help->browser();
    QToolButton* contents = nullptr;
    QToolButton* back = nullptr;
    for (QToolButton* b : browser->findChildren<QToolButton*>()) {
        if (b->text() == u"Contents"_s)
            contents = b;
        if (b->text() == u"Back"_s)
            back = b;
    }
    QVERIFY(contents && back);
    const QUrl last = browser->page();
    contents->click();
    QCOMPARE(browser->page(), QUrl(u"qrc:/docs/user-guide/index.md"_s));
    QVERIFY(back->isEnabled());
    back->click();
    QCOMPARE(browser->page(), last);
    browser->close();
}

void TestWindowHelp::inTheWindowsLanguage()
{
    HelpActions* help = w_->help();
    QVERIFY(setLanguage(u"zh_CN"_s));
    QWidget* loss = w_->views()->viewPages().front();
    QCOMPARE(w_->views()->fileName(loss), u"loss"_s);
    w_->views()->showView(loss);
    help->userGuideAction()->trigger();
    ui::HelpBrowser* browser = help->browser();
    QCOMPARE(browser->page(), QUrl(u"qrc:/docs/user-guide/zh_CN/loss.md"_s));
    QCOMPARE(browser->pageTitle(), u"损失"_s);
    QTRY_COMPARE(help->menu()->title(), u"帮助"_s);  // LanguageChange is posted
    // The language changed while the page is open: the same page, in the other language.
    QVERIFY(setLanguage(u"en"_s));
    QTRY_COMPARE(browser->page(), QUrl(u"qrc:/docs/user-guide/loss.md"_s));
    QCOMPARE(browser->pageTitle(), u"Loss"_s);
    browser->close();
}

void TestWindowHelp::bundledLinksResolve()
{
    QStringList problems;
    int pages = 0, links = 0;
    for (QDirIterator it(u":/docs/user-guide"_s, {u"*.md"_s}, QDir::Files, QDirIterator::Subdirectories); it.hasNext();) {
        const QString path = it.next();
        ++pages;
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QUrl page(u"qrc"_s + path);
        for (const test::MarkdownLink& l : test::markdownLinks(QString::fromUtf8(f.readAll()))) {
            if (test::externalLink(l.target) || l.target.isEmpty())
                continue;
            ++links;
            const QUrl target = page.resolved(QUrl(l.target));
            if (!QFile::exists(u':' + target.path()))
                problems << u"%1:%2: %3"_s.arg(path).arg(l.line).arg(l.target);
        }
    }
    QVERIFY2(problems.isEmpty(), qPrintable(u"not in the program:\n"_s + problems.join(u'\n')));
    QCOMPARE(pages, 2 * 22);
    QVERIFY(links > 300);
}

void TestWindowHelp::picturesFitThePage()
{
    HelpActions* help = w_->help();
    w_->views()->showView(w_->views()->attentionPage());
    help->showUserGuide();
    ui::HelpBrowser* browser = help->browser();
    browser->resize(620, 700);
    QVERIFY(QTest::qWaitForWindowExposed(browser));
    QTRY_VERIFY(browser->widestPicture() > 0);
    const int room = browser->text()->viewport()->width();
    QVERIFY2(browser->widestPicture() <= room, qPrintable(u"%1 > %2"_s.arg(browser->widestPicture()).arg(room)));
    // Every picture of the page loaded (from the bundle).
    const QTextDocument* doc = browser->text()->document();
    int pictures = 0;
    for (QTextBlock b = doc->begin(); b.isValid(); b = b.next())
        for (auto f = b.begin(); !f.atEnd(); ++f)
            if (f.fragment().charFormat().isImageFormat()) {
                ++pictures;
                const QString name = f.fragment().charFormat().toImageFormat().name();
                QVERIFY2(doc->resource(QTextDocument::ImageResource, QUrl(name)).isValid(), qPrintable(name));
            }
    QCOMPARE(pictures, 2);  // the heads, and the neuron view
    // Wider again: the pictures grow back to their own width at most.
    browser->resize(1400, 700);
    QTRY_VERIFY(browser->widestPicture() > 620);
    browser->close();
}

void TestWindowHelp::shortcutsListEveryKey()
{
    HelpActions* help = w_->help();
    const QList<HelpActions::Shortcut> keys = help->shortcuts();
    QMap<QString, QStringList> byKey;  // "F1" -> what it does
    for (const HelpActions::Shortcut& k : keys)
        byKey[k.keys.toString()] << k.what;
    QCOMPARE(byKey.value(u"F1"_s), QStringList{u"User guide"_s});
    QCOMPARE(byKey.value(u"Space"_s), QStringList{u"Play"_s});
    QCOMPARE(byKey.value(u"Ctrl+Q"_s), QStringList{u"Quit"_s});
    QCOMPARE(byKey.value(u"Ctrl+R"_s), QStringList{u"Reset"_s});
    QCOMPARE(byKey.value(u"Alt+L"_s), QStringList{u"Show Loss"_s});
    QCOMPARE(byKey.value(u"Ctrl+H"_s).size(), 1);  // the Heads view's Score button
    QCOMPARE(byKey.value(u"Alt+F"_s), QStringList{u"The File menu"_s});
    QCOMPARE(byKey.value(u"Alt+H"_s), QStringList{u"Show Heads"_s});  // not the Help menu too
    // Every action of the window that has a key is listed, once.
    int withKeys = 0;
    for (QAction* a : w_->findChildren<QAction*>())
        if (!a->shortcut().isEmpty()) {
            ++withKeys;
            QString text = a->text();
            text.remove(u'&');
            QVERIFY2(byKey.value(a->shortcut().toString()).contains(text), qPrintable(text));
        }
    int viewKeys = 0;
    for (QShortcut* s : w_->findChildren<QShortcut*>())
        viewKeys += s->whatsThis().isEmpty() ? 0 : 1;
    QCOMPARE(viewKeys, 15);
    QVERIFY(keys.size() >= withKeys + viewKeys);
    // No key does two things in one place (Alt+M, Masks and Samples, takes turns: one place,
    // two views, each press the next of them, ViewSet::showNextOf).
    QMap<QString, QStringList> byPlace;
    for (const HelpActions::Shortcut& k : keys)
        byPlace[k.keys.toString() + u" @ "_s + k.where] << k.what;
    for (auto it = byPlace.cbegin(); it != byPlace.cend(); ++it)
        if (it.key() != u"Alt+M @ Anywhere"_s)
            QVERIFY2(it.value().size() == 1, qPrintable(it.key() + u": "_s + it.value().join(u", "_s)));
    // The dialog shows them all.
    help->showShortcuts();
    auto* table = w_->findChild<QTableWidget*>(u"shortcuts"_s);
    QVERIFY(table);
    QCOMPARE(table->rowCount(), keys.size());
    QCOMPARE(table->item(0, 0)->text(), keys[0].keys.toString(QKeySequence::NativeText));
    table->window()->close();
}

void TestWindowHelp::aboutAndDiagnostics()
{
    HelpActions* help = w_->help();
    const QString about = help->aboutText();
    QVERIFY(about.contains(u"GPL-3.0-or-later"_s));
    QVERIFY(about.contains(u"Tatoeba"_s) && about.contains(u"CC BY 2.0 FR"_s));
    QVERIFY(about.contains(QString::fromLatin1(qVersion())));
    // Eigen's version as its own header says it.
    QVERIFY(about.contains(u"%1.%2.%3"_s.arg(EIGEN_WORLD_VERSION).arg(EIGEN_MAJOR_VERSION).arg(EIGEN_MINOR_VERSION)));
    // OpenBLAS as the library describes itself, opened here.
    if (void* lib = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL)) {
        const auto config = reinterpret_cast<char* (*)()>(dlsym(lib, "openblas_get_config"));
        QVERIFY(config);
        const QString self = QString::fromUtf8(config()).trimmed();
        // The engine loads it with the kernels it chose, which the string ends with: the
        // version and the build's options are the same.
        QVERIFY2(about.contains(self.section(u' ', 0, 2).toHtmlEscaped()), qPrintable(self + u"\n"_s + about));
        dlclose(lib);
    } else {
        AS_SKIP("libopenblas.so.0 is not installed: install Debian's libopenblas0 (scripts/install-deps.sh)");
    }
    help->copyDiagnostics();
    const QString copied = QGuiApplication::clipboard()->text();
    QCOMPARE(copied, help->diagnostics());
    for (const char* key : {"Qt: ", "Eigen: ", "SentencePiece: ", "Matrix products: ", "CPU: ", "CPU has: ",
                            "Threads: ", "System: ", "QCustomPlot: ", "Window: "})
        QVERIFY2(copied.contains(QLatin1String(key)), key);
}

AS_TEST_MAIN(TestWindowHelp)
#include "test_window_help.moc"
