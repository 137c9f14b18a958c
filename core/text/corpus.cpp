// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "text/corpus.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QStringDecoder>
#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace as {
namespace {

const QByteArray kUtf8Bom("\xEF\xBB\xBF");

qsizetype codePoints(const QString& s)
{
    qsizetype n = 0;
    for (qsizetype i = 0; i < s.size(); ++i)
        if (!(s[i].isLowSurrogate() && i > 0 && s[i - 1].isHighSurrogate())) ++n;
    return n;
}

QString preview(const QString& s)
{
    constexpr int kMax = 40;
    return s.size() <= kMax ? s : s.left(kMax) + u'…';
}

bool isAttribution(const QString& column)
{
    return column.startsWith(QLatin1String("CC-BY"));
}

// Stateless, so that a multi-byte sequence cut off at the end of the line is an error rather
// than state waiting for bytes that belong to the next line; ConvertInitialBom, so that a
// U+FEFF at a line start stays visible instead of being dropped unreported.
std::optional<QString> decodeUtf8(QByteArrayView raw)
{
    QStringDecoder decoder(QStringConverter::Utf8,
                           QStringConverter::Flag::Stateless | QStringConverter::Flag::ConvertInitialBom);
    QString text = decoder.decode(raw);
    if (decoder.hasError()) return std::nullopt;
    return text;
}

quint64 splitmix64(quint64& state)
{
    quint64 z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// Uniform in [0, bound) without modulo bias, so the shuffle is the same everywhere.
quint64 below(quint64& state, quint64 bound)
{
    const quint64 limit = ~quint64(0) - (~quint64(0) % bound);
    quint64 r;
    do r = splitmix64(state);
    while (r >= limit);
    return r % bound;
}

} // namespace

QString CorpusReport::summary() const
{
    QStringList parts{QCoreApplication::translate("as::Corpus", "%1 lines read, %2 pairs kept").arg(lines_read).arg(pairs_kept)};
    QStringList skips;
    if (no_tab) skips << QCoreApplication::translate("as::Corpus", "%1 without the TAB between the sentences").arg(no_tab);
    if (empty_side) skips << QCoreApplication::translate("as::Corpus", "%1 with an empty side").arg(empty_side);
    if (invalid_utf8) skips << QCoreApplication::translate("as::Corpus", "%1 not valid UTF-8").arg(invalid_utf8);
    if (too_long) skips << QCoreApplication::translate("as::Corpus", "%1 too long").arg(too_long);
    if (!skips.isEmpty()) parts << QCoreApplication::translate("as::Corpus", "skipped ") + skips.join(QLatin1String(", "));
    if (blank_lines) parts << QCoreApplication::translate("as::Corpus", "%1 blank lines").arg(blank_lines);
    if (had_bom) parts << QCoreApplication::translate("as::Corpus", "UTF-8 BOM");
    if (had_crlf) parts << QCoreApplication::translate("as::Corpus", "CRLF line ends");
    return parts.join(QLatin1String("; "));
}

std::optional<QList<SentencePair>> readCorpus(const QString& path, const CorpusOptions& options,
                                              CorpusReport& report, QString* error)
{
    report = CorpusReport{};
    const QString name = QDir::toNativeSeparators(path);
    auto fail = [&](const QString& message) -> std::optional<QList<SentencePair>> {
        if (error) *error = message;
        return std::nullopt;
    };

    const QFileInfo info(path);
    if (!info.exists()) return fail(QCoreApplication::translate("as::Corpus", "%1: file not found").arg(name));
    if (info.isDir()) return fail(QCoreApplication::translate("as::Corpus", "%1: is a folder, not a corpus file").arg(name));
    // A FIFO would block until some writer appears and a device can be endless (/dev/zero).
    if (!info.isFile())
        return fail(QCoreApplication::translate("as::Corpus", "%1: is not a regular file (a pipe or a device cannot be read as "
                                   "a corpus)").arg(name));
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return fail(QCoreApplication::translate("as::Corpus", "%1: cannot open: %2").arg(name, file.errorString()));
    QByteArray data = file.readAll();
    if (file.error() != QFileDevice::NoError)
        return fail(QCoreApplication::translate("as::Corpus", "%1: cannot read: %2").arg(name, file.errorString()));
    if (data.isEmpty()) return fail(QCoreApplication::translate("as::Corpus", "%1: file is empty").arg(name));
    if (data.startsWith("\xFF\xFE") || data.startsWith("\xFE\xFF"))
        return fail(QCoreApplication::translate("as::Corpus", "%1: file is UTF-16; save it as UTF-8").arg(name));

    qsizetype pos = 0;
    if (data.startsWith(kUtf8Bom)) {
        report.had_bom = true;
        pos = kUtf8Bom.size();
    }

    QList<SentencePair> pairs;
    QString strictError;
    // Counts the problem, keeps the first few, and says whether reading may go on.
    auto issue = [&](int& counter, int line, const QString& what) {
        ++counter;
        if (report.first_issues.size() < CorpusReport::kMaxIssues)
            report.first_issues.append({name, line, what});
        if (options.strict) strictError = QStringLiteral("%1:%2: %3").arg(name).arg(line).arg(what);
        return !options.strict;
    };

    for (int lineNo = 1; pos < data.size(); ++lineNo) {
        if (options.progress && lineNo % 4096 == 0 && !options.progress(pos, data.size()))
            return fail(QCoreApplication::translate("as::Corpus", "%1: reading cancelled").arg(name));
        qsizetype end = data.indexOf('\n', pos);
        if (end < 0) end = data.size();
        QByteArrayView raw(data.constData() + pos, end - pos);
        pos = end + 1;
        ++report.lines_read;
        if (raw.endsWith('\r')) {
            report.had_crlf = true;
            raw.chop(1);
        }
        if (raw.trimmed().isEmpty() && !raw.contains('\t')) {
            ++report.blank_lines;
            continue;
        }

        const std::optional<QString> text = decodeUtf8(raw);
        if (!text) {
            const QString shown = QString::fromUtf8(raw); // with U+FFFD where the bytes are bad
            if (!issue(report.invalid_utf8, lineNo, QCoreApplication::translate("as::Corpus", "invalid UTF-8: \"%1\"").arg(preview(shown))))
                return fail(strictError);
            continue;
        }

        const QStringList cols = text->split(u'\t');
        const bool anki = options.format == CorpusFormat::Anki;
        if (cols.size() < 2 || (anki && cols.size() == 2 && isAttribution(cols[1]))) {
            const QString what = anki
                ? QCoreApplication::translate("as::Corpus", "no TAB between the English and the translation: \"%1\"")
                : QCoreApplication::translate("as::Corpus", "no TAB between source and target: \"%1\"");
            if (!issue(report.no_tab, lineNo, what.arg(preview(cols[0]))))
                return fail(strictError);
            continue;
        }

        SentencePair pair{cols[0], cols[1], lineNo};
        if (anki && options.anki_english_is_target) std::swap(pair.src, pair.tgt);
        const bool srcEmpty = pair.src.trimmed().isEmpty(), tgtEmpty = pair.tgt.trimmed().isEmpty();
        if (srcEmpty || tgtEmpty) {
            const QString what = srcEmpty && tgtEmpty ? QCoreApplication::translate("as::Corpus", "both sides empty")
                : srcEmpty ? QCoreApplication::translate("as::Corpus", "empty source") : QCoreApplication::translate("as::Corpus", "empty target");
            if (!issue(report.empty_side, lineNo, what)) return fail(strictError);
            continue;
        }

        if (options.max_chars > 0) {
            const qsizetype longest = std::max(codePoints(pair.src), codePoints(pair.tgt));
            if (longest > options.max_chars) {
                const QString what = QCoreApplication::translate("as::Corpus", "%1 characters in one side, over the limit of %2")
                                         .arg(longest).arg(options.max_chars);
                if (!issue(report.too_long, lineNo, what)) return fail(strictError);
                continue;
            }
        }
        pairs.append(std::move(pair));
    }

    report.pairs_kept = int(pairs.size());
    if (report.lines_read == report.blank_lines)
        return fail(QCoreApplication::translate("as::Corpus", "%1: file holds no text").arg(name));
    if (pairs.isEmpty())
        return fail(QCoreApplication::translate("as::Corpus", "%1: no usable sentence pair (%2)").arg(name, report.summary()));
    return pairs;
}

CorpusFormat guessFormat(const QString& path)
{
    if (!QFileInfo(path).isFile()) return CorpusFormat::Tsv; // readCorpus says why it cannot read it
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return CorpusFormat::Tsv;
    int lines = 0, attributed = 0;
    while (lines < 20 && !file.atEnd()) {
        const QByteArray line = file.readLine(1 << 16).trimmed();
        if (line.isEmpty()) continue;
        ++lines;
        const QList<QByteArray> cols = line.split('\t');
        // Column 2 too: a line with a space typed for its first TAB still has the attribution.
        if (cols.size() >= 2 && cols.back().startsWith("CC-BY")) ++attributed;
    }
    return attributed * 2 > lines ? CorpusFormat::Anki : CorpusFormat::Tsv;
}

Split heldOutSplit(const QList<SentencePair>& pairs, double valid_frac, double test_frac, quint64 seed)
{
    const qsizetype n = pairs.size();
    auto target = [n](double frac) {
        return qsizetype(std::llround(std::clamp(frac, 0.0, 1.0) * double(n)));
    };
    const qsizetype nTest = target(test_frac);
    const qsizetype nValid = std::min(target(valid_frac), n - nTest);

    // Union-find over pairs that share a source or a target sentence.
    std::vector<qsizetype> parent(n);
    std::iota(parent.begin(), parent.end(), 0);
    auto root = [&](qsizetype i) {
        while (parent[i] != i) i = parent[i] = parent[parent[i]];
        return i;
    };
    QHash<QString, qsizetype> firstSrc, firstTgt;
    for (qsizetype i = 0; i < n; ++i) {
        for (auto [map, key] : {std::pair{&firstSrc, &pairs[i].src}, std::pair{&firstTgt, &pairs[i].tgt}}) {
            const auto it = map->constFind(*key);
            if (it == map->cend()) map->insert(*key, i);
            else parent[root(i)] = root(*it);
        }
    }

    // Groups numbered by first appearance, then shuffled: nothing depends on hash order.
    std::vector<std::vector<qsizetype>> groups;
    std::vector<qsizetype> groupOf(n, -1);
    for (qsizetype i = 0; i < n; ++i) {
        qsizetype& g = groupOf[root(i)];
        if (g < 0) {
            g = qsizetype(groups.size());
            groups.emplace_back();
        }
        groups[g].push_back(i);
    }
    quint64 state = seed;
    for (std::size_t i = groups.size(); i > 1; --i)
        std::swap(groups[i - 1], groups[below(state, i)]);

    std::vector<char> part(n, 'r'); // r = train, v = valid, t = test
    qsizetype inTest = 0, inValid = 0;
    for (const auto& g : groups) {
        const auto size = qsizetype(g.size());
        char p = 'r';
        if (inTest + size <= nTest) { p = 't'; inTest += size; }
        else if (inValid + size <= nValid) { p = 'v'; inValid += size; }
        for (qsizetype i : g) part[i] = p;
    }

    Split split;
    for (qsizetype i = 0; i < n; ++i)
        (part[i] == 't' ? split.test : part[i] == 'v' ? split.valid : split.train).append(pairs[i]);
    return split;
}

} // namespace as
