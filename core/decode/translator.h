// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// A sentence in, a TranslationRecord out: the weights of one step with the vocabularies and
// tokenisers they were trained with. What the window's Translate tab runs (off the GUI thread,
// app/window/translation_service.h); the view only ever sees the records.
//
// Thread safety: encode(), step() and codec() only read what the constructor set, and may be
// called from any thread at any time. translate() runs the model, which writes its activation
// caches: one translate() at a time per model (so per Translator, and for two Translators
// sharing one model, per pair). A source without any token is answered without touching the
// model. Translators over different models may translate in parallel.
#include "decode/translation_record.h"
#include "model/transformer.h"
#include "text/dataset.h"

#include <memory>

namespace as {

class Translator {
public:
    Translator(std::shared_ptr<Transformer<float>> model, long step, Vocab srcVocab,
               Vocab tgtVocab, Tokenizer srcTokenizer, Tokenizer tgtTokenizer);

    long step() const { return step_; }
    const ParallelData& codec() const { return codec_; }

    // Tokens and ids of a typed sentence (no model involved): a translator's source, or a
    // decoder-only model's prompt (core/SPEC.md §2.10), cut as its one side is.
    EncodedSentence encode(const QString& text) const
    {
        return languageModel_ ? codec_.encodeTarget(text) : codec_.encodeSource(text);
    }
    // A decoder-only model: translate() continues the text (TranslationRecord::generated).
    bool languageModel() const { return languageModel_; }

    // Greedy (options.beam false), sampled (options.sampling) or beam search of width
    // options.k keeping options.nbest hypotheses, the cross-attention of the best, and the
    // top-5 next tokens at each of its steps. A decoder-only model continues the text instead:
    // its record has the self-attention of each generated token over <s>, the prompt and the
    // tokens before it, and no beam tree, attribution or contrast (their error says so). An empty sentence, or one without tokens, gives a record with error set and
    // nothing else but its tokens; a decoder failure (an exception) gives error too. Never
    // throws for either.
    TranslationRecord translate(const QString& text, const TranslationOptions& options);
    TranslationRecord translate(const EncodedSentence& source, const TranslationOptions& options);

private:
    std::shared_ptr<Transformer<float>> model_;
    long step_ = 0;
    ParallelData codec_;
    bool languageModel_ = false;
};

}  // namespace as
