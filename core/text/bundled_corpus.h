// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Corpora shipped inside the program (Qt resources compiled into as_core, so they are found
// from the build folder and after installing alike, without any path lookup).
//
// "zh-en": the Tatoeba Chinese–English sentence pairs as manythings.org packages them for
// Anki (cmn.txt, 2022-05-02, 29,155 lines, unchanged; resources/corpora/README.md has the
// source, checksum and licence, CC BY 2.0 FR). Read with readCorpus as CorpusFormat::Anki,
// Chinese -> English (source Chinese); the two lines with spaces typed for the TAB (29 and 31)
// are refused and listed in the report, 29,153 pairs are kept.
//
// The split rule, fixed for good: heldOutSplit(pairs, kBundledValidFraction,
// kBundledTestFraction, kBundledSplitSeed) over the kept pairs in file order. Pairs that share
// a Chinese or an English sentence stay in one part, so no held-out sentence is seen in
// training; each held-out part holds at most round(fraction × pairs) pairs, and in practice
// that many (zh-en: 27,550 train / 583 valid / 1,020 test). A model trained on the bundled
// corpus is only comparable with another if both saw this same split, so these constants (and
// heldOutSplit) must never change: tests/core/test_bundled_corpus.cpp pins the result.
#include "text/corpus.h"

#include <QString>
#include <QStringList>
#include <optional>

namespace as {

inline constexpr double kBundledValidFraction = 0.02;
inline constexpr double kBundledTestFraction = 0.035;
inline constexpr quint64 kBundledSplitSeed = 20220502; // the date of the zh-en file

struct BundledCorpus {
    QString name;          // "zh-en"
    QString description;   // one line for a task list
    QString resourcePath;  // ":/corpora/cmn.txt"
    CorpusReport report;   // the reader's report on the bundled file
    Split split;           // train / valid / test by the rule above
};

// {"zh-en"}
QStringList bundledCorpusNames();

// nullopt with *error set for an unknown name or a resource that cannot be read. Read and split
// once per process (about 0.1 s), then served from a cache: thread-safe, and the returned lists
// share their data with the cache.
std::optional<BundledCorpus> loadBundledCorpus(const QString& name, QString* error = nullptr);

} // namespace as
