// core/engine/loadschedule: the pure schedule rules — arrival offsets, closed budgets, open-loop duration,
// planned requests and points, curve concurrency lists (log2 and MLPerf Endpoints v1.0), early stop and
// search bisection. Expected values are worked out from the definitions in loadschedule.h / ARCHITECTURE.md.

#include "core/engine/loadschedule.h"

#include <QTest>

#include <cmath>
#include <numeric>

using namespace Throughline;

Q_DECLARE_METATYPE(std::vector<int>)

namespace {

LoadPlan curve(LoadPlan::CurveSpacing spacing, int cMin, int cMax)
{
    LoadPlan p;
    p.mode = LoadPlan::Mode::Curve;
    p.spacing = spacing;
    p.cMin = cMin;
    p.cMax = cMax;
    return p;
}

} // namespace

class TestLoadSchedule : public QObject
{
    Q_OBJECT
private slots:
    void curveConcurrencies_data()
    {
        QTest::addColumn<int>("spacing");
        QTest::addColumn<int>("cMin");
        QTest::addColumn<int>("cMax");
        QTest::addColumn<std::vector<int>>("expected");
        const int log2 = int(LoadPlan::CurveSpacing::Log2);
        const int mlperf = int(LoadPlan::CurveSpacing::MlperfEndpoints);
        QTest::newRow("log2 1..64") << log2 << 1 << 64 << std::vector<int>{1, 2, 4, 8, 16, 32, 64};
        // cMax that is not a power of two is a point of its own.
        QTest::newRow("log2 1..48") << log2 << 1 << 48 << std::vector<int>{1, 2, 4, 8, 16, 32, 48};
        QTest::newRow("log2 3..20") << log2 << 3 << 20 << std::vector<int>{3, 4, 8, 16, 20};
        QTest::newRow("log2 5..5") << log2 << 5 << 5 << std::vector<int>{5};
        QTest::newRow("log2 cMin 0 → 1") << log2 << 0 << 4 << std::vector<int>{1, 2, 4};
        // MLPerf Endpoints v1.0: ultra-low 1–32, then Low/Medium/High thirds of log2(cMax − cMin), 3 each.
        QTest::newRow("mlperf 1..32") << mlperf << 1 << 32 << std::vector<int>{1, 2, 4, 8, 16, 32};
        QTest::newRow("mlperf 1..48") << mlperf << 1 << 48 << std::vector<int>{1, 2, 4, 8, 16, 32, 48};
        QTest::newRow("mlperf 1..1024")
            << mlperf << 1 << 1024 << std::vector<int>{1, 2, 4, 8, 16, 32, 48, 103, 220, 475, 1024};
        QTest::newRow("mlperf 1..16384")
            << mlperf << 1 << 16384 << std::vector<int>{1, 2, 4, 8, 16, 32, 76, 220, 646, 1897, 5574, 16384};
        QTest::newRow("mlperf 8..200") << mlperf << 8 << 200 << std::vector<int>{8, 16, 32, 41, 68, 115, 200};
    }

    void curveConcurrencies()
    {
        QFETCH(int, spacing);
        QFETCH(int, cMin);
        QFETCH(int, cMax);
        QFETCH(std::vector<int>, expected);
        const LoadPlan plan = curve(LoadPlan::CurveSpacing(spacing), cMin, cMax);
        QCOMPARE(Throughline::curveConcurrencies(plan), expected);
        // The planned point count (run page, progress) is the list's length, not a count of its own.
        QCOMPARE(plannedPointCount(plan), int(expected.size()));
        // Planned requests (progress, ETA) walk the same list.
        std::uint64_t requests = 0;
        for (int c : expected)
            requests += std::uint64_t(Throughline::closedBudget(plan, c).total());
        QCOMPARE(plannedRequests(plan), requests);
    }

    void closedBudget_data()
    {
        QTest::addColumn<int>("requestCount");
        QTest::addColumn<double>("multiplier");
        QTest::addColumn<int>("warmupRequests");
        QTest::addColumn<double>("warmupMultiplier");
        QTest::addColumn<int>("c");
        QTest::addColumn<int>("measured");
        QTest::addColumn<int>("warmup");
        QTest::newRow("defaults 10×C, 2×C") << 0 << 10.0 << -1 << 2.0 << 16 << 160 << 32;
        QTest::newRow("explicit count") << 500 << 10.0 << -1 << 2.0 << 16 << 500 << 32;
        QTest::newRow("explicit warm-up") << 0 << 10.0 << 7 << 2.0 << 16 << 160 << 7;
        QTest::newRow("at least one measured") << 0 << 0.01 << 0 << 0.0 << 1 << 1 << 0;
        QTest::newRow("rounded") << 0 << 2.5 << -1 << 0.5 << 3 << 8 << 2;
    }

