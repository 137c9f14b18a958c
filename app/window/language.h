// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The window's language: English (the sources' own text) or 简体中文 (zh_CN), from
// resources/translations/attention-studio_zh_CN.ts, compiled and embedded at build time, with
// Qt's own dialogs (qtbase_zh_CN.qm, Debian's qt6-translations-l10n) from Qt's translations
// path when present. Installing a language sends every widget QEvent::LanguageChange: the
// window and its views retranslate themselves there, without a restart. The command-line
// program stays in English.
#include <QString>
#include <QStringList>

class QSettings;

namespace as {

// The languages offered: "en", "zh_CN".
QStringList availableLanguages();
// Its name in its own language, for the View > Language menu.
QString languageName(const QString& code);
// "zh_CN" for a Chinese system locale (LANG=zh_CN.UTF-8, zh_TW, …), "en" otherwise.
QString languageOfLocale();
// A known code for what the user typed (zh_CN, zh-CN, zh, en, en_US…); empty when unknown.
QString normalizedLanguage(const QString& code);
// Installs the language (replacing the one installed before); false for an unknown code or a
// translation that does not load (the language stays as it was).
bool setLanguage(const QString& code);
// The language installed last ("en" before any).
QString currentLanguage();
// What the window starts in: an explicit choice (--language), else the one remembered from
// View > Language (settings_store.h), else the locale's.
QString startupLanguage(const QString& requested, QSettings& store);

}  // namespace as
