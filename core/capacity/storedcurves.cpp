#include "core/capacity/storedcurves.h"

#include "core/stats/quantilebounds.h"
#include "core/storage/historyreader.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <limits>

namespace Throughline::Capacity {

namespace {

std::optional<double> numberAt(const nlohmann::json &j, const char *key)
{
    if (!j.is_object())
        return std::nullopt;
    const auto it = j.find(key);
    if (it == j.end() || !it->is_number())
        return std::nullopt; // null = not reportable (min-n rule) or undefined
    return it->get<double>();
}

void addPercentiles(LatencyValues &out, const nlohmann::json &metrics, const char *metric, const char *prefix)
{
    const auto it = metrics.find(metric);
    if (it == metrics.end() || !it->is_object())
        return;
    for (const auto &[stat, value] : it->items())
        if (stat.size() > 1 && stat[0] == 'p' && value.is_number())
            out[std::string(prefix) + "_" + stat] = value.get<double>();
}

std::string scenarioLabel(const ScenarioRow &s)
{
    std::string label;
    for (const std::string *part : {&s.model, &s.backend, &s.phase})
        if (!part->empty())
            label += (label.empty() ? "" : " · ") + *part;
    return label;
}

// "p90" → 0.90, "p999" → 0.999, "p99_5" → 0.995; 0 when the key is not a percentile.
double percentileOf(const std::string &stat)
{
    std::string digits;
    for (char c : stat.substr(1))
        if (c != '_')
            digits += c;
    if (digits.empty() || digits.size() > 6)
        return 0;
    return std::stod("0." + digits);
}

// Order-statistic bounds (with the dependence correction) of every stored percentile of the point's TTFT,
// TPOT and E2E, from its successful measured requests in send order; tps_user from TPOT p90's bounds.
Status addIntervals(HistoryReader &reader, OperatingPoint &p)
{
    for (const char *metric : {"ttft", "tpot", "e2e"}) {
        const std::string prefix = std::string(metric) + "_p";
        bool wanted = false;
        for (const auto &[key, value] : p.latency)
            wanted = wanted || key.rfind(prefix, 0) == 0;
        if (!wanted)
            continue;
        auto samples = reader.samples(p.pointId, std::string(metric) + "_ms");
        if (!samples)
            return samples.error();
        if (samples->empty())
            continue;
        for (const auto &[key, value] : p.latency) {
            if (key.rfind(prefix, 0) != 0)
                continue;
            const double q = percentileOf(key.substr(prefix.size() - 1));
            if (!(q > 0 && q < 1))
                continue;
            const QuantileBounds b = quantileBounds(samples.value(), q);
            p.intervals[key] = {b.interval.lower, b.interval.upper};
        }
    }
    if (auto it = p.intervals.find("tpot_p90"); it != p.intervals.end())
        p.intervals["tps_user"] = {it->second.second > 0 ? 1000.0 / it->second.second : 0,
                                   it->second.first > 0 ? 1000.0 / it->second.first
                                                        : std::numeric_limits<double>::infinity()};
    return Ok{};
}

} // namespace

OperatingPoint operatingPointFromJson(const nlohmann::json &point)
{
    OperatingPoint p;
    const nlohmann::json empty = nlohmann::json::object();
    const auto &metrics =
        point.contains("metrics") && point["metrics"].is_object() ? point["metrics"] : empty;
    p.systemTps = numberAt(metrics, "output_tps").value_or(0);
    p.requestRate = numberAt(metrics, "request_rate").value_or(0);
    addPercentiles(p.latency, metrics, "ttft_ms", "ttft");
    addPercentiles(p.latency, metrics, "tpot_ms", "tpot");
    addPercentiles(p.latency, metrics, "e2e_ms", "e2e");
    if (auto it = p.latency.find("tpot_p90"); it != p.latency.end() && it->second > 0)
        p.latency["tps_user"] = 1000.0 / it->second; // MLPerf Endpoints v1.0 interactivity
    if (point.contains("load") && point["load"].is_object())
        p.concurrency = int(numberAt(point["load"], "concurrency").value_or(0));
    if (point.contains("telemetry"))
        p.energyJPerOutputToken = numberAt(point["telemetry"], "energy_per_output_token_j").value_or(0);
    if (point.contains("validity") && point["validity"].is_object() && point["validity"].contains("valid") &&
        point["validity"]["valid"].is_boolean())
        p.valid = point["validity"]["valid"].get<bool>();
    return p;
}

Result<std::vector<DeploymentCurve>> curvesFromHistory(HistoryReader &reader,
                                                       const std::vector<std::string> &runs)
{
    std::vector<DeploymentCurve> out;
    for (const auto &run : runs) {
        auto uuid = reader.resolveRun(run);
        if (!uuid)
            return uuid.error();
        auto detail = reader.runDetail(uuid.value());
        if (!detail)
            return detail.error();
        const bool simulated = detail->summary.simulated;
        for (const auto &s : detail->scenarios) {
            if (s.gpu.empty())
                return makeError(ErrorCode::InvalidInput, "run " + uuid.value() + " scenario " + s.key +
                                                              ": no GPU type recorded, cannot be priced");
            DeploymentCurve curve;
            curve.deployment = {scenarioLabel(s), s.gpu, s.gpus, s.prefillGpus, s.decodeGpus};
            curve.model = s.model;
            curve.isl = s.isl;
            curve.osl = s.osl;
            for (const auto &row : detail->points) {
                if (row.scenarioId != s.id || row.status != "completed")
                    continue;
                OperatingPoint p = operatingPointFromJson(row.aggregates);
                p.runUuid = uuid.value();
                p.pointId = row.id;
                p.pointIndex = row.pointIndex;
                p.origin = simulated ? PointOrigin::MeasuredSimulator : PointOrigin::Measured;
                if (row.valid == 0)
                    p.valid = false;
                if (auto st = addIntervals(reader, p); !st)
                    return st.error();
                curve.points.push_back(std::move(p));
            }
            if (!curve.points.empty())
                out.push_back(std::move(curve));
        }
    }
    return out;
}

} // namespace Throughline::Capacity
