// Adaptive point placement (core/mlperf/adaptiveplacement.h): the next concurrency comes from the staircase
// the model (TPOT and c / system tok/s interpolated in concurrency) predicts best for the remaining budget —
// with one point left, the point that adds the most area — within the range and the budget; the largest
// rectangle at its geometric mean only when no interval expects a gain. The benchmark against the simulator's
// analytic frontier is tests/bench/bench_mlperf_adaptive.
#include "core/mlperf/adaptiveplacement.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <vector>

using namespace Throughline::Mlperf;

namespace {
// A saturating curve: throughput c·k/(1 + c/s), interactivity falling with concurrency. Not of the model's
// shape: its TPOT is linear in c, but c / throughput is not.
CurvePoint curve(int c)
{
    const double tps = 1000.0 * c / (1.0 + c / 64.0);
    return {c, tps, 200.0 / (1.0 + c / 16.0)};
}

// A closed loop of the model's shape, in seconds: decode step 6 ms + 40 µs per running sequence, and per
// user another 0.5 ms per concurrent request of prefill spread over its output (c / y linear in c).
CurvePoint closedLoop(int c)
{
    const double tpot = 0.006 + 40e-6 * c;
    return {c, c / (tpot + 0.0005 * c), 1 / tpot};
}

// The area the step function of `pts` gains when p joins it.
double realGain(std::vector<CurvePoint> pts, const CurvePoint &p)
{
    const double before = Frontier(pts).area();
    pts.push_back(p);
    return Frontier(pts).area() - before;
}

int geometricMean(int lo, int hi)
{
    return int(std::lround(std::sqrt(double(lo) * hi)));
}

// The largest area any `points` concurrencies of 1 … kMax give, those in `forced` (ascending, 1 and kMax
// among them) included, by dynamic programming over every concurrency: best[k][c] is the area of the
// staircase from c to kMax with k points.
double bestArea(CurvePoint (*f)(int), int kMax, int points, const std::vector<int> &forced)
{
    std::vector<CurvePoint> all(kMax + 1);
    for (int c = 1; c <= kMax; ++c)
        all[c] = f(c);
    std::vector<std::vector<double>> best(points + 1, std::vector<double>(kMax + 1, -1));
    best[1][kMax] = all[kMax].tpsPerUser * all[kMax].systemTps;
    for (int k = 2; k <= points; ++k)
        for (int c = 1; c < kMax; ++c) {
            const int last =
                *std::upper_bound(forced.begin(), forced.end(), c); // a forced one is not skipped
            for (int d = c + 1; d <= last; ++d)
                if (best[k - 1][d] >= 0)
                    best[k][c] =
                        std::max(best[k][c],
                                 (all[c].tpsPerUser - all[d].tpsPerUser) * all[c].systemTps + best[k - 1][d]);
        }
    return best[points][1];
}

// Frontier area after placing adaptive points from `start` up to `points` (-1 if the budget is not used).
double adaptiveArea(CurvePoint (*f)(int), int kMax, int points, const std::vector<int> &start)
{
    std::vector<CurvePoint> pts;
    for (int c : start)
        pts.push_back(f(c));
    while (auto next = nextAdaptivePoint(pts, 1, kMax, points - int(pts.size())))
        pts.push_back(f(next->concurrency));
    return int(pts.size()) == points ? Frontier(pts).area() : -1;
}
} // namespace

