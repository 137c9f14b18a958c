// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "text/dataset.h"

#include <QCoreApplication>
#include <QCryptographicHash>

#include <algorithm>
#include <iterator>
#include <thread>
#include <utility>

namespace as {

namespace {

// The pairs that fit, as token lists, with the skip counts filled in.
struct Tokenized {
    std::vector<QStringList> src, tgt;
    std::vector<int> lines;
    DatasetStats stats;
};

Tokenized tokenizeRange(const QList<SentencePair>& pairs, qsizetype begin, qsizetype end,
                        Tokenizer srcTok, Tokenizer tgtTok, int maxLen)
{
    Tokenized t;
    t.src.reserve(std::size_t(end - begin));
    t.tgt.reserve(std::size_t(end - begin));
    t.lines.reserve(std::size_t(end - begin));
    for (qsizetype i = begin; i < end; ++i) {
        const SentencePair& p = pairs[i];
        QStringList s = tokenize(srcTok, p.src);
        QStringList g = tokenize(tgtTok, p.tgt);
        auto skip = [&](int& counter, const QString& what) {
            ++counter;
            if (t.stats.first_skipped.size() < DatasetStats::kMaxListed)
                t.stats.first_skipped.append({p.line, what});
        };
        if (s.isEmpty() || g.isEmpty()) {
            skip(t.stats.skipped_empty, s.isEmpty() ? QCoreApplication::translate("as::Dataset", "the source has no token")
                                                    : QCoreApplication::translate("as::Dataset", "the target has no token"));
            continue;
        }
        if (maxLen > 0 && (s.size() > maxLen || g.size() > maxLen)) {
            const bool src = s.size() > maxLen;
            skip(t.stats.skipped_too_long,
                 QCoreApplication::translate("as::Dataset", "the %1 has %2 tokens, over max_len %3")
                     .arg(src ? QCoreApplication::translate("as::Dataset", "source") : QCoreApplication::translate("as::Dataset", "target"))
                     .arg(src ? s.size() : g.size())
                     .arg(maxLen));
            continue;
        }
        t.src.push_back(std::move(s));
        t.tgt.push_back(std::move(g));
        t.lines.push_back(p.line);
    }
    return t;
}

// tokenizeRange over all pairs, in contiguous chunks on threads of its own (tokenising is
// nearly all of the time it takes to open a corpus: 300,000 pairs take seconds), merged in
// order, so that the result is the same whatever the number of threads. Its own threads, not
// the engine's pool: the window opens a corpus while a session trains on that pool.
Tokenized tokenizeAndFilter(const QList<SentencePair>& pairs, Tokenizer srcTok,
                            Tokenizer tgtTok, int maxLen)
{
    constexpr qsizetype kMinPerThread = 4096;
    const qsizetype n = pairs.size();
    const int threads = int(std::clamp<qsizetype>(n / kMinPerThread, 1,
                                                  std::clamp(int(std::thread::hardware_concurrency()), 1, 8)));
    if (threads == 1)
        return tokenizeRange(pairs, 0, n, srcTok, tgtTok, maxLen);
    std::vector<Tokenized> parts;
    parts.resize(std::size_t(threads));
    std::vector<std::thread> workers;
    for (int k = 1; k < threads; ++k)
        workers.emplace_back([&, k] {
            parts[std::size_t(k)] = tokenizeRange(pairs, n * k / threads, n * (k + 1) / threads,
                                                  srcTok, tgtTok, maxLen);
        });
    parts[0] = tokenizeRange(pairs, 0, n / threads, srcTok, tgtTok, maxLen);
    for (std::thread& w : workers)
        w.join();
    Tokenized t = std::move(parts[0]);
    for (std::size_t k = 1; k < parts.size(); ++k) {
        Tokenized& p = parts[k];
        std::move(p.src.begin(), p.src.end(), std::back_inserter(t.src));
        std::move(p.tgt.begin(), p.tgt.end(), std::back_inserter(t.tgt));
        t.lines.insert(t.lines.end(), p.lines.begin(), p.lines.end());
        t.stats.skipped_empty += p.stats.skipped_empty;
        t.stats.skipped_too_long += p.stats.skipped_too_long;
        for (const DatasetStats::Skipped& s : p.stats.first_skipped)
            if (t.stats.first_skipped.size() < DatasetStats::kMaxListed)
                t.stats.first_skipped.append(s);
    }
    return t;
}

EncodedSplit encodeTokenized(const Tokenized& t, const Vocab& srcVocab, const Vocab& tgtVocab)
{
    EncodedSplit out;
    out.stats = t.stats;
    out.pairs.reserve(t.src.size());
    for (std::size_t i = 0; i < t.src.size(); ++i) {
        int srcUnk = 0, tgtUnk = 0;
        EncodedPair p;
        p.src = srcVocab.encode(t.src[i], &srcUnk);
        p.tgt = tgtVocab.encode(t.tgt[i], &tgtUnk);
        p.line = t.lines[i];
        out.stats.src_tokens += qint64(p.src.size());
        out.stats.tgt_tokens += qint64(p.tgt.size());
        out.stats.src_unknown += srcUnk;
        out.stats.tgt_unknown += tgtUnk;
        out.pairs.push_back(std::move(p));
    }
    out.stats.pairs = int(out.pairs.size());
    return out;
}

// The tokeniser given (trained on that side's sentences when it is a subword one without its
// model), or the one guessTokenizer() picks.
std::optional<Tokenizer> chooseTokenizer(const std::optional<Tokenizer>& given,
                                         const QList<SentencePair>& pairs,
                                         QString SentencePair::*side, QString* error)
{
    if (given && given->ready())
        return *given;
    QStringList sentences;
    sentences.reserve(pairs.size());
    for (const SentencePair& p : pairs)
        sentences.push_back(p.*side);
    if (given)
        return given->trained(sentences, error);
    return Tokenizer(guessTokenizer(sentences));
}

// The one subword tokeniser of a shared vocabulary (sharedVocabularyProblem() said yes): the
// one given, when both sides carry the same model; else trained on every training pair's source
// then every target (core/SPEC.md §10.1). nullopt and *error otherwise.
std::optional<Tokenizer> sharedSubword(const Tokenizer& src, const Tokenizer& tgt,
                                       const QList<SentencePair>& pairs, QString* error)
{
    if (src.ready() || tgt.ready()) {
        if (src == tgt)
            return src;
        if (error)
            *error = QStringLiteral("the source and target SentencePiece models differ");
        return std::nullopt;
    }
    QStringList sentences;
    sentences.reserve(2 * pairs.size());
    for (const SentencePair& p : pairs)
        sentences.push_back(p.src);
    for (const SentencePair& p : pairs)
        sentences.push_back(p.tgt);
    return src.trained(sentences, error);
}

// A subword side's vocabulary is its model's pieces (core/SPEC.md §1.2); the others are built
// from the tokens.
Vocab sideVocab(const Tokenizer& tok, const std::vector<QStringList>& tokens, int minFreq,
                int maxSize)
{
    Vocab v;
    if (tok.isSubword() && Vocab::fromTokens(tok.pieces(), &v, nullptr))
        return v;
    return Vocab::build(tokens, std::max(1, minFreq), std::max(0, maxSize));
}

EncodedSentence encodeSentence(const Tokenizer& kind, const Vocab& vocab, const QString& text)
{
    EncodedSentence e;
    e.tokens = tokenize(kind, text);
    e.ids = vocab.encode(e.tokens);
    for (int i = 0; i < int(e.ids.size()); ++i)
        if (e.ids[std::size_t(i)] == Vocab::kUnk)
            e.unknown.push_back(i);
    return e;
}

QString percent(qint64 part, qint64 whole)
{
    return QString::number(whole ? 100.0 * double(part) / double(whole) : 0.0, 'f', 2);
}

}  // namespace

QString DatasetStats::summary() const
{
    return QCoreApplication::translate("as::Dataset", "%n pairs (%1 skipped: %2 too long, %3 empty); source %4 tokens, "
                          "%5 unknown (%6%); target %7 tokens, %8 unknown (%9%)", nullptr, pairs)
        .arg(skipped())
        .arg(skipped_too_long)
        .arg(skipped_empty)
        .arg(src_tokens)
        .arg(src_unknown)
        .arg(percent(src_unknown, src_tokens))
        .arg(tgt_tokens)
        .arg(tgt_unknown)
        .arg(percent(tgt_unknown, tgt_tokens));
}

ParallelData ParallelData::build(const QList<SentencePair>& train, const DatasetOptions& options,
                                 QString* error)
{
    ParallelData d;
    if (options.shared_vocab) {
        // Said before any SentencePiece model is trained (core/SPEC.md §10.3).
        if (QString why = sharedVocabularyProblem(options.src_tok, options.tgt_tok); !why.isEmpty()) {
            if (error)
                *error = why;
            return d;
        }
    }
    QString why;
    std::optional<Tokenizer> src, tgt;
    if (options.shared_vocab && options.src_tok && options.src_tok->isSubword()) {
        // One SentencePiece model for both sides, trained on both sides' sentences.
        std::optional<Tokenizer> shared = sharedSubword(*options.src_tok, *options.tgt_tok, train, &why);
        if (!shared) {
            if (error)
                *error = QCoreApplication::translate("as::Dataset", "shared tokeniser: %1").arg(why);
            return d;
        }
        src = tgt = shared;
    } else {
        src = chooseTokenizer(options.src_tok, train, &SentencePair::src, &why);
        tgt = src ? chooseTokenizer(options.tgt_tok, train, &SentencePair::tgt, &why) : std::nullopt;
    }
    if (!src || !tgt) {
        if (error)
            *error = QCoreApplication::translate("as::Dataset", "%1 tokeniser: %2").arg(src ? QCoreApplication::translate("as::Dataset", "target") : QCoreApplication::translate("as::Dataset", "source"), why);
        return d;
    }
    d.srcTok_ = *src;
    d.tgtTok_ = *tgt;
    d.maxLen_ = std::max(0, options.max_len);
    const Tokenized t = tokenizeAndFilter(train, d.srcTok_, d.tgtTok_, d.maxLen_);
    if (options.src_vocab && options.tgt_vocab) {
        // A model's own (a translator being fine-tuned): nothing is built.
        d.srcVocab_ = *options.src_vocab;
        d.tgtVocab_ = *options.tgt_vocab;
    } else if (options.shared_vocab && d.srcTok_.isSubword()) {
        // The one model's pieces (core/SPEC.md §10.3).
        d.srcVocab_ = sideVocab(d.srcTok_, t.src, options.src_min_freq, options.src_max_vocab);
        d.tgtVocab_ = d.srcVocab_;
    } else if (options.shared_vocab) {
        std::vector<QStringList> both = t.src;
        both.insert(both.end(), t.tgt.begin(), t.tgt.end());
        const int srcMax = std::max(0, options.src_max_vocab);
        const int tgtMax = std::max(0, options.tgt_max_vocab);
        d.srcVocab_ = Vocab::build(both, std::max(1, std::min(options.src_min_freq,
                                                              options.tgt_min_freq)),
                                   srcMax > 0 && tgtMax > 0 ? std::max(srcMax, tgtMax) : 0);
        d.tgtVocab_ = d.srcVocab_;
    } else {
        d.srcVocab_ = sideVocab(d.srcTok_, t.src, options.src_min_freq, options.src_max_vocab);
        d.tgtVocab_ = sideVocab(d.tgtTok_, t.tgt, options.tgt_min_freq, options.tgt_max_vocab);
    }
    d.train_ = encodeTokenized(t, d.srcVocab_, d.tgtVocab_);
    return d;
}

ParallelData ParallelData::fromVocabularies(Vocab src, Vocab tgt, Tokenizer srcTok,
                                            Tokenizer tgtTok, int maxLen)
{
    ParallelData d;
    d.srcVocab_ = std::move(src);
    d.tgtVocab_ = std::move(tgt);
    d.srcTok_ = srcTok;
    d.tgtTok_ = tgtTok;
    d.maxLen_ = std::max(0, maxLen);
    return d;
}

EncodedSplit ParallelData::encode(const QList<SentencePair>& pairs) const
{
    return encodeTokenized(tokenizeAndFilter(pairs, srcTok_, tgtTok_, maxLen_), srcVocab_,
                           tgtVocab_);
}

EncodedSentence ParallelData::encodeSource(const QString& text) const
{
    return encodeSentence(srcTok_, srcVocab_, text);
}

EncodedSentence ParallelData::encodeTarget(const QString& text) const
{
    return encodeSentence(tgtTok_, tgtVocab_, text);
}

QString ParallelData::decodeSource(const std::vector<int>& ids) const
{
    return detokenize(srcTok_, srcVocab_.decode(ids));
}

QString ParallelData::decodeTarget(const std::vector<int>& ids) const
{
    return detokenize(tgtTok_, tgtVocab_.decode(ids));
}

QString pairsDigest(const std::vector<EncodedPair>& pairs)
{
    QCryptographicHash h(QCryptographicHash::Sha1);
    for (const EncodedPair& p : pairs) {
        h.addData(QByteArrayView(reinterpret_cast<const char*>(p.src.data()),
                                 qsizetype(p.src.size() * sizeof(int))));
        h.addData(QByteArrayView("\x01", 1));
        h.addData(QByteArrayView(reinterpret_cast<const char*>(p.tgt.data()),
                                 qsizetype(p.tgt.size() * sizeof(int))));
        h.addData(QByteArrayView("\x02", 1));
    }
    return QString::fromLatin1(h.result().toHex());
}

}  // namespace as
