// Noise-aware comparison: Holm's rule on the textbook case, effect and interval on an exact case, the
// four outcomes, and seeded false-alarm / detection rates over pairs of samples.
#include "core/stats/noisecomparison.h"
#include "core/stats/quantilebounds.h"

#include "seededsamples.h"

#include <QTest>

#include <cmath>
#include <vector>

using namespace Throughline;

namespace {
Interval iv(double est, double lo, double hi)
{
    return Interval{est, lo, hi, 0.95, IntervalMethod::BlockBootstrap};
}

// One "run": p50 and p90 of TTFT-like exponential latencies and a throughput-like mean, each with its
// interval. scale > 1 makes the run slower (latencies × scale, throughput ÷ scale).
std::vector<ComparisonInput> pairOfRuns(std::uint64_t seedBase, std::uint64_t seedCand, double scale)
{
    std::vector<ComparisonInput> in;
    const auto b = StatsTest::exponentialSample(seedBase, 600);
    auto c = StatsTest::exponentialSample(seedCand, 600);
    for (double &v : c)
        v *= scale;
    for (double p : {0.5, 0.9}) {
        ComparisonInput x;
        x.metric = p == 0.5 ? "ttft_ms.p50" : "ttft_ms.p90";
        x.point = "c=8";
        x.baseline = quantileBounds(b, p).interval;
        x.candidate = quantileBounds(c, p).interval;
        x.better = BetterDirection::Lower;
        in.push_back(x);
    }
    return in;
}
} // namespace

class TestNoiseComparison : public QObject
{
    Q_OBJECT
private slots:
    void holmTextbook()
    {
        // α = 0.05, p = {0.01, 0.04, 0.03, 0.005}: 0.005 ≤ 0.0125 ✓, 0.01 ≤ 0.0167 ✓, 0.03 > 0.025 stop.
        const std::vector<double> p{0.01, 0.04, 0.03, 0.005};
        QCOMPARE(holmRejections(p, 0.05), (std::vector<bool>{true, false, false, true}));
        // Without the correction 0.03 and 0.04 would also be < 0.05.
        QCOMPARE(holmRejections(std::vector<double>{0.04}, 0.05), (std::vector<bool>{true}));
    }

    void exactEffect()
    {
        // Throughput 100 [90, 110] → 80 [72, 88]: ℓ = ln 0.8, se = √2 · ln(110/90) / (2·1.959964).
        std::vector<ComparisonInput> in(1);
        in[0].metric = "output_tps";
        in[0].baseline = iv(100, 90, 110);
        in[0].candidate = iv(80, 72, 88);
        const auto r = compareRuns(in);
        const double se = std::sqrt(2.0) * std::log(110.0 / 90.0) / (2 * 1.959963984540054);
        QVERIFY(std::fabs(r[0].effect + 0.2) < 1e-12);
        QVERIFY(std::fabs(r[0].effectInterval.lower - std::expm1(std::log(0.8) - 1.959963984540054 * se)) <
                1e-9);
        QVERIFY(std::fabs(r[0].pValue - 2 * (1 - 0.5 * std::erfc(-std::log(1.25) / se / std::sqrt(2.0)))) <
                1e-9);
        QCOMPARE(r[0].outcome, ComparisonOutcome::Regressed);
        in[0].better = BetterDirection::Lower; // the same drop in a latency is an improvement
        QCOMPARE(compareRuns(in)[0].outcome, ComparisonOutcome::Improved);
    }

    void fourOutcomes()
    {
        std::vector<ComparisonInput> in(4);
        in[0] = {"output_tps", "c=1", iv(100, 95, 105), iv(80, 76, 84), BetterDirection::Higher};
        in[1] = {"ttft_ms.p90", "c=1", iv(50, 45, 55), iv(30, 27, 33), BetterDirection::Lower};
        in[2] = {"tpot_ms.p50", "c=1", iv(10, 9, 11), iv(10.2, 9.2, 11.2), BetterDirection::Lower};
        in[3] = {"ttft_ms.p99", "c=1", iv(80, 70, INFINITY), iv(90, 75, INFINITY), BetterDirection::Lower};
        const auto r = compareRuns(in);
        QCOMPARE(r[0].outcome, ComparisonOutcome::Regressed);
        QCOMPARE(r[1].outcome, ComparisonOutcome::Improved);
        QCOMPARE(r[2].outcome, ComparisonOutcome::WithinNoise);
        QCOMPARE(r[3].outcome, ComparisonOutcome::NotEnoughData);
        QCOMPARE(r[3].holmThreshold, 0.0);
        // Holm thresholds by rank: the TTFT drop (z ≈ 7.1) has the smallest p, the throughput drop (z ≈ 6.2)
        // next.
        QVERIFY(std::fabs(r[1].holmThreshold - 0.05 / 3) < 1e-12);
        QVERIFY(std::fabs(r[0].holmThreshold - 0.05 / 2) < 1e-12);
        QVERIFY(std::fabs(r[2].holmThreshold - 0.05) < 1e-12);
        QCOMPARE(overallOutcome(r), ComparisonOutcome::Regressed);
        QCOMPARE(overallOutcome(std::vector<ComparisonResult>(r.begin() + 1, r.end())),
                 ComparisonOutcome::Improved);
        QCOMPARE(overallOutcome(std::vector<ComparisonResult>(r.begin() + 3, r.end())),
                 ComparisonOutcome::NotEnoughData);
    }

    void falseAlarmsAndDetection()
    {
        // 200 pairs of one configuration: a campaign-level change (regressed or improved) in ≤ 5 % + slack
        // (the two percentiles are strongly dependent; Holm holds under any dependence). 40 pairs with
        // the candidate 30 % slower: regressed in ≥ 90 %.
        int alarms = 0;
        for (std::uint64_t i = 0; i < 200; ++i) {
            const auto r = compareRuns(pairOfRuns(2 * i + 1, 2 * i + 2, 1.0));
            alarms += overallOutcome(r) != ComparisonOutcome::WithinNoise;
        }
        int detected = 0;
        for (std::uint64_t i = 0; i < 40; ++i)
            detected += overallOutcome(compareRuns(pairOfRuns(5000 + 2 * i, 5001 + 2 * i, 1.30))) ==
                        ComparisonOutcome::Regressed;
        qInfo("identical pairs with a change: %d of 200; 30 %% slower detected: %d of 40", alarms, detected);
        QVERIFY2(alarms <= 14, qPrintable(QString::number(alarms)));
        QVERIFY2(detected >= 36, qPrintable(QString::number(detected)));
    }
};

QTEST_GUILESS_MAIN(TestNoiseComparison)
#include "tst_noisecomparison.moc"
