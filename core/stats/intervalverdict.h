#pragma once
// Verdict arithmetic on intervals: a check passes only when the whole interval is on the good side of the
// target, fails only when the whole interval is on the bad side, and is inconclusive when the interval
// straddles the target (the sample cannot tell). A side the sample could not bound (±∞) can never be
// on one side of a target, so it can only give a verdict through its other side.
//
// The threshold may itself be an interval: Exemplar's "≥ 95 % of the baseline" rule judged against a
// baseline run whose own figure is uncertain. Then pass needs the value's interval beyond the threshold's
// far end, fail needs it beyond the near end, anything between is inconclusive. Pure functions.

#include "core/stats/interval.h"

#include <string_view>

namespace Throughline {

enum class IntervalVerdict { Pass, Fail, Inconclusive };
std::string_view intervalVerdictName(IntervalVerdict v); // "pass", "fail", "inconclusive"

enum class TargetDirection {
    AtLeast, // cmp ">=": higher is good (throughput)
    AtMost,  // cmp "<=": lower is good (latency)
};

// A target that is a number: [target, target].
struct Threshold {
    double lower = 0;
    double upper = 0;
    static Threshold exactly(double v) { return {v, v}; }
};

// The threshold of the baseline rule: factor × baseline for AtLeast (value ≥ 0.95·baseline), baseline ÷
// factor for AtMost (value ≤ baseline / 0.95), over the baseline's whole interval. A baseline without
// an interval (a user table) is a point.
Threshold baselineThreshold(const Interval &baseline, TargetDirection direction, double factor = 0.95);

IntervalVerdict judgeInterval(const Interval &value, TargetDirection direction, const Threshold &threshold);
inline IntervalVerdict judgeInterval(const Interval &value, TargetDirection direction, double target)
{
    return judgeInterval(value, direction, Threshold::exactly(target));
}

} // namespace Throughline
