#pragma once
// The result of one load point: mirrors results.json's point object key for key
// (ARCHITECTURE.md "results.json"). Immutable value once built by aggregatePoint(); storage keeps it
// as its JSON form, the UI and targets read it through metricValue().

#include "core/metrics/stats.h"
#include "core/metrics/timingsummary.h"
#include "core/stats/interval.h"
#include "core/util/result.h"

#include <cstddef>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace Throughline {

// results.json "load": {mode: "concurrency", concurrency: C} or {mode: "rate", rate: λ}.
struct PointLoad {
    enum class Mode { Concurrency, Rate };
    Mode mode = Mode::Concurrency;
    int concurrency = 0; // Concurrency mode: target in-flight requests
    double rate = 0;     // Rate mode: target requests/s
    // plan.repeats > 1: which run of this load the point is, 1 … repeats (JSON load.repeat); 0 = the load
    // is run once (not written). Repeats of one load share mode, concurrency and rate (sameLoad).
    int repeat = 0;
    bool operator==(const PointLoad &) const = default;
    bool sameLoad(const PointLoad &o) const
    {
        return mode == o.mode && concurrency == o.concurrency && rate == o.rate;
    }
};

// Validity flag names (results.json validity.flags).
namespace ValidityFlag {
inline constexpr std::string_view WindowShort = "window_short";
inline constexpr std::string_view LowSample = "low_sample";
inline constexpr std::string_view ErrorRate = "error_rate";
inline constexpr std::string_view Truncated = "truncated";
inline constexpr std::string_view ClientBound = "client_bound";
} // namespace ValidityFlag

struct PointValidity {
    bool valid = true;              // no flag raised
    std::vector<std::string> flags; // names from ValidityFlag, in the order above
    // Informational findings that do not invalidate the point (stalled streams, a much slower replica,
    // failed telemetry scrapes), one human-readable sentence each. Written only when non-empty.
    std::vector<std::string> notes;
    bool operator==(const PointValidity &) const = default;
};

// Client self-observation during the point; NaN = not measured (JSON null).
struct ClientObservations {
    double cpuPct =
        0; // client process CPU, % of one core summed over threads / cores (engine's choice, ≤ 100·cores)
    double sendLatenessP99Ms = 0; // p99 of t_send − t_sched
    double loopLagP99Ms = 0;      // p99 of worker loop lag
    // The client's error budget (clientbudget.h), wall clock whatever the time scale; NaN = not measured
    // (results written before it existed, imports).
    double sendBlockedMs = std::numeric_limits<double>::quiet_NaN();    // send path blocked
    double sendBlockedPct = std::numeric_limits<double>::quiet_NaN();   // … as % of the point's time
    double readDelayP99Ms = std::numeric_limits<double>::quiet_NaN();   // ready socket → read, p99 (≤)
    double cpuWaitPerWakeMs = std::numeric_limits<double>::quiet_NaN(); // workers' wait for a CPU per wake
    double addedDelayP99Ms = std::numeric_limits<double>::quiet_NaN();  // estimate: the two above summed
    // Who read the responses (docs/metrics.md "Read paths"): "direct-http1", "libcurl" or "mixed"; empty
    // when not recorded (results written before it, imports).
    std::string readPath = {};
    // NaN-aware: two unmeasured budgets are equal (the JSON round trip keeps them null).
    bool operator==(const ClientObservations &o) const;
};

// Scalar metrics are NaN when undefined (window of zero length, no GPU count): JSON null.
struct PointMetrics {
    double outputTps = 0;             // steady state: tokens of content events in [W0, W1] ÷ (W1 − W0)
    double outputTpsPerGpu = 0;       // ÷ all GPUs of the deployment (replicas included)
    double outputTpsPerDecodeGpu = 0; // ÷ decode GPUs (= all GPUs when not disaggregated)
    double totalTpsPerGpu = 0;        // (input + output) tokens/s ÷ all GPUs
    double requestRate = 0;           // successful measured requests ÷ window
    double goodputRps = 0;            // successful measured requests meeting every SLO ÷ window
    // Stored variants (extensions of the pinned key list, documented in docs/metrics.md).
    double outputTpsWhole = 0;  // vLLM/AIPerf: Σ N_out ok ÷ (max t_end − min t_send)
    double outputTpsMlperf = 0; // MLPerf: Σ tokenizer N_out of ok requests issued in [W0, W1) ÷ window
    double inputTpsPerPrefillGpu = 0; // input tokens/s ÷ prefill GPUs (= all GPUs when not disaggregated)
    double goodputTps = 0;            // Σ N_out of requests meeting every SLO ÷ window

    StatSummary ttftMs;
    StatSummary ttftQMs;
    StatSummary tpotMs;
    StatSummary e2eMs;
    StatSummary chunkGapMs;
    StatSummary interactivityTpsUser;
    StatSummary tpotMlperfMs; // extension
};