class TestAdaptivePlacement : public QObject
{
    Q_OBJECT
private slots:
    void insertionGainIsTheFrontiersArea()
    {
        // (y_p − y_a)(x_p − x_b), by hand: a = (x 150, y 700), b = (x 80, y 2000), p = (x 120, y 1500):
        // (1500 − 700)(120 − 80) = 32,000 — and exactly what Frontier::area gains.
        const std::vector<CurvePoint> pts{{1, 100, 200}, {8, 700, 150}, {32, 2000, 80}, {128, 3000, 20}};
        const CurvePoint p{16, 1500, 120};
        QCOMPARE(insertionGain(pts[1], pts[2], p), 32000.0);
        QCOMPARE(realGain(pts, p), 32000.0);
        // A predicted point outside the rectangle is clamped onto it: nothing beyond what it can change.
        QCOMPARE(insertionGain(pts[1], pts[2], {16, 2500, 60}), 0.0);
        QCOMPARE(insertionGain(pts[1], pts[2], {16, 2500, 160}), (2000.0 - 700) * (150 - 80));
    }
    void predictionIsExactOnTheModelsShape()
    {
        // TPOT and c / y linear in c: two points predict the curve exactly, and so do four (the cubic through
        // collinear values is the line).
        const std::vector<CurvePoint> two{closedLoop(512), closedLoop(8)};
        const std::vector<CurvePoint> four{closedLoop(1), closedLoop(8), closedLoop(100), closedLoop(512)};
        for (int c : {9, 30, 64, 200, 511}) {
            for (const auto *pts : {&two, &four}) {
                const CurvePoint p = predictAt(*pts, c);
                QCOMPARE(p.concurrency, c);
                QVERIFY(qFuzzyCompare(p.tpsPerUser, closedLoop(c).tpsPerUser));
                QVERIFY(qFuzzyCompare(p.systemTps, closedLoop(c).systemTps));
            }
        }
        // The measured points are met exactly on any curve.
        const std::vector<CurvePoint> sat{curve(1), curve(20), curve(300)};
        QVERIFY(qFuzzyCompare(predictAt(sat, 20).systemTps, curve(20).systemTps));
        QVERIFY(qFuzzyCompare(predictAt(sat, 300).tpsPerUser, curve(300).tpsPerUser));
    }
    void lastPointIsTheBestSinglePointOnTheModelsCurve()
    {
        // With one point left and the prediction exact, the choice must be the concurrency that adds the
        // most area of all not yet measured — checked against every one of them.
        const std::vector<CurvePoint> pts{closedLoop(1), closedLoop(6), closedLoop(40), closedLoop(1024)};
        const auto next = nextAdaptivePoint(pts, 1, 1024, 1);
        QVERIFY(next);
        const double chosen = realGain(pts, closedLoop(next->concurrency));
        QVERIFY(qFuzzyCompare(next->expectedGain, chosen));
        QVERIFY(next->expectedGain <= next->gapArea);
        for (int c = 2; c < 1024; ++c)
            QVERIFY2(realGain(pts, closedLoop(c)) <= chosen * (1 + 1e-12),
                     qPrintable(QStringLiteral("C=%1 adds more than C=%2").arg(c).arg(next->concurrency)));
    }
    void planningAheadReachesTheOptimumOnTheModelsCurve()
    {
        // The whole budget, point by point: with the prediction exact the staircase is (up to the candidate
        // grid) the best any 12 concurrencies with the same start can give.
        const std::vector<int> start{1, 3, 20, 1024};
        const double optimum = bestArea(closedLoop, 1024, 12, start);
        const double area = adaptiveArea(closedLoop, 1024, 12, start);
        QVERIFY2(area >= 0.9995 * optimum,
                 qPrintable(QStringLiteral("adaptive %1, best %2").arg(area).arg(optimum)));
        QVERIFY(area <= optimum * (1 + 1e-12));
    }
    void gainsAtLeastTheGeometricMeanChoice()
    {
        // On the saturating curve (not the model's shape), step by step from the mandatory-like points, one
        // point left each time (the greedy choice): the chosen point's real gain is at least that of the
        // earlier rule's choice — the largest rectangle's geometric mean — in the same state.
        std::vector<CurvePoint> pts{curve(1), curve(5), curve(33), curve(1024)};
        for (int step = 0; step < 8; ++step) {
            const auto next = nextAdaptivePoint(pts, 1, 1024, 1);
            QVERIFY(next);
            double gap = -1;
            int geo = 0;
            std::vector<CurvePoint> sorted = pts;
            std::sort(sorted.begin(), sorted.end(),
                      [](const CurvePoint &a, const CurvePoint &b) { return a.concurrency < b.concurrency; });
            for (std::size_t i = 0; i + 1 < sorted.size(); ++i) {
                const CurvePoint &a = sorted[i], &b = sorted[i + 1];
                const double g =
                    std::fabs(a.tpsPerUser - b.tpsPerUser) * std::fabs(b.systemTps - a.systemTps);
                if (b.concurrency - a.concurrency >= 2 && g > gap) {
                    gap = g;
                    geo = geometricMean(a.concurrency, b.concurrency);
                }
            }
            const double mine = realGain(pts, curve(next->concurrency));
            const double theirs = realGain(pts, curve(geo));
            QVERIFY2(mine >= theirs,
                     qPrintable(QStringLiteral("step %1: C=%2 adds %3, geometric mean C=%4 adds %5")
                                    .arg(step)
                                    .arg(next->concurrency)
                                    .arg(mine)
                                    .arg(geo)
                                    .arg(theirs)));
            pts.push_back(curve(next->concurrency));
        }
    }
    void orderDoesNotMatterRepeatsAreIgnoredAndItIsDeterministic()
    {
        const std::vector<CurvePoint> a{curve(1), curve(32), curve(256)};
        const std::vector<CurvePoint> b{curve(256), curve(1), curve(32), curve(32)};
        const auto first = nextAdaptivePoint(a, 1, 256, 3);
        QVERIFY(first);
        QCOMPARE(nextAdaptivePoint(b, 1, 256, 3)->concurrency, first->concurrency);
        QCOMPARE(nextAdaptivePoint(a, 1, 256, 3)->expectedGain, first->expectedGain);
    }
    void neighboursLeaveNothingToPlace()
    {
        QVERIFY(!nextAdaptivePoint({curve(1), curve(2), curve(3)}, 1, 3, 5));
        // One concurrency between 3 and 5: it is 4.
        QCOMPARE(nextAdaptivePoint({curve(3), curve(5)}, 1, 5, 1)->concurrency, 4);
    }
    void budgetAndRangeAreRespected()
    {
        QVERIFY(!nextAdaptivePoint({curve(1), curve(1024)}, 1, 1024, 0));
        QVERIFY(!nextAdaptivePoint({curve(1), curve(1024)}, 1, 1024, -1));
        // Points outside [cLo, cHi] (margin points) are not used as interval ends.
        const auto n = nextAdaptivePoint({curve(1), curve(100), curve(110)}, 1, 100, 2);
        QVERIFY(n);
        QCOMPARE(n->upperConcurrency, 100);
        QVERIFY(n->concurrency > 1 && n->concurrency < 100);
        // The widest range the rules allow: every point proposed lies strictly inside [cLo, cHi].
        std::vector<CurvePoint> pts{closedLoop(1), closedLoop(16384)};
        while (auto next = nextAdaptivePoint(pts, 1, 16384, 12 - int(pts.size()))) {
            QVERIFY(next->concurrency > 1 && next->concurrency < 16384);
            pts.push_back(closedLoop(next->concurrency));
        }
        QCOMPARE(int(pts.size()), 12);
    }
    void noExpectedGainFallsBackToTheWidestGap()
    {
        // Noise: the higher concurrency is also the more interactive, so the model expects nothing from the
        // point between them; the largest rectangle still gets the point, at its geometric mean.
        const auto n = nextAdaptivePoint({{2, 1000, 50}, {50, 2000, 60}}, 1, 64, 3);
        QVERIFY(n);
        QCOMPARE(n->expectedGain, 0.0);
        QCOMPARE(n->gapArea, 10.0 * 1000);
        QCOMPARE(n->concurrency, 10);
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
