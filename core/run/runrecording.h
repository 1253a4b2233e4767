#pragma once
// Records a finished run into a database file (the history, or a fresh run bundle) from its outcome and
// results: done after the run (not streamed during it), so a storage failure cannot disturb the load engine.
// Shared by `throughline-cli run` (which adds its shard/plan details through RunRecordingInfo) and the GUI
// run page. Blocking (SQLite writes of every raw record): call it off the GUI thread.

#include "core/run/runcontroller.h"
#include "core/results/resultsjson.h"
#include "core/storage/storagetypes.h"
#include "core/util/result.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>

namespace Throughline {

struct RunRecordingInfo {
    std::string campaignJson;            // exact campaign text (sha256 computed by the writer)
    std::string source = "throughline";  // "throughline-cli", "throughline" (GUI)
    std::string planId;                  // CLI run plan id ("" = none)
    std::string shard;                   // "i/N" for shard runs ("" = whole campaign)
    nlohmann::json extraProvenance;      // object: keys added to the run's provenance unless present
    std::vector<nlohmann::json> targets; // target tables used (targets_used rows, "name" in each)
    bool storePlannedPoints = true;      // whole runs: one positional planned row per finished point
    // Every scenario of the campaign in index order (optional). Scenarios the run never reached (stopped,
    // cancelled or failed before them) are stored with verdict "not_run" and no points, as the run page
    // shows them; empty = only the scenarios in the outcome are stored.
    std::vector<Scenario> plannedScenarios;
    // Stored point config of (scenario index, point); unset = {"load": the point's load as run}.
    std::function<nlohmann::json(int scenarioIndex, const PointOutcome &point)> pointConfig;
};

// Wall-clock start of a point: t0 + the earliest hand-off of its requests (warm-up included), converted back
// from model time for time-scaled simulated runs (kNoTime when unknown). merge compares these across shards.
std::int64_t pointStartUnixNs(std::int64_t t0UnixNs, const PointOutcome &point, double timeScale);
// Stored point config when none is given: {"load": the point's load as run}.
nlohmann::json defaultPointConfig(const PointOutcome &point);

// A scenario's identity columns (key, model, backend, GPU, phase, GPU counts, ISL/OSL) for the scenarios
// table; callers add the config JSON and planned points.
ScenarioInfo scenarioIdentity(int index, const ScenarioResult &result);

// True when the user stopped the run during this scenario (RunController::stopSending): it is not judged.
bool stoppedByUser(const ScenarioOutcome &scenario);
// Verdict stored for a scenario of the outcome: `judged` as it is, except for a scenario the user stopped —
// status "stopped" (some measured request) or "not_measured" (none), never pass/fail, with the stop reason
// in "note" and the checks on the measured points kept under "judged" for reference. Same keys as the run
// page's results table.
nlohmann::json recordedVerdict(const ScenarioOutcome &scenario, const nlohmann::json &judged);

// `results` must hold one ScenarioResult per outcome scenario (same order; verdicts are stored from it).
Status recordRun(const std::string &path, const RunOutcome &run, const RunResults &results,
                 const RunRecordingInfo &info);

// Results (identity, points, verdict) of an outcome: judged against the scenario SLOs and `targetsFor`'s rows
// (unset = SLOs only). The same judging `run` and the run page show.
RunResults runResultsFromOutcome(const RunOutcome &run, const std::string &campaignName,
                                 const std::string &campaignSha256,
                                 const std::function<std::vector<TargetRow>(const Scenario &)> &targetsFor);

} // namespace Throughline
