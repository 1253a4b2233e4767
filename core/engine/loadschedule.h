#pragma once
// Pure helpers of the schedulers: open-loop arrival times, closed-loop budgets, curve concurrency lists
// (log2 and MLPerf Endpoints regions), the curve early-stop rule and search bisection. No threads, no I/O.

#include "core/campaign/loadplan.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace Throughline {

// Arrival offsets (ns from the point start) for rate λ over durationS, per vLLM's parameterisation:
// Poisson = exponential gaps (mean 1/λ); Constant = 1/λ; Gamma shape = burstiness, scale = 1/(λ·burstiness).
std::vector<std::int64_t> arrivalOffsetsNs(LoadPlan::Arrival arrival, double rate, double burstiness,
                                           double durationS, std::uint64_t seed);

// Requests of one point: a closed point's budget, or an open point's planned counts (openLoopBudget).
struct ClosedBudget {
    int measured = 0; // requests counted by the metrics (after warm-up)
    int warmup = 0;
    int total() const { return measured + warmup; }
};
ClosedBudget closedBudget(const LoadPlan &plan, int concurrency);

// Length of an open-loop point's measured arrival schedule at `rate` (model seconds, after plan.warmupS):
// plan.pointDurationS when set, else requestCount ÷ rate, else requestMultiplier (read as seconds). The one
// definition used by the engine's open points, workload sessions, the CLI's run plan and planned requests.
double openLoopMeasuredS(const LoadPlan &plan, double rate);

// Requests an open-loop point at `rate` is planned to send (its arrivals are random, so the engine's own
// count varies around this): warm-up = rate × plan.warmupS, measured = rate × openLoopMeasuredS, each
// rounded. The one definition behind the CLI's run plan, planned requests and the Run page's per-point
// progress.
ClosedBudget openLoopBudget(const LoadPlan &plan, double rate);

// Load points a plan offers, for progress and planned-point lists: closed = its concurrencies, open = its
// rates, curve = curveConcurrencies(plan), search = at most searchMaxPoints; each × plan.repeats.
int plannedPointCount(const LoadPlan &plan);

// Requests a plan will send, for progress and ETA (curve and search estimated from their point lists), ×
// plan.repeats. 0 for closed-loop points bounded by duration (plan.pointDurationS): their duration, not a
// count, ends them (plannedIssueSeconds).
std::uint64_t plannedRequests(const LoadPlan &plan);
// Model seconds of measured issue a duration-bounded closed, curve or search plan plans (points ×
// pointDurationS); 0 for other plans.
double plannedIssueSeconds(const LoadPlan &plan);

// Curve points from plan.cMin … plan.cMax: Log2 = powers of two (cMin and cMax included);
// MlperfEndpoints = v1.0 regions: Ultra-Low 1–32 (1, 2, 4, 8, 16, 32 within [cMin, cMax]), then three regions
// Low/Medium/High splitting log2(cMax − cMin) into thirds, each with 3 points (coverage 1+3+3 beyond
// ultra-low), deduplicated and sorted.
std::vector<int> curveConcurrencies(const LoadPlan &plan);

// Early stop after a curve point: throughput gain < 3 % over the previous point and TTFT p90 at least doubled
// versus the first point.
bool curveShouldStop(double prevTps, double tps, double firstTtftP90Ms, double ttftP90Ms);

// Bisection over integer concurrency for the highest value meeting the SLOs.
class SearchBisection
{
public:
    SearchBisection(int lo, int hi, int maxPoints);
    std::optional<int> next() const; // next concurrency to measure, nullopt when done
    void report(int concurrency, bool meetsSlo);
    int best() const { return m_best; } // 0 when none met the SLOs
    int measured() const { return m_measured; }

private:
    int m_lo, m_hi, m_maxPoints;
    int m_best = 0;
    int m_measured = 0;
};

} // namespace Throughline
