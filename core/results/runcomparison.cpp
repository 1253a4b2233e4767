#include "core/results/runcomparison.h"

#include "core/metrics/jsonnumber.h"
#include "core/metrics/pointlabel.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include <nlohmann/json.hpp>

namespace Throughline {

std::vector<MetricStat> defaultComparisonMetrics()
{
    return {{"output_tps", "value"}, {"ttft_ms", "p90"}, {"tpot_ms", "p50"}};
}

Result<std::vector<MetricStat>> parseComparisonMetrics(const std::string &list)
{
    std::vector<MetricStat> out;
    const std::vector<std::string_view> scalars = scalarMetricKeys();
    const std::vector<std::string_view> dists = distributionMetricKeys();
    const auto known = [](const std::vector<std::string_view> &keys, std::string_view k) {
        return std::find(keys.begin(), keys.end(), k) != keys.end();
    };
    // The stats that carry intervals: the mean and the percentiles.
    const auto hasInterval = [](std::string_view stat) {
        return stat == "mean" || std::any_of(kPercentiles.begin(), kPercentiles.end(),
                                             [&](const PercentileSpec &p) { return p.key == stat; });
    };
    std::size_t start = 0;
    while (start <= list.size()) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        const std::string entry = list.substr(start, comma - start);
        start = comma + 1;
        if (entry.empty())
            continue;
        const std::size_t dot = entry.find('.');
        MetricStat m{entry.substr(0, dot), dot == std::string::npos ? "value" : entry.substr(dot + 1)};
        const bool ok =
            m.stat == "value" ? known(scalars, m.metric) : known(dists, m.metric) && hasInterval(m.stat);
        if (!ok)
            return makeError(ErrorCode::InvalidInput,
                             "--metrics: \"" + entry +
                                 "\" is not a metric (a scalar such as output_tps, or a "
                                 "distribution with its mean or a percentile, such as ttft_ms.p90)");
        out.push_back(std::move(m));
    }
    if (out.empty())
        return makeError(ErrorCode::InvalidInput, "--metrics: no metric given");
    return out;
}

BetterDirection betterDirectionOf(std::string_view metric)
{
    const bool latency = metric.size() > 3 && metric.substr(metric.size() - 3) == "_ms";
    return latency ? BetterDirection::Lower : BetterDirection::Higher;
}

namespace {
// The interval of a statistic with its estimate; without an interval (files before results /3) only
// the value, so the comparison reads "not enough data" for it.
// A repeated load is compared as a whole: the mean over its repeats with the across-repeat interval.
Interval intervalOf(const PointResult &p, const MetricStat &m)
{
    if (auto iv = p.acrossRepeatInterval(m.metric, m.stat))
        return *iv;
    if (auto iv = p.metricInterval(m.metric, m.stat))
        return *iv;
    Interval iv;
    if (const auto v = p.metricValue(m.metric, m.stat))
        iv.estimate = *v;
    return iv;
}
bool firstOfLoad(const std::vector<PointResult> &points, std::size_t i)
{
    for (std::size_t k = 0; k < i; ++k)
        if (points[k].load.sameLoad(points[i].load))
            return false;
    return true;
}

// Points counted as loads: the repeats of a load are one comparison.
int distinctLoads(const std::vector<PointResult> &points)
{
    int n = 0;
    for (std::size_t i = 0; i < points.size(); ++i)
        n += firstOfLoad(points, i);
    return n;
}
} // namespace

NoiseAwareComparison compareRunResults(const RunResults &baseline, const RunResults &candidate,
                                       std::span<const MetricStat> metrics, double level, double noiseFloor)
{
    NoiseAwareComparison out;
    out.level = level;
    out.noiseFloor = noiseFloor;
    std::map<std::string, const ScenarioResult *> byId;
    for (const ScenarioResult &s : baseline.scenarios)
        byId[s.id] = &s;
    int baselinePoints = 0;
    for (const ScenarioResult &s : baseline.scenarios)
        baselinePoints += distinctLoads(s.points);
    int candidatePoints = 0;
    std::vector<ComparisonInput> inputs;
    for (const ScenarioResult &c : candidate.scenarios) {
        candidatePoints += distinctLoads(c.points);
        const auto b = byId.find(c.id);
        if (b == byId.end())
            continue;
        for (std::size_t ci = 0; ci < c.points.size(); ++ci) {
            const PointResult &cp = c.points[ci];
            if (!firstOfLoad(c.points, ci))
                continue; // a later repeat: its load was compared at the first
            const PointResult *bp = nullptr;
            for (const PointResult &p : b->second->points)
                if (p.load.sameLoad(cp.load) && !bp)
                    bp = &p;
            if (!bp)
                continue;
            ++out.sharedPoints;
            const std::string load = pointLoadLabelOfRepeats(cp.load);
            for (const MetricStat &m : metrics) {
                inputs.push_back({m.label(), c.id + " " + load, intervalOf(*bp, m), intervalOf(cp, m),
                                  betterDirectionOf(m.metric)});
                out.where.push_back({c.id, load});
            }
        }
    }
    out.unmatchedPoints = baselinePoints + candidatePoints - 2 * out.sharedPoints;
    ComparisonOptions options;
    options.level = level;
    options.noiseFloor = noiseFloor;
    out.results = compareRuns(inputs, options);
    out.inputs = std::move(inputs);
    out.overall = overallOutcome(out.results);
    return out;
}

nlohmann::json runComparisonToJson(const NoiseAwareComparison &c)
{
    using nlohmann::json;
    json rows = json::array();
    for (std::size_t i = 0; i < c.results.size(); ++i) {
        const ComparisonResult &r = c.results[i];
        const ComparisonInput &in = c.inputs[i];
        const auto side = [](const Interval &iv) {
            return json{{"value", JsonNumber::orNull(iv.estimate)},
                        {"lower", JsonNumber::orNull(iv.lower)},
                        {"upper", JsonNumber::orNull(iv.upper)}};
        };
        const bool tested = r.outcome != ComparisonOutcome::NotEnoughData;
        rows.push_back({{"point", r.point},
                        {"metric", r.metric},
                        {"outcome", comparisonOutcomeName(r.outcome)},
                        {"baseline", side(in.baseline)},
                        {"candidate", side(in.candidate)},
                        {"effect", tested ? JsonNumber::orNull(r.effect) : json(nullptr)},
                        {"effect_lower", tested ? JsonNumber::orNull(r.effectInterval.lower) : json(nullptr)},
                        {"effect_upper", tested ? JsonNumber::orNull(r.effectInterval.upper) : json(nullptr)},
                        {"p_value", tested ? JsonNumber::orNull(r.pValue) : json(nullptr)},
                        {"holm_threshold", tested ? JsonNumber::orNull(r.holmThreshold) : json(nullptr)}});
    }
    return {{"overall", comparisonOutcomeName(c.overall)},
            {"level", c.level},
            {"noise_floor", c.noiseFloor},
            {"rule", "holm"},
            {"shared_points", c.sharedPoints},
            {"unmatched_points", c.unmatchedPoints},
            {"comparisons", rows}};
}

} // namespace Throughline
