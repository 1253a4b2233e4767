#include "core/mlperf/compliance.h"

#include "core/metrics/pointresult.h"
#include "core/mlperf/frontier.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <set>

namespace Throughline::Mlperf {

std::string_view checkStateKey(CheckState s)
{
    switch (s) {
    case CheckState::Pass:
        return "pass";
    case CheckState::Fail:
        return "fail";
    case CheckState::Pending:
        return "pending";
    case CheckState::NotApplicable:
        return "not_applicable";
    case CheckState::Blocked:
        break;
    }
    return "blocked";
}

const CheckResult *ComplianceReport::find(std::string_view ruleId) const
{
    for (const CheckResult &c : checks)
        if (c.ruleId == ruleId)
            return &c;
    return nullptr;
}

namespace {

std::string num(double v, int decimals = 0)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

// The campaign as the checks see it: region bounds from C_min (the smallest fixed concurrency measured or
// still to come) and C_max, and the planned points no measurement has matched yet.
struct Context {
    const CampaignEvidence &campaign;
    const RulesPreset &preset;
    std::optional<RegionBounds> bounds;
    std::vector<PlannedPoint> remaining; // planned, not measured, and the campaign not finished
    int cMin = 0;

    Context(const CampaignEvidence &c, const RulesPreset &p)
        : campaign(c)
        , preset(p)
    {
        std::multiset<std::pair<int, bool>> measured;
        for (const PointEvidence &m : c.measured)
            measured.insert({m.concurrency, m.offline});
        if (!c.finished) {
            for (const PlannedPoint &pp : c.plan) {
                const auto key = std::make_pair(pp.concurrency, pp.role == PlannedPoint::Role::Offline);
                if (auto it = measured.find(key); it != measured.end())
                    measured.erase(it);
                else
                    remaining.push_back(pp);
            }
        }
        cMin = 0;
        for (int x : fixedConcurrencies(true))
            cMin = cMin == 0 ? x : std::min(cMin, x);
        if (auto b = regionBounds(cMin, c.cMax, p.regions); b.ok())
            bounds = *b;
    }

