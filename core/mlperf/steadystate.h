#pragma once
// MLPerf Endpoints §4.4 steady state of one point (EPR-30/31): the measured requests, in issue order, are cut
// into super-passes of one dataset pass each (the reference's common case); per super-pass each gating metric
// (TTFT / TPOT at P50 and P90, the preset's list) is one value, and a Mann–Kendall trend test across the
// super-passes (two-sided, tie-corrected, α = 0.05) classifies it Plateau, Drifting Up or Drifting Down. As
// in the reference's segmentation (mlcommons/endpoints docs/steady-state-detection.md §5.5), a significant
// trend only counts when it is also practically large: the OLS-fitted change over the window is at least
// kMinRelativeDrift of the metric's median. The point is in steady state when every gating metric is a
// Plateau over at least `minSuperPasses` super-passes.
// Simplifications against the reference, stated so a reader can weigh them: the window is every measured
// request (Throughline's warm-up is already excluded; no adaptive warm-up crop, no drain-tail cut, no
// change-point search for later plateaus), and the Hamed–Rao autocorrelation correction is not applied — it
// only widens the test's variance for autocorrelated series, so this test calls drift at least as readily.
// Pure; any thread.

#include <string>
#include <vector>

namespace Throughline::Mlperf {

struct SteadyStateSample {
    double ttftMs = 0; // NaN when the request has none (failed, no first token)
    double tpotMs = 0; // the rules' TPOT: first chunk to completion ÷ tokens after the first chunk
};

enum class TrendState { Plateau, DriftingUp, DriftingDown, NotEnoughData };
const char *trendStateKey(TrendState s); // "plateau", "drifting_up", "drifting_down", "not_enough_data"

struct MetricTrend {
    std::string metric;               // "ttft_p50", "tpot_p90", …
    std::vector<double> perSuperPass; // the metric in each super-pass (NaN where a pass had no value)
    double mannKendallZ = 0;
    double pValue = 1;        // two-sided
    double relativeDrift = 0; // OLS slope × (n − 1) ÷ median
    TrendState state = TrendState::NotEnoughData;
};

struct SteadyStateAssessment {
    int superPasses = 0;
    bool steady = false;
    // "STEADY STATE"; "not found: tpot_p90 drifting up (+12.3 % over 8 super-passes, p 0.0012)"; or
    // "insufficient_passes: 3 super-passes, at least 4 needed".
    std::string verdict;
    std::vector<MetricTrend> metrics;     // gating metrics, in the preset's order
    std::vector<MetricTrend> diagnostics; // trend-tested, never deciding (the preset's diagnostic_metrics)
    std::string warnings;                 // "ttft_p50 drifting up (+110.0 % over 32 super-passes, p 0.0000)"
};

inline constexpr double kTrendAlpha = 0.05;
inline constexpr double kMinRelativeDrift = 0.05;

// `samples`: the point's measured requests in issue order; `superPassSize`: samples per super-pass (the
// dataset size, > 0); `gatingMetrics` / `diagnosticMetrics`: keys as in the preset ("ttft_p50", "ttft_p90",
// "tpot_p50", "tpot_p90"; unknown keys are NotEnoughData and make the point not steady).
SteadyStateAssessment assessSteadyState(const std::vector<SteadyStateSample> &samples,
                                        long long superPassSize,
                                        const std::vector<std::string> &gatingMetrics, int minSuperPasses,
                                        const std::vector<std::string> &diagnosticMetrics = {});

// The trend test alone on one series (NaNs skipped). Exposed for tests.
MetricTrend trendOf(std::string metric, std::vector<double> series);

} // namespace Throughline::Mlperf
