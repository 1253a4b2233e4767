#pragma once
// The MLPerf Endpoints curve as a step-function frontier (rules §5.2, EPR-06/07): Y = system tokens/s,
// X = tokens/s per user = 1000 / TPOT p90 (ms). The curve is not interpolated: the throughput the frontier
// reports at an interactivity level x is the best system tokens/s of any measured point that is at least
// that interactive (tpsPerUser ≥ x), so it holds constant between points and drops at each point's x.
// The capacity planner reuses it with other axes (per-GPU throughput): nothing here knows about MLPerf's
// thresholds. Pure computation; any thread.

#include <optional>
#include <vector>

namespace Throughline {

struct PointResult;

namespace Mlperf {

struct CurvePoint {
    int concurrency = 0;   // the point's fixed concurrency (label only; 0 when not known)
    double systemTps = 0;  // Y: output tokens/s of the whole system
    double tpsPerUser = 0; // X: 1000 / TPOT p90 in ms
    bool operator==(const CurvePoint &) const = default;
};

// One step of the frontier: the throughput `systemTps` holds for interactivity in (xFrom, xTo].
struct FrontierStep {
    double xFrom = 0;
    double xTo = 0;
    double systemTps = 0;
    int concurrency = 0; // the point that sets this step
    bool operator==(const FrontierStep &) const = default;
};

class Frontier
{
public:
    Frontier() = default;
    // Points with a non-finite or non-positive coordinate are not part of any curve and are dropped
    // (kept in rejected() so a chart can show them hollow).
    explicit Frontier(std::vector<CurvePoint> points);

    // Pareto-optimal points, ascending tpsPerUser (and so descending systemTps).
    const std::vector<CurvePoint> &points() const { return m_frontier; }
    // Measured points that another point beats on both axes (or ties on one and beats on the other).
    const std::vector<CurvePoint> &dominated() const { return m_dominated; }
    const std::vector<CurvePoint> &rejected() const { return m_rejected; }
    bool empty() const { return m_frontier.empty(); }

    // The step function from x = 0 to the most interactive point, one step per frontier point.
    std::vector<FrontierStep> steps() const;
    // Throughput at interactivity `tpsPerUser`: the best systemTps among points with tpsPerUser ≥ level.
    // nullopt beyond the most interactive point (nothing measured is that interactive) or for level < 0.
    std::optional<double> throughputAt(double tpsPerUser) const;
    // Area under the step function over [0, max tpsPerUser] (tokens/s × tokens/s/user).
    double area() const;
    // Area over [xFrom, xTo] ∩ [0, max tpsPerUser]; 0 for an empty or inverted range.
    double area(double xFrom, double xTo) const;
    double maxTpsPerUser() const { return m_frontier.empty() ? 0 : m_frontier.back().tpsPerUser; }

private:
    std::vector<CurvePoint> m_frontier;
    std::vector<CurvePoint> m_dominated;
    std::vector<CurvePoint> m_rejected;
};

// A run's frontier against a baseline's (InferenceX-app#364): areas over the interactivity range both
// curves cover, and throughput at fixed interactivity levels.
struct LevelComparison {
    double tpsPerUser = 0;
    std::optional<double> run;      // throughputAt(level) of the run
    std::optional<double> baseline; // of the baseline
    std::optional<double> ratio;    // run / baseline when both exist and baseline > 0
};
struct FrontierComparison {
    double xTo = 0;                  // common range is [0, xTo] = min of both curves' max tpsPerUser
    double runArea = 0;              // over the common range
    double baselineArea = 0;         // over the common range
    std::optional<double> areaRatio; // runArea / baselineArea when baselineArea > 0
    std::vector<LevelComparison> levels;
};
FrontierComparison compareFrontiers(const Frontier &run, const Frontier &baseline,
                                    const std::vector<double> &levels);

// The official coordinates of one measured point (rules §4.1, EPR-01/02, CLI-05): systemTps = the `mlperf`
// throughput variant (tokenizer output tokens of requests issued in the window ÷ window), falling back to
// the steady-state output_tps when the variant is missing; tpsPerUser = 1000 / p90 of `tpot_mlperf_ms`
// (TPOT excluding TTFT, per output token after the first chunk). MLPerf reports p90 at any sample count,
// so the raw p90 is used (the early-stopping estimate rule is a separate check). nullopt without TPOT.
std::optional<CurvePoint> curvePointOf(const PointResult &point);

} // namespace Mlperf
} // namespace Throughline
