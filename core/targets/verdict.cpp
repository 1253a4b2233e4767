#include "core/targets/verdict.h"
#include "core/targets/verdictkeys.h"

#include "core/metrics/jsonnumber.h"
#include "core/metrics/repeatgroups.h"
#include "core/stats/intervalverdict.h"
#include "core/stats/samplesize.h"

#include <cmath>
#include <limits>

#include <nlohmann/json.hpp>

namespace Throughline {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

double throughputOf(const PointResult &p)
{
    const double v = p.metrics.outputTpsPerGpu;
    return std::isnan(v) ? -1.0 : v;
}

// The row's threshold: the target itself, or for a baseline the 95 % rule over the baseline's interval when
// it came from a stored run (a baseline without one is a number).
Threshold thresholdOf(const TargetRow &row, const VerdictOptions &options)
{
    const TargetDirection direction =
        row.cmp == Comparator::GreaterEqual ? TargetDirection::AtLeast : TargetDirection::AtMost;
    if (row.kind != TargetKind::Baseline)
        return Threshold::exactly(row.value);
    Interval baseline;
    baseline.estimate = row.value;
    if (std::isfinite(row.valueLower) && std::isfinite(row.valueUpper)) {
        baseline.lower = row.valueLower;
        baseline.upper = row.valueUpper;
    }
    return baselineThreshold(baseline, direction, options.baselineShare);
}

// The percentile (0–1) a stat key names, for the minimum-n rule of an open order-statistic side.
std::optional<double> percentileOf(const std::string &stat)
{
    for (const auto &spec : kPercentiles)
        if (spec.key == stat)
            return spec.permille / 1000.0;
    return std::nullopt;
}

// Requests that would decide an inconclusive check (samplesize.h, 80 % power). When the side facing the
// target is open, the minimum-n rule counts effective samples: the requests that give that many at the
// point's n / τ (a minimum: bounding the side does not yet decide the check). Without a known n / τ the
// bounded side mirrored around the estimate stands in for the open one — the open side of a right-skewed
// latency is the wider one, so that figure is a minimum too.
void estimateRequestsNeeded(VerdictCheck &c, const Interval &iv, double requests, const Threshold &threshold)
{
    const std::optional<double> p = percentileOf(c.stat);
    SampleSizeEstimate e = samplesToDecide(iv, requests, threshold, 0.8, p);
    bool minimum = e.kind == SampleSizeEstimate::Kind::AtLeast;
    if (minimum && p && iv.effectiveN > 0) {
        const bool upperSide = iv.estimate < threshold.lower; // the side that faces the threshold
        const double minN = double(upperSide ? minimumSamplesForUpperBound(*p, iv.level)
                                             : minimumSamplesForLowerBound(*p, iv.level));
        e.requiredN = std::max(requests + 1, std::ceil(requests * minN / iv.effectiveN));
    } else if (minimum && e.requiredN <= requests) {
        Interval mirrored = iv;
        if (iv.hasLower() && !iv.hasUpper())
            mirrored.upper = 2 * iv.estimate - iv.lower;
        else if (iv.hasUpper() && !iv.hasLower())
            mirrored.lower = 2 * iv.estimate - iv.upper;
        e = mirrored.bounded() ? samplesToDecide(mirrored, requests, threshold) : SampleSizeEstimate{};
        if (e.kind == SampleSizeEstimate::Kind::Estimate)
            e.requiredN = std::max(e.requiredN, requests + 1);
    }
    c.requestsNeeded = e.kind == SampleSizeEstimate::Kind::NotDecidable ? 0 : e.requiredN;
    c.requestsNeededIsMinimum = minimum && c.requestsNeeded > 0;
}

void judgeOnInterval(VerdictCheck &c, const Interval &iv, double sampleSize, const Threshold &threshold)
{
    c.lower = iv.lower;
    c.upper = iv.upper;
    c.level = iv.level;
    const TargetDirection direction =
        c.cmp == Comparator::GreaterEqual ? TargetDirection::AtLeast : TargetDirection::AtMost;
    switch (judgeInterval(iv, direction, threshold)) {
    case IntervalVerdict::Pass:
        c.outcome = VerdictCheck::Outcome::Pass;
        return;
    case IntervalVerdict::Fail:
        c.outcome = VerdictCheck::Outcome::Fail;
        return;
    case IntervalVerdict::Inconclusive:
        break;
    }
    c.outcome = VerdictCheck::Outcome::Inconclusive;
    estimateRequestsNeeded(c, iv, sampleSize, threshold);
}

// The check's value with its distance to the target.
void setCheckValue(VerdictCheck &c, double value)
{
    c.value = value;
    c.pctOfTarget = value / c.target * 100.0;
    c.marginPct = c.cmp == Comparator::GreaterEqual ? (value - c.target) / c.target * 100.0
                                                    : (c.target - value) / c.target * 100.0;
}

// The interval a check is judged on (decidingInterval): with the across-repeat one the check's value is the
// repeats' mean.
void judgeOnIntervals(VerdictCheck &c, const DecidingInterval &d, const Threshold &threshold)
{
    c.hadAcrossRepeats = d.hadAcrossRepeats;
    if (d.acrossRepeats) {
        c.intervalSource = VerdictCheck::IntervalSource::AcrossRepeats;
        setCheckValue(c, d.interval.estimate);
    }
    judgeOnInterval(c, d.interval, d.sampleSize, threshold);
}
} // namespace

