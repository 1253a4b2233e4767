// Block bootstrap of a ratio over time slices, and the autocorrelation rules behind its block length:
// exact small cases, reproducibility, Politis–White's block length on AR(1) against its closed form, and
// coverage on seeded AR(1) series (blocks matter: single-slice resampling under-covers).
#include "core/stats/autocorrelation.h"
#include "core/stats/blockbootstrap.h"

#include "seededsamples.h"

#include <QTest>

#include <cmath>
#include <vector>

using namespace Throughline;

class TestBlockBootstrap : public QObject
{
    Q_OBJECT
private slots:
    void autocorrelationOfKnownSeries()
    {
        // Alternating ±1: ρ(1) = −(n−1)/n, ρ(2) = (n−2)/n.
        std::vector<double> alt;
        for (int i = 0; i < 100; ++i)
            alt.push_back(i % 2 ? 1.0 : -1.0);
        QVERIFY(std::fabs(autocorrelation(alt, 1) + 0.99) < 1e-12);
        QVERIFY(std::fabs(autocorrelation(alt, 2) - 0.98) < 1e-12);
        QCOMPARE(autocorrelation(std::vector<double>(10, 3.0), 1), 0.0); // constant
    }

    void bandwidthSeesTheDependence()
    {
        QVERIFY(flatTopBandwidth(StatsTest::ar1(1, 4000, 0.0)) <= 2);
        const auto m = flatTopBandwidth(StatsTest::ar1(1, 4000, 0.9));
        // ρ(k) = 0.9^k falls below the noise threshold 2·√(log10 n / n) ≈ 0.06 near k ≈ 27; the sample
        // autocorrelation of so persistent a series is noisy (Bartlett sd ≈ 0.05 at those lags), so later.
        QVERIFY2(m >= 12 && m <= 90, qPrintable(QString::number(m)));
    }

    void integratedTimeOfAr1()
    {
        // τ = (1 + φ) / (1 − φ) = 3 for φ = 0.5.
        const double tau = integratedAutocorrelationTime(StatsTest::ar1(2, 20000, 0.5));
        QVERIFY2(tau > 2.5 && tau < 3.5, qPrintable(QString::number(tau)));
        QCOMPARE(integratedAutocorrelationTime(StatsTest::ar1(2, 20000, -0.5)), 1.0); // never below 1
    }

    void degreesOfFreedomOfTheLagWindow()
    {
        // ν = n / (1 + 2 Σ_{k=1}^{M} λ(k/M)²): M = 4 has weights 1, 1, ½, 0 → 1 + 2·2.25 = 5.5; no window
        // (M = 0) is the sample variance's n; a long window tends to 3n / (4M) (∫λ² = 4/3).
        QCOMPARE(lagWindowDegreesOfFreedom(120, 4), 120.0 / 5.5);
        QCOMPARE(lagWindowDegreesOfFreedom(120, 0), 120.0);
        const double nu = lagWindowDegreesOfFreedom(30000, 300);
        QVERIFY2(std::fabs(nu / (3.0 * 30000 / (4.0 * 300)) - 1) < 0.01, qPrintable(QString::number(nu)));
        const AutocorrelationTime t = autocorrelationTime(StatsTest::ar1(2, 20000, 0.5));
        QCOMPARE(t.tau, integratedAutocorrelationTime(StatsTest::ar1(2, 20000, 0.5)));
        QVERIFY(t.truncationLag > 0);
        QCOMPARE(t.degreesOfFreedom, lagWindowDegreesOfFreedom(20000, t.truncationLag));
    }

    void minimumLagWidensTheWindow()
    {
        // An independent series: the bandwidth rule sees (almost) nothing; a floor of 20 lags is kept, and
        // ν is that window's.
        const auto x = StatsTest::ar1(5, 128, 0.0);
        QVERIFY(autocorrelationTime(x).truncationLag < 20);
        const AutocorrelationTime t = autocorrelationTime(x, 20);
        QCOMPARE(t.truncationLag, std::size_t(20));
        QCOMPARE(t.degreesOfFreedom, lagWindowDegreesOfFreedom(128, 20));
        QVERIFY(t.tau >= 1.0);
        QCOMPARE(autocorrelationTime(std::vector<double>(10, 3.0), 5).truncationLag,
                 std::size_t(0)); // constant
    }

    void politisWhiteOnAr1()
    {
        // Closed form for AR(1), φ = 0.8: Ĝ = 2φ/(1−φ)² σ² = 40σ², ĝ = (1+φ)/(1−φ) σ² = 9σ²,
        // D = (4/3)·81 = 108 → b = (2·1600/108)^{1/3} · n^{1/3} ≈ 3.09 · 17.1 ≈ 53 at n = 5,000.
        const auto b = politisWhiteBlockLength(StatsTest::ar1(3, 5000, 0.8));
        QVERIFY2(b >= 30 && b <= 85, qPrintable(QString::number(b)));
        QCOMPARE(politisWhiteBlockLength(std::vector<double>(50, 1.0)), std::size_t(1));
        QVERIFY(politisWhiteBlockLength(StatsTest::ar1(4, 5000, 0.0)) <= 3);
    }

