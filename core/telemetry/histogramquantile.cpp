#include "core/telemetry/histogramquantile.h"

#include <cmath>
#include <limits>

namespace Throughline {

double histogramQuantile(double q, const std::vector<double> &bounds, const std::vector<double> &cum)
{
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (bounds.empty() || bounds.size() != cum.size() || !(q >= 0.0 && q <= 1.0))
        return nan;
    const double total = cum.back();
    if (!(total > 0.0))
        return nan;
    const double rank = q * total;
    for (std::size_t i = 0; i < bounds.size(); ++i) {
        if (cum[i] < rank)
            continue;
        if (std::isinf(bounds[i]))
            return i > 0 ? bounds[i - 1] : nan;
        const double lower = i > 0 ? bounds[i - 1] : (bounds[0] > 0 ? 0.0 : bounds[0]);
        const double below = i > 0 ? cum[i - 1] : 0.0;
        const double inBucket = cum[i] - below;
        if (inBucket <= 0.0)
            return bounds[i];
        return lower + (bounds[i] - lower) * (rank - below) / inBucket;
    }
    return bounds.size() > 1 ? bounds[bounds.size() - 2] : nan;
}

} // namespace Throughline
