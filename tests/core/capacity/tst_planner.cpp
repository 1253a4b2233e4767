// The capacity planner on hand-computed fixtures. Every expected figure is worked out in the comment next to
// it and checked within 1 % (most are exact). Prices and power come from the shipped tables:
// GB200 tco_owning_hyperscaler 2.21 $/GPU-h, H100 on_demand default (Nebius) 2.95 $/GPU-h,
// all-in kW per GPU (later value): GB200 1.87, H100 1.37; H100 TDP 700 W.
#include "core/capacity/planner.h"
#include "core/capacity/storedcurves.h"

#include <nlohmann/json.hpp>

#include <QTest>

#include <cmath>
#include <limits>

using namespace Throughline;
using namespace Throughline::Capacity;

namespace {

#define QNEAR(actual, expected)                                                                              \
    QVERIFY2(std::fabs(double(actual) - double(expected)) <= 0.01 * std::fabs(double(expected)),             \
             qPrintable(QStringLiteral("%1 = %2, expected %3 (±1 %)")                                        \
                            .arg(QStringLiteral(#actual))                                                    \
                            .arg(double(actual), 0, 'g', 10)                                                 \
                            .arg(double(expected), 0, 'g', 10)))

OperatingPoint point(int concurrency, double tps, double ttftP90, double tpotP90)
{
    OperatingPoint p;
    p.runUuid = "0123456789abcdef";
    p.concurrency = concurrency;
    p.systemTps = tps;
    p.latency = {{"ttft_p90", ttftP90}, {"tpot_p90", tpotP90}, {"tps_user", 1000.0 / tpotP90}};
    return p;
}

// Four H100 GPUs, throughput rising with concurrency while TTFT and TPOT grow.
DeploymentCurve h100x4()
{
    DeploymentCurve c;
    c.deployment = {"llama · vLLM · Reasoning", "H100", 4, 0, 0};
    c.isl = 1000;
    c.osl = 1000;
    c.points = {point(8, 2000, 300, 10), point(32, 6000, 800, 20), point(64, 9000, 1500, 40),
                point(128, 11000, 3500, 80)};
    return c;
}

// GB200 disaggregated: 24 prefill + 8 decode GPUs = 32 per replica.
DeploymentCurve gb200Disaggregated()
{
    DeploymentCurve c;
    c.deployment = {"DeepSeek-R1 · Dynamo", "GB200", 32, 24, 8};
    c.osl = 1024;
    c.points = {point(1024, 64000, 1800, 30)};
    return c;
}

DeploymentCurve gb200x8()
{
    DeploymentCurve c;
    c.deployment = {"DeepSeek-R1 · TRT-LLM", "GB200", 8, 0, 0};
    c.osl = 1024;
    c.points = {point(256, 12000, 1900, 45)};
    return c;
}

struct Tables {
    PriceTable prices = PriceTable::builtIn().value();
    PowerTable power = PowerTable::builtIn().value();
};

PlanOptions options(const std::string &demand, const std::string &tier, double headroom,
                    const std::string &kind = "on_demand")
{
    PlanOptions o;
    o.demand = parseDemand(demand).value();
    o.tier = parseTier(tier).value();
    o.headroomPct = headroom;
    o.priceKind = kind;
    return o;
}

} // namespace

class TestPlanner : public QObject
{
    Q_OBJECT
private slots:
    void seedWorkedNumbers()
    {
        // CoreWeave's MLPerf Endpoints result: 441,740 output tok/s on 68 GB200 at 16,384 concurrent
        // requests, TTFT p95 5.77 s.
        DeploymentCurve c;
        c.deployment = {"MLPerf Endpoints", "GB200", 68, 0, 0};
        OperatingPoint p;
        p.concurrency = 16384;
        p.systemTps = 441740;
        p.latency = {{"ttft_p95", 5770}};
        c.points = {p};
        const Tables t;
        auto r = plan({c}, options("tps=441740", "ttft_p95<=6000", 0, "tco_owning_hyperscaler"), t.prices,
                      t.power);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QVERIFY(r->anyMeets());
        const DeploymentPlan &d = r->ranked.front();
        QNEAR(d.tpsPerGpu, 6496.18); // 441,740 ÷ 68 = 6,496.18 (the seed's 6,496 tok/s per GPU)
        QCOMPARE(std::lround(d.usersPerGpu), 241L); // 16,384 ÷ 68 = 240.94 → 241 users per GPU
        QCOMPARE(d.replicas, 1);                    // 441,740 × 1.0 ÷ 441,740 = 1
        QCOMPARE(d.gpusNeeded, 68);                 // 1 × 68
        QCOMPARE(d.gpusAtPerGpuRate, 68);
        QNEAR(d.tokensPerGpuHour, 23386235);     // 6,496.18 × 3,600
        QNEAR(d.usdPer1MOutputTokens, 0.094500); // 68 × 2.21 = 150.28 $/h ÷ (441,740 × 3,600 tok/h) × 1e6
        QNEAR(d.kwhPer1MOutputTokens, 0.079962); // 68 × 1.87 = 127.16 kW ÷ 1,590.264 Mtok/h
        QVERIFY(d.binding.find("none") == 0);    // the only point: more load was not measured

        // 10 % headroom: 441,740 × 1.1 = 485,914 tok/s → ceil(1.1) = 2 replicas of 68 = 136 GPUs; at the
        // per-GPU rate (replicas of any size, not measured) ceil(485,914 ÷ 6,496.18 = 74.8) = 75 GPUs.
        auto h = plan({c}, options("tps=441740", "ttft_p95<=6000", 10, "tco_owning_hyperscaler"), t.prices,
                      t.power);
        QVERIFY(h.ok());
        QCOMPARE(h->ranked.front().replicas, 2);
        QCOMPARE(h->ranked.front().gpusNeeded, 136);
        QCOMPARE(h->ranked.front().gpusAtPerGpuRate, 75);
        // At demand: 136 × 2.21 = 300.56 $/h ÷ 1,590.264 Mtok/h = 0.18900 $/1M.
        QNEAR(h->ranked.front().usdPer1MOutputTokensAtDemand, 0.18900);
    }

    void bestPointOnTheFrontierAndReplicasWithHeadroom()
    {
        const Tables t;
        // ttft_p90 ≤ 2000 and tps_user ≥ 20: C=64 (9,000 tok/s, TTFT 1,500, 25 tok/s/user) is the most loaded
        // point meeting both; C=128 fails TTFT (3,500) and interactivity (12.5).
        auto r = plan({h100x4()}, options("tps=50000", "ttft_p90<=2000,tps_user>=20", 10), t.prices, t.power);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QCOMPARE(r->ranked.size(), std::size_t(1));
        const DeploymentPlan &d = r->ranked.front();
        QCOMPARE(d.point.concurrency, 64);
        QCOMPARE(d.price.provider, std::string("Nebius"));
        QCOMPARE(d.price.kind, std::string("on_demand"));
        QNEAR(d.tpsPerGpu, 2250);                        // 9,000 ÷ 4
        QNEAR(d.usersPerGpu, 16);                        // 64 ÷ 4
        QCOMPARE(d.replicas, 7);                         // 50,000 × 1.1 = 55,000 ÷ 9,000 = 6.11 → 7
        QCOMPARE(d.gpusNeeded, 28);                      // 7 × 4
        QCOMPARE(d.gpusAtPerGpuRate, 25);                // 55,000 ÷ 2,250 = 24.4 → 25
        QNEAR(d.usdPer1MOutputTokens, 0.364198);         // 4 × 2.95 = 11.8 $/h ÷ 32.4 Mtok/h
        QNEAR(d.usdPer1MOutputTokensAtDemand, 0.458889); // 28 × 2.95 = 82.6 $/h ÷ 180 Mtok/h
        QNEAR(d.usdPerHour, 82.6);
        QNEAR(d.kwhPer1MOutputTokens, 0.169136); // 4 × 1.37 = 5.48 kW ÷ 32.4 Mtok/h
        QNEAR(d.tokensPerGpuHour, 8100000);      // 2,250 × 3,600
        QVERIFY2(d.binding.find("ttft_p90 3,500 ms > 2,000 ms") != std::string::npos, d.binding.c_str());
        QVERIFY2(d.binding.find("concurrency 128") != std::string::npos, d.binding.c_str());

        // Tighter interactivity (≥ 30 tok/s/user): C=32 (6,000 tok/s, 50 tok/s/user); C=64 binds (25 < 30).
        auto tight =
            plan({h100x4()}, options("tps=50000", "ttft_p90<=2000,tps_user>=30", 10), t.prices, t.power);
        QVERIFY(tight.ok());
        QCOMPARE(tight->ranked.front().point.concurrency, 32);
        QCOMPARE(tight->ranked.front().replicas, 10); // 55,000 ÷ 6,000 = 9.17 → 10
        QVERIFY2(tight->ranked.front().binding.find("tps_user 25.0 tok/s/user < 30.0") != std::string::npos,
                 tight->ranked.front().binding.c_str());
        // TPOT p90 ≤ 33.3 ms is the same axis as tps_user ≥ 30: same point.
        auto tpot = plan({h100x4()}, options("tps=50000", "tpot_p90<=33.3", 10), t.prices, t.power);
        QVERIFY(tpot.ok());
        QCOMPARE(tpot->ranked.front().point.concurrency, 32);
    }

    void demandAsUsersOrRequests()
    {
        const Tables t;
        // 1,000 users, 10 % headroom at C=64 per replica: 1,100 ÷ 64 = 17.2 → 18 replicas = 72 GPUs.
        auto users =
            plan({h100x4()}, options("users=1000", "ttft_p90<=2000,tps_user>=20", 10), t.prices, t.power);
        QVERIFY(users.ok());
        QCOMPARE(users->ranked.front().replicas, 18);
        QCOMPARE(users->ranked.front().gpusNeeded, 72);
        QNEAR(users->ranked.front().demandTps, 140625); // 1,000 × 9,000 ÷ 64 tok/s per user
        // 50 requests/s × OSL 1,000 = 50,000 tok/s → the same 7 replicas as tps=50000.
        auto rps = plan({h100x4()}, options("rps=50", "ttft_p90<=2000,tps_user>=20", 10), t.prices, t.power);
        QVERIFY(rps.ok());
        QNEAR(rps->ranked.front().demandTps, 50000);
        QCOMPARE(rps->ranked.front().replicas, 7);
    }

    void disaggregatedCountsPrefillAndDecode()
    {
        const Tables t;
        auto r = plan({gb200x8(), gb200Disaggregated()},
                      options("tps=200000", "ttft_p90<=2000,tps_user>=20", 0, "tco_owning_hyperscaler"),
                      t.prices, t.power);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().message.c_str());
        QCOMPARE(r->ranked.size(), std::size_t(2));
        // Disaggregated: 200,000 ÷ 64,000 = 3.125 → 4 replicas × (24 + 8) = 128 GPUs (96 prefill + 32
        // decode), 64,000 ÷ 32 = 2,000 tok/s per GPU; 32 × 2.21 = 70.72 $/h ÷ 230.4 Mtok/h = 0.30694 $/1M.
        const DeploymentPlan &dis = r->ranked[0];
        QVERIFY(dis.deployment.disaggregated());
        QCOMPARE(dis.replicas, 4);
        QCOMPARE(dis.gpusNeeded, 128);
        QCOMPARE(dis.prefillGpusNeeded, 96);
        QCOMPARE(dis.decodeGpusNeeded, 32);
        QNEAR(dis.tpsPerGpu, 2000);
        QNEAR(dis.usersPerGpu, 32); // 1,024 ÷ 32
        QNEAR(dis.usdPer1MOutputTokens, 0.306944);
        // Aggregated 8 × GB200: 200,000 ÷ 12,000 = 16.7 → 17 replicas = 136 GPUs; 1,500 tok/s per GPU;
        // 8 × 2.21 = 17.68 $/h ÷ 43.2 Mtok/h = 0.40926 $/1M: ranked second.
        const DeploymentPlan &agg = r->ranked[1];
        QCOMPARE(agg.gpusNeeded, 136);
        QCOMPARE(agg.prefillGpusNeeded, 0);
        QNEAR(agg.usdPer1MOutputTokens, 0.409259);
        // A disaggregated deployment whose total is not prefill + decode is refused.
        DeploymentCurve broken = gb200Disaggregated();
        broken.deployment.gpus = 30;
        QVERIFY(
            !plan({broken}, options("tps=1", "tps_user>=1", 0, "tco_owning_hyperscaler"), t.prices, t.power)
                 .ok());
    }

    void tierNoPointMeets()
    {
        const Tables t;
        // TTFT p90 ≤ 200 ms: nothing meets. Closest: H100 C=8 (300 ms, 50 % over) before GB200 (1,800 ms).
        auto r = plan({gb200Disaggregated(), h100x4()},
                      options("tps=50000", "ttft_p90<=200", 0, "rental_3yr"), t.prices, t.power);
        QVERIFY(r.ok());
        QVERIFY(!r->anyMeets());
        QCOMPARE(r->failing.size(), std::size_t(2));
        QCOMPARE(r->failing.front().point.concurrency, 8);
        const std::string msg = r->noneMeetsMessage();
        QVERIFY2(msg.find("no deployment meets this tier (ttft_p90<=200)") == 0, msg.c_str());
        QVERIFY2(msg.find("the closest is llama · vLLM · Reasoning (4 × H100) at concurrency 8") !=
                     std::string::npos,
                 msg.c_str());
        QVERIFY2(msg.find("ttft_p90 300 ms > 200 ms") != std::string::npos, msg.c_str());
    }

    void missingPriceIsAnErrorNamingGpuAndKind()
    {
        const Tables t;
        DeploymentCurve c = h100x4();
        c.deployment.gpu = "GB300"; // GB300 has TCO tiers only
        auto r = plan({c}, options("tps=1000", "tps_user>=20", 0, "on_demand"), t.prices, t.power);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.find("GB300") != std::string::npos, r.error().message.c_str());
        QVERIFY2(r.error().message.find("on_demand") != std::string::npos, r.error().message.c_str());
    }

