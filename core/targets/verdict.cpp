#include "core/targets/verdict.h"

#include "core/metrics/jsonnumber.h"

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
    }
    return "invalid";
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
        r.kind = TargetKind::Baseline;
        r.source = source;
        rows.push_back(std::move(r));
    };
    add("output_tps_per_gpu", "value", Comparator::GreaterEqual);
    add("ttft_ms", "mean", Comparator::LessEqual);
    return rows;
}

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
    c.pctOfTarget = c.value / c.target * 100.0;
    c.marginPct = row.cmp == Comparator::GreaterEqual ? (c.value - c.target) / c.target * 100.0
                                                      : (c.target - c.value) / c.target * 100.0;
    if (row.kind == TargetKind::Informational) {
        c.outcome = VerdictCheck::Outcome::Info;
        return c;
    }
    double threshold = c.target;
    if (row.kind == TargetKind::Baseline)
        threshold = row.cmp == Comparator::GreaterEqual ? c.target * options.baselineShare
                                                        : c.target / options.baselineShare;
    const bool pass = row.cmp == Comparator::GreaterEqual ? c.value >= threshold : c.value <= threshold;
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
    for (const VerdictCheck &c : v.checks) {
        anyJudged = anyJudged || c.judged();
        anyFail = anyFail || c.outcome == VerdictCheck::Outcome::Fail;
    }
    if (v.operatingPoint < 0)
        v.status = Verdict::Status::Invalid;
    else if (anyFail)
        v.status = Verdict::Status::Fail;
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
    for (auto s : statuses) {
        fail = fail || s == Verdict::Status::Fail;
        invalid = invalid || s == Verdict::Status::Invalid;
        noTarget = noTarget || s == Verdict::Status::NoTarget;
    }
    if (fail)
        return 1;
    if (strict && (invalid || noTarget))
        return 1;
    if (invalid)
        return 4;
    return 0;
}

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
    if (s == "pass")
        v.status = Status::Pass;
    else if (s == "fail")
        v.status = Status::Fail;
    else if (s == "no_target")
        v.status = Status::NoTarget;
    else if (s == "invalid")
        v.status = Status::Invalid;
    else
        return bad("status: expected pass|fail|no_target|invalid, got \"" + s + "\"");
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
        c.outcome = res == "pass"   ? VerdictCheck::Outcome::Pass
                    : res == "fail" ? VerdictCheck::Outcome::Fail
                    : res == "info" ? VerdictCheck::Outcome::Info
                                    : VerdictCheck::Outcome::NotAvailable;
        if (const auto p = cj.find("point"); p != cj.end() && p->is_number_integer())
            c.point = p->get<int>();
        c.source = cj.value("source", std::string());
        v.checks.push_back(std::move(c));
    }
    return v;
}

} // namespace Throughline
