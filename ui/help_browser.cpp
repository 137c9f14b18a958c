// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "help_browser.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QImage>
#include <QPixmap>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFragment>
#include <QTextImageFormat>
#include <QToolButton>
#include <QVBoxLayout>

namespace as::ui {

HelpBrowser::HelpBrowser(QWidget* parent) : QWidget(parent, Qt::Window)
{
    setObjectName(QStringLiteral("helpBrowser"));
    text_ = new QTextBrowser(this);
    // Links to other pages open here; links to the web in the desktop's browser.
    text_->setOpenExternalLinks(true);
    back_ = new QToolButton(this);
    forward_ = new QToolButton(this);
    contentsButton_ = new QToolButton(this);
    back_->setShortcut(QKeySequence::Back);
    forward_->setShortcut(QKeySequence::Forward);
    back_->setEnabled(false);
    forward_->setEnabled(false);
    connect(back_, &QToolButton::clicked, text_, &QTextBrowser::backward);
    connect(forward_, &QToolButton::clicked, text_, &QTextBrowser::forward);
    connect(contentsButton_, &QToolButton::clicked, this, [this] {
        if (contents_.isValid())
            text_->setSource(contents_);
    });
    connect(text_, &QTextBrowser::backwardAvailable, back_, &QToolButton::setEnabled);
    connect(text_, &QTextBrowser::forwardAvailable, forward_, &QToolButton::setEnabled);
    connect(text_, &QTextBrowser::sourceChanged, this, &HelpBrowser::onPageChanged);

    auto* bar = new QHBoxLayout;
    bar->addWidget(back_);
    bar->addWidget(forward_);
    bar->addWidget(contentsButton_);
    bar->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addWidget(text_, 1);
    resize(900, 760);
    retranslate();
}

void HelpBrowser::showPage(const QUrl& page, const QUrl& contents)
{
    contents_ = contents;
    if (text_->source() == page)
        text_->reload();  // the same page again: from the top, as a fresh request shows it
    else
        text_->setSource(page, QTextDocument::MarkdownResource);
    text_->verticalScrollBar()->setValue(0);
}

QUrl HelpBrowser::page() const
{
    return text_->source();
}

QString HelpBrowser::pageTitle() const
{
    for (QTextBlock b = text_->document()->begin(); b.isValid(); b = b.next())
        if (b.blockFormat().headingLevel() == 1)
            return b.text();
    return {};
}

void HelpBrowser::onPageChanged()
{
    fitPictures();
    const QString title = pageTitle();
    setWindowTitle(title.isEmpty() ? tr("User guide — Attention Studio")
                                   : tr("%1 — User guide — Attention Studio").arg(title));
}

void HelpBrowser::fitPictures()
{
    QTextDocument* doc = text_->document();
    // The page's width: the viewport's once laid out, else what the window will give it.
    const int viewport = text_->isVisible() ? text_->viewport()->width() : width() - 40;
    const int room = std::max(120, viewport - 2 * int(doc->documentMargin()) - 8);
    for (QTextBlock b = doc->begin(); b.isValid(); b = b.next()) {
        for (auto it = b.begin(); !it.atEnd(); ++it) {
            const QTextFragment f = it.fragment();
            if (!f.isValid() || !f.charFormat().isImageFormat())
                continue;
            QTextImageFormat image = f.charFormat().toImageFormat();
            QVariant data = doc->resource(QTextDocument::ImageResource, QUrl(image.name()));
            if (!data.isValid())  // not drawn yet: loaded as the layout will load it
                data = text_->loadResource(QTextDocument::ImageResource, QUrl(image.name()));
            QSize natural;
            if (data.canConvert<QImage>())
                natural = data.value<QImage>().size();
            if (natural.isEmpty() && data.canConvert<QPixmap>())
                natural = data.value<QPixmap>().size();
            if (natural.isEmpty()) {
                const QImage loaded = QImage::fromData(data.toByteArray());
                natural = loaded.size();
            }
            if (natural.isEmpty())
                continue;
            const int width = std::min(natural.width(), room);
            if (int(image.width()) == width)
                continue;
            image.setWidth(width);
            image.setHeight(double(natural.height()) * width / natural.width());
            QTextCursor c(doc);
            c.setPosition(f.position());
            c.setPosition(f.position() + f.length(), QTextCursor::KeepAnchor);
            c.setCharFormat(image);
        }
    }
}

int HelpBrowser::widestPicture() const
{
    int widest = 0;
    for (QTextBlock b = text_->document()->begin(); b.isValid(); b = b.next())
        for (auto it = b.begin(); !it.atEnd(); ++it)
            if (it.fragment().charFormat().isImageFormat())
                widest = std::max(widest, int(it.fragment().charFormat().toImageFormat().width()));
    return widest;
}

void HelpBrowser::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitPictures();
}

void HelpBrowser::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    fitPictures();
}

void HelpBrowser::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void HelpBrowser::retranslate()
{
    back_->setText(tr("Back"));
    back_->setToolTip(tr("The page before (%1)").arg(back_->shortcut().toString(QKeySequence::NativeText)));
    forward_->setText(tr("Forward"));
    forward_->setToolTip(tr("The page after (%1)").arg(forward_->shortcut().toString(QKeySequence::NativeText)));
    contentsButton_->setText(tr("Contents"));
    contentsButton_->setToolTip(tr("The user guide's contents"));
    onPageChanged();
}

}  // namespace as::ui
