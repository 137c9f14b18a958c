// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// attention-studio-cli trace: one sentence pair followed through the model, every intermediate
// of the forward pass with its numbers (core/eval/trace.h), one JSON object per line of
// standard input.
#include "commands.h"
#include "model_input.h"
#include "options.h"

#include "decode/decode.h"
#include "eval/trace.h"
#include "io/model_file.h"
#include "text/dataset.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTextStream>

#include <charconv>
#include <cmath>
#include <set>

namespace as::cli {

namespace {

// Every id's token, specials included (<s> first in the decoder's input, </s> predicted).
QByteArray tokensJson(const Vocab& vocab, const std::vector<int>& ids)
{
    QJsonArray a;
    for (int id : ids)
        a.append(vocab.token(id));
    return QJsonDocument(a).toJson(QJsonDocument::Compact);
}

// {"shape":[…],"data":[…]}: each number as the shortest text of its float value,
// masked scores (and anything not finite) as null.
void appendTensor(QByteArray& o, const TraceTensor& t)
{
    o += "{\"shape\":[";
    for (std::size_t i = 0; i < t.shape.size(); ++i) {
        if (i)
            o += ',';
        o += QByteArray::number(t.shape[i]);
    }
    o += "],\"data\":[";
    for (std::size_t i = 0; i < t.data.size(); ++i) {
        if (i)
            o += ',';
        const double v = t.data[i];
        if ((!t.masked.empty() && t.masked[i]) || !std::isfinite(v))
            o += "null";
        else {
            // The shortest text that reads back as the same float (the model's type).
            char buf[32];
            const std::to_chars_result r = std::to_chars(buf, buf + sizeof buf, float(v));
            o.append(buf, r.ptr - buf);
        }
    }
    o += "]}";
}

QByteArray traceJson(const ForwardTrace& t, const ModelBundle& b)
{
    QByteArray o;
    o += "{\"source_tokens\":" + tokensJson(b.srcVocab, t.source);
    o += ",\"target_tokens\":" + tokensJson(b.tgtVocab, t.decoderInput);
    o += ",\"output_tokens\":" + tokensJson(b.tgtVocab, t.output);
    o += ",\"tensors\":{";
    for (std::size_t i = 0; i < t.tensors.size(); ++i) {
        if (i)
            o += ',';
        o += '"' + QByteArray::fromStdString(t.tensors[i].name) + "\":";
        appendTensor(o, t.tensors[i]);
    }
    o += "}}";
    return o;
}

}  // namespace

int runTrace(const QStringList& args)
{
    QTextStream out(stdout), err(stderr), in(stdin);
    Options p(
        QStringLiteral("trace"),
        "For each line of standard input, every intermediate of one forward pass (dropout off): "
        "a line 'source<TAB>target' is traced teacher-forced (the decoder's input is <s> and the "
        "target's tokens), a line 'source' with its greedy translation as the target. One JSON "
        "object per line: source_tokens, target_tokens (the decoder's input), output_tokens (the "
        "generator's argmax at each position) and tensors: name -> {shape, data (row-major; "
        "masked scores null)}. Names: encoder.embed, encoder.input, encoder.L.self.{q,k,v,scores,"
        "weights,context,out,residual}, encoder.L.ff.{hidden,out}, encoder.L.out, encoder.out, "
        "the decoder's likewise with self and cross, decoder.out, logits, log_probs, lens.L. "
        "A decoder-only model (core/SPEC.md §2.10) reads each line as its text, traced as "
        "<s> text: no source, no encoder.* and no cross tensors.",
        err);
    p.add({"model", "Model file (.safetensors) or checkpoint.", "MODEL"});
    p.add({"only", "Only these tensors: names or prefixes ending at a dot-separated part "
                   "(encoder.0 is every tensor of encoder layer 0), comma-separated.",
           "NAME,…"});
    p.add({"mask-heads", "Mask these heads first: kind:layer:head,…", "SPEC"});
    p.add({"json", "JSON lines (the only output format; accepted for symmetry)."});
    p.addThreads("0");
    if (const std::optional<int> done = p.parse(args))
        return *done;
    const QString model = p.required("model");
    const int threads = p.threads();
    if (!p.ok())
        return 2;
    int failed = 0;
    std::optional<as::ModelBundle> b = openModel(p, model, threads, err, &failed, true,
                                                 ModelUse::Any);
    if (!b)
        return failed;
    const bool decoderOnly = b->config.decoderOnly();
    std::vector<std::string> only;
    if (p.isSet("only")) {
        const std::vector<std::string> names = traceTensorNames(b->config);
        for (const QString& s : p.value("only").split(u',')) {
            const std::string name = s.trimmed().toStdString();
            bool any = false;
            for (const std::string& n : names)
                any = any || traceNameSelected(n, {name});
            if (!any) {
                p.refuse(QStringLiteral("--only: no tensor is called or starts with '%1' (names: "
                                        "encoder.embed, encoder.0.self.q, …, lens.%2)")
                             .arg(s.trimmed())
                             .arg(b->config.decoder_layers - 1));
                return 2;
            }
            only.push_back(name);
        }
    }
    const as::ParallelData codec = codecOf(*b);
    const int maxLen = b->config.max_len;
    int exitCode = 0;
    QString line;
    for (long lineNo = 1; in.readLineInto(&line); ++lineNo) {
        auto bad = [&](const QString& why) {
            err << "trace: line " << lineNo << ": " << why
                << " (expected 'source' or 'source<TAB>target'); nothing written for it\n";
            exitCode = 1;
        };
        if (line.trimmed().isEmpty()) {
            bad(QStringLiteral("the line is empty"));
            continue;
        }
        const qsizetype tab = line.indexOf(u'\t');
        if (tab >= 0 && line.indexOf(u'\t', tab + 1) >= 0) {
            bad(QStringLiteral("more than one tab"));
            continue;
        }
        if (decoderOnly) {
            // The text itself, teacher-forced: what the model expects after each of its tokens.
            if (tab >= 0) {
                err << "trace: line " << lineNo << ": a decoder-only model reads one text a line, "
                    << "not source<TAB>target; nothing written for it\n";
                exitCode = 1;
                continue;
            }
            std::vector<int> text = codec.encodeTarget(line).ids;
            if (int(text.size()) + 1 > maxLen) {
                err << "trace: line " << lineNo << ": the text has " << text.size()
                    << " tokens; only the first " << maxLen - 1 << " are used\n";
                text.resize(std::size_t(maxLen - 1));
            }
            out << traceJson(traceForward(*b->model, {}, text, only), *b) << "\n";
            out.flush();
            continue;
        }
        std::vector<int> src = codec.encodeSource(tab < 0 ? line : line.left(tab)).ids;
        if (src.empty()) {
            bad(QStringLiteral("the source has no tokens"));
            continue;
        }
        if (int(src.size()) > maxLen) {
            err << "trace: line " << lineNo << ": the source has " << src.size()
                << " tokens; only the first " << maxLen << " are used\n";
            src.resize(std::size_t(maxLen));
        }
        std::vector<int> target;
        if (tab >= 0) {
            target = codec.encodeTarget(line.mid(tab + 1)).ids;
            if (int(target.size()) > maxLen) {
                err << "trace: line " << lineNo << ": the target has " << target.size()
                    << " tokens; only the first " << maxLen << " are used\n";
                target.resize(std::size_t(maxLen));
            }
        } else {
            as::DecodeOptions o;
            target = as::greedyDecode(*b->model, src, o.limitFor(int(src.size()), maxLen))
                         .nbest[0]
                         .tokens;
        }
        const ForwardTrace t = traceForward(*b->model, src, target, only);
        out << traceJson(t, *b) << "\n";
        out.flush();
    }
    return exitCode;
}

}  // namespace as::cli
