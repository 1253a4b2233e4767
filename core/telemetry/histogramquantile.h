#pragma once
// Quantile estimate from cumulative histogram buckets, as Prometheus' histogram_quantile() does it:
// find the bucket holding rank q·total and interpolate linearly inside it (lower bound of the first bucket
// is 0 when its upper bound is positive); a rank in the +Inf bucket returns the highest finite bound.
// Returns NaN when total is 0 or the input is inconsistent. Pure.

#include <vector>

namespace Throughline {

double histogramQuantile(double q, const std::vector<double> &upperBounds,
                         const std::vector<double> &cumulativeCounts);

} // namespace Throughline