    void closedBudget()
    {
        QFETCH(int, requestCount);
        QFETCH(double, multiplier);
        QFETCH(int, warmupRequests);
        QFETCH(double, warmupMultiplier);
        QFETCH(int, c);
        QFETCH(int, measured);
        QFETCH(int, warmup);
        LoadPlan p;
        p.requestCount = requestCount;
        p.requestMultiplier = multiplier;
        p.warmupRequests = warmupRequests;
        p.warmupMultiplier = warmupMultiplier;
        const ClosedBudget b = Throughline::closedBudget(p, c);
        QCOMPARE(b.measured, measured);
        QCOMPARE(b.warmup, warmup);
        QCOMPARE(b.total(), measured + warmup);
    }

    void openLoopMeasuredS_data()
    {
        QTest::addColumn<double>("pointDurationS");
        QTest::addColumn<int>("requestCount");
        QTest::addColumn<double>("multiplier");
        QTest::addColumn<double>("rate");
        QTest::addColumn<double>("expected");
        QTest::newRow("duration wins") << 30.0 << 100 << 10.0 << 4.0 << 30.0;
        QTest::newRow("count ÷ rate") << 0.0 << 100 << 10.0 << 4.0 << 25.0;
        QTest::newRow("multiplier as seconds") << 0.0 << 0 << 12.0 << 4.0 << 12.0;
    }

    void openLoopMeasuredS()
    {
        QFETCH(double, pointDurationS);
        QFETCH(int, requestCount);
        QFETCH(double, multiplier);
        QFETCH(double, rate);
        QFETCH(double, expected);
        LoadPlan p;
        p.mode = LoadPlan::Mode::Open;
        p.rates = {rate};
        p.pointDurationS = pointDurationS;
        p.requestCount = requestCount;
        p.requestMultiplier = multiplier;
        p.warmupS = 5;
        QCOMPARE(Throughline::openLoopMeasuredS(p, rate), expected);
        // Planned requests of an open point: rate × (warm-up + the same measured length), the same count for
        // planned requests, the CLI's run plan and the Run page's progress (openLoopBudget).
        const ClosedBudget b = openLoopBudget(p, rate);
        QCOMPARE(b.warmup, int(rate * 5));
        QCOMPARE(b.measured, int(std::lround(rate * expected)));
        QCOMPARE(plannedRequests(p), std::uint64_t(rate * (5 + expected)));
        QCOMPARE(plannedRequests(p), std::uint64_t(b.total()));
    }

    void plannedRequestsAndPoints()
    {
        LoadPlan closed;
        closed.concurrencies = {1, 4, 16};
        QCOMPARE(plannedPointCount(closed), 3);
        QCOMPARE(plannedRequests(closed), std::uint64_t(12 * 1 + 12 * 4 + 12 * 16));
        LoadPlan c = curve(LoadPlan::CurveSpacing::Log2, 1, 48);
        std::uint64_t sum = 0;
        for (int k : Throughline::curveConcurrencies(c))
            sum += std::uint64_t(Throughline::closedBudget(c, k).total());
        QCOMPARE(plannedRequests(c), sum);
        LoadPlan search = curve(LoadPlan::CurveSpacing::Log2, 1, 64);
        search.mode = LoadPlan::Mode::Search;
        search.searchMaxPoints = 6;
        QCOMPARE(plannedPointCount(search), 6);
        QCOMPARE(plannedRequests(search), std::uint64_t(12 * 64) * 6 / 2);
        QCOMPARE(plannedIssueSeconds(search), 0.0);
        // Bounded by duration, closed points are planned by time, not by count.
        closed.pointDurationS = 1200;
        QCOMPARE(plannedRequests(closed), std::uint64_t(0));
        QCOMPARE(plannedIssueSeconds(closed), 3 * 1200.0);
    }

    void arrivalOffsets_data()
    {
        QTest::addColumn<int>("arrival");
        QTest::addColumn<double>("burstiness");
        QTest::newRow("poisson") << int(LoadPlan::Arrival::Poisson) << 1.0;
        QTest::newRow("gamma bursty") << int(LoadPlan::Arrival::Gamma) << 0.5;
        QTest::newRow("gamma smooth") << int(LoadPlan::Arrival::Gamma) << 4.0;
    }

