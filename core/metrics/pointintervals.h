#pragma once
// Confidence intervals of one load point's statistics (docs/metrics.md "Intervals"), from the same
// records, per-request metrics and window as aggregatePoint: order-statistic bounds for the percentiles
// of the per-request distributions (samples in send order, chunk gaps in event order, for the
// dependence correction) and a block bootstrap over time slices of [W0, W1] for the steady-state output
// throughput, its variants, request rate and goodput. aggregatePoint stores them in PointResult::intervals
// when PointInput::confidenceLevel is set. Pure functions, any thread.

#include "core/engine/requestrecord.h"
#include "core/metrics/pointaggregate.h"
#include "core/metrics/requestmetrics.h"
#include "core/stats/blockbootstrap.h"
#include "core/stats/quantilebounds.h"

#include <span>
#include <vector>

namespace Throughline {

enum class PointDistribution { Ttft, TtftQ, Tpot, E2e, ChunkGap, Interactivity, TpotMlperf };

struct PointIntervalOptions {
    double level = kDefaultConfidenceLevel;
    // Time slices of the window for the bootstrap; 0 = one per 4 measured requests, kept in [20, 400]:
    // enough slices for blocks to be drawn, long enough that a slice spans many scheduler steps — finer
    // slices see prefill-only steps (no tokens) next to decode steps, a short-range negative correlation
    // the blocks miss, and over-cover (bench_intervals: 64 slices 100 %, 32 slices 96.5 % at nominal 95 %).
    std::size_t slices = 0;
};

// The distribution's values over successful measured requests (undefined values skipped), in time
// order: by t_send for per-request metrics, by event time for chunk gaps.
std::vector<double> timeOrderedSample(std::span<const RequestRecord> records,
                                      std::span<const RequestMetrics> metrics, const PointWindow &window,
                                      PointDistribution which);

// The reach of the dependence between requests in send order: the mean number of measured requests sent
// while one is in flight (t_send < t ≤ t_end), rounded up — about C − 1 in a closed loop, rate × E2E in an
// open one. Those requests share batches with it, so their latencies are dependent, and the intervals'
// lag window reaches at least this far (QuantileBoundsOptions::minimumLag, meanInterval): the bandwidth
// rule alone cannot see correlations below its noise threshold, 0.26 at 128 requests.
std::size_t inFlightOverlap(std::span<const RequestRecord> records, std::span<const RequestMetrics> metrics,
                            const PointWindow &window);
QuantileBounds pointPercentileBounds(std::span<const RequestRecord> records,
                                     std::span<const RequestMetrics> metrics, const PointWindow &window,
                                     PointDistribution which, double p,
                                     const PointIntervalOptions &options = {});

// output_tps (steady state): output tokens of content events in [W0, W1] from any request, per slice,
// with the same tokens-per-event rule as OutputThroughput; the estimate equals OutputThroughput's.
BootstrapResult steadyOutputTpsInterval(std::span<const RequestRecord> records,
                                        std::span<const RequestMetrics> metrics, const PointWindow &window,
                                        const PointIntervalOptions &options = {});

// Every interval of the point (PointIntervals's keys: results.json metric and stat keys) at
// in.confidenceLevel, from the records, metrics and window aggregatePoint used; `values` is the point it
// built (which percentiles are reportable, the GPU divisors). Percentiles get order-statistic bounds where
// the min-n rule reports them, means the dependence-corrected normal interval (meaninterval.h), every rate
// over the window the block bootstrap: output tokens by event time, requests and their tokens by send time.
PointIntervals computePointIntervals(const PointInput &in, std::span<const RequestMetrics> metrics,
                                     const PointWindow &window, const PointResult &values);

} // namespace Throughline