    void powerKinds()
    {
        const Tables t;
        PlanOptions o = options("tps=50000", "ttft_p90<=2000,tps_user>=20", 0);
        o.powerKind = PowerKind::BoardTdp;
        o.boardUtilisation = 0.5;
        auto tdp = plan({h100x4()}, o, t.prices, t.power);
        QVERIFY(tdp.ok());
        QNEAR(tdp->ranked.front().kwhPer1MOutputTokens, 0.043210); // 4 × 0.7 kW × 0.5 = 1.4 kW ÷ 32.4 Mtok/h
        o.powerKind = PowerKind::MeasuredDcgm;
        QVERIFY(!plan({h100x4()}, o, t.prices, t.power).ok()); // no energy measured
        DeploymentCurve c = h100x4();
        for (auto &p : c.points)
            p.energyJPerOutputToken = 0.5;
        auto dcgm = plan({c}, o, t.prices, t.power);
        QVERIFY(dcgm.ok());
        QNEAR(dcgm->ranked.front().kwhPer1MOutputTokens, 0.138889); // 0.5 J × 1e6 ÷ 3.6e6 J/kWh
    }

    void badInputNamesTheField()
    {
        auto tier = parseTier("ttft_p90<=2000,tps_usr>=20");
        QVERIFY(!tier.ok());
        QVERIFY2(tier.error().message.find("tier field 2 'tps_usr>=20'") != std::string::npos,
                 tier.error().message.c_str());
        QVERIFY(!parseTier("ttft_p90>=2000").ok());
        QVERIFY(!parseTier("tps_user<=20").ok());
        QVERIFY(!parseTier("ttft_p90<=abc").ok());
        QVERIFY(!parseTier("ttft_p90<=1,ttft_p90<=2").ok());
        QVERIFY(!parseTier("").ok());
        QCOMPARE(parseTier("e2e_p99<=30000, tpot_p999<=80").value().limits.size(), std::size_t(2));
        auto demand = parseDemand("tpx=5");
        QVERIFY(!demand.ok());
        QVERIFY2(demand.error().message.find("'tpx'") != std::string::npos, demand.error().message.c_str());
        QVERIFY(!parseDemand("tps=-5").ok());
        QVERIFY(!parseDemand("users=").ok());
    }

