#include "runrecorder.h"

#include "core/run/runrecording.h"

namespace Throughline::Cli {

namespace {

const PlannedPoint *plannedPoint(const RunPlan &plan, int scenarioIndex, int pointIndex)
{
    if (scenarioIndex < 0 || static_cast<std::size_t>(scenarioIndex) >= plan.scenarios().size())
        return nullptr;
    for (const PlannedPoint &p : plan.scenarios()[static_cast<std::size_t>(scenarioIndex)].points)
        if (p.pointIndex == pointIndex)
            return &p;
    return nullptr;
}

// Stored point config: {"load": …} as run; sharded: the whole-campaign load plus {"shard": {…, "load":
// share}}.
nlohmann::json pointConfig(const RunPlan &plan, int scenarioIndex, const PointOutcome &po)
{
    const nlohmann::json ran = po.result.toJson().value("load", nlohmann::json::object());
    const PlannedPoint *pp = plannedPoint(plan, scenarioIndex, po.pointIndex);
    if (plan.shard().whole() || !pp)
        return {{"load", ran}};
    return {{"load", pp->loadJson(false)},
            {"shard", {{"index", plan.shard().index}, {"count", plan.shard().count}, {"load", ran}}}};
}

} // namespace

Status recordRun(const std::string &path, const RunOutcome &run, const RunResults &res,
                 const RecordInfo &info)
{
    const RunPlan &plan = *info.plan;
    RunRecordingInfo rec;
    rec.campaignJson = info.campaignJson;
    rec.source = "throughline-cli";
    rec.planId = plan.planId();
    rec.shard = plan.shard().whole() ? std::string() : plan.shard().toString();
    if (!plan.shard().whole())
        rec.extraProvenance = {
            {"shard",
             {{"index", plan.shard().index}, {"count", plan.shard().count}, {"plan_id", plan.planId()}}}};
    rec.storePlannedPoints = plan.shard().whole();
    if (info.targets.is_object())
        rec.targets.push_back(info.targets);
    rec.plannedScenarios = info.plannedScenarios;
    rec.pointConfig = [&plan](int scenarioIndex, const PointOutcome &po) {
        return pointConfig(plan, scenarioIndex, po);
    };
    return Throughline::recordRun(path, run, res, rec);
}

} // namespace Throughline::Cli
