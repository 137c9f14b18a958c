// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The user guide inside the window (Help > User guide, F1): a window that renders the bundled
// Markdown pages (docs/user-guide/, compiled in under qrc:/docs/) with their pictures, follows
// their links between pages (Back, Forward, Contents), and opens web links in the browser.
// Pictures wider than the page are drawn at the page's width. It is given pages by URL; which
// page belongs to which view is the window's business (app/window/help_actions.h).
#include <QUrl>
#include <QWidget>

class QTextBrowser;
class QToolButton;

namespace as::ui {

class HelpBrowser : public QWidget {
    Q_OBJECT
public:
    explicit HelpBrowser(QWidget* parent = nullptr);

    // Shows the page (a qrc:/ or file: URL of a .md file); contents: the Contents button's page.
    void showPage(const QUrl& page, const QUrl& contents);
    QUrl page() const;
    // The page's first heading ("Loss"), which the window's title shows.
    QString pageTitle() const;
    QTextBrowser* text() const { return text_; }
    // Read-outs: the widest picture on the page, as drawn, in pixels (0: none).
    int widestPicture() const;

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void retranslate();
    void onPageChanged();
    // Pictures at most the page's width, their proportions kept.
    void fitPictures();

    QTextBrowser* text_ = nullptr;
    QToolButton *back_ = nullptr, *forward_ = nullptr, *contentsButton_ = nullptr;
    QUrl contents_;
};

}  // namespace as::ui