std::string_view verdictStatusKey(Verdict::Status s)
{
    switch (s) {
    case Verdict::Status::Pass:
        return "pass";
    case Verdict::Status::Fail:
        return "fail";
    case Verdict::Status::NoTarget:
        return "no_target";
    case Verdict::Status::Invalid:
        return "invalid";
    case Verdict::Status::Inconclusive:
        return "inconclusive";
    }
    return "invalid";
}

std::optional<Verdict::Status> verdictStatusFromKey(std::string_view key)
{
    for (auto s : {Verdict::Status::Pass, Verdict::Status::Fail, Verdict::Status::NoTarget,
                   Verdict::Status::Invalid, Verdict::Status::Inconclusive})
        if (verdictStatusKey(s) == key)
            return s;
    return std::nullopt;
}

std::string_view checkOutcomeKey(VerdictCheck::Outcome o)
{
    switch (o) {
    case VerdictCheck::Outcome::Pass:
        return "pass";
    case VerdictCheck::Outcome::Fail:
        return "fail";
    case VerdictCheck::Outcome::Info:
        return "info";
    case VerdictCheck::Outcome::NotAvailable:
        return "n/a";
    case VerdictCheck::Outcome::Inconclusive:
        return "inconclusive";
    }
    return "n/a";
}

std::string sloStatKey(double percentile)
{
    const long permille = std::lround(percentile * 10);
    if (permille % 10 == 0)
        return "p" + std::to_string(permille / 10);
    return "p" + std::to_string(permille);
}

std::vector<TargetRow> sloRows(const Slo &slo)
{
    std::vector<TargetRow> rows;
    const std::string stat = sloStatKey(slo.percentile);
    auto add = [&](const char *metric, double limit) {
        if (limit <= 0)
            return;
        TargetRow r;
        r.metric = metric;
        r.stat = stat;
        r.cmp = Comparator::LessEqual;
        r.value = limit;
        r.kind = TargetKind::Slo;
        r.source = "scenario SLO";
        rows.push_back(std::move(r));
    };
    add("ttft_ms", slo.ttftMs);
    add("tpot_ms", slo.tpotMs);
    add("e2e_ms", slo.e2eMs);
    return rows;
}

std::vector<TargetRow> baselineRowsFromPoint(const PointResult &p, const std::string &source)
{
    std::vector<TargetRow> rows;
    auto add = [&](const char *metric, const char *stat, Comparator cmp) {
        const auto v = p.metricValue(metric, stat);
        if (!v || !(*v > 0))
            return;
        TargetRow r;
        r.metric = metric;
        r.stat = stat;
        r.cmp = cmp;
        r.value = *v;
        if (const auto iv = p.metricInterval(metric, stat); iv && iv->bounded()) {
            r.valueLower = iv->lower;
            r.valueUpper = iv->upper;
        }
        r.kind = TargetKind::Baseline;
        r.source = source;
        rows.push_back(std::move(r));
    };
    add("output_tps_per_gpu", "value", Comparator::GreaterEqual);
    add("ttft_ms", "mean", Comparator::LessEqual);
    return rows;
}

