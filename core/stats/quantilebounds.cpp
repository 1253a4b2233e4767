#include "core/stats/quantilebounds.h"

#include "core/stats/autocorrelation.h"
#include "core/stats/distributions.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace Throughline {

namespace {
// NumPy-linear percentile of a sorted sample: the same rule as core/metrics/stats.h (which this layer
// sits below, so it cannot include it); tst_quantilebounds checks the two agree.
double linearPercentile(std::span<const double> s, double p)
{
    const double h = double(s.size() - 1) * p;
    const auto lo = std::size_t(std::floor(h));
    const double frac = h - double(lo);
    if (lo + 1 >= s.size() || frac == 0.0)
        return s[lo];
    return s[lo] + frac * (s[lo + 1] - s[lo]);
}
} // namespace

OrderStatisticRanks orderStatisticRanks(long long n, double p, double level)
{
    OrderStatisticRanks r;
    r.lower = 0;
    r.upper = n + 1;
    if (n <= 0 || !(p > 0 && p < 1)) {
        r.coverage = 0;
        return r;
    }
    const double halfAlpha = (1.0 - level) / 2.0;
    auto F = [&](long long k) { return binomialCdf(k, n, p); };
    // Start near the normal approximation and walk: F is monotone, a few steps find the exact rank.
    const double sd = std::sqrt(double(n) * p * (1 - p));
    const double z = normalQuantile(1.0 - halfAlpha);
    long long k = std::clamp<long long>((long long)std::floor(double(n) * p - z * sd), 0, n);
    // Lower: the largest l ≥ 1 with F(l − 1) ≤ α/2, i.e. the largest k = l − 1 ≥ 0 with F(k) ≤ α/2.
    if (F(0) <= halfAlpha) {
        while (k > 0 && F(k) > halfAlpha)
            --k;
        while (k + 1 < n && F(k + 1) <= halfAlpha)
            ++k;
        r.lower = k + 1;
    }
    // Upper: the smallest u ≤ n with F(u − 1) ≥ 1 − α/2.
    k = std::clamp<long long>((long long)std::ceil(double(n) * p + z * sd), 0, n - 1);
    if (F(n - 1) >= 1.0 - halfAlpha) {
        while (k < n - 1 && F(k) < 1.0 - halfAlpha)
            ++k;
        while (k > 0 && F(k - 1) >= 1.0 - halfAlpha)
            --k;
        r.upper = k + 1;
    }
    const double fu = r.upper <= n ? F(r.upper - 1) : 1.0;
    const double fl = r.lower >= 1 ? F(r.lower - 1) : 0.0;
    r.coverage = fu - fl;
    return r;
}

double studentizedLevel(double level, double degreesOfFreedom)
{
    if (!(degreesOfFreedom > 0))
        return level;
    const double t = studentTQuantile(1.0 - (1.0 - level) / 2.0, degreesOfFreedom);
    return 2.0 * normalCdf(t) - 1.0;
}

namespace {
QuantileBounds boundsOfSorted(std::span<const double> timeOrdered, std::span<const double> sorted, double p,
                              const QuantileBoundsOptions &options)
{
    QuantileBounds b;
    b.interval.level = options.level;
    b.rankLevel = options.level;
    b.interval.method = IntervalMethod::OrderStatistic;
    const auto n = (long long)timeOrdered.size();
    if (n == 0)
        return b;
    b.interval.estimate = linearPercentile(sorted, p);

    if (options.dependenceCorrection && n >= 3) {
        std::vector<double> indicator;
        indicator.reserve(timeOrdered.size());
        for (double v : timeOrdered)
            indicator.push_back(v <= b.interval.estimate ? 1.0 : 0.0);
        const AutocorrelationTime t = autocorrelationTime(indicator, options.minimumLag);
        b.tau = t.tau;
        // With no dependence seen (M = 0) τ = 1 is not an estimate and the binomial law is exact.
        if (t.truncationLag > 0) {
            b.degreesOfFreedom = t.degreesOfFreedom;
            b.rankLevel = studentizedLevel(options.level, t.degreesOfFreedom);
        }
    }
    const auto nEff = std::max<long long>(1, (long long)std::floor(double(n) / b.tau));
    b.effectiveN = double(nEff);
    b.interval.effectiveN = b.effectiveN;
    const OrderStatisticRanks eff = orderStatisticRanks(nEff, p, b.rankLevel);
    b.ranks.coverage = eff.coverage;
    // Same fractions of the whole sample (identity when n_eff = n).
    b.ranks.lower = eff.lower >= 1 ? (long long)std::floor(double(eff.lower) * double(n) / double(nEff)) : 0;
    b.ranks.upper = eff.upper <= nEff
                        ? std::min(n, (long long)std::ceil(double(eff.upper) * double(n) / double(nEff)))
                        : n + 1;
    if (b.ranks.lower >= 1)
        b.interval.lower = sorted[std::size_t(b.ranks.lower - 1)];
    if (b.ranks.upper <= n)
        b.interval.upper = sorted[std::size_t(b.ranks.upper - 1)];
    return b;
}
} // namespace

std::vector<QuantileBounds> quantileBounds(std::span<const double> timeOrdered, std::span<const double> ps,
                                           const QuantileBoundsOptions &options)
{
    std::vector<double> sorted(timeOrdered.begin(), timeOrdered.end());
    std::sort(sorted.begin(), sorted.end());
    std::vector<QuantileBounds> out;
    out.reserve(ps.size());
    for (double p : ps)
        out.push_back(boundsOfSorted(timeOrdered, sorted, p, options));
    return out;
}

QuantileBounds quantileBounds(std::span<const double> timeOrdered, double p,
                              const QuantileBoundsOptions &options)
{
    const double ps[] = {p};
    return quantileBounds(timeOrdered, ps, options).front();
}

} // namespace Throughline
