// The step-function frontier: Pareto selection, steps, throughput at interactivity levels, area (values
// worked out by hand in the comments), baseline comparison and the official coordinates of a PointResult.
#include "core/metrics/pointresult.h"
#include "core/mlperf/frontier.h"

#include <QTest>

#include <cmath>

using namespace Throughline;
using namespace Throughline::Mlperf;

namespace {

// A typical curve: throughput rises with concurrency while interactivity falls; C=48 is dominated by C=64
// (less throughput at lower interactivity).
std::vector<CurvePoint> curve()
{
    return {{1, 100, 200}, {8, 700, 150}, {32, 2000, 80}, {48, 2100, 40}, {64, 2500, 50}, {128, 3000, 20}};
}

} // namespace

class TestFrontier : public QObject
{
    Q_OBJECT
private slots:
    void paretoSelection()
    {
        const Frontier f(curve());
        QCOMPARE(f.points().size(), std::size_t(5));
        const std::vector<int> order{128, 64, 32, 8, 1}; // ascending tps/user
        for (std::size_t i = 0; i < order.size(); ++i)
            QCOMPARE(f.points()[i].concurrency, order[i]);
        QCOMPARE(f.dominated().size(), std::size_t(1));
        QCOMPARE(f.dominated()[0].concurrency, 48);
        QVERIFY(f.rejected().empty());
        QCOMPARE(f.maxTpsPerUser(), 200.0);
    }

    void tiesAndUnusablePoints()
    {
        // Equal interactivity: the higher throughput stays; NaN / zero coordinates are rejected, not plotted.
        const Frontier f({{4, 500, 100}, {5, 400, 100}, {6, NAN, 90}, {7, 300, 0}, {8, 0, 50}});
        QCOMPARE(f.points().size(), std::size_t(1));
        QCOMPARE(f.points()[0].concurrency, 4);
        QCOMPARE(f.dominated().size(), std::size_t(1));
        QCOMPARE(f.rejected().size(), std::size_t(3));
        QVERIFY(Frontier().empty());
        QCOMPARE(Frontier().area(), 0.0);
        QVERIFY(!Frontier().throughputAt(1));
    }

    void steps()
    {
        const auto s = Frontier(curve()).steps();
        QCOMPARE(s.size(), std::size_t(5));
        QCOMPARE(s[0], (FrontierStep{0, 20, 3000, 128}));
        QCOMPARE(s[1], (FrontierStep{20, 50, 2500, 64}));
        QCOMPARE(s[2], (FrontierStep{50, 80, 2000, 32}));
        QCOMPARE(s[3], (FrontierStep{80, 150, 700, 8}));
        QCOMPARE(s[4], (FrontierStep{150, 200, 100, 1}));
    }

    void throughputAtLevels()
    {
        const Frontier f(curve());
        // Held constant between points, no interpolation: 30 tok/s/user is served by C=64 (50 ≥ 30).
        QCOMPARE(*f.throughputAt(0), 3000.0);
        QCOMPARE(*f.throughputAt(20), 3000.0); // exactly at a point: that point
        QCOMPARE(*f.throughputAt(20.001), 2500.0);
        QCOMPARE(*f.throughputAt(30), 2500.0);
        QCOMPARE(*f.throughputAt(45), 2500.0); // C=48 (40 tok/s/user) is dominated and never answers
        QCOMPARE(*f.throughputAt(100), 700.0);
        QCOMPARE(*f.throughputAt(200), 100.0);
        QVERIFY(!f.throughputAt(200.5)); // nothing measured is that interactive
        QVERIFY(!f.throughputAt(-1));
    }

    void area()
    {
        const Frontier f(curve());
        // 20·3000 + 30·2500 + 30·2000 + 70·700 + 50·100 = 60000 + 75000 + 60000 + 49000 + 5000
        QCOMPARE(f.area(), 249000.0);
        // [30, 100]: 20·2500 + 30·2000 + 20·700
        QCOMPARE(f.area(30, 100), 124000.0);
        QCOMPARE(f.area(150, 1000), 5000.0); // clipped to the most interactive point
        QCOMPARE(f.area(100, 30), 0.0);
        // Adding a dominated point changes nothing.
        auto more = curve();
        more.push_back({96, 2200, 30});
        QCOMPARE(Frontier(more).area(), 249000.0);
    }

    void compareWithBaseline()
    {
        // Baseline: two points; common range [0, 100].
        const Frontier run(curve());
        const Frontier base({{16, 1000, 100}, {128, 2000, 25}});
        const auto c = compareFrontiers(run, base, {10, 60, 150});
        QCOMPARE(c.xTo, 100.0);
        QCOMPARE(c.runArea, 20 * 3000.0 + 30 * 2500.0 + 30 * 2000.0 + 20 * 700.0);
        QCOMPARE(c.baselineArea, 25 * 2000.0 + 75 * 1000.0);
        QVERIFY(c.areaRatio);
        QCOMPARE(*c.areaRatio, 209000.0 / 125000.0);
        QCOMPARE(c.levels.size(), std::size_t(3));
        QCOMPARE(*c.levels[0].ratio, 3000.0 / 2000.0);
        QCOMPARE(*c.levels[1].ratio, 2000.0 / 1000.0);
        QVERIFY(c.levels[2].run);
        QVERIFY(!c.levels[2].baseline); // the baseline never reached 150 tok/s/user
        QVERIFY(!c.levels[2].ratio);
    }

    void officialCoordinatesOfAPoint()
    {
        PointResult p;
        p.load.concurrency = 64;
        p.metrics.outputTps = 5000;
        p.metrics.outputTpsMlperf = 4800;
        p.metrics.tpotMlperfMs.n = 50; // below Throughline's p90 reporting rule: MLPerf still reports it
        p.metrics.tpotMlperfMs.p[1] = 25;
        p.metrics.tpotMs.n = 50;
        p.metrics.tpotMs.p[1] = 20; // Throughline's own TPOT: not the official one
        auto cp = curvePointOf(p);
        QVERIFY(cp);
        QCOMPARE(cp->concurrency, 64);
        QCOMPARE(cp->systemTps, 4800.0);
        QCOMPARE(cp->tpsPerUser, 40.0);  // 1000 / 25 ms
        p.metrics.outputTpsMlperf = NAN; // variant missing: the steady-state throughput
        QCOMPARE(curvePointOf(p)->systemTps, 5000.0);
        p.metrics.tpotMlperfMs.n = 0;
        QVERIFY(!curvePointOf(p));
    }
};

QTEST_GUILESS_MAIN(TestFrontier)
#include "tst_frontier.moc"