    void arrivalOffsets()
    {
        QFETCH(int, arrival);
        QFETCH(double, burstiness);
        const auto a = arrivalOffsetsNs(LoadPlan::Arrival(arrival), 50, burstiness, 200, 7);
        // λ = 50/s over 200 s: about 10,000 arrivals (± 5 %), first at 0, sorted, inside the schedule.
        QVERIFY2(a.size() > 9500 && a.size() < 10500, qPrintable(QString::number(a.size())));
        QCOMPARE(a.front(), 0);
        QVERIFY(std::is_sorted(a.begin(), a.end()));
        QVERIFY(a.back() < std::int64_t(200e9));
        // Same seed, same schedule; another seed, another one.
        QCOMPARE(arrivalOffsetsNs(LoadPlan::Arrival(arrival), 50, burstiness, 200, 7), a);
        QVERIFY(arrivalOffsetsNs(LoadPlan::Arrival(arrival), 50, burstiness, 200, 8) != a);
    }

    void constantArrivals()
    {
        const auto a = arrivalOffsetsNs(LoadPlan::Arrival::Constant, 4, 1, 2, 1);
        QCOMPARE(a, (std::vector<std::int64_t>{0, 250'000'000, 500'000'000, 750'000'000, 1'000'000'000,
                                               1'250'000'000, 1'500'000'000, 1'750'000'000}));
        QVERIFY(arrivalOffsetsNs(LoadPlan::Arrival::Poisson, 0, 1, 10, 1).empty());
        QVERIFY(arrivalOffsetsNs(LoadPlan::Arrival::Poisson, 5, 1, 0, 1).empty());
    }

    void curveShouldStop_data()
    {
        QTest::addColumn<double>("prevTps");
        QTest::addColumn<double>("tps");
        QTest::addColumn<double>("firstTtft");
        QTest::addColumn<double>("ttft");
        QTest::addColumn<bool>("stop");
        QTest::newRow("flat and TTFT doubled") << 1000.0 << 1020.0 << 100.0 << 200.0 << true;
        QTest::newRow("still gaining 3 %") << 1000.0 << 1030.0 << 100.0 << 400.0 << false;
        QTest::newRow("flat, TTFT below double") << 1000.0 << 1000.0 << 100.0 << 199.0 << false;
        QTest::newRow("first point") << 0.0 << 1000.0 << 100.0 << 300.0 << false;
        QTest::newRow("no TTFT yet") << 1000.0 << 1000.0 << 0.0 << 300.0 << false;
    }

    void curveShouldStop()
    {
        QFETCH(double, prevTps);
        QFETCH(double, tps);
        QFETCH(double, firstTtft);
        QFETCH(double, ttft);
        QFETCH(bool, stop);
        QCOMPARE(Throughline::curveShouldStop(prevTps, tps, firstTtft, ttft), stop);
    }

    void searchBisection_data()
    {
        QTest::addColumn<int>("lo");
        QTest::addColumn<int>("hi");
        QTest::addColumn<int>("maxPoints");
        QTest::addColumn<int>("limit"); // highest concurrency that meets the SLOs (0 = none)
        QTest::addColumn<int>("best");
        QTest::addColumn<std::vector<int>>("tried");
        QTest::newRow("top meets") << 1 << 64 << 8 << 100 << 64 << std::vector<int>{64};
        QTest::newRow("bisect to 37")
            << 1 << 64 << 8 << 37 << 37 << std::vector<int>{64, 32, 48, 40, 36, 38, 37};
        QTest::newRow("none meets") << 1 << 16 << 8 << 0 << 0 << std::vector<int>{16, 8, 4, 2, 1};
        QTest::newRow("point budget") << 1 << 64 << 3 << 37 << 32 << std::vector<int>{64, 32, 48};
    }

    void searchBisection()
    {
        QFETCH(int, lo);
        QFETCH(int, hi);
        QFETCH(int, maxPoints);
        QFETCH(int, limit);
        QFETCH(int, best);
        QFETCH(std::vector<int>, tried);
        SearchBisection s(lo, hi, maxPoints);
        std::vector<int> seen;
        while (auto c = s.next()) {
            seen.push_back(*c);
            s.report(*c, *c <= limit);
        }
        QCOMPARE(seen, tried);
        QCOMPARE(s.best(), best);
        QCOMPARE(s.measured(), int(tried.size()));
    }
};

QTEST_GUILESS_MAIN(TestLoadSchedule)
#include "tst_loadschedule.moc"
