// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// The "history" section of a checkpoint (io/checkpoint.h): a run's loss and validation points,
// attention records and last batch as bytes, and back.
//
//   u64 n, n x {i64 step, f64 seconds, f64 loss, f64 lr, i64 tokens}        loss points
//   u64 n, n x {i64 step, f64 seconds, f64 loss, f64 accuracy, f64 bleu}    validation points
//                                      (version 1: without bleu, read as NaN: not computed)
//   u64 n, n x attention record: i64 step, i32 heads, strings src, strings tgt, then
//            encoder self, decoder self, cross: u32 layers, per layer u32 rows, u32 cols,
//            rows x cols f32 (row-major)
//   u8 has batch, then i32 B, S, T, tgt vocab, f64 label smoothing, B*S + 2*B*T i32
// strings: u32 count, per string u32 byte length + UTF-8 (io/bytes.h).
#include "model/config.h"
#include "train/history.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

namespace as {

QByteArray historyBytes(const TrainingHistory& h);

// Reads a history written by checkpoint format `version` for a model of `config`: every count
// is checked against the bytes left before anything is reserved, every map against the model's
// heads and layers, every id against its vocabulary. false and *error (naming the field) on any
// problem.
bool parseHistory(QByteArrayView bytes, const ModelConfig& config, quint32 version,
                  TrainingHistory* out, QString* error);

}  // namespace as
