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
// - Status: invalid if no valid point; else fail if any judged check failed; else no_target if
//   nothing was judged; else pass.

#include "core/campaign/scenario.h"
#include "core/metrics/pointresult.h"
#include "core/targets/targettable.h"

#include <span>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace Throughline {

struct VerdictCheck {
    enum class Outcome { Pass, Fail, Info, NotAvailable };

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

    bool judged() const { return outcome == Outcome::Pass || outcome == Outcome::Fail; }
};

struct Verdict {
    enum class Status { Pass, Fail, NoTarget, Invalid };
    Status status = Status::NoTarget;
    int operatingPoint = -1; // index into the scenario's points; -1 = none (JSON null)
    std::vector<VerdictCheck> checks;

    nlohmann::json toJson() const;
    static Result<Verdict> fromJson(const nlohmann::json &j);
};

std::string_view verdictStatusKey(Verdict::Status s);      // pass | fail | no_target | invalid
std::string_view checkOutcomeKey(VerdictCheck::Outcome o); // pass | fail | info | n/a

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
// else 0. --strict turns no_target and invalid into 1.
int campaignExitCode(std::span<const Verdict::Status> statuses, bool strict);

} // namespace Throughline
