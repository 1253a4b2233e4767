#pragma once
// A statistic with its confidence interval. Lower/upper may be −∞/+∞ when the sample cannot bound that
// side at the requested level (too few samples): such a value is reported as "not enough data", and a
// verdict on it can only be inconclusive. Plain value type, any thread.

#include <cmath>
#include <limits>
#include <optional>
#include <string_view>

namespace Throughline {

// The confidence level of every interval: a campaign setting, default 95 %. Presets with a rule of their
// own (MLPerf's early-stopping estimates at 0.99) keep theirs for their own checks.
inline constexpr double kDefaultConfidenceLevel = 0.95;

// How an interval was made (stored next to it so a report can say so).
enum class IntervalMethod {
    None,           // no interval (not computed)
    OrderStatistic, // distribution-free order-statistic bounds of a percentile (quantilebounds.h)
    BlockBootstrap, // circular block bootstrap over time slices (blockbootstrap.h)
    StudentT,       // mean of independent repeats (repeatinterval.h)
    NormalMean, // mean of a time-ordered sample: x̄ ± z·s·√(τ/n), τ its autocorrelation time (meaninterval.h)
};
std::string_view intervalMethodName(IntervalMethod m);
// The inverse of intervalMethodName; nullopt for an unknown name.
std::optional<IntervalMethod> intervalMethodFromName(std::string_view name);

struct Interval {
    double estimate = std::numeric_limits<double>::quiet_NaN();
    double lower = -std::numeric_limits<double>::infinity();
    double upper = std::numeric_limits<double>::infinity();
    double level = kDefaultConfidenceLevel; // nominal confidence level
    IntervalMethod method = IntervalMethod::None;
    // Order statistics: the effective sample size n / τ the ranks were computed for (0 = not known). It says
    // how far an open side is from being bounded (samplesize.h's minimum n counts effective samples).
    double effectiveN = 0;

    bool hasLower() const { return std::isfinite(lower); }
    bool hasUpper() const { return std::isfinite(upper); }
    bool bounded() const { return hasLower() && hasUpper(); }
    bool contains(double v) const { return v >= lower && v <= upper; }
    double width() const { return upper - lower; }
};

} // namespace Throughline
