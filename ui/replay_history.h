// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The replay history the Attention and Model views keep, in one place: the records of the run
// (thinned by appendThinned, core/train/history.h), which one is shown, and whether that is the
// latest ("live": a new record is then shown). The view draws the record shown and tells its
// ReplayBar size(), shownIndex() and shownStep(). Record needs only `long step`.
#include "train/history.h"

#include <algorithm>
#include <memory>
#include <vector>

namespace as::ui {

template <class Record>
class ReplayHistory {
public:
    using Ptr = std::shared_ptr<const Record>;

    // Adds `record` (appendThinned: at most `capacity` kept, thinned; one of the last record's
    // step replaces it; one of an earlier step starts a new run) and chooses the record shown:
    // - live (the latest was shown) or nothing was shown: the new record;
    // - replaying: the record at the step replayed (the one that replaced it there), or the
    //   nearest earlier one kept;
    // - a new run: its record (the one replayed is gone with the old run).
    // False, and nothing changes, for a null record or the last one again.
    bool append(Ptr record, int capacity)
    {
        if (!record || (!records_.empty() && records_.back() == record))
            return false;
        const bool follow = isLive() || records_.empty();
        const bool newRun = !records_.empty() && record->step < records_.back()->step;
        const long replayed = !newRun ? shownStep() : -1;
        appendThinned(records_, std::move(record), capacity);
        shown_ = size() - 1;
        if (!follow && replayed >= 0)
            shown_ = lastAtOrBefore(replayed, shown_);
        return true;
    }
    void clear()
    {
        records_.clear();
        shown_ = -1;
    }

    int size() const { return int(records_.size()); }
    bool empty() const { return records_.empty(); }
    const Ptr& at(int index) const { return records_[std::size_t(index)]; }
    const Ptr& back() const { return records_.back(); }

    // -1, a null record and step -1 while nothing is shown.
    int shownIndex() const { return shown_; }
    Ptr shown() const { return shown_ < 0 ? Ptr() : records_[std::size_t(shown_)]; }
    long shownStep() const { return shown_ < 0 ? -1 : records_[std::size_t(shown_)]->step; }
    bool isLive() const { return !records_.empty() && shown_ == size() - 1; }

    // Shows the record at `index`, clamped into 0 … size() − 1 (nothing while empty); true when
    // the record shown changed.
    bool show(int index)
    {
        if (records_.empty())
            return false;
        index = std::clamp(index, 0, size() - 1);
        const bool changed = index != shown_;
        shown_ = index;
        return changed;
    }
    // The index of the record at `step`, or of the last one before it (0 when every record is
    // later, or there is none): what showing a step shows.
    int indexOfStep(long step) const { return lastAtOrBefore(step, 0); }

private:
    int lastAtOrBefore(long step, int none) const
    {
        int index = none;
        for (int i = 0; i < size(); ++i)
            if (records_[std::size_t(i)]->step <= step)
                index = i;
        return index;
    }

    std::vector<Ptr> records_;
    int shown_ = -1;
};

}  // namespace as::ui