// On the point's values, not its intervals: the operating point and search mode's bisection need a yes or no
// at every point; the verdict at the point chosen then counts the intervals (docs/metrics.md).
bool pointMeetsSlo(const PointResult &p, const Slo &slo)
{
    for (const TargetRow &r : sloRows(slo)) {
        const auto v = p.metricValue(r.metric, r.stat);
        if (!v || *v > r.value)
            return false;
    }
    return true;
}

bool searchPointMeetsSlo(const PointResult &p, const Slo &slo)
{
    return p.validity.valid && p.nOk > 0 && pointMeetsSlo(p, slo);
}

int selectOperatingPoint(std::span<const PointResult> points, const Slo &slo)
{
    int best = -1;
    int bestMeeting = -1;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const PointResult &p = points[i];
        if (!p.validity.valid)
            continue;
        const int idx = static_cast<int>(i);
        if (best < 0 || throughputOf(p) > throughputOf(points[best]))
            best = idx;
        if (pointMeetsSlo(p, slo) && (bestMeeting < 0 || throughputOf(p) > throughputOf(points[bestMeeting])))
            bestMeeting = idx;
    }
    return bestMeeting >= 0 ? bestMeeting : best;
}

int designatedPoint(std::span<const PointResult> points, int recipeConcurrency)
{
    if (points.empty())
        return -1;
    if (recipeConcurrency > 0) {
        for (std::size_t i = 0; i < points.size(); ++i)
            if (points[i].load.mode == PointLoad::Mode::Concurrency &&
                points[i].load.concurrency == recipeConcurrency)
                return static_cast<int>(i);
    }
    return static_cast<int>(points.size()) - 1;
}

VerdictCheck judgeRow(const TargetRow &row, std::span<const PointResult> points, int pointIndex,
                      const VerdictOptions &options)
{
    VerdictCheck c;
    c.metric = row.metric;
    c.stat = row.stat;
    c.cmp = row.cmp;
    c.target = row.value;
    c.kind = row.kind;
    c.source = row.source;
    c.point = pointIndex;
    c.value = kNaN;
    c.marginPct = kNaN;
    c.pctOfTarget = kNaN;
    if (pointIndex >= 0 && pointIndex < static_cast<int>(points.size())) {
        if (const auto v = points[pointIndex].metricValue(row.metric, row.stat))
            c.value = *v;
    }
    if (std::isnan(c.value)) {
        c.outcome = VerdictCheck::Outcome::NotAvailable;
        return c;
    }
    setCheckValue(c, c.value);
    if (row.kind == TargetKind::Informational) {
        c.outcome = VerdictCheck::Outcome::Info;
        return c;
    }
    const Threshold threshold = thresholdOf(row, options);
    if (row.kind == TargetKind::Baseline && threshold.lower < threshold.upper) {
        c.targetLower = row.valueLower;
        c.targetUpper = row.valueUpper;
    }
    const PointResult &point = points[pointIndex];
    if (const auto d = decidingInterval(point, row.metric, row.stat)) {
        judgeOnIntervals(c, *d, threshold);
        return c;
    }
    // No interval (imports, files before results /3): the value alone decides.
    const bool pass =
        row.cmp == Comparator::GreaterEqual ? c.value >= threshold.lower : c.value <= threshold.upper;
    c.outcome = pass ? VerdictCheck::Outcome::Pass : VerdictCheck::Outcome::Fail;
    return c;
}

Verdict judgeScenario(const Scenario &scenario, std::span<const PointResult> points,
                      const std::vector<TargetRow> &targets, const VerdictOptions &options)
{
    Verdict v;
    v.operatingPoint = selectOperatingPoint(points, scenario.slo);
    int designated = designatedPoint(points, scenario.recipeConcurrency);
    if (designated >= 0 && !points[designated].validity.valid)
        designated = -1; // slo targets are not judged on an invalid point

    std::vector<TargetRow> rows = targets;
    if (options.judgeScenarioSlo) {
        const auto extra = sloRows(scenario.slo);
        rows.insert(rows.end(), extra.begin(), extra.end());
    }
    for (const TargetRow &r : rows) {
        const int at = r.kind == TargetKind::Slo ? designated : v.operatingPoint;
        v.checks.push_back(judgeRow(r, points, at, options));
    }

    bool anyJudged = false;
    bool anyFail = false;
    bool anyInconclusive = false;
    for (const VerdictCheck &c : v.checks) {
        anyJudged = anyJudged || c.judged();
        anyFail = anyFail || c.outcome == VerdictCheck::Outcome::Fail;
        anyInconclusive = anyInconclusive || c.outcome == VerdictCheck::Outcome::Inconclusive;
    }
    if (v.operatingPoint < 0)
        v.status = Verdict::Status::Invalid;
    else if (anyFail)
        v.status = Verdict::Status::Fail;
    else if (anyInconclusive)
        v.status = Verdict::Status::Inconclusive;
    else if (!anyJudged)
        v.status = Verdict::Status::NoTarget;
    else
        v.status = Verdict::Status::Pass;
    return v;
}

