// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// attention-studio-cli generate: each line of standard input, a prompt, continued by a
// decoder-only model (core/SPEC.md §2.10): greedy, beam search or sampling (§5.6).
#include "commands.h"
#include "model_input.h"
#include "options.h"

#include "decode/decode.h"
#include "io/model_file.h"
#include "text/dataset.h"

#include <QTextStream>

namespace as::cli {

int runGenerate(const QStringList& args)
{
    QTextStream out(stdout), err(stderr), in(stdin);
    Options p(QStringLiteral("generate"),
              "Continue each line of standard input (a prompt; an empty line starts from <s> "
              "alone) with a decoder-only model, one line of output per line of input: the "
              "prompt and its continuation. Line n samples with seed S + n - 1.",
              err);
    p.add({"model", "Decoder-only model file (.safetensors; train --config …,arch=decoder-only).",
           "MODEL"});
    p.add({"beam", "Beam width (1 = greedy).", "K", "1"});
    p.addThreads("1");
    p.add({"max-len", "New tokens at most (default: 64, or 2 x the prompt's tokens + 10 when "
                      "more, within what the model's context max_len holds after the prompt).", "N"});
    p.add({"mask-heads", "Mask these attention heads: decoder.self:layer:head,… (0-based; * for "
                         "every head of a layer).", "SPEC"});
    addSamplingOptions(p);
    if (const std::optional<int> done = p.parse(args))
        return *done;
    const QString model = p.required("model");
    const int beam = int(p.intOption("beam", 1, kMaxBeam));
    const int threads = p.threads();
    const int maxLen = int(p.intOption("max-len", 1, 1000000, 0));
    const bool sampling = samplingAsked(p);
    const as::SamplingOptions sampled = samplingOptions(p, beam > 1 ? QStringLiteral("--beam is")
                                                                    : QString());
    if (!p.ok())
        return 2;
    int failed = 0;
    std::optional<as::ModelBundle> bundle = openModel(p, model, threads, err, &failed, true,
                                                      ModelUse::LanguageModel);
    if (!bundle)
        return failed;
    const as::ParallelData data = codecOf(*bundle);
    as::DecodeOptions o;
    o.beam = beam;
    o.maxLen = maxLen;
    forEachInputLine(in, err, p.command(), [&](const QString& line, long lineNo) {
        std::vector<int> prompt = data.encodeSource(line).ids;
        // The context holds <s>, the prompt and at least one new token: a longer prompt keeps
        // its end, and says so.
        const int room = bundle->config.max_len - 2;
        if (int(prompt.size()) > room) {
            err << "generate: line " << lineNo << " has " << prompt.size()
                << " tokens; the model's context (max_len " << bundle->config.max_len
                << ") continues its last " << room << "\n";
            err.flush();
            prompt.erase(prompt.begin(), prompt.end() - room);
        }
        const as::DecodeResult r = sampling ? as::sampleDecode(*bundle->model, prompt, o,
                                                               lineSampling(sampled, lineNo))
                                   : beam == 1 ? as::greedyDecode(*bundle->model, prompt, o)
                                               : as::beamSearch(*bundle->model, prompt, o);
        std::vector<int> text = prompt;
        text.insert(text.end(), r.nbest[0].tokens.begin(), r.nbest[0].tokens.end());
        out << data.decodeTarget(text) << "\n";
        out.flush();
    });
    return 0;
}

}  // namespace as::cli
