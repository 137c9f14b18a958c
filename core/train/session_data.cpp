// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "train/session_data.h"

#include "io/checkpoint.h"
#include "text/bundled_corpus.h"
#include "text/lm_tasks.h"
#include "train/batcher.h"

#include <QCoreApplication>

#include <stdexcept>

namespace as {

namespace {

// A generated task: its batches come from a generator seeded from the run's seed.
class TaskData final : public SessionData {
public:
    // extra: what else a checkpoint must record to make the same data again (a language
    // model's tokeniser, "tgt_tok").
    TaskData(Task task, int batchSize, quint64 seed, QJsonObject extra = {})
        : next_(std::move(task.nextBatch)), batchSize_(batchSize),
          batchesPerEpoch_(task.batchesPerEpoch), extra_(std::move(extra))
    {
        rng_.reseed(seed * 0x9e3779b97f4a7c15ULL + 7);
        description_ = std::move(task);
        description_.nextBatch = nullptr;
        for (const TokenPair& p : description_.examples)
            exampleText_.append({detokenize(description_.srcTokenizer, p.src),
                                 detokenize(description_.tgtTokenizer, p.tgt), 0});
        for (const TokenPair& p : description_.validation) {
            validation_.push_back({description_.srcVocab.encode(p.src),
                                   description_.tgtVocab.encode(p.tgt), 0});
            validationText_.append({detokenize(description_.srcTokenizer, p.src),
                                    detokenize(description_.tgtTokenizer, p.tgt), 0});
        }
    }
    QString name() const override { return description_.name; }
    Batch next() override { return next_(rng_); }
    int epoch(long steps) const override
    {
        return batchesPerEpoch_ > 0 ? int(steps / batchesPerEpoch_) : -1;
    }
    QJsonObject record() const override
    {
        QJsonObject r{{"kind", "task"}, {"task", description_.name}, {"batch_size", batchSize_}};
        for (auto it = extra_.begin(); it != extra_.end(); ++it)
            r.insert(it.key(), it.value());
        return r;
    }
    void storePosition(CheckpointRun* run) const override { run->dataRng = rng_.state(); }
    QString restorePosition(const CheckpointRun& run) override
    {
        rng_.setState(run.dataRng);
        return {};
    }

private:
    std::function<Batch(Rng&)> next_;
    int batchSize_;
    int batchesPerEpoch_;
    QJsonObject extra_;
    Rng rng_;
};

// A corpus served by a Batcher: length-bucketed batches under a token budget, reshuffled
// every epoch from the seed. The encoded corpus is shared by the copies restart() makes.
class CorpusData final : public SessionData {
public:
    // Sentences of at most max_len tokens: a source with </s>, a target after <s>.
    int longestSequence() const override { return data_->maxLen() + 1; }
    CorpusData(std::shared_ptr<const ParallelData> data, QList<SentencePair> trainText,
               std::vector<EncodedPair> valid, QList<SentencePair> validText, std::vector<TokenPair> examples,
               QList<SentencePair> exampleText, const DataOptions& o, QJsonObject record,
               QString name)
        : data_(std::move(data)), batcher_(data_->train().pairs, o.batchTokens, o.seed),
          record_(std::move(record)), name_(std::move(name))
    {
        description_.name = name_;
        description_.srcVocab = data_->srcVocab();
        description_.tgtVocab = data_->tgtVocab();
        description_.srcTokenizer = data_->srcTokenizer();
        description_.tgtTokenizer = data_->tgtTokenizer();
        description_.examples = std::move(examples);
        description_.batchesPerEpoch = batcher_.batchesPerEpoch();
        validation_ = std::move(valid);
        validationText_ = std::move(validText);
        exampleText_ = std::move(exampleText);
        trainingText_ = std::move(trainText);
    }
    QString name() const override { return name_; }
    void setDescription(const QString& d) { description_.description = d; }
    Batch next() override { return batcher_.next(); }
    int epoch(long) const override { return batcher_.epoch(); }
    QJsonObject record() const override { return record_; }
    void storePosition(CheckpointRun* run) const override
    {
        run->epoch = batcher_.epoch();
        run->position = batcher_.position();
    }
    QString restorePosition(const CheckpointRun& run) override
    {
        try {
            batcher_.setPosition(run.epoch, run.position);
        } catch (const std::invalid_argument& e) {
            return QString::fromUtf8(e.what());
        }
        return {};
    }
    const std::vector<EncodedPair>* trainingPairs() const override { return &data_->train().pairs; }
    std::unique_ptr<SessionData> restart(const DataOptions& o, QJsonObject record) const override
    {
        auto copy = std::make_unique<CorpusData>(data_, trainingText_, validation_, validationText_,
                                                 description_.examples, exampleText_, o,
                                                 std::move(record), name_);
        copy->setDescription(description_.description);
        return copy;
    }

private:
    std::shared_ptr<const ParallelData> data_;
    Batcher batcher_;
    QJsonObject record_;
    QString name_;
};

class InspectionData final : public SessionData {
public:
    InspectionData(QString name, Vocab src, Vocab tgt, Tokenizer srcTok, Tokenizer tgtTok,
                   bool languageModel)
    {
        description_.name = std::move(name);
        description_.languageModel = languageModel;
        description_.srcVocab = std::move(src);
        description_.tgtVocab = std::move(tgt);
        description_.srcTokenizer = srcTok;
        description_.tgtTokenizer = tgtTok;
    }
    QString name() const override { return description_.name; }
    bool trainable() const override { return false; }
    Batch next() override { throw std::logic_error("a model opened to look inside has no data"); }
    int epoch(long) const override { return -1; }
    QJsonObject record() const override { return {{"kind", "model"}, {"name", description_.name}}; }
    void storePosition(CheckpointRun*) const override {}
    QString restorePosition(const CheckpointRun&) override { return {}; }
};

// A translation corpus or task read by a decoder-only model (core/SPEC.md §2.10): the same
// batches in the same order with their sources dropped (the targets as a language model's
// sentence batches, <s> y … </s>), the same validation targets, one vocabulary (the target's)
// and as prompts the examples' first target tokens. What A/B's decoder-only B trains on beside
// a translator: the same target text, so that the two validation NLLs per target token
// compare what cross-attention adds.
class TargetSideData final : public SessionData {
public:
    explicit TargetSideData(std::unique_ptr<SessionData> pairs) : pairs_(std::move(pairs))
    {
        const Task& d = pairs_->description();
        description_ = d;
        description_.srcVocab = d.tgtVocab;
        description_.srcTokenizer = d.tgtTokenizer;
        description_.languageModel = true;
        description_.examples.clear();
        for (const TokenPair& ex : d.examples)
            description_.examples.push_back({{}, ex.tgt.mid(0, 2)});
        for (const EncodedPair& p : pairs_->validation())
            validation_.push_back({{}, p.tgt, p.line});
        validationText_ = pairs_->validationText();
        exampleText_ = pairs_->exampleText();
        trainingText_ = pairs_->trainingText();
    }
    QString name() const override { return pairs_->name(); }
    Batch next() override
    {
        Batch b = pairs_->next();
        b.src.clear();
        b.S = 0;  // tgtIn and tgtOut are those of makeSentenceLmBatch already
        return b;
    }
    int epoch(long steps) const override { return pairs_->epoch(steps); }
    QJsonObject record() const override { return pairs_->record(); }
    void storePosition(CheckpointRun* run) const override { pairs_->storePosition(run); }
    QString restorePosition(const CheckpointRun& run) override { return pairs_->restorePosition(run); }
    std::unique_ptr<SessionData> restart(const DataOptions& o, QJsonObject record) const override
    {
        std::unique_ptr<SessionData> again = pairs_->restart(o, std::move(record));
        return again ? std::make_unique<TargetSideData>(std::move(again)) : nullptr;
    }
    const std::vector<EncodedPair>* trainingPairs() const override { return pairs_->trainingPairs(); }

private:
    std::unique_ptr<SessionData> pairs_;
};

}  // namespace

std::unique_ptr<SessionData> targetSideData(std::unique_ptr<SessionData> pairs)
{
    return pairs ? std::make_unique<TargetSideData>(std::move(pairs)) : nullptr;
}

QStringList translationTaskNames()
{
    return builtinTaskNames() + bundledCorpusNames();
}

QStringList trainingTaskNames()
{
    return translationTaskNames() + languageModelTaskNames();
}

bool isTrainingTask(const QString& name)
{
    return trainingTaskNames().contains(name) || isLanguageModelTask(name);
}

bool isBundledCorpusTask(const QString& name)
{
    return bundledCorpusNames().contains(name);
}

qsizetype sampleIndex(qsizetype n, int k, int count)
{
    return n * (k + 1) / (count + 1);
}

std::vector<TokenPair> tokenPairs(const ParallelData& data, const QList<SentencePair>& pairs,
                                  int count, QList<SentencePair>* text)
{
    std::vector<TokenPair> out;
    const qsizetype n = pairs.size();
    qsizetype next = 0;
    for (int k = 0; k < count && next < n; ++k) {
        for (qsizetype i = std::max(next, sampleIndex(n, k, count)); i < n; ++i) {
            TokenPair tp{data.encodeSource(pairs[i].src).tokens, data.encodeTarget(pairs[i].tgt).tokens};
            next = i + 1;
            if (!tp.src.isEmpty() && !tp.tgt.isEmpty()) {
                out.push_back(std::move(tp));
                if (text)
                    text->append(pairs[i]);
                break;
            }
        }
    }
    return out;
}

std::unique_ptr<SessionData> makeTaskData(const QString& name, const DataOptions& o, QString* error)
{
    if (isLanguageModelTask(name)) {
        if (o.sharedVocab) {
            *error = QCoreApplication::translate("as::SessionData", "a language model has one vocabulary already");
            return nullptr;
        }
        if (o.modelText && o.modelText->translator) {
            *error = QCoreApplication::translate("as::SessionData", "a translator is fine-tuned on sentence pairs (%1), not on a language model's text '%2'")
                         .arg(bundledCorpusNames().join(QStringLiteral(", ")), name);
            return nullptr;
        }
        const std::optional<Tokenizer> tok = o.tgtTok ? o.tgtTok : o.srcTok;
        Task t = makeLanguageModelTask(name, o.batchSize, tok, error, o.modelText.get());
        if (t.name.isEmpty())
            return nullptr;
        // The tokeniser chosen, by name (core/SPEC.md §9.5), as a corpus records its own; its
        // model is in the checkpoint's model, and a resumed run reads it from there. A
        // fine-tuning run's vocabulary and tokeniser are the model's, also in the checkpoint.
        QJsonObject extra;
        if (tok)
            extra.insert("tgt_tok", tokenizerName(*tok));
        if (o.modelText)  // read as the checkpoint's model reads text (run/make_session.h)
            extra.insert("model_text", true);
        // A text file's digest: a resumed run must find the same text (checkSavedRunData).
        if (!t.sourceDigest.isEmpty())
            extra.insert("pairs_sha1", t.sourceDigest);
        return std::make_unique<TaskData>(std::move(t), o.batchSize, o.seed, extra);
    }
    if (builtinTaskNames().contains(name) && o.modelText) {
        *error = QCoreApplication::translate("as::SessionData", "a model is fine-tuned on text it reads with its own vocabulary (%1), not on the generated task '%2'")
                     .arg(QStringList{bundledCorpusNames().join(QStringLiteral(", ")), QStringLiteral("lm-en, lm-zh, text:FILE")}.join(QStringLiteral("; ")), name);
        return nullptr;
    }
    if (builtinTaskNames().contains(name)) {
        if (o.sharedVocab) {
            *error = QCoreApplication::translate("as::SessionData", "a shared vocabulary is built from a corpus (zh-en, --data); "
                                    "the generated task '%1' has fixed vocabularies (copy, "
                                    "reverse and sort share one already)")
                         .arg(name);
            return nullptr;
        }
        return std::make_unique<TaskData>(makeBuiltinTask(name, o.batchSize), o.batchSize, o.seed);
    }
    if (!isBundledCorpusTask(name)) {
        *error = QCoreApplication::translate("as::SessionData", "unknown task '%1' (built-in: %2)")
                     .arg(name, trainingTaskNames().join(", "));
        return nullptr;
    }
    std::optional<BundledCorpus> corpus = loadBundledCorpus(name, error);
    if (!corpus)
        return nullptr;
    DatasetOptions dataset;
    dataset.shared_vocab = o.sharedVocab;
    dataset.src_tok = o.srcTok;
    dataset.tgt_tok = o.tgtTok;
    if (o.modelText) {
        // A translator being fine-tuned reads the pairs with its own tokenisers and
        // vocabularies (core/SPEC.md §10.3); a language model reads lm-en or lm-zh.
        if (!o.modelText->translator) {
            *error = QCoreApplication::translate("as::SessionData", "a language model is fine-tuned on lm-en, lm-zh or text:FILE, not on the sentence pairs of '%1'")
                         .arg(name);
            return nullptr;
        }
        readWithModel(&dataset, *o.modelText);
    }
    QString why;
    ParallelData data = ParallelData::build(corpus->split.train, dataset, &why);
    if (!why.isEmpty()) {
        *error = why;
        return nullptr;
    }
    EncodedSplit valid = data.encode(corpus->split.valid);
    const QString description = corpus->description;
    QList<SentencePair> exampleText;
    std::vector<TokenPair> examples = tokenPairs(data, corpus->split.valid, kSamplePairs, &exampleText);
    QJsonObject record{{"kind", "task"},
                       {"task", name},
                       {"batch_tokens", o.batchTokens},
                       {"pairs", double(data.train().pairs.size())},
                       {"pairs_sha1", pairsDigest(data.train().pairs)}};
    if (o.sharedVocab)  // absent: two vocabularies, as before there was a choice
        record.insert("shared_vocab", true);
    // Tokenisers chosen, by name (core/SPEC.md §9.5); their models are in the checkpoint's model.
    if (o.srcTok)
        record.insert("src_tok", tokenizerName(*o.srcTok));
    if (o.tgtTok)
        record.insert("tgt_tok", tokenizerName(*o.tgtTok));
    if (o.modelText)  // read as the checkpoint's model reads text (run/make_session.h)
        record.insert("model_text", true);
    auto made = makeCorpusData(std::move(data), corpus->split.train, std::move(valid.pairs),
                               corpus->split.valid, std::move(examples), std::move(exampleText), o,
                               record, name);
    static_cast<CorpusData*>(made.get())->setDescription(description);
    return made;
}

std::unique_ptr<SessionData> makeCorpusData(ParallelData data, QList<SentencePair> trainText,
                                            std::vector<EncodedPair> valid,
                                            QList<SentencePair> validText,
                                            std::vector<TokenPair> examples,
                                            QList<SentencePair> exampleText,
                                            const DataOptions& options, QJsonObject record,
                                            QString name)
{
    return std::make_unique<CorpusData>(std::make_shared<const ParallelData>(std::move(data)),
                                        std::move(trainText), std::move(valid), std::move(validText),
                                        std::move(examples), std::move(exampleText), options,
                                        std::move(record), std::move(name));
}

ParallelData SessionData::codec() const
{
    return ParallelData::fromVocabularies(srcVocab(), tgtVocab(), srcTokenizer(), tgtTokenizer());
}

std::unique_ptr<SessionData> makeInspectionData(QString name, Vocab src, Vocab tgt,
                                                Tokenizer srcTok, Tokenizer tgtTok, bool languageModel)
{
    return std::make_unique<InspectionData>(std::move(name), std::move(src), std::move(tgt), srcTok,
                                            tgtTok, languageModel);
}

}  // namespace as
