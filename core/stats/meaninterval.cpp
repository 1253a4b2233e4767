#include "core/stats/meaninterval.h"

#include "core/stats/autocorrelation.h"
#include "core/stats/distributions.h"

#include <cmath>
#include <numeric>

namespace Throughline {

Interval meanInterval(std::span<const double> x, double level)
{
    Interval out;
    out.level = level;
    out.method = IntervalMethod::NormalMean;
    const auto n = static_cast<double>(x.size());
    if (x.empty())
        return out;
    out.estimate = std::accumulate(x.begin(), x.end(), 0.0) / n;
    if (x.size() < 2)
        return out;
    double ss = 0;
    for (double v : x)
        ss += (v - out.estimate) * (v - out.estimate);
    const double sd = std::sqrt(ss / (n - 1));
    const double tau = integratedAutocorrelationTime(x);
    const double half = normalQuantile(1 - (1 - level) / 2) * sd * std::sqrt(tau / n);
    out.lower = out.estimate - half;
    out.upper = out.estimate + half;
    return out;
}

} // namespace Throughline
