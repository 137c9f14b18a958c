// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the tests of the Hub's models (test_hub_gpt2, test_hub_marian) read from their PyTorch
// references' expected.json, and the engine's side of the comparison.
#include "io/hub_model.h"
#include "model/transformer.h"

#include <QJsonArray>
#include <QJsonValue>

#include <memory>
#include <vector>

namespace as::test {

// A JSON array of whole numbers (ids, rows).
inline std::vector<int> intsOf(const QJsonValue& v)
{
    std::vector<int> out;
    for (const QJsonValue& x : v.toArray())
        out.push_back(x.toInt());
    return out;
}

// The Hub's ids in the engine's (HubIdMap).
inline std::vector<int> toEngine(const HubModel& hub, const std::vector<int>& ids)
{
    std::vector<int> out;
    for (int k : ids)
        out.push_back(hub.ids.toEngine(k));
    return out;
}

// A model of hub's configuration (dropout as the caller set it) with its weights.
inline std::unique_ptr<Transformer<float>> engineModel(const HubModel& hub)
{
    auto m = std::make_unique<Transformer<float>>(hub.config);
    m->params().valueVector() = hub.model->params().valueVector();
    return m;
}

}  // namespace as::test
