// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// From sentence pairs to the id sequences the model trains on. The vocabularies and the
// tokenisers are chosen once, on the training pairs; every other split (valid, test) and every
// sentence typed by the user is encoded with those same ones, and the tokens they do not know
// are counted. A pair that does not fit (a side too long, or a side with no token) is left out
// and counted, never truncated or repaired, as the corpus reader does with bad lines.
#include "text/corpus.h"
#include "text/tokenizer.h"
#include "text/vocab.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

namespace as {

struct DatasetOptions {
    // nullopt: guessTokenizer() on that side of the training pairs. A subword tokeniser
    // without its model (bpe:N, unigram:N) is trained on that side of the training pairs (all
    // of them, before max_len); one with its model is used as it is.
    std::optional<Tokenizer> src_tok, tgt_tok;
    // As torch_mt.py: every source token, target tokens seen at least twice.
    int src_min_freq = 1, tgt_min_freq = 2;
    // Total vocabulary size including the four specials (Vocab::build's maxSize); 0 = no limit.
    // Neither applies to a subword side, whose vocabulary is its model's pieces.
    int src_max_vocab = 0, tgt_max_vocab = 0;
    // One vocabulary for both sides (core/SPEC.md §10.3; what tie=all needs), built from both
    // sides' token streams together with the smaller minimum count and the larger size limit
    // (0 if either side has none); each side keeps its own tokeniser. With bpe:N or unigram:N
    // both sides name the same one (sharedVocabularyProblem()): one SentencePiece model is
    // trained on both sides' sentences, and its pieces are the vocabulary of both.
    bool shared_vocab = false;
    // Tokens per side, specials not counted (the decoder sees max_len + 1 positions). A pair
    // with a longer side is skipped and counted. 0 = no limit.
    int max_len = 100;
    // A model's own vocabularies (a translator being fine-tuned, text/lm_tasks.h's ModelText):
    // used as they are, nothing built; src_tok and tgt_tok must then be given, ready. A token
    // they lack is <unk>; the minimum counts, size limits and shared_vocab do not apply.
    std::optional<Vocab> src_vocab, tgt_vocab;
};

// Ids without specials: tgt holds neither <s> nor </s> (makeBatch adds them).
struct EncodedPair {
    std::vector<int> src, tgt;
    int line = 0;  // SentencePair::line: 1-based line of the corpus file
};

struct DatasetStats {
    int pairs = 0;             // kept
    int skipped_too_long = 0;  // a side over DatasetOptions::max_len tokens
    int skipped_empty = 0;     // a side without any token (checked first)
    // Over the kept pairs; *_unknown counts the tokens encoded as <unk>.
    qint64 src_tokens = 0, tgt_tokens = 0;
    qint64 src_unknown = 0, tgt_unknown = 0;

    // The first kMaxListed pairs left out, in corpus order: line (SentencePair::line) and why.
    struct Skipped {
        int line = 0;
        QString what;
    };
    QList<Skipped> first_skipped;
    static constexpr int kMaxListed = 20;

    int skipped() const { return skipped_too_long + skipped_empty; }
    // e.g. zh-en train: "27555 pairs (0 skipped: 0 too long, 0 empty); source 267542 tokens,
    // 0 unknown (0.00%); target 199444 tokens, 3082 unknown (1.55%)"
    QString summary() const;
};

struct EncodedSplit {
    std::vector<EncodedPair> pairs;
    DatasetStats stats;
};

// One sentence typed by the user (or read from a file to translate).
struct EncodedSentence {
    QStringList tokens;    // as the tokeniser cut it
    std::vector<int> ids;  // [tokens.size()], <unk> for a token the vocabulary lacks
    QList<int> unknown;    // indices into tokens (and ids) of the tokens encoded as <unk>
};

// The vocabularies and tokenisers of one corpus, and its encoded training pairs.
// SHA-1 of the encoded pairs (ids and boundaries): a checkpoint records it so that a resumed
// run can check it trains on the same data.
QString pairsDigest(const std::vector<EncodedPair>& pairs);

class ParallelData {
public:
    // Specials-only vocabularies, Word tokenisers on both sides, no pairs.
    ParallelData() = default;

    // Tokenises the training pairs, drops those that do not fit, and builds both
    // vocabularies from the pairs kept (tokens of skipped pairs do not enter them). The
    // training pairs are then encoded with those vocabularies: tokens under the minimum
    // frequency count as unknown in train().stats. No pair kept is not an error here:
    // train().pairs is then empty (and Batcher refuses it). A subword tokeniser SentencePiece
    // cannot train gives *error and the empty data.
    static ParallelData build(const QList<SentencePair>& train, const DatasetOptions& options = {},
                              QString* error = nullptr);

    // From vocabularies and tokenisers saved with a model (a checkpoint or weight file); no
    // training pairs. maxLen as DatasetOptions::max_len.
    static ParallelData fromVocabularies(Vocab src, Vocab tgt, Tokenizer srcTok,
                                         Tokenizer tgtTok, int maxLen = 100);

    // Another split (valid, test) with the same tokenisers, vocabularies and max_len.
    EncodedSplit encode(const QList<SentencePair>& pairs) const;

    EncodedSentence encodeSource(const QString& text) const;
    EncodedSentence encodeTarget(const QString& text) const;
    // Ids -> display text: specials other than <unk> are left out, then detokenize().
    QString decodeSource(const std::vector<int>& ids) const;
    QString decodeTarget(const std::vector<int>& ids) const;

    const Vocab& srcVocab() const { return srcVocab_; }
    const Vocab& tgtVocab() const { return tgtVocab_; }
    Tokenizer srcTokenizer() const { return srcTok_; }
    Tokenizer tgtTokenizer() const { return tgtTok_; }
    int maxLen() const { return maxLen_; }
    const EncodedSplit& train() const { return train_; }

private:
    Vocab srcVocab_, tgtVocab_;
    Tokenizer srcTok_ = TokenizerKind::Word, tgtTok_ = TokenizerKind::Word;
    int maxLen_ = 100;
    EncodedSplit train_;
};

}  // namespace as
