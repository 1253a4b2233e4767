#include "core/run/campaignrun.h"

#include "core/campaign/campaignhash.h"
#include "core/results/baselinerows.h"
#include "core/run/heldrecords.h"
#include "core/run/runrecording.h"
#include "core/storage/historyreader.h"
#include "core/storage/runexporter.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <chrono>
#include <utility>

namespace Throughline {

std::vector<TargetRow> RunTargets::rowsFor(const Scenario &scenario) const
{
    std::vector<TargetRow> rows = table ? table->matching(scenario) : std::vector<TargetRow>{};
    for (const TargetRow &r : baselineRows)
        if (r.matches(scenario))
            rows.push_back(r);
    return rows;
}

namespace {
Status loadBaseline(RunTargets &out, const std::string &prefix, const std::string &historyDb)
{
    auto fail = [&prefix](const std::string &why) {
        return makeError(ErrorCode::InvalidInput, "targets.baseline_run \"" + prefix + "\": " + why);
    };
    HistoryReader reader;
    if (auto st = reader.open(historyDb); !st)
        return fail(st.error().message);
    auto uuid = reader.resolveRun(prefix);
    if (!uuid)
        return fail(uuid.error().message);
    auto json = RunExporter::toJson(reader, *uuid);
    if (!json)
        return fail(json.error().message);
    auto run = RunResults::fromJson(*json);
    if (!run)
        return fail(run.error().message);
    out.baselineRows = baselineRowsOfRun(*run);
    out.baselineRunId = *uuid;
    return Ok{};
}
} // namespace

Result<RunTargets> loadRunTargets(const Campaign &campaign, const std::string &baseDir,
                                  const std::string &historyDb)
{
    RunTargets out;
    if (!campaign.targets.baselineRun.empty() && !historyDb.empty())
        if (auto st = loadBaseline(out, campaign.targets.baselineRun, historyDb); !st)
            return st.error();
    if (campaign.targets.file.empty())
        return out;
    std::string path = campaign.targets.file;
    if (path.rfind(":/", 0) != 0 && QFileInfo(QString::fromStdString(path)).isRelative() && !baseDir.empty())
        path = QDir(QString::fromStdString(baseDir)).filePath(QString::fromStdString(path)).toStdString();
    auto table = TargetTable::load(path);
    if (!table)
        return table.error();
    out.table = std::move(table).value();
    // Stored with the run, so `merge` and re-judging read the same table back.
    QFile file(QString::fromStdString(path.substr(0, path.rfind('#'))));
    if (file.open(QIODevice::ReadOnly))
        out.used = {{"name", out.table->name()},
                    {"file", campaign.targets.file},
                    {"preset", out.table->activePreset()},
                    {"text", file.readAll().toStdString()}};
    return out;
}

RunResults judgeRun(const RunOutcome &run, const std::string &campaignName, const std::string &campaignSha256,
                    const RunTargets &targets)
{
    return runResultsFromOutcome(run, campaignName, campaignSha256,
                                 [&targets](const Scenario &s) { return targets.rowsFor(s); });
}

std::vector<int> scenariosNotRun(const RunOutcome &run, int plannedCount)
{
    std::vector<int> notRun;
    for (int i = 0; i < plannedCount; ++i)
        if (std::none_of(run.scenarios.begin(), run.scenarios.end(),
                         [i](const ScenarioOutcome &so) { return so.scenarioIndex == i; }))
            notRun.push_back(i);
    return notRun;
}

CampaignRun::CampaignRun(Setup setup)
    : m_setup(std::move(setup))
    , m_sha(Throughline::campaignSha256(m_setup.campaignText))
{
    RunOptions &opt = m_setup.options;
    opt.campaignName = m_setup.campaignName;
    opt.campaignSha256 = m_sha;
    const bool record = !m_setup.historyDb.empty();
    if (record) {
        if (opt.runId.empty())
            opt.runId = newUuidV4(); // the run row exists before the engine starts
        opt.keepRecords = true;      // the recording copies each point's records when it finishes
        opt.onPointFinished = [this, chained = std::move(opt.onPointFinished)](const ScenarioOutcome &so,
                                                                               const PointOutcome &po) {
            if (m_recordingOpen && (!m_setup.recordPoint || m_setup.recordPoint()))
                m_recording.pointFinished(so, po);
            if (chained)
                chained(so, po);
        };
        if (m_setup.releaseRecordedPoints)
            opt.recordsHeldElsewhere = [this](int scenarioIndex, int pointIndex) {
                return m_recordingOpen && m_recording.committed(scenarioIndex, pointIndex);
            };
    }
    m_controller = std::make_unique<RunController>(m_setup.scenarios, opt);
}

CampaignRun::~CampaignRun() = default;

namespace {

std::int64_t nowUnixNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

} // namespace

Status CampaignRun::begin()
{
    if (m_begun)
        return Ok{};
    m_begun = true;
    if (m_setup.historyDb.empty())
        return Ok{};
    // Each committed point also stores its scenario's telemetry so far (a crash keeps it).
    m_recording.setLiveTelemetry([this] { return m_controller->liveTelemetry(); });
    if (m_setup.resume) {
        if (auto st = m_recording.resume(m_setup.historyDb, m_setup.options.runId, m_setup.resume->dropPoints,
                                         nowUnixNs());
            !st)
            return makeError(st.error().code == ErrorCode::NotFound ? ErrorCode::InvalidInput
                                                                    : st.error().code,
                             "--resume " + m_setup.options.runId + ": " + st.error().message);
        m_recordingOpen = true;
        return Ok{};
    }
    RunStart start;
    start.uuid = m_setup.options.runId;
    start.campaignJson = m_setup.campaignText;
    start.campaignName = m_setup.campaignName;
    start.planId = m_setup.planId;
    start.source = m_setup.source;
    start.provenance = m_setup.provenance;
    start.provenance["campaign"] = {{"name", m_setup.campaignName}, {"sha256", m_sha}};
    if (m_setup.targets.used.is_object())
        start.targets.push_back(m_setup.targets.used);
    for (std::size_t i = 0; i < m_setup.scenarios.size(); ++i) {
        const Scenario &sc = m_setup.scenarios[i];
        start.scenarios.push_back(LiveRunRecording::scenarioInfo(static_cast<int>(i), sc));
        if (sc.endpoint.kind == Endpoint::Kind::Simulated && !start.simulated) {
            start.simulated = true;
            start.timeScale = sc.endpoint.sim.timeScale > 0 ? sc.endpoint.sim.timeScale : 1.0;
        }
    }
    start.t0UnixNs = nowUnixNs(); // right before the engine's t=0: point start times derive from it
    if (auto st = m_recording.start(m_setup.historyDb, std::move(start)); st)
        m_recordingOpen = true;
    else
        m_recordError =
            "history database " + m_setup.historyDb + ": " + st.error().message + " (run not recorded)";
    return Ok{};
}

void CampaignRun::releaseCommittedRecords(RunOutcome &run) const
{
    for (ScenarioOutcome &so : run.scenarios)
        releaseRecordsHeldElsewhere(so, [this](int scenarioIndex, int pointIndex) {
            return m_recording.committed(scenarioIndex, pointIndex);
        });
}

Result<CampaignRun::Finished> CampaignRun::run()
{
    if (auto st = begin(); !st)
        return st.error();
    auto outcome = m_controller->run();
    if (!outcome)
        return outcome.error();
    Finished done;
    done.run = std::move(outcome).value();
    done.results = judgeRun(done.run, m_setup.campaignName, m_sha, m_setup.targets);
    if (m_setup.resume)
        done.results.startedUtc = m_setup.resume->startedUtc;
    // The finished run's provenance keys (the MLPerf compliance report, the resume log) go with the outcome
    // too, so provenance.json and a bundle written without a history hold them as the history does.
    const nlohmann::json extra =
        m_setup.finishProvenance ? m_setup.finishProvenance(done.run) : nlohmann::json::object();
    for (auto it = extra.begin(); extra.is_object() && it != extra.end(); ++it)
        done.run.provenance[it.key()] = it.value();
    if (m_recordingOpen) {
        std::vector<int> notRun;
        for (int i : scenariosNotRun(done.run, static_cast<int>(m_setup.scenarios.size())))
            if (!m_setup.resume ||
                std::find(m_setup.resume->keptScenarios.begin(), m_setup.resume->keptScenarios.end(), i) ==
                    m_setup.resume->keptScenarios.end())
                notRun.push_back(i);
        if (auto st = m_recording.finish(done.run, done.results, extra, m_setup.resume.has_value(), notRun);
            !st)
            m_recordError = "history database " + m_setup.historyDb + ": " + st.error().message +
                            " (run recorded up to the error)";
        done.recorded = m_recordError.empty();
        if (done.recorded && m_setup.releaseRecordedPoints) // finish() flushed: every handed-over point is in
            releaseCommittedRecords(done.run);
    }
    done.recordError = m_recordError;
    if (!m_setup.keepRecordsAfterRun)
        for (ScenarioOutcome &so : done.run.scenarios)
            for (PointOutcome &po : so.points)
                std::vector<RequestRecord>().swap(po.records);
    return done;
}

} // namespace Throughline
