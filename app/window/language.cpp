// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "language.h"

#include "settings_store.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QSettings>
#include <QTranslator>

#include <memory>

namespace as {

namespace {

struct Installed {
    QString code = QStringLiteral("en");
    std::unique_ptr<QTranslator> app, qt;
};

Installed& installed()
{
    static Installed i;
    return i;
}

}  // namespace

QStringList availableLanguages()
{
    return {QStringLiteral("en"), QStringLiteral("zh_CN")};
}

QString languageName(const QString& code)
{
    return code == QLatin1String("zh_CN") ? QStringLiteral("简体中文") : QStringLiteral("English");
}

QString normalizedLanguage(const QString& code)
{
    const QString c = code.trimmed().toLower().replace(QLatin1Char('-'), QLatin1Char('_'));
    if (c == QLatin1String("en") || c.startsWith(QLatin1String("en_")) || c == QLatin1String("c"))
        return QStringLiteral("en");
    if (c == QLatin1String("zh") || c.startsWith(QLatin1String("zh_")))
        return QStringLiteral("zh_CN");
    return {};
}

QString languageOfLocale()
{
    // QLocale::system() reads LC_ALL, LC_MESSAGES and LANG on Unix.
    return QLocale::system().language() == QLocale::Chinese ? QStringLiteral("zh_CN")
                                                            : QStringLiteral("en");
}

bool setLanguage(const QString& requested)
{
    const QString code = normalizedLanguage(requested);
    if (code.isEmpty())
        return false;
    Installed& now = installed();
    std::unique_ptr<QTranslator> app, qt;
    if (code != QLatin1String("en")) {
        app = std::make_unique<QTranslator>();
        if (!app->load(QStringLiteral(":/i18n/attention-studio_%1.qm").arg(code)))
            return false;
        // Qt's own dialogs and buttons, when Debian's qt6-translations-l10n is installed.
        qt = std::make_unique<QTranslator>();
        if (!qt->load(QStringLiteral("qtbase_%1").arg(code),
                      QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
            qt.reset();
    }
    // Each install and removal sends QEvent::LanguageChange to every widget.
    for (auto* t : {now.app.get(), now.qt.get()})
        if (t)
            QCoreApplication::removeTranslator(t);
    now.app = std::move(app);
    now.qt = std::move(qt);
    for (auto* t : {now.qt.get(), now.app.get()})
        if (t)
            QCoreApplication::installTranslator(t);
    now.code = code;
    return true;
}

QString currentLanguage()
{
    return installed().code;
}

QString startupLanguage(const QString& requested, QSettings& store)
{
    if (const QString c = normalizedLanguage(requested); !c.isEmpty())
        return c;
    if (const QString c = rememberedLanguage(store); !c.isEmpty())
        return c;
    return languageOfLocale();
}

}  // namespace as
