// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "compared_runs.h"

#include "plot_tools.h"

#include <QGuiApplication>

#include <algorithm>

namespace as::ui {

int comparedRunSeries(int slot)
{
    // Orange, cyan, brown, grey, olive, pink: apart from the current run's blue (0), green (2),
    // red (3) and purple (4), and from each other in hue or lightness.
    static const int series[kComparedColours] = {1, 9, 5, 7, 8, 6};
    return series[((slot % kComparedColours) + kComparedColours) % kComparedColours];
}

QColor comparedRunColour(int slot, const QPalette& palette)
{
    return seriesColour(comparedRunSeries(slot), palette);
}

QColor comparedRunColour(int slot)
{
    return comparedRunColour(slot, QGuiApplication::palette());
}

std::vector<int> ComparedSlots::assign(const QStringList& names)
{
    std::vector<int> out(std::size_t(names.size()), -1);
    std::vector<bool> kept(slots_.size(), false);
    // Runs that stay keep their slot (a name given twice: the first keeps it).
    for (qsizetype i = 0; i < names.size(); ++i)
        for (std::size_t j = 0; j < slots_.size(); ++j)
            if (!kept[j] && names_[qsizetype(j)] == names[i]) {
                kept[j] = true;
                out[std::size_t(i)] = slots_[j];
                break;
            }
    // New ones take the lowest slot free.
    for (int& slot : out) {
        if (slot >= 0)
            continue;
        int s = 0;
        while (std::find(out.begin(), out.end(), s) != out.end())
            ++s;
        slot = s;
    }
    names_ = names;
    slots_ = out;
    return out;
}

std::vector<int> ComparedSlots::assign(RunSeriesList* runs)
{
    runs->erase(std::remove(runs->begin(), runs->end(), nullptr), runs->end());
    QStringList names;
    for (const RunSeriesPtr& r : *runs)
        names << r->name;
    return assign(names);
}

}  // namespace as::ui
