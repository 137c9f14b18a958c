// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#include "text/lm_tasks.h"

#include "text/bundled_corpus.h"
#include "text/dataset.h"
#include "text/repeat_task.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <functional>
#include <memory>

namespace as {

namespace {

// Held-out sentences a validation evaluates: the whole validation split (zh-en's 583) up to
// this many. Not only its first ones: Tatoeba's file is sorted by length, and the split keeps
// that order, so its first 500 sentences are its shortest (a perplexity of 38.8 against 50.8
// for all 583, on one model).
constexpr int kValidationSentences = 2000;
constexpr int kPrompts = 5;                // examples: the first words of held-out sentences

// One balanced string of ( ) [ ] { }: 1 to 8 pairs, nested at most 4 deep.
QStringList randomBrackets(Rng& rng)
{
    static const QString open = QStringLiteral("([{"), close = QStringLiteral(")]}");
    const int pairs = 1 + int(rng.below(8));
    QStringList out;
    std::vector<int> stack;
    int opened = 0;
    while (opened < pairs || !stack.empty()) {
        const bool canOpen = opened < pairs && stack.size() < 4;
        if (canOpen && (stack.empty() || rng.below(2) == 0)) {
            const int kind = int(rng.below(3));
            stack.push_back(kind);
            out << QString(open[kind]);
            ++opened;
        } else {
            out << QString(close[stack.back()]);
            stack.pop_back();
        }
    }
    return out;
}

Task bracketsTask(int batchSize)
{
    Task t;
    t.name = QStringLiteral("lm-brackets");
    t.description = QStringLiteral("balanced strings of ( ) [ ] { } (a language model)");
    t.languageModel = true;
    t.srcVocab = Vocab::build({{"(", ")", "[", "]", "{", "}"}});
    t.tgtVocab = t.srcVocab;
    Rng ex(12345);
    for (int i = 0; i < kPrompts; ++i)
        t.examples.push_back({{}, randomBrackets(ex).mid(0, 2)});
    for (int i = 0; i < 64; ++i)
        t.validation.push_back({{}, randomBrackets(ex)});
    const Vocab v = t.tgtVocab;
    t.nextBatch = [v, batchSize](Rng& rng) {
        std::vector<std::vector<int>> sentences;
        for (int i = 0; i < batchSize; ++i)
            sentences.push_back(v.encode(randomBrackets(rng)));
        return makeSentenceLmBatch(sentences);
    };
    return t;
}

// The sentences a language model's text task reads, each as a pair of the sentence with itself
// (one vocabulary and one tokeniser for both sides: a subword one trained once, as ParallelData
// builds a shared vocabulary).
struct SideText {
    QList<SentencePair> train, valid;
    QString description;
    QString digest;  // a file's SHA-1
    bool english = true;  // its prompts are two tokens (else one: a character of Chinese)
};

std::optional<SideText> bundledSide(const QString& name, QString* error)
{
    const bool english = name == QLatin1String("lm-en");
    std::optional<BundledCorpus> corpus = loadBundledCorpus(QStringLiteral("zh-en"), error);
    if (!corpus)
        return std::nullopt;
    auto side = [&](const QList<SentencePair>& pairs) {
        QList<SentencePair> out;
        for (const SentencePair& p : pairs) {
            const QString& s = english ? p.tgt : p.src;
            out.append({s, s, p.line});
        }
        return out;
    };
    SideText text;
    text.train = side(corpus->split.train);
    text.valid = side(corpus->split.valid);
    text.english = english;
    text.description = english ? QStringLiteral("the English side of the bundled zh-en corpus (a language model)")
                               : QStringLiteral("the Chinese side of the bundled zh-en corpus (a language model)");
    return text;
}

// A user's text file: its non-empty lines (trimmed), every 50th held out for validation.
std::optional<SideText> fileText(const QString& path, QString* error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = QCoreApplication::translate("as::LmTasks", "cannot read %1: %2").arg(path, f.errorString());
        return std::nullopt;
    }
    if (f.size() > kMaxTextFileBytes) {
        *error = QCoreApplication::translate("as::LmTasks", "%1 holds %2 MB: a text to train on is read whole, up to %3 MB")
                     .arg(path)
                     .arg(f.size() >> 20)
                     .arg(kMaxTextFileBytes >> 20);
        return std::nullopt;
    }
    const QByteArray bytes = f.readAll();
    if (f.error() != QFileDevice::NoError) {
        *error = QCoreApplication::translate("as::LmTasks", "cannot read %1: %2").arg(path, f.errorString());
        return std::nullopt;
    }
    SideText text;
    text.digest = QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha1).toHex());
    text.english = true;
    text.description = QStringLiteral("the lines of %1 (a language model)").arg(QFileInfo(path).fileName());
    int n = 0, lineNo = 0;
    for (const QString& raw : QString::fromUtf8(bytes).split(u'\n')) {
        ++lineNo;
        const QString line = raw.trimmed();
        if (line.isEmpty())
            continue;
        (++n % 50 == 0 ? text.valid : text.train).append({line, line, lineNo});
    }
    if (text.train.isEmpty()) {
        *error = QCoreApplication::translate("as::LmTasks", "%1 holds no line of text").arg(path);
        return std::nullopt;
    }
    return text;
}

