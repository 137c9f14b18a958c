// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Checkpoint averaging, as in "Attention Is All You Need" §6.1 (the base models average the
// last 5 checkpoints, written at 10-minute intervals): the mean of the parameters at a few
// points near the end of training generalises better than the last point alone, because
// the last steps of Adam wander around a minimum rather than sit in it.
#include "model/tensor.h"

#include <cstddef>

namespace as {

class WeightAverage {
public:
    // points: how many snapshots the average will hold (the last one at the end of training);
    // spacing: the fraction of the training budget between two snapshots. 5 and 0.05 take
    // snapshots at 80 %, 85 %, 90 %, 95 % and 100 % of the budget.
    WeightAverage(int points, double spacing) : points_(points), spacing_(spacing) {}

    int points() const { return points_; }
    int taken() const { return taken_; }
    // The budget fraction at which the next snapshot is due (> 1 once all but the final one,
    // which the caller takes when training stops, are in).
    double nextDue() const { return 1.0 - spacing_ * double(points_ - 1 - taken_); }
    bool due(double progress) const { return taken_ < points_ - 1 && progress >= nextDue(); }

    // Adds a snapshot of the parameters (summed in double: 5 float snapshots of ~1e-2
    // values lose nothing, but 50 could).
    void add(const Eigen::Matrix<float, Eigen::Dynamic, 1>& values)
    {
        if (sum_.size() != values.size())
            sum_ = Eigen::VectorXd::Zero(values.size());
        sum_ += values.cast<double>();
        ++taken_;
    }
    // The sum of the snapshots so far, in double (empty before the first): what a checkpoint
    // stores, with taken(), for restore() to go on exactly.
    const Eigen::VectorXd& sum() const { return sum_; }
    void restore(int taken, Eigen::VectorXd sum)
    {
        taken_ = taken;
        sum_ = std::move(sum);
    }
    // The mean of the snapshots added so far (values unchanged when there are none).
    void writeMean(Eigen::Matrix<float, Eigen::Dynamic, 1>* values) const
    {
        if (taken_ > 0 && sum_.size() == values->size())
            *values = (sum_ / double(taken_)).cast<float>();
    }

private:
    int points_;
    double spacing_;
    int taken_ = 0;
    Eigen::VectorXd sum_;
};

}  // namespace as
