#pragma once
// "How many more requests would decide this inconclusive check?" — a normal-approximation power
// calculation on the interval the check already has. Both interval methods narrow as 1/√n (order
// statistics: width ≈ 2z·√(p(1−p)/n)/f(ξ_p); block bootstrap: the rate's standard error over a window
// that grows with the requests), so the interval's half-width h on the target's side gives a standard
// error se = h / z_{1−α/2} at the current n requests. If the true value is the current estimate, at a
// distance d from the threshold, a sample of N requests decides (its interval excludes the threshold)
// with probability 1 − β when d ≥ (z_{1−α/2} + z_{1−β})·se·√(n/N):
//     N = n · ((z_{1−α/2} + z_{1−β}) · h / (z_{1−α/2} · d))².
// Symmetric in the target's direction: it only names which side is "pass". Default power 80 %. When the
// estimate sits on the threshold (d = 0) no sample size decides it; when the target's side is unbounded the
// answer is the smallest n that bounds it at all (order statistics), marked as a minimum. For repeats, n
// counts repeats instead of requests. Pure functions.

#include "core/stats/intervalverdict.h"

#include <optional>

namespace Throughline {

struct SampleSizeEstimate {
    enum class Kind {
        Estimate,     // requiredN is the power calculation above
        AtLeast,      // the side was unbounded: requiredN is only the minimum to bound it
        NotDecidable, // the estimate is on the threshold: more samples of this kind cannot decide
    } kind = Kind::NotDecidable;
    double requiredN = 0;   // total samples (requests, or repeats)
    double additionalN = 0; // requiredN − currentN, ≥ 0
};

// currentN: the sample size behind `value` (requests for per-request and window metrics).
// percentile: for order-statistic intervals with an open side, the percentile (0–1) whose bounds need a
// minimum n; ignored otherwise.
SampleSizeEstimate samplesToDecide(const Interval &value, double currentN, const Threshold &threshold,
                                   double power = 0.8, std::optional<double> percentile = std::nullopt);

// Smallest n for which the equal-tailed order-statistic interval of the p-quantile at `level` has a
// lower bound ((1 − p)ⁿ ≤ α/2) or an upper bound (pⁿ ≤ α/2).
long long minimumSamplesForLowerBound(double p, double level);
long long minimumSamplesForUpperBound(double p, double level);

} // namespace Throughline
