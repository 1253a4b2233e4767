#include "core/capacity/planner.h"

#include "core/mlperf/frontier.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace Throughline::Capacity {

std::string pointName(const OperatingPoint &p)
{
    std::string s = p.concurrency > 0 ? "concurrency " + std::to_string(p.concurrency)
                                      : "point " + std::to_string(p.pointIndex);
    if (!p.runUuid.empty())
        s += " of run " + p.runUuid.substr(0, 8);
    return s;
}

std::string deploymentName(const Deployment &d)
{
    std::string s = d.disaggregated() ? std::to_string(d.prefillGpus) + "P + " +
                                            std::to_string(d.decodeGpus) + "D × " + d.gpu
                                      : std::to_string(d.gpus) + " × " + d.gpu;
    return d.label.empty() ? s : d.label + " (" + s + ")";
}

namespace {

// Relative slack for ceil(): 441,740 ÷ 441,740 must stay one replica despite rounding in the inputs.
constexpr double kCeilSlack = 1e-9;
int ceilCount(double x)
{
    return int(std::ceil(x * (1 - kCeilSlack)));
}

bool onFrontierAxis(const SloLimit &l)
{
    return l.key == "tps_user" || l.key == "tpot_p90";
}

// The frontier's x-axis level a tier asks for: tps_user ≥ c and TPOT p90 ≤ b are the same axis (1000 / b).
double interactivityLevel(const SloTier &tier)
{
    double level = 0;
    for (const auto &l : tier.limits) {
        if (l.key == "tps_user")
            level = std::max(level, l.bound);
        else if (l.key == "tpot_p90")
            level = std::max(level, 1000.0 / l.bound);
    }
    return level;
}

SloTier offAxisLimits(const SloTier &tier)
{
    SloTier t{tier.name, {}};
    for (const auto &l : tier.limits)
        if (!onFrontierAxis(l))
            t.limits.push_back(l);
    return t;
}

double tpsPerUserOf(const OperatingPoint &p)
{
    if (auto it = p.latency.find("tps_user"); it != p.latency.end() && it->second > 0)
        return it->second;
    if (auto it = p.latency.find("tpot_p90"); it != p.latency.end() && it->second > 0)
        return 1000.0 / it->second;
    // No interactivity figure: such a point only qualifies when the tier asks for none (level 0).
    return 1e-12;
}

// Best measured point meeting the tier: the off-axis limits (TTFT, E2E, other TPOT percentiles) filter the
// points, the step-function frontier of the rest gives the highest throughput at the tier's interactivity.
std::optional<std::size_t> bestMeeting(const std::vector<OperatingPoint> &points, const SloTier &tier)
{
    const SloTier filter = offAxisLimits(tier);
    std::vector<Mlperf::CurvePoint> curve;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const auto &p = points[i];
        if (!p.valid || !(p.systemTps > 0) || !allOk(checkTier(filter, p.latency)))
            continue;
        curve.push_back({int(i), p.systemTps, tpsPerUserOf(p)}); // concurrency field carries the index
    }
    const Mlperf::Frontier frontier(std::move(curve));
    const double level = interactivityLevel(tier);
    const auto best = frontier.throughputAt(level);
    if (!best)
        return std::nullopt;
    for (const auto &c : frontier.points())
        if (c.tpsPerUser >= level && c.systemTps == *best &&
            allOk(checkTier(tier, points[size_t(c.concurrency)].latency)))
            return std::size_t(c.concurrency);
    return std::nullopt;
}

std::size_t closestPoint(const std::vector<OperatingPoint> &points, const SloTier &tier)
{
    std::size_t best = 0;
    double bestExcess = std::numeric_limits<double>::infinity();
    for (std::size_t i = 0; i < points.size(); ++i) {
        if (!points[i].valid || !(points[i].systemTps > 0))
            continue;
        const double e = worstExcess(checkTier(tier, points[i].latency));
        if (e < bestExcess || (e == bestExcess && points[i].systemTps > points[best].systemTps)) {
            best = i;
            bestExcess = e;
        }
    }
    return best;
}

// The next measured point up in throughput and what it fails: that is what stops the plan using more load.
std::string bindingConstraint(const std::vector<OperatingPoint> &points, const OperatingPoint &chosen,
                              const SloTier &tier)
{
    const OperatingPoint *next = nullptr;
    for (const auto &p : points)
        if (p.valid && p.systemTps > chosen.systemTps && (!next || p.systemTps < next->systemTps))
            next = &p;
    if (!next)
        return "none: the most loaded measured point meets the tier (more load was not measured)";
    std::string failed;
    for (const auto &c : checkTier(tier, next->latency))
        if (!c.ok)
            failed += (failed.empty() ? "" : "; ") + c.text();
    return failed + " at the next measured point (" + pointName(*next) + ", " +
           groupedNumber(next->systemTps) + " tok/s)";
}

