// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The field of a form's row by its label's text, for window tests of the settings panel.
#include <QFormLayout>
#include <QLabel>
#include <QString>
#include <QWidget>

namespace as::test {

// The field of the first QFormLayout in `panel` whose row's label says `label` (null: none,
// or not a W).
template <typename W>
W* formField(QWidget* panel, const QString& label)
{
    auto* form = panel->findChild<QFormLayout*>();
    for (int row = 0; form && row < form->rowCount(); ++row) {
        QLayoutItem* l = form->itemAt(row, QFormLayout::LabelRole);
        QLayoutItem* f = form->itemAt(row, QFormLayout::FieldRole);
        if (l && f && qobject_cast<QLabel*>(l->widget())
            && qobject_cast<QLabel*>(l->widget())->text() == label)
            return qobject_cast<W*>(f->widget());
    }
    return nullptr;
}

}  // namespace as::test
