// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// attention-studio-cli eval: NLL, loss, token accuracy and BLEU of a model on a corpus.
#include "commands.h"
#include "corpus_input.h"
#include "model_input.h"
#include "options.h"

#include "decode/decode.h"
#include "eval/bleu.h"
#include "eval/evaluate.h"
#include "io/atomic_file.h"
#include "io/file_open.h"
#include "io/model_file.h"
#include "model/parallel.h"
#include "text/bundled_corpus.h"
#include "text/corpus.h"
#include "text/dataset.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

#include <cmath>

namespace as::cli {

namespace {

// The sides of the bundled corpus a language model is evaluated on (text/lm_tasks.h).
const QStringList kSideTasks{QStringLiteral("lm-en"), QStringLiteral("lm-zh")};

// A decoder-only model (core/SPEC.md §2.10) on sentences: each <s> sentence </s>, teacher-forced,
// dropout off; NLL per token (</s> included), perplexity exp(NLL) and token accuracy. Sentences
// without a token, or longer than the model's context, are skipped and counted.
int evalLanguageModel(Options& p, const as::ModelBundle& bundle, QTextStream& out, QTextStream& err)
{
    if (p.isSet("task") && !kSideTasks.contains(p.value("task"))) {
        err << "eval: '" << p.value("model") << "' is a decoder-only model (a language "
            << "model): evaluate it on the text of --task lm-en or lm-zh, or --data (one "
            << "sentence per line)\n";
        return 2;
    }
    const std::optional<QStringList> sentences = languageModelSentences(
        p.command(), p.isSet("task") ? p.value("task") : QString(), p.value("split"),
        p.value("data"), err);
    if (!sentences)
        return p.isSet("task") ? 2 : 1;
    int skipped = 0;
    const std::vector<as::EncodedPair> encoded =
        encodeLanguageModelText(codecOf(bundle), bundle.config.max_len, *sentences, &skipped);
    if (encoded.empty()) {
        err << "eval: no sentence with a token fits the model's context (max_len "
            << bundle.config.max_len << ")\n";
        return 1;
    }
    const as::LossStats st = as::evaluateLoss(*bundle.model, encoded);
    const double perplexity = std::exp(st.nll());
    if (p.isSet("json")) {
        out << QJsonDocument(QJsonObject{{"nll", st.nll()},
                                         {"perplexity", perplexity},
                                         {"loss", st.loss()},
                                         {"accuracy", st.accuracy()},
                                         {"sentences", int(encoded.size())},
                                         {"tokens", double(st.ntokens)},
                                         {"skipped", skipped}})
                   .toJson(QJsonDocument::Compact)
            << "\n";
    } else {
        out << QStringLiteral("%1 sentences, %2 tokens: NLL %3 · perplexity %4 · accuracy %5%6\n")
                   .arg(encoded.size())
                   .arg(st.ntokens)
                   .arg(st.nll(), 0, 'f', 4)
                   .arg(perplexity, 0, 'f', 2)
                   .arg(st.accuracy(), 0, 'f', 4)
                   .arg(skipped ? QStringLiteral(" (%1 skipped: empty or longer than the context)").arg(skipped)
                                : QString());
    }
    return 0;
}

}  // namespace

int runEval(const QStringList& args)
{
    QTextStream out(stdout), err(stderr);
    Options p(QStringLiteral("eval"),
              "Evaluate a model on a parallel corpus: teacher-forced NLL, label-smoothed loss and "
              "token accuracy (dropout off), and the BLEU of its translations against the "
              "corpus's targets.",
              err);
    p.add({"model", "Model file (.safetensors), or a Hugging Face Hub folder (GPT-2, Marian).", "MODEL"});
    p.add({"data", "Corpus: source<TAB>target per line (a decoder-only model: one sentence "
                   "per line).", "TEST.tsv"});
    p.add({"task", "Instead of --data: a corpus that ships with the program (zh-en), its "
                   "--split; for a decoder-only model lm-en or lm-zh, that corpus's English or "
                   "Chinese side (core/SPEC.md §10.7).", "name"},
          as::bundledCorpusNames() + kSideTasks);
    p.add({"split", "With --task: test or valid.", "part", "test"}, {"test", "valid"});
    p.add({"beam", "Beam width for the translations (1 = greedy).", "K", "1"});
    p.add({"out", "Write the translations here, one per line.", "HYP.txt"});
    p.add({"json", "Print one JSON object."});
    p.addThreads("0");
    addOutputLimitOption(p);
    p.add({"mask-heads", "Mask these attention heads: kind:layer:head,…", "SPEC"});
    if (const std::optional<int> done = p.parse(args))
        return *done;
    const QString model = p.required("model");
    if (p.isSet("data") == p.isSet("task"))
        p.refuse(QStringLiteral("give one of --data TEST.tsv or --task NAME"));
    const QString part = p.value("split");
    if (p.isSet("task") && part != "test" && part != "valid")
        p.refuse(QStringLiteral("--split must be test or valid, not '%1'").arg(part));
    const int beam = int(p.intOption("beam", 1, kMaxBeam));
    const int threads = p.threads();
    const int maxLen = outputLimitOption(p);
    if (!p.ok())
        return 2;
    int failed = 0;
    std::optional<as::ModelBundle> bundle = openModel(p, model, threads, err, &failed, true,
                                                      ModelUse::Any);
    if (!bundle)
        return failed;
    if (bundle->config.decoderOnly())
        return evalLanguageModel(p, *bundle, out, err);
    if (kSideTasks.contains(p.value("task"))) {
        err << "eval: --task " << p.value("task") << " is a language model's text; '" << model
            << "' is a translator (encoder-decoder): evaluate it on --task zh-en or --data\n";
        return 2;
    }
    std::optional<QList<as::SentencePair>> pairs;
    if (p.isSet("task")) {
        QString error;
        const std::optional<as::BundledCorpus> corpus = as::loadBundledCorpus(p.value("task"), &error);
        if (!corpus) {
            err << "eval: " << error << "\n";
            return 2;
        }
        pairs = part == "test" ? corpus->split.test : corpus->split.valid;
    } else {
        pairs = readPairs(p.value("data"), err);
    }
    if (!pairs)
        return 1;
    const as::ParallelData data = as::ParallelData::fromVocabularies(
        bundle->srcVocab, bundle->tgtVocab, bundle->srcTok, bundle->tgtTok, 1000);
    const as::EncodedSplit split = data.encode(*pairs);
    const as::LossStats st = as::evaluateLoss(*bundle->model, split.pairs);

    std::vector<std::vector<int>> sources;
    QStringList refs;
    for (const as::SentencePair& sp : *pairs) {
        sources.push_back(data.encodeSource(sp.src).ids);
        refs.push_back(sp.tgt);
    }
    as::DecodeOptions o;
    o.beam = beam;
    o.maxLen = outputLimit(maxLen, bundle->config, p.command(), err);
    const as::TranslateResult tr = as::translate(*bundle->model, sources, o);
    QStringList hyps;
    for (const auto& ids : tr.best)
        hyps.push_back(data.decodeTarget(ids));
    const as::BleuResult bleu = as::corpusBleu(hyps, refs);
    if (p.isSet("out")) {
        QString error;
        if (!as::writeFileAtomically(p.value("out"), (hyps.join('\n') + '\n').toUtf8(), &error)) {
            err << "eval: " << error << "\n";
            return 1;
        }
    }
    if (p.isSet("json")) {
        QJsonObject o{{"nll", st.nll()},
                      {"loss", st.loss()},
                      {"accuracy", st.accuracy()},
                      {"bleu", bleu.score},
                      {"sentences", int(pairs->size())},
                      {"tokens", double(st.ntokens)},
                      {"skipped", split.stats.skipped()}};
        out << QJsonDocument(o).toJson(QJsonDocument::Compact) << "\n";
    } else {
        out << QStringLiteral("%1 sentences, %2 target tokens: NLL %3 · loss %4 · accuracy %5 · BLEU %6\n")
                   .arg(pairs->size())
                   .arg(st.ntokens)
                   .arg(st.nll(), 0, 'f', 4)
                   .arg(st.loss(), 0, 'f', 4)
                   .arg(st.accuracy(), 0, 'f', 4)
                   .arg(bleu.score, 0, 'f', 2);
    }
    return 0;
}

}  // namespace as::cli
