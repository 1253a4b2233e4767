#pragma once
// The capacity and cost planner: from measured operating points to GPUs, dollars and energy at an SLO tier.
// Per deployment (GPU type × count, aggregated or disaggregated) it finds the best measured point meeting the
// tier on the step-function frontier (core/mlperf), and sizes a service for a demand with a headroom:
// replicas and GPUs, users per GPU, $ per 1M output tokens, kWh per 1M output tokens, tokens per GPU-hour and
// the constraint that binds. Only measured points are used; a point's origin (a real endpoint or the
// built-in simulator) travels with every answer. Pure computation; any thread. Arithmetic in
// docs/capacity.md.

#include "core/capacity/prices.h"
#include "core/capacity/slotier.h"
#include "core/util/result.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace Throughline::Capacity {

struct Deployment {
    std::string label; // model · backend · phase · parallelism/precision as the run names it
    std::string gpu;
    int gpus = 0;        // every GPU of one replica (prefill + decode when disaggregated)
    int prefillGpus = 0; // disaggregated only
    int decodeGpus = 0;
    bool disaggregated() const { return prefillGpus > 0 && decodeGpus > 0; }
};

enum class PointOrigin {
    Measured,          // an endpoint measured by the engine
    MeasuredSimulator, // measured by the engine against the built-in simulator
    Simulated          // a what-if: the simulator's own figures, not measured (whatif.h), with a band
};
std::string pointOriginName(PointOrigin origin);

struct OperatingPoint {
    std::string runUuid;
    std::int64_t pointId = 0; // the stored point the numbers come from (0 = not stored)
    int pointIndex = 0;
    int concurrency = 0;    // concurrent users of one replica; 0 = not a fixed-concurrency point
    double systemTps = 0;   // output tokens/s of one replica
    double requestRate = 0; // successful requests/s of one replica (0 = not stored)
    LatencyValues latency;  // ttft/tpot/e2e percentiles, tps_user
    // 95 % confidence intervals of latency figures by the same keys (lower, upper; ±inf = unbounded side),
    // where the run has the point's requests.
    std::map<std::string, std::pair<double, double>> intervals;
    double energyJPerOutputToken = 0; // measured DCGM energy per output token (GPU only); 0 = not measured
    bool valid = true;
    PointOrigin origin = PointOrigin::Measured;
    // Simulated only: the true throughput lies within [systemTps × low, systemTps × high] as far as the
    // calibration can tell, and where that band comes from.
    double tpsBandLow = 1, tpsBandHigh = 1;
    std::string bandSource;
};

// pointOriginName, and for a simulated point its band: "simulated (what-if, not measured): tok/s ×0.95–×1.05,
// calibrated on …".
std::string pointOriginText(const OperatingPoint &point);

// "4 × H100" or "24P + 8D × GB200", after the label when there is one.
std::string deploymentName(const Deployment &deployment);
// "concurrency 64 of run 1a2b3c4d" (or "point 3 …" for rate points).
std::string pointName(const OperatingPoint &point);

struct DeploymentCurve {
    Deployment deployment;
    std::string model; // the catalog model where known (what-if calibration matches on it)
    int isl = 0, osl = 0;
    std::vector<OperatingPoint> points;
};

struct Demand {
    enum class Kind { OutputTps, ConcurrentUsers, RequestsPerS };
    Kind kind = Kind::OutputTps;
    double value = 0;
};
// "tps=500000", "users=16384", "rps=12.5" → InvalidInput naming the field on anything else.
Result<Demand> parseDemand(const std::string &text);
std::string describeDemand(const Demand &demand);

struct PlanOptions {
    Demand demand;
    SloTier tier;
    double headroomPct = 0; // capacity ≥ demand × (1 + headroom/100)
    std::string priceKind = "on_demand";
    std::string priceProvider; // empty = the kind's default
    PowerKind powerKind = PowerKind::AllIn;
    double boardUtilisation = 1.0; // BoardTdp only
};

struct DeploymentPlan {
    Deployment deployment;
    bool meets = false;
    OperatingPoint point;           // the chosen point (meets) or the closest one (does not)
    std::vector<LimitCheck> checks; // the tier's limits at `point`
    // Sizing (meets only; for the closest point the same figures as if it met).
    double demandTps = 0;   // the demand as output tokens/s (users × per-user rate, rps × OSL)
    double tpsPerGpu = 0;   // systemTps ÷ gpus
    double usersPerGpu = 0; // concurrency ÷ gpus (0 when the point has no fixed concurrency)
    int replicas = 0;       // ceil(demand × (1 + h) ÷ replica capacity)
    int gpusNeeded = 0;     // replicas × gpus (prefill + decode)
    int prefillGpusNeeded = 0, decodeGpusNeeded = 0;
    int gpusAtPerGpuRate =
        0; // ceil(demand × (1 + h) ÷ tpsPerGpu): if replicas could be any size (not measured)
    double tokensPerGpuHour = 0;
    GpuPrice price;
    double usdPer1MOutputTokens = 0; // at the point: gpus × $/h ÷ (systemTps × 3600) × 1e6
    double usdPer1MOutputTokensAtDemand =
        0;                 // gpusNeeded × $/h ÷ (demandTps × 3600) × 1e6 (rounding + headroom)
    double usdPerHour = 0; // gpusNeeded × $/h
    PowerKind powerKind = PowerKind::AllIn;
    double kwPerGpu = 0; // table kinds; 0 for measured_dcgm
    std::string powerSource;
    double kwhPer1MOutputTokens = 0;
    std::string binding; // the constraint that stops a more loaded measured point being used
    // Simulated points: the figures at the band's ends (low throughput → most GPUs, highest cost).
    int gpusNeededBandLow = 0, gpusNeededBandHigh = 0;
    double usdPer1MBandLow = 0, usdPer1MBandHigh = 0; // cheapest (high throughput) … dearest
};

struct Plan {
    PlanOptions options;
    std::vector<DeploymentPlan> ranked; // deployments meeting the tier, cheapest $ per 1M output tokens first
    std::vector<DeploymentPlan> failing; // the others, closest to the tier first
    bool anyMeets() const { return !ranked.empty(); }
    // "no deployment meets this tier; the closest is …" when nothing meets, else "".
    std::string noneMeetsMessage() const;
};

// Errors: an empty curve list, a deployment without GPUs, a missing price (naming GPU and kind), a missing
// power figure, a users/rps demand the points cannot answer.
Result<Plan> plan(const std::vector<DeploymentCurve> &curves, const PlanOptions &options,
                  const PriceTable &prices, const PowerTable &power);

} // namespace Throughline::Capacity
