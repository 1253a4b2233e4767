#pragma once
// Server telemetry over time for the report, read once from the run's stored series (telemetry_series):
// per scenario the KV-cache use, the running and waiting requests and the GPU power summed over the GPUs
// of each scrape target, downsampled for print (min and max of each time bucket, so peaks survive). Times
// are on the run clock, like the points' measurement windows (PointResult::w0S/w1S). Plain value (part of
// ReportData); any thread.

#include "core/util/result.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace Throughline {

struct RunDetail;

struct ReportTelemetry {
    struct Trace {
        std::string metric; // common series name: kv_cache_usage, running, waiting, gpu_power_w
        std::string source; // scrape target (URL), "" when unknown
        int summed = 1;     // series added up (gpu_power_w: the target's GPUs)
        std::vector<std::pair<double, double>> points; // (run clock s, value in the series' unit)
    };
    struct Scenario {
        std::vector<Trace> traces;
    };
    std::map<std::string, Scenario> byScenario; // scenario id → its telemetry (only scenarios that have any)

    static constexpr int kBuckets = 200; // a trace keeps at most 2 × kBuckets points
    static constexpr const char *kMetrics[] = {"kv_cache_usage", "running", "waiting", "gpu_power_w"};

    const Scenario *find(const std::string &scenarioId) const;
    // From the database at `dbPath` (a run without stored telemetry, or a file older than telemetry, gives
    // an empty result).
    static Result<ReportTelemetry> read(const std::string &dbPath, const RunDetail &detail);
    // Min and max of each of `buckets` equal time buckets, in time order (fewer points: unchanged).
    static std::vector<std::pair<double, double>> downsample(std::vector<std::pair<double, double>> points,
                                                             int buckets = kBuckets);
};

} // namespace Throughline
