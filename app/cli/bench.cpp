// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// attention-studio-cli bench --config tiny|small|base: training steps of the benchmark
// configurations of core/SPEC.md §7.3 on random ids, one JSON line.
#include "commands.h"
#include "model_input.h"
#include "options.h"

#include "decode/decode.h"
#include "eval/trace.h"
#include "model/bf16.h"
#include "model/gemm.h"
#include "model/gemm_replay.h"
#include "model/gemm_tuning.h"
#include "model/peak.h"
#include "train/product_tuning.h"
#include "model/parallel.h"
#include "model/rng.h"
#include "train/profile.h"
#include "train/trainer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <ctime>
#include <numeric>
#include <optional>
#include <QTextStream>
#include <QThread>

#include <Eigen/Core>

#include <algorithm>
#include <chrono>
#include <vector>

#include <sys/resource.h>

namespace as::cli {

double medianOf(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

namespace {

// --runs and --steps take at most this many.
constexpr int kMaxRuns = 1000000;

struct BenchShape {
    int batch, srcLen, tgtLen, srcVocab, tgtVocab;
};

// Matmul FLOPs of one training step (forward + backward = 3 x forward), as torch_ref.py counts:
// srcLen and tgtLen tokens (the decoder's </s> or <s> position not counted, as there).
double stepFlops(const as::ModelConfig& c, const BenchShape& s)
{
    return as::trainingStepFlops(c, s.batch, s.srcLen, s.tgtLen);
}

// bench --profile's breakdown of `t` (train/profile.h): per category its time, share of the
// steps' wall time and, for products, calls, FLOPs and rate.
QJsonObject profileJson(const as::ProfileTotals& t)
{
    const double steps = std::max(1L, t.steps);
    QJsonObject categories;
    for (int i = 0; i < as::kProfileCategories; ++i) {
        const auto c = as::ProfileCategory(i);
        const double s = t.seconds[std::size_t(i)];
        QJsonObject o{{"ms", s * 1e3},
                      {"ms_per_step", s * 1e3 / steps},
                      {"percent", t.wallSeconds > 0 ? 100.0 * s / t.wallSeconds : 0.0},
                      {"regions_per_step", double(t.regions[std::size_t(i)]) / steps},
                      {"wait_ms_per_step", t.waitSeconds[std::size_t(i)] * 1e3 / steps}};
        if (as::isGemmCategory(c)) {
            const double flops = t.flops[std::size_t(i)];
            o.insert("calls_per_step", double(t.calls[std::size_t(i)]) / steps);
            o.insert("gflop_per_step", flops / steps / 1e9);
            o.insert("gflop_per_s", s > 0 ? flops / s / 1e9 : 0.0);
        }
        categories.insert(QLatin1String(as::profileCategoryKey(c)), o);
    }
    double gemmSeconds = 0, gemmFlops = 0;
    for (int i = 0; i < as::kProfileCategories; ++i)
        if (as::isGemmCategory(as::ProfileCategory(i))) {
            gemmSeconds += t.seconds[std::size_t(i)];
            gemmFlops += t.flops[std::size_t(i)];
        }
    return QJsonObject{{"steps", double(t.steps)},
                       {"step_ms", t.wallSeconds * 1e3 / steps},
                       {"coverage_percent", 100.0 * t.coverage()},
                       {"gemm_percent", t.wallSeconds > 0 ? 100.0 * gemmSeconds / t.wallSeconds : 0.0},
                       {"gemm_gflop_per_step", gemmFlops / steps / 1e9},
                       {"gemm_gflop_per_s", gemmSeconds > 0 ? gemmFlops / gemmSeconds / 1e9 : 0.0},
                       {"categories", categories}};
}

// Peak resident set of this process so far, in MiB (Linux reports ru_maxrss in KiB).
double peakRssMb()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_maxrss) / 1024.0;
}

// --precision's choice, or nothing (said on err) where this machine cannot run it.
std::optional<as::GemmPrecision> precisionOption(const Options& p, QTextStream& err)
{
    const bool bf16 = p.value("precision") == QLatin1String("bf16");
    const as::GemmPrecision precision = bf16 ? as::GemmPrecision::BFloat16 : as::GemmPrecision::Float32;
    if (QString why; !as::gemmPrecisionAvailable(precision, &why)) {
        err << "bench: --precision bf16 cannot run here: " << why << "\n";
        return std::nullopt;
    }
    return precision;
}

// Greedy and beam-5 latency of one srcLen-token sentence on `small` with random weights, and
// beam 5 recording its search tree (core/SPEC.md §5.5). Random weights would stop at an
// arbitrary step (or never), so </s> is suppressed and every run decodes exactly outLen
// tokens: the time per sentence is then a fixed amount of work. Under --precision bf16 the
// layers' products run in bfloat16 (what decoding would gain from them: the engine itself
// decodes in float32, core/SPEC.md §2.14).
int benchDecode(QTextStream& out, int runs, int outLen, int srcLen, as::GemmPrecision precision)
{
    const as::GemmPrecisionScope inPrecision(precision);
    as::ModelConfig cfg = *as::ModelConfig::preset("small");
    cfg.src_vocab = 3000;
    cfg.tgt_vocab = 5000;
    as::Transformer<float> model(cfg);
    as::Rng rng(1);
    model.initXavier(rng);
    std::vector<int> src;
    for (int i = 0; i < srcLen; ++i)
        src.push_back(4 + int(rng.below(cfg.src_vocab - 4)));
    QJsonObject o{{"impl", "attention-studio"}, {"decode", "small"}, {"src_tokens", srcLen},
                  {"gemm_backend", as::gemmBackend()}, {"precision", as::gemmPrecisionName(precision)},
                  {"out_tokens", outLen}, {"runs", runs}, {"threads", as::engineThreads()}};
    for (const bool cached : {true, false}) {
        as::DecodeOptions opt;
        opt.maxLen = opt.minLen = outLen;
        opt.cached = cached;
        std::vector<double> greedy, beam, tree;
        for (int r = 0; r < runs + 2; ++r) {  // the first two warm up
            auto t0 = std::chrono::steady_clock::now();
            const as::DecodeResult g = as::greedyDecode(model, src, opt);
            auto t1 = std::chrono::steady_clock::now();
            as::DecodeOptions b = opt;
            b.beam = 5;
            const as::DecodeResult bs = as::beamSearch(model, src, b);
            auto t2 = std::chrono::steady_clock::now();
            b.tree = true;
            const as::DecodeResult bt = as::beamSearch(model, src, b);
            auto t3 = std::chrono::steady_clock::now();
            if (int(g.nbest.at(0).tokens.size()) != outLen
                || int(bs.nbest.at(0).tokens.size()) != outLen || bt.tree.nodes.empty())
                return 1;  // the fixed length is what makes the timing meaningful
            if (r < 2)
                continue;
            greedy.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
            beam.push_back(std::chrono::duration<double, std::milli>(t2 - t1).count());
            tree.push_back(std::chrono::duration<double, std::milli>(t3 - t2).count());
        }
        const QString prefix = cached ? QString() : QStringLiteral("plain_");
        o.insert(prefix + "greedy_ms", medianOf(greedy));
        o.insert(prefix + "beam5_ms", medianOf(beam));
        o.insert(prefix + "beam5_tree_ms", medianOf(tree));
    }
    // One traced pass (eval/trace.h) of the sentence with an outLen-token target: every tensor
    // (`trace`, the Decoding view's passes) and all but the logit lens (the Model view's).
    std::vector<int> tgt;
    for (int i = 0; i < outLen; ++i)
        tgt.push_back(4 + int(rng.below(cfg.tgt_vocab - 4)));
    const std::vector<std::string> withoutLens = as::traceNamesWithoutLens(cfg);
    std::vector<double> full, modelView;
    for (int r = 0; r < runs + 2; ++r) {
        auto t0 = std::chrono::steady_clock::now();
        const as::ForwardTrace a = as::traceForward(model, src, tgt);
        auto t1 = std::chrono::steady_clock::now();
        const as::ForwardTrace b = as::traceForward(model, src, tgt, withoutLens);
        auto t2 = std::chrono::steady_clock::now();
        if (a.tensors.size() <= b.tensors.size())
            return 1;
        if (r < 2)
            continue;
        full.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
        modelView.push_back(std::chrono::duration<double, std::milli>(t2 - t1).count());
    }
    o.insert("trace_ms", medianOf(full));
    o.insert("trace_without_lens_ms", medianOf(modelView));
    o.insert("peak_rss_mb", peakRssMb());
    out << QJsonDocument(o).toJson(QJsonDocument::Compact) << "\n";
    return 0;
}

}  // namespace

