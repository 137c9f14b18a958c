// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Help menu: User guide (F1: the page of the view shown, in the window's language, from
// the Markdown compiled into the program, docs/user-guide/), Keyboard shortcuts (listed from
// the window's own actions and shortcuts, so the list cannot drift from the keys), About
// Attention Studio (version, licence, the libraries and the kernels in use, the corpus's
// attribution) and Copy diagnostics (the same facts and the machine's, for a bug report).
#include <QKeySequence>
#include <QList>
#include <QObject>
#include <QString>
#include <QUrl>

class QAction;
class QMenu;
class QWidget;

namespace as {
class MainWindow;
class ViewSet;
namespace ui {
class HelpBrowser;
}

class HelpActions : public QObject {
    Q_OBJECT
public:
    HelpActions(MainWindow* window, ViewSet* views);
    void retranslate();
    QMenu* menu() const { return menu_; }

    // The user guide's page for a view (its page widget; null: the contents) in a language
    // ("en", "zh_CN"): qrc:/docs/user-guide/[zh_CN/]NAME.md, the English one where the
    // language has none.
    QUrl pageFor(QWidget* view, const QString& language) const;
    // F1: the page of the view shown, in the window's language.
    void showUserGuide();
    ui::HelpBrowser* browser() const { return browser_; }

    struct Shortcut {
        QString what;   // the action's text, without its mnemonic mark
        QString where;  // its menu, the toolbar, or the view it acts in
        QKeySequence keys;
    };
    // Every key the window answers to: its actions' and buttons' shortcuts and the views'
    // Alt+letter keys, in menu order.
    QList<Shortcut> shortcuts() const;
    void showShortcuts();
    // What About shows, as rich text; what Copy diagnostics copies, as plain text.
    QString aboutText() const;
    QString diagnostics() const;
    void showAbout();
    void copyDiagnostics();

    QAction* userGuideAction() const { return guide_; }
    QAction* shortcutsAction() const { return keys_; }
    QAction* aboutAction() const { return about_; }
    QAction* diagnosticsAction() const { return diagnostics_; }

private:
    MainWindow* window_;
    ViewSet* views_;
    QMenu* menu_ = nullptr;
    QAction *guide_ = nullptr, *keys_ = nullptr, *about_ = nullptr, *diagnostics_ = nullptr;
    ui::HelpBrowser* browser_ = nullptr;  // made at the first F1
    QWidget* keysDialog_ = nullptr;
};

}  // namespace as
