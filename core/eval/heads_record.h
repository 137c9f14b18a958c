// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the Heads view shows (ui/heads_view.h): every head's scores with the mutes in force, and
// the pruning curve, computed off the GUI thread (app/window/head_service.h, eval/interpret.h).
#include "eval/interpret.h"

#include <QMetaType>

#include <memory>
#include <vector>

namespace as {

// Every head's scores on the validation pairs at one step, with the mutes that were in force.
struct HeadsRecord {
    long step = 0;
    int encoderLayers = 0, decoderLayers = 0, heads = 0;
    bool scored = false;  // report holds every head's scores (else only the figures below)
    HeadReport report;
    std::vector<HeadId> muted;
    // Validation with the mutes and without them: mean token NLL, BLEU (greedy).
    double nll = 0, nllUnmuted = 0, bleu = 0, bleuUnmuted = 0;
    int pairs = 0;
};
using HeadsRecordPtr = std::shared_ptr<const HeadsRecord>;

struct PruningRecord {
    long step = 0;
    int totalHeads = 0;
    PruningCurve curve;
    bool finished = false;  // every point computed (else cancelled or still running)
};
using PruningRecordPtr = std::shared_ptr<const PruningRecord>;

}  // namespace as

Q_DECLARE_METATYPE(as::HeadsRecordPtr)
Q_DECLARE_METATYPE(as::PruningRecordPtr)