Task corpusSideTask(const QString& name, int batchSize, std::optional<Tokenizer> tok,
                    const ModelText* model, QString* error)
{
    std::optional<SideText> text = isTextTaskName(name) ? fileText(name.mid(5), error) : bundledSide(name, error);
    if (!text)
        return {};
    const bool english = text->english;
    Task t;
    t.name = name;
    t.description = text->description;
    t.sourceDigest = text->digest;
    t.languageModel = true;
    // The training sentences as ids, and how a sentence is cut: with a vocabulary built from
    // the side's training split, or with the fine-tuned model's own.
    std::vector<std::vector<int>> sentences;
    std::function<QStringList(const QString&)> cut;
    std::optional<ParallelData> data;
    if (model) {
        t.srcVocab = t.tgtVocab = model->vocab;
        t.srcTokenizer = t.tgtTokenizer = model->tokenizer;
        const ModelText m = *model;
        cut = [m](const QString& s) {
            QStringList tokens = tokenize(m.tokenizer, s);
            return tokens.size() < m.context ? tokens : QStringList{};
        };
        for (const SentencePair& p : text->train) {
            if (const QStringList tokens = cut(p.tgt); !tokens.isEmpty())
                sentences.push_back(t.tgtVocab.encode(tokens));
        }
    } else {
        DatasetOptions o;
        o.shared_vocab = true;
        o.src_tok = o.tgt_tok = tok ? *tok : Tokenizer(english ? TokenizerKind::Word : TokenizerKind::CjkChar);
        o.src_min_freq = o.tgt_min_freq = english ? 2 : 1;
        o.max_len = kLmContext - 1;  // a sentence with its <s> and </s> fits one window
        QString why;
        data = ParallelData::build(text->train, o, &why);
        if (!why.isEmpty()) {
            *error = why;
            return {};
        }
        t.srcVocab = data->srcVocab();
        t.tgtVocab = data->tgtVocab();
        t.srcTokenizer = data->srcTokenizer();
        t.tgtTokenizer = data->tgtTokenizer();
        for (const EncodedPair& p : data->train().pairs)
            sentences.push_back(p.tgt);
        cut = [&data](const QString& s) { return data->encodeTarget(s).tokens; };
    }
    const bool sentenceStart = !model || model->sentenceStart;
    const int context = model ? std::clamp(model->context, 2, kLmContext) : kLmContext;
    auto stream = std::make_shared<std::vector<int>>();
    for (const std::vector<int>& s : sentences) {
        if (sentenceStart)
            stream->push_back(kBos);
        stream->insert(stream->end(), s.begin(), s.end());
        stream->push_back(kEos);
    }
    if (stream->size() < std::size_t(context) + 1) {
        *error = QStringLiteral("%1: the training text holds fewer than %2 tokens").arg(name).arg(context + 1);
        return {};
    }
    // Validation: the sentences of the validation split with a token, as the tokeniser cuts
    // them (tokenPairs' spread is for a handful of probes; a perplexity wants many sentences).
    for (const SentencePair& p : text->valid) {
        if (int(t.validation.size()) >= kValidationSentences)
            break;
        const QStringList tokens = cut(p.tgt);
        if (!tokens.isEmpty())
            t.validation.push_back({{}, tokens});
    }
    for (int k = 0; k < kPrompts && k < int(t.validation.size()); ++k) {
        // Spread over the split, as the translators' probes are (session_data.h's sampleIndex).
        const std::size_t at = t.validation.size() * std::size_t(k + 1) / (kPrompts + 1);
        const QStringList& s = t.validation[at].tgt;
        t.examples.push_back({{}, s.mid(0, english ? 2 : 1)});
    }
    t.longestSequence = context;
    t.batchesPerEpoch = std::max(1, int(stream->size() / (std::size_t(batchSize) * context)));
    t.nextBatch = [stream, batchSize, context](Rng& rng) {
        std::vector<std::vector<int>> windows;
        const std::uint64_t offsets = stream->size() - std::size_t(context);
        for (int i = 0; i < batchSize; ++i) {
            const auto at = stream->begin() + std::ptrdiff_t(rng.below(offsets));
            windows.emplace_back(at, at + context + 1);
        }
        return makeLmBatch(windows);
    };
    return t;
}

}  // namespace

