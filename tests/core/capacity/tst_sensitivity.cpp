// Sensitivity of a plan to price (break-even price per deployment) and to tier tightness (every limit
// scaled), on the hand-computed fixtures of tst_planner. Prices: H100 on_demand (Nebius) 2.95, GB200 TCO
// hyperscaler 2.21.
#include "core/capacity/sensitivity.h"

#include <QTest>

#include <cmath>

using namespace Throughline;
using namespace Throughline::Capacity;

namespace {

bool near(double a, double b)
{
    return std::fabs(a - b) <= 0.01 * std::fabs(b);
}

OperatingPoint point(int concurrency, double tps, double ttftP90, double tpotP90)
{
    OperatingPoint p;
    p.concurrency = concurrency;
    p.systemTps = tps;
    p.latency = {{"ttft_p90", ttftP90}, {"tpot_p90", tpotP90}, {"tps_user", 1000.0 / tpotP90}};
    return p;
}

DeploymentCurve curve(const char *gpu, int gpus, int prefill, int decode, std::vector<OperatingPoint> points)
{
    DeploymentCurve c;
    c.deployment = {"", gpu, gpus, prefill, decode};
    c.osl = 1000;
    c.points = std::move(points);
    return c;
}

PlanOptions options(const char *tier, const char *kind)
{
    PlanOptions o;
    o.demand = parseDemand("tps=50000").value();
    o.tier = parseTier(tier).value();
    o.priceKind = kind;
    return o;
}

} // namespace

class TestSensitivity : public QObject
{
    Q_OBJECT
private slots:
    void breakEvenPrice()
    {
        const auto prices = PriceTable::builtIn().value();
        const auto power = PowerTable::builtIn().value();
        // Disaggregated 32 GB200 at 64,000 tok/s vs 8 GB200 at 12,000 tok/s, same price p:
        // (32 p ÷ 64,000) ÷ (8 p ÷ 12,000) = 0.75, so the aggregated one breaks even at 2.21 × 0.75 = 1.6575
        // $/h.
        auto p = plan({curve("GB200", 8, 0, 0, {point(256, 12000, 1900, 45)}),
                       curve("GB200", 32, 24, 8, {point(1024, 64000, 1800, 30)})},
                      options("ttft_p90<=2000,tps_user>=20", "tco_owning_hyperscaler"), prices, power);
        QVERIFY(p.ok());
        const auto be = priceBreakEvens(p.value());
        QCOMPARE(be.size(), std::size_t(1));
        QCOMPARE(be[0].deployment.gpus, 8);
        QCOMPARE(be[0].usdPerGpuHour, 2.21);
        QVERIFY2(near(be[0].breakEvenUsdPerGpuHour, 1.6575),
                 qPrintable(QString::number(be[0].breakEvenUsdPerGpuHour)));
    }

    void tierTightness()
    {
        const auto prices = PriceTable::builtIn().value();
        const auto power = PowerTable::builtIn().value();
        const DeploymentCurve h100 = curve("H100", 4, 0, 0,
                                           {point(8, 2000, 300, 10), point(32, 6000, 800, 20),
                                            point(64, 9000, 1500, 40), point(128, 11000, 3500, 80)});
        auto steps = tierSensitivity({h100}, options("ttft_p90<=2000,tps_user>=20", "on_demand"), prices,
                                     power, {0.1, 0.5, 0.75, 1.0, 1.5, 2.0});
        QVERIFY(steps.ok());
        QCOMPARE(steps->size(), std::size_t(6));
        // × 0.1: TTFT ≤ 200 ms — nothing meets.
        QVERIFY(!(*steps)[0].cheapest);
        QCOMPARE((*steps)[0].tier.text(), std::string("ttft_p90<=200,tps_user>=200"));
        // × 0.5: TTFT ≤ 1,000, tps_user ≥ 40 → C=32, 4 × 2.95 = 11.8 $/h ÷ 21.6 Mtok/h = 0.5463 $/1M.
        QCOMPARE((*steps)[1].cheapest->point.concurrency, 32);
        QVERIFY(near((*steps)[1].cheapest->usdPer1MOutputTokens, 0.546296));
        // × 0.75: TTFT ≤ 1,500, tps_user ≥ 26.7 → C=64 fails (25): still C=32.
        QCOMPARE((*steps)[2].cheapest->point.concurrency, 32);
        // × 1: C=64, 11.8 ÷ 32.4 = 0.3642 $/1M.
        QCOMPARE((*steps)[3].cheapest->point.concurrency, 64);
        QVERIFY(near((*steps)[3].cheapest->usdPer1MOutputTokens, 0.364198));
        // × 1.5: TTFT ≤ 3,000 → C=128 (3,500) still fails: C=64.
        QCOMPARE((*steps)[4].cheapest->point.concurrency, 64);
        // × 2: TTFT ≤ 4,000, tps_user ≥ 10 → C=128, 11.8 ÷ 39.6 = 0.2980 $/1M; 50,000 ÷ 11,000 → 5 replicas.
        QCOMPARE((*steps)[5].cheapest->point.concurrency, 128);
        QVERIFY(near((*steps)[5].cheapest->usdPer1MOutputTokens, 0.297980));
        QCOMPARE((*steps)[5].cheapest->replicas, 5);
        QVERIFY(!tierSensitivity({h100}, options("ttft_p90<=2000", "on_demand"), prices, power, {0}).ok());
    }

    void costPerDeploymentByTightness()
    {
        const auto prices = PriceTable::builtIn().value();
        const auto power = PowerTable::builtIn().value();
        const DeploymentCurve h100 = curve("H100", 4, 0, 0,
                                           {point(8, 2000, 300, 10), point(32, 6000, 800, 20),
                                            point(64, 9000, 1500, 40), point(128, 11000, 3500, 80)});
        const DeploymentCurve h100x8 = curve("H100", 8, 0, 0, {point(256, 30000, 1900, 45)});
        auto curves = costByTightness({h100, h100x8}, options("ttft_p90<=2000,tps_user>=20", "on_demand"),
                                      prices, power, {0.5, 1.0, 2.0});
        QVERIFY(curves.ok());
        QCOMPARE(curves->size(), std::size_t(2));
        const auto &a = (*curves)[0].steps;
        QCOMPARE(a.size(), std::size_t(3));
        // 4 × H100: × 0.5 → C=32 (0.5463 $/1M), × 1 → C=64 (0.3642), × 2 → C=128 (0.2980), as tierTightness.
        QVERIFY(near(a[0].plan->usdPer1MOutputTokens, 0.546296));
        QVERIFY(near(a[1].plan->usdPer1MOutputTokens, 0.364198));
        QVERIFY(near(a[2].plan->usdPer1MOutputTokens, 0.297980));
        // 8 × H100 at 30,000 tok/s, TTFT 1,900, 22.2 tok/s/user: × 0.5 (TTFT ≤ 1,000) fails; × 1 meets:
        // 8 × 2.95 = 23.6 $/h ÷ 108 Mtok/h = 0.21852 $/1M; × 2 the same point.
        const auto &b = (*curves)[1].steps;
        QVERIFY(!b[0].plan);
        QVERIFY(near(b[1].plan->usdPer1MOutputTokens, 0.218519));
        QVERIFY(near(b[2].plan->usdPer1MOutputTokens, 0.218519));
    }
};

QTEST_GUILESS_MAIN(TestSensitivity)
#include "tst_sensitivity.moc"
