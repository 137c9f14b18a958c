// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// attention-studio-cli heads: every attention head of a model scored on a corpus
// (core/eval/interpret.h), as a table or JSON.
#include "commands.h"
#include "corpus_input.h"
#include "model_input.h"
#include "options.h"

#include "decode/decode.h"
#include "eval/induction.h"
#include "eval/interpret.h"
#include "io/model_file.h"
#include "model/parallel.h"
#include "text/bundled_corpus.h"

#include <QElapsedTimer>

#include <cmath>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>

namespace as::cli {

namespace {

// heads --induction: the probe (core/SPEC.md §13) through the model, masks applied.
int runInductionHeads(Options& p, const QString& model, QTextStream& out, QTextStream& err)
{
    if (p.isSet("data") || p.isSet("task")) {
        p.refuse(QStringLiteral("--induction runs its own probe: no --data or --task"));
        return 2;
    }
    const int threads = p.threads();
    if (!p.ok())
        return 2;
    int failed = 0;
    std::optional<as::ModelBundle> b = openModel(p, model, threads, err, &failed, true, ModelUse::Any);
    if (!b)
        return failed;
    if (!b->config.decoderOnly()) {
        err << "heads: --induction is for a decoder-only model (core/SPEC.md §13); '" << model
            << "' is a translator (encoder-decoder)\n";
        return 2;
    }
    if (b->config.tgt_vocab < as::kInductionMinVocab) {
        err << "heads: '" << model << "' has fewer than two tokens besides the specials: nothing to repeat\n";
        return 2;
    }
    QElapsedTimer clock;
    clock.start();
    as::InductionRecord r = as::measureInduction(*b->model, as::makeInductionProbe(b->config.tgt_vocab));
    const double seconds = double(clock.elapsed()) / 1000.0;
    if (p.isSet("json")) {
        QJsonObject o = as::inductionJson(r);
        o.remove("step");
        o.insert("seconds", seconds);
        out << QJsonDocument(o).toJson(QJsonDocument::Compact) << "\n";
        return 0;
    }
    out << as::kInductionProbeRows << " probe rows of repeated random tokens (" << QString::number(seconds, 'f', 2)
        << " s): later copies' loss " << QString::number(r.laterCopyLoss, 'f', 3) << " nats against "
        << QString::number(r.firstCopyLoss, 'f', 3) << " in first copies; in-context score "
        << QString::number(r.inContextScore, 'f', 3) << "\n"
        << "head                 induction  prev-token  duplicate  copying\n";
    for (int i = 0; i < r.layers * r.heads; ++i) {
        const std::size_t k = std::size_t(i);
        out << QStringLiteral("%1 %2 %3 %4 %5\n")
                   .arg(as::headSpec({as::HeadId{as::AttentionKind::DecoderSelf, i / r.heads, i % r.heads}}), -20)
                   .arg(r.induction[k], 9, 'f', 4)
                   .arg(r.previous[k], 11, 'f', 4)
                   .arg(r.duplicate[k], 10, 'f', 4)
                   .arg(std::isfinite(r.copying[k]) ? QString::number(r.copying[k], 'f', 4) : QStringLiteral("—"), 8);
    }
    const int n = r.layers * r.heads;
    if (r.layers > 1) {
        out << "K-composition (reader ← writer; random matrices of these shapes: "
            << QString::number(r.compositionBaseline, 'f', 4) << "):\n";
        for (int later = 0; later < n; ++later)
            for (int earlier = 0; earlier < n; ++earlier) {
                const double c = r.composition[std::size_t(later) * std::size_t(n) + std::size_t(earlier)];
                if (std::isfinite(c))
                    out << "  " << as::headSpec({as::HeadId{as::AttentionKind::DecoderSelf, later / r.heads, later % r.heads}})
                        << " ← " << as::headSpec({as::HeadId{as::AttentionKind::DecoderSelf, earlier / r.heads, earlier % r.heads}})
                        << "  " << QString::number(c, 'f', 4) << "\n";
            }
    }
    return 0;
}

}  // namespace

int runHeads(const QStringList& args)
{
    QTextStream out(stdout), err(stderr);
    Options p(
        QStringLiteral("heads"),
        "Score every attention head of a model on a corpus (teacher-forced, dropout off): "
        "importance (mean over pairs of |dL/dξ|, Michel et al. 2019), ΔNLL (the mean token NLL "
        "with that head alone masked, minus the unmasked one), confidence (mean largest "
        "attention weight, Voita et al. 2019) and entropy (nats). Layers and heads are "
        "numbered from 0 (the JSON's \"layer\" and \"head\", the table, --mask-heads); the "
        "window numbers them from 1.",
        err);
    p.add({"model", "Model file (.safetensors) or checkpoint.", "MODEL"});
    p.add({"data", "Corpus: source<TAB>target per line (or an Anki file); for a decoder-only "
                   "model one sentence per line.", "D.tsv"});
    p.add({"task", "Instead of --data: a corpus that ships with the program (zh-en), its "
                   "--split; for a decoder-only model lm-en or lm-zh, that corpus's English or "
                   "Chinese side.", "name"},
          as::bundledCorpusNames() + QStringList{QStringLiteral("lm-en"), QStringLiteral("lm-zh")});
    p.add({"split", "With --task: test or valid.", "part", "test"}, {"test", "valid"});
    p.add({"max-sentences", "Use the first N pairs (sentences).", "N", "500"});
    p.add({"mask-heads", "Keep these heads masked throughout: kind:layer:head,… (kind "
                         "encoder.self, decoder.self or decoder.cross, 0-based; * for every head "
                         "of a layer).", "SPEC"});
    p.add({"no-delta", "Leave out ΔNLL (one pass over the data per head)."});
    p.add({"induction", "Instead of a corpus: the induction-head scores of a decoder-only model "
                        "on its probe of repeated random tokens (core/SPEC.md §13): per head "
                        "induction, previous-token and duplicate-token attention and copying "
                        "(direct logit attribution), the K-composition of every later head with "
                        "every earlier one beside its random baseline, and the probe's losses."});
    p.add({"json", "Print one JSON object."});
    p.addThreads("0");
    if (const std::optional<int> done = p.parse(args))
        return *done;
    const QString model = p.required("model");
    if (p.isSet("induction"))
        return runInductionHeads(p, model, out, err);
    if (p.isSet("data") == p.isSet("task"))
        p.refuse(QStringLiteral("give one of --data D.tsv or --task NAME"));
    const QString part = p.value("split");
    if (p.isSet("task") && part != "test" && part != "valid")
        p.refuse(QStringLiteral("--split must be test or valid, not '%1'").arg(part));
    const int maxSentences = int(p.intOption("max-sentences", 1, 1000000000));
    const int threads = p.threads();
    if (!p.ok())
        return 2;
    int failed = 0;
    std::optional<as::ModelBundle> b = openModel(p, model, threads, err, &failed, false,
                                                 ModelUse::Any);
    if (!b)
        return failed;
    const QString task = p.isSet("task") ? p.value("task") : QString();
    const bool languageModelText = task == QLatin1String("lm-en") || task == QLatin1String("lm-zh");
    if (!task.isEmpty() && languageModelText != b->config.decoderOnly()) {
        err << "heads: --task " << task << " is "
            << (languageModelText ? "a language model's text" : "a translation corpus") << "; '"
            << model << "' is "
            << (b->config.decoderOnly() ? "a decoder-only model: score it on --task lm-en or "
                                          "lm-zh, or --data (one sentence per line)"
                                        : "a translator (encoder-decoder): score it on --task "
                                          "zh-en or --data")
            << "\n";
        return 2;
    }
    const std::optional<std::vector<as::HeadId>> maskedOrNot = maskedHeads(p, b->config);
    if (!maskedOrNot)
        return 2;
    const std::vector<as::HeadId>& masked = *maskedOrNot;
    const as::ParallelData codec = codecOf(*b);
    // A decoder-only model's sentences, <s> sentence </s> each (core/SPEC.md §2.10); a
    // translator's pairs.
    std::vector<as::EncodedPair> encoded;
    if (b->config.decoderOnly()) {
        std::optional<QStringList> sentences =
            languageModelSentences(p.command(), task, part, p.value("data"), err);
        if (!sentences)
            return task.isEmpty() ? 1 : 2;
        int skipped = 0;
        encoded = encodeLanguageModelText(codec, b->config.max_len, sentences->mid(0, maxSentences),
                                          &skipped);
        if (skipped > 0)
            err << "heads: " << skipped << " sentence(s) without a token or longer than the "
                << "model's context (max_len " << b->config.max_len << ") left out\n";
    } else {
        std::optional<QList<as::SentencePair>> pairs;
        if (task.isEmpty()) {
            pairs = readPairs(p.value("data"), err);
        } else {
            QString error;
            const std::optional<as::BundledCorpus> corpus = as::loadBundledCorpus(task, &error);
            if (!corpus) {
                err << "heads: " << error << "\n";
                return 2;
            }
            pairs = part == "test" ? corpus->split.test : corpus->split.valid;
        }
        if (!pairs)
            return 1;
        encoded = codec.encode(pairs->mid(0, maxSentences)).pairs;
    }
    if (encoded.empty()) {
        err << "heads: no sentence to score\n";
        return 1;
    }
    QElapsedTimer clock;
    clock.start();
    const as::HeadReport r = as::scoreHeads(*b->model, encoded, masked, !p.isSet("no-delta"));
    const double seconds = double(clock.elapsed()) / 1000.0;
    if (p.isSet("json")) {
        QJsonArray heads;
        for (const as::HeadScore& s : r.heads) {
            QJsonObject o{{"kind", as::attentionKindName(s.id.kind)},
                          {"layer", s.id.layer},
                          {"head", s.id.head},
                          {"importance", s.importance},
                          {"confidence", s.confidence},
                          {"entropy", s.entropy}};
            if (!p.isSet("no-delta"))
                o.insert("delta_nll", s.deltaNll);
            heads.append(o);
        }
        out << QJsonDocument(QJsonObject{{"nll", r.nll},
                                         {"pairs", r.pairs},
                                         {"tokens", double(r.tokens)},
                                         {"masked", as::headSpec(masked)},
                                         {"seconds", seconds},
                                         {"heads", heads}})
                   .toJson(QJsonDocument::Compact)
            << "\n";
        return 0;
    }
    out << r.pairs << (b->config.decoderOnly() ? " sentences, " : " pairs, ") << r.tokens
        << (b->config.decoderOnly() ? " tokens, NLL " : " target tokens, NLL ") << QString::number(r.nll, 'f', 4)
        << " (" << QString::number(seconds, 'f', 2) << " s)\n"
        << "head                     importance   ΔNLL     confidence  entropy\n";
    for (const as::HeadScore& s : r.heads)
        out << QStringLiteral("%1 %2 %3 %4 %5\n")
                   .arg(QStringLiteral("%1:%2:%3").arg(as::attentionKindName(s.id.kind)).arg(s.id.layer).arg(s.id.head), -24)
                   .arg(s.importance, 10, 'f', 4)
                   .arg(p.isSet("no-delta") ? QStringLiteral("—") : QString::number(s.deltaNll, 'f', 4), 8)
                   .arg(s.confidence, 10, 'f', 4)
                   .arg(s.entropy, 9, 'f', 4);
    return 0;
}

}  // namespace as::cli
