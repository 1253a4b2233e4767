#pragma once
// MLPerf Endpoints compliance of a campaign, evaluated on the points measured so far against the plan
// (ARCHITECTURE.md-style: the rules are checked while the curve runs, not after). Every client-checkable
// rule of ../shared/data/reference/mlperf_endpoints_rules.csv is one check with a state:
//   pass            the rule holds for everything measured and nothing planned can break it;
//   fail            it is broken and cannot be repaired by the remaining plan ("can no longer be compliant");
//   pending         it still depends on points not yet measured;
//   not_applicable  the rule does not apply (a v0.7 preset's Offline rules, Offline-exempt point rules);
//   blocked         the client cannot decide it (an empty approved-revision list, accuracy runs, a missing
//                   steady-state verdict) — named, never counted as a pass.
// Thresholds come from the RulesPreset; this file holds the rule ids and the logic. Pure; any thread.

#include "core/mlperf/pointplanner.h"
#include "core/mlperf/rulespreset.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace Throughline {

struct PointResult;

namespace Mlperf {

enum class CheckState { Pass, Fail, Pending, NotApplicable, Blocked };
std::string_view checkStateKey(CheckState s); // "pass", "fail", "pending", "not_applicable", "blocked"

// How the rules treat a violation (CSV failure_action): Error rejects or is a validator error, Warning is a
// flag or validator warning (still not compliant), Info is an estimate with no pass/fail of its own (its
// fail never makes a campaign non-compliant).
enum class Severity { Error, Warning, Info };

// What one measured point contributes. NaN / negative = not known.
struct PointEvidence {
    int concurrency = 0;
    bool offline = false;         // the dedicated Offline run (EPR-25)
    bool fixedConcurrency = true; // closed-loop fixed concurrency (EPR-27); false for rate/Poisson points
    bool streaming = true;        // EPR-39
    bool ttftAtFirstFragment =
        true;                     // EPR-04: TTFT stops at the first non-empty content/reasoning/tool fragment
    double systemTps = -1;        // reported system tokens/s
    double outputTokens = -1;     // behind systemTps (EPR-01 consistency); < 0 = not known
    double elapsedS = -1;         // the window systemTps divides by
    double tpotP90Ms = -1;        // TPOT as the rules define it (CLI-05), p90
    double tpsPerUser = -1;       // reported tokens/s per user (EPR-02 consistency)
    double ttftMs = -1;           // TTFT at the preset's percentile (EPR-03)
    long long nTtft = 0;          // samples behind the TTFT percentile (CLI-02)
    long long nTpot = 0;          // samples behind the TPOT percentile (CLI-02)
    double steadyIssueSpanS = -1; // issue-time span of the steady-state window, model time (EPR-28/29)
    double timeScale = 1;         // simulator time scale (model = wall × scale; 1 = real time); in details
    double warmupS = 0;           // EPR-34
    long long nIssued = 0;        // samples issued (VAL-01, EPR-37)
    long long nCompleted = 0;     // EPR-36
    long long nFailed = 0;
    double durationNs = -1;       // result_summary.duration_ns (VAL-02)
    int superPassesInWindow = -1; // EPR-30; −1 = not known
    // EPR-31: the §4.4 detector's verdict over the gating metrics ("STEADY STATE", "drifting_up", …);
    // empty = no detector ran.
    std::string steadyStateVerdict;
    std::optional<bool> sampleOrderWithReplacement; // EPR-38; nullopt = not known
};

struct CampaignEvidence {
    int cMax = 0; // declared max_supported_concurrency (EPR-13)
    OfflineMode offline = OfflineMode::Dedicated;
    long long datasetSize = 0;           // samples per pass (VAL-07); 0 = not known
    std::vector<PlannedPoint> plan;      // every planned point, measured or not (the planner's output)
    std::vector<PointEvidence> measured; // in measurement order
    bool finished = false;               // no further point will run
    std::string clientGitSha;            // VAL-04
    bool accuracyRunsPlanned = false;    // EPR-40 (Throughline does not run accuracy yet)
};

struct CheckResult {
    std::string ruleId; // "EPR-28"
    std::string title;  // what is checked, short
    CheckState state = CheckState::Pending;
    Severity severity = Severity::Error;
    std::string detail;             // one sentence: the numbers, the points at fault, the time scale
    std::vector<int> failingPoints; // concurrencies (Offline: its concurrency) that break the rule
    bool operator==(const CheckResult &) const = default;
};

struct ComplianceReport {
    std::string presetId;
    std::vector<CheckResult> checks; // one per rule, in rule-id order of the CSV
    // Fail when a check of Error/Warning severity failed (the campaign can no longer be compliant),
    // else Pending while any check waits, else Pass. Blocked checks do not decide it; they are listed.
    CheckState overall = CheckState::Pending;
    std::vector<std::string> failedRules;  // ids of the checks that make it non-compliant
    std::vector<std::string> blockedRules; // ids the client cannot decide

    const CheckResult *find(std::string_view ruleId) const;
};

// The whole campaign so far.
ComplianceReport evaluateCompliance(const CampaignEvidence &campaign, const RulesPreset &preset);

// The point-level rules for one measured point, for a per-point line (CLI, Run page). Curve-level rules
// (counts, coverage, Offline vs C_max) are not in it.
std::vector<CheckResult> evaluatePoint(const PointEvidence &point, const CampaignEvidence &campaign,
                                       const RulesPreset &preset);

// Evidence from a Throughline point: official TPOT/throughput via curvePointOf, TTFT at the preset's
// percentile, the window (model time; `timeScale` recorded), request counts. Fields Throughline does not
// measure keep their "not known" value (superPassesInWindow is derived from the dataset size when given).
PointEvidence evidenceOf(const PointResult &point, const RulesPreset &preset, long long datasetSize,
                         double timeScale);

} // namespace Mlperf
} // namespace Throughline
