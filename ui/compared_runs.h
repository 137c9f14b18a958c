// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The colours of runs drawn beside the current one (View > Compare with run…, an A/B
// session), shared by every plot that draws them so that a run has one colour everywhere.
#include "train/run_series.h"

#include <QColor>
#include <QPalette>
#include <QStringList>

#include <vector>

namespace as::ui {

// Colours of the series palette (plot_tools.h, seriesColour) apart from those of the current
// run's curves (blue, red, green, purple): orange, cyan, brown, grey, olive, pink. Beyond
// kComparedColours runs the colours repeat. comparedRunSeries: the index in seriesColour();
// comparedRunColour: that colour in a palette (the application's by default).
inline constexpr int kComparedColours = 6;
int comparedRunSeries(int slot);
QColor comparedRunColour(int slot);
QColor comparedRunColour(int slot, const QPalette& palette);

// Which colour each run of a set takes: a run (by name) that was in the last set keeps its
// colour, so that removing one run does not repaint the others; a new one takes the lowest
// colour free. Every view holds one and is given the same sets, so they agree.
class ComparedSlots {
public:
    // The slot (colour index) of each name, in order.
    std::vector<int> assign(const QStringList& names);
    // The runs of a set handed to a view, nulls left out (*runs), and their slots.
    std::vector<int> assign(RunSeriesList* runs);

private:
    QStringList names_;
    std::vector<int> slots_;
};


}  // namespace as::ui
