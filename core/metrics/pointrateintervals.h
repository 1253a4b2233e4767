#pragma once
// The window-rate half of a point's intervals (pointintervals.h): the block bootstrap over time slices for
// every scalar — output tokens by event time (output_tps, its per-GPU variants), the measured successful
// requests and their tokens by send time (request_rate, goodput, input and MLPerf tokens), both together
// (total_tps_per_gpu), and output_tps_whole over its own span. Pure functions, any thread.

#include "core/metrics/pointintervals.h"

namespace Throughline {

// Successful measured requests of the point.
std::size_t measuredOk(std::span<const RequestRecord> records, std::span<const RequestMetrics> metrics,
                       const PointWindow &window);
// Bootstrap time slices: options.slices, else one per 4 measured requests in [20, 400].
std::size_t defaultSlices(std::span<const RequestRecord> records, std::span<const RequestMetrics> metrics,
                          const PointWindow &window, const PointIntervalOptions &options);
// Adds the interval of every scalar metric at in.confidenceLevel.
void addRateIntervals(PointIntervals &out, const PointInput &in, std::span<const RequestMetrics> metrics,
                      const PointWindow &window);

} // namespace Throughline