    void intervalsSayWhetherTheTierIsMetConclusively()
    {
        const Tables t;
        DeploymentCurve c = h100x4();
        // C=64 (chosen at ttft_p90 ≤ 2000): TTFT p90 1,500 with 95 % CI 1,200–1,700 (all below 2,000:
        // conclusive); tps_user 25 with CI 19–31 straddling 20: inconclusive.
        c.points[2].intervals = {{"ttft_p90", {1200, 1700}}, {"tps_user", {19, 31}}};
        auto r = plan({c}, options("tps=50000", "ttft_p90<=2000,tps_user>=20", 0), t.prices, t.power);
        QVERIFY(r.ok());
        const auto &checks = r->ranked.front().checks;
        QCOMPARE(checks.size(), std::size_t(2));
        QCOMPARE(checks[0].confidence(), std::string("conclusive"));
        QVERIFY2(checks[0].text().find("[95 % CI 1,200–1,700, conclusive]") != std::string::npos,
                 checks[0].text().c_str());
        QCOMPARE(checks[1].confidence(), std::string("inconclusive"));
        // An unbounded upper side (too few samples) can never be conclusive for an upper limit.
        c.points[2].intervals = {{"ttft_p90", {1200, std::numeric_limits<double>::infinity()}}};
        auto u = plan({c}, options("tps=50000", "ttft_p90<=2000", 0), t.prices, t.power);
        QVERIFY(u.ok());
        QCOMPARE(u->ranked.front().checks[0].confidence(), std::string("inconclusive"));
        QCOMPARE(h100x4().points[0].intervals.size(), std::size_t(0)); // none given: no interval text
        auto none = plan({h100x4()}, options("tps=50000", "ttft_p90<=2000", 0), t.prices, t.power);
        QVERIFY(none->ranked.front().checks[0].text().find("CI") == std::string::npos);
    }

    void storedPointShape()
    {
        // A results.json point object as storage keeps it: percentiles by key, null = not reportable.
        const auto j = nlohmann::json::parse(R"({"load":{"mode":"concurrency","concurrency":64},
            "validity":{"valid":true,"flags":[]},
            "metrics":{"output_tps":9000,"request_rate":9.1,"ttft_ms":{"p50":900,"p90":1500,"p999":null},
                       "tpot_ms":{"p90":40},"e2e_ms":{"p99":41000}},
            "telemetry":{"energy_per_output_token_j":0.4}})");
        const OperatingPoint p = operatingPointFromJson(j);
        QCOMPARE(p.concurrency, 64);
        QCOMPARE(p.systemTps, 9000.0);
        QCOMPARE(p.latency.at("ttft_p90"), 1500.0);
        QVERIFY(!p.latency.count("ttft_p999"));
        QCOMPARE(p.latency.at("tps_user"), 25.0); // 1000 ÷ 40 ms
        QCOMPARE(p.latency.at("e2e_p99"), 41000.0);
        QCOMPARE(p.energyJPerOutputToken, 0.4);
        QVERIFY(p.valid);
    }
};

QTEST_GUILESS_MAIN(TestPlanner)
#include "tst_planner.moc"
