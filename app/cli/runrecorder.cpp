#include "runrecorder.h"

#include "core/storage/storagewriter.h"

#include <QDateTime>

#include <algorithm>

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

// Wall-clock start of a point: t0 + the earliest hand-off of its requests (warm-up included), converted back
// from model time for time-scaled simulated runs. merge compares these across shards (skew).
std::int64_t pointStartUnixNs(std::int64_t t0UnixNs, const PointOutcome &po, double timeScale)
{
    std::int64_t first = kNoTime;
    for (const RequestRecord &r : po.records)
        if (r.tSend != kNoTime && (first == kNoTime || r.tSend < first))
            first = r.tSend;
    if (first == kNoTime || t0UnixNs == 0)
        return kNoTime;
    return t0UnixNs +
           static_cast<std::int64_t>(static_cast<double>(first) / (timeScale > 0 ? timeScale : 1.0));
}

} // namespace

Status recordRun(const std::string &path, const RunOutcome &run, const RunResults &res,
                 const RecordInfo &info)
{
    const RunPlan &plan = *info.plan;
    RunStart start;
    start.uuid = run.runId;
    start.campaignJson = info.campaignJson;
    start.campaignName = res.campaignName;
    start.planId = plan.planId();
    start.shard = plan.shard().whole() ? std::string() : plan.shard().toString();
    start.simulated = run.simulated;
    start.timeScale = run.timeScale;
    const QDateTime t0 = QDateTime::fromString(QString::fromStdString(run.startedUtc), Qt::ISODateWithMs);
    start.t0UnixNs = t0.isValid() ? t0.toMSecsSinceEpoch() * 1'000'000 : 0;
    start.provenance = run.provenance.is_object() ? run.provenance : nlohmann::json::object();
    if (!plan.shard().whole() && !start.provenance.contains("shard"))
        start.provenance["shard"] = {
            {"index", plan.shard().index}, {"count", plan.shard().count}, {"plan_id", plan.planId()}};
    start.source = "throughline-cli";
    for (std::size_t i = 0; i < run.scenarios.size(); ++i) {
        const ScenarioOutcome &so = run.scenarios[i];
        const ScenarioResult &sr = res.scenarios[i];
        ScenarioInfo si;
        si.index = so.scenarioIndex;
        si.key = sr.id;
        si.model = sr.model;
        si.backend = sr.backend;
        si.gpu = sr.gpu;
        si.phase = sr.phase;
        si.gpus = sr.gpus;
        si.prefillGpus = sr.prefillGpus;
        si.decodeGpus = sr.decodeGpus;
        si.isl = sr.isl;
        si.osl = sr.osl;
        si.config = {{"id", sr.id},
                     {"endpoint", so.scenario.endpoint.name},
                     {"simulated", so.simulated},
                     {"time_scale", so.timeScale}};
        // Planned point rows are positional (row i = point i). A shard stores only the points it ran, created
        // as they begin: a planned row without requests would stay "pending" and count as a part in merge.
        if (plan.shard().whole())
            for (const PointOutcome &po : so.points)
                si.plannedPoints.push_back(pointConfig(plan, so.scenarioIndex, po));
        start.scenarios.push_back(std::move(si));
    }

    StorageWriter writer;
    if (auto st = writer.open(path); !st)
        return st;
    writer.beginRun(start);
    for (std::size_t i = 0; i < run.scenarios.size(); ++i) {
        const ScenarioOutcome &so = run.scenarios[i];
        for (const PointOutcome &po : so.points) {
            nlohmann::json agg = po.result.toJson();
            writer.beginPoint(run.runId, so.scenarioIndex, po.pointIndex,
                              pointConfig(plan, so.scenarioIndex, po),
                              pointStartUnixNs(start.t0UnixNs, po, so.timeScale));
            writer.addRequests(run.runId, po.records);
            writer.finishPoint(run.runId, FinishedPoint{so.scenarioIndex, po.pointIndex, std::move(agg), "",
                                                        static_cast<std::int64_t>(po.result.w0S * 1e9),
                                                        static_cast<std::int64_t>(po.result.w1S * 1e9)});
        }
        writer.setScenarioVerdict(run.runId, so.scenarioIndex, res.scenarios[i].verdict.toJson());
    }
    writer.finishRun(run.runId, run.cancelled ? RunStatus::Cancelled : RunStatus::Completed);
    if (auto st = writer.flush(); !st) {
        (void)writer.close();
        return st;
    }
    return writer.close();
}

} // namespace Throughline::Cli
