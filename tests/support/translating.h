// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The Translate view as the window wires it: its requests decoded by a TranslationService.
#include "translate_view.h"
#include "translation_service.h"

namespace as::test {

struct Translating {
    explicit Translating(ModelCopyPtr model)
    {
        connectTranslateView(&service, &view);
        service.setModel(std::move(model));
    }
    TranslationService service;  // outlives the view
    ui::TranslateView view;
};

}  // namespace as::test
