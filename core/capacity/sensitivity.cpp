#include "core/capacity/sensitivity.h"

namespace Throughline::Capacity {

std::vector<PriceBreakEven> priceBreakEvens(const Plan &plan)
{
    std::vector<PriceBreakEven> out;
    if (plan.ranked.size() < 2)
        return out;
    const double best = plan.ranked.front().usdPer1MOutputTokens;
    for (std::size_t i = 1; i < plan.ranked.size(); ++i) {
        const DeploymentPlan &d = plan.ranked[i];
        // $ per 1M = G × price ÷ (T × 3600) × 1e6 is proportional to the price: scale it to the cheapest's.
        out.push_back(
            {d.deployment, d.price.usdPerGpuHour, d.price.usdPerGpuHour * best / d.usdPer1MOutputTokens});
    }
    return out;
}

SloTier scaledTier(const SloTier &tier, double factor)
{
    SloTier t = tier;
    for (auto &l : t.limits)
        l.bound = l.atMost ? l.bound * factor : l.bound / factor;
    return t;
}

Result<std::vector<TierStep>> tierSensitivity(const std::vector<DeploymentCurve> &curves,
                                              const PlanOptions &options, const PriceTable &prices,
                                              const PowerTable &power, const std::vector<double> &factors)
{
    std::vector<TierStep> out;
    for (double f : factors) {
        if (!(f > 0))
            return makeError(ErrorCode::InvalidInput, "tier scale factors must be > 0");
        PlanOptions o = options;
        o.tier = scaledTier(options.tier, f);
        auto p = plan(curves, o, prices, power);
        if (!p)
            return p.error();
        TierStep step{f, o.tier, int(p->ranked.size()), std::nullopt};
        if (p->anyMeets())
            step.cheapest = p->ranked.front();
        out.push_back(std::move(step));
    }
    return out;
}

Result<std::vector<DeploymentCostCurve>> costByTightness(const std::vector<DeploymentCurve> &curves,
                                                         const PlanOptions &options, const PriceTable &prices,
                                                         const PowerTable &power,
                                                         const std::vector<double> &factors)
{
    std::vector<DeploymentCostCurve> out;
    for (const DeploymentCurve &curve : curves) {
        DeploymentCostCurve c{curve.deployment, {}};
        for (double f : factors) {
            if (!(f > 0))
                return makeError(ErrorCode::InvalidInput, "tier scale factors must be > 0");
            PlanOptions o = options;
            o.tier = scaledTier(options.tier, f);
            // One deployment at a time: its plan is the same as in the plan of all (deployments are sized
            // independently), and the ranking does not have to be searched for it.
            auto p = plan({curve}, o, prices, power);
            if (!p)
                return p.error();
            c.steps.push_back(
                {f, p->anyMeets() ? std::optional<DeploymentPlan>(p->ranked.front()) : std::nullopt});
        }
        out.push_back(std::move(c));
    }
    return out;
}

} // namespace Throughline::Capacity
