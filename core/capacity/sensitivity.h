#pragma once
// How a plan moves with price and with SLO tightness (issue 24 "shows sensitivity to price and to tier
// tightness"). Price: the break-even price at which each other deployment would match the cheapest one (same
// kind; the cost is linear in the price). Tier: the plan re-run with every limit scaled — latency bounds × f,
// tps_user ÷ f, so f < 1 is tighter — answering which deployment is cheapest and what it costs at each step.
// Pure computation; any thread.

#include "core/capacity/planner.h"

#include <optional>
#include <vector>

namespace Throughline::Capacity {

struct PriceBreakEven {
    Deployment deployment;
    double usdPerGpuHour = 0;          // its price now
    double breakEvenUsdPerGpuHour = 0; // the price at which its $ per 1M output tokens equals the cheapest's
};
// One entry per ranked deployment after the first (empty when fewer than two meet the tier).
std::vector<PriceBreakEven> priceBreakEvens(const Plan &plan);

struct TierStep {
    double factor = 1; // latency bounds × factor, tps_user ÷ factor
    SloTier tier;
    int deploymentsMeeting = 0;
    std::optional<DeploymentPlan> cheapest; // nullopt = no deployment meets the scaled tier
};
SloTier scaledTier(const SloTier &tier, double factor);
Result<std::vector<TierStep>>
tierSensitivity(const std::vector<DeploymentCurve> &curves, const PlanOptions &options,
                const PriceTable &prices, const PowerTable &power,
                const std::vector<double> &factors = {0.5, 0.75, 1.0, 1.5, 2.0});

// $ per 1M output tokens vs tier tightness per deployment (the Plan page's and the report's chart): for each
// deployment of `curves`, in their order, the plan at every scaled tier; a step where the deployment does
// not meet the scaled tier has no plan.
struct CostStep {
    double factor = 1;
    std::optional<DeploymentPlan> plan; // nullopt = this deployment does not meet the scaled tier
};
struct DeploymentCostCurve {
    Deployment deployment;
    std::vector<CostStep> steps; // one per factor, in the factors' order
};
Result<std::vector<DeploymentCostCurve>>
costByTightness(const std::vector<DeploymentCurve> &curves, const PlanOptions &options,
                const PriceTable &prices, const PowerTable &power,
                const std::vector<double> &factors = {0.5, 0.75, 1.0, 1.5, 2.0});

} // namespace Throughline::Capacity
