// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The last settings applied, kept in QSettings' "session" group so that the window reopens as
// it was left.
#include "training_worker.h"  // SessionSettings

class QSettings;

namespace as {

void saveSessionSettings(QSettings& store, const SessionSettings& s);
// Anything missing or not valid falls back to the task's defaults.
SessionSettings loadSessionSettings(QSettings& store);

// The language chosen in View > Language ("window/language": "en" or "zh_CN"); empty when the
// user never chose one (the system locale decides then, language.h).
QString rememberedLanguage(QSettings& store);
void rememberLanguage(QSettings& store, const QString& code);

// The theme chosen in View > Theme ("window/theme": "system", "light" or "dark"); empty when
// the user never chose one (theme.h).
QString rememberedTheme(QSettings& store);
void rememberTheme(QSettings& store, const QString& code);

}  // namespace as
