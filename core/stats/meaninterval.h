#pragma once
// Interval of the mean of a time-ordered sample (per-request latencies in send order):
// x̄ ± t_{ν, 1−α/2} · s · √(τ / n), s the sample standard deviation (n − 1 divisor) and τ the integrated
// autocorrelation time of the series (autocorrelation.h), so n / τ effective samples stand for the n
// dependent requests of a closed loop. Student's t with the lag-window estimate's ν equivalent degrees of
// freedom (autocorrelation.h; at most n − 1), because s²·τ is an estimate: ν ≈ 3n / (4M), so a short,
// correlated series gets a wider interval than z would give. Unbounded for n < 2. Pure function.

#include "core/stats/interval.h"

#include <cstddef>
#include <span>

namespace Throughline {

// minimumLag: the lag window's truncation lag M is at least this (autocorrelationTime).
Interval meanInterval(std::span<const double> timeOrdered, double level = kDefaultConfidenceLevel,
                      std::size_t minimumLag = 0);

} // namespace Throughline