int campaignExitCode(std::span<const Verdict::Status> statuses, bool strict)
{
    bool fail = false;
    bool invalid = false;
    bool noTarget = false;
    bool inconclusive = false;
    for (auto s : statuses) {
        fail = fail || s == Verdict::Status::Fail;
        invalid = invalid || s == Verdict::Status::Invalid;
        noTarget = noTarget || s == Verdict::Status::NoTarget;
        inconclusive = inconclusive || s == Verdict::Status::Inconclusive;
    }
    if (fail)
        return 1;
    if (strict && (invalid || noTarget || inconclusive))
        return 1;
    if (invalid)
        return 4;
    return 0;
}

std::string_view intervalSourceKey(VerdictCheck::IntervalSource s)
{
    return s == VerdictCheck::IntervalSource::AcrossRepeats ? "across_repeats" : "within_run";
}

namespace {
// The check's interval extension (results /3): "interval" {lower, upper (null = open), level}, the
// baseline's "target_interval" {lower, upper}, and for an inconclusive check "requests_needed" (null = more
// requests cannot decide it) with "requests_needed_is_minimum".
void writeCheckInterval(nlohmann::json &j, const VerdictCheck &c)
{
    if (c.level > 0)
        j["interval"] = {{"lower", JsonNumber::orNull(c.lower)},
                         {"upper", JsonNumber::orNull(c.upper)},
                         {"level", c.level}};
    if (std::isfinite(c.targetLower) && std::isfinite(c.targetUpper))
        j["target_interval"] = {{"lower", c.targetLower}, {"upper", c.targetUpper}};
    const bool repeats = c.intervalSource == VerdictCheck::IntervalSource::AcrossRepeats;
    if (c.hadAcrossRepeats)
        j["interval_source"] = intervalSourceKey(c.intervalSource);
    if (c.outcome == VerdictCheck::Outcome::Inconclusive) {
        const char *key = repeats ? "repeats_needed" : "requests_needed";
        j[key] = c.requestsNeeded > 0 ? nlohmann::json(c.requestsNeeded) : nlohmann::json(nullptr);
        j[std::string(key) + "_is_minimum"] = c.requestsNeededIsMinimum;
    }
}

Status readCheckInterval(const nlohmann::json &j, VerdictCheck &c)
{
    bool ok = true;
    if (const auto iv = j.find("interval"); iv != j.end()) {
        if (!iv->is_object())
            return makeError(ErrorCode::InvalidInput, "verdict: checks[].interval: expected an object");
        const double lower = JsonNumber::read(*iv, "lower", ok);
        const double upper = JsonNumber::read(*iv, "upper", ok);
        c.lower = std::isnan(lower) ? -std::numeric_limits<double>::infinity() : lower;
        c.upper = std::isnan(upper) ? std::numeric_limits<double>::infinity() : upper;
        c.level = JsonNumber::read(*iv, "level", ok);
        if (!(c.level > 0 && c.level < 1))
            return makeError(ErrorCode::InvalidInput, "verdict: checks[].interval.level: expected a number "
                                                      "between 0 and 1");
    }
    if (const auto t = j.find("target_interval"); t != j.end() && t->is_object()) {
        c.targetLower = JsonNumber::read(*t, "lower", ok);
        c.targetUpper = JsonNumber::read(*t, "upper", ok);
    }
    if (const auto s = j.find("interval_source"); s != j.end()) {
        if (*s != "within_run" && *s != "across_repeats")
            return makeError(ErrorCode::InvalidInput, "verdict: checks[].interval_source: expected "
                                                      "\"within_run\" or \"across_repeats\"");
        c.hadAcrossRepeats = true;
        c.intervalSource = *s == "across_repeats" ? VerdictCheck::IntervalSource::AcrossRepeats
                                                  : VerdictCheck::IntervalSource::WithinRun;
    }
    const std::string neededKey = c.intervalSource == VerdictCheck::IntervalSource::AcrossRepeats
                                      ? "repeats_needed"
                                      : "requests_needed";
    if (const auto n = j.find(neededKey); n != j.end() && !n->is_null()) {
        c.requestsNeeded = JsonNumber::read(j, neededKey.c_str(), ok);
        c.requestsNeededIsMinimum = j.value(neededKey + "_is_minimum", false);
    }
    if (!ok)
        return makeError(ErrorCode::InvalidInput, "verdict: checks[]: an interval field holds a non-number");
    return Ok{};
}
} // namespace

