// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "run/make_session.h"

#include <QCoreApplication>

#include <stdexcept>

namespace as {

namespace {

std::unique_ptr<SessionData> translationOrTaskData(const SessionSettings& s, QString* error)
{
    if (!s.corpus)
        return makeTaskData(s.task, s.dataOptions(), error);
    if (s.srcTok || s.tgtTok) {
        // A/B's B cutting a user's corpus another way (the Tokens view's A/B against BPE): the
        // corpus built again from the text it kept, the same pairs on each side of the split,
        // the file not read again; a side named cut with its tokeniser (a subword one trained
        // on that side of the training text), the other one with the corpus's own, as it is.
        const CorpusRun run = s.corpusRun();
        DatasetOptions cut = run.source.dataset;
        if (!s.srcTok)
            cut.src_tok = s.corpus->srcTokenizer();
        if (!s.tgtTok)
            cut.tgt_tok = s.corpus->tgtTokenizer();
        CorpusBuild b;
        buildCorpusFromText(run, cut, s.corpus->trainingText(), s.corpus->validationText(), &b);
        if (!b.data)
            *error = b.error;
        return std::move(b.data);
    }
    // The corpus read once, from its first batch, with this run's settings in its record.
    QJsonObject record = s.corpus->record();
    record.insert("args", s.corpusRun().args());
    try {
        return s.corpus->restart(s.dataOptions(), record);
    } catch (const std::invalid_argument& e) {
        *error = QString::fromUtf8(e.what());
        return nullptr;
    }
}

}  // namespace

std::unique_ptr<SessionData> makeSessionData(const SessionSettings& s, QString* error)
{
    std::unique_ptr<SessionData> data = translationOrTaskData(s, error);
    // A decoder-only model on translation data (A/B's B beside a translator) learns its
    // target side: the same sentences, batches and order, no source.
    if (data && s.model.decoderOnly() && !data->description().languageModel)
        return targetSideData(std::move(data));
    return data;
}

QString fitModelToData(const SessionData& data, ModelConfig* model)
{
    model->src_vocab = data.srcVocab().size();
    model->tgt_vocab = data.tgtVocab().size();
    if (QString why = model->validate(); !why.isEmpty())
        return why;
    // Learned positions end at max_len: the data's sequences must fit (core/SPEC.md §2.11).
    if (model->position == Position::Learned && data.longestSequence() > model->max_len)
        return QCoreApplication::translate("as::Session", "learned positions need max_len of at least %1, the "
                                           "longest sequence %2 feeds the model (max_len is %3)")
            .arg(data.longestSequence())
            .arg(data.name())
            .arg(model->max_len);
    // Sizes alone do not make one vocabulary: tie=all shares each id's row between the sides.
    if (model->tie == Tie::All && data.srcVocab().tokens() != data.tgtVocab().tokens())
        return ModelConfig::sharedVocabularyNeeded();
    return {};
}

std::unique_ptr<TrainingSession> makeSession(std::unique_ptr<SessionData> data, SessionSettings* s,
                                             QString* error)
{
    // The one place a session's precision meets the machine (a lesson's or A/B's spec, a saved
    // setting or the command line may all name bfloat16).
    if (!gemmPrecisionAvailable(s->train.precision, error))
        return nullptr;
    if (s->fineTunes()) {
        std::optional<ModelBundle> base = loadModel(s->baseModel, error);
        if (!base)
            return nullptr;
        return makeFineTuneSession(std::move(data), std::move(base->model), s, error);
    }
    if (QString why = fitModelToData(*data, &s->model); !why.isEmpty()) {
        *error = why;
        return nullptr;
    }
    return std::make_unique<TrainingSession>(
        std::move(data), std::make_unique<Trainer>(s->model, s->train), s->plan());
}

std::shared_ptr<const ModelText> modelTextOf(const ModelConfig& config, const Vocab& vocab,
                                             const Tokenizer& tokenizer, const Vocab& srcVocab,
                                             const Tokenizer& srcTok)
{
    const bool bosMasked = (config.masked_specials >> kBos) & 1;
    // A window of context tokens is fed whole: the model must read that many positions.
    ModelText t;
    t.vocab = vocab;
    t.tokenizer = tokenizer;
    t.sentenceStart = !bosMasked;
    t.context = std::min(kLmContext, config.max_len);
    if (!config.decoderOnly()) {
        t.translator = true;
        t.srcVocab = srcVocab;
        t.srcTokenizer = srcTok;
    }
    return std::make_shared<const ModelText>(std::move(t));
}

std::shared_ptr<const ModelText> modelTextOf(const ModelBundle& model)
{
    return modelTextOf(model.config, model.tgtVocab, model.tgtTok, model.srcVocab, model.srcTok);
}

std::unique_ptr<TrainingSession> makeFineTuneSession(std::unique_ptr<SessionData> data,
                                                     std::unique_ptr<Transformer<float>> model,
                                                     SessionSettings* s, QString* error)
{
    if (!gemmPrecisionAvailable(s->train.precision, error))
        return nullptr;
    const ModelConfig& config = model->config();
    if (data->tgtVocab().size() != config.tgt_vocab
        || (!config.decoderOnly() && data->srcVocab().size() != config.src_vocab)) {
        *error = QCoreApplication::translate("as::Session", "the text's vocabulary (%1 tokens) is not the model's (%2)")
                     .arg(data->tgtVocab().size())
                     .arg(config.tgt_vocab);
        return nullptr;
    }
    s->model = config;
    return std::make_unique<TrainingSession>(
        std::move(data), std::make_unique<Trainer>(std::move(model), s->train), s->plan());
}

std::unique_ptr<TrainingSession> makeInspectionSession(const ModelBundle& described,
                                                       std::unique_ptr<Trainer> trainer,
                                                       TrainingHistory history,
                                                       double trainSeconds, const QString& name,
                                                       SessionSettings* s)
{
    s->task = name;
    s->model = described.config;
    s->train = trainer->options();
    s->plannedSteps = trainer->stepCount();
    s->evalEvery = 0;
    auto session = std::make_unique<TrainingSession>(
        makeInspectionData(s->task, described.srcVocab, described.tgtVocab, described.srcTok,
                           described.tgtTok, described.config.decoderOnly()),
        std::move(trainer), s->plan());
    session->restoreRecord(std::move(history), trainSeconds);
    return session;
}

}  // namespace as
