// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// attention-studio-cli attribute: what each output token rests on (core/eval/interpret.h),
// one JSON object per line of standard input.
#include "commands.h"
#include "model_input.h"
#include "options.h"

#include "decode/decode.h"
#include "eval/interpret.h"
#include "io/model_file.h"
#include "model/parallel.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

namespace as::cli {

namespace {

QJsonArray tokensJson(const QStringList& tokens)
{
    return QJsonArray::fromStringList(tokens);
}

}  // namespace

int runAttribute(const QStringList& args)
{
    QTextStream out(stdout), err(stderr), in(stdin);
    Options p(
        QStringLiteral("attribute"),
        "For each line of standard input, how much each output token rests on each source token: "
        "a line 'source' explains the model's greedy translation, 'source<TAB>target' that target "
        "(teacher-forced). One JSON object per line: source_tokens, output_tokens, method, scores "
        "(output × source) and, for ig, completeness (Σ_i IG_i − (f(e) − f(0·e)) per output) with f "
        "and f_baseline. With --contrast, lines 'source<TAB>target<TAB>alternative' (equally many "
        "tokens): why the target and not the alternative, at each position where they differ "
        "(core/SPEC.md §11.2); the JSON gains contrast_positions. A decoder-only model reads a "
        "prompt (its source) a line, 'prompt' for its greedy continuation or "
        "'prompt<TAB>continuation' (§11.1).",
        err);
    p.add({"model", "Model file (.safetensors) or checkpoint.", "MODEL"});
    p.add({"method", "ig (integrated gradients), gradxinput, attention (last decoder layer's "
                     "cross-attention, mean over heads; a decoder-only model's self-attention "
                     "to the prompt) or rollout.", "name", "ig"},
          {"ig", "gradxinput", "attention", "rollout"});
    p.add({"steps", "Integrated gradients' steps m.", "M", "32"});
    p.add({"mask-heads", "Mask these heads first: kind:layer:head,…", "SPEC"});
    p.add({"contrast", "Contrastive: lines source<TAB>target<TAB>alternative, f = log p(target "
                       "token) − log p(alternative token) where they differ (ig or gradxinput)."});
    p.add({"json", "JSON lines (the only output format; accepted for symmetry)."});
    p.addThreads("0");
    if (const std::optional<int> done = p.parse(args))
        return *done;
    const QString model = p.required("model");
    const std::optional<as::AttributionMethod> method = as::attributionMethodFromName(p.value("method"));
    if (!method)
        p.refuse(QStringLiteral("--method must be ig, gradxinput, attention or rollout, not '%1'")
                     .arg(p.value("method")));
    const bool contrast = p.isSet("contrast");
    if (contrast && method && *method != as::AttributionMethod::IntegratedGradients
        && *method != as::AttributionMethod::GradientXInput)
        p.refuse(QStringLiteral("--contrast explains with ig or gradxinput, not %1 (attention "
                                "does not depend on the alternative)")
                     .arg(p.value("method")));
    const int steps = int(p.intOption("steps", 1, 4096));
    const int threads = p.threads();
    if (!p.ok())
        return 2;
    int failed = 0;
    std::optional<as::ModelBundle> b = openModel(p, model, threads, err, &failed, true,
                                                 ModelUse::Any);
    if (!b)
        return failed;
    const as::ParallelData codec = codecOf(*b);
    // A decoder-only model's source is its prompt (core/SPEC.md §11.1): <s>, the prompt and
    // the output share its context, so the prompt keeps room for one output token (its end
    // kept, as generate keeps it) and the output what is left.
    const bool only = b->config.decoderOnly();
    const int maxLen = b->config.max_len;
    const int sourceLimit = only ? maxLen - 2 : maxLen;
    const as::Vocab& sourceVocab = only ? b->tgtVocab : b->srcVocab;
    // readLineInto, not atEnd(): on stdin atEnd() is false before anything is read, and empty
    // input was answered with one empty result.
    QString line;
    int result = 0;
    for (long lineNo = 1; in.readLineInto(&line); ++lineNo) {
        // --contrast: source, target and alternative, checked before anything is computed.
        std::vector<int> alternative;
        if (contrast) {
            const QStringList parts = line.split(u'\t');
            QString why;
            std::vector<int> target;
            if (line.trimmed().isEmpty()) {
                why = QStringLiteral("the line is empty; expected source<TAB>target<TAB>alternative");
            } else if (parts.size() != 3) {
                why = QStringLiteral("expected source<TAB>target<TAB>alternative, found %1 "
                                     "field(s)").arg(parts.size());
            } else {
                target = codec.encodeTarget(parts[1]).ids;
                alternative = codec.encodeTarget(parts[2]).ids;
                if (codec.encodeSource(parts[0]).ids.empty())
                    why = QStringLiteral("the source is empty");
                else if (target.empty() || alternative.empty())
                    why = QStringLiteral("the target or the alternative is empty");
                else if (target.size() != alternative.size())
                    why = QStringLiteral("the target has %1 tokens and the alternative %2; they "
                                         "must have the same number")
                              .arg(target.size()).arg(alternative.size());
                else if (target == alternative)
                    why = QStringLiteral("the target and the alternative are the same tokens: "
                                         "nothing to contrast");
            }
            if (!why.isEmpty()) {
                err << "attribute: line " << lineNo << ": " << why << "; skipped\n";
                err.flush();
                result = 1;
                continue;
            }
            line = parts[0] + u'\t' + parts[1];
        }
        const qsizetype tab = line.indexOf(u'\t');
        const as::EncodedSentence s = codec.encodeSource(tab < 0 ? line : line.left(tab));
        std::vector<int> src = s.ids;
        if (int(src.size()) > sourceLimit) {
            err << "attribute: line " << lineNo << ": the " << (only ? "prompt" : "source")
                << " has " << src.size() << " tokens; only the "
                << (only ? "last " : "first ") << sourceLimit << " are used\n";
            if (only)
                src.erase(src.begin(), src.end() - sourceLimit);
            else
                src.resize(std::size_t(sourceLimit));
        }
        const int targetLimit = only ? maxLen - 1 - int(src.size()) : maxLen;
        if (int(alternative.size()) > targetLimit)
            alternative.resize(std::size_t(targetLimit));
        std::vector<int> target;
        if (tab >= 0) {
            target = codec.encodeTarget(line.mid(tab + 1)).ids;
            if (int(target.size()) > targetLimit)
                target.resize(std::size_t(targetLimit));
        } else if (only) {
            target = as::greedyDecode(*b->model, src).nbest[0].tokens;
        } else if (!src.empty()) {
            as::DecodeOptions o;
            target = as::greedyDecode(*b->model, src, o.limitFor(int(src.size()), maxLen)).nbest[0].tokens;
        }
        const as::Attribution a = contrast ? as::attributeContrast(*b->model, src, target, alternative,
                                                                   *method, steps)
                                           : as::attribute(*b->model, src, target, *method, steps);
        QJsonArray scores;
        for (const std::vector<double>& row : a.scores) {
            QJsonArray r;
            for (double v : row)
                r.append(v);
            scores.append(r);
        }
        // Every source token a score column stands for, specials too (a Marian source ends
        // with </s>, core/SPEC.md §10.9).
        QStringList sourceTokens;
        for (int id : src)
            sourceTokens << sourceVocab.token(id);
        QJsonObject o{{"source_tokens", tokensJson(sourceTokens)},
                      {"output_tokens", tokensJson(b->tgtVocab.decode(target))},
                      {"method", as::attributionMethodName(*method)},
                      {"scores", scores}};
        if (contrast) {
            QJsonArray positions;
            for (int t : a.positions)
                positions.append(t);
            o.insert("contrast_positions", positions);  // row r of scores explains this position
            o.insert("alternative_tokens", tokensJson(b->tgtVocab.decode(alternative)));
        }
        if (*method == as::AttributionMethod::IntegratedGradients) {
            QJsonArray c;
            for (double v : a.completeness)
                c.append(v);
            o.insert("completeness", c);
            QJsonArray f, f0;
            for (std::size_t t = 0; t < a.f.size(); ++t) {
                f.append(a.f[t]);
                f0.append(a.fBaseline[t]);
            }
            o.insert("f", f);  // log p(y_t) (contrast: minus log p(y'_t)) at e, and at 0·e
            o.insert("f_baseline", f0);
            o.insert("steps", steps);
        }
        out << QJsonDocument(o).toJson(QJsonDocument::Compact) << "\n";
        out.flush();
    }
    return result;
}

}  // namespace as::cli
