#include "shardoutcome.h"

namespace Throughline::Cli {

RunOutcome regroupShardOutcome(const RunPlan &plan, RunOutcome engine,
                               const std::vector<RunPlan::Entry> &entries)
{
    RunOutcome out;
    out.runId = engine.runId;
    out.startedUtc = engine.startedUtc;
    out.provenance = std::move(engine.provenance);
    out.cancelled = engine.cancelled;
    out.simulated = engine.simulated;
    out.timeScale = engine.timeScale;
    out.t0SteadyNs = engine.t0SteadyNs;
    for (std::size_t s = 0; s < plan.scenarios().size(); ++s) {
        ScenarioOutcome so;
        so.scenarioIndex = static_cast<int>(s);
        so.scenario = plan.scenarios()[s].scenario;
        so.timeScale = plan.scenarios()[s].timeScale;
        out.scenarios.push_back(std::move(so));
    }
    for (ScenarioOutcome &e : engine.scenarios) {
        if (e.scenarioIndex < 0 || static_cast<std::size_t>(e.scenarioIndex) >= entries.size())
            continue; // cannot happen: the engine numbers the entries it was given
        const RunPlan::Entry where = entries[static_cast<std::size_t>(e.scenarioIndex)];
        ScenarioOutcome &dst = out.scenarios[static_cast<std::size_t>(where.scenarioIndex)];
        // The entry's endpoint carries the resolved base URL (a simulated endpoint's loopback port).
        dst.scenario.endpoint = e.scenario.endpoint;
        dst.simulated = dst.simulated || e.simulated;
        dst.timeScale = e.timeScale;
        if (dst.requestTemplate.is_null())
            dst.requestTemplate = e.requestTemplate;
        if (e.aborted && !dst.aborted) {
            dst.aborted = true;
            dst.abortReason = e.abortReason;
            dst.stoppedByUser = e.stoppedByUser;
        }
        dst.endpointDown = dst.endpointDown || e.endpointDown;
        for (PointOutcome &po : e.points) {
            po.pointIndex = where.pointIndex;
            for (RequestRecord &r : po.records) {
                r.scenarioIndex = where.scenarioIndex;
                r.pointIndex = where.pointIndex;
            }
            dst.points.push_back(std::move(po));
        }
    }
    return out;
}

} // namespace Throughline::Cli
