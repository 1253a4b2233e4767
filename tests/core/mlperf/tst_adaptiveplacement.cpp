// Adaptive point placement (core/mlperf/adaptiveplacement.h): the next concurrency splits the interval whose
// area gap |Δ tps/user| × |Δ system tok/s| is largest, at the geometric mean of its ends, within the range
// and the budget. The benchmark against the simulator's analytic frontier is
// tests/bench/bench_mlperf_adaptive.
#include "core/mlperf/adaptiveplacement.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace Throughline::Mlperf;

namespace {
// A saturating curve: throughput c·k/(1 + c/s), interactivity falling with concurrency.
CurvePoint curve(int c)
{
    const double tps = 1000.0 * c / (1.0 + c / 64.0);
    return {c, tps, 200.0 / (1.0 + c / 16.0)};
}
} // namespace

class TestAdaptivePlacement : public QObject
{
    Q_OBJECT
private slots:
    void largestGapGetsTheNextPoint()
    {
        const std::vector<CurvePoint> pts{curve(1), curve(4), curve(64), curve(1024)};
        const auto next = nextAdaptivePoint(pts, 1, 1024, 8);
        QVERIFY(next);
        // Work the gaps out by hand: the interval with the largest |Δx|·|Δy| wins.
        double best = 0;
        int lo = 0;
        for (std::size_t i = 0; i + 1 < pts.size(); ++i) {
            const double g = std::fabs(pts[i].tpsPerUser - pts[i + 1].tpsPerUser) *
                             std::fabs(pts[i + 1].systemTps - pts[i].systemTps);
            if (g > best) {
                best = g;
                lo = pts[i].concurrency;
            }
        }
        QCOMPARE(next->lowerConcurrency, lo);
        QCOMPARE(next->gapArea, best);
        QCOMPARE(next->concurrency,
                 int(std::lround(std::sqrt(double(next->lowerConcurrency) * next->upperConcurrency))));
    }
    void orderDoesNotMatterAndRepeatsAreIgnored()
    {
        const std::vector<CurvePoint> a{curve(1), curve(32), curve(256)};
        const std::vector<CurvePoint> b{curve(256), curve(1), curve(32), curve(32)};
        QCOMPARE(nextAdaptivePoint(a, 1, 256, 3)->concurrency, nextAdaptivePoint(b, 1, 256, 3)->concurrency);
    }
    void neighboursLeaveNothingToPlace()
    {
        QVERIFY(!nextAdaptivePoint({curve(1), curve(2), curve(3)}, 1, 3, 5));
        // One concurrency between 3 and 5: it is 4 however the mean rounds.
        QCOMPARE(nextAdaptivePoint({curve(3), curve(5)}, 1, 5, 1)->concurrency, 4);
    }
    void budgetAndRangeAreRespected()
    {
        QVERIFY(!nextAdaptivePoint({curve(1), curve(1024)}, 1, 1024, 0));
        // Points outside [cLo, cHi] (margin points) are not used as interval ends.
        const auto n = nextAdaptivePoint({curve(1), curve(100), curve(110)}, 1, 100, 2);
        QVERIFY(n);
        QCOMPARE(n->upperConcurrency, 100);
        QVERIFY(n->concurrency > 1 && n->concurrency < 100);
    }
    void nearlyTheBestTwelvePoints()
    {
        // Starting from the four mandatory-like points, 8 adaptive ones reach at least 98 % of the largest
        // area any 12 concurrencies of 1 … 1024 (1 and 1024 included) can give — worked out by dynamic
        // programming over every concurrency. (This curve is steep on both axes: even the best 12 points stay
        // ~10 % below the dense curve; the simulator's flatter frontier is the benchmark's.)
        constexpr int kMax = 1024, kPoints = 12;
        std::vector<CurvePoint> all(kMax + 1);
        for (int c = 1; c <= kMax; ++c)
            all[c] = curve(c);
        // best[k][c]: area of the staircase from c to kMax with k points (c and kMax included).
        std::vector<std::vector<double>> best(kPoints + 1, std::vector<double>(kMax + 1, -1));
        best[1][kMax] = all[kMax].tpsPerUser * all[kMax].systemTps;
        for (int k = 2; k <= kPoints; ++k)
            for (int c = 1; c < kMax; ++c)
                for (int d = c + 1; d <= kMax; ++d)
                    if (best[k - 1][d] >= 0)
                        best[k][c] =
                            std::max(best[k][c], (all[c].tpsPerUser - all[d].tpsPerUser) * all[c].systemTps +
                                                     best[k - 1][d]);
        const double optimum = best[kPoints][1];
        std::vector<CurvePoint> pts{curve(1), curve(5), curve(33), curve(kMax)};
        const double start = Frontier(pts).area();
        while (auto next = nextAdaptivePoint(pts, 1, kMax, kPoints - int(pts.size())))
            pts.push_back(curve(next->concurrency));
        QCOMPARE(int(pts.size()), kPoints);
        const double area = Frontier(pts).area();
        QVERIFY2(std::fabs(Frontier(std::vector<CurvePoint>(all.begin() + 1, all.end())).area()) > optimum,
                 "the dense curve bounds every subset");
        QVERIFY2(area >= 0.98 * optimum,
                 qPrintable(
                     QStringLiteral("start %1, adaptive %2, best 12 %3").arg(start).arg(area).arg(optimum)));
    }
};

QTEST_GUILESS_MAIN(TestAdaptivePlacement)
#include "tst_adaptiveplacement.moc"