    void constantSeriesHasNoSpread()
    {
        const std::vector<double> a(40, 12.0), d(40, 0.5);
        const BootstrapResult r = blockBootstrapRatio(a, d);
        QCOMPARE(r.interval.estimate, 24.0);
        QCOMPARE(r.interval.lower, 24.0);
        QCOMPARE(r.interval.upper, 24.0);
        QCOMPARE(r.slices, std::size_t(40));
    }

    void twoSlicesExactDistribution()
    {
        // Slices {0, 2} tokens over 1 s each, L = 1: the resampled mean is 0, 1, 2 with probability
        // ¼, ½, ¼. A 40 % interval (quantiles 0.3 and 0.7) is exactly [1, 1]; a 95 % one is [0, 2].
        const std::vector<double> a{0, 2}, d{1, 1};
        BlockBootstrapOptions o;
        o.blockLength = 1;
        o.resamples = 4000;
        o.level = 0.4;
        BootstrapResult r = blockBootstrapRatio(a, d, o);
        QCOMPARE(r.interval.estimate, 1.0);
        QCOMPARE(r.interval.lower, 1.0);
        QCOMPARE(r.interval.upper, 1.0);
        o.level = 0.95;
        r = blockBootstrapRatio(a, d, o);
        QCOMPARE(r.interval.lower, 0.0);
        QCOMPARE(r.interval.upper, 2.0);
        QVERIFY(std::fabs(r.standardError - std::sqrt(0.5)) < 0.03); // √Var = √(½) for this law
    }

    void seededAndReproducible()
    {
        const auto x = StatsTest::ar1(9, 300, 0.6, 100.0);
        const std::vector<double> d(x.size(), 0.1);
        const BootstrapResult a = blockBootstrapRatio(x, d), b = blockBootstrapRatio(x, d);
        QCOMPARE(a.interval.lower, b.interval.lower);
        QCOMPARE(a.interval.upper, b.interval.upper);
        BlockBootstrapOptions other;
        other.seed = 42;
        const BootstrapResult c = blockBootstrapRatio(x, d, other);
        QVERIFY(c.interval.lower != a.interval.lower);
        QVERIFY(std::fabs(c.interval.lower - a.interval.lower) < 0.2 * (a.interval.upper - a.interval.lower));
    }

    void coverageNeedsBlocks()
    {
        // 200 seeded AR(1) series (φ = 0.7, 400 slices, mean 50 tokens per 0.1-s slice → 500 tokens/s).
        // Automatic blocks: the 95 % interval holds 500 in ≥ 88 % of series; single-slice resampling
        // (L = 1, as if slices were independent) is far too narrow and covers < 80 %.
        int autoHits = 0, iidHits = 0;
        const int reps = 200;
        for (int i = 0; i < reps; ++i) {
            const auto a = StatsTest::ar1(500 + std::uint64_t(i), 400, 0.7, 50.0);
            const std::vector<double> d(a.size(), 0.1);
            BlockBootstrapOptions o;
            o.resamples = 600;
            autoHits += blockBootstrapRatio(a, d, o).interval.contains(500.0);
            o.blockLength = 1;
            iidHits += blockBootstrapRatio(a, d, o).interval.contains(500.0);
        }
        const double cAuto = double(autoHits) / reps, cIid = double(iidHits) / reps;
        qInfo("AR(1) 95 %% coverage: automatic blocks %.3f, single slices %.3f", cAuto, cIid);
        QVERIFY2(cAuto >= 0.88, qPrintable(QString::number(cAuto)));
        QVERIFY2(cIid < 0.80, qPrintable(QString::number(cIid)));
    }

    void slicing()
    {
        // [0, 10] in 5 slices of 2 s; the event at the window's end counts in the last slice.
        const std::vector<double> t{-1, 0, 1.9, 2, 7.5, 10, 10.5};
        const std::vector<double> v{100, 1, 2, 3, 4, 5, 100};
        const SlicedWindow w = sliceWindow(t, v, 0, 10, 5);
        QCOMPARE(w.sums, (std::vector<double>{3, 3, 0, 4, 5}));
        QCOMPARE(w.seconds, (std::vector<double>(5, 2.0)));
    }

    void tooFewSlices()
    {
        const BootstrapResult r = blockBootstrapRatio(std::vector<double>{5}, std::vector<double>{1});
        QVERIFY(std::isnan(r.interval.estimate));
        QVERIFY(!r.interval.bounded());
    }
};

QTEST_GUILESS_MAIN(TestBlockBootstrap)
#include "tst_blockbootstrap.moc"
