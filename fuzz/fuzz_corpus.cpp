// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The corpus reader on arbitrary file contents with every option: the first byte chooses the
// format, the Anki direction, strict mode and a character limit; the rest is the file.
#include "text/corpus.h"

#include <QDir>
#include <QFile>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <unistd.h>

namespace {

// One file per process, rewritten for each input (readCorpus takes a path, as users give it).
const QString& scratchPath()
{
    static const QString path = [] {
        const QString shm = QStringLiteral("/dev/shm");
        const QString dir = QDir(shm).exists() ? shm : QDir::tempPath();
        return dir + QStringLiteral("/as-fuzz-corpus-%1.tsv").arg(::getpid());
    }();
    return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < 1)
        return 0;
    const std::uint8_t flags = data[0];
    {
        QFile f(scratchPath());
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            std::abort();
        f.write(reinterpret_cast<const char*>(data + 1), qint64(size - 1));
    }
    as::CorpusOptions options;
    options.format = (flags & 1) ? as::CorpusFormat::Anki : as::CorpusFormat::Tsv;
    options.anki_english_is_target = flags & 2;
    options.strict = flags & 4;
    options.max_chars = (flags >> 3) & 7;  // 0 (no limit) to 7 characters

    as::CorpusReport report;
    QString error;
    const auto pairs = as::readCorpus(scratchPath(), options, report, &error);
    if (!pairs && error.isEmpty())
        std::abort();  // every refusal must say why
    if (pairs) {
        if (pairs->isEmpty() || report.pairs_kept != pairs->size()
            || report.first_issues.size() > as::CorpusReport::kMaxIssues)
            std::abort();
        for (const as::SentencePair& p : *pairs)
            if (p.src.trimmed().isEmpty() || p.tgt.trimmed().isEmpty() || p.line < 1
                || p.line > report.lines_read)
                std::abort();
        const as::Split split = as::heldOutSplit(*pairs, 0.2, 0.2, flags);
        if (split.train.size() + split.valid.size() + split.test.size() != pairs->size())
            std::abort();
    }
    (void)report.summary();
    (void)as::guessFormat(scratchPath());
    return 0;
}