nlohmann::json Verdict::toJson() const
{
    using nlohmann::json;
    json j = json::object();
    j["status"] = verdictStatusKey(status);
    j["operating_point"] = operatingPoint >= 0 ? json(operatingPoint) : json(nullptr);
    json arr = json::array();
    for (const VerdictCheck &c : checks) {
        arr.push_back({{"metric", c.metric},
                       {"stat", c.stat},
                       {"cmp", comparatorKey(c.cmp)},
                       {"target", c.target},
                       {"value", JsonNumber::orNull(c.value)},
                       {"margin_pct", JsonNumber::orNull(c.marginPct)},
                       {"kind", targetKindKey(c.kind)},
                       {"result", checkOutcomeKey(c.outcome)},
                       {"point", c.point >= 0 ? json(c.point) : json(nullptr)},
                       {"pct_of_target", JsonNumber::orNull(c.pctOfTarget)},
                       {"source", c.source}});
        writeCheckInterval(arr.back(), c);
    }
    j["checks"] = arr;
    return j;
}

Result<Verdict> Verdict::fromJson(const nlohmann::json &j)
{
    auto bad = [](const std::string &what) { return makeError(ErrorCode::InvalidInput, "verdict: " + what); };
    if (!j.is_object())
        return bad("expected an object");
    Verdict v;
    const std::string s = j.value("status", std::string());
    if (const auto status = verdictStatusFromKey(s))
        v.status = *status;
    else
        return bad("status: expected pass|fail|no_target|invalid|inconclusive, got \"" + s + "\"");
    if (const auto op = j.find("operating_point"); op != j.end() && op->is_number_integer())
        v.operatingPoint = op->get<int>();
    const auto cs = j.find("checks");
    if (cs == j.end() || !cs->is_array())
        return bad("checks: missing or not an array");
    for (const auto &cj : *cs) {
        if (!cj.is_object())
            return bad("checks[]: expected an object");
        VerdictCheck c;
        bool ok = true;
        c.metric = cj.value("metric", std::string());
        c.stat = cj.value("stat", std::string());
        const std::string cmp = cj.value("cmp", std::string());
        if (cmp != ">=" && cmp != "<=")
            return bad("checks[].cmp: expected >= or <=");
        c.cmp = cmp == ">=" ? Comparator::GreaterEqual : Comparator::LessEqual;
        c.target = JsonNumber::read(cj, "target", ok);
        c.value = JsonNumber::read(cj, "value", ok);
        c.marginPct = JsonNumber::read(cj, "margin_pct", ok);
        c.pctOfTarget = JsonNumber::read(cj, "pct_of_target", ok);
        if (!ok)
            return bad("checks[]: a numeric field holds a non-number");
        const std::string kind = cj.value("kind", std::string());
        if (kind == "baseline")
            c.kind = TargetKind::Baseline;
        else if (kind == "slo")
            c.kind = TargetKind::Slo;
        else if (kind == "informational")
            c.kind = TargetKind::Informational;
        else
            return bad("checks[].kind: expected baseline|slo|informational");
        const std::string res = cj.value("result", std::string("n/a"));
        c.outcome = res == "pass"           ? VerdictCheck::Outcome::Pass
                    : res == "fail"         ? VerdictCheck::Outcome::Fail
                    : res == "info"         ? VerdictCheck::Outcome::Info
                    : res == "inconclusive" ? VerdictCheck::Outcome::Inconclusive
                                            : VerdictCheck::Outcome::NotAvailable;
        if (auto st = readCheckInterval(cj, c); !st)
            return st.error();
        if (const auto p = cj.find("point"); p != cj.end() && p->is_number_integer())
            c.point = p->get<int>();
        c.source = cj.value("source", std::string());
        v.checks.push_back(std::move(c));
    }
    return v;
}

} // namespace Throughline
