// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "text/repeat_task.h"

#include "text/lm_tasks.h"
#include "text/tasks.h"

#include <QCoreApplication>
#include <QStringList>

namespace as {

namespace {

constexpr std::uint64_t kValidationSeed = 12345;  // as the other generated tasks' examples
constexpr int kValidationRows = 64;
constexpr int kRepeatPrompts = 5;
constexpr int kMaxSymbols = 10000;
// A row with its <s> and </s> is one window of a language model's context (text/lm_tasks.h).
static_assert(RepeatOptions{}.length + 1 == kLmContext);

QStringList symbolTokens(const std::vector<int>& symbols)
{
    QStringList out;
    out.reserve(qsizetype(symbols.size()));
    for (int s : symbols)
        out << QString::number(s);
    return out;
}

}  // namespace

RepeatRow randomRepeatRow(Rng& rng, const RepeatOptions& o)
{
    RepeatRow r;
    r.segment = o.minSegment + int(rng.below(std::uint64_t(o.maxSegment - o.minSegment + 1)));
    r.first = int(rng.below(std::uint64_t(o.length - 2 * r.segment + 1)));
    r.second = r.first + r.segment + int(rng.below(std::uint64_t(o.length - r.segment - (r.first + r.segment) + 1)));
    r.symbols.resize(std::size_t(o.length));
    for (int& s : r.symbols)
        s = int(rng.below(std::uint64_t(o.symbols)));
    for (int j = 0; j < r.segment; ++j)
        r.symbols[std::size_t(r.second + j)] = r.symbols[std::size_t(r.first + j)];
    return r;
}

bool isRepeatTaskName(const QString& name)
{
    return name == QLatin1String("repeat") || name.startsWith(QLatin1String("repeat:"));
}

std::optional<RepeatOptions> repeatOptionsFromName(const QString& name, QString* error)
{
    const QStringList parts = name.split(QLatin1Char(':'));
    if (parts.isEmpty() || parts[0] != QLatin1String("repeat") || parts.size() > 4) {
        *error = QCoreApplication::translate("as::RepeatTask", "'%1' is not a repeat task: repeat[:V[:LMIN[:LMAX]]], e.g. repeat:64:8:30").arg(name);
        return std::nullopt;
    }
    RepeatOptions o;
    int* fields[3] = {&o.symbols, &o.minSegment, &o.maxSegment};
    for (qsizetype i = 1; i < parts.size(); ++i) {
        bool ok = false;
        const int v = parts[i].toInt(&ok);
        if (!ok) {
            *error = QCoreApplication::translate("as::RepeatTask", "%1: '%2' is not a whole number (repeat[:V[:LMIN[:LMAX]]])").arg(name, parts[i]);
            return std::nullopt;
        }
        *fields[i - 1] = v;
    }
    if (parts.size() == 3)  // repeat:V:L — segments of one length (at places that still vary)
        o.maxSegment = o.minSegment;
    if (o.symbols < 2 || o.symbols > kMaxSymbols) {
        *error = QCoreApplication::translate("as::RepeatTask", "%1: the vocabulary V must be 2 … %2").arg(name).arg(kMaxSymbols);
        return std::nullopt;
    }
    if (o.minSegment < 1 || o.maxSegment < o.minSegment || 2 * o.maxSegment > o.length) {
        *error = QCoreApplication::translate("as::RepeatTask", "%1: the segment lengths must satisfy 1 ≤ LMIN ≤ LMAX ≤ %2 (two copies in a "
                    "row of %3 tokens)")
                     .arg(name)
                     .arg(o.length / 2)
                     .arg(o.length);
        return std::nullopt;
    }
    return o;
}

QString repeatTaskName(const RepeatOptions& o)
{
    return QStringLiteral("repeat:%1:%2:%3").arg(o.symbols).arg(o.minSegment).arg(o.maxSegment);
}

Task makeRepeatTask(const RepeatOptions& o, int batchSize)
{
    Task t;
    t.name = repeatTaskName(o);
    t.description = QStringLiteral("random tokens with a segment that recurs (induction heads)");
    t.languageModel = true;
    t.longestSequence = o.length + 1;  // <s> and the row
    std::vector<int> all(std::size_t(o.symbols));
    for (int i = 0; i < o.symbols; ++i)
        all[std::size_t(i)] = i;
    t.srcVocab = Vocab::build({symbolTokens(all)});
    t.tgtVocab = t.srcVocab;
    Rng ex(kValidationSeed);
    for (int i = 0; i < kValidationRows; ++i)
        t.validation.push_back({{}, symbolTokens(randomRepeatRow(ex, o).symbols)});
    for (int i = 0; i < kRepeatPrompts; ++i) {
        const RepeatRow r = randomRepeatRow(ex, o);
        // Up to two tokens into the later copy: what follows is the copy's rest.
        const int cut = r.second + std::min(2, r.segment);
        t.examples.push_back({{}, symbolTokens(r.symbols).mid(0, cut)});
    }
    // The ids of the symbols, once: Vocab::build orders them by code point, not by number.
    std::vector<int> ids(std::size_t(o.symbols));
    for (int i = 0; i < o.symbols; ++i)
        ids[std::size_t(i)] = t.tgtVocab.id(QString::number(i));
    t.nextBatch = [o, ids, batchSize](Rng& rng) {
        std::vector<std::vector<int>> rows;
        rows.reserve(std::size_t(batchSize));
        for (int i = 0; i < batchSize; ++i) {
            RepeatRow r = randomRepeatRow(rng, o);
            for (int& s : r.symbols)
                s = ids[std::size_t(s)];
            rows.push_back(std::move(r.symbols));
        }
        return makeSentenceLmBatch(rows);
    };
    return t;
}

}  // namespace as
