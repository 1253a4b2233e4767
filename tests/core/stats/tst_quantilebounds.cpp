// Order-statistic bounds of percentiles: the textbook case (median of 10 at 95 %: X(2)…X(9), coverage
// 1002/1024), the rank rule checked against an independent binomial sum, the smallest n with an upper
// p99 bound, the dependence correction on a series with repeated values, and the coverage of the bounds
// over seeded exponential samples against the known quantile.
#include "core/stats/quantilebounds.h"

#include "core/stats/autocorrelation.h"

#include "core/metrics/stats.h"
#include "seededsamples.h"

#include <QTest>

#include <cmath>
#include <vector>

using namespace Throughline;

namespace {
// P(Binomial(n, p) ≤ k) by direct summation of pmf terms in log space (independent of incompleteBeta).
double bruteBinomialCdf(long long k, long long n, double p)
{
    if (k < 0)
        return 0;
    if (k >= n)
        return 1;
    long double s = 0;
    for (long long i = 0; i <= k; ++i) {
        const long double lp = std::lgamma(double(n + 1)) - std::lgamma(double(i + 1)) -
                               std::lgamma(double(n - i + 1)) + double(i) * std::log(p) +
                               double(n - i) * std::log1p(-p);
        s += std::exp(lp);
    }
    return double(s);
}
} // namespace

class TestQuantileBounds : public QObject
{
    Q_OBJECT
private slots:
    void medianOfTen()
    {
        const OrderStatisticRanks r = orderStatisticRanks(10, 0.5, 0.95);
        QCOMPARE(r.lower, 2LL);
        QCOMPARE(r.upper, 9LL);
        QVERIFY(std::fabs(r.coverage - 1002.0 / 1024.0) < 1e-12);
    }

