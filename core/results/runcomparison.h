#pragma once
// Noise-aware comparison of a candidate run against a baseline run (core/stats/noisecomparison.h) over the
// scenarios and load points the two share: a scenario pairs by its id (model/backend/gpu×count/phase), a
// point by its load (C = 16 with C = 16, λ = 5 with λ = 5). Each metric × point is one test of Holm's
// procedure, so a campaign's false-alarm rate is the family-wise α = 1 − level, not each metric's. The
// Compare tab, `throughline-cli compare`, `run --baseline` and the report's comparison section all use it.

#include "core/results/resultsjson.h"
#include "core/stats/noisecomparison.h"
#include "core/util/result.h"

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace Throughline {

struct MetricStat {
    std::string metric; // results.json key, e.g. "ttft_ms"
    std::string stat;   // "value" for scalars, else "p90", "mean", …
    std::string label() const { return stat == "value" ? metric : metric + "." + stat; }
};

// output_tps, ttft_ms.p90, tpot_ms.p50: the steady throughput and the two latencies a verdict usually
// rests on. Fewer tests give Holm's rule more power; --metrics chooses others.
std::vector<MetricStat> defaultComparisonMetrics();
// "output_tps,ttft_ms.p90": comma-separated keys, a distribution with ".stat". Errors name the entry.
Result<std::vector<MetricStat>> parseComparisonMetrics(const std::string &list);
// Throughputs, rates and interactivity are better higher; latencies (…_ms) lower.
BetterDirection betterDirectionOf(std::string_view metric);

// The noise floor of a run comparison: 1 % relative standard error per run on top of its intervals. Two demo
// runs on one simulator and seed, one of them next to a compiler, differed by 1.1 % in output tok/s at C = 4
// where each run's own interval was ±0.1 %: a single run cannot see the host's share of the noise (repeats
// would measure it; until they exist, this floor stands in for it).
inline constexpr double kDefaultNoiseFloor = 0.01;

struct NoiseAwareComparison {
    // Where an input was measured; its ComparisonInput::point is "<scenario> <load>" of these.
    struct Where {
        std::string scenario; // scenario id
        std::string load;     // pointLoadLabel, e.g. "C=16"
    };
    std::vector<ComparisonInput> inputs;   // metric × shared point, in scenario, point, metric order
    std::vector<ComparisonResult> results; // one per input, same order
    std::vector<Where> where;              // one per input, same order
    ComparisonOutcome overall = ComparisonOutcome::NotEnoughData;
    double level = kDefaultConfidenceLevel;
    double noiseFloor = kDefaultNoiseFloor;
    int sharedPoints = 0;
    int unmatchedPoints = 0; // points of either run with no partner in the other
};

NoiseAwareComparison compareRunResults(const RunResults &baseline, const RunResults &candidate,
                                       std::span<const MetricStat> metrics,
                                       double level = kDefaultConfidenceLevel,
                                       double noiseFloor = kDefaultNoiseFloor);

// {"overall", "level", "rule": "holm", "shared_points", "unmatched_points", "comparisons": [{scenario…}]}.
nlohmann::json runComparisonToJson(const NoiseAwareComparison &c);

} // namespace Throughline
