// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Readers for parallel corpora as users have them: plain src<TAB>tgt files and the
// manythings.org/Tatoeba "Anki" downloads. Bad lines are counted and described, never
// repaired, so the user sees exactly what was left out of training.
#include <QList>
#include <QString>
#include <functional>
#include <optional>

namespace as {

struct SentencePair {
    QString src, tgt;
    int line = 0; // 1-based line in the file it came from
};

struct CorpusIssue {
    QString file;
    int line = 0;
    QString what;
};

struct CorpusReport {
    int lines_read = 0;  // physical lines, not counting the empty piece after a final newline
    int pairs_kept = 0;
    int no_tab = 0;      // fewer columns than the format needs (e.g. spaces typed for a TAB)
    int empty_side = 0;  // a side that is empty or only whitespace
    int invalid_utf8 = 0;
    int too_long = 0;    // a side over CorpusOptions::max_chars code points
    int blank_lines = 0; // skipped without counting as an issue
    bool had_bom = false, had_crlf = false;
    QList<CorpusIssue> first_issues; // the first kMaxIssues problems, in file order
    static constexpr int kMaxIssues = 20;

    int skipped() const { return no_tab + empty_side + invalid_utf8 + too_long; }
    QString summary() const; // one line for a log or status bar
};

enum class CorpusFormat {
    Tsv,  // src<TAB>tgt[<TAB>ignored...]
    Anki, // English<TAB>other[<TAB>attribution]
};

struct CorpusOptions {
    CorpusFormat format = CorpusFormat::Tsv;
    bool anki_english_is_target = true; // Anki: translate other -> English (column 2 -> 1)
    bool strict = false;                // refuse the whole file at its first bad line
    int max_chars = 0;                  // 0 = no limit
    // Called every few thousand lines with the bytes read so far and the file's size;
    // returning false stops the reading, which then fails with "cancelled".
    std::function<bool(qint64 done, qint64 total)> progress;
};

// nullopt with *error set when the file cannot be read, is not a regular file (a pipe or a
// device), holds no pair, is UTF-16, or (strict) has a bad line ("file:line: what"). The
// report is filled in either case.
std::optional<QList<SentencePair>> readCorpus(const QString& path, const CorpusOptions& options,
                                              CorpusReport& report, QString* error = nullptr);

// Anki when most of the first 20 lines end in a "CC-BY..." attribution column; else Tsv (also
// for an unreadable file, whose error readCorpus then reports).
CorpusFormat guessFormat(const QString& path);

struct Split {
    QList<SentencePair> train, valid, test;
};

// Deterministic for a seed on every platform and Qt version (own splitmix64). Pairs that
// share a source or a target sentence land in the same part, so no held-out sentence is seen
// in training; the held-out parts therefore hold at most, and in practice very nearly,
// round(frac * size) pairs. Each part keeps the corpus order.
Split heldOutSplit(const QList<SentencePair>& pairs, double valid_frac, double test_frac,
                   quint64 seed);

} // namespace as
