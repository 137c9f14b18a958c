// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "help_actions.h"

#include "help_browser.h"
#include "language.h"
#include "main_window.h"
#include "theme.h"
#include "view_set.h"

#include "run/system_report.h"

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QGuiApplication>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QRegularExpression>
#include <QScreen>
#include <QSet>
#include <QShortcut>
#include <QStatusBar>
#include <QTableWidget>
#include <QToolBar>
#include <QVBoxLayout>
#include <qcustomplot.h>

namespace as {

namespace {

// "&Open…" -> "Open…", "损失(&L)" -> "损失".
QString withoutMnemonic(QString text)
{
    text.remove(QRegularExpression(QStringLiteral("\\s*\\(&[^&]\\)")));
    text.replace(QRegularExpression(QStringLiteral("&(.)")), QStringLiteral("\\1"));
    return text;
}

}  // namespace

HelpActions::HelpActions(MainWindow* window, ViewSet* views) : QObject(window), window_(window), views_(views)
{
    menu_ = new QMenu(window);
    guide_ = menu_->addAction(QString());
    guide_->setShortcut(QKeySequence::HelpContents);  // F1
    connect(guide_, &QAction::triggered, this, &HelpActions::showUserGuide);
    keys_ = menu_->addAction(QString());
    connect(keys_, &QAction::triggered, this, &HelpActions::showShortcuts);
    menu_->addSeparator();
    diagnostics_ = menu_->addAction(QString());
    connect(diagnostics_, &QAction::triggered, this, &HelpActions::copyDiagnostics);
    about_ = menu_->addAction(QString());
    about_->setMenuRole(QAction::AboutRole);
    connect(about_, &QAction::triggered, this, &HelpActions::showAbout);
    // A page shown follows the window's language (the F1 page of the same view, translated).
    retranslate();
}

void HelpActions::retranslate()
{
    // No Alt+letter: every letter of "Help" opens a view already (Alt+H Heads, Alt+E Health,
    // Alt+L Loss, Alt+P Positional encoding); F1 is its key.
    menu_->setTitle(tr("Help"));
    guide_->setText(tr("&User guide"));
    guide_->setToolTip(tr("The user guide's page of the view shown (%1)")
                           .arg(guide_->shortcut().toString(QKeySequence::NativeText)));
    keys_->setText(tr("&Keyboard shortcuts"));
    diagnostics_->setText(tr("&Copy diagnostics"));
    diagnostics_->setToolTip(tr("Copy the versions and the machine's facts, for a bug report"));
    about_->setText(tr("&About Attention Studio"));
    if (browser_ && browser_->isVisible()) {
        // The same page in the language now installed.
        const QString name = browser_->page().fileName();
        const QString dir = currentLanguage() == QLatin1String("en") ? QString() : currentLanguage() + u'/';
        QUrl page(QStringLiteral("qrc:/docs/user-guide/") + dir + name);
        if (!QFile::exists(u':' + page.path()))
            page = QUrl(QStringLiteral("qrc:/docs/user-guide/") + name);
        browser_->showPage(page, pageFor(nullptr, currentLanguage()));
    }
}

QUrl HelpActions::pageFor(QWidget* view, const QString& language) const
{
    QString name = view ? views_->fileName(view) : QString();
    if (name.isEmpty())
        name = QStringLiteral("index");
    const QString base = QStringLiteral("/docs/user-guide/");
    QString path = base + language + u'/' + name + QStringLiteral(".md");
    if (language == QLatin1String("en") || !QFile::exists(u':' + path))
        path = base + name + QStringLiteral(".md");
    return QUrl(QStringLiteral("qrc:") + path);
}

void HelpActions::showUserGuide()
{
    if (!browser_)
        browser_ = new ui::HelpBrowser(window_);
    const QString language = currentLanguage();
    browser_->showPage(pageFor(views_->currentView(), language), pageFor(nullptr, language));
    browser_->show();
    browser_->raise();
    browser_->activateWindow();
}

QList<HelpActions::Shortcut> HelpActions::shortcuts() const
{
    QList<Shortcut> out;
    QSet<const QObject*> seen;
    const auto take = [&](QAction* a, const QString& where) {
        if (seen.contains(a) || a->shortcut().isEmpty())
            return;
        seen.insert(a);
        out.push_back({withoutMnemonic(a->text()), where, a->shortcut()});
    };
    // The menus, in order, and their submenus.
    const std::function<void(QMenu*, const QString&)> walk = [&](QMenu* menu, const QString& where) {
        for (QAction* a : menu->actions()) {
            if (a->menu())
                walk(a->menu(), where + QStringLiteral(" › ") + withoutMnemonic(a->menu()->title()));
            else
                take(a, where);
        }
    };
    for (QAction* a : window_->menuBar()->actions())
        if (a->menu())
            walk(a->menu(), withoutMnemonic(a->menu()->title()));
    // The menus' own keys (Alt and the underlined letter), window-wide as the views' are.
    for (QAction* a : window_->menuBar()->actions()) {
        const QKeySequence key = QKeySequence::mnemonic(a->text());
        if (a->menu() && !key.isEmpty())
            out.push_back({tr("The %1 menu").arg(withoutMnemonic(a->text())), tr("Anywhere"), key});
    }
    for (QToolBar* bar : window_->findChildren<QToolBar*>())
        for (QAction* a : bar->actions())
            take(a, bar->windowTitle());
    // Views' own actions and buttons: where is the view's name.
    const auto whereOf = [this](QObject* o) {
        for (QObject* p = o; p; p = p->parent())
            if (auto* w = qobject_cast<QWidget*>(p)) {
                if (w == browser_)
                    return tr("User guide");
                const QString title = views_->viewTitle(w);
                if (!title.isEmpty())
                    return withoutMnemonic(title);
            }
        return tr("Window");
    };
    for (QAction* a : window_->findChildren<QAction*>())
        take(a, whereOf(a->parent()));
    for (QAbstractButton* b : window_->findChildren<QAbstractButton*>()) {
        if (b->shortcut().isEmpty() || seen.contains(b))
            continue;
        seen.insert(b);
        out.push_back({withoutMnemonic(b->text().isEmpty() ? b->toolTip() : b->text()), whereOf(b), b->shortcut()});
    }
    // The views' Alt+letter keys (ViewSet): their what's-this names the view.
    for (QShortcut* s : window_->findChildren<QShortcut*>())
        if (!s->key().isEmpty() && !s->whatsThis().isEmpty())
            out.push_back({s->whatsThis(), tr("Anywhere"), s->key()});
    return out;
}

void HelpActions::showShortcuts()
{
    delete keysDialog_;
    auto* dialog = new QDialog(window_);
    keysDialog_ = dialog;
    dialog->setWindowTitle(tr("Keyboard shortcuts — Attention Studio"));
    const QList<Shortcut> keys = shortcuts();
    auto* table = new QTableWidget(int(keys.size()), 3, dialog);
    table->setObjectName(QStringLiteral("shortcuts"));
    table->setHorizontalHeaderLabels({tr("Keys"), tr("Does"), tr("Where")});
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    for (int i = 0; i < keys.size(); ++i) {
        table->setItem(i, 0, new QTableWidgetItem(keys[i].keys.toString(QKeySequence::NativeText)));
        table->setItem(i, 1, new QTableWidgetItem(keys[i].what));
        table->setItem(i, 2, new QTableWidgetItem(keys[i].where));
    }
    table->resizeColumnsToContents();
    table->horizontalHeader()->setStretchLastSection(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(table, 1);
    layout->addWidget(buttons);
    dialog->resize(std::max(560, table->horizontalHeader()->length() + 40), 620);
    dialog->show();
}

namespace {
// The report's keys as About shows them (a bug report keeps them in English).
QString factName(const QString& key)
{
    if (key == QLatin1String("Matrix products"))
        return HelpActions::tr("Matrix products");
    if (key == QLatin1String("CPU"))
        return HelpActions::tr("CPU");
    if (key == QLatin1String("Engine compiled for"))
        return HelpActions::tr("Engine compiled for");
    return key;  // a name: Qt, Eigen, OpenBLAS, SentencePiece, Attention Studio
}
}  // namespace

QString HelpActions::aboutText() const
{
    const QString version = QCoreApplication::applicationVersion();
    QString rows;
    QList<SystemFact> facts = systemReport(version, false);
    facts.insert(3, {QStringLiteral("QCustomPlot"), QStringLiteral(QCUSTOMPLOT_VERSION_STR)});
    for (const SystemFact& f : facts)
        if (f.key != QLatin1String("Attention Studio"))
            rows += QStringLiteral("<tr><td>%1</td><td>&nbsp;%2</td></tr>").arg(factName(f.key).toHtmlEscaped(), f.value.toHtmlEscaped());
    return QStringLiteral("<h3>%1 %2</h3><p>%3</p><p>%4</p><p>%5</p><table>%6</table><p>%7</p>")
        .arg(tr("Attention Studio"), version.toHtmlEscaped(), tr("Train a Transformer and watch it learn."),
             tr("Copyright 2026 The Attention Studio authors."),
             tr("This program is free software under the GNU General Public License, version 3 or "
                "any later version (GPL-3.0-or-later), and comes with ABSOLUTELY NO WARRANTY. "
                "It uses Qt (LGPL-3.0), QCustomPlot (GPL-3.0), Eigen (MPL-2.0), OpenBLAS "
                "(BSD-3-Clause) and SentencePiece (Apache-2.0)."),
             rows,
             tr("The zh-en corpus is made of sentences of the Tatoeba Project "
                "(<a href=\"https://tatoeba.org\">tatoeba.org</a>) by its contributors, each named "
                "on its line, under the licence CC BY 2.0 FR "
                "(<a href=\"https://creativecommons.org/licenses/by/2.0/fr/\">creativecommons.org/licenses/by/2.0/fr</a>), "
                "as packaged by <a href=\"https://www.manythings.org/anki/\">manythings.org/anki</a>."));
}

QString HelpActions::diagnostics() const
{
    QString text = systemReportText(systemReport(QCoreApplication::applicationVersion(), true));
    text += QStringLiteral("QCustomPlot: %1\n").arg(QStringLiteral(QCUSTOMPLOT_VERSION_STR));
    text += QStringLiteral("Window: %1, language %2, theme %3").arg(QGuiApplication::platformName(), currentLanguage(), currentTheme());
    if (const QScreen* s = window_->screen())
        text += QStringLiteral(", screen %1x%2 at %3x").arg(s->size().width()).arg(s->size().height()).arg(s->devicePixelRatio());
    return text + u'\n';
}

void HelpActions::showAbout()
{
    QMessageBox::about(window_, tr("About Attention Studio"), aboutText());
}

void HelpActions::copyDiagnostics()
{
    QGuiApplication::clipboard()->setText(diagnostics());
    window_->statusBar()->showMessage(tr("Copied the diagnostics to the clipboard: paste them into your bug report"), 8000);
}

}  // namespace as
