#include "compared_runs.h"

#include <algorithm>

namespace as::ui {

QColor comparedRunColour(int slot)
{
    // Orange, teal, brown, black, olive, magenta: apart from the current run's tab10 blue, red,
    // green and purple, and from each other in hue or lightness.
    static const QColor colours[kComparedColours] = {
        QColor(255, 127, 14), QColor(23, 166, 180), QColor(140, 86, 75),
        QColor(127, 127, 127), QColor(160, 160, 20), QColor(214, 40, 180)};
    return colours[((slot % kComparedColours) + kComparedColours) % kComparedColours];
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
