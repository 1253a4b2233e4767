#pragma once
// Scenario verdicts (ARCHITECTURE.md "Targets and verdicts"). Pure functions over finished points.
//
// - Operating point: the highest-throughput (output_tps_per_gpu) valid point that meets the
//   scenario's SLOs, else the highest-throughput valid point. baseline and informational targets
//   are judged there.
// - Designated point: the point whose concurrency equals the recipe concurrency, else the last
//   point. slo targets (and the scenario's own SLOs, VerdictOptions::judgeScenarioSlo) are judged
//   there, provided that point is valid.
// - baseline: Exemplar rule, passes at ≥ 95 % of the target (≥) or ≤ target / 0.95 (≤).
//   slo: the plain comparison. informational: reported as "x % of target", never judged.
// - Intervals (docs/metrics.md "Intervals"): when the judged point carries the stat's interval, a check
//   passes only when the whole interval is on the good side of the target, fails only when all of it is on
//   the bad side, and is inconclusive when it straddles the target; an inconclusive check says how many
//   measured requests would decide it with 80 % power (samplesize.h). Without an interval (imports, files
//   before results /3) the plain comparison of the value decides. A repeated load is judged on the wider of
//   the point's interval and the across-repeat interval.
// - Status: invalid if no valid point; else fail if any judged check failed; else inconclusive if any
//   check was; else no_target if nothing was judged; else pass.

#include "core/campaign/scenario.h"
#include "core/metrics/pointresult.h"
#include "core/targets/targettable.h"

#include <limits>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace Throughline {

struct VerdictCheck {
    enum class Outcome { Pass, Fail, Info, NotAvailable, Inconclusive };

    std::string metric;
    std::string stat;
    Comparator cmp = Comparator::GreaterEqual;
    double target = 0;
    double value = 0;     // NaN when the stat is undefined/not reportable at the judged point
    double marginPct = 0; // relative distance to target, positive = better than target; NaN with value
    TargetKind kind = TargetKind::Baseline;
    // Extensions to the pinned keys: what happened, where and why.
    Outcome outcome = Outcome::NotAvailable;
    int point = -1;         // index of the judged point in the scenario's points (-1 = none)
    double pctOfTarget = 0; // value / target × 100 ("x % of published offline max")
    std::string source;
    // The value's interval at the judged point (NaN = none) and its level; the threshold's own interval
    // for a baseline from a stored run (NaN = the target is a number).
    double lower = std::numeric_limits<double>::quiet_NaN();
    double upper = std::numeric_limits<double>::quiet_NaN();
    double level = 0;
    double targetLower = std::numeric_limits<double>::quiet_NaN();
    double targetUpper = std::numeric_limits<double>::quiet_NaN();
    // Inconclusive: measured requests at the judged point that would decide the check with 80 % power
    // (0 = more requests of this kind cannot decide it: the estimate sits on the target); a minimum when
    // requestsNeededIsMinimum (the interval's side toward the target is still open).
    double requestsNeeded = 0;
    bool requestsNeededIsMinimum = false;
    // A repeated load (plan.repeats) carries two intervals: the judged repeat's own and the across-repeat one
    // (PointResult::acrossRepeats); the wider decides (docs/metrics.md "Repeats"). JSON "interval_source",
    // written when there were two. With the across-repeat interval, value is the mean over the repeats and
    // requestsNeeded counts repeats (JSON "repeats_needed").
    enum class IntervalSource { WithinRun, AcrossRepeats };
    IntervalSource intervalSource = IntervalSource::WithinRun;
    bool hadAcrossRepeats = false;

    bool judged() const { return outcome == Outcome::Pass || outcome == Outcome::Fail; }
};

struct Verdict {
    enum class Status { Pass, Fail, NoTarget, Invalid, Inconclusive };
    Status status = Status::NoTarget;
    int operatingPoint = -1; // index into the scenario's points; -1 = none (JSON null)
    std::vector<VerdictCheck> checks;

    nlohmann::json toJson() const;
    static Result<Verdict> fromJson(const nlohmann::json &j);
};

std::string_view verdictStatusKey(Verdict::Status s);      // pass | fail | no_target | invalid | inconclusive
std::string_view checkOutcomeKey(VerdictCheck::Outcome o); // pass | fail | info | n/a | inconclusive
std::string_view intervalSourceKey(VerdictCheck::IntervalSource s); // within_run | across_repeats

struct VerdictOptions {
    double baselineShare = 0.95;  // Exemplar: ≥ 95 % of baseline
    bool judgeScenarioSlo = true; // the scenario's own Slo limits become slo checks
};

// "p90" for 90, "p999" for 99.9, … (the Slo's percentile as a stat key).
std::string sloStatKey(double percentile);
// The scenario's Slo as slo-kind rows (ttft_ms/tpot_ms/e2e_ms at the Slo percentile).
std::vector<TargetRow> sloRows(const Slo &slo);
// Baseline rows from a stored run's operating point (Exemplar headline metrics): output_tps_per_gpu
// (>=) and ttft_ms mean (<=), kind baseline, so the 95 % rule applies. Undefined values give no row.
std::vector<TargetRow> baselineRowsFromPoint(const PointResult &baselineOperatingPoint,
                                             const std::string &source);
// True when every limit of the Slo holds at the point (an unreportable stat does not hold). The limits are
// sloRows(slo): the Slo's percentile through sloStatKey (99.9 → p999), as the verdict judges them.
bool pointMeetsSlo(const PointResult &p, const Slo &slo);
// Search mode's bisection step: the point is valid, has successful requests and meets the Slo.
bool searchPointMeetsSlo(const PointResult &p, const Slo &slo);
// -1 when no point is valid.
int selectOperatingPoint(std::span<const PointResult> points, const Slo &slo);
// -1 when there are no points.
int designatedPoint(std::span<const PointResult> points, int recipeConcurrency);
// One check of a row against a point (or against no point: index -1 → n/a).
VerdictCheck judgeRow(const TargetRow &row, std::span<const PointResult> points, int pointIndex,
                      const VerdictOptions &options = {});

Verdict judgeScenario(const Scenario &scenario, std::span<const PointResult> points,
                      const std::vector<TargetRow> &targets, const VerdictOptions &options = {});

// Campaign exit code (ARCHITECTURE.md): 1 when any scenario failed; else 4 when one is invalid;
// else 0 (an inconclusive scenario too). --strict turns no_target, invalid and inconclusive into 1.
int campaignExitCode(std::span<const Verdict::Status> statuses, bool strict);

} // namespace Throughline
