#include "text/dataset.h"

#include <QCryptographicHash>

#include <algorithm>
#include <utility>

namespace as {

namespace {

// The pairs that fit, as token lists, with the skip counts filled in.
struct Tokenized {
    std::vector<QStringList> src, tgt;
    std::vector<int> lines;
    DatasetStats stats;
};

Tokenized tokenizeAndFilter(const QList<SentencePair>& pairs, TokenizerKind srcTok,
                            TokenizerKind tgtTok, int maxLen)
{
    Tokenized t;
    t.src.reserve(std::size_t(pairs.size()));
    t.tgt.reserve(std::size_t(pairs.size()));
    t.lines.reserve(std::size_t(pairs.size()));
    for (const SentencePair& p : pairs) {
        QStringList s = tokenize(srcTok, p.src);
        QStringList g = tokenize(tgtTok, p.tgt);
        auto skip = [&](int& counter, const QString& what) {
            ++counter;
            if (t.stats.first_skipped.size() < DatasetStats::kMaxListed)
                t.stats.first_skipped.append({p.line, what});
        };
        if (s.isEmpty() || g.isEmpty()) {
            skip(t.stats.skipped_empty, s.isEmpty() ? QStringLiteral("the source has no token")
                                                    : QStringLiteral("the target has no token"));
            continue;
        }
        if (maxLen > 0 && (s.size() > maxLen || g.size() > maxLen)) {
            const bool src = s.size() > maxLen;
            skip(t.stats.skipped_too_long,
                 QStringLiteral("the %1 has %2 tokens, over max_len %3")
                     .arg(src ? QStringLiteral("source") : QStringLiteral("target"))
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

TokenizerKind chooseTokenizer(const std::optional<TokenizerKind>& given,
                              const QList<SentencePair>& pairs, QString SentencePair::*side)
{
    if (given)
        return *given;
    QStringList sample;
    sample.reserve(pairs.size());
    for (const SentencePair& p : pairs)
        sample.push_back(p.*side);
    return guessTokenizer(sample);
}

EncodedSentence encodeSentence(TokenizerKind kind, const Vocab& vocab, const QString& text)
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
    return QStringLiteral("%1 pairs (%2 skipped: %3 too long, %4 empty); source %5 tokens, "
                          "%6 unknown (%7%); target %8 tokens, %9 unknown (%10%)")
        .arg(pairs)
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

ParallelData ParallelData::build(const QList<SentencePair>& train, const DatasetOptions& options)
{
    ParallelData d;
    d.srcTok_ = chooseTokenizer(options.src_tok, train, &SentencePair::src);
    d.tgtTok_ = chooseTokenizer(options.tgt_tok, train, &SentencePair::tgt);
    d.maxLen_ = std::max(0, options.max_len);
    const Tokenized t = tokenizeAndFilter(train, d.srcTok_, d.tgtTok_, d.maxLen_);
    d.srcVocab_ = Vocab::build(t.src, std::max(1, options.src_min_freq),
                               std::max(0, options.src_max_vocab));
    d.tgtVocab_ = Vocab::build(t.tgt, std::max(1, options.tgt_min_freq),
                               std::max(0, options.tgt_max_vocab));
    d.train_ = encodeTokenized(t, d.srcVocab_, d.tgtVocab_);
    return d;
}

ParallelData ParallelData::fromVocabularies(Vocab src, Vocab tgt, TokenizerKind srcTok,
                                            TokenizerKind tgtTok, int maxLen)
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