    // Fixed-concurrency points measured, and (withRemaining) still to come.
    std::vector<int> fixedConcurrencies(bool withRemaining) const
    {
        std::vector<int> out;
        for (const PointEvidence &m : campaign.measured)
            if (!m.offline)
                out.push_back(m.concurrency);
        if (withRemaining)
            for (const PlannedPoint &pp : remaining)
                if (pp.role != PlannedPoint::Role::Offline)
                    out.push_back(pp.concurrency);
        return out;
    }
    int measuredCount() const { return static_cast<int>(campaign.measured.size()); }
    int possibleCount() const { return measuredCount() + static_cast<int>(remaining.size()); }
    // Without valid bounds (EPR-12/13 failed) a point is Ultra Low when it lies in 1 … 32, else judged like
    // High, so duration rules still apply.
    Region regionOf(int c) const
    {
        if (bounds)
            return bounds->regionOf(c);
        const bool ultraLow = c >= preset.regions.ultraLowMin && c <= preset.regions.ultraLowMax;
        return ultraLow ? Region::UltraLow : Region::High;
    }
    std::string timeNote(const PointEvidence &p) const
    {
        if (p.timeScale == 1)
            return "";
        // core/engine/modeltime.h: model time = wall time × scale (a scale of 100 runs 100× faster).
        char scale[32];
        std::snprintf(scale, sizeof scale, "%g", p.timeScale);
        return std::string(" (model time; time scale ") + scale + ": " +
               num(p.steadyIssueSpanS / p.timeScale, 1) + " s wall)";
    }
};

CheckResult make(const char *id, const char *title, Severity sev = Severity::Error)
{
    CheckResult r;
    r.ruleId = id;
    r.title = title;
    r.severity = sev;
    return r;
}

CheckResult &set(CheckResult &r, CheckState s, std::string detail)
{
    r.state = s;
    r.detail = std::move(detail);
    return r;
}

// ---- Point rules ------------------------------------------------------------------------------------

struct PointVerdict {
    CheckState state = CheckState::NotApplicable;
    std::string detail;
};

struct PointRule {
    const char *id;
    const char *title;
    Severity severity;
    // Whether the rule applies to a point (planned points are judged by role and concurrency alone).
    std::function<bool(const Context &, bool offline, int concurrency)> applies;
    std::function<PointVerdict(const Context &, const PointEvidence &)> judge;
};

bool fixedOnly(const Context &, bool offline, int)
{
    return !offline;
}
bool every(const Context &, bool, int)
{
    return true;
}

PointVerdict pass(std::string d = {})
{
    return {CheckState::Pass, std::move(d)};
}
PointVerdict fail(std::string d)
{
    return {CheckState::Fail, std::move(d)};
}
PointVerdict blocked(std::string d)
{
    return {CheckState::Blocked, std::move(d)};
}

// A percentile that is absent: never measured, or (results.json, History) not reportable under
// Throughline's minimum-n rule (p90 needs 100 samples) — the sample count says which.
std::string missing(const std::string &what, long long n)
{
    if (n <= 0)
        return what + " missing";
    return what + " not reported at n = " + std::to_string(n) + " (Throughline's minimum-n rule)";
}

bool withinTolerance(double reported, double expected, double rel)
{
    return std::fabs(reported - expected) <= rel * std::fabs(expected);
}

PointVerdict judgeDuration(const Context &ctx, const PointEvidence &p)
{
    const Region region = ctx.regionOf(p.concurrency);
    // Beyond the margin (EPR-19 flags it) the point still needs the High duration.
    const double need = ctx.preset.minDurationFor(region == Region::OutOfRange ? Region::High : region);
    if (!(p.steadyIssueSpanS >= 0))
        return blocked("no steady-state window");
    const std::string got = num(p.steadyIssueSpanS) + " s of steady-state issue span" + ctx.timeNote(p);
    if (p.steadyIssueSpanS < need)
        return fail(got + ", " + num(need) + " s required");
    return pass(got + " ≥ " + num(need) + " s");
}

std::vector<PointRule> pointRules()
{
    std::vector<PointRule> rules;
    rules.push_back(
        {"EPR-01", "system_tps = output tokens ÷ elapsed", Severity::Error, every,
         [](const Context &ctx, const PointEvidence &p) {
             if (!(p.outputTokens >= 0) || !(p.elapsedS > 0) || !(p.systemTps >= 0))
                 return PointVerdict{CheckState::NotApplicable, "token count or window not known"};
             const double expect = p.outputTokens / p.elapsedS;
             if (!withinTolerance(p.systemTps, expect, ctx.preset.metricRelTolerance))
                 return fail("system_tps " + num(p.systemTps, 1) + " vs " + num(expect, 1));
             return pass();
         }});
    rules.push_back({"EPR-02", "tps_per_user = 1000 ÷ TPOT p90", Severity::Error, fixedOnly,
                     [](const Context &ctx, const PointEvidence &p) {
                         if (!(p.tpotP90Ms > 0) || !(p.tpsPerUser >= 0))
                             return fail(missing("TPOT p90", p.nTpot) + ", so no tps_per_user");
                         const double expect = 1000.0 / p.tpotP90Ms;
                         if (!withinTolerance(p.tpsPerUser, expect, ctx.preset.metricRelTolerance))
                             return fail("tps_per_user " + num(p.tpsPerUser, 2) + " vs " + num(expect, 2));
                         return pass();
                     }});
    rules.push_back({"EPR-03", "TTFT reported at the preset's percentile", Severity::Error, fixedOnly,
                     [](const Context &ctx, const PointEvidence &p) {
                         const std::string pct = "P" + std::to_string(ctx.preset.ttftPercentile);
                         if (!(p.ttftMs >= 0) || !std::isfinite(p.ttftMs))
                             return fail(missing("TTFT " + pct, p.nTtft));
                         return pass("TTFT " + pct + " " + num(p.ttftMs, 1) + " ms");
                     }});
    rules.push_back({"EPR-04", "TTFT stops at the first non-empty fragment", Severity::Error, fixedOnly,
                     [](const Context &, const PointEvidence &p) {
                         return p.ttftAtFirstFragment ? pass() : fail("TTFT measured to another event");
                     }});
    rules.push_back({"EPR-27", "fixed-concurrency load", Severity::Error, fixedOnly,
                     [](const Context &, const PointEvidence &p) {
                         return p.fixedConcurrency ? pass() : fail("not a fixed-concurrency point");
                     }});
    rules.push_back({"EPR-28", "Ultra Low point duration", Severity::Error,
                     [](const Context &ctx, bool offline, int c) {
                         return !offline && ctx.regionOf(c) == Region::UltraLow;
                     },
                     judgeDuration});
    rules.push_back({"EPR-29", "Low / Medium / High / margin point duration", Severity::Error,
                     [](const Context &ctx, bool offline, int c) {
                         return !offline && ctx.regionOf(c) != Region::UltraLow;
                     },
                     judgeDuration});
    rules.push_back({"EPR-30", "steady-state window covers enough super-passes", Severity::Warning,
                     [](const Context &ctx, bool offline, int) { return !offline && ctx.preset.steadyState; },
                     [](const Context &ctx, const PointEvidence &p) {
                         const int need = ctx.preset.steadyState->minSuperPasses;
                         if (p.superPassesInWindow < 0)
                             return blocked("super-passes not known (dataset size missing)");
                         const std::string got = std::to_string(p.superPassesInWindow) + " super-passes";
                         if (p.superPassesInWindow < need)
                             return fail(got + ", at least " + std::to_string(need) +
                                         " (insufficient_passes)");
                         return pass(got);
                     }});
    rules.push_back(
        {"EPR-31", "gating metrics in steady state", Severity::Warning,
         [](const Context &ctx, bool offline, int) { return !offline && ctx.preset.steadyState; },
         [](const Context &ctx, const PointEvidence &p) {
             // Below the super-pass floor the trend test has too few points: EPR-30 fails and
             // the whole-run metrics are official (§4.4), so this rule does not apply.
             if (p.superPassesInWindow >= 0 && p.superPassesInWindow < ctx.preset.steadyState->minSuperPasses)
                 return PointVerdict{CheckState::NotApplicable, "fewer super-passes than the trend "
                                                                "test needs (EPR-30)"};
             if (p.steadyStateVerdict.empty())
                 return blocked("no §4.4 steady-state detector verdict");
             if (p.steadyStateVerdict != "STEADY STATE")
                 return fail("detector verdict " + p.steadyStateVerdict);
             return pass();
         }});
    rules.push_back({"EPR-34", "warm-up at most the preset's maximum", Severity::Error, every,
                     [](const Context &ctx, const PointEvidence &p) {
                         if (p.warmupS > ctx.preset.maxWarmupS)
                             return fail("warm-up " + num(p.warmupS) + " s > " + num(ctx.preset.maxWarmupS) +
                                         " s");
                         return pass();
                     }});
    rules.push_back({"EPR-36", "at least one full dataset pass completed", Severity::Error, every,
                     [](const Context &ctx, const PointEvidence &p) {
                         const long long n = ctx.campaign.datasetSize;
                         if (n <= 0)
                             return blocked("dataset size not known");
                         const long long need = n * ctx.preset.minDatasetPasses;
                         if (p.nCompleted < need)
                             return fail(std::to_string(p.nCompleted) + " completed, " +
                                         std::to_string(need) + " required");
                         return pass();
                     }});
    rules.push_back({"EPR-37", "samples issued a whole multiple of the dataset", Severity::Error, every,
                     [](const Context &ctx, const PointEvidence &p) {
                         const long long n = ctx.campaign.datasetSize;
                         if (!ctx.preset.wholeDatasetMultiples)
                             return PointVerdict{CheckState::NotApplicable, ""};
                         if (n <= 0)
                             return blocked("dataset size not known");
                         if (p.nIssued <= 0 || p.nIssued % n != 0)
                             return fail(std::to_string(p.nIssued) + " issued, not a multiple of " +
                                         std::to_string(n));
                         return pass();
                     }});
    rules.push_back({"EPR-38", "performance sample order with replacement", Severity::Error, every,
                     [](const Context &, const PointEvidence &p) {
                         if (!p.sampleOrderWithReplacement)
                             return blocked("sample order not recorded");
                         return *p.sampleOrderWithReplacement ? pass() : fail("sampled without replacement");
                     }});
    rules.push_back(
        {"EPR-39", "streaming on", Severity::Error, fixedOnly, [](const Context &, const PointEvidence &p) {
             return p.streaming ? pass() : fail("not streamed");
         }});
    rules.push_back({"EPR-41", "TPOT p90 present, finite, > 0", Severity::Error, fixedOnly,
                     [](const Context &, const PointEvidence &p) {
                         if (!(p.tpotP90Ms > 0) || !std::isfinite(p.tpotP90Ms))
                             return fail(missing("TPOT p90", p.nTpot));
                         return pass("TPOT p90 " + num(p.tpotP90Ms, 2) + " ms");
                     }});
    rules.push_back({"VAL-01", "completed + failed = issued", Severity::Error, every,
                     [](const Context &, const PointEvidence &p) {
                         if (p.nIssued <= 0)
                             return PointVerdict{CheckState::NotApplicable, "nothing issued"};
                         if (p.nCompleted + p.nFailed != p.nIssued)
                             return fail(std::to_string(p.nCompleted) + " + " + std::to_string(p.nFailed) +
                                         " ≠ " + std::to_string(p.nIssued));
                         return pass();
                     }});
    rules.push_back(
        {"VAL-02", "duration_ns > 0", Severity::Error, every, [](const Context &, const PointEvidence &p) {
             return p.durationNs > 0 ? pass() : fail("duration_ns " + num(p.durationNs));
         }});
    rules.push_back({"CLI-02", "early-stopping estimates available (p90, p99)", Severity::Info, fixedOnly,
                     [](const Context &ctx, const PointEvidence &p) {
                         const int n90 = ctx.preset.earlyStoppingMinSamplesFor("90.0").value_or(0);
                         const int n99 = ctx.preset.earlyStoppingMinSamplesFor("99.0").value_or(0);
                         const long long n = std::min(p.nTtft, p.nTpot);
                         const std::string at =
                             " at confidence " + num(ctx.preset.earlyStoppingConfidence, 2);
                         if (n < n90)
                             return fail(std::to_string(n) + " samples: no p90 estimate (needs " +
                                         std::to_string(n90) + ")" + at);
                         if (n < n99)
                             return pass(std::to_string(n) + " samples: p90 estimate, p99 null (needs " +
                                         std::to_string(n99) + ")" + at);
                         return pass(std::to_string(n) + " samples: p90 and p99 estimates" + at);
                     }});
    return rules;
}

std::string concurrencyLabel(const PointEvidence &p)
{
    return (p.offline ? "Offline C=" : "C=") + std::to_string(p.concurrency);
}

CheckResult aggregate(const PointRule &rule, const Context &ctx)
{
    CheckResult r = make(rule.id, rule.title, rule.severity);
    std::string fails, blocks;
    int judged = 0;
    for (const PointEvidence &p : ctx.campaign.measured) {
        if (!rule.applies(ctx, p.offline, p.concurrency))
            continue;
        const PointVerdict v = rule.judge(ctx, p);
        if (v.state == CheckState::NotApplicable)
            continue;
        ++judged;
        if (v.state == CheckState::Fail) {
            r.failingPoints.push_back(p.concurrency);
            fails += (fails.empty() ? "" : "; ") + concurrencyLabel(p) + ": " + v.detail;
        } else if (v.state == CheckState::Blocked && blocks.empty()) {
            blocks = concurrencyLabel(p) + ": " + v.detail;
        }
    }
    int waiting = 0;
    for (const PlannedPoint &pp : ctx.remaining)
        waiting += rule.applies(ctx, pp.role == PlannedPoint::Role::Offline, pp.concurrency);
    if (!fails.empty())
        return set(r, CheckState::Fail, fails);
    if (!blocks.empty())
        return set(r, CheckState::Blocked, blocks);
    if (waiting > 0)
        return set(r, CheckState::Pending,
                   std::to_string(judged) + " point(s) pass, " + std::to_string(waiting) + " to come");
    if (judged == 0)
        return set(r, CheckState::NotApplicable, "no point this rule applies to");
    return set(r, CheckState::Pass, std::to_string(judged) + " point(s)");
}

// ---- Curve rules ------------------------------------------------------------------------------------

CheckResult pointCount(const Context &ctx)
{
    const bool dedicated = ctx.campaign.offline == OfflineMode::Dedicated;
    CheckResult r = make(dedicated ? "EPR-08" : "EPR-09",
                         dedicated ? "minimum points with a dedicated Offline point"
                                   : "minimum points (C_max elected as Offline, or no Offline point)");
    const int need = minimumPoints(ctx.preset, ctx.campaign.offline);
    const std::string have = std::to_string(ctx.measuredCount()) + " measured, " +
                             std::to_string(ctx.possibleCount()) + " possible, " + std::to_string(need) +
                             " required";
    if (ctx.possibleCount() < need)
        return set(r, CheckState::Fail, have);
    return set(r, ctx.measuredCount() >= need ? CheckState::Pass : CheckState::Pending, have);
}

CheckResult pointCap(const Context &ctx)
{
    CheckResult r = make("EPR-10", "at most the preset's points, Offline included");
    const std::string have = std::to_string(ctx.possibleCount()) + " planned or measured, at most " +
                             std::to_string(ctx.preset.maxPoints);
    return set(r, ctx.possibleCount() > ctx.preset.maxPoints ? CheckState::Fail : CheckState::Pass, have);
}

// A region is covered by a measured fixed point in it; pending while a planned one is still to come.
CheckResult coverage(const Context &ctx, const char *id, const char *title, Region region)
{
    CheckResult r = make(id, title);
    ConcurrencyRange range;
    if (region == Region::UltraLow)
        range = {ctx.preset.regions.ultraLowMin, ctx.preset.regions.ultraLowMax};
    else if (ctx.bounds)
        range = ctx.bounds->range(region);
    else
        return set(r, CheckState::Blocked, "regions undefined (see EPR-12 / EPR-13)");
    const std::string where =
        std::string(regionKey(region)) + " " + std::to_string(range.lo) + "…" + std::to_string(range.hi);
    for (int c : ctx.fixedConcurrencies(false))
        if (range.contains(c))
            return set(r, CheckState::Pass, where + ": C=" + std::to_string(c));
    for (int c : ctx.fixedConcurrencies(true))
        if (range.contains(c))
            return set(r, CheckState::Pending, where + ": C=" + std::to_string(c) + " to come");
    return set(r, CheckState::Fail, where + ": no point measured or planned");
}

CheckResult cMinRange(const Context &ctx)
{
    CheckResult r = make("EPR-12", "C_min (smallest concurrency) within Ultra Low");
    if (ctx.cMin == 0)
        return set(r, CheckState::Pending, "no fixed-concurrency point yet");
    const std::string have = "C_min " + std::to_string(ctx.cMin);
    if (ctx.cMin < ctx.preset.regions.ultraLowMin || ctx.cMin > ctx.preset.regions.ultraLowMax)
        return set(r, CheckState::Fail,
                   have + " outside " + std::to_string(ctx.preset.regions.ultraLowMin) + "…" +
                       std::to_string(ctx.preset.regions.ultraLowMax));
    const auto measured = ctx.fixedConcurrencies(false);
    const bool done = std::find(measured.begin(), measured.end(), ctx.cMin) != measured.end();
    return set(r, done ? CheckState::Pass : CheckState::Pending, have);
}

CheckResult cMaxAbove(const Context &ctx)
{
    CheckResult r = make("EPR-13", "C_max above Ultra Low");
    const std::string have = "C_max " + std::to_string(ctx.campaign.cMax);
    return set(r, ctx.campaign.cMax > ctx.preset.regions.ultraLowMax ? CheckState::Pass : CheckState::Fail,
               have);
}

CheckResult marginRange(const Context &ctx)
{
    CheckResult r = make("EPR-19", "points within ceil(1.1 × C_max)", Severity::Warning);
    if (!ctx.bounds)
        return set(r, CheckState::Blocked, "regions undefined (see EPR-12 / EPR-13)");
    std::string out;
    for (int c : ctx.fixedConcurrencies(true)) {
        if (ctx.bounds->regionOf(c) == Region::OutOfRange) {
            r.failingPoints.push_back(c);
            out += (out.empty() ? "C=" : ", C=") + std::to_string(c);
        }
    }
    if (!out.empty())
        return set(r, CheckState::Fail, out + " beyond " + std::to_string(ctx.bounds->margin.hi));
    return set(r, CheckState::Pass, "all within 1…" + std::to_string(ctx.bounds->margin.hi));
}

CheckResult cMaxJustification(const Context &ctx)
{
    CheckResult r = make("EPR-20", "C_max above the justification threshold", Severity::Warning);
    if (ctx.campaign.cMax <= ctx.preset.cMaxJustifyAtOrBelow)
        return set(r, CheckState::Blocked,
                   "C_max " + std::to_string(ctx.campaign.cMax) + " needs written justification to the WG");
    return set(r, CheckState::Pass, "C_max " + std::to_string(ctx.campaign.cMax));
}

const PointEvidence *measuredOffline(const Context &ctx)
{
    for (const PointEvidence &p : ctx.campaign.measured)
        if (p.offline)
            return &p;
    return nullptr;
}

bool offlineToCome(const Context &ctx)
{
    for (const PlannedPoint &pp : ctx.remaining)
        if (pp.role == PlannedPoint::Role::Offline)
            return true;
    return false;
}

CheckResult offlineThroughput(const Context &ctx)
{
    CheckResult r = make("EPR-23", "Offline throughput ≥ ratio × the C_max point's", Severity::Warning);
    if (!ctx.preset.offline || ctx.campaign.offline != OfflineMode::Dedicated)
        return set(r, CheckState::NotApplicable, "no dedicated Offline point");
    const PointEvidence *off = measuredOffline(ctx);
    const PointEvidence *top = nullptr;
    for (const PointEvidence &p : ctx.campaign.measured)
        if (!p.offline && p.concurrency == ctx.campaign.cMax)
            top = &p;
    const double ratio = ctx.preset.offline->minTpsRatioToCMax;
    if (off && top) {
        const std::string have = "Offline " + num(off->systemTps, 1) + " tok/s vs " + num(ratio, 2) + " × " +
                                 num(top->systemTps, 1) + " = " + num(ratio * top->systemTps, 1);
        if (!(off->systemTps >= ratio * top->systemTps)) {
            r.failingPoints.push_back(off->concurrency);
            return set(r, CheckState::Fail, have);
        }
        return set(r, CheckState::Pass, have);
    }
    const auto all = ctx.fixedConcurrencies(true);
    const bool topToCome = std::find(all.begin(), all.end(), ctx.campaign.cMax) != all.end();
    if ((off || offlineToCome(ctx)) && (top || topToCome))
        return set(r, CheckState::Pending, "needs the Offline and the C_max points");
    return set(r, CheckState::Fail, off || offlineToCome(ctx) ? "no C_max point" : "no Offline point");
}

// EPR-24 (≥ C_max) and EPR-25 (= dataset size) both judge the Offline point's concurrency, known from the
// plan before it runs.
CheckResult offlineConcurrency(const Context &ctx, bool datasetRule)
{
    CheckResult r = datasetRule ? make("EPR-25", "Offline concurrency = dataset size")
                                : make("EPR-24", "Offline concurrency ≥ C_max", Severity::Warning);
    if (!ctx.preset.offline || ctx.campaign.offline != OfflineMode::Dedicated)
        return set(r, CheckState::NotApplicable, "no dedicated Offline point");
    const PointEvidence *off = measuredOffline(ctx);
    int c = off ? off->concurrency : 0;
    if (!off)
        for (const PlannedPoint &pp : ctx.remaining)
            if (pp.role == PlannedPoint::Role::Offline)
                c = pp.concurrency;
    if (c == 0)
        return set(r, CheckState::Fail, "no Offline point measured or planned");
    const std::string have = "Offline C=" + std::to_string(c);
    bool ok = true;
    if (datasetRule) {
        if (ctx.campaign.datasetSize <= 0)
            return set(r, CheckState::Blocked, "dataset size not known");
        ok = c == ctx.campaign.datasetSize;
    } else {
        ok = !ctx.preset.offline->minConcurrencyIsCMax || c >= ctx.campaign.cMax;
    }
    if (!ok) {
        r.failingPoints.push_back(c);
        return set(r, CheckState::Fail,
                   have + (datasetRule ? ", dataset " + std::to_string(ctx.campaign.datasetSize)
                                       : ", C_max " + std::to_string(ctx.campaign.cMax)));
    }
    return set(r, off ? CheckState::Pass : CheckState::Pending, have);
}

CheckResult offlineDeclaration(const Context &ctx)
{
    CheckResult r = make("EPR-26", "exactly one Offline declaration");
    if (!ctx.preset.offlinePoint)
        return set(r, CheckState::NotApplicable, ctx.preset.id + " has no Offline point");
    if (ctx.campaign.offline == OfflineMode::None)
        return set(r, CheckState::Fail, "no Offline result declared");
    if (ctx.campaign.offline == OfflineMode::Elected)
        return set(r, CheckState::Pass, "C_max point elected");
    int n = 0;
    for (const PointEvidence &p : ctx.campaign.measured)
        n += p.offline;
    for (const PlannedPoint &pp : ctx.remaining)
        n += pp.role == PlannedPoint::Role::Offline;
    if (n != 1)
        return set(r, CheckState::Fail, std::to_string(n) + " dedicated Offline points");
    return set(r, CheckState::Pass, "dedicated");
}

} // namespace

std::vector<CheckResult> evaluatePoint(const PointEvidence &point, const CampaignEvidence &campaign,
                                       const RulesPreset &preset)
{
    const Context ctx(campaign, preset);
    std::vector<CheckResult> out;
    for (const PointRule &rule : pointRules()) {
        if (!rule.applies(ctx, point.offline, point.concurrency))
            continue;
        const PointVerdict v = rule.judge(ctx, point);
        if (v.state == CheckState::NotApplicable)
            continue;
        CheckResult r = make(rule.id, rule.title, rule.severity);
        if (v.state == CheckState::Fail)
            r.failingPoints.push_back(point.concurrency);
        out.push_back(set(r, v.state, v.detail));
    }
    return out;
}

ComplianceReport evaluateCompliance(const CampaignEvidence &campaign, const RulesPreset &preset)
{
    const Context ctx(campaign, preset);
    ComplianceReport rep;
    rep.presetId = preset.id;
    auto &c = rep.checks;
    for (const PointRule &rule : pointRules())
        c.push_back(aggregate(rule, ctx));
    c.push_back(pointCount(ctx));
    c.push_back(pointCap(ctx));
    c.push_back(coverage(ctx, "EPR-11", "a point in Ultra Low", Region::UltraLow));
    c.push_back(cMinRange(ctx));
    c.push_back(cMaxAbove(ctx));
    c.push_back(coverage(ctx, "EPR-15", "a point in Low", Region::Low));
    c.push_back(coverage(ctx, "EPR-16", "a point in Medium", Region::Medium));
    c.push_back(coverage(ctx, "EPR-17", "a point in High (margin points do not count)", Region::High));
    c.push_back(marginRange(ctx));
    c.push_back(cMaxJustification(ctx));
    c.push_back(offlineThroughput(ctx));
    c.push_back(offlineConcurrency(ctx, false));
    c.push_back(offlineConcurrency(ctx, true));
    c.push_back(offlineDeclaration(ctx));
    {
        CheckResult r = make("EPR-40", "accuracy results (4 regions + Offline)");
        set(r, CheckState::Blocked, "accuracy runs are not part of a Throughline campaign");
        c.push_back(r);
    }
    {
        CheckResult r = make("VAL-04", "client revision approved");
        set(r, CheckState::Blocked,
            "the approved-revision list of policy 2026-10-C1 is empty" +
                (campaign.clientGitSha.empty() ? std::string() : " (client " + campaign.clientGitSha + ")"));
        c.push_back(r);
    }
    // The CSV's order: EPR-, then VAL-, then CLI- rows, by number within each.
    auto rank = [](const std::string &id) {
        const int family = id.rfind("EPR", 0) == 0 ? 0 : id.rfind("VAL", 0) == 0 ? 1 : 2;
        return std::make_pair(family, std::stoi(id.substr(4)));
    };
    std::stable_sort(c.begin(), c.end(), [&](const CheckResult &a, const CheckResult &b) {
        return rank(a.ruleId) < rank(b.ruleId);
    });

    bool pending = false;
    for (const CheckResult &r : c) {
        if (r.state == CheckState::Fail && r.severity != Severity::Info)
            rep.failedRules.push_back(r.ruleId);
        if (r.state == CheckState::Blocked)
            rep.blockedRules.push_back(r.ruleId);
        pending = pending || (r.state == CheckState::Pending && r.severity != Severity::Info);
    }
    rep.overall = !rep.failedRules.empty() ? CheckState::Fail
                  : pending                ? CheckState::Pending
                                           : CheckState::Pass;
    return rep;
}

PointEvidence evidenceOf(const PointResult &point, const RulesPreset &preset, long long datasetSize,
                         double timeScale)
{
    PointEvidence e;
    e.concurrency = point.load.concurrency;
    e.fixedConcurrency = point.load.mode == PointLoad::Mode::Concurrency;
    if (const auto cp = curvePointOf(point)) {
        e.systemTps = cp->systemTps;
        e.tpsPerUser = cp->tpsPerUser;
        e.tpotP90Ms = 1000.0 / cp->tpsPerUser;
    }
    e.elapsedS = point.windowS;
    if (e.systemTps >= 0)
        e.outputTokens = e.systemTps * point.windowS; // systemTps is defined as tokens ÷ window
    // TTFT at the preset's percentile, from the distribution block (p90 at index 1, p95 at index 2).
    for (std::size_t i = 0; i < kPercentiles.size(); ++i)
        if (kPercentiles[i].permille == preset.ttftPercentile * 10 && point.metrics.ttftMs.n > 0)
            e.ttftMs = point.metrics.ttftMs.p[i];
    e.nTtft = static_cast<long long>(point.metrics.ttftMs.n);
    e.nTpot = static_cast<long long>(point.metrics.tpotMlperfMs.n);
    e.steadyIssueSpanS = point.windowS; // W1 − W0: send times of the measured requests, in model time
    e.timeScale = timeScale;
    e.nIssued = point.nSent;
    e.nCompleted = point.nOk;
    e.nFailed = point.nSent - point.nOk;
    e.durationNs = point.windowS * 1e9;
    if (datasetSize > 0)
        e.superPassesInWindow = static_cast<int>(point.nSent / datasetSize);
    return e;
}

} // namespace Throughline::Mlperf
