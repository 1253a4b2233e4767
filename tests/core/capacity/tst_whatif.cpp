// What-if deployments: the calibration arithmetic (hand-computed), a what-if curve from the simulator's own
// scheduler sized by the planner with its band, and a what-if for a published trtllm_perf_overview.csv row
// whose published figure must lie inside the band the calibration states — out of sample: the constants are
// fitted on every other row (Calibration::fit), the band is the fitted model's predicted ÷ published range
// on those rows, and the row itself is only predicted. (The agreement with an engine-measured simulator run
// is in tst_cliplan, which has that run.)
#include "core/campaign/catalog.h"
#include "core/capacity/whatif.h"
#include "core/sim/calibration.h"
#include "core/sim/whatifcurve.h"

#include <QTest>

#include <cmath>

using namespace Throughline;
using namespace Throughline::Capacity;

namespace {

bool near(double a, double b, double rel = 0.01)
{
    return std::fabs(a - b) <= rel * std::fabs(b);
}

std::vector<SimulatedPoint> simulatedPoints(const std::vector<WhatIfPoint> &curve)
{
    std::vector<SimulatedPoint> out;
    for (const WhatIfPoint &p : curve)
        out.push_back({p.concurrency, p.outputTps, p.latency});
    return out;
}

} // namespace

class TestWhatIf : public QObject
{
    Q_OBJECT
private slots:
    void calibrationArithmetic()
    {
        // Ratios 1,000 ÷ 1,100 = 0.90909 and 2,000 ÷ 2,000 = 1: factor √0.90909 = 0.95346; the ratios around
        // it are 0.95346 and 1.04881 — the lower side widened to the minimum ± 5 %: band 0.95–1.04881.
        auto b = calibrateToMeasured({{1000, 1100}, {2000, 2000}});
        QVERIFY(b.ok());
        QVERIFY(near(b->factor, 0.953463));
        QVERIFY(near(b->low, 0.95));
        QVERIFY(near(b->high, 1.048809));
        QVERIFY2(b->source.find("calibrated on 2 measured points") == 0, b->source.c_str());
        QVERIFY(!calibrateToMeasured({}).ok());
        QVERIFY(!calibrateToMeasured({{0, 1}}).ok());
        // Held out: predicted ÷ published 0.8–1.25 → the truth within predicted × [0.8, 1.25].
        const WhatIfBand h = heldOutBand(0.8, 1.25, "held-out");
        QVERIFY(near(h.low, 0.8) && near(h.high, 1.25));

        // A simulated point through the calibration: 10,000 tok/s × 0.95346 = 9,534.6; TTFT 1,000 ÷ 0.95346 =
        // 1,048.8 ms; tps_user 25 × 0.95346 = 23.84.
        const DeploymentCurve c =
            whatIfCurve({"what-if", "H100", 4, 0, 0}, 1000, 1000,
                        {{64, 10000, {{"ttft_p90", 1000}, {"tpot_p90", 40}, {"tps_user", 25}}}}, *b);
        QCOMPARE(c.points.size(), std::size_t(1));
        const Capacity::OperatingPoint &p = c.points.front();
        QVERIFY(p.origin == PointOrigin::Simulated);
        QVERIFY(near(p.systemTps, 9534.63));
        QVERIFY(near(p.latency.at("ttft_p90"), 1048.81));
        QVERIFY(near(p.latency.at("tps_user"), 23.8366));
        QVERIFY2(pointOriginText(p).find("simulated (what-if, not measured): tok/s ×0.95–×1.05") == 0,
                 pointOriginText(p).c_str());

        // Sized by the planner: 50,000 tok/s ÷ 9,534.6 = 5.24 → 6 replicas = 24 GPUs; at the band's low end
        // (× 0.95: 9,057.9 tok/s) 5.52 → 6 replicas = 24, at its high end (× 1.0488: 10,000 tok/s) 5 → 20.
        // 4 × 2.95 = 11.8 $/h ÷ (9,534.6 × 3,600) × 1e6 = 0.34377 $/1M, band 0.34377 ÷ 1.0488 = 0.32778 to
        // 0.34377 ÷ 0.95 = 0.36187.
        PlanOptions o;
        o.demand = parseDemand("tps=50000").value();
        o.tier = parseTier("ttft_p90<=2000,tps_user>=20").value();
        auto r = plan({c}, o, PriceTable::builtIn().value(), PowerTable::builtIn().value());
        QVERIFY(r.ok() && r->anyMeets());
        const DeploymentPlan &d = r->ranked.front();
        QCOMPARE(d.gpusNeeded, 24);
        QCOMPARE(d.gpusNeededBandLow, 24);
        QCOMPARE(d.gpusNeededBandHigh, 20);
        QVERIFY(near(d.usdPer1MOutputTokens, 0.343774));
        QVERIFY(near(d.usdPer1MBandLow, 0.327775));
        QVERIFY(near(d.usdPer1MBandHigh, 0.361867));
    }