QStringList languageModelTaskNames()
{
    return {QStringLiteral("lm-en"), QStringLiteral("lm-zh"), QStringLiteral("lm-brackets"),
            QStringLiteral("repeat")};
}

bool isLanguageModelTask(const QString& name)
{
    return languageModelTaskNames().contains(name) || isRepeatTaskName(name) || isTextTaskName(name);
}

bool isCorpusLanguageModelTask(const QString& name)
{
    return name == QLatin1String("lm-en") || name == QLatin1String("lm-zh");
}

bool isTextTaskName(const QString& name)
{
    return name.startsWith(QLatin1String("text:")) && name.size() > 5;
}

void readWithModel(DatasetOptions* dataset, const ModelText& text)
{
    dataset->src_tok = text.srcTokenizer;
    dataset->tgt_tok = text.tokenizer;
    dataset->src_vocab = text.srcVocab;
    dataset->tgt_vocab = text.vocab;
}

Task makeLanguageModelTask(const QString& name, int batchSize, std::optional<Tokenizer> tok,
                           QString* error, const ModelText* model)
{
    if (model && !isCorpusLanguageModelTask(name) && !isTextTaskName(name)) {
        *error = QStringLiteral("a model is fine-tuned on lm-en, lm-zh or text:FILE, not on %1 (its own tokens)").arg(name);
        return {};
    }
    if (model && tok) {
        *error = QStringLiteral("a fine-tuned model reads the text with its own tokeniser");
        return {};
    }
    if (name == QLatin1String("lm-brackets")) {
        if (tok) {
            *error = QStringLiteral("lm-brackets has its own six tokens: no tokeniser to choose");
            return {};
        }
        return bracketsTask(batchSize);
    }
    if (isCorpusLanguageModelTask(name) || isTextTaskName(name))
        return corpusSideTask(name, batchSize, tok, model, error);
    if (isRepeatTaskName(name)) {
        if (tok) {
            *error = QStringLiteral("%1 has its own tokens: no tokeniser to choose").arg(name);
            return {};
        }
        const std::optional<RepeatOptions> o = repeatOptionsFromName(name, error);
        return o ? makeRepeatTask(*o, batchSize) : Task{};
    }
    *error = QStringLiteral("unknown language-model task '%1' (%2)")
                 .arg(name, languageModelTaskNames().join(QStringLiteral(", ")));
    return {};
}

bool balancedBrackets(const QStringList& tokens)
{
    static const QString open = QStringLiteral("([{"), close = QStringLiteral(")]}");
    QString stack;
    for (const QString& t : tokens) {
        if (t.size() != 1)
            return false;
        if (const qsizetype k = open.indexOf(t[0]); k >= 0) {
            stack.append(close[k]);
        } else if (close.contains(t[0])) {
            if (stack.isEmpty() || stack.back() != t[0])
                return false;
            stack.chop(1);
        } else {
            return false;
        }
    }
    return stack.isEmpty();
}

}  // namespace as