Status sizeFor(DeploymentPlan &out, const DeploymentCurve &curve, const PlanOptions &o)
{
    const OperatingPoint &p = out.point;
    const Deployment &d = out.deployment;
    const double factor = 1 + o.headroomPct / 100.0;
    out.tpsPerGpu = p.systemTps / d.gpus;
    out.usersPerGpu = p.concurrency > 0 ? double(p.concurrency) / d.gpus : 0;
    out.tokensPerGpuHour = out.tpsPerGpu * 3600;
    switch (o.demand.kind) {
    case Demand::Kind::OutputTps:
        out.demandTps = o.demand.value;
        out.replicas = ceilCount(out.demandTps * factor / p.systemTps);
        break;
    case Demand::Kind::RequestsPerS:
        if (curve.osl <= 0)
            return makeError(ErrorCode::InvalidInput, "demand rps needs the phase's OSL; " +
                                                          deploymentName(d) + " has none (use tps= instead)");
        out.demandTps = o.demand.value * curve.osl; // requests/s × output tokens per request
        out.replicas = ceilCount(out.demandTps * factor / p.systemTps);
        break;
    case Demand::Kind::ConcurrentUsers:
        if (p.concurrency <= 0)
            return makeError(ErrorCode::InvalidInput, "demand users needs fixed-concurrency points; " +
                                                          pointName(p) + " of " + deploymentName(d) +
                                                          " is not one (use tps= instead)");
        out.demandTps = o.demand.value * p.systemTps / p.concurrency; // each user at the point's rate
        out.replicas = ceilCount(o.demand.value * factor / p.concurrency);
        break;
    }
    out.gpusNeeded = out.replicas * d.gpus;
    out.prefillGpusNeeded = out.replicas * d.prefillGpus;
    out.decodeGpusNeeded = out.replicas * d.decodeGpus;
    out.gpusAtPerGpuRate = ceilCount(out.demandTps * factor / out.tpsPerGpu);
    const double usdPerReplicaHour = d.gpus * out.price.usdPerGpuHour;
    out.usdPer1MOutputTokens = usdPerReplicaHour / (p.systemTps * 3600) * 1e6;
    out.usdPerHour = out.gpusNeeded * out.price.usdPerGpuHour;
    out.usdPer1MOutputTokensAtDemand = out.usdPerHour / (out.demandTps * 3600) * 1e6;
    // The band of a what-if: the same sizing at its ends (the measured points' band is 1 – 1).
    const int replicasLow = o.demand.kind == Demand::Kind::ConcurrentUsers
                                ? out.replicas
                                : ceilCount(out.demandTps * factor / (p.systemTps * p.tpsBandLow));
    const int replicasHigh = o.demand.kind == Demand::Kind::ConcurrentUsers
                                 ? out.replicas
                                 : ceilCount(out.demandTps * factor / (p.systemTps * p.tpsBandHigh));
    out.gpusNeededBandLow = replicasLow * d.gpus;
    out.gpusNeededBandHigh = replicasHigh * d.gpus;
    out.usdPer1MBandLow = out.usdPer1MOutputTokens / p.tpsBandHigh;
    out.usdPer1MBandHigh = out.usdPer1MOutputTokens / p.tpsBandLow;
    if (o.powerKind == PowerKind::MeasuredDcgm)
        out.kwhPer1MOutputTokens = p.energyJPerOutputToken * 1e6 / 3.6e6; // J → kWh
    else
        out.kwhPer1MOutputTokens = d.gpus * out.kwPerGpu / (p.systemTps * 3600) * 1e6;
    return Ok{};
}

Result<DeploymentPlan> planOne(const DeploymentCurve &curve, const PlanOptions &o, const PriceTable &prices,
                               const PowerTable &power)
{
    DeploymentPlan out;
    out.deployment = curve.deployment;
    Deployment &d = out.deployment;
    if (d.gpus <= 0 && d.disaggregated())
        d.gpus = d.prefillGpus + d.decodeGpus;
    if (d.gpus <= 0)
        return makeError(ErrorCode::InvalidInput, "deployment " + deploymentName(d) + " has no GPU count");
    if (d.disaggregated() && d.gpus != d.prefillGpus + d.decodeGpus)
        return makeError(ErrorCode::InvalidInput, "deployment " + deploymentName(d) + ": " +
                                                      std::to_string(d.gpus) +
                                                      " GPUs is not prefill + decode");
    bool anyUsable = false;
    for (const auto &p : curve.points)
        anyUsable = anyUsable || (p.valid && p.systemTps > 0);
    if (!anyUsable)
        return makeError(ErrorCode::NotFound,
                         "deployment " + deploymentName(d) + " has no valid measured point");
    auto price = prices.lookup(d.gpu, o.priceKind, o.priceProvider);
    if (!price)
        return price.error();
    out.price = price.value();
    out.powerKind = o.powerKind;
    if (o.powerKind != PowerKind::MeasuredDcgm) {
        auto kw = power.lookup(d.gpu, o.powerKind, o.boardUtilisation);
        if (!kw)
            return kw.error();
        out.kwPerGpu = kw->kwPerGpu;
        out.powerSource = kw->source;
    } else {
        out.powerSource = "measured DCGM energy per output token (GPU only)";
    }
    const auto best = bestMeeting(curve.points, o.tier);
    out.meets = best.has_value();
    out.point = curve.points[best ? *best : closestPoint(curve.points, o.tier)];
    out.checks = checkTier(o.tier, out.point.latency);
    for (auto &c : out.checks)
        if (auto it = out.point.intervals.find(c.limit.key); it != out.point.intervals.end()) {
            c.lower = it->second.first;
            c.upper = it->second.second;
        }
    if (o.powerKind == PowerKind::MeasuredDcgm && !(out.point.energyJPerOutputToken > 0))
        return makeError(ErrorCode::NotFound, "power kind measured_dcgm: " + pointName(out.point) + " of " +
                                                  deploymentName(d) + " has no measured energy per token");
    if (auto s = sizeFor(out, curve, o); !s)
        return s.error();
    out.binding = out.meets ? bindingConstraint(curve.points, out.point, o.tier) : std::string();
    return out;
}

} // namespace

