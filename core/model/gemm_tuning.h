// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Which library computes each site's products fastest on this machine (model/gemm.h): a training
// step's products, recorded (GemmRecorder), run again site by site with each library loaded, on
// the engine's threads as the step ran them (replayGemmCalls); the fastest is kept. No library
// wins every shape, and which one wins depends on the CPU (issue 49: OpenBLAS's SkylakeX kernels
// against oneDNN on an Intel Xeon, 97-134 against 133-144 GFLOP/s at one shape, 121 against 71
// at another). The result is remembered per CPU and thread count in a small file of the user's
// cache folder (`attention-studio-cli bench --retune` measures again).
#include "model/gemm.h"

#include <QJsonObject>
#include <QString>

#include <array>
#include <functional>
#include <optional>
#include <vector>

namespace as {

struct GemmTuning {
    QString cpu;      // what it was measured on: cpuModelName()
    int threads = 0;  // with how many engine threads
    // Per site: whether the step issued products there, their FLOPs per step, the seconds of
    // one replay of them with each library (0: not measured, a library not loaded), and the
    // library chosen (the fastest).
    std::array<bool, kGemmSites> measured{};
    std::array<double, kGemmSites> flop{};
    std::array<std::array<double, kGemmLibraries>, kGemmSites> seconds{};
    std::array<GemmLibrary, kGemmSites> choice{};

    // Seconds of one step's products: with the choice, and with one library everywhere.
    double chosenSeconds() const;
    double librarySeconds(GemmLibrary library) const;
    // Sets the choice of every measured site (setGemmChoice); false if a library chosen is not
    // loaded here (the sites keep theirs).
    bool apply() const;

    // {"cpu", "threads", "sites": {"feed_forward.forward": {"choice": "onednn", "flop": …,
    //  "seconds": {"openblas": …, "onednn": …, "eigen": …}}, …}}
    QJsonObject toJson() const;
    static std::optional<GemmTuning> fromJson(const QJsonObject& json, QString* error = nullptr);
};

// Measures: each site of the lists (a step's calls, one list per thread) replayed `rounds`
// times with each loaded library (the median kept). progress(done, total) after each; false
// stops there (the sites not yet measured are left unmeasured).
GemmTuning tuneGemm(const std::vector<std::vector<GemmCall>>& lists, int threads, int rounds,
                    const std::function<bool(int, int)>& progress = {});

// False when the environment says AS_GEMM_TUNING=off: no tuning is read, applied or measured,
// and every product runs in the default library (the tests run so, whatever this machine has
// stored).
bool gemmTuningEnabled();

// Which library computes each site's products now (gemmChoice), in a line: "openblas
// everywhere", or the sites of each library ("onednn: feed_forward.forward, …; openblas: the
// rest"). Only the sites a training step uses (projections, feed-forward, generator).
QString gemmChoiceSummary();

// This machine's CPU as /proc/cpuinfo names it ("Intel(R) Xeon(R) Processor"), else its
// architecture.
QString cpuModelName();

// <the user's cache folder>/attention-studio/gemm-tuning.json: the tunings of this machine, one
// per CPU and thread count.
QString gemmTuningPath();
// The tuning stored for this CPU and `threads`, if any (a file that cannot be read says why in
// *error and gives none).
std::optional<GemmTuning> loadGemmTuning(int threads, QString* error = nullptr,
                                         const QString& path = gemmTuningPath());
// Stores it beside the others (replacing one of the same CPU and threads), atomically.
bool saveGemmTuning(const GemmTuning& tuning, QString* error, const QString& path = gemmTuningPath());

// What the programs do at start, once the engine's threads are set: the stored tuning of this
// CPU and thread count applied (true), or none stored or tuning off (false: OpenBLAS computes
// every product). A damaged file is said in *error and ignored.
bool applyStoredGemmTuning(int threads, QString* error = nullptr);

}  // namespace as
