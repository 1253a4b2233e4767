#pragma once
// A versioned MLPerf Endpoints rules preset: every threshold the mode uses, read from a data file
// (resources/presets/<id>.json, "schema": "throughline.mlperf-rules/1"), because the rules are drafts
// (../shared/data/reference/mlperf_endpoints_rules.md "Caveats"). Code holds the formulas and the rule ids;
// the numbers live here. Built in: mlperf-endpoints-1.0 and mlperf-endpoints-0.7.

#include "core/mlperf/regions.h"
#include "core/util/result.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace Throughline::Mlperf {

struct SteadyStateRules {
    int minSuperPasses = 0;                     // EPR-30: the window covers at least this many super-passes
    std::vector<std::string> gatingMetrics;     // EPR-31: must all be Plateau ("ttft_p90", "tpot_p50", …)
    std::vector<std::string> diagnosticMetrics; // trend-tested and reported, never failing (optional)
    bool operator==(const SteadyStateRules &) const = default;
};

struct OfflineRules {
    double minTpsRatioToCMax = 0;      // EPR-23: Offline system_tps ≥ ratio × system_tps(C_max point)
    bool minConcurrencyIsCMax = false; // EPR-24: Offline concurrency ≥ C_max
    bool operator==(const OfflineRules &) const = default;
};

struct RulesPreset {
    static constexpr std::string_view kSchema = "throughline.mlperf-rules/1";

    std::string id;      // "mlperf-endpoints-1.0"
    std::string version; // "1.0"
    std::string title;
    std::string status; // how final the rules are
    std::string source; // where the values come from

    RegionRules regions;
    int cMaxJustifyAtOrBelow = 0; // EPR-20

    int minPointsWithDedicatedOffline = 0; // EPR-08 (v0.7: no Offline point, 7)
    int minPointsWithElectedOffline = 0;   // EPR-09
    int maxPoints = 0;                     // EPR-10, Offline point included
    bool offlinePoint = false;             // §5.7: the curve declares an Offline result (v1.0)

    std::map<Region, double> minDurationS;         // EPR-28/29 per region (steady-state issue span)
    int minDatasetPasses = 0;                      // EPR-36
    bool wholeDatasetMultiples = false;            // EPR-37
    double maxWarmupS = 0;                         // EPR-34
    std::map<std::string, long long> datasetSizes; // VAL-07: samples per pass by dataset name

    std::optional<SteadyStateRules> steadyState; // §4.4; nullopt = not part of this version (v0.7)
    int ttftPercentile = 0;                      // EPR-03: 90 (v0.7: 95)
    std::optional<OfflineRules> offline;         // §5.7.2; nullopt = no Offline point in this version

    double earlyStoppingConfidence = 0;                 // CLI-01
    std::map<std::string, int> earlyStoppingMinSamples; // CLI-02, keys as in result_summary.json ("90.0")
    double metricRelTolerance = 0;                      // VAL-05

    // Minimum duration of a point in `r` (0 = none; the Offline point has none).
    double minDurationFor(Region r) const;
    // Minimum samples for an early-stopping estimate at percentile key ("90.0"); nullopt = no estimate.
    std::optional<int> earlyStoppingMinSamplesFor(std::string_view percentileKey) const;

    bool operator==(const RulesPreset &) const = default;
};

// Errors name the file, line, column and field ("x.json:14:5: points.max: must be between 1 and 1024").
Result<RulesPreset> parseRulesPreset(std::string_view text, const std::string &fileName);
// A built-in id ("mlperf-endpoints-1.0", read from ":/presets/<id>.json") or a file path.
Result<RulesPreset> loadRulesPreset(const std::string &idOrPath);
std::vector<std::string> builtinRulesPresetIds();

} // namespace Throughline::Mlperf
