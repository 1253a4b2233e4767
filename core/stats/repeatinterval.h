#pragma once
// The across-repeat interval: a point run N times (plan.repeats) gives N independent values of a
// statistic (fresh connections and prompt salts, so repeats share no state). Their mean's Student-t
// interval x̄ ± t_{1−α/2, N−1} · s / √N (s the sample standard deviation, N − 1 divisor) says how
// much the figure moves from run to run — the noise a single run's within-run interval cannot see
// (host, warm-up, placement). Unbounded for N < 2. Pure function.

#include "core/stats/interval.h"

#include <span>

namespace Throughline {

Interval repeatMeanInterval(std::span<const double> values, double level = kDefaultConfidenceLevel);

// The interval a verdict uses when both exist: the wider one (the report says which).
const Interval &widerInterval(const Interval &a, const Interval &b);

} // namespace Throughline
