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
#include "io/model_file.h"
#include "model/parallel.h"
#include "text/bundled_corpus.h"
#include "text/corpus.h"
#include "text/dataset.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

namespace as::cli {

int runEval(const QStringList& args)
{
    QTextStream out(stdout), err(stderr);
    Options p(QStringLiteral("eval"),
              "Evaluate a model on a parallel corpus: teacher-forced NLL, label-smoothed loss and "
              "token accuracy (dropout off), and the BLEU of its translations against the "
              "corpus's targets.",
              err);
    p.add({"model", "Model file (.safetensors).", "MODEL"});
    p.add({"data", "Corpus: source<TAB>target per line.", "TEST.tsv"});
    p.add({"task", "Instead of --data: a corpus that ships with the program (zh-en), its "
                   "--split.", "name"},
          as::bundledCorpusNames());
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
    std::optional<as::ModelBundle> bundle = openModel(p, model, threads, err, &failed);
    if (!bundle)
        return failed;
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
