#include "ui/report/reporttelemetry.h"

#include "core/storage/storagetypes.h"
#include "core/storage/telemetryreader.h"

#include <algorithm>
#include <iterator>

namespace Throughline {

namespace {

bool wanted(const std::string &metric)
{
    return std::any_of(std::begin(ReportTelemetry::kMetrics), std::end(ReportTelemetry::kMetrics),
                       [&metric](const char *m) { return metric == m; });
}

std::vector<std::pair<double, double>> seconds(const std::vector<TelemetrySample> &samples)
{
    std::vector<std::pair<double, double>> out;
    out.reserve(samples.size());
    for (const TelemetrySample &s : samples)
        out.emplace_back(double(s.tNs) / 1e9, s.value);
    return out;
}

// GPU power per scrape target: the sum over its GPUs at each scrape every GPU answered (one scrape
// stamps all of a target's series with the same time).
std::vector<ReportTelemetry::Trace> powerPerSource(const std::vector<const StoredTelemetrySeries *> &power)
{
    std::map<std::string, std::vector<const StoredTelemetrySeries *>> bySource;
    for (const StoredTelemetrySeries *s : power)
        bySource[s->source].push_back(s);
    std::vector<ReportTelemetry::Trace> out;
    for (const auto &[source, series] : bySource) {
        std::map<std::int64_t, std::pair<double, std::size_t>> sum; // t → (watts, series seen)
        for (const StoredTelemetrySeries *s : series)
            for (const TelemetrySample &x : s->samples) {
                auto &slot = sum[x.tNs];
                slot.first += x.value;
                ++slot.second;
            }
        ReportTelemetry::Trace t{"gpu_power_w", source, int(series.size()), {}};
        for (const auto &[tNs, v] : sum)
            if (v.second == series.size())
                t.points.emplace_back(double(tNs) / 1e9, v.first);
        if (!t.points.empty())
            out.push_back(std::move(t));
    }
    return out;
}

} // namespace

const ReportTelemetry::Scenario *ReportTelemetry::find(const std::string &scenarioId) const
{
    const auto it = byScenario.find(scenarioId);
    return it == byScenario.end() ? nullptr : &it->second;
}

std::vector<std::pair<double, double>>
ReportTelemetry::downsample(std::vector<std::pair<double, double>> points, int buckets)
{
    if (points.size() <= std::size_t(2 * buckets) || buckets < 1)
        return points;
    const double t0 = points.front().first, t1 = points.back().first;
    const double width = (t1 - t0) / buckets;
    std::vector<std::pair<double, double>> out;
    out.reserve(std::size_t(2 * buckets));
    std::size_t i = 0;
    for (int b = 0; b < buckets && i < points.size(); ++b) {
        const double end = b + 1 == buckets ? t1 : t0 + (b + 1) * width;
        std::size_t lo = i, hi = i, j = i;
        for (; j < points.size() && (points[j].first <= end || b + 1 == buckets); ++j) {
            if (points[j].second < points[lo].second)
                lo = j;
            if (points[j].second > points[hi].second)
                hi = j;
        }
        if (j == i)
            continue; // an empty bucket (a scrape gap)
        out.push_back(points[std::min(lo, hi)]);
        if (lo != hi)
            out.push_back(points[std::max(lo, hi)]);
        i = j;
    }
    return out;
}

Result<ReportTelemetry> ReportTelemetry::read(const std::string &dbPath, const RunDetail &detail)
{
    ReportTelemetry out;
    TelemetryReader reader;
    if (auto s = reader.open(dbPath); !s)
        return s.error();
    if (!reader.hasTelemetry())
        return out;
    TelemetryQuery query;
    for (const char *m : kMetrics)
        query.metrics.emplace_back(m);
    auto series = reader.series(detail.summary.uuid, query);
    if (!series)
        return series.error();
    for (const ScenarioRow &sc : detail.scenarios) {
        Scenario scenario;
        std::vector<const StoredTelemetrySeries *> power;
        for (const StoredTelemetrySeries &s : *series) {
            if (s.scenarioIndex != sc.index || !wanted(s.metric) || s.samples.empty())
                continue;
            if (s.metric == "gpu_power_w")
                power.push_back(&s);
            else
                scenario.traces.push_back({s.metric, s.source, 1, downsample(seconds(s.samples))});
        }
        for (Trace &t : powerPerSource(power)) {
            t.points = downsample(std::move(t.points));
            scenario.traces.push_back(std::move(t));
        }
        if (!scenario.traces.empty())
            out.byScenario[sc.key] = std::move(scenario);
    }
    return out;
}

} // namespace Throughline
