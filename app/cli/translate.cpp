// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// attention-studio-cli translate: each line of standard input translated by a model.
#include "commands.h"
#include "model_input.h"
#include "options.h"

#include "decode/decode.h"
#include "io/model_file.h"
#include "model/parallel.h"
#include "text/dataset.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

namespace as::cli {

namespace {

// The search tree of core/SPEC.md §5.5 and the n-best list, as one JSON object.
QJsonObject treeJson(const as::ModelBundle& b, const as::ParallelData& data,
                     const std::vector<int>& src, const as::DecodeResult& r)
{
    QJsonArray nodes;
    for (const as::BeamNode& n : r.tree.nodes) {
        QJsonObject o{{"id", n.id},
                      {"parent", n.parent},
                      {"step", n.step},
                      {"token", b.tgtVocab.token(n.token)},
                      {"log_prob", n.logProb},
                      {"score", n.score},
                      {"state", as::beamNodeStateName(n.state)}};
        if (n.final)
            o.insert("final_score", n.finalScore);
        nodes.append(o);
    }
    QJsonArray nbest;
    for (const as::Hypothesis& h : r.nbest)
        nbest.append(QJsonObject{{"tokens", QJsonArray::fromStringList(b.tgtVocab.decode(h.tokens))},
                                 {"translation", data.decodeTarget(h.tokens)},
                                 {"score", h.score},
                                 {"finished", h.finished}});
    return {{"source_tokens", QJsonArray::fromStringList(b.srcVocab.decode(src))},
            {"beam", r.tree.beam},
            {"nodes", nodes},
            {"nbest", nbest}};
}

}  // namespace

int runTranslate(const QStringList& args)
{
    QTextStream out(stdout), err(stderr), in(stdin);
    Options p(QStringLiteral("translate"),
              "Translate each line of standard input to a line of standard output. With --nbest "
              "N > 1: N lines 'rank<TAB>score<TAB>translation' per input line, then an empty line.",
              err);
    p.add({"model", "Model file (.safetensors) written by train, or a Hugging Face Hub folder of a translator (Marian: OPUS-MT).", "MODEL"});
    p.add({"beam", "Beam width (1 = greedy).", "K", "1"});
    p.add({"nbest", "Translations per line (≤ beam).", "N", "1"});
    p.add({"tree", "Print beam search's tree of hypotheses (with --json)."});
    p.add({"json", "JSON output (with --tree)."});
    p.addThreads("1");
    addOutputLimitOption(p);
    p.add({"mask-heads", "Mask these attention heads: kind:layer:head,… (kind encoder.self, "
                         "decoder.self or decoder.cross, 0-based; * for every head of a "
                         "layer).", "SPEC"});
    addSamplingOptions(p);
    if (const std::optional<int> done = p.parse(args))
        return *done;
    const QString model = p.required("model");
    const int beam = int(p.intOption("beam", 1, kMaxBeam));
    const int nbest = int(p.intOption("nbest", 1, beam));
    const int threads = p.threads();
    const int maxLen = outputLimitOption(p);
    const bool tree = p.isSet("tree");
    if (tree != p.isSet("json"))
        p.refuse(tree ? QStringLiteral("--tree writes JSON: give --json too")
                      : QStringLiteral("--json is the output of --tree: give --tree too"));
    const bool sampling = samplingAsked(p);
    const as::SamplingOptions sampled = samplingOptions(
        p, beam > 1 || tree ? QStringLiteral("--beam and --tree are") : QString());
    if (!p.ok())
        return 2;
    int failed = 0;
    std::optional<as::ModelBundle> bundle = openModel(p, model, threads, err, &failed);
    if (!bundle)
        return failed;
    const as::ParallelData data = codecOf(*bundle);
    as::DecodeOptions o;
    o.beam = beam;
    o.nbest = nbest;
    o.maxLen = outputLimit(maxLen, bundle->config, p.command(), err);
    o.tree = tree;
    forEachInputLine(in, err, p.command(), [&](const QString& line, long lineNo) {
        const as::EncodedSentence s = data.encodeSource(line);
        if (tree) {
            // Beam 1 too: beam search with k = 1 is greedy (core/SPEC.md §5.3). An empty line
            // gets an empty tree, to keep the output aligned with the input.
            const as::DecodeResult r = s.ids.empty() ? as::DecodeResult{}
                                                     : as::beamSearch(*bundle->model, s.ids, o);
            out << QJsonDocument(treeJson(*bundle, data, s.ids, r)).toJson(QJsonDocument::Compact)
                << "\n";
            out.flush();
            return;
        }
        if (s.ids.empty()) {
            // Nothing to translate (empty, spaces, control characters): an empty answer (with
            // --nbest, an empty list) keeps the output aligned with the input lines.
            out << "\n";
            out.flush();
            return;
        }
        const int limit = o.limitFor(int(s.ids.size()), bundle->config.max_len);
        const as::DecodeResult r = sampling  ? as::sampleDecode(*bundle->model, s.ids, o,
                                                                lineSampling(sampled, lineNo))
                                   : beam == 1 ? as::greedyDecode(*bundle->model, s.ids, limit)
                                               : as::beamSearch(*bundle->model, s.ids, o);
        if (nbest == 1) {
            out << data.decodeTarget(r.nbest[0].tokens) << "\n";
        } else {
            for (std::size_t i = 0; i < r.nbest.size(); ++i)
                out << i + 1 << "\t" << QString::number(r.nbest[i].score, 'f', 4) << "\t"
                    << data.decodeTarget(r.nbest[i].tokens) << "\n";
            out << "\n";
        }
        out.flush();
    });
    return 0;
}

}  // namespace as::cli
