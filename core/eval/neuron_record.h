// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the neuron view of one head and one query shows (ui/neuron_view.h): computed by the
// training worker on the probe with the current weights (eval/interpret.h).
#include "eval/interpret.h"

#include <QMetaType>
#include <QStringList>

#include <memory>
#include <vector>

namespace as {

struct NeuronRecord {
    long step = 0;
    AttentionKind kind = AttentionKind::EncoderSelf;
    int layer = 0, head = 0, query = 0;
    QStringList queryTokens, keyTokens;
    NeuronView view;
    std::vector<ScoreTerms> terms;  // first encoder layer only: one per head
};
using NeuronRecordPtr = std::shared_ptr<const NeuronRecord>;

}  // namespace as

Q_DECLARE_METATYPE(as::NeuronRecordPtr)
