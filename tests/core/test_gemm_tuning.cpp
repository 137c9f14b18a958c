// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// model/gemm_tuning: which library computes each site's products fastest here.
//   - tuneGemm measures exactly the sites the recorded calls name, with every library loaded
//     (and only those), adds up each site's FLOPs as the calls give them, and chooses for each
//     site the library of the shortest time (checked against the table it returns);
//   - the tuning goes through JSON unchanged, is stored per CPU and thread count (one file, the
//     others kept, the same CPU and threads replaced, a damaged file said and replaced), and
//     applying it sets the choice of each measured site (model/gemm.h).
#include "model/gemm.h"
#include "model/gemm_tuning.h"
#include "model/parallel.h"
#include "skip.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace as;
using namespace Qt::StringLiterals;

namespace {

GemmCall call(int m, int n, int k, bool ta, bool tb, GemmKind kind, GemmPass pass)
{
    GemmCall c;
    c.m = m;
    c.n = n;
    c.k = k;
    c.transA = ta;
    c.transB = tb;
    c.lda = ta ? m : k;
    c.ldb = tb ? k : n;
    c.ldc = n;
    c.site = gemmSite(kind, pass);
    return c;
}

}  // namespace

class TestGemmTuning : public QObject {
    Q_OBJECT
private slots:
    void init() { resetGemmChoices(); }
    void cleanup() { resetGemmChoices(); }

    void measuresTheSitesAndChoosesTheFastest()
    {
        setEngineThreads(2);
        // Two threads' calls, as a step's recorder gives them: two sites.
        const std::vector<std::vector<GemmCall>> lists{
            {call(64, 96, 48, false, true, GemmKind::FeedForward, GemmPass::Forward),
             call(32, 48, 64, true, false, GemmKind::Projections, GemmPass::WeightGradient)},
            {call(64, 96, 48, false, true, GemmKind::FeedForward, GemmPass::Forward)}};
        int steps = 0, total = -1;
        const GemmTuning t = tuneGemm(lists, 2, 3, [&](int done, int all) {
            ++steps;
            total = all;
            return done == steps;
        });
        int loaded = 0;
        for (int l = 0; l < kGemmLibraries; ++l)
            loaded += gemmLibraryLoaded(GemmLibrary(l)) ? 1 : 0;
        QCOMPARE(steps, 2 * loaded);
        QCOMPARE(total, 2 * loaded);
        QCOMPARE(t.threads, 2);
        QCOMPARE(t.cpu, cpuModelName());
        for (int s = 0; s < kGemmSites; ++s) {
            const bool expected = s == gemmSite(GemmKind::FeedForward, GemmPass::Forward)
                || s == gemmSite(GemmKind::Projections, GemmPass::WeightGradient);
            QCOMPARE(t.measured[std::size_t(s)], expected);
            if (!expected)
                continue;
            const auto& sec = t.seconds[std::size_t(s)];
            GemmLibrary fastest = GemmLibrary::Eigen;
            double best = 1e300;
            for (int l = 0; l < kGemmLibraries; ++l) {
                const bool on = gemmLibraryLoaded(GemmLibrary(l));
                QCOMPARE(sec[std::size_t(l)] > 0, on);
                if (on && sec[std::size_t(l)] < best) {
                    best = sec[std::size_t(l)];
                    fastest = GemmLibrary(l);
                }
            }
            QCOMPARE(t.choice[std::size_t(s)], fastest);
        }
        QCOMPARE(t.flop[std::size_t(gemmSite(GemmKind::FeedForward, GemmPass::Forward))], 2 * 2.0 * 64 * 96 * 48);
        QCOMPARE(t.flop[std::size_t(gemmSite(GemmKind::Projections, GemmPass::WeightGradient))], 2.0 * 32 * 48 * 64);
        for (int l = 0; l < kGemmLibraries; ++l)
            if (gemmLibraryLoaded(GemmLibrary(l)))
                QVERIFY(t.chosenSeconds() <= t.librarySeconds(GemmLibrary(l)));
        // Applied: the measured sites take the choice, the others keep the default.
        const GemmLibrary before = gemmChoice(gemmSite(GemmKind::Generator, GemmPass::Forward));
        QVERIFY(t.apply());
        for (int s = 0; s < kGemmSites; ++s)
            if (t.measured[std::size_t(s)])
                QCOMPARE(gemmChoice(s), t.choice[std::size_t(s)]);
        QCOMPARE(gemmChoice(gemmSite(GemmKind::Generator, GemmPass::Forward)), before);
        setEngineThreads(1);
    }

