#include "core/mlperf/regions.h"

#include <cmath>
#include <string>

namespace Throughline::Mlperf {

std::string_view regionKey(Region r)
{
    switch (r) {
    case Region::UltraLow:
        return "ultra_low";
    case Region::Low:
        return "low";
    case Region::Medium:
        return "medium";
    case Region::High:
        return "high";
    case Region::Margin:
        return "margin";
    case Region::OutOfRange:
        break;
    }
    return "out_of_range";
}

Region RegionBounds::regionOf(int c) const
{
    if (low.contains(c))
        return Region::Low;
    if (medium.contains(c))
        return Region::Medium;
    if (high.contains(c))
        return Region::High;
    if (margin.contains(c))
        return Region::Margin;
    if (ultraLow.contains(c))
        return Region::UltraLow;
    return Region::OutOfRange;
}

ConcurrencyRange RegionBounds::range(Region r) const
{
    switch (r) {
    case Region::UltraLow:
        return ultraLow;
    case Region::Low:
        return low;
    case Region::Medium:
        return medium;
    case Region::High:
        return high;
    case Region::Margin:
        return margin;
    case Region::OutOfRange:
        break;
    }
    return {};
}

long long roundHalfToEven(double x)
{
    const double fl = std::floor(x);
    const double frac = x - fl;
    auto r = static_cast<long long>(fl);
    if (frac > 0.5 || (frac == 0.5 && r % 2 != 0))
        ++r;
    return r;
}

Result<RegionBounds> regionBounds(int cMin, int cMax, const RegionRules &rules)
{
    if (cMin < rules.ultraLowMin || cMin > rules.ultraLowMax)
        return makeError(ErrorCode::InvalidInput, "EPR-12: C_min " + std::to_string(cMin) + " is outside " +
                                                      std::to_string(rules.ultraLowMin) + "…" +
                                                      std::to_string(rules.ultraLowMax));
    if (cMax <= rules.ultraLowMax)
        return makeError(ErrorCode::InvalidInput, "EPR-13: C_max " + std::to_string(cMax) +
                                                      " must be above " + std::to_string(rules.ultraLowMax));
    RegionBounds b;
    b.cMin = cMin;
    b.cMax = cMax;
    b.ultraLow = {rules.ultraLowMin, rules.ultraLowMax};
    // The same floating-point operations as the rules' Python (log2, 2**x, round): same libm, same values.
    const double interval = std::log2(static_cast<double>(cMax - cMin)) / 3.0;
    const auto lowEnd = static_cast<int>(roundHalfToEven(cMin + std::pow(2.0, interval)));
    const auto medEnd = static_cast<int>(roundHalfToEven(cMin + std::pow(2.0, 2.0 * interval)));
    b.low = {cMin + 1, lowEnd};
    b.medium = {lowEnd + 1, medEnd};
    b.high = {medEnd + 1, cMax};
    // ceil((100 + pct) × C_max / 100) in integers: the float 1.1 × 100 is 110.00000000000001, whose ceil
    // would admit 111 — the rule means the exact product.
    const long long scaled = static_cast<long long>(cMax) * (100 + rules.marginPct);
    b.margin = {cMax + 1, static_cast<int>((scaled + 99) / 100)};
    return b;
}

} // namespace Throughline::Mlperf
