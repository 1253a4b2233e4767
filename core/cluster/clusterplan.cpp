#include "core/cluster/clusterplan.h"

#include "core/campaign/shardselector.h"
#include "core/engine/loadschedule.h"

#include <cstdio>

namespace Throughline {

namespace {

std::string concurrencyShares(int c, int shards)
{
    std::string s;
    for (int i = 0; i < shards; ++i) {
        if (i == 8 && shards > 10) { // long lists: the first eight, then the rest summarised
            s += ", … (" + std::to_string(shards - 8) + " more)";
            break;
        }
        s += (i ? ", " : "") + std::to_string(ShardSelector::share(c, {i, shards}));
    }
    return s;
}

std::string rateText(double r)
{
    char buf[40];
    std::snprintf(buf, sizeof buf, "%g req/s", r);
    return buf;
}

} // namespace

Result<ClusterPlan> planClusterRun(const std::vector<Scenario> &scenarios, int shards)
{
    if (shards < 2 || shards > ShardSelector::kMaxShards)
        return makeError(ErrorCode::InvalidInput, "shards: " + std::to_string(shards) + " is outside 2…" +
                                                      std::to_string(ShardSelector::kMaxShards));
    ClusterPlan plan;
    for (const Scenario &sc : scenarios) {
        const LoadPlan &lp = sc.plan;
        if (sc.endpoint.kind == Endpoint::Kind::Simulated)
            plan.simulatedScenarios.push_back(sc.id);
        if (lp.mode == LoadPlan::Mode::Search)
            return makeError(
                ErrorCode::InvalidInput,
                "scenario " + sc.id +
                    ": a search plan cannot be sharded (each point depends on the previous result)");
        if (lp.mode == LoadPlan::Mode::Open) {
            for (std::size_t k = 0; k < lp.rates.size(); ++k)
                plan.rows.push_back({sc.id, static_cast<int>(k), plan.slotCount(), rateText(lp.rates[k]),
                                     rateText(lp.rates[k] / shards) + " each"});
            continue;
        }
        const std::vector<int> cs =
            lp.mode == LoadPlan::Mode::Curve ? curveConcurrencies(lp) : lp.concurrencies;
        for (std::size_t k = 0; k < cs.size(); ++k)
            plan.rows.push_back({sc.id, static_cast<int>(k), plan.slotCount(), "C=" + std::to_string(cs[k]),
                                 concurrencyShares(cs[k], shards)});
    }
    return plan;
}

} // namespace Throughline