    void jsonRoundTrip()
    {
        GemmTuning t;
        t.cpu = QStringLiteral("A CPU");
        t.threads = 3;
        const int s = gemmSite(GemmKind::Generator, GemmPass::InputGradient);
        t.measured[std::size_t(s)] = true;
        t.flop[std::size_t(s)] = 1.5e9;
        t.seconds[std::size_t(s)] = {0.002, 0.001, 0.004};
        t.choice[std::size_t(s)] = GemmLibrary::OneDnn;
        QString error;
        const std::optional<GemmTuning> back = GemmTuning::fromJson(t.toJson(), &error);
        QVERIFY2(back, qPrintable(error));
        QCOMPARE(back->toJson(), t.toJson());
        QCOMPARE(back->choice[std::size_t(s)], GemmLibrary::OneDnn);
        QCOMPARE(back->seconds[std::size_t(s)][1], 0.001);
        // Refused: an unknown library or site, no CPU.
        QJsonObject bad = t.toJson();
        QJsonObject sites = bad["sites"].toObject();
        QJsonObject site = sites["generator.input_gradient"].toObject();
        site["choice"] = QStringLiteral("mkl");
        sites["generator.input_gradient"] = site;
        bad["sites"] = sites;
        QVERIFY(!GemmTuning::fromJson(bad, &error));
        QVERIFY2(error.contains(QStringLiteral("mkl")), qPrintable(error));
        QVERIFY(!GemmTuning::fromJson(QJsonObject{{"threads", 2}}, &error));
    }

    // The line About and Copy diagnostics show: one library everywhere, else the sites of each.
    void choiceSummary()
    {
        const QString standard = QString::fromLatin1(gemmLibraryName(gemmChoice(0)));
        QCOMPARE(gemmChoiceSummary(), standard + u" everywhere"_s);
        QVERIFY(setGemmChoice(gemmSite(GemmKind::Other, GemmPass::Forward), GemmLibrary::Eigen));
        QCOMPARE(gemmChoiceSummary(), standard + u" everywhere"_s);  // "other" is not a layer's
        if (standard == u"eigen"_s)
            return;  // no second library to choose here: the rest needs one
        QVERIFY(setGemmChoice(gemmSite(GemmKind::FeedForward, GemmPass::Forward), GemmLibrary::Eigen));
        QVERIFY(setGemmChoice(gemmSite(GemmKind::Generator, GemmPass::WeightGradient), GemmLibrary::Eigen));
        QCOMPARE(gemmChoiceSummary(),
                 u"eigen: feed_forward.forward, generator.weight_gradient; "_s + standard + u": the rest"_s);
    }

    void storedPerCpuAndThreads()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("sub/gemm-tuning.json"));
        QString error;
        QVERIFY(!loadGemmTuning(2, &error, path));  // none yet: no error either
        QVERIFY(error.isEmpty());
        GemmTuning two, one, other;
        two.cpu = one.cpu = cpuModelName();
        other.cpu = QStringLiteral("Another CPU");
        two.threads = other.threads = 2;
        one.threads = 1;
        const int s = gemmSite(GemmKind::FeedForward, GemmPass::WeightGradient);
        for (GemmTuning* t : {&two, &one, &other}) {
            t->measured[std::size_t(s)] = true;
            t->seconds[std::size_t(s)] = {0.003, 0.0, 0.005};
        }
        two.choice[std::size_t(s)] = GemmLibrary::Eigen;
        for (const GemmTuning* t : {&two, &one, &other})
            QVERIFY2(saveGemmTuning(*t, &error, path), qPrintable(error));
        std::optional<GemmTuning> got = loadGemmTuning(2, &error, path);
        QVERIFY(got);
        QCOMPARE(got->toJson(), two.toJson());
        QCOMPARE(loadGemmTuning(1, &error, path)->toJson(), one.toJson());
        QVERIFY(!loadGemmTuning(3, &error, path));
        // The same CPU and threads again: replaced, not added.
        two.choice[std::size_t(s)] = GemmLibrary::OpenBlas;
        QVERIFY(saveGemmTuning(two, &error, path));
        QCOMPARE(loadGemmTuning(2, &error, path)->choice[std::size_t(s)], GemmLibrary::OpenBlas);
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll().count("\"threads\""), 3);
        f.close();
        // A damaged file: said, none loaded; saving replaces it.
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("{ not json");
        f.close();
        error.clear();
        QVERIFY(!loadGemmTuning(2, &error, path));
        QVERIFY2(error.contains(QStringLiteral("not a tuning file")), qPrintable(error));
        QVERIFY(saveGemmTuning(two, &error, path));
        QVERIFY(loadGemmTuning(2, &error, path));
    }
};

AS_TEST_GUILESS_MAIN(TestGemmTuning)
#include "test_gemm_tuning.moc"