std::string pointOriginName(PointOrigin origin)
{
    switch (origin) {
    case PointOrigin::MeasuredSimulator:
        return "measured on the built-in simulator";
    case PointOrigin::Simulated:
        return "simulated (what-if, not measured)";
    case PointOrigin::Measured:
        break;
    }
    return "measured";
}

std::string pointOriginText(const OperatingPoint &p)
{
    std::string s = pointOriginName(p.origin);
    if (p.origin == PointOrigin::Simulated)
        s += ": tok/s ×" + groupedNumber(p.tpsBandLow, 2) + "–×" + groupedNumber(p.tpsBandHigh, 2) +
             (p.bandSource.empty() ? "" : ", " + p.bandSource);
    return s;
}

Result<Demand> parseDemand(const std::string &text)
{
    const auto eq = text.find('=');
    const std::string key = eq == std::string::npos ? text : text.substr(0, eq);
    Demand d;
    if (key == "tps")
        d.kind = Demand::Kind::OutputTps;
    else if (key == "users")
        d.kind = Demand::Kind::ConcurrentUsers;
    else if (key == "rps")
        d.kind = Demand::Kind::RequestsPerS;
    else
        return makeError(ErrorCode::InvalidInput,
                         "demand '" + text + "': unknown field '" + key + "' (tps=, users= or rps=)");
    const std::string number = eq == std::string::npos ? "" : text.substr(eq + 1);
    char *end = nullptr;
    d.value = std::strtod(number.c_str(), &end);
    if (number.empty() || end != number.c_str() + number.size() || !std::isfinite(d.value) || d.value <= 0)
        return makeError(ErrorCode::InvalidInput, "demand '" + text + "': field '" + key +
                                                      "' needs a number > 0, got '" + number + "'");
    return d;
}

std::string describeDemand(const Demand &d)
{
    switch (d.kind) {
    case Demand::Kind::OutputTps:
        return groupedNumber(d.value) + " output tok/s";
    case Demand::Kind::ConcurrentUsers:
        return groupedNumber(d.value) + " concurrent users";
    case Demand::Kind::RequestsPerS:
        return groupedNumber(d.value, 2) + " requests/s";
    }
    return {};
}

std::string Plan::noneMeetsMessage() const
{
    if (anyMeets())
        return {};
    std::string s = "no deployment meets this tier (" + options.tier.text() + ")";
    if (failing.empty())
        return s;
    const DeploymentPlan &c = failing.front();
    s += "; the closest is " + deploymentName(c.deployment) + " at " + pointName(c.point) + ":";
    for (const auto &check : c.checks)
        if (!check.ok)
            s += " " + check.text() + ";";
    s.pop_back();
    return s;
}

Result<Plan> plan(const std::vector<DeploymentCurve> &curves, const PlanOptions &options,
                  const PriceTable &prices, const PowerTable &power)
{
    if (curves.empty())
        return makeError(ErrorCode::InvalidInput, "nothing to plan: no deployment with measured points");
    if (options.headroomPct < 0 || !std::isfinite(options.headroomPct))
        return makeError(ErrorCode::InvalidInput, "headroom must be a percentage ≥ 0");
    Plan out;
    out.options = options;
    for (const auto &curve : curves) {
        auto one = planOne(curve, options, prices, power);
        if (!one)
            return one.error();
        (one->meets ? out.ranked : out.failing).push_back(std::move(one.value()));
    }
    std::stable_sort(out.ranked.begin(), out.ranked.end(),
                     [](const DeploymentPlan &a, const DeploymentPlan &b) {
                         if (a.usdPer1MOutputTokens != b.usdPer1MOutputTokens)
                             return a.usdPer1MOutputTokens < b.usdPer1MOutputTokens;
                         return a.gpusNeeded < b.gpusNeeded;
                     });
    std::stable_sort(out.failing.begin(), out.failing.end(),
                     [](const DeploymentPlan &a, const DeploymentPlan &b) {
                         return worstExcess(a.checks) < worstExcess(b.checks);
                     });
    return out;
}

} // namespace Throughline::Capacity
