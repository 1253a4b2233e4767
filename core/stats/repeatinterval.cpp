#include "core/stats/repeatinterval.h"

#include "core/stats/distributions.h"

#include <cmath>
#include <numeric>

namespace Throughline {

Interval repeatMeanInterval(std::span<const double> values, double level)
{
    Interval iv;
    iv.level = level;
    iv.method = IntervalMethod::StudentT;
    const auto n = values.size();
    if (n == 0)
        return iv;
    const double mean = std::accumulate(values.begin(), values.end(), 0.0) / double(n);
    iv.estimate = mean;
    if (n < 2)
        return iv;
    double sq = 0;
    for (double v : values)
        sq += (v - mean) * (v - mean);
    const double s = std::sqrt(sq / double(n - 1));
    const double half = studentTQuantile(1.0 - (1.0 - level) / 2.0, double(n - 1)) * s / std::sqrt(double(n));
    iv.lower = mean - half;
    iv.upper = mean + half;
    return iv;
}

const Interval &widerInterval(const Interval &a, const Interval &b)
{
    // Unbounded beats bounded; among bounded ones the larger width wins (ties: the first).
    if (!a.bounded() || !b.bounded())
        return a.bounded() ? b : a;
    return b.width() > a.width() ? b : a;
}

} // namespace Throughline
