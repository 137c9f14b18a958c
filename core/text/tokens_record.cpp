// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "text/tokens_record.h"

#include "text/byte_bpe.h"
#include "text/subword.h"
#include "text/vocab.h"

#include <QHash>
#include <QSet>

#include <algorithm>

namespace as {
namespace {

// Most frequent first, ties in code-point order (as Vocab::build orders its tokens).
void sortByCount(QList<QPair<QString, qint64>>* vocab)
{
    std::sort(vocab->begin(), vocab->end(), [](const auto& a, const auto& b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
}

}  // namespace

QList<TokenMerge> bpeMerges(const QStringList& pieces)
{
    QList<TokenMerge> merges;
    QSet<QString> earlier;
    for (int id = Vocab::kSpecials; id < pieces.size(); ++id) {
        const QString& piece = pieces[id];
        const QList<uint> chars = piece.toUcs4();
        if (chars.size() >= 2) {
            // Where the split may fall: between two code points (a surrogate pair is one).
            qsizetype at = 0;
            for (qsizetype k = 0; k + 1 < chars.size(); ++k) {
                at += QChar::requiresSurrogates(chars[k]) ? 2 : 1;
                const QString left = piece.left(at), right = piece.mid(at);
                const auto known = [&](const QString& part) {
                    return earlier.contains(part) || part.toUcs4().size() == 1;
                };
                if (known(left) && known(right)) {
                    merges.append({piece, left, right});
                    break;
                }
            }
        }
        earlier.insert(piece);
    }
    return merges;
}

TokensRecord buildTokensRecord(const QStringList& sentences, const QList<Tokenizer>& choices,
                               int minFreq, int maxVocab, const QString& probe,
                               const QString& typed, const std::function<bool(int, int)>& progress)
{
    TokensRecord record;
    record.probeText = probe;
    record.typedText = typed;
    const int total = 100 * int(choices.size());
    const auto report = [&](int done) { return !progress || progress(done, total); };
    constexpr qsizetype kEvery = 2000;  // sentences between progress reports
    for (int c = 0; c < choices.size(); ++c) {
        TokenizerTokens t;
        t.name = tokenizerName(choices[c]);
        if (choices[c].isSubword() && !choices[c].ready()) {
            std::optional<Tokenizer> trained = choices[c].trained(sentences, &t.error);
            if (!trained) {
                record.choices.push_back(std::move(t));
                if (!report(100 * (c + 1)))
                    return record;
                continue;
            }
            t.tokenizer = *trained;
        } else {
            t.tokenizer = choices[c];
        }
        if (!report(100 * c + 50))
            return record;

        std::vector<QStringList> cut;
        cut.reserve(std::size_t(sentences.size()));
        QHash<QString, qint64> counts;
        for (qsizetype i = 0; i < sentences.size(); ++i) {
            cut.push_back(tokenize(t.tokenizer, sentences[i]));
            for (const QString& token : cut.back())
                ++counts[token];
            const std::size_t n = std::size_t(cut.back().size());
            if (t.lengths.size() <= n)
                t.lengths.resize(n + 1, 0);
            ++t.lengths[n];
            t.tokens += qint64(n);
            if ((i + 1) % kEvery == 0 && !report(100 * c + 50 + int(50 * (i + 1) / sentences.size())))
                return record;
        }
        t.sentences = sentences.size();

        QSet<QString> known;
        if (t.tokenizer.isSubword()) {
            const QStringList pieces = t.tokenizer.pieces();
            for (int id = Vocab::kSpecials; id < pieces.size(); ++id) {
                t.vocab.append({pieces[id], counts.value(pieces[id], 0)});
                known.insert(pieces[id]);
            }
            if (t.tokenizer.kind() == TokenizerKind::Bpe)
                t.merges = bpeMerges(pieces);
        } else if (const ByteLevelBpe* bpe = t.tokenizer.byteLevel()) {
            // GPT-2's byte-level BPE: its own vocabulary (every text is cut into its pieces,
            // none is <unk>) and its merges in rank order, as merges.txt lists them.
            const QStringList specials = bpe->specialTokens();
            for (int id = 0; id < bpe->size(); ++id) {
                const QString piece = bpe->piece(id);
                if (specials.contains(piece))
                    continue;
                t.vocab.append({piece, counts.value(piece, 0)});
                known.insert(piece);
            }
            for (const QByteArray& line : bpe->mergesText().split('\n')) {
                const QList<QByteArray> parts = line.split(' ');
                if (parts.size() != 2 || line.startsWith("#version"))  // "# #" is a merge
                    continue;
                const QString left = QString::fromUtf8(parts[0]), right = QString::fromUtf8(parts[1]);
                t.merges.append({left + right, left, right});
            }
        } else {
            const Vocab vocab = Vocab::build(cut, std::max(1, minFreq), std::max(0, maxVocab));
            for (int id = Vocab::kSpecials; id < vocab.size(); ++id) {
                t.vocab.append({vocab.token(id), counts.value(vocab.token(id))});
                known.insert(vocab.token(id));
            }
        }
        sortByCount(&t.vocab);
        for (auto it = counts.cbegin(); it != counts.cend(); ++it)
            if (!known.contains(it.key()))
                t.unknown += it.value();
        t.probe = tokenize(t.tokenizer, probe);
        t.typed = tokenize(t.tokenizer, typed);
        record.choices.push_back(std::move(t));
        if (!report(100 * (c + 1)))
            return record;
    }
    return record;
}

void recutTokens(TokensRecord* record, const QString& probe, const QString& typed)
{
    record->probeText = probe;
    record->typedText = typed;
    for (TokenizerTokens& t : record->choices) {
        if (!t.error.isEmpty())
            continue;
        t.probe = tokenize(t.tokenizer, probe);
        t.typed = tokenize(t.tokenizer, typed);
    }
}

}  // namespace as
