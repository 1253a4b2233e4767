#pragma once
// MLPerf Endpoints mode of a run (`throughline-cli run --mlperf`, the Run page's switch in
// ui/run/mlperfruncontrols.h): the rules checked while the curve runs, not after (docs/mlperf-endpoints.md
// "Live compliance").
//   prepare()  every scenario gets its MLPerf plan — a curve scenario the rules' points (Mlperf::planPoints,
//              run as a closed-loop list in plan order, the dedicated Offline point last), a closed-loop
//              scenario its own concurrencies; a plan without point_duration_s issues each point for the
//              longest minimum duration of its points (the budget caps) — and the checks are evaluated on the
//              plan alone, so a campaign that cannot comply (too few points, a region without a point, a
//              point beyond the margin) is known before the first request;
//   attach()   after each finished point the checks are evaluated on the points so far (one line per point)
//              and, when the campaign can no longer comply and points are still to come, the scenario is
//              stopped with the rule ids (RunOptions::stopScenarioAfterPoint) — unless told to go on;
//   finish()   the final report per scenario, stored with the run (provenance "mlperf") and written by the
//              CLI as DIR/mlperf/compliance.json.
// Thread affinity: prepare() on the caller's thread; the hooks run on the run's thread; reports() and
// toJson() from any thread (a mutex guards the state).

#include "core/campaign/scenario.h"
#include "core/mlperf/compliance.h"
#include "core/mlperf/steadystate.h"
#include "core/run/runcontroller.h"
#include "core/util/result.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace Throughline {

struct MlperfModeOptions {
    std::string preset = "mlperf-endpoints-1.0"; // built-in id or a preset file
    int cMax = 0;   // declared max supported concurrency; 0 = curve cMax / the largest closed concurrency
    int points = 0; // curve scenarios: total points, Offline included; 0 = the preset's minimum
    // nullopt: Dedicated when datasetSize > 0 and the preset has an Offline point, Elected when it has one,
    // else None.
    std::optional<Mlperf::OfflineMode> offline;
    long long datasetSize = 0; // samples per pass (0 = not known: the dataset rules are blocked)
    bool stopOnFail = true;    // stop a scenario as soon as it can no longer comply
    // Curve scenarios: the submitter's-choice points are placed adaptively (core/mlperf/adaptiveplacement.h)
    // after the mandatory ones — each where the frontier measured so far is least known, within
    // [C_min, C_max] — instead of the planner's log-spaced choice.
    bool adaptive = false;
};

// One scenario's MLPerf campaign so far.
struct MlperfScenarioState {
    int scenarioIndex = 0;
    std::string scenarioId;
    Mlperf::CampaignEvidence evidence; // plan + the points measured so far
    Mlperf::ComplianceReport report;
    std::vector<std::string> pointLines; // one per finished point ("C=16: fail EPR-28 (…) · 17 pass · …")
    std::string stopReason;              // set when the run stopped this scenario for a failed rule
    // Synthetic prompts drawn as dataset samples with replacement (LoadPlan::datasetSamples, EPR-38);
    // nullopt = not known (no dataset size, or a workload picks the prompts).
    std::optional<bool> sampleOrderWithReplacement;
    // §4.4 per finished point, by point index (computed from the point's records when it finishes, before
    // they may leave memory); EPR-30/31.
    std::vector<Mlperf::SteadyStateAssessment> steadyStates;
    // Adaptive placement (MlperfModeOptions::adaptive): the choice points run after the mandatory ones and
    // are chosen in [bounds.cMin, bounds.cMax] when their turn comes; evidence.plan then holds the chosen.
    bool adaptive = false;
    Mlperf::RegionBounds bounds;
};

class MlperfMode
{
public:
    // Plans every scenario of `scenarios` (changed in place: curve scenarios become closed-loop lists of the
    // planned concurrencies). Errors (InvalidInput) name the rule: a planner refusal ("EPR-08: …"), a
    // scenario that is neither curve nor closed loop (EPR-27), an unknown preset.
    static Result<std::shared_ptr<MlperfMode>> prepare(std::vector<Scenario> &scenarios,
                                                       const MlperfModeOptions &options);

    const Mlperf::RulesPreset &preset() const { return m_preset; }
    const MlperfModeOptions &options() const { return m_options; }

    // Chains onPointFinished (checks, then `onLine(scenarioIndex, line)` on the run thread) and sets
    // stopScenarioAfterPoint.
    void attach(RunOptions &options, std::function<void(int scenarioIndex, const std::string &line)> onLine);
    // Scenarios whose plan alone already fails (before any request), with their reports.
    std::vector<MlperfScenarioState> failingBeforeStart() const;
    // Marks every scenario finished and evaluates it on the outcome's points (resumed points included).
    void finish(const RunOutcome &run);
    // finish(), then the provenance that stores the report with the run: {"mlperf": toJson()} (both apps'
    // CampaignRun::Setup::finishProvenance).
    nlohmann::json finishedProvenance(const RunOutcome &run);

    std::vector<MlperfScenarioState> states() const;
    bool anyFail() const;
    // {"preset", "options", "scenarios": [{scenario, overall, failed_rules, blocked_rules, stopped, plan,
    //  points, checks}]}
    nlohmann::json toJson() const;

    // "MLPerf mlperf-endpoints-1.0: can no longer comply: EPR-28 (C=1: 12 s …); 6 point(s) not run"
    static std::string failureSentence(const MlperfScenarioState &state, int pointsLeft);

private:
    MlperfMode() = default;
    void evaluate(MlperfScenarioState &state, const ScenarioOutcome &so, bool finished) const;
    MlperfScenarioState *stateOf(int scenarioIndex);
    void assessSteadyStateOf(MlperfScenarioState &state, const PointOutcome &po) const;
    int adaptiveConcurrency(const ScenarioOutcome &so, int listIndex);

    Mlperf::RulesPreset m_preset;
    MlperfModeOptions m_options;
    mutable std::mutex m_mutex;
    std::vector<MlperfScenarioState> m_states; // by scenario index
};

nlohmann::json complianceReportJson(const Mlperf::ComplianceReport &report);

} // namespace Throughline
