#include "core/run/liverunrecording.h"

#include "core/engine/modeltime.h"
#include "core/run/runrecording.h"

#include <QDateTime>

namespace Throughline {

LiveRunRecording::~LiveRunRecording()
{
    (void)m_writer.close();
}

ScenarioInfo LiveRunRecording::scenarioInfo(int index, const Scenario &sc)
{
    const ScenarioResult sr = ScenarioResult::fromScenario(sc);
    const bool simulated = sc.endpoint.kind == Endpoint::Kind::Simulated;
    ScenarioInfo si = scenarioIdentity(index, sr);
    si.config = {
        {"id", sr.id},
        {"endpoint", sc.endpoint.name},
        {"simulated", simulated},
        {"time_scale", simulated && sc.endpoint.sim.timeScale > 0 ? sc.endpoint.sim.timeScale : 1.0}};
    return si;
}

Status LiveRunRecording::start(const std::string &path, RunStart run)
{
    if (auto st = m_writer.open(path); !st)
        return st;
    m_uuid = run.uuid;
    m_t0UnixNs = run.t0UnixNs;
    m_writer.beginRun(std::move(run));
    return m_writer.flush();
}

Status LiveRunRecording::resume(const std::string &path, const std::string &uuid,
                                const std::vector<std::pair<int, int>> &dropPoints, std::int64_t t0UnixNs)
{
    if (auto st = m_writer.open(path); !st)
        return st;
    m_uuid = uuid;
    m_t0UnixNs = t0UnixNs;
    m_writer.beginGroup(); // reopen + cleanup commit together: a failed resume leaves the run as it was
    m_writer.reopenRun(uuid);
    for (const auto &[scenario, point] : dropPoints)
        m_writer.resetPoint(uuid, scenario, point);
    m_writer.endGroup();
    return m_writer.flush();
}

void LiveRunRecording::setLiveTelemetry(std::function<TelemetrySnapshot()> liveTelemetry)
{
    m_liveTelemetry = std::move(liveTelemetry);
}

void LiveRunRecording::pointFinished(const ScenarioOutcome &so, const PointOutcome &po, nlohmann::json config)
{
    if (po.stored || !m_writer.isOpen())
        return;
    if (config.is_null())
        config = defaultPointConfig(po);
    // One group = one transaction: a point is in the database whole or not at all.
    m_writer.beginGroup();
    m_writer.beginPoint(m_uuid, so.scenarioIndex, po.pointIndex, std::move(config),
                        pointStartUnixNs(m_t0UnixNs, po, so.timeScale));
    m_writer.addRequests(m_uuid, po.records); // a copy: the outcome keeps its records for results files
    m_writer.finishPoint(m_uuid, FinishedPoint{so.scenarioIndex, po.pointIndex, po.result.toJson(), "",
                                               static_cast<std::int64_t>(po.result.w0S * 1e9),
                                               static_cast<std::int64_t>(po.result.w1S * 1e9)});
    m_writer.setPointTelemetry(m_uuid, so.scenarioIndex, po.pointIndex, po.telemetry);
    if (!po.breakdowns.empty()) // in the point's group: its breakdowns commit with its rows
        m_writer.setRequestBreakdowns(m_uuid, so.scenarioIndex, po.pointIndex, po.breakdowns);
    if (m_liveTelemetry) {
        TelemetrySnapshot soFar = m_liveTelemetry();
        if (!soFar.sources.empty()) {
            if (so.simulated && so.timeScale != 1.0)
                toModelTime(soFar, so.timeScale); // as RunController does for the scenario's final snapshot
            m_writer.storeTelemetry(m_uuid, so.scenarioIndex, std::move(soFar));
        }
    }
    m_writer.endGroup();
    m_committedAt[{so.scenarioIndex, po.pointIndex}] = m_writer.stats().requestsEnqueued;
}

bool LiveRunRecording::committed(int scenarioIndex, int pointIndex) const
{
    const auto it = m_committedAt.find({scenarioIndex, pointIndex});
    if (it == m_committedAt.end() || m_writer.lastError())
        return false;
    return m_writer.stats().requestsWritten >= it->second;
}

Status LiveRunRecording::finish(const RunOutcome &run, const RunResults &results,
                                const nlohmann::json &extraProvenance, bool keepStartTime,
                                const std::vector<int> &notRunScenarios)
{
    if (!m_writer.isOpen())
        return makeError(ErrorCode::Internal, "live recording finished before it started");
    if (results.scenarios.size() != run.scenarios.size())
        return makeError(ErrorCode::Internal, "live recording: " + std::to_string(results.scenarios.size()) +
                                                  " scenario results for " +
                                                  std::to_string(run.scenarios.size()) + " scenarios");
    m_liveTelemetry = nullptr;
    m_writer.beginGroup();
    for (std::size_t i = 0; i < run.scenarios.size(); ++i) {
        const ScenarioOutcome &so = run.scenarios[i];
        if (!so.telemetry.sources.empty())
            m_writer.storeTelemetry(m_uuid, so.scenarioIndex, so.telemetry); // replaces the per-point rows
        m_writer.setScenarioVerdict(m_uuid, so.scenarioIndex, results.scenarios[i].verdict.toJson());
        m_writer.setScenarioColdStart(m_uuid, so.scenarioIndex, so.coldStart);
    }
    for (int index : notRunScenarios)
        m_writer.setScenarioVerdict(m_uuid, index, nlohmann::json{{"status", "not_run"}});
    // Resumed runs keep the original run's provenance; the caller describes the resume in extraProvenance.
    nlohmann::json provenance =
        run.provenance.is_object() && !keepStartTime ? run.provenance : nlohmann::json::object();
    if (extraProvenance.is_object())
        for (const auto &[key, value] : extraProvenance.items())
            provenance[key] = value;
    std::int64_t t0UnixNs = 0;
    if (!keepStartTime) {
        const QDateTime t0 = QDateTime::fromString(QString::fromStdString(run.startedUtc), Qt::ISODateWithMs);
        t0UnixNs = t0.isValid() ? t0.toMSecsSinceEpoch() * 1'000'000 : 0;
    }
    m_writer.updateRun(m_uuid, std::move(provenance), run.simulated, run.timeScale, t0UnixNs);
    m_writer.finishRun(m_uuid, run.cancelled ? RunStatus::Cancelled : RunStatus::Completed);
    m_writer.endGroup();
    if (auto st = m_writer.flush(); !st) {
        (void)m_writer.close();
        return st;
    }
    return m_writer.close();
}

} // namespace Throughline
