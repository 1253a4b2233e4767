#include "core/stats/meaninterval.h"

#include "core/stats/autocorrelation.h"
#include "core/stats/distributions.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace Throughline {

Interval meanInterval(std::span<const double> x, double level, std::size_t minimumLag)
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
    const AutocorrelationTime t = autocorrelationTime(x, minimumLag);
    // t, not z: τ and s are estimates (ν as autocorrelation.h; at most n − 1, the sample variance's).
    const double nu = std::min(t.degreesOfFreedom, n - 1);
    const double half = studentTQuantile(1 - (1 - level) / 2, nu) * sd * std::sqrt(t.tau / n);
    out.lower = out.estimate - half;
    out.upper = out.estimate + half;
    return out;
}

} // namespace Throughline
