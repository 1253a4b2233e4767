#include "core/stats/samplesize.h"

#include "core/stats/distributions.h"

#include <algorithm>
#include <cmath>

namespace Throughline {

long long minimumSamplesForLowerBound(double p, double level)
{
    const double halfAlpha = (1 - level) / 2;
    return (long long)std::ceil(std::log(halfAlpha) / std::log1p(-p) - 1e-9);
}

long long minimumSamplesForUpperBound(double p, double level)
{
    const double halfAlpha = (1 - level) / 2;
    return (long long)std::ceil(std::log(halfAlpha) / std::log(p) - 1e-9);
}

SampleSizeEstimate samplesToDecide(const Interval &value, double currentN, const Threshold &t, double power,
                                   std::optional<double> percentile)
{
    SampleSizeEstimate e;
    if (std::isnan(value.estimate) || !(currentN > 0))
        return e;
    // Which end of the threshold decides, and which side of the interval faces it: an estimate above the
    // threshold heads for pass under AtLeast (fail under AtMost) and needs the interval's lower side
    // clear of the threshold's upper end; below, the upper side clear of the lower end.
    double distance = 0;
    double half = 0;
    bool sideOpen = false;
    if (value.estimate > t.upper) {
        distance = value.estimate - t.upper;
        half = value.estimate - value.lower;
        sideOpen = !value.hasLower();
    } else if (value.estimate < t.lower) {
        distance = t.lower - value.estimate;
        half = value.upper - value.estimate;
        sideOpen = !value.hasUpper();
    } else {
        return e; // on (or inside) the threshold: not decidable by more of the same samples
    }
    if (sideOpen) {
        if (!percentile)
            return e;
        const long long minN = value.estimate > t.upper
                                   ? minimumSamplesForLowerBound(*percentile, value.level)
                                   : minimumSamplesForUpperBound(*percentile, value.level);
        e.kind = SampleSizeEstimate::Kind::AtLeast;
        e.requiredN = std::max(double(minN), currentN);
        e.additionalN = std::max(0.0, e.requiredN - currentN);
        return e;
    }
    const double za = normalQuantile(1 - (1 - value.level) / 2);
    const double zb = normalQuantile(power);
    const double ratio = (za + zb) * half / (za * distance);
    e.kind = SampleSizeEstimate::Kind::Estimate;
    e.requiredN = std::ceil(currentN * ratio * ratio);
    e.additionalN = std::max(0.0, e.requiredN - currentN);
    return e;
}

} // namespace Throughline
