// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// What the subword tokenisers' tests share (test_subword, test_subword_files): one side of a
// corpus's pairs, a SentencePiece model trained on sentences, a tiny model over the pieces.
#include "model/rng.h"
#include "text/bundled_corpus.h"
#include "text/dataset.h"
#include "text/subword.h"
#include "train/trainer.h"

#include <QtTest>

#include <memory>

namespace as::test {

// The bundled zh-en corpus's split (the corpus the program ships), loaded once; a corpus that
// does not load ends the test with its message.
inline const BundledCorpus& bundledZhEn()
{
    static const BundledCorpus corpus = [] {
        QString error;
        std::optional<BundledCorpus> c = loadBundledCorpus(QStringLiteral("zh-en"), &error);
        if (!c)
            qFatal("the bundled zh-en corpus: %s", qPrintable(error));
        return *std::move(c);
    }();
    return corpus;
}

inline QStringList side(const QList<SentencePair>& pairs, bool source)
{
    QStringList out;
    for (const SentencePair& p : pairs)
        out << (source ? p.src : p.tgt);
    return out;
}

inline Tokenizer trainedTokenizer(const QString& name, const QStringList& sentences)
{
    const std::optional<Tokenizer> t = tokenizerFromName(name);
    if (!t)
        qFatal("bad tokenizer name %s", qPrintable(name));
    QString error;
    const std::optional<Tokenizer> trained = t->trained(sentences, &error);
    if (!trained)
        qFatal("%s", qPrintable(error));
    return *trained;
}

// A model of width 16 (one layer each side) whose vocabularies are those of the tokenisers,
// random weights (Xavier, seed 27).
inline std::unique_ptr<Transformer<float>> tinySubwordModel(int srcVocab, int tgtVocab)
{
    ModelConfig c;
    c.src_vocab = srcVocab;
    c.tgt_vocab = tgtVocab;
    c.d_model = 16;
    c.heads = 2;
    c.d_ff = 32;
    c.encoder_layers = c.decoder_layers = 1;
    auto m = std::make_unique<Transformer<float>>(c);
    Rng rng(27);
    m->initXavier(rng);
    return m;
}

}  // namespace as::test
