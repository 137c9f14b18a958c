// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// attention-studio-cli bench --model MODEL: what a model a user opens costs here (issue 62):
// the open (a Hub folder such as GPT-2's, a model file or a checkpoint: seconds, and how much
// the peak resident memory grew during it: rss_open_mb; how much more is resident once it is
// open: rss_held_mb), one forward pass of --src-len tokens (the log-probabilities of a
// text, as eval and trace make them), and fine-tuning steps of --batch windows of --seq-len
// tokens (forward, backward and Adam: the engine's training step), medians of --runs runs. The
// windows are random ids of the model's vocabulary: the time of a step does not depend on them.
// A translator (an encoder-decoder: a Marian folder, issue 63): the forward pass reads a pair of
// --src-len source and target tokens; a sentence of 10 source tokens is translated into exactly
// --out-len tokens (10) greedily and by a beam of 4 (greedy_ms, beam4_ms: </s> held back, so that
// random weights give the length a real sentence has); a step trains --batch pairs of --seq-len
// source and --seq-len target tokens.
#include "commands.h"
#include "model_input.h"
#include "options.h"

#include "decode/decode.h"
#include "io/model_file.h"
#include "model/rng.h"
#include "model/transformer.h"
#include "train/batch.h"
#include "train/trainer.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <vector>

namespace as::cli {
namespace {

double benchModelSeconds(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

double benchModelRssMb()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_maxrss) / 1024.0;
}

// The resident set now (Linux: /proc/self/statm's second field, in pages); 0 elsewhere.
double benchModelRssNowMb()
{
    QFile f(QStringLiteral("/proc/self/statm"));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> fields = f.readAll().simplified().split(' ');
    return fields.size() > 1 ? fields[1].toDouble() * double(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0) : 0;
}

}  // namespace

int benchModel(Options& p, QTextStream& out, QTextStream& err)
{
    const QString path = p.value("model");
    const int runs = int(p.intOption("runs", 1, 1000, 5));
    const int steps = int(p.intOption("steps", 1, 100000, 3));
    const int forwardLen = int(p.intOption("src-len", 1, 100000, 64));
    const int batch = int(p.intOption("batch", 1, 4096, 1));
    const int seqLen = int(p.intOption("seq-len", 2, 100000, 1024));
    const int outLen = int(p.intOption("out-len", 1, 100000, 10));
    const int threads = p.threads();
    if (!p.ok())
        return 2;
    setMathThreads(threads, false);
    const double rssBefore = benchModelRssMb(), rssNowBefore = benchModelRssNowMb();
    const auto t0 = std::chrono::steady_clock::now();
    std::optional<ModelBundle> b = loadModelFile(path, QStringLiteral("bench"), err, ModelUse::Any);
    if (!b)
        return 1;
    const double openSeconds = benchModelSeconds(t0);
    const double rssOpen = benchModelRssMb(), rssHeld = benchModelRssNowMb() - rssNowBefore;
    const ModelConfig& c = b->config;
    const bool translator = !c.decoderOnly();
    if (forwardLen >= c.max_len || seqLen > c.max_len || (translator && outLen >= c.max_len)) {
        err << "bench: --src-len and --seq-len must fit the model's context of " << c.max_len
            << " positions\n";
        return 2;
    }
    Transformer<float>& model = *b->model;
    Rng rng(7);
    const auto randomIds = [&](int n) {
        std::vector<int> ids(static_cast<std::size_t>(n));
        for (int& id : ids)
            id = 4 + int(rng.below(std::uint64_t(c.tgt_vocab - 4)));
        return ids;
    };
    // The forward pass: log-probabilities of every position (no dropout); a translator's
    // encoder first.
    std::vector<double> forward;
    for (int r = 0; r < runs + 1; ++r) {
        const std::vector<int> ids = randomIds(forwardLen), src = randomIds(forwardLen);
        const auto s = std::chrono::steady_clock::now();
        if (translator) {
            model.encode(src.data(), 1, forwardLen, Pass::eval());
            model.decode(ids.data(), 1, forwardLen, model.memory(), model.sourceValid().data(), forwardLen,
                         Pass::eval());
        } else {
            model.decode(ids.data(), 1, forwardLen, Mat<float>(0, c.d_model), nullptr, 0, Pass::eval());
        }
        Mat<float> logp;
        model.allLogProbs(logp);
        if (r > 0)  // the first warms up
            forward.push_back(benchModelSeconds(s) * 1000);
    }
    // A translator translates a sentence of 10 tokens into outLen, greedily and by a beam of 4.
    std::vector<double> greedy, beam;
    for (int r = 0; translator && r < runs + 1; ++r) {
        const std::vector<int> src = randomIds(10);
        DecodeOptions o;
        o.maxLen = o.minLen = outLen;
        auto s = std::chrono::steady_clock::now();
        greedyDecode(model, src, o);
        if (r > 0)
            greedy.push_back(benchModelSeconds(s) * 1000);
        o.beam = 4;
        s = std::chrono::steady_clock::now();
        beamSearch(model, src, o);
        if (r > 0)
            beam.push_back(benchModelSeconds(s) * 1000);
    }
    // Fine-tuning steps: windows of seqLen tokens (seqLen - 1 predicted), dropout as configured;
    // a translator's, pairs of seqLen source tokens and seqLen target tokens (</s> the last).
    TrainOptions o;
    o.warmup = 100;
    Trainer trainer(std::move(b->model), o);
    std::vector<double> step;
    for (int r = 0; r < runs + 1; ++r) {
        std::vector<Batch> batches;
        for (int i = 0; i < steps; ++i) {
            std::vector<std::vector<int>> windows, sources;
            for (int w = 0; w < batch; ++w) {
                windows.push_back(randomIds(translator ? seqLen - 1 : seqLen));
                if (translator)
                    sources.push_back(randomIds(seqLen));
            }
            batches.push_back(translator ? makeBatch(sources, windows) : makeLmBatch(windows));
        }
        const auto s = std::chrono::steady_clock::now();
        for (const Batch& bt : batches)
            trainer.step(bt);
        if (r > 0)
            step.push_back(benchModelSeconds(s) * 1000 / steps);
    }
    const double stepMs = medianOf(step);
    const double tokens = double(batch) * (translator ? seqLen : seqLen - 1);
    QJsonObject j{{"impl", "attention-studio"},
                        {"bench", "model"},
                        {"model", path},
                        {"config", c.spec()},
                        {"parameters", double(trainer.model().params().size())},
                        {"threads", threads},
                        {"runs", runs},
                        {"open_s", openSeconds},
                        {"rss_open_mb", rssOpen - rssBefore},
                        {"rss_held_mb", rssHeld},
                        {"forward_tokens", forwardLen},
                        {"forward_ms", medianOf(forward)},
                        {"batch", batch},
                        {"seq_len", seqLen},
                        {"step_ms", stepMs},
                        {"tokens_per_s", tokens / (stepMs / 1000)},
                        {"peak_rss_mb", benchModelRssMb()}};
    if (translator) {
        j.insert("out_tokens", outLen);
        j.insert("greedy_ms", medianOf(greedy));
        j.insert("beam4_ms", medianOf(beam));
    }
    out << QJsonDocument(j).toJson(QJsonDocument::Compact) << "\n";
    return 0;
}

}  // namespace as::cli
