#pragma once
// Interval of the mean of a time-ordered sample (per-request latencies in send order): the normal
// approximation x̄ ± z_{1−α/2} · s · √(τ / n), s the sample standard deviation (n − 1 divisor) and τ the
// integrated autocorrelation time of the series (autocorrelation.h), so n / τ effective samples stand for
// the n dependent requests of a closed loop. Unbounded for n < 2. Pure function.

#include "core/stats/interval.h"

#include <span>

namespace Throughline {

Interval meanInterval(std::span<const double> timeOrdered, double level = kDefaultConfidenceLevel);

} // namespace Throughline