    void simulatedCurveIsLabelledAndSized()
    {
        // gpt-oss-20b on one H200 (FP8), Chat 128/128: the closed loop of the simulator's scheduler at C = 4
        // … 64.
        const Catalog &cat = Catalog::builtin();
        const PerformanceModel model(*cat.model("gpt-oss-20b"), *cat.gpu("H200"), 1, Precision::Fp8);
        WhatIfSpec spec;
        spec.isl = 128;
        spec.osl = 128;
        spec.concurrencies = {4, 16, 64};
        const auto curve = whatIfCurve(model, spec);
        QCOMPARE(curve.size(), std::size_t(3));
        for (std::size_t i = 1; i < curve.size(); ++i)
            QVERIFY(curve[i].outputTps > curve[i - 1].outputTps); // more load, more throughput
        // At C = 4 the batch is 4 and each step emits 4 tokens: tok/s ≈ 4 ÷ decode step (prefill steps
        // aside).
        const double step = model.decodeStepS(4, 128 + 64);
        QVERIFY2(curve[0].outputTps <= 4 / step && curve[0].outputTps > 0.8 * 4 / step,
                 qPrintable(QString::number(curve[0].outputTps)));
        QVERIFY(curve[0].latency.count("ttft_p90") && curve[0].latency.count("tps_user"));
        const WhatIfBand band = heldOutBand(0.56, 2.24, "H200 held-out calibration (docs/simulator.md)");
        const DeploymentCurve c =
            whatIfCurve({"gpt-oss-20b · what-if", "H200", 1, 0, 0}, 128, 128, simulatedPoints(curve), band);
        PlanOptions o;
        o.demand = parseDemand("tps=100000").value();
        o.tier = parseTier("tps_user>=20").value();
        auto r = plan({c}, o, PriceTable::builtIn().value(), PowerTable::builtIn().value());
        QVERIFY(r.ok() && r->anyMeets());
        QVERIFY(r->ranked.front().point.origin == PointOrigin::Simulated);
        QVERIFY(r->ranked.front().gpusNeededBandLow >= r->ranked.front().gpusNeeded);
        QVERIFY(r->ranked.front().gpusNeededBandHigh <= r->ranked.front().gpusNeeded);
    }

    void publishedRowInsideItsBand()
    {
        const Catalog &cat = Catalog::builtin();
        const auto &rows = cat.perfOverview();
        // gpt-oss-120b on 4 H100 (DEP4, FP8), 1000/1000: published 4,685 output tok/s per GPU.
        std::vector<PerfOverviewRow> others;
        const PerfOverviewRow *target = nullptr;
        for (const PerfOverviewRow &r : rows) {
            if (r.model == "gpt-oss-120b" && r.gpu == "H100" && r.isl == 1000 && r.osl == 1000)
                target = &r;
            else
                others.push_back(r);
        }
        QVERIFY(target);
        QCOMPARE(target->outputTokPerSPerGpu, 4685.0);
        const PerfConstants fitted = Calibration::fit(cat, others);
        const CalibrationStats onOthers = Calibration::evaluate(cat, others, fitted);
        const WhatIfBand band =
            heldOutBand(onOthers.minRatio, onOthers.maxRatio, "calibration on the other perf-overview rows");
        const double predicted =
            Calibration::evaluate(cat, {*target}, fitted).rows.front().predictedTokPerSPerGpu;
        // The what-if as a one-point curve (the saturated operating point trtllm-bench's offline figure is)
        // through the planner: the band the answer states must hold the published figure.
        const PerformanceModel model(*cat.model(target->model), *cat.gpu(target->gpu), target->gpus,
                                     parsePrecision(target->precision).value(), fitted);
        const auto op = model.operatingPoint(target->isl, target->osl);
        QVERIFY(near(op.outputTokPerSPerGpu, predicted, 1e-9));
        const DeploymentCurve c = whatIfCurve(
            {"gpt-oss-120b · TRT-LLM · what-if", target->gpu, target->gpus, 0, 0}, target->isl, target->osl,
            {{op.batch, op.outputTokPerS, {{"tps_user", 1.0 / op.decodeStepS}}}}, band);
        PlanOptions o;
        o.demand = parseDemand("tps=100000").value();
        o.tier = parseTier("tps_user>=1").value();
        o.priceKind = "tco_owning_hyperscaler";
        auto r = plan({c}, o, PriceTable::builtIn().value(), PowerTable::builtIn().value());
        QVERIFY(r.ok() && r->anyMeets());
        const DeploymentPlan &d = r->ranked.front();
        const double lo = d.tpsPerGpu * d.point.tpsBandLow, hi = d.tpsPerGpu * d.point.tpsBandHigh;
        std::printf("what-if %s %s %s: predicted %.0f tok/s/GPU, band %.0f–%.0f (%s), published %.0f\n",
                    target->model.c_str(), target->gpu.c_str(), target->parallelism.c_str(), d.tpsPerGpu, lo,
                    hi, band.source.c_str(), target->outputTokPerSPerGpu);
        QVERIFY2(
            lo <= target->outputTokPerSPerGpu && target->outputTokPerSPerGpu <= hi,
            qPrintable(QStringLiteral("%1 not in %2–%3").arg(target->outputTokPerSPerGpu).arg(lo).arg(hi)));
        QVERIFY(pointOriginText(d.point).find("calibration on the other perf-overview rows") !=
                std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestWhatIf)
#include "tst_whatif.moc"
