#pragma once
// Distribution-free confidence bounds for a percentile from order statistics (e.g. David & Nagaraja,
// "Order Statistics", §7.1): for the sorted sample X_(1) ≤ … ≤ X_(n) and the true p-quantile ξ_p,
//     P(X_(l) ≤ ξ_p ≤ X_(u)) = F(u − 1) − F(l − 1),   F = CDF of Binomial(n, p),
// whatever the distribution. The equal-tailed choice: l = the largest rank with F(l − 1) ≤ α/2, u = the
// smallest rank with F(u − 1) ≥ 1 − α/2 (α = 1 − level), so each side misses with probability ≤ α/2 and
// the coverage is ≥ level (exactly F(u − 1) − F(l − 1), reported). When no rank qualifies the side is
// unbounded (−∞/+∞): e.g. p99 at 95 % needs n ≥ 368 for an upper bound (0.99^n ≤ 0.025).
//
// Dependence: the binomial law assumes independent samples. Requests of a closed loop are not (a batch
// of C requests released together shares its state), so the ranks are computed for an effective sample
// size n_eff = n / τ, τ the integrated autocorrelation time of the indicator series 1{x_i ≤ q̂_p} in time
// order (autocorrelation.h), and mapped back onto the whole sample at the same fractions
// (lower rank ⌊l·n/n_eff⌋, upper ⌈u·n/n_eff⌉): wider bounds, never narrower ones.
//
// τ is itself estimated, with ν equivalent degrees of freedom (autocorrelation.h), and on a short series
// (a closed-loop point of 128 requests) it is noisy: an interval whose half-width is z·√(τ̂ / n) covers
// less than the level, as a normal interval with an estimated variance does. The usual remedy is
// Student's t: the ranks are computed at the level whose normal quantile is t_{ν, 1−α/2}, i.e. at
// 2·Φ(t_{ν, 1−α/2}) − 1 (the binomial rank rule is the normal one, z·√(n p (1 − p)), in the large). Only
// where τ was estimated (the lag window M > 0); with no dependence seen the binomial law is exact. Pure
// functions.

#include "core/stats/interval.h"

#include <cstddef>
#include <span>
#include <vector>

namespace Throughline {

// 1-based ranks of the bounds for n independent samples; 0 = no lower bound, n + 1 = no upper bound.
struct OrderStatisticRanks {
    long long lower = 0;
    long long upper = 0;
    double coverage = 0; // exact F(u − 1) − F(l − 1)
};
OrderStatisticRanks orderStatisticRanks(long long n, double p, double level);

struct QuantileBoundsOptions {
    double level = kDefaultConfidenceLevel;
    // Correct for dependence between neighbouring samples (the series must then be in time order).
    bool dependenceCorrection = true;
    std::size_t minimumLag = 0; // the lag window's truncation lag M is at least this
};

struct QuantileBounds {
    Interval interval;           // estimate = NumPy-linear percentile (core/metrics/stats.h's rule)
    OrderStatisticRanks ranks;   // ranks into the whole sample
    double effectiveN = 0;       // n / τ
    double tau = 1;              // integrated autocorrelation time of the indicator series
    double degreesOfFreedom = 0; // ν of τ; 0 where τ was not estimated (no correction)
    double rankLevel = 0;        // the level the ranks were computed at: ≥ the interval's level
};

// The level whose normal quantile is Student's t_{ν, 1−α/2} at the given level: 2·Φ(t) − 1. The level
// itself for ν ≤ 0 (no t correction); tends to it as ν → ∞.
double studentizedLevel(double level, double degreesOfFreedom);

// Bounds for the p-quantile (p in (0, 1)) of a sample given in time order (send order for per-request
// metrics, event order for pooled chunk gaps). NaN estimate and unbounded sides for an empty sample.
QuantileBounds quantileBounds(std::span<const double> timeOrdered, double p,
                              const QuantileBoundsOptions &options = {});
// The same for several percentiles of one sample, sorted once (pooled chunk gaps run to millions).
std::vector<QuantileBounds> quantileBounds(std::span<const double> timeOrdered, std::span<const double> ps,
                                           const QuantileBoundsOptions &options = {});

} // namespace Throughline