    void ranksFollowTheRule_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<double>("p");
        QTest::addColumn<double>("level");
        for (int n : {20, 57, 100, 250, 1000})
            for (double p : {0.5, 0.9, 0.95, 0.99})
                for (double level : {0.5, 0.9, 0.95, 0.99})
                    QTest::addRow("n%d p%g l%g", n, p, level) << n << p << level;
    }

    void ranksFollowTheRule()
    {
        QFETCH(int, n);
        QFETCH(double, p);
        QFETCH(double, level);
        const double half = (1 - level) / 2;
        const OrderStatisticRanks r = orderStatisticRanks(n, p, level);
        auto F = [&](long long k) { return bruteBinomialCdf(k, n, p); };
        // Lower: the largest rank l with F(l − 1) ≤ α/2 (or none when already F(0) > α/2).
        if (r.lower == 0) {
            QVERIFY(F(0) > half);
        } else {
            QVERIFY(F(r.lower - 1) <= half + 1e-12);
            QVERIFY(r.lower == n || F(r.lower) > half - 1e-12);
        }
        // Upper: the smallest rank u with F(u − 1) ≥ 1 − α/2 (or none).
        if (r.upper == n + 1) {
            QVERIFY(F(n - 1) < 1 - half);
        } else {
            QVERIFY(F(r.upper - 1) >= 1 - half - 1e-12);
            QVERIFY(r.upper == 1 || F(r.upper - 2) < 1 - half + 1e-12);
        }
        const double fu = r.upper <= n ? F(r.upper - 1) : 1.0;
        const double fl = r.lower >= 1 ? F(r.lower - 1) : 0.0;
        QVERIFY(std::fabs(r.coverage - (fu - fl)) < 1e-9);
        QVERIFY(r.coverage >= level - 1e-12);
    }

    void p99NeedsEnoughSamplesForAnUpperBound()
    {
        // 0.99^n ≤ 0.025 first holds at n = 368.
        QCOMPARE(orderStatisticRanks(367, 0.99, 0.95).upper, 368LL); // none: n + 1
        QCOMPARE(orderStatisticRanks(368, 0.99, 0.95).upper, 368LL); // the maximum
        // A sample that small gives an interval open above: a verdict on it cannot pass a "<=" limit.
        const auto s = StatsTest::exponentialSample(3, 200);
        const QuantileBounds b = quantileBounds(s, 0.99);
        QVERIFY(!b.interval.hasUpper());
        QVERIFY(b.interval.hasLower());
    }

    void estimateIsTheReportedPercentile()
    {
        const auto s = StatsTest::exponentialSample(11, 500);
        for (double p : {0.5, 0.9, 0.99}) {
            const QuantileBounds b = quantileBounds(s, p, {0.95, false});
            std::vector<double> sorted = s;
            std::sort(sorted.begin(), sorted.end());
            QCOMPARE(b.interval.estimate, percentileSorted(sorted, p)); // core/metrics/stats.h's rule
            QVERIFY(b.interval.lower <= b.interval.estimate && b.interval.estimate <= b.interval.upper);
            // Without correction the bounds are exactly the order statistics of the ranks.
            const OrderStatisticRanks r = orderStatisticRanks(500, p, 0.95);
            QCOMPARE(b.interval.lower, sorted[std::size_t(r.lower - 1)]);
            QCOMPARE(b.interval.upper, sorted[std::size_t(r.upper - 1)]);
        }
    }

    void independentSampleNeedsNoCorrection()
    {
        const auto s = StatsTest::exponentialSample(5, 2000);
        const QuantileBounds b = quantileBounds(s, 0.9);
        QVERIFY2(b.tau < 1.3, qPrintable(QString::number(b.tau)));
    }

    void repeatedValuesCountOnce()
    {
        // Every value five times in a row (as C = 5 requests of one closed-loop wave sharing one state):
        // the indicator series is correlated over 5 lags, τ ≈ 5, and the bounds are as wide as those of
        // the 400 distinct values — not of 2,000 independent ones.
        const auto base = StatsTest::exponentialSample(7, 400);
        std::vector<double> clustered;
        for (double v : base)
            for (int k = 0; k < 5; ++k)
                clustered.push_back(v);
        const QuantileBounds corrected = quantileBounds(clustered, 0.9);
        QVERIFY2(corrected.tau > 3.5 && corrected.tau < 6.5, qPrintable(QString::number(corrected.tau)));
        const QuantileBounds naive = quantileBounds(clustered, 0.9, {0.95, false});
        const QuantileBounds distinct = quantileBounds(base, 0.9, {0.95, false});
        QVERIFY(corrected.interval.width() > 1.5 * naive.interval.width());
        const double ratio = corrected.interval.width() / distinct.interval.width();
        QVERIFY2(ratio > 0.7 && ratio < 1.5, qPrintable(QString::number(ratio)));
    }

    void studentizedLevelMatchesT()
    {
        // t_{10, 0.975} = 2.2281: the ranks are those of the level 2·Φ(2.2281) − 1 = 0.97413.
        QVERIFY(std::fabs(studentizedLevel(0.95, 10) - 0.9741287428346547) < 1e-8);
        QCOMPARE(studentizedLevel(0.95, 0), 0.95);                     // no estimate, no correction
        QVERIFY(std::fabs(studentizedLevel(0.95, 1e7) - 0.95) < 1e-6); // t → z
        QVERIFY(studentizedLevel(0.5, 10) > 0.5 && studentizedLevel(0.5, 10) < 0.52);
    }

    void estimatedTauUsesT()
    {
        // The clustered series of repeatedValuesCountOnce: τ is estimated, so the ranks are computed at
        // the t level of its ν — wider than the same n_eff at the nominal level would give.
        const auto base = StatsTest::exponentialSample(7, 400);
        std::vector<double> clustered;
        for (double v : base)
            for (int k = 0; k < 5; ++k)
                clustered.push_back(v);
        const QuantileBounds b = quantileBounds(clustered, 0.9);
        QVERIFY(b.degreesOfFreedom > 0);
        QCOMPARE(b.rankLevel, studentizedLevel(0.95, b.degreesOfFreedom));
        QVERIFY(b.rankLevel > 0.95);
        const auto nEff = (long long)b.effectiveN;
        const OrderStatisticRanks atT = orderStatisticRanks(nEff, 0.9, b.rankLevel);
        const OrderStatisticRanks atZ = orderStatisticRanks(nEff, 0.9, 0.95);
        QCOMPARE(b.ranks.upper, (long long)std::ceil(double(atT.upper) * 2000.0 / double(nEff)));
        QVERIFY(atT.upper - atT.lower >= atZ.upper - atZ.lower); // ν ≈ 150 here: t is close to z
        // Without the dependence correction nothing is estimated: the nominal level.
        QCOMPARE(quantileBounds(clustered, 0.9, {0.95, false}).rankLevel, 0.95);
    }

    void minimumLagReachesTheTail()
    {
        // AR(1) with φ = 0.8 over 128 samples, as short as a closed-loop point: the bandwidth rule stops
        // where |ρ̂| falls under its noise threshold 0.26; a floor of 16 lags keeps the tail and ν follows.
        const auto x = StatsTest::ar1(9, 128, 0.8, 10.0);
        const QuantileBounds plain = quantileBounds(x, 0.5);
        const QuantileBounds floored = quantileBounds(x, 0.5, {0.95, true, 16});
        QVERIFY(floored.degreesOfFreedom <= lagWindowDegreesOfFreedom(128, 16) + 1e-9);
        QVERIFY(floored.interval.width() >= plain.interval.width());
        // ν ≈ 6: t_{6, 0.975} = 2.45 against z = 1.96, and the ranks are visibly wider.
        const auto nEff = (long long)floored.effectiveN;
        const OrderStatisticRanks atT = orderStatisticRanks(nEff, 0.5, floored.rankLevel);
        const OrderStatisticRanks atZ = orderStatisticRanks(nEff, 0.5, 0.95);
        QVERIFY(atT.upper - atT.lower > atZ.upper - atZ.lower);
    }

    void coverageOfTheTrueQuantile()
    {
        // 400 seeded exponential samples of 200: the 95 % bounds of p90 must hold ln 10 in 93–99.5 %
        // of them (exact coverage of the ranks is 95.3 %); 50 % bounds in 40–65 % — the level matters.
        const double truth = std::log(10.0);
        int hit95 = 0, hit50 = 0;
        const int reps = 400;
        for (int i = 0; i < reps; ++i) {
            const auto s = StatsTest::exponentialSample(1000 + std::uint64_t(i), 200);
            hit95 += quantileBounds(s, 0.9, {0.95, true}).interval.contains(truth);
            hit50 += quantileBounds(s, 0.9, {0.50, true}).interval.contains(truth);
        }
        const double c95 = double(hit95) / reps, c50 = double(hit50) / reps;
        qInfo("p90 bounds coverage: 95 %% level %.3f, 50 %% level %.3f", c95, c50);
        QVERIFY2(c95 >= 0.93 && c95 <= 0.995, qPrintable(QString::number(c95)));
        QVERIFY2(c50 >= 0.40 && c50 <= 0.65, qPrintable(QString::number(c50)));
    }

    void emptySample()
    {
        const QuantileBounds b = quantileBounds(std::vector<double>{}, 0.9);
        QVERIFY(std::isnan(b.interval.estimate));
        QVERIFY(!b.interval.hasLower() && !b.interval.hasUpper());
    }
};

QTEST_GUILESS_MAIN(TestQuantileBounds)
#include "tst_quantilebounds.moc"
