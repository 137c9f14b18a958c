// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "theme.h"

#include "settings_store.h"

#include <QApplication>
#include <QPalette>
#include <QPointer>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>

namespace as {

namespace {

struct Applied {
    QString code = QStringLiteral("system");
    bool captured = false;
    QString systemStyle;  // the style and palette the application started with
    QPalette systemPalette;
};

Applied& applied()
{
    static Applied a;
    return a;
}

}  // namespace

QStringList availableThemes()
{
    return {QStringLiteral("system"), QStringLiteral("light"), QStringLiteral("dark")};
}

QString themeName(const QString& code)
{
    if (code == QLatin1String("light"))
        return QCoreApplication::translate("as::Theme", "Light");
    if (code == QLatin1String("dark"))
        return QCoreApplication::translate("as::Theme", "Dark");
    return QCoreApplication::translate("as::Theme", "System");
}

QString normalizedTheme(const QString& code)
{
    const QString c = code.trimmed().toLower();
    return availableThemes().contains(c) ? c : QString();
}

QPalette lightPalette()
{
    QStyle* fusion = QStyleFactory::create(QStringLiteral("Fusion"));
    QPalette p = fusion ? fusion->standardPalette() : QPalette(Qt::white);
    delete fusion;
    return p;
}

QPalette darkPalette()
{
    // Text on Base and on Window well above WCAG AA (4.5:1): #e8e8e8 on #1e1e1e is 14.6:1,
    // on #2d2d2d 12.1:1; disabled text #8a8a8a on #2d2d2d 4.6:1.
    const QColor window(45, 45, 45), base(30, 30, 30), text(232, 232, 232), disabled(138, 138, 138);
    QPalette p;
    for (QPalette::ColorGroup g : {QPalette::Active, QPalette::Inactive, QPalette::Disabled}) {
        const bool off = g == QPalette::Disabled;
        p.setColor(g, QPalette::Window, window);
        p.setColor(g, QPalette::WindowText, off ? disabled : text);
        p.setColor(g, QPalette::Base, base);
        p.setColor(g, QPalette::AlternateBase, QColor(38, 38, 38));
        p.setColor(g, QPalette::ToolTipBase, QColor(60, 60, 60));
        p.setColor(g, QPalette::ToolTipText, text);
        p.setColor(g, QPalette::PlaceholderText, disabled);
        p.setColor(g, QPalette::Text, off ? disabled : text);
        p.setColor(g, QPalette::Button, QColor(53, 53, 53));
        p.setColor(g, QPalette::ButtonText, off ? disabled : text);
        p.setColor(g, QPalette::BrightText, QColor(255, 90, 90));
        p.setColor(g, QPalette::Light, QColor(80, 80, 80));
        p.setColor(g, QPalette::Midlight, QColor(64, 64, 64));
        p.setColor(g, QPalette::Mid, QColor(90, 90, 90));
        p.setColor(g, QPalette::Dark, QColor(20, 20, 20));
        p.setColor(g, QPalette::Shadow, QColor(0, 0, 0));
        p.setColor(g, QPalette::Highlight, off ? QColor(70, 70, 70) : QColor(42, 110, 190));
        p.setColor(g, QPalette::HighlightedText, off ? disabled : QColor(255, 255, 255));
        p.setColor(g, QPalette::Link, QColor(110, 170, 240));
        p.setColor(g, QPalette::LinkVisited, QColor(180, 140, 230));
    }
    return p;
}

bool setTheme(const QString& requested)
{
    const QString code = normalizedTheme(requested);
    if (code.isEmpty() || !qApp)
        return false;
    Applied& a = applied();
    if (!a.captured) {
        a.systemStyle = QApplication::style()->name();
        a.systemPalette = QApplication::palette();
        a.captured = true;
    }
    if (code == QLatin1String("system")) {
        if (a.code == code)
            return true;  // the desktop's already: the style left as the platform chose it
        QApplication::setStyle(a.systemStyle);
        QApplication::setPalette(a.systemPalette);
    } else {
        QApplication::setStyle(QStringLiteral("Fusion"));
        QApplication::setPalette(code == QLatin1String("dark") ? darkPalette() : lightPalette());
    }
    a.code = code;
    return true;
}

QString currentTheme()
{
    return applied().code;
}

QString startupTheme(const QString& requested, QSettings& store)
{
    if (const QString c = normalizedTheme(requested); !c.isEmpty())
        return c;
    if (const QString c = rememberedTheme(store); !c.isEmpty())
        return c;
    return QStringLiteral("system");
}

}  // namespace as
