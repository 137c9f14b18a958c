// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "text/bundled_corpus.h"

#include <QHash>
#include <QMutex>
#include <QMutexLocker>

// Registers core/CMakeLists.txt's "as_corpora" resource. Its static initialiser already does
// that in every program linking as_core (Qt links the resource's object file directly); the
// explicit call makes a program that somehow lost that object fail to link instead of finding
// no corpus at run time. Registering twice is harmless. Outside any namespace, as Qt requires.
static void initCorporaResource()
{
    Q_INIT_RESOURCE(as_corpora);
}

namespace as {
namespace {

struct Entry {
    const char* name;
    const char* description;
    const char* resourcePath;
    CorpusFormat format;
};

constexpr Entry kEntries[] = {
    {"zh-en", "Tatoeba Chinese → English (29k pairs, CC BY 2.0 FR)", ":/corpora/cmn.txt",
     CorpusFormat::Anki},
};

const Entry* findEntry(const QString& name)
{
    for (const Entry& e : kEntries)
        if (name == QLatin1String(e.name)) return &e;
    return nullptr;
}

std::optional<BundledCorpus> load(const Entry& entry, QString* error)
{
    BundledCorpus corpus;
    corpus.name = QString::fromUtf8(entry.name);
    corpus.description = QString::fromUtf8(entry.description);
    corpus.resourcePath = QString::fromUtf8(entry.resourcePath);
    CorpusOptions options;
    options.format = entry.format;
    options.anki_english_is_target = true; // Chinese -> English
    const auto pairs = readCorpus(corpus.resourcePath, options, corpus.report, error);
    if (!pairs) return std::nullopt;
    corpus.split = heldOutSplit(*pairs, kBundledValidFraction, kBundledTestFraction, kBundledSplitSeed);
    return corpus;
}

} // namespace

QStringList bundledCorpusNames()
{
    QStringList names;
    for (const Entry& e : kEntries) names << QString::fromUtf8(e.name);
    return names;
}

std::optional<BundledCorpus> loadBundledCorpus(const QString& name, QString* error)
{
    const Entry* entry = findEntry(name);
    if (!entry) {
        if (error)
            *error = QStringLiteral("no bundled corpus named \"%1\" (there is: %2)")
                         .arg(name, bundledCorpusNames().join(QLatin1String(", ")));
        return std::nullopt;
    }

    // Loaded at most once per process. The lock is held while loading, so a second caller
    // waits for the first load instead of repeating it. Copies of the cached value share its
    // lists (Qt's implicit sharing counts references atomically), so they may be used and
    // modified on any thread. A failed load is not cached: the resource is compiled in, so
    // failing is a build error that retrying will report again. Never destroyed: a worker
    // thread may still be loading while the program exits and runs static destructors.
    static QMutex* const mutex = new QMutex;
    static QHash<QString, BundledCorpus>* const cache = new QHash<QString, BundledCorpus>;
    const QMutexLocker lock(mutex);
    if (const auto it = cache->constFind(name); it != cache->cend()) return *it;
    initCorporaResource();
    std::optional<BundledCorpus> corpus = load(*entry, error);
    if (corpus) cache->insert(name, *corpus);
    return corpus;
}

} // namespace as
