#include "core/stats/intervalverdict.h"

#include <cmath>

namespace Throughline {

std::string_view intervalVerdictName(IntervalVerdict v)
{
    switch (v) {
    case IntervalVerdict::Pass:
        return "pass";
    case IntervalVerdict::Fail:
        return "fail";
    case IntervalVerdict::Inconclusive:
        return "inconclusive";
    }
    return "inconclusive";
}

Threshold baselineThreshold(const Interval &baseline, TargetDirection direction, double factor)
{
    double lo = baseline.bounded() ? baseline.lower : baseline.estimate;
    double hi = baseline.bounded() ? baseline.upper : baseline.estimate;
    if (direction == TargetDirection::AtLeast)
        return {lo * factor, hi * factor};
    return {lo / factor, hi / factor};
}

IntervalVerdict judgeInterval(const Interval &value, TargetDirection direction, const Threshold &t)
{
    if (std::isnan(value.estimate))
        return IntervalVerdict::Inconclusive;
    if (direction == TargetDirection::AtLeast) {
        if (value.lower >= t.upper) // ±∞ compare correctly: −∞ never passes, +∞ never fails
            return IntervalVerdict::Pass;
        if (value.upper < t.lower)
            return IntervalVerdict::Fail;
        return IntervalVerdict::Inconclusive;
    }
    if (value.upper <= t.lower)
        return IntervalVerdict::Pass;
    if (value.lower > t.upper)
        return IntervalVerdict::Fail;
    return IntervalVerdict::Inconclusive;
}

} // namespace Throughline
