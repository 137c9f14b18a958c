// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What a plot's hover read-out (ui/plot_tools.h, enableHoverReadout) says, for view tests.
#include <qcustomplot.h>

#include <QApplication>
#include <QMouseEvent>
#include <QToolTip>

namespace as::test {

// What the plot's tooltip says with the mouse at `pixel` (empty: none). A tooltip being hidden
// stays visible a moment with its old text: a sentinel tells "hidden" from "shown".
inline QString hoverAt(QCustomPlot* plot, QPointF pixel)
{
    const QString sentinel = QStringLiteral("(no hover text)");
    QToolTip::showText(plot->mapToGlobal(QPoint(0, 0)), sentinel, plot);
    QMouseEvent move(QEvent::MouseMove, pixel, plot->mapToGlobal(pixel), Qt::NoButton,
                     Qt::NoButton, Qt::NoModifier);
    QApplication::sendEvent(plot, &move);
    const QString text = QToolTip::isVisible() ? QToolTip::text() : QString();
    return text == sentinel ? QString() : text;
}

}  // namespace as::test
