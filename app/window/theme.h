// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The window's colours: the desktop's (system), or light or dark, chosen in View > Theme and
// remembered (settings_store.h), or given by --theme for scripted screenshots. Light and dark
// use Qt's Fusion style with a palette built here; switching sends every widget
// QEvent::ApplicationPaletteChange / PaletteChange, where the plots recolour themselves
// (ui/plot_tools.h, followPalette) without a restart.
#include <QString>
#include <QStringList>

class QPalette;
class QSettings;

namespace as {

// The themes offered: "system", "light", "dark".
QStringList availableThemes();
// Its name for the View > Theme menu, in the installed language.
QString themeName(const QString& code);
// A known code for what the user typed (case and spaces ignored); empty when unknown.
QString normalizedTheme(const QString& code);
// The palettes of the light and dark themes (used with the Fusion style).
QPalette lightPalette();
QPalette darkPalette();
// Applies the theme to the running application; false for an unknown code (nothing changes).
// "system" restores the style and palette the application started with.
bool setTheme(const QString& code);
// The theme applied last ("system" before any).
QString currentTheme();
// What the window starts in: an explicit choice (--theme), else the one remembered from
// View > Theme, else "system".
QString startupTheme(const QString& requested, QSettings& store);

}  // namespace as
