// SPDX-FileCopyrightText: 2026 The Attention Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
// The Noam schedule and Adam against values computed by hand.
#include "skip.h"
#include "train/adam.h"
#include "train/schedule.h"

#include <QTest>

using namespace as;

class TestOptim : public QObject {
    Q_OBJECT
private slots:
    void noam_data();
    void noam();
    void noamPeaksAtWarmup();
    void adamTwoSteps();
};

void TestOptim::noam_data()
{
    QTest::addColumn<long>("step");
    QTest::addColumn<double>("expected");
    // d_model 512, warmup 4000, factor 1: 512^-0.5 = 0.0441941738…
    // step 1:      0.0441941738 * 1 * 4000^-1.5          (warming up)
    QTest::newRow("step 1") << 1L << 1.746928107421711e-07;
    // step 4000:   0.0441941738 * 4000^-0.5 — both branches meet
    QTest::newRow("step warmup") << 4000L << 6.987712429686843e-04;
    // step 40000:  0.0441941738 * 40000^-0.5 = 0.0441941738 * 0.005
    QTest::newRow("step 10 x warmup") << 40000L << 2.2097086912079613e-04;
    // a step below 1 counts as 1
    QTest::newRow("step 0") << 0L << 1.746928107421711e-07;
}

void TestOptim::noam()
{
    QFETCH(long, step);
    QFETCH(double, expected);
    QVERIFY(std::abs(noamRate(step, 512, 1.0, 4000) - expected) <= 1e-15 * expected * 10);
    QVERIFY(std::abs(noamRate(step, 512, 2.0, 4000) - 2 * expected) <= 1e-14 * expected);
}

void TestOptim::noamPeaksAtWarmup()
{
    const double peak = noamRate(400, 128, 1.0, 400);
    QVERIFY(noamRate(399, 128, 1.0, 400) < peak);
    QVERIFY(noamRate(401, 128, 1.0, 400) < peak);
}

void TestOptim::adamTwoSteps()
{
    // p = (1, -2), lr 0.1, beta (0.9, 0.98), eps 1e-9.
    // Step 1, g = (0.5, -0.1): m = 0.1 g = (0.05, -0.01); v = 0.02 g^2 = (0.005, 0.0002);
    //   bias corrections 0.1 and 0.02: m^ = g, sqrt(v^) = |g|, so p -= 0.1 * sign(g) * (1 - ~2e-9)
    //   -> (0.9000000002, -1.900000001)
    // Step 2, g = (-0.3, 0.2): m = (0.015, 0.011), v = (0.0067, 0.000996), corrections 0.19 and
    //   0.0396: p0 -= 0.1/0.19 * 0.015 / sqrt(0.0067/0.0396) = 0.0191932… -> 0.88080678
    Adam<double> adam(2);
    double p[2] = {1.0, -2.0};
    const double g1[2] = {0.5, -0.1};
    adam.step(p, g1, 0.1);
    QVERIFY(std::abs(p[0] - 0.9000000001999999) < 1e-15);
    QVERIFY(std::abs(p[1] - -1.900000001) < 1e-15);
    const double g2[2] = {-0.3, 0.2};
    adam.step(p, g2, 0.1);
    QVERIFY(std::abs(p[0] - 0.8808067798783213) < 1e-14);
    QVERIFY(std::abs(p[1] - -1.9365053920670703) < 1e-14);
    QVERIFY(std::abs(adam.firstMoment()[0] - 0.015) < 1e-15);
    QVERIFY(std::abs(adam.secondMoment()[1] - 0.000996) < 1e-15);
    QCOMPARE(adam.steps(), 2L);
    // Float gives the same to float precision.
    Adam<float> adamF(2);
    float pf[2] = {1.0f, -2.0f};
    const float gf1[2] = {0.5f, -0.1f}, gf2[2] = {-0.3f, 0.2f};
    adamF.step(pf, gf1, 0.1);
    adamF.step(pf, gf2, 0.1);
    QVERIFY(std::abs(pf[0] - 0.8808067798783213) < 1e-6);
    QVERIFY(std::abs(pf[1] - -1.9365053920670703) < 1e-6);
}

AS_TEST_APPLESS_MAIN(TestOptim)
#include "test_optim.moc"