// Extension "prompts": prompt tokens as the server counted them (usage.prompt_tokens) against the intended
// ISL, and the prefix-cache hit rate (usage.prompt_tokens_details.cached_tokens). Successful measured
// requests only. NaN = not measured (JSON null).
struct PromptTokenStats {
    int nUsage = 0;               // requests reporting usage.prompt_tokens (0: "prompts" is not written)
    double islIntendedMean = 0;   // mean intended ISL of those requests
    double islErrorMean = 0;      // mean of (usage.prompt_tokens − intended ISL), tokens
    double islErrorMax = 0;       // the error of largest magnitude, signed, tokens
    double islErrorPct = 0;       // 100 × mean |error| ÷ mean intended ISL
    bool islErrorFlagged = false; // islErrorPct > kIslErrorFlagPct (also a validity note)
    int nCachedReported = 0;      // requests reporting cached_tokens
    double promptTokens = 0;      // Σ usage.prompt_tokens of the requests reporting cached_tokens
    double cachedTokens = 0;      // Σ cached_tokens
    double cacheHitRate = 0;      // cachedTokens ÷ promptTokens; NaN when no request reported cached_tokens
    static constexpr double kIslErrorFlagPct = 1.0;
    bool operator==(const PromptTokenStats &) const = default;
};

// Extension "intervals" (results schema /3, docs/metrics.md "Intervals"): the confidence interval of every
// reported statistic of the point at one level, keyed like metricValue — metric key → stat key → interval,
// scalars under the stat "value". An interval's estimate is the metric's own value. Empty = not computed
// (files written before /3, imports without request records).
struct PointIntervals {
    double level = 0; // nominal confidence level of every interval here; 0 when empty
    std::map<std::string, std::map<std::string, Interval, std::less<>>, std::less<>> byMetric;

    bool empty() const { return byMetric.empty(); }
    const Interval *find(std::string_view metric, std::string_view stat) const;
    void set(std::string_view metric, std::string_view stat, const Interval &interval);
};

struct PointResult {
    PointLoad load;
    double windowS = 0;                // W1 − W0 in seconds
    int nSent = 0;                     // measured requests (non-warm-up, t_send in [W0, W1))
    int nOk = 0;                       // of which successful
    std::map<std::string, int> errors; // error class key → count, measured requests only
    PointValidity validity;
    ClientObservations client;
    PointMetrics metrics;
    // Extensions: counts behind the definitions.
    int nTpotUndefined = 0;  // ok requests with N_out − N_first < 1 (excluded from TPOT stats)
    int nOutApproximate = 0; // ok requests whose N_out came from event counting
    double w0S = 0;          // window start, s since run t=0
    double w1S = 0;          // window end, s since run t=0
    // Extension "telemetry": server-side summary of the window and stall/replica counts, flat numbers keyed
    // with their unit (kv_cache_usage_peak, waiting_mean, energy_per_output_token_j, stalled_requests, …;
    // filled by RunController, listed in resources/schemas/results.schema.json). Empty = not written.
    std::map<std::string, double> telemetry;
    PromptTokenStats prompts; // extension "prompts" (written when nUsage > 0)
    // Extension "workload": session/chain metrics of multi-turn and agentic workloads (sessions, sessions_ok,
    // chain_latency_ms_p50, ttft_sum_ms_mean, model_wait_ms_mean, think_ms_mean, client_gap_ms_mean, …;
    // filled by RunController from core/workload, docs/workloads.md). Empty = not written.
    std::map<std::string, double> workload;
    PointIntervals intervals; // extension "intervals" (written when not empty)
    // Extension "intervals_across" (results /4, docs/metrics.md "Repeats"): for a repeated load, the
    // Student-t interval of each statistic's mean over the load's repeats (core/metrics/repeatgroups.h),
    // the same on every repeat of the load; estimate = that mean, effectiveN = the repeats. Derived from the
    // repeats' values: recomputed whenever a scenario's points are put together, never read back.
    PointIntervals acrossRepeats;
    // Extension "server_timing" (results /5, docs/server-timing.md): the point's requests split into client,
    // network and server parts from the server's own per-request timing. Empty = no timing format set.
    ServerTimingSummary serverTiming;

    // Metric lookup by vocabulary key and stat: ("output_tps_per_gpu", "value"),
    // ("ttft_ms", "p90"). nullopt when unknown, undefined or not reportable (min-n rule).
    std::optional<double> metricValue(std::string_view metric, std::string_view stat) const;
    // The same statistic with its interval (estimate = metricValue). nullopt when the value is not there or
    // no interval was computed for it.
    std::optional<Interval> metricInterval(std::string_view metric, std::string_view stat) const;
    // The across-repeat interval of the statistic (nullopt when the load is not repeated or the stat has
    // none).
    std::optional<Interval> acrossRepeatInterval(std::string_view metric, std::string_view stat) const;
    // MLPerf Endpoints curve point: x = output_tps_per_gpu, y = 1000 / TPOT p90 (tokens/s per user).
    // nullopt when TPOT p90 is not reportable.
    std::optional<std::pair<double, double>> curvePoint() const;

    nlohmann::json toJson() const;
    static Result<PointResult> fromJson(const nlohmann::json &j);
};

// The distribution-metric keys in results.json order, and the scalar ones.
std::vector<std::string_view> distributionMetricKeys();
std::vector<std::string_view> scalarMetricKeys();

} // namespace Throughline
