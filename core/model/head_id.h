// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Which attention block, and which head of it: how heads are named to the user
// ("encoder.self:0:3", eval/interpret.h) and masked (MultiHeadAttention::gate).
namespace as {

enum class AttentionKind { EncoderSelf, DecoderSelf, Cross };

// The kinds in the order they are listed everywhere: the encoder's, then the decoder's own and
// its cross-attention.
inline constexpr AttentionKind kAttentionKinds[] = {AttentionKind::EncoderSelf,
                                                    AttentionKind::DecoderSelf, AttentionKind::Cross};

struct HeadId {
    AttentionKind kind = AttentionKind::EncoderSelf;
    int layer = 0, head = 0;
    bool operator==(const HeadId&) const = default;
};

}  // namespace as

#include <QMetaType>
Q_DECLARE_METATYPE(as::HeadId)
