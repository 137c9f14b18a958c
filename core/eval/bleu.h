// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Corpus BLEU exactly as sacreBLEU 2 computes it by default: 13a tokenisation, BLEU-4,
// case-sensitive, one reference per hypothesis, 'exp' smoothing, brevity penalty, 0 when no
// n-gram matches. Scores are comparable with published sacreBLEU numbers; tests/core/test_bleu.cpp
// checks them against sacreBLEU's own test cases and tests/reference/bleu.py.
#include <QString>
#include <QStringList>
#include <array>

namespace as {

struct BleuResult {
    double score = 0;            // rounded to 2 decimals exactly like Python's round(x, 2)
    double score_unrounded = 0;
    std::array<double, 4> precisions{}; // n-gram precisions in percent, after smoothing
    double bp = 0;               // brevity penalty (0 when the hypotheses are empty)
    qint64 hyp_len = 0, ref_len = 0; // 13a tokens
};

// sacreBLEU's "13a" (mteval-v13a) tokeniser; the input is not normalised beyond its own rules.
QStringList tokenize13a(const QString& line);

// Pairs hyps[i] with refs[i]; like Python's zip() only the common prefix counts, so callers
// that want a mismatch reported must compare the sizes themselves.
BleuResult corpusBleu(const QStringList& hyps, const QStringList& refs);

} // namespace as