int runBench(const QStringList& args)
{
    QTextStream out(stdout), err(stderr);
    Options p(QStringLiteral("bench"), "Time training steps of a benchmark configuration (core/SPEC.md §7.3).", err);
    p.add({"config", "tiny, small or base, optionally with keys after it (core/SPEC.md §7.2), "
                     "e.g. small,arch=decoder-only.", "name", "small"},
          as::ModelConfig::presetNames());
    p.add({"steps", "Timed steps (after 3 warm-up steps).", "N", "10"});
    p.addThreads("2");
    p.add({"gemm", "Instead: the single-precision GEMM rate (2048 x 2048), the "
                   "practical limit of the machine; the bfloat16 product's where the CPU has "
                   "the units; and the arithmetic peak of the threads in each (FMAs and "
                   "bfloat16 dot products alone), the ceiling they are read against."});
    p.add({"decode", "Instead: greedy, beam-5 and beam-5-with-its-tree latency, and one traced pass with and without the logit lens (median ms) "
                     "of a --src-len-token sentence on `small` with random weights, exactly "
                     "--out-len output tokens (</s> suppressed), cached and plain decoding."});
    p.add({"out-len", "Output tokens for --decode, and for a translator's translations with --model.", "N", "10"});
    p.add({"src-len", "Source tokens for --decode; with --model, the forward pass's tokens (64).", "N", "10"});
    p.add({"runs", "Timed runs for --decode (20 if not given), --heads (3), --induction (5) and --profile (3).", "N"});
    p.add({"heads", "Instead: the speed of questioning MODEL (scoring heads with and "
                    "without ΔNLL, integrated gradients, a mute and re-translation, the "
                    "pruning curve) on --data.", "MODEL"});
    p.add({"induction", "Instead: what measuring induction heads costs (core/SPEC.md §13): the "
                        "repeat task's recipe, its training step against one validation's "
                        "probe, medians of --runs runs of --steps steps, and the probe's share "
                        "of the training between validations."});
    p.add({"model", "Instead: what MODEL costs here (a Hub folder such as GPT-2's or a Marian "
                    "translator's, a model file or a checkpoint): the open, a forward pass of "
                    "--src-len tokens (64 if not given) and fine-tuning steps (forward, backward, "
                    "Adam) of --batch windows of --seq-len tokens (a translator: --batch pairs of "
                    "--seq-len source and target tokens, and a 10-token sentence translated into "
                    "--out-len tokens, greedily and by a beam of 4), medians of --runs runs of "
                    "--steps steps.",
           "MODEL"});
    p.add({"batch", "With --model: windows (a translator: sentence pairs) per fine-tuning step.", "N", "1"});
    p.add({"seq-len", "With --model: tokens per window (a translator: per side of a pair).", "N", "1024"});
    p.add({"data", "With --heads: the pairs (source<TAB>target); for a decoder-only model its "
                   "sentences, one per line.", "D.tsv"});
    p.add({"max-sentences", "With --heads: use the first N pairs.", "N", "500"});
    p.add({"ig-tokens", "With --heads: source length of the sentence explained.", "N", "15"});
    p.add({"health", "Record training health as the window does: every step each tensor's "
                     "norms and update ratio, and every --histogram-every steps "
                     "histograms of its weights and gradients."});
    p.add({"histogram-every", "Steps between histograms with --health (0 = none).", "N", "20"});
    p.add({"profile", "Where the training step's time goes: per category (the products by layer "
                      "kind, softmax, LayerNorm, dropout, embedding, loss, Adam, thread waits, "
                      "other) its ms per step, share of the step and, for products, FLOPs and "
                      "GFLOP/s; per category also the parallel regions it starts and the thread "
                      "wait in them; --runs runs of --steps steps, each with its own breakdown."});
    p.add({"retune", "First measure which library computes each kind of product fastest here "
                     "(OpenBLAS, oneDNN when installed, Eigen): one step of --config recorded "
                     "and its products run again per kind with each, the fastest kept and "
                     "remembered for this CPU and thread count (gemm-tuning.json in the cache "
                     "folder), which the window and train then use; the JSON gains what it "
                     "measured."});
    p.add({"gemm-library", "Compute every product with this library: openblas, onednn or eigen; "
                           "tuned (the default) takes the tuning stored for this CPU, else "
                           "OpenBLAS.", "name", "tuned"},
          {"tuned", "openblas", "onednn", "eigen"});
    p.add({"precision", "The layers' products in float32 (the default) or bfloat16: inputs rounded "
                        "to bfloat16, float32 sums (core/SPEC.md §2.14), where the CPU has bfloat16 "
                        "units; with --decode, in decoding and the traced pass too.", "name", "float32"},
          {"float32", "bf16"});
    p.add({"products-alone", "Also: one step's large products recorded and run again --steps "
                             "times with nothing else around them (the same shapes and split "
                             "over the threads, no waits): the fastest the step could be if "
                             "everything but those products cost nothing."});
    if (const std::optional<int> done = p.parse(args))
        return *done;
    if (p.isSet("heads"))
        return benchHeads(p, out, err);
    if (p.isSet("induction"))
        return benchInduction(p, out, err);
    if (p.isSet("model"))
        return benchModel(p, out, err);
    if (p.isSet("decode")) {
        const int threads = p.threads();
        const int outLen = int(p.intOption("out-len", 1, 200));
        const int srcLen = int(p.intOption("src-len", 1, 200));
        const int runs = int(p.intOption("runs", 1, kMaxRuns, 20));
        if (!p.ok())
            return 2;
        const std::optional<as::GemmPrecision> precision = precisionOption(p, err);
        if (!precision)
            return 1;
        setMathThreads(threads, false);
        return benchDecode(out, runs, outLen, srcLen, *precision);
    }
    if (p.isSet("gemm")) {
        const int threads = p.threads();
        if (!p.ok())
            return 2;
        setMathThreads(threads, false);
        const int n = 2048;
        const as::Mat<float> a = as::Mat<float>::Random(n, n), b = as::Mat<float>::Random(n, n);
        as::Mat<float> c(n, n);
        // The median seconds of 6 runs after one to warm up; row blocks of C per thread, the
        // split the engine's products use.
        const auto time = [&](auto product) {
            std::vector<double> times;
            for (int rep = 0; rep < 7; ++rep) {
                const auto t0 = std::chrono::steady_clock::now();
                as::parallelFor(n, 64, [&](long from, long to) { product(from, to); });
                times.push_back(
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
            }
            std::sort(times.begin() + 1, times.end());
            return times[1 + (times.size() - 1) / 2];
        };
        const double median = time([&](long from, long to) {
            as::gemm<float>(a.middleRows(from, to - from), false, b, false,
                            c.middleRows(from, to - from), false);
        });
        const double eigen = time([&](long from, long to) {
            as::gemmEigen<float>(a.middleRows(from, to - from), false, b, false,
                                 c.middleRows(from, to - from), false);
        });
        const double flop = 2.0 * n * n * n;
        QJsonObject o{{"impl", "attention-studio"}, {"gemm", n}, {"seconds", median},
                      {"gflop_per_s", flop / median / 1e9}, {"gemm_backend", as::gemmBackend()},
                      {"simd", QString::fromLatin1(Eigen::SimdInstructionSetsInUse())},
                      {"eigen_gflop_per_s", flop / eigen / 1e9}, {"threads", as::engineThreads()}};
        // bfloat16's product (model/bf16.h) the same way, where the CPU has the units; its
        // rounding of the inputs is part of its time.
        if (const QString why = as::bf16Unavailable(); why.isEmpty()) {
            QString error;
            const double bf16 = time([&](long from, long to) {
                if (!as::gemmBf16(false, false, int(to - from), n, n, a.data() + from * n, n, b.data(), n, 0.0f,
                                  c.data() + from * n, n, &error))
                    throw std::runtime_error(error.toStdString());
            });
            o.insert("bf16_gflop_per_s", flop / bf16 / 1e9);
            o.insert("bf16_units", as::cpuBf16Units().names());
            o.insert("bf16_kernel", QString::fromLatin1(as::bf16KernelName(as::bf16Kernel())));
        } else {
            o.insert("bf16_unavailable", why);
        }
        // The ceiling both rates are read against: the threads' arithmetic alone (model/peak.h).
        const as::PeakRates peak = as::measurePeakRates();
        o.insert("peak_gflop_per_s", peak.float32);
        o.insert("peak_vectors", QString::fromLatin1(peak.float32Vectors));
        if (peak.bf16 > 0)
            o.insert("peak_bf16_gflop_per_s", peak.bf16);
        out << QJsonDocument(o).toJson(QJsonDocument::Compact) << "\n";
        return 0;
    }
    // A benchmark configuration (core/SPEC.md §7.3), e.g. "small", or one with keys after it
    // ("small,arch=decoder-only": the same widths as a language model, §2.10).
    const QString name = p.value("config");
    const QString preset = name.section(u',', 0, 0).trimmed();
    QString why;
    std::optional<as::ModelConfig> cfg;
    if (as::ModelConfig::presetNames().contains(preset))
        cfg = as::ModelConfig::fromSpec(name, &why, {});
    if (!cfg)
        p.refuse(QStringLiteral("--config must be tiny, small or base, with keys after it if "
                                "any (e.g. small,arch=decoder-only), not '%1'%2")
                     .arg(name, why.isEmpty() ? QString() : QStringLiteral(": ") + why));
    const int steps = int(p.intOption("steps", 1, kMaxRuns));
    const int threads = p.threads();
    const int histogramEvery = int(p.intOption("histogram-every", 0, kMaxRuns));
    const bool profile = p.isSet("profile");
    const int runs = profile ? int(p.intOption("runs", 1, kMaxRuns, 3)) : 1;
    if (!p.ok())
        return 2;
    const bool health = p.isSet("health");
    const bool productsAlone = p.isSet("products-alone");
    const QString libraryName = p.value("gemm-library");
    as::GemmLibrary library = as::GemmLibrary::OpenBlas;
    if (libraryName != QLatin1String("tuned")) {
        if (!as::gemmLibraryFromName(libraryName.toLatin1().constData(), &library))
            p.refuse(QStringLiteral("--gemm-library must be tuned, openblas, onednn or eigen, not '%1'").arg(libraryName));
        else if (!as::gemmLibraryLoaded(library))
            p.refuse(QStringLiteral("--gemm-library %1: the library is not installed here").arg(libraryName));
        if (p.isSet("retune"))
            p.refuse(QStringLiteral("--retune chooses the libraries itself: leave out --gemm-library"));
    }
    const bool bf16 = p.value("precision") == QLatin1String("bf16");
    if (bf16 && (p.isSet("retune") || p.isSet("products-alone")))
        p.refuse(QStringLiteral("--precision bf16 times the training step: leave out --retune and --products-alone"));
    if (!p.ok())
        return 2;
    const std::optional<as::GemmPrecision> chosen = precisionOption(p, err);
    if (!chosen)
        return 1;
    const as::GemmPrecision precision = *chosen;
    const BenchShape shape = preset == "base" ? BenchShape{32, 16, 16, 3000, 5000}
                                            : BenchShape{64, 12, 12, 3000, 5000};
    cfg->tgt_vocab = shape.tgtVocab;
    cfg->src_vocab = cfg->decoderOnly() ? shape.tgtVocab : shape.srcVocab;  // one vocabulary
    bool tuned = setMathThreads(threads, false);
    if (libraryName != QLatin1String("tuned")) {
        tuned = false;
        for (int site = 0; site < as::kGemmSites; ++site)
            as::setGemmChoice(site, library);
    }

    as::TrainOptions options{1.0, 400, 0};
    options.precision = precision;
    as::Trainer trainer(*cfg, options);
    trainer.setRecordHealth(health);
    trainer.setHistogramEvery(health ? histogramEvery : 0);
    const as::Batch batch = as::randomBenchBatch(*cfg, shape.batch, shape.srcLen, shape.tgtLen, 1);
    for (int i = 0; i < 3; ++i)
        trainer.step(batch);
    std::optional<as::GemmTuning> tuning;
    if (p.isSet("retune")) {
        // A step of this configuration recorded, its products replayed per site with each
        // library (train/product_tuning.h), stored and applied.
        QString error;
        tuning = as::measureProductTuning(*cfg, 7, {}, &error);
        if (!error.isEmpty())
            err << "bench: " << error << "\n";
        tuned = true;
        trainer.step(batch);  // a step with the new choice before the timed ones
    }
    std::vector<double> times, cpu;
    double loss = 0, total = 0;
    trainer.setProfile(profile);
    as::ProfileTotals allRuns;
    QJsonArray profileRuns;
    for (int run = 0; run < runs; ++run) {
        for (int i = 0; i < steps; ++i) {
            // Processor time of every thread too: on a shared machine the wall time also counts
            // waiting for a core.
            const std::clock_t c0 = std::clock();
            const as::StepStats st = trainer.step(batch);
            cpu.push_back(double(std::clock() - c0) / CLOCKS_PER_SEC);
            times.push_back(st.seconds);
            total += st.seconds;
            loss = st.loss.loss();
        }
        if (profile) {
            const as::ProfileTotals t = trainer.takeProfile();
            allRuns += t;
            profileRuns.append(profileJson(t));
        }
    }
    const double median = medianOf(times);
    const double tokens = double(shape.batch) * shape.tgtLen;  // as the reference counts them
    QJsonObject o{{"impl", "attention-studio"},
                  {"config", name},
                  {"params", double(trainer.model().params().size())},
                  {"step_s", median},
                  // Histograms come every n-th step: the mean shows their share, the median not.
                  {"mean_step_s", total / double(times.size())},
                  {"cpu_step_s", medianOf(cpu)},
                  {"cpu_mean_step_s", std::accumulate(cpu.begin(), cpu.end(), 0.0) / double(cpu.size())},
                  {"health", health},
                  {"histogram_every", health ? histogramEvery : 0},
                  {"tgt_tokens_per_s", tokens / median},
                  {"gflop_per_s", stepFlops(*cfg, shape) / median / 1e9},
                  {"threads", as::engineThreads()},
                  {"gemm_backend", as::gemmBackend()},
                  {"precision", QString::fromLatin1(as::gemmPrecisionName(precision))},
                  // The vector instructions this build's own code was compiled for (Eigen's
                  // list): scripts/bench-vs-reference --avx2 checks there is no AVX-512 in it.
                  {"simd", QString::fromLatin1(Eigen::SimdInstructionSetsInUse())},
                  {"steps", steps},
                  {"peak_rss_mb", peakRssMb()},
                  {"loss", loss}};
    {
        QJsonObject choice;
        for (int site = 0; site < as::kGemmSites; ++site)
            choice.insert(QString::fromLatin1(as::gemmSiteName(site)),
                          QString::fromLatin1(as::gemmLibraryName(as::gemmChoice(site))));
        o.insert("gemm_choice", choice);
        o.insert("gemm_library", tuned ? QStringLiteral("tuned") : libraryName == QLatin1String("tuned")
                                                                        ? QStringLiteral("openblas (no tuning stored)")
                                                                        : libraryName);
        if (as::gemmLibraryLoaded(as::GemmLibrary::OneDnn))
            o.insert("onednn", QString::fromUtf8(as::gemmOneDnnVersion()));
    }
    if (precision == as::GemmPrecision::BFloat16) {  // which kernel and which of the CPU's units computed them
        o.insert("bf16_units", as::bf16ProductUnits());
        o.insert("bf16_kernel", QString::fromLatin1(as::bf16KernelName(as::bf16Kernel())));
    }
    if (tuning) {
        QJsonObject t = tuning->toJson();
        // Per site and library, GFLOP/s of the replayed products (what the choice rests on).
        QJsonObject rates;
        for (int site = 0; site < as::kGemmSites; ++site) {
            if (!tuning->measured[std::size_t(site)])
                continue;
            QJsonObject r;
            for (int l = 0; l < as::kGemmLibraries; ++l)
                if (const double s = tuning->seconds[std::size_t(site)][std::size_t(l)]; s > 0)
                    r.insert(QString::fromLatin1(as::gemmLibraryName(as::GemmLibrary(l))),
                             tuning->flop[std::size_t(site)] / s / 1e9);
            rates.insert(QString::fromLatin1(as::gemmSiteName(site)), r);
        }
        t.insert("gflop_per_s", rates);
        t.insert("products_s_chosen", tuning->chosenSeconds());
        t.insert("products_s_openblas", tuning->librarySeconds(as::GemmLibrary::OpenBlas));
        t.insert("path", as::gemmTuningPath());
        o.insert("tuning", t);
    }
    if (productsAlone) {
        // After the timed steps: the step recorded here is not one of them.
        std::vector<std::vector<as::GemmCall>> lists;
        {
            const as::GemmRecorder recorder;
            trainer.step(batch);
            lists = recorder.calls();
        }
        double flop = 0;
        int calls = 0;
        QJsonArray perThread;
        for (const auto& list : lists) {
            double f = 0;
            for (const as::GemmCall& g : list)
                f += g.flop();
            flop += f;
            calls += int(list.size());
            perThread.append(QJsonObject{{"calls", int(list.size())}, {"gflop", f / 1e9}});
        }
        const double alone = as::replayGemmCalls(lists, steps);
        o["products_alone"] = QJsonObject{
            {"calls_per_step", calls}, {"gflop_per_step", flop / 1e9}, {"threads", perThread},
            {"s_per_step", alone}, {"gflop_per_s", alone > 0 ? flop / alone / 1e9 : 0.0},
            // The whole step's FLOPs (the gflop_per_s formula) over these products' time alone.
            {"bound_gflop_per_s", alone > 0 ? stepFlops(*cfg, shape) / alone / 1e9 : 0.0},
            {"share_of_step_percent", 100.0 * alone / median}};
    }
    if (profile) {
        o.insert("runs", runs);
        o.insert("profile", profileJson(allRuns));  // all runs together
        o.insert("profile_runs", profileRuns);
    }
    out << QJsonDocument(o).toJson(QJsonDocument::Compact) << "\n";
    return 0;
}

}  // namespace as::cli
