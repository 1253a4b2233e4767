#include "core/run/runrecording.h"

#include "core/storage/storagewriter.h"
#include "core/util/version.h"
#include "core/metrics/repeatgroups.h"

#include <QDateTime>

#include <algorithm>

namespace Throughline {

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

nlohmann::json defaultPointConfig(const PointOutcome &po)
{
    return {{"load", po.result.toJson().value("load", nlohmann::json::object())}};
}

ScenarioInfo scenarioIdentity(int index, const ScenarioResult &sr)
{
    ScenarioInfo si;
    si.index = index;
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
    return si;
}

bool stoppedByUser(const ScenarioOutcome &so)
{
    return so.aborted && so.stoppedByUser;
}

nlohmann::json recordedVerdict(const ScenarioOutcome &so, const nlohmann::json &judged)
{
    if (!stoppedByUser(so))
        return judged;
    bool measured = false;
    for (const PointOutcome &po : so.points)
        measured = measured || po.result.nSent > 0;
    return {{"status", measured ? "stopped" : "not_measured"}, {"note", so.abortReason}, {"judged", judged}};
}

Status recordRun(const std::string &path, const RunOutcome &run, const RunResults &res,
                 const RunRecordingInfo &info)
{
    if (res.scenarios.size() != run.scenarios.size())
        return makeError(ErrorCode::Internal, "recordRun: " + std::to_string(res.scenarios.size()) +
                                                  " scenario results for " +
                                                  std::to_string(run.scenarios.size()) + " scenarios");
    const auto pointConfig = [&](int scenarioIndex, const PointOutcome &po) {
        return info.pointConfig ? info.pointConfig(scenarioIndex, po) : defaultPointConfig(po);
    };
    RunStart start;
    start.uuid = run.runId;
    start.campaignJson = info.campaignJson;
    start.campaignName = res.campaignName;
    start.planId = info.planId;
    start.shard = info.shard;
    start.simulated = run.simulated;
    start.timeScale = run.timeScale;
    const QDateTime t0 = QDateTime::fromString(QString::fromStdString(run.startedUtc), Qt::ISODateWithMs);
    start.t0UnixNs = t0.isValid() ? t0.toMSecsSinceEpoch() * 1'000'000 : 0;
    start.provenance = run.provenance.is_object() ? run.provenance : nlohmann::json::object();
    if (info.extraProvenance.is_object())
        for (const auto &[key, value] : info.extraProvenance.items())
            if (!start.provenance.contains(key))
                start.provenance[key] = value;
    start.source = info.source;
    start.targets = info.targets;
    for (std::size_t i = 0; i < run.scenarios.size(); ++i) {
        const ScenarioOutcome &so = run.scenarios[i];
        const ScenarioResult &sr = res.scenarios[i];
        ScenarioInfo si = scenarioIdentity(so.scenarioIndex, sr);
        si.config = {{"id", sr.id},
                     {"endpoint", so.scenario.endpoint.name},
                     {"simulated", so.simulated},
                     {"time_scale", so.timeScale}};
        // Planned point rows are positional (row i = point i). A shard stores only the points it ran, created
        // as they begin: a planned row without requests would stay "pending" and count as a part in merge.
        if (info.storePlannedPoints)
            for (const PointOutcome &po : so.points)
                si.plannedPoints.push_back(pointConfig(so.scenarioIndex, po));
        start.scenarios.push_back(std::move(si));
    }
    // Scenarios the run never reached: identity only, verdict "not_run" below.
    std::vector<int> notRun;
    for (std::size_t i = 0; i < info.plannedScenarios.size(); ++i) {
        const bool reached =
            std::any_of(run.scenarios.begin(), run.scenarios.end(),
                        [&](const ScenarioOutcome &so) { return so.scenarioIndex == int(i); });
        if (reached)
            continue;
        const ScenarioResult sr = ScenarioResult::fromScenario(info.plannedScenarios[i]);
        ScenarioInfo si = scenarioIdentity(int(i), sr);
        si.config = {{"id", sr.id}, {"not_run", true}};
        start.scenarios.push_back(std::move(si));
        notRun.push_back(int(i));
    }
    std::sort(start.scenarios.begin(), start.scenarios.end(),
              [](const ScenarioInfo &a, const ScenarioInfo &b) { return a.index < b.index; });

    StorageWriter writer;
    if (auto st = writer.open(path); !st)
        return st;
    writer.beginRun(start);
    for (std::size_t i = 0; i < run.scenarios.size(); ++i) {
        const ScenarioOutcome &so = run.scenarios[i];
        for (const PointOutcome &po : so.points) {
            nlohmann::json agg = po.result.toJson();
            writer.beginPoint(run.runId, so.scenarioIndex, po.pointIndex, pointConfig(so.scenarioIndex, po),
                              pointStartUnixNs(start.t0UnixNs, po, so.timeScale));
            writer.addRequests(run.runId, po.records);
            writer.finishPoint(run.runId, FinishedPoint{so.scenarioIndex, po.pointIndex, std::move(agg), "",
                                                        static_cast<std::int64_t>(po.result.w0S * 1e9),
                                                        static_cast<std::int64_t>(po.result.w1S * 1e9)});
            writer.setPointTelemetry(run.runId, so.scenarioIndex, po.pointIndex, po.telemetry);
            if (!po.breakdowns.empty())
                writer.setRequestBreakdowns(run.runId, so.scenarioIndex, po.pointIndex, po.breakdowns);
        }
        if (!so.telemetry.sources.empty()) // server telemetry series of the scenario (core/telemetry)
            writer.addTelemetry(run.runId, so.scenarioIndex, so.telemetry);
        writer.setScenarioVerdict(run.runId, so.scenarioIndex,
                                  recordedVerdict(so, res.scenarios[i].verdict.toJson()));
        writer.setScenarioColdStart(run.runId, so.scenarioIndex, so.coldStart);
    }
    for (int index : notRun)
        writer.setScenarioVerdict(run.runId, index, nlohmann::json{{"status", "not_run"}});
    writer.finishRun(run.runId, run.cancelled ? RunStatus::Cancelled : RunStatus::Completed);
    if (auto st = writer.flush(); !st) {
        (void)writer.close();
        return st;
    }
    return writer.close();
}

RunResults runResultsFromOutcome(const RunOutcome &run, const std::string &campaignName,
                                 const std::string &campaignSha256,
                                 const std::function<std::vector<TargetRow>(const Scenario &)> &targetsFor)
{
    RunResults res;
    res.runId = run.runId;
    res.toolVersion = toolVersion();
    res.startedUtc = run.startedUtc;
    res.simulated = run.simulated;
    res.timeScale = run.timeScale;
    res.campaignName = campaignName;
    res.campaignSha256 = campaignSha256;
    for (const ScenarioOutcome &so : run.scenarios) {
        ScenarioResult sr = ScenarioResult::fromScenario(so.scenario);
        for (const PointOutcome &po : so.points)
            sr.points.push_back(po.result);
        fillAcrossRepeatIntervals(sr.points);
        sr.coldStart = so.coldStart;
        const std::vector<TargetRow> rows = targetsFor ? targetsFor(so.scenario) : std::vector<TargetRow>{};
        sr.verdict = judgeScenario(so.scenario, sr.points, rows);
        res.scenarios.push_back(std::move(sr));
    }
    return res;
}

} // namespace Throughline
